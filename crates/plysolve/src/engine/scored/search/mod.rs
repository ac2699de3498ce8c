//! Alpha-beta search over the net score, for positions too large for any table.
//!
//! Negamax with Wilson's rule: a scoring move keeps the turn, so its child is searched with the window
//! shifted by the points and not negated. The value depends on the drawn elements alone, so a
//! [`BoundsTable`](super::bounds::BoundsTable) keyed by them (canonicalised under the game's symmetries, when it has any) keeps
//! the bounds every search proved; a state with `c` cells left is worth between `-c` and `c`, which
//! cuts further. Moves are ordered: the table's best move first, then scoring moves, then moves that
//! give the opponent nothing, interior elements (in two cells) before border ones, and last the moves
//! that leave a cell one element short (they hand the opponent points). Where a cell is capturable and
//! the game states a [`Theory`](super::Theory) (the dots capture rules), only the moves it keeps are
//! searched (a safe capture alone; otherwise the captures and their double-deals), and states it
//! values (simple loony endgames) are not searched. States with few free elements are valued by
//! filling the table of their free elements.
//!
//! The value of several states at once ([`Solver::values`], used for the value of every move) is
//! computed in parallel, one state per task, all tasks sharing the table. Every value given is exact:
//! each is found by a series of null-window searches (MTD(f): 9 % fewer nodes than one search with the
//! full window on a 30-free 4×4 position), kept in a small map of exact values beside the table so
//! that later questions about it never search again.
//!
//! A search may be given bounds shared with searches in other processes
//! ([`SearchOptions::shared`], [`SharedBounds`]): it meets them as it meets a book's, and offers
//! them what it proves of states with many free elements.
//!
//! A search may be given a [`Halt`]: it then stops within a few milliseconds of it and gives what it
//! proved — the bounds each state was narrowed to ([`Solver::ranges`]) — never a wrong value. What it
//! learns lives in a [`SearchMemory`] that may outlive it and serve later searches of the same game.
//!
//! The parts: `rules` (keys, frames, move order), `worker` (one thread's alpha-beta and null-window
//! tests), `memory` (the shared table and exact values), [`status`] (what a search reports).

mod memory;
pub(super) mod rules;
pub mod status;
mod worker;

pub use memory::{ProvedState, SearchMemory};

use super::bounds::{Bounds, ENTRY_BYTES};
use super::known::KnownValues;
use super::restrict::FreeElements;
use super::shared::{SharedBounds, SharedEntry};
use super::{check_values_fit, require_acyclic_deterministic, SolveError, Solver, ValueRange};
use super::{ScoredGame, SubsetIndexed};
use crate::engine::util::halt::{Halt, Halted};
use crate::engine::util::memory::MemoryBudget;
use crate::engine::util::progress::Progress;
use rayon::prelude::*;
use rules::Rules;
use status::{RootMoves, StatusHook};
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use worker::{mtd, Shared, Worker};

/// The table a search takes at most below [`LONG_SEARCH_FREE`] free elements: 1 GiB, or the budget
/// if smaller.
pub const DEFAULT_TABLE_BYTES: u64 = 1 << 30;

/// The smallest table a search takes: 4 MiB.
pub const MIN_TABLE_BYTES: u64 = 4 << 20;

/// Positions with at least this many free elements search for minutes to hours, and fill a 1 GiB
/// table in minutes: they get a larger one.
pub const LONG_SEARCH_FREE: u32 = 36;

/// The table of a long search ([`LONG_SEARCH_FREE`]): 8 GiB, or half the budget if smaller.
pub const LONG_SEARCH_TABLE_BYTES: u64 = 8 << 30;

/// The free elements at or below which the search hands a state to a free-element table by default.
pub const DEFAULT_ENDGAME: u32 = 7;

/// States with at most this many free elements are valued on one thread even when asked alone: their
/// searches are too short to pay for starting threads.
pub const ROOT_SPLIT_FREE: u32 = 16;

/// Which of two moves of equal priority the search tries first. The value never depends on it, but
/// the tree searched and what the table keeps do: a second run in the other order is a cross-check
/// of a value that no other program gives.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TieOrder {
    /// The lower-numbered element first.
    #[default]
    LowFirst,
    /// The higher-numbered element first.
    HighFirst,
}

impl TieOrder {
    /// The other order.
    pub fn reversed(self) -> Self {
        match self {
            TieOrder::LowFirst => TieOrder::HighFirst,
            TieOrder::HighFirst => TieOrder::LowFirst,
        }
    }
}

/// How a search is set up.
#[derive(Clone, Copy)]
pub struct SearchOptions<'a> {
    /// Bytes of the table of bounds (rounded down to a power of two entries).
    pub table_bytes: u64,
    /// Memory the table may take.
    pub budget: MemoryBudget,
    /// Told the number of nodes searched, every [`PROGRESS_EVERY`](crate::engine::util::progress::PROGRESS_EVERY) nodes, unless `status` is given
    /// (which tells the nodes too).
    pub progress: Option<Progress<'a>>,
    /// Told the search's [`SearchStatus`](status::SearchStatus) every
    /// [`PROGRESS_EVERY`](crate::engine::util::progress::PROGRESS_EVERY) nodes, at least every
    /// [`STATUS_EVERY`](status::STATUS_EVERY) while it runs, and whenever a move of the position
    /// being valued is proved.
    pub status: Option<StatusHook<'a>>,
    /// Whether to key the table by canonical forms under the game's symmetries.
    pub use_symmetries: bool,
    /// States with at most this many free elements are valued by the table of their free elements
    /// ([`FreeTable`](super::restrict::FreeTable)) instead of searched (0: never).
    pub endgame: u32,
    /// Whether to use the game's [`Theory`](super::Theory) when it has one
    /// ([`SubsetIndexed::theory`]): moves it proves unneeded are not searched (the dots capture
    /// rules: a safe capture alone, otherwise captures and their double-deals), and states it values
    /// (simple loony endgames) are not searched.
    pub use_theory: bool,
    /// Which of two moves of equal priority to try first.
    pub tie_order: TieOrder,
    /// When to stop and give what is proved ([`Solver::ranges`]).
    pub halt: &'a Halt,
    /// Nodes after which the search gives up, halted ([`SearchSolver::gave_up`]): a caller with a
    /// bounded alternative (the table of the free elements) takes over from a search that runs
    /// long. `None`: no limit.
    pub node_limit: Option<u64>,
    /// What is proved already (a book): a state it knows is cut or narrowed like one the table
    /// knows, wherever the search reaches it (looked up only at states with at least
    /// [`KnownValues::fewest_free`] free elements).
    pub known: Option<&'a dyn KnownValues>,
    /// Bounds shared with searches elsewhere ([`SharedBounds`]): the search meets its entries
    /// wherever it reaches a state with at least [`SharedBounds::from_free`] free elements (looked
    /// up by the search's table key, as its own table is), and offers it every bound it proves of
    /// such a state. `None`: nothing shared, nothing offered (no cost).
    pub shared: Option<&'a SharedBounds>,
}

impl<'a> SearchOptions<'a> {
    /// A search to the end in a table of `table_bytes` within `budget`, stopped by `halt`, with
    /// every part the engine has (the game's symmetries, the endgame table from
    /// [`DEFAULT_ENDGAME`] free elements, its theory), ties tried low first, telling nothing,
    /// knowing nothing and sharing nothing: what a caller changes a field or two of
    /// (`SearchOptions { endgame: 0, ..SearchOptions::plain(…) }`).
    pub fn plain(table_bytes: u64, budget: MemoryBudget, halt: &'a Halt) -> Self {
        SearchOptions {
            table_bytes,
            budget,
            progress: None,
            status: None,
            use_symmetries: true,
            endgame: DEFAULT_ENDGAME,
            use_theory: true,
            tie_order: TieOrder::LowFirst,
            halt,
            node_limit: None,
            known: None,
            shared: None,
        }
    }

    /// The nodes a search of a position with `free` free elements is expected to visit: about
    /// 2 000 at 20 free edges, doubling with each more (`ply bench dots-free` on 4×4 boxes: 2 017,
    /// 30 612, 424 244 and 12.6 million nodes at 20, 24, 28 and 32 free edges).
    pub fn expected_nodes(free: u32) -> u64 {
        2000u64
            .checked_shl(free.saturating_sub(20))
            .unwrap_or(u64::MAX)
            >> 20u32.saturating_sub(free).min(11)
    }

    /// The table size for positions with `free` free elements: four entries for each node expected
    /// ([`Self::expected_nodes`]), at least [`MIN_TABLE_BYTES`] and at most [`DEFAULT_TABLE_BYTES`]
    /// (or [`LONG_SEARCH_TABLE_BYTES`] from [`LONG_SEARCH_FREE`] free elements, but at most half the
    /// budget); no more entries than twice the position's states, and within the budget. A table the
    /// search cannot fill costs its page faults all the same (a second of a core per GiB).
    pub fn table_bytes_for(free: u32, budget: MemoryBudget) -> u64 {
        let states = 1u64.checked_shl(free + 1).unwrap_or(u64::MAX);
        let most = if free >= LONG_SEARCH_FREE {
            LONG_SEARCH_TABLE_BYTES
                .min(budget.bytes() / 2)
                .max(DEFAULT_TABLE_BYTES)
        } else {
            DEFAULT_TABLE_BYTES
        };
        Self::expected_nodes(free)
            .saturating_mul(4 * ENTRY_BYTES)
            .clamp(MIN_TABLE_BYTES, most)
            .min(budget.bytes())
            .min(states.saturating_mul(ENTRY_BYTES))
    }
}

/// The search strategy as a [`Solver`]: exact values of any states of one game, or, when its halt
/// comes first, the bounds it proved.
pub struct SearchSolver<'a, G> {
    game: &'a G,
    rules: Rules<'a>,
    memory: Arc<SearchMemory>,
    nodes: AtomicU64,
    progress: Option<Progress<'a>>,
    status: Option<StatusHook<'a>>,
    /// The moves of the position being valued, for status reports.
    root: RootMoves,
    endgame: u32,
    tie_order: TieOrder,
    halt: &'a Halt,
    /// Why the searches stopped, once the halt came.
    halted: OnceLock<Halted>,
    /// Nodes after which the searches give up (`u64::MAX`: never).
    node_limit: u64,
    /// Set when the searches passed the node limit (and so halted).
    gave_up: AtomicBool,
    /// What is proved already, and the fewest free elements of a state it knows.
    known: Option<(&'a dyn KnownValues, u32)>,
    /// Bounds shared with searches elsewhere.
    shared: Option<&'a SharedBounds>,
}

impl<'a, G: SubsetIndexed> SearchSolver<'a, G> {
    /// A search for `game`, which must state completion rules, with a memory of its own: the table is
    /// allocated now, refused before allocating if over the budget.
    pub fn new(game: &'a G, options: SearchOptions<'a>) -> Result<Self, SolveError> {
        let memory = SearchMemory::new(options.table_bytes, options.budget)?;
        Self::with_memory(game, options, Arc::new(memory))
    }

    /// A search for `game` that keeps what it learns in `memory`, shared with earlier and later
    /// searches of the same game (`options.table_bytes` and `budget` are then the memory's
    /// business). A memory used by searches keyed otherwise (another game, or with or without the
    /// symmetries) is refused.
    pub fn with_memory(
        game: &'a G,
        options: SearchOptions<'a>,
        memory: Arc<SearchMemory>,
    ) -> Result<Self, SolveError> {
        require_acyclic_deterministic(game, "search")?;
        check_values_fit(game)?;
        let rules = rules_of(game, options.use_symmetries, options.use_theory)?;
        let mut scheme = rustc_hash::FxHasher::default();
        let symmetric = options.use_symmetries && game.symmetries().is_some();
        (game.items(), rules.rules.others, symmetric).hash(&mut scheme);
        (options.use_symmetries).hash(&mut scheme);
        let scheme = scheme.finish();
        if !memory.claim(scheme) {
            return Err(SolveError::Unsupported {
                solver: "search",
                feature: "a search memory kept for another game or key scheme",
            });
        }
        if options.shared.is_some_and(|s| !s.claim(scheme)) {
            return Err(SolveError::Unsupported {
                solver: "search",
                feature: "shared bounds kept for another game or key scheme",
            });
        }
        Ok(SearchSolver {
            game,
            rules,
            memory,
            nodes: AtomicU64::new(0),
            progress: options.progress,
            status: options.status,
            root: RootMoves::default(),
            endgame: options.endgame,
            tie_order: options.tie_order,
            halt: options.halt,
            halted: OnceLock::new(),
            node_limit: options.node_limit.unwrap_or(u64::MAX),
            gave_up: AtomicBool::new(false),
            known: options
                .known
                .map(|k| (k, k.fewest_free()))
                .filter(|&(_, fewest)| fewest != u32::MAX),
            shared: options.shared,
        })
    }

    /// Stores the bounds of `states` (proved before: [`SearchMemory::proved`] of a search stopped
    /// part way, read back from where it was kept) into the table, each under its key in this
    /// search's scheme — so a search started again meets them as its own table's, at no cost per
    /// node. Sound whatever scheme they were proved under: a bound is of the state's own value.
    /// A state with a bit past the game's elements is skipped.
    pub fn seed(&self, states: &[ProvedState]) {
        let items = self.game.items();
        let table = self.memory.table();
        for p in states {
            if items < 64 && p.state >> items != 0 {
                continue;
            }
            let (key, perm) = self.rules.key(p.state);
            let best = p
                .best
                .filter(|&b| b < items && p.state >> b & 1 == 0)
                .map(|b| self.rules.move_to_key_frame(b, perm, key));
            let bounds = Bounds {
                lower: p.range.lower,
                upper: p.range.upper,
                best,
            };
            table.store(key, bounds, items - p.state.count_ones(), self.halt);
        }
    }

    /// Whether the searches gave up at the node limit ([`SearchOptions::node_limit`]): their
    /// answers are then bounds, or [`SolveError::Halted`], like a halted search's.
    pub fn gave_up(&self) -> bool {
        self.gave_up.load(Ordering::Relaxed)
    }

    /// Bytes of the table of bounds.
    pub fn table_bytes(&self) -> u64 {
        self.memory.table_bytes()
    }

    /// Tracks `masks` as the moves of one position for status reports, if they are: each adds one
    /// element to the elements they all share.
    fn track_moves(&self, masks: &[u64]) {
        let parent = masks.iter().fold(self.rules.full, |p, &m| p & m);
        let moves = masks.len() >= 2 && masks.iter().all(|&m| (m & !parent).count_ones() == 1);
        if !moves {
            return;
        }
        let items = self.game.items();
        self.root.start(masks.iter().map(|&m| {
            let e = (m & !parent).trailing_zeros();
            let cells = FreeElements::new(self.rules.rules, items, m).max_points() as i32;
            (
                e,
                self.rules.rules.points(parent, e),
                self.rules.key(m).0,
                cells,
            )
        }));
    }

    /// The state every worker of one search shares, with `stop` as its stop flag.
    fn shared<'s>(&'s self, stop: &'s AtomicBool) -> Shared<'s> {
        Shared {
            rules: &self.rules,
            table: self.memory.table(),
            nodes: &self.nodes,
            progress: self.progress,
            status: self.status,
            root: &self.root,
            endgame: self.endgame,
            tie_order: self.tie_order,
            stop,
            halt: self.halt,
            halted: &self.halted,
            node_limit: self.node_limit,
            gave_up: &self.gave_up,
            known: self.known,
            shared: self.shared,
        }
    }

    /// The open cells of the state `drawn`.
    fn cells(&self, drawn: u64) -> i32 {
        FreeElements::new(self.rules.rules, self.game.items(), drawn).max_points() as i32
    }

    /// What is proved of the state `drawn` (table key `key`) before it is searched: the bounds the
    /// table holds (from earlier searches in a kept memory), the known values' (a book's) and the
    /// shared store's, met — where a search starts its null-window tests.
    fn known_bounds(&self, drawn: u64, key: u64) -> ValueRange {
        let mut range = ValueRange::FULL;
        if let Some(b) = self.memory.table().probe(key) {
            range = range.meet(ValueRange {
                lower: b.lower,
                upper: b.upper,
            });
        }
        let free = (self.rules.full & !drawn).count_ones();
        if let Some((known, _)) = self.known.filter(|&(_, fewest)| free >= fewest) {
            if let Some(r) = known.range(drawn) {
                range = range.meet(r);
            }
        }
        if let Some(e) = self
            .shared
            .filter(|s| free >= s.from_free())
            .and_then(|s| s.get(key))
        {
            range = range.meet(e.range);
        }
        range
    }

    /// What is proved of the state with table key `key` and `cells` open cells besides `found`:
    /// the table's bounds narrow it (they were proved by earlier searches); an exact value is kept.
    fn settle(&self, key: u64, cells: i32, found: ValueRange) -> ValueRange {
        let mut range = found.meet(ValueRange {
            lower: -cells,
            upper: cells,
        });
        if let Some(b) = self.memory.table().probe(key) {
            range = range.meet(ValueRange {
                lower: b.lower,
                upper: b.upper,
            });
        }
        if let Some(v) = range.value() {
            self.memory.keep(key, v);
        }
        if let Some(shared) = self.shared {
            let narrowed = range.lower > -cells || range.upper < cells;
            if narrowed && (self.rules.full & !key).count_ones() >= shared.from_free() {
                shared.offer(SharedEntry {
                    key,
                    range,
                    best: None,
                });
            }
        }
        range
    }

    /// What null-window searches on this thread prove of the state with bitmask `drawn`, asked about
    /// in `window` ([`Solver::range_within`]): its exact value or a bound deciding the window, or
    /// bounds if the halt came first.
    fn search(&self, drawn: u64, window: ValueRange) -> ValueRange {
        let (key, _) = self.rules.key(drawn);
        if let Some(v) = self.memory.known(key) {
            return ValueRange::exact(v);
        }
        let cells = self.cells(drawn);
        let known = self.known_bounds(drawn, key);
        let never = AtomicBool::new(false);
        let shared = self.shared(&never);
        let mut worker = Worker::new(&shared);
        let found = worker.null_window_tests(drawn, cells, known, window);
        worker.flush();
        self.settle(key, cells, found)
    }

    /// What is proved of `drawn` alone, asked about in `window`, on every core: the same null-window
    /// tests (MTD(f)) as [`Self::search`], each test asking its moves in parallel — the threads take the moves in
    /// order, best first, and the first move that reaches the bound stops the others. Small states
    /// (at most [`ROOT_SPLIT_FREE`] free elements, or an endgame) and states with one move to search
    /// are searched on this thread.
    fn root_value(&self, drawn: u64, window: ValueRange) -> ValueRange {
        let (key, perm) = self.rules.key(drawn);
        if let Some(v) = self.memory.known(key) {
            return ValueRange::exact(v);
        }
        let cells = self.cells(drawn);
        let free = (self.rules.full & !drawn).count_ones();
        if cells == 0 || free <= self.endgame.max(ROOT_SPLIT_FREE) {
            return self.search(drawn, window);
        }
        let hint = self
            .memory
            .table()
            .probe(key)
            .and_then(|b| b.best)
            .map(|m| self.rules.move_from_key_frame(m, perm, drawn));
        let (moves, count) = self.rules.ordered_moves(drawn, hint, self.tie_order);
        // Symmetric moves lead to the same value: each is asked once.
        let mut moves: Vec<(u32, i32)> = moves[..count]
            .iter()
            .map(|&(_, e, points)| (e, points as i32))
            .collect();
        let mut seen = Vec::new();
        moves.retain(|&(e, _)| {
            let child = self.rules.key(drawn | 1 << e).0;
            let new = !seen.contains(&child);
            seen.push(child);
            new
        });
        if moves.len() < 2 {
            return self.search(drawn, window);
        }
        if self.status.is_some() {
            // Status reports then give the bounds the table holds on the moves' values.
            let masks: Vec<u64> = moves.iter().map(|&(e, _)| drawn | 1 << e).collect();
            self.track_moves(&masks);
        }
        let known = self.known_bounds(drawn, key);
        let found = mtd(cells, known, window, |beta| {
            self.root_test(&moves, drawn, cells, beta)
        });
        self.root.finish();
        self.settle(key, cells, found)
    }

    /// Whether `drawn`'s value reaches `beta`: a bound on it (fail-soft: at least `beta` when it does,
    /// below it otherwise), from `moves` (element, points) searched in parallel; `None` when the halt
    /// came before the question was settled.
    ///
    /// The threads take the moves in order; a thread with no move left to take helps with one still
    /// being searched, trying moves of equal priority in the other order so that the two trees part
    /// (both share the table, so each finds what the other proved). Whichever finishes a move first
    /// gives its value and stops the other: no core idles while the last, often largest, move of a
    /// test is searched (the empty 4×4 board's tests spent a fifth of their time so).
    fn root_test(&self, moves: &[(u32, i32)], drawn: u64, cells: i32, beta: i32) -> Option<i32> {
        // Per move: set when it is settled (its value given, or the test decided), which stops
        // whoever still searches it.
        let settled: Vec<AtomicBool> = moves.iter().map(|_| AtomicBool::new(false)).collect();
        let next = AtomicUsize::new(0);
        let best = AtomicI32::new(i32::MIN);
        let threads = rayon::current_num_threads().clamp(1, moves.len());
        std::thread::scope(|scope| {
            for _ in 0..threads {
                scope.spawn(|| loop {
                    let taken = next.fetch_add(1, Ordering::Relaxed);
                    let (i, tie_order) = if taken < moves.len() {
                        (taken, self.tie_order)
                    } else if let Some(i) = settled.iter().position(|s| !s.load(Ordering::Relaxed))
                    {
                        (i, self.tie_order.reversed())
                    } else {
                        break;
                    };
                    let (e, points) = moves[i];
                    let shared = Shared {
                        tie_order,
                        ..self.shared(&settled[i])
                    };
                    let mut worker = Worker::new(&shared);
                    let value = worker.move_value(drawn, e, points, cells, beta - 1, beta);
                    worker.flush();
                    if worker.stopped {
                        if self.halted.get().is_some() {
                            break;
                        }
                        // Another thread gave this move's value first.
                        continue;
                    }
                    if !settled[i].swap(true, Ordering::Relaxed) {
                        best.fetch_max(value, Ordering::Relaxed);
                        if value >= beta {
                            settled
                                .iter()
                                .for_each(|s| s.store(true, Ordering::Relaxed));
                        }
                    }
                });
            }
        });
        // A move that reached the bound settles it; short of that, every move must have been
        // searched to the end, which a halt prevents.
        let best = best.into_inner();
        (best >= beta || self.halted.get().is_none()).then_some(best)
    }

    /// The error of a value the halt left unproved.
    fn halted_error(&self) -> SolveError {
        SolveError::Halted(self.halted.get().copied().unwrap_or(Halted::Cancelled))
    }
}

/// The rules of `game` as a search reads them, keyed with its symmetries and twins (if
/// `use_symmetries`), with its Theory (if `use_theory`); refused for a game without completion
/// rules.
fn rules_of<G: SubsetIndexed>(
    game: &G,
    use_symmetries: bool,
    use_theory: bool,
) -> Result<Rules<'_>, SolveError> {
    let completion = game.completion().ok_or(SolveError::Unsupported {
        solver: "search",
        feature: "moves not stated as completion rules",
    })?;
    Ok(Rules::new(
        completion,
        game.items(),
        game.symmetries().filter(|_| use_symmetries),
        use_symmetries,
        game.theory().filter(|_| use_theory),
        game.move_ranks(),
    ))
}

/// The moves the search tries in `state` of `game` (which must state completion rules), as
/// elements, in the order it tries them without a table's hint: those the game's Theory keeps (a
/// safe capture alone; otherwise the captures and their double-deals), one per group of twins,
/// scoring moves first, then moves giving nothing (interior elements first), last those leaving a
/// cell one element short; then by the game's rank, ties in `tie_order`. A front end that splits
/// the search (a job-level search) hands the moves out in this order.
pub fn move_order<G: SubsetIndexed>(
    game: &G,
    state: &G::State,
    tie_order: TieOrder,
) -> Result<Vec<u32>, SolveError> {
    let rules = rules_of(game, true, true)?;
    let (moves, count) = rules.ordered_moves(game.mask(state), None, tie_order);
    Ok(moves[..count].iter().map(|&(_, e, _)| e).collect())
}

impl<G: SubsetIndexed> Solver<G> for SearchSolver<'_, G> {
    /// The value of one state, using every core: its moves are searched in parallel.
    fn value(&mut self, state: &G::State) -> Result<i32, SolveError> {
        let found = self.range(state)?;
        found.value().ok_or_else(|| self.halted_error())
    }

    fn values(&mut self, states: &[G::State]) -> Result<Vec<i32>, SolveError> {
        let found = self.ranges(states)?;
        found
            .iter()
            .map(|r| r.value().ok_or_else(|| self.halted_error()))
            .collect()
    }

    fn range(&mut self, state: &G::State) -> Result<ValueRange, SolveError> {
        Ok(self.root_value(self.game.mask(state), ValueRange::FULL))
    }

    /// One null-window test for a null window, as many as the window asks otherwise (MTD(f) within
    /// it), each on every core as [`Self::range`]'s.
    fn range_within(
        &mut self,
        state: &G::State,
        window: ValueRange,
    ) -> Result<ValueRange, SolveError> {
        Ok(self.root_value(self.game.mask(state), window))
    }

    /// Searches the states in parallel, sharing the table; symmetric states are searched once.
    /// When the states are the children of one position (the value of every move), status reports
    /// follow that position: its bounds, and each move's value as it is proved.
    fn ranges(&mut self, states: &[G::State]) -> Result<Vec<ValueRange>, SolveError> {
        let masks: Vec<u64> = states.iter().map(|s| self.game.mask(s)).collect();
        let keys: Vec<u64> = masks.iter().map(|&m| self.rules.key(m).0).collect();
        let mut distinct: Vec<(u64, u64)> = Vec::new();
        for (&m, &key) in masks.iter().zip(&keys) {
            if !distinct.iter().any(|&(k, _)| k == key) {
                distinct.push((key, m));
            }
        }
        if self.status.is_some() {
            self.track_moves(&masks);
        }
        let this = &*self;
        let found: Vec<(u64, ValueRange)> = distinct
            .par_iter()
            .map(|&(key, m)| {
                let range = this.search(m, ValueRange::FULL);
                if let (Some(status), Some(value)) = (this.status, range.value()) {
                    let nodes = this.nodes.load(Ordering::Relaxed);
                    if let Some(now) = this.root.prove(key, value, nodes, this.memory.table()) {
                        status(&now);
                    }
                }
                (key, range)
            })
            .collect();
        self.root.finish();
        Ok(keys
            .iter()
            .map(|k| {
                found
                    .iter()
                    .find(|(key, _)| key == k)
                    .expect("every key searched")
                    .1
            })
            .collect())
    }

    fn states_visited(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    fn halted(&self) -> Option<Halted> {
        self.halted.get().copied()
    }
}
