//! Picking and running a strategy: one entry point for front ends, whatever the user chose.

use super::memo::{DenseStore, HashStore, MemoSolver, DENSE_MEMO_LIMIT};
use super::recursion::RecursionSolver;
use super::table::SubsetTable;
use super::{SolveError, Solver, Strategy, SubsetIndexed};
use crate::engine::memory::MemoryBudget;
use crate::engine::progress::Progress;

/// The largest table the automatic choice builds: 2^24 states (16 MiB), well under a second.
pub const AUTO_TABLE_ITEMS: u32 = 24;

/// What a solve may use.
#[derive(Clone, Copy)]
pub struct SolveOptions<'a> {
    /// Memory the solver's tables may take.
    pub budget: MemoryBudget,
    /// Told the number of states visited or filled, now and then.
    pub progress: Option<Progress<'a>>,
}

impl Strategy {
    /// The automatic choice: the table when it is small (every later query is then a lookup),
    /// otherwise memoized recursion, which only visits the states reachable from the position.
    pub fn auto<G: SubsetIndexed>(game: &G) -> Strategy {
        if game.items() <= AUTO_TABLE_ITEMS {
            Strategy::Table
        } else {
            Strategy::Memo
        }
    }
}

/// Builds the solver for `strategy` and runs `body` with it.
///
/// The memo strategy uses a dense array over the subset index when it fits the budget and
/// [`DENSE_MEMO_LIMIT`], a budget-checked hash map otherwise. The table strategy refuses, before
/// allocating, a table over the budget.
pub fn with_solver<G: SubsetIndexed, T>(
    game: &G,
    strategy: Strategy,
    options: SolveOptions<'_>,
    body: impl FnOnce(&mut dyn Solver<G>) -> Result<T, SolveError>,
) -> Result<T, SolveError> {
    match strategy {
        Strategy::Recursion => {
            body(&mut RecursionSolver::new(game)?.with_progress(options.progress))
        }
        Strategy::Memo => {
            let dense_bytes = SubsetTable::bytes_needed(game.items());
            if dense_bytes <= DENSE_MEMO_LIMIT && dense_bytes <= options.budget.bytes() as u128 {
                let store = DenseStore::new(game, options.budget)?;
                body(&mut MemoSolver::new(game, store)?.with_progress(options.progress))
            } else {
                let store = HashStore::new(options.budget);
                body(&mut MemoSolver::new(game, store)?.with_progress(options.progress))
            }
        }
        Strategy::Table => {
            let table = SubsetTable::build(game, options.budget, options.progress)?;
            body(&mut table.solver(game))
        }
    }
}
