//! Reports of measured runs: a whole table solved (`ply dots solve`) and the strategies side by side
//! on the same positions (`ply bench dots`). The front end measures; these say what it measured.

use super::board::{DotsBoard, EdgeSet};
use super::policy::Policy;
use super::request::DotsQuery;
use crate::engine::scored::choose::{with_solver, SolveOptions};
use crate::engine::scored::{SolveError, Strategy};
use crate::engine::MemoryBudget;
use serde::Serialize;

/// The value of the position `drawn` on `board` by `strategy` alone (a solver of its own, nothing
/// kept), and the states it visited: the unit of the benchmarks that compare strategies.
pub fn value_by(
    board: &DotsBoard,
    strategy: Strategy,
    budget: MemoryBudget,
    drawn: EdgeSet,
) -> Result<(i32, u64), SolveError> {
    with_solver(
        board,
        strategy,
        SolveOptions::new(budget),
        &drawn,
        |solver| Ok((solver.value(&drawn)?, solver.states_visited())),
    )
}

/// The value of `query`'s position as `policy` answers it from the command line (its strategy for
/// the query with nothing kept: [`Policy::strategy`]; a search of the automatic choice giving way
/// to the free-edge table when it runs long), the states visited and the strategy that answered.
pub fn value_by_policy(
    policy: &Policy,
    query: &DotsQuery,
) -> Result<(i32, u64, Strategy), SolveError> {
    let strategy = policy.strategy(query, None);
    let drawn = query.position.drawn();
    let options = SolveOptions {
        search_gives_way: query.strategy == Strategy::Auto,
        search_table_bytes: Some(policy.search_table_bytes(query)),
        ..SolveOptions::new(policy.budget)
    };
    with_solver(&query.built.board, strategy, options, &drawn, |solver| {
        let value = solver.value(&drawn)?;
        let by = solver.answered_by().unwrap_or(strategy);
        Ok((value, solver.states_visited(), by))
    })
}

/// The values of several positions of `board` from one whole table, built once, and the states it
/// holds.
pub fn values_by_table(
    board: &DotsBoard,
    budget: MemoryBudget,
    positions: &[EdgeSet],
) -> Result<(Vec<i32>, u64), SolveError> {
    let empty = EdgeSet::default();
    with_solver(
        board,
        Strategy::Table,
        SolveOptions::new(budget),
        &empty,
        |solver| {
            let values = positions
                .iter()
                .map(|p| solver.value(p))
                .collect::<Result<Vec<i32>, SolveError>>()?;
            Ok((values, solver.states_visited()))
        },
    )
}

/// What `ply dots solve` reports: the value of the empty board and what building the table took.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TableReport {
    /// The value of the empty board for the player to move.
    pub value: i32,
    /// States in the table.
    pub states: u64,
    /// Wall time to solve (or read) the table.
    pub seconds: f64,
    /// States filled per second.
    pub states_per_second: f64,
    /// The process's peak resident memory, when the system tells it.
    pub peak_bytes: Option<u64>,
    /// Whether the table came from the cache instead of being solved.
    pub from_cache: bool,
}

impl TableReport {
    /// The report of a table of `states` states whose empty board is worth `value`, solved (or read,
    /// `from_cache`) in `seconds`.
    pub fn new(
        value: i32,
        states: u64,
        seconds: f64,
        peak_bytes: Option<u64>,
        from_cache: bool,
    ) -> Self {
        TableReport {
            value,
            states,
            seconds,
            states_per_second: states as f64 / seconds,
            peak_bytes,
            from_cache,
        }
    }
}

/// One strategy's run over a list of positions (`ply bench dots`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StrategyRun {
    /// The strategy's name (`recursion`, `memo`, `table`, …).
    pub strategy: &'static str,
    /// Positions solved.
    pub positions: usize,
    /// States the strategy visited in all.
    pub states_visited: u64,
    /// Wall time over all positions.
    pub seconds: f64,
    /// How many times faster than plain recursion, when recursion ran first.
    pub speedup_over_recursion: Option<f64>,
    /// The value of each position, in order.
    pub values: Vec<i32>,
}

/// One position of a series over free edges and each strategy's run on it (`ply bench dots-free`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FreeSeriesRow {
    /// Free edges of the position.
    pub free: u32,
    /// The position's edges, as `ply dots --moves` reads them.
    pub moves: String,
    /// Its value (the same for every strategy that ran); `None` when none ran (each over its
    /// ceiling).
    pub value: Option<i32>,
    /// Each strategy, in the order asked: run, or skipped and why.
    pub runs: Vec<SeriesRun>,
    /// The strategy the policy's automatic choice picks for the position (with the budget and no
    /// time limit, as `ply dots` does).
    pub auto: &'static str,
    /// The automatic choice run as `ply dots` runs it (its search giving way to the free-edge
    /// table when it runs long); its `time_ratio` is against the fastest run of `runs`. Skipped,
    /// as the strategy it picks would be, when that strategy is over its ceiling.
    pub auto_run: SeriesRun,
    /// The strategy that gave the automatic choice's answer, when it ran.
    pub auto_answered_by: Option<&'static str>,
}

/// One strategy on one position of a series.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SeriesRun {
    /// The strategy's name.
    pub strategy: &'static str,
    /// States visited (filled, for a table), when it ran.
    pub states_visited: Option<u64>,
    /// Wall time, when it ran.
    pub seconds: Option<f64>,
    /// Time against the first strategy of the row that ran (its seconds / theirs).
    pub time_ratio: Option<f64>,
    /// Why it did not run (over its ceiling of free edges, or over the memory budget).
    pub skipped: Option<String>,
}
