//! `ply bench dots-free`: one position per count of free edges on one board, each solved by memo,
//! the free-edge table and the search, with states, times and ratios — how each strategy grows
//! with the free edges (issue 13's series). Each strategy runs only up to its ceiling, so a series
//! never starts a run it cannot finish.

use crate::args::MemoryArg;
use crate::failure::Failure;
use clap::Args;
use plysolve::engine::scored::Strategy;
use plysolve::games::dots::measured::{value_by, value_by_policy, FreeSeriesRow, SeriesRun};
use plysolve::games::dots::notation::format_edge;
use plysolve::games::dots::openings::random_position;
use plysolve::games::dots::policy::Policy;
use plysolve::games::dots::request::{Detail, DotsQuery};
use plysolve::games::dots::tables::bytes_needed;
use plysolve::games::dots::{DotsBoard, Edge, EdgeSet, Geometry, Position};
use std::fmt::Write;
use std::time::Instant;

/// Options of `ply bench dots-free`.
#[derive(Args)]
pub struct BenchFreeArgs {
    /// Rows of boxes.
    #[arg(long, default_value_t = 4, conflicts_with = "size")]
    rows: u32,
    /// Columns of boxes.
    #[arg(long, default_value_t = 4, conflicts_with = "size")]
    cols: u32,
    /// A triangle board of this size instead of boxes.
    #[arg(long)]
    size: Option<u32>,
    /// Fewest free edges.
    #[arg(long, default_value_t = 20)]
    from: u32,
    /// Most free edges.
    #[arg(long, default_value_t = 30)]
    to: u32,
    /// Free edges between one position and the next.
    #[arg(long, default_value_t = 2)]
    step: u32,
    /// Seed of the random positions (edges drawn at random, no box one edge short).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Memo runs up to this many free edges (it slows fast past 24).
    #[arg(long, default_value_t = 24, value_name = "FREE")]
    memo_up_to: u32,
    /// The search runs up to this many free edges.
    #[arg(long, default_value_t = 32, value_name = "FREE")]
    search_up_to: u32,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    memory: MemoryArg,
}

/// The strategies compared, in the order they run on each position.
const STRATEGIES: [Strategy; 3] = [Strategy::Memo, Strategy::FreeTable, Strategy::Search];

/// Runs `ply bench dots-free`.
pub fn run(args: BenchFreeArgs) -> Result<String, Failure> {
    let geometry = match args.size {
        Some(size) => Geometry::Triangles { size },
        None => Geometry::Boxes {
            rows: args.rows,
            cols: args.cols,
        },
    };
    let built = geometry.build().map_err(Failure::bad)?;
    let board = &built.board;
    let edges = board.edge_count() as u32;
    if args.step == 0 {
        return Err(Failure::bad("--step must be at least 1"));
    }
    if args.from > args.to || args.to > edges {
        return Err(Failure::bad(format!(
            "free edges {}..{} are not a range within the board's {edges} edges",
            args.from, args.to
        )));
    }
    let budget = args.memory.budget()?;
    let mut rows = Vec::new();
    for free in (args.from..=args.to).step_by(args.step as usize) {
        let drawn = random_position(board, edges - free, args.seed)
            .expect("the range was checked against the board's edges");
        let query = DotsQuery::at(&built, position_of(board, drawn), Detail::Value);
        let policy = Policy::new(budget, None);
        let auto = policy.strategy(&query, None);
        let mut runs: Vec<SeriesRun> = Vec::new();
        let mut value = None;
        let mut first: Option<f64> = None;
        for strategy in STRATEGIES {
            if let Some(why) = ceiling(strategy, free, &args, budget.bytes()) {
                runs.push(SeriesRun {
                    strategy: strategy.name(),
                    states_visited: None,
                    seconds: None,
                    time_ratio: None,
                    skipped: Some(why),
                });
                continue;
            }
            let started = Instant::now();
            let (v, states) = value_by(board, strategy, budget, drawn)
                .map_err(|e| Failure::solve(e, strategy))?;
            let seconds = started.elapsed().as_secs_f64();
            if value.is_some_and(|known| known != v) {
                return Err(Failure::Internal(
                    "the strategies disagree; please report this".into(),
                ));
            }
            value = Some(v);
            let base = *first.get_or_insert(seconds);
            runs.push(SeriesRun {
                strategy: strategy.name(),
                states_visited: Some(states),
                seconds: Some(seconds),
                time_ratio: Some(seconds / base),
                skipped: None,
            });
        }
        let fastest = runs
            .iter()
            .filter_map(|r| r.seconds)
            .fold(f64::INFINITY, f64::min);
        // The automatic choice is bounded as the strategy it picks: over its ceiling, not run.
        let (auto_run, auto_answered_by) = match ceiling(auto, free, &args, budget.bytes()) {
            Some(why) => (
                SeriesRun {
                    strategy: "auto",
                    states_visited: None,
                    seconds: None,
                    time_ratio: None,
                    skipped: Some(format!("picks {}, {why}", auto.name())),
                },
                None,
            ),
            None => {
                let started = Instant::now();
                let (auto_value, auto_states, answered_by) =
                    value_by_policy(&policy, &query).map_err(|e| Failure::solve(e, auto))?;
                let seconds = started.elapsed().as_secs_f64();
                if value.is_some_and(|known| known != auto_value) {
                    return Err(Failure::Internal(
                        "the strategies disagree; please report this".into(),
                    ));
                }
                value = Some(auto_value);
                let run = SeriesRun {
                    strategy: "auto",
                    states_visited: Some(auto_states),
                    seconds: Some(seconds),
                    time_ratio: fastest.is_finite().then(|| seconds / fastest),
                    skipped: None,
                };
                (run, Some(answered_by.name()))
            }
        };
        rows.push(FreeSeriesRow {
            free,
            moves: moves_text(board, drawn.0),
            value,
            runs,
            auto: auto.name(),
            auto_run,
            auto_answered_by,
        });
    }
    if args.json {
        return Ok(serde_json::to_string(&rows)? + "\n");
    }
    Ok(render(&rows, &geometry, args.seed))
}

/// Why `strategy` does not run on a position with `free` free edges, if it does not.
fn ceiling(strategy: Strategy, free: u32, args: &BenchFreeArgs, budget: u64) -> Option<String> {
    match strategy {
        Strategy::Memo if free > args.memo_up_to => {
            Some(format!("over --memo-up-to {}", args.memo_up_to))
        }
        Strategy::Search if free > args.search_up_to => {
            Some(format!("over --search-up-to {}", args.search_up_to))
        }
        Strategy::FreeTable if bytes_needed(free) > u128::from(budget) => Some(format!(
            "needs {} bytes, over the memory budget",
            bytes_needed(free)
        )),
        _ => None,
    }
}

/// The edges of `mask` in `ply dots --moves` notation.
fn moves_text(board: &DotsBoard, mask: u64) -> String {
    (0..board.edge_count() as u8)
        .filter(|&e| mask >> e & 1 == 1)
        .map(|e| format_edge(board, Edge(e)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The position of the edges of `drawn`, drawn in edge order (its score and turn are those of that
/// order: the series needs only its edges).
fn position_of(board: &DotsBoard, drawn: EdgeSet) -> Position {
    let mut position = Position::new(board);
    for e in (0..board.edge_count() as u8)
        .map(Edge)
        .filter(|&e| drawn.contains(e))
    {
        position
            .play(board, e)
            .expect("an edge of the board, drawn once");
    }
    position
}

fn render(rows: &[FreeSeriesRow], geometry: &Geometry, seed: u64) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}: one position per count of free edges (seed {seed}); * marks auto's pick; the auto \
         row runs it as `ply dots` does (its search giving way to the free-edge table when it runs \
         long), its ratio against the fastest",
        geometry.title()
    );
    let _ = writeln!(
        out,
        "{:>5} {:>6}  {:<18} {:>14} {:>11} {:>8}",
        "free", "value", "strategy", "states", "time", "ratio"
    );
    for row in rows {
        let value = row.value.map_or("-".to_string(), |v| v.to_string());
        let auto_name = match row.auto_answered_by {
            Some(by) => format!("auto ({by})"),
            None => "auto".to_string(),
        };
        let named = row.runs.iter().map(|run| match run.strategy == row.auto {
            true => (format!("{}*", run.strategy), run),
            false => (run.strategy.to_string(), run),
        });
        for (name, run) in named.chain([(auto_name, &row.auto_run)]) {
            let (states, time, ratio) = match (run.states_visited, run.seconds) {
                (Some(s), Some(t)) => (
                    s.to_string(),
                    format!("{t:.3} s"),
                    run.time_ratio
                        .map(|x| format!("{x:.2}x"))
                        .unwrap_or_default(),
                ),
                _ => (
                    "-".into(),
                    run.skipped.clone().unwrap_or_default(),
                    String::new(),
                ),
            };
            let _ = writeln!(
                out,
                "{:>5} {:>6}  {:<18} {:>14} {:>11} {:>8}",
                row.free, value, name, states, time, ratio
            );
        }
    }
    out
}
