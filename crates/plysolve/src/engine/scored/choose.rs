//! Picking and running a strategy: one entry point for front ends, whatever the user chose.

use super::fallback::{nodes_before_table, SearchOrTable};
use super::known::KnownValues;
use super::memo::{DenseStore, HashStore, MemoSolver, DENSE_MEMO_LIMIT};
use super::recursion::RecursionSolver;
use super::restrict::FreeTable;
use super::search::status::StatusHook;
use super::search::{
    ProvedState, SearchMemory, SearchOptions, SearchSolver, TieOrder, DEFAULT_ENDGAME,
};
use super::shared::SharedBounds;
use super::table::SubsetTable;
use super::{SolveError, Solver, Strategy, SubsetIndexed};
use crate::engine::util::halt::{Halt, NEVER};
use crate::engine::util::memory::MemoryBudget;
use crate::engine::util::progress::{Progress, Watch};
use std::cell::Cell;
use std::sync::Arc;

/// Tables of up to 2^24 states (16 MiB, well under a second) are cheap: a memo of positions with
/// more free elements gets a dense store, and the automatic choice's search of a position with at
/// most this many gives way to their table when it runs long.
pub const CHEAP_TABLE_ITEMS: u32 = 24;

/// Where the automatic choice ([`Strategy::auto`]) crosses from one strategy to the next: a game's
/// own measurements, passed in as data (the dots home's are `games::dots::policy::CROSSOVERS`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Crossovers {
    /// Games of at most this many elements are small: their table is always worth building, and
    /// memo for positions with at most this many free elements.
    pub small_items: u32,
    /// The most free elements of a position of a completion game whose free-element table is built
    /// when the search is at hand; the search from there up.
    pub free_table_free: u32,
    /// The largest table (in bytes) built for an early position of a game without completion rules.
    pub table_limit: u128,
}

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
    /// Whether the search of a root with at most [`CHEAP_TABLE_ITEMS`] free elements gives way to
    /// their table when it runs long ([`SearchOrTable`]): the automatic choice's search.
    pub search_gives_way: bool,
    /// What is proved already (a book): the search meets it wherever it reaches a known state.
    pub known: Option<&'a dyn KnownValues>,
    /// Bounds shared with searches elsewhere ([`SearchOptions::shared`]; the search alone uses
    /// them).
    pub shared_bounds: Option<&'a SharedBounds>,
    /// States proved before, stored into the search's table before it starts ([`SearchSolver::seed`]):
    /// what a stopped book build kept of the position it was proving. Taken (the cell left empty)
    /// as they are stored, so tens of millions of them are not held while the search runs. The
    /// search alone uses them.
    pub seed: Option<&'a Cell<Vec<ProvedState>>>,
    /// Nodes past which the search gives up as if halted, saying what it proved
    /// ([`SearchOptions::node_limit`]): a distributed solve's job grown too large, which its driver
    /// splits. The search alone uses it (`None`: no limit).
    pub node_limit: Option<u64>,
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
            shared_bounds: None,
            seed: None,
            node_limit: None,
        }
    }
}

impl Strategy {
    /// The automatic choice for positions with `free_items` free elements of a game without
    /// completion rules, at the game's crossovers `at`: the table when the game is small; memoized
    /// recursion when the position has few free elements (it visits only what is reachable); the
    /// table again when it fits the budget and `at.table_limit` (filling every state in parallel
    /// beats a memo search over nearly as many); memo otherwise.
    ///
    /// A game stating completion rules has better choices: the table of the position's free
    /// elements for at most `at.free_table_free` of them, or on a small game (whose free-element
    /// table is never larger than its whole table), when it fits the budget; the search otherwise,
    /// even for an empty board whose whole table would fit. (A front end that keeps whole tables
    /// between answers builds the small game's once instead: the dots policy's choice.)
    pub fn auto<G: SubsetIndexed>(
        game: &G,
        free_items: u32,
        budget: MemoryBudget,
        at: Crossovers,
    ) -> Strategy {
        let table = SubsetTable::bytes_needed(game.items());
        let free_table = SubsetTable::bytes_needed(free_items);
        let small = game.items() <= at.small_items;
        if game.completion().is_some() {
            let cheap = free_items <= at.free_table_free || small;
            if cheap && free_table <= budget.bytes() as u128 {
                Strategy::FreeTable
            } else {
                Strategy::Search
            }
        } else if small {
            Strategy::Table
        } else if free_items <= at.small_items {
            Strategy::Memo
        } else if table <= at.table_limit && table <= budget.bytes() as u128 {
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
/// [`CHEAP_TABLE_ITEMS`] free elements and the array fits the budget and [`DENSE_MEMO_LIMIT`], a
/// budget-checked hash map otherwise. (Keying it by canonical forms, [`super::memo::CanonicalStore`],
/// halves the states on the boards measured but costs more time than it saves; see BENCHMARKS.md.)
/// The table strategies refuse, before allocating, a table over the budget; the free-element table
/// holds only the `2^free` states of `root`'s free elements. The search sizes its table for `root`
/// unless it is given a memory to share; asked to give way (`search_gives_way`, for a root with at
/// most [`CHEAP_TABLE_ITEMS`] free elements whose table fits the budget) it stops after
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
        Strategy::Auto => Err(SolveError::Unsupported {
            solver: "auto",
            feature: "solving (the automatic choice picks a solver first: Strategy::auto)",
        }),
        Strategy::Book => Err(SolveError::Unsupported {
            solver: "book",
            feature: "solving (a book only answers what it holds)",
        }),
        Strategy::Recursion => body(&mut RecursionSolver::new(game)?.with_watch(watch)),
        Strategy::Memo => {
            let dense_bytes = SubsetTable::bytes_needed(game.items());
            if free > CHEAP_TABLE_ITEMS
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
                && free <= CHEAP_TABLE_ITEMS
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
                node_limit: if gives_way {
                    Some(nodes_before_table(free))
                } else {
                    options.node_limit
                },
                known: options.known,
                shared: options.shared_bounds,
            };
            let solver = match options.search_memory {
                Some(memory) => SearchSolver::with_memory(game, search, memory.clone())?,
                None => SearchSolver::new(game, search)?,
            };
            if let Some(seed) = options.seed {
                solver.seed(&seed.take());
            }
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
