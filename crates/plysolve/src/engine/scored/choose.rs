//! Picking and running a strategy: one entry point for front ends, whatever the user chose.

use super::fallback::{nodes_before_table, SearchOrTable};
use super::known::KnownValues;
use super::memo::{DenseStore, HashStore, MemoSolver, DENSE_MEMO_LIMIT};
use super::recursion::RecursionSolver;
use super::restrict::FreeTable;
use super::search::status::StatusHook;
use super::search::{SearchMemory, SearchOptions, SearchSolver, TieOrder, DEFAULT_ENDGAME};
use super::table::SubsetTable;
use super::{SolveError, Solver, Strategy, SubsetIndexed};
use crate::engine::util::halt::{Halt, NEVER};
use crate::engine::util::memory::MemoryBudget;
use crate::engine::util::progress::{Progress, Watch};
use std::sync::Arc;

/// Tables of up to 2^24 states (16 MiB, well under a second) are always worth building; so is memo
/// for positions with at most this many free elements (at most 2^24 states to visit).
pub const AUTO_SMALL_ITEMS: u32 = 24;
/// The largest table the automatic choice builds for an early position of a game without completion
/// rules: 2^32 states (4 GiB).
pub const AUTO_TABLE_LIMIT: u128 = 1 << 32;
/// The most free elements of a position whose free-element table the automatic choice builds when
/// the search is at hand: 18 (256 KiB, a millisecond). From there up the search, with its table
/// sized to the position, is faster: 5× at 22 free edges on 4×4 boxes, 30× at 26, 20× at 30
/// (`ply bench dots-free`, BENCHMARKS.md).
pub const AUTO_FREE_TABLE_FREE: u32 = 18;

/// What a solve may use.
#[derive(Clone, Copy)]
pub struct SolveOptions<'a> {
    /// Memory the solver's tables may take.
    pub budget: MemoryBudget,
    /// Told the number of states visited or filled, now and then.
    pub progress: Option<Progress<'a>>,
    /// Told the search's state (bounds, moves proved) now and then; only the search strategy reports.
    pub search_status: Option<StatusHook<'a>>,
    /// Which of two moves of equal priority the search tries first (the search alone uses it).
    pub tie_order: TieOrder,
    /// When to stop and give what is proved so far: the search gives bounds
    /// ([`Solver::ranges`]), the other strategies [`SolveError::Halted`].
    pub halt: &'a Halt,
    /// What earlier searches of the same game learnt, to search with (and add to) instead of a table
    /// of the search's own: a server's or a player's memory across questions.
    pub search_memory: Option<&'a Arc<SearchMemory>>,
    /// The size of the search's own table (`None`: [`SearchOptions::table_bytes_for`] the root).
    pub search_table_bytes: Option<u64>,
    /// Whether the search of a root with at most [`AUTO_SMALL_ITEMS`] free elements gives way to
    /// their table when it runs long ([`SearchOrTable`]): the automatic choice's search.
    pub search_gives_way: bool,
    /// What is proved already (a book): the search meets it wherever it reaches a known state.
    pub known: Option<&'a dyn KnownValues>,
}

impl SolveOptions<'_> {
    /// Options with `budget`, and nothing else: no progress, no halt, a memory of the search's own.
    pub fn new(budget: MemoryBudget) -> Self {
        SolveOptions {
            budget,
            progress: None,
            search_status: None,
            tie_order: TieOrder::default(),
            halt: &NEVER,
            search_memory: None,
            search_table_bytes: None,
            search_gives_way: false,
            known: None,
        }
    }
}

impl Strategy {
    /// The automatic choice for positions with `free_items` free elements of a game without
    /// completion rules: the table when it is small; memoized recursion when the position has few free elements (it visits only what is
    /// reachable); the table again when it fits the budget and [`AUTO_TABLE_LIMIT`] (filling every
    /// state in parallel beats a memo search over nearly as many); memo otherwise.
    ///
    /// A game stating completion rules has better choices: the table of the position's free
    /// elements for at most [`AUTO_FREE_TABLE_FREE`] of them, or on a small game (at most
    /// [`AUTO_SMALL_ITEMS`] elements, whose free-element table is never larger than its whole
    /// table: 3×3 boxes at 12 free edges, 4 ms against the whole table's 130 ms), when it fits the
    /// budget; the search otherwise — even for an empty board whose whole table would fit (the
    /// empty 3×4 board: the search 4.7 s, the table 11 s; size-4 triangles: 1.0 s against 5.5 s).
    /// (A front end that keeps whole tables between answers builds the small game's once instead:
    /// the dots policy's choice.)
    pub fn auto<G: SubsetIndexed>(game: &G, free_items: u32, budget: MemoryBudget) -> Strategy {
        let table = SubsetTable::bytes_needed(game.items());
        let free_table = SubsetTable::bytes_needed(free_items);
        if game.completion().is_some() {
            let cheap = free_items <= AUTO_FREE_TABLE_FREE || game.items() <= AUTO_SMALL_ITEMS;
            if cheap && free_table <= budget.bytes() as u128 {
                Strategy::FreeTable
            } else {
                Strategy::Search
            }
        } else if game.items() <= AUTO_SMALL_ITEMS {
            Strategy::Table
        } else if free_items <= AUTO_SMALL_ITEMS {
            Strategy::Memo
        } else if table <= AUTO_TABLE_LIMIT && table <= budget.bytes() as u128 {
            Strategy::Table
        } else {
            Strategy::Memo
        }
    }
}

/// Builds the solver for `strategy` to answer questions about `root` and the states that follow
/// from it, and runs `body` with it: the one way front ends (and tests) get a solver.
///
/// The memo strategy uses a dense array over the subset index when `root` has more than
/// [`AUTO_SMALL_ITEMS`] free elements and the array fits the budget and [`DENSE_MEMO_LIMIT`], a
/// budget-checked hash map otherwise. (Keying it by canonical forms, [`super::memo::CanonicalStore`],
/// halves the states on the boards measured but costs more time than it saves; see BENCHMARKS.md.)
/// The table strategies refuse, before allocating, a table over the budget; the free-element table
/// holds only the `2^free` states of `root`'s free elements. The search sizes its table for `root`
/// unless it is given a memory to share; asked to give way (`search_gives_way`, for a root with at
/// most [`AUTO_SMALL_ITEMS`] free elements whose table fits the budget) it stops after
/// [`nodes_before_table`] nodes and the table of the free elements answers instead.
pub fn with_solver<G: SubsetIndexed, T>(
    game: &G,
    strategy: Strategy,
    options: SolveOptions<'_>,
    root: &G::State,
    body: impl FnOnce(&mut dyn Solver<G>) -> Result<T, SolveError>,
) -> Result<T, SolveError> {
    let free = game.items() - game.mask(root).count_ones();
    let watch = Watch {
        progress: options.progress,
        halt: options.halt,
    };
    match strategy {
        Strategy::Book => Err(SolveError::Unsupported {
            solver: "book",
            feature: "solving (a book only answers what it holds)",
        }),
        Strategy::Recursion => body(&mut RecursionSolver::new(game)?.with_watch(watch)),
        Strategy::Memo => {
            let dense_bytes = SubsetTable::bytes_needed(game.items());
            if free > AUTO_SMALL_ITEMS
                && dense_bytes <= DENSE_MEMO_LIMIT
                && dense_bytes <= options.budget.bytes() as u128
            {
                let store = DenseStore::new(game, options.budget)?;
                body(&mut MemoSolver::new(game, store)?.with_watch(watch))
            } else {
                let store = HashStore::new(options.budget);
                body(&mut MemoSolver::new(game, store)?.with_watch(watch))
            }
        }
        Strategy::Table => {
            let table = SubsetTable::build(game, options.budget, watch)?;
            body(&mut table.solver(game))
        }
        Strategy::FreeTable => {
            let table = FreeTable::build(game, root, options.budget, watch)?;
            body(&mut table.solver(game))
        }
        Strategy::Search => {
            let gives_way = options.search_gives_way
                && free <= AUTO_SMALL_ITEMS
                && FreeTable::bytes_needed(free) <= options.budget.bytes() as u128;
            let search = SearchOptions {
                table_bytes: options
                    .search_table_bytes
                    .unwrap_or_else(|| SearchOptions::table_bytes_for(free, options.budget)),
                budget: options.budget,
                progress: options.progress,
                status: options.search_status,
                use_symmetries: true,
                endgame: DEFAULT_ENDGAME,
                use_theory: true,
                tie_order: options.tie_order,
                halt: options.halt,
                node_limit: gives_way.then(|| nodes_before_table(free)),
                known: options.known,
            };
            let solver = match options.search_memory {
                Some(memory) => SearchSolver::with_memory(game, search, memory.clone())?,
                None => SearchSolver::new(game, search)?,
            };
            if gives_way {
                body(&mut SearchOrTable::new(
                    game,
                    *root,
                    solver,
                    options.budget,
                    watch,
                ))
            } else {
                let mut solver = solver;
                body(&mut solver)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::dots::Geometry;

    #[test]
    fn auto_picks_the_free_table_up_to_18_free_edges_then_the_search() {
        let boxes = |rows, cols| Geometry::Boxes { rows, cols }.build().unwrap().board;
        let plenty = MemoryBudget::new(16 << 30);
        let (b33, b34, b44) = (boxes(3, 3), boxes(3, 4), boxes(4, 4));
        // A small board: the free-edge table at any number of free edges (never more than the
        // whole table).
        assert_eq!(Strategy::auto(&b33, 24, plenty), Strategy::FreeTable);
        assert_eq!(Strategy::auto(&b33, 12, plenty), Strategy::FreeTable);
        assert_eq!(Strategy::auto(&b44, 18, plenty), Strategy::FreeTable);
        assert_eq!(Strategy::auto(&b44, 19, plenty), Strategy::Search);
        assert_eq!(Strategy::auto(&b44, 40, plenty), Strategy::Search);
        // The empty 3×4 board: the search, though its whole table (2 GiB) fits.
        assert_eq!(Strategy::auto(&b34, 31, plenty), Strategy::Search);
        // A free-edge table over the budget is not chosen either.
        let small = MemoryBudget::new(1 << 10);
        assert_eq!(Strategy::auto(&b44, 16, small), Strategy::Search);
        assert_eq!(Strategy::auto(&b44, 8, small), Strategy::FreeTable);
    }
}
