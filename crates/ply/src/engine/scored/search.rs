//! Alpha-beta search over the net score, for positions too large for any table.
//!
//! Negamax with Wilson's rule: a scoring move keeps the turn, so its child is searched with the window
//! shifted by the points and not negated. The value depends on the drawn elements alone, so a
//! [`BoundsTable`] keyed by them (canonicalised under the game's symmetries, when it has any) keeps
//! the bounds every search proved; a state with `c` cells left is worth between `-c` and `c`, which
//! cuts further. Moves are ordered: the table's best move first, then scoring moves, then moves that
//! give the opponent nothing, interior elements (in two cells) before border ones, and last the moves
//! that leave a cell one element short (they hand the opponent points). Where a cell is capturable and
//! the game declares the [`captures`] rules, only the moves they keep are searched (a safe capture
//! alone; otherwise the captures and their double-deals). States with few free elements are valued by
//! filling the table of their free elements.
//!
//! The value of several states at once ([`Solver::values`], used for the value of every move) is
//! computed in parallel, one state per task, all tasks sharing the table. Every value given is exact:
//! each is found by a series of null-window searches (MTD(f): 9 % fewer nodes than one search with the
//! full window on a 30-free 4×4 position), kept in a small map of exact values beside the table so
//! that later questions about it never search again.

use super::bounds::{Bounds, BoundsTable};
use super::captures;
use super::loony;
use super::restrict::FreeElements;
use super::search_status::{RootMoves, StatusHook};
use super::symmetry::Symmetries;
use super::twins::Twins;
use super::{check_values_fit, require_acyclic_deterministic, Completion, SolveError, Solver};
use super::{ScoredGame, SubsetIndexed};
use crate::engine::util::memory::MemoryBudget;
use crate::engine::util::progress::{Progress, PROGRESS_EVERY};
use rayon::prelude::*;
use rustc_hash::FxHashMap;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;

/// The table a search takes when nothing smaller is asked: 1 GiB, or the budget if smaller.
pub const DEFAULT_TABLE_BYTES: u64 = 1 << 30;

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

/// States with fewer free elements are keyed without the board's symmetries (twins only).
const SYMMETRY_FREE: u32 = 30;

/// Nodes counted by a thread before it adds them to the shared count.
const NODE_BATCH: u64 = 1 << 14;

/// Which of two moves of equal priority the search tries first. The value never depends on it, but
/// the tree searched and what the table keeps do: a second run in the other order is a cross-check
/// of a value that no other program gives.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum TieOrder {
    /// The lower-numbered element first.
    #[default]
    LowFirst,
    /// The higher-numbered element first.
    HighFirst,
}

/// How a search is set up.
#[derive(Clone, Copy)]
pub struct SearchOptions<'a> {
    /// Bytes of the table of bounds (rounded down to a power of two entries).
    pub table_bytes: u64,
    /// Memory the table may take.
    pub budget: MemoryBudget,
    /// Told the number of nodes searched, every [`PROGRESS_EVERY`] nodes, unless `status` is given
    /// (which tells the nodes too).
    pub progress: Option<Progress<'a>>,
    /// Told the search's [`SearchStatus`](super::search_status::SearchStatus) every
    /// [`PROGRESS_EVERY`] nodes and whenever a move of the position being valued is proved.
    pub status: Option<StatusHook<'a>>,
    /// Whether to key the table by canonical forms under the game's symmetries.
    pub use_symmetries: bool,
    /// States with at most this many free elements are valued by the table of their free elements
    /// ([`FreeTable`](super::restrict::FreeTable)) instead of searched (0: never).
    pub endgame: u32,
    /// Whether to apply the capture rules ([`super::captures`]) when the game declares they hold
    /// ([`SubsetIndexed::capture_rules`]): a safe capture is searched alone, and otherwise only
    /// captures and their double-deals.
    pub capture_rules: bool,
    /// Which of two moves of equal priority to try first.
    pub tie_order: TieOrder,
}

impl SearchOptions<'_> {
    /// The table size for positions with `free` free elements: no more entries than twice their
    /// states, no more than [`DEFAULT_TABLE_BYTES`] (or [`LONG_SEARCH_TABLE_BYTES`] from
    /// [`LONG_SEARCH_FREE`] free elements, but at most half the budget) and the budget.
    pub fn table_bytes_for(free: u32, budget: MemoryBudget) -> u64 {
        let states = 1u64.checked_shl(free + 1).unwrap_or(u64::MAX);
        let size = if free >= LONG_SEARCH_FREE {
            LONG_SEARCH_TABLE_BYTES.min(budget.bytes() / 2)
        } else {
            DEFAULT_TABLE_BYTES
        };
        size.max(DEFAULT_TABLE_BYTES)
            .min(budget.bytes())
            .min(states.saturating_mul(super::bounds::ENTRY_BYTES))
    }
}

/// The rules as the search reads them.
struct Rules<'a> {
    rules: Completion<'a>,
    items: u32,
    full: u64,
    /// Per element, how many cells it lies in (interior elements are tried first).
    cells_of: Vec<u8>,
    /// The symmetries, as element permutations, with their inverses.
    symmetries: Option<&'a Symmetries>,
    perms: Vec<Vec<u8>>,
    inverses: Vec<Vec<u8>>,
    /// Twin elements (same cells): keys are in their normal form, and one move per group is
    /// searched. None when symmetries are not used.
    twins: Twins,
}

impl<'a> Rules<'a> {
    fn new(
        rules: Completion<'a>,
        items: u32,
        symmetries: Option<&'a Symmetries>,
        use_twins: bool,
    ) -> Self {
        let cells_of = (0..items as usize)
            .map(|e| rules.others[e].iter().filter(|&&o| o != 1 << e).count() as u8)
            .collect();
        let perms: Vec<Vec<u8>> = symmetries.map_or(Vec::new(), |s| {
            (0..s.order() - 1)
                .map(|i| {
                    (0..items)
                        .map(|e| s.image(i, 1 << e).trailing_zeros() as u8)
                        .collect()
                })
                .collect()
        });
        let inverses = perms
            .iter()
            .map(|p| {
                let mut inv = vec![0u8; p.len()];
                for (e, &image) in p.iter().enumerate() {
                    inv[image as usize] = e as u8;
                }
                inv
            })
            .collect();
        Rules {
            rules,
            items,
            full: if items == 0 {
                0
            } else {
                u64::MAX >> (64 - items)
            },
            cells_of,
            symmetries,
            perms,
            inverses,
            twins: if use_twins {
                Twins::new(rules, items)
            } else {
                Twins::default()
            },
        }
    }

    /// The table key of `drawn` and the symmetry that gives it (`None`: the identity): the smallest
    /// normal form (twins lowest) of its images.
    #[inline]
    fn key(&self, drawn: u64) -> (u64, Option<usize>) {
        let mut best = (self.twins.normal(drawn), None);
        if (self.full & !drawn).count_ones() < SYMMETRY_FREE {
            return best;
        }
        if let Some(s) = self.symmetries {
            for i in 0..self.perms.len() {
                let image = self.twins.normal(s.image(i, drawn));
                if image < best.0 {
                    best = (image, Some(i));
                }
            }
        }
        best
    }

    /// A move in the frame of `key`, from a move of the state (`perm` as returned by [`Self::key`]).
    fn move_to_key_frame(&self, e: u32, perm: Option<usize>, key: u64) -> u32 {
        let image = perm.map_or(e, |p| self.perms[p][e as usize] as u32);
        self.twins.free_twin(image, key)
    }

    /// A move of the state `drawn`, from a move in its key's frame.
    fn move_from_key_frame(&self, m: u32, perm: Option<usize>, drawn: u64) -> u32 {
        let e = perm.map_or(m, |p| self.inverses[p][m as usize] as u32);
        self.twins.free_twin(e, drawn)
    }

    /// The order of a move: higher is tried first.
    #[inline]
    fn priority(&self, drawn: u64, e: u32, points: u32) -> u32 {
        if points > 0 {
            return 8 + points;
        }
        let after = drawn | 1 << e;
        let gives = self.rules.others[e as usize]
            .iter()
            .any(|&o| o != 1 << e && (o & !after).count_ones() == 1);
        if gives {
            0
        } else {
            1 + self.cells_of[e as usize] as u32
        }
    }
}

/// The exact value of a state with `cells` cells open from null-window tests: `test(beta)` gives a
/// bound on the value, at least `beta` when the value reaches it and below `beta` otherwise. A value has
/// the parity of `cells` (the cells left are split between the players), so every bound tested has it
/// too; the first test is at 0 (or 1).
fn mtd(cells: i32, mut test: impl FnMut(i32) -> i32) -> i32 {
    let (mut lower, mut upper) = (-cells, cells);
    let mut guess = cells & 1;
    while lower < upper {
        let beta = guess.clamp(lower + 2, upper);
        let value = test(beta);
        if value >= beta {
            lower = value;
        } else {
            upper = value;
        }
        guess = value;
    }
    lower
}

/// The state shared by the threads of one search.
struct Shared<'a> {
    rules: &'a Rules<'a>,
    table: &'a BoundsTable,
    nodes: &'a AtomicU64,
    progress: Option<Progress<'a>>,
    status: Option<StatusHook<'a>>,
    root: &'a RootMoves,
    endgame: u32,
    capture_rules: bool,
    tie_order: TieOrder,
    /// Set when the search this worker serves is no longer needed: it then returns at once, and
    /// stores nothing more in the table.
    stop: &'a AtomicBool,
}

/// One thread's view: the shared state, its own node count and room for endgame tables.
struct Worker<'a> {
    shared: &'a Shared<'a>,
    nodes: u64,
    scratch: Vec<i8>,
    /// Whether this worker saw the stop flag: its last result means nothing.
    stopped: bool,
}

impl<'a> Worker<'a> {
    /// A worker of the search `shared` describes, nothing counted yet.
    fn new(shared: &'a Shared<'a>) -> Self {
        Worker {
            shared,
            nodes: 0,
            scratch: Vec::new(),
            stopped: false,
        }
    }

    /// Counts `n` more states, adding them to the shared count (and telling progress) in batches.
    fn count(&mut self, n: u64) {
        self.nodes += n;
        if self.nodes >= NODE_BATCH {
            let added = self.nodes;
            let before = self.shared.nodes.fetch_add(added, Ordering::Relaxed);
            self.nodes = 0;
            if (before + added) / PROGRESS_EVERY != before / PROGRESS_EVERY {
                let shared = self.shared;
                if let Some(status) = shared.status {
                    status(&shared.root.status(before + added, shared.table));
                } else if let Some(progress) = shared.progress {
                    progress(before + added);
                }
            }
        }
    }

    /// Whether to give up now (the stop flag is set).
    #[inline]
    fn stopping(&mut self) -> bool {
        if !self.stopped && self.shared.stop.load(Ordering::Relaxed) {
            self.stopped = true;
        }
        self.stopped
    }

    fn flush(&mut self) {
        self.shared.nodes.fetch_add(self.nodes, Ordering::Relaxed);
        self.nodes = 0;
    }

    /// The value of `drawn` (with `cells` cells still open) if it lies strictly between `alpha` and
    /// `beta`; otherwise a bound on the far side of the window (fail-soft).
    fn alpha_beta(&mut self, drawn: u64, cells: i32, mut alpha: i32, mut beta: i32) -> i32 {
        self.count(1);
        if self.stopping() {
            return 0;
        }
        if cells <= alpha {
            return cells;
        }
        if -cells >= beta {
            return -cells;
        }
        if cells == 0 {
            return 0;
        }
        let rules = self.shared.rules;
        let (key, perm) = rules.key(drawn);
        let free_count = (rules.full & !drawn).count_ones();
        let known = self.shared.table.probe(key);
        let mut hint = None;
        if let Some(b) = known {
            if b.lower >= beta || b.lower == b.upper {
                return b.lower;
            }
            if b.upper <= alpha {
                return b.upper;
            }
            alpha = alpha.max(b.lower);
            beta = beta.min(b.upper);
            hint = b.best.map(|m| rules.move_from_key_frame(m, perm, drawn));
        }
        let loony = if self.shared.capture_rules {
            loony::simple_endgame_value(rules.rules, drawn, rules.full & !drawn)
        } else {
            None
        };
        if loony.is_some() || free_count <= self.shared.endgame {
            let value = loony.unwrap_or_else(|| self.endgame(drawn));
            let exact = Bounds {
                lower: value,
                upper: value,
                best: None,
            };
            self.shared.table.store(key, exact, free_count);
            return value;
        }
        let (alpha0, beta0) = (alpha, beta);
        let (moves, count) = self.ordered_moves(drawn, hint);
        if let Some((value, e)) = self.child_cut(drawn, &moves[..count], beta) {
            let bounds = Bounds {
                lower: value,
                upper: cells,
                best: Some(rules.move_to_key_frame(e, perm, key)),
            };
            self.shared.table.store(key, bounds, free_count);
            return value;
        }
        let mut best = i32::MIN;
        let mut best_move = 0;
        for &(_, e, points) in &moves[..count] {
            let value = self.move_value(drawn, e, points as i32, cells, alpha, beta);
            if self.stopped {
                return 0;
            }
            if value > best {
                best = value;
                best_move = e;
            }
            alpha = alpha.max(best);
            if alpha >= beta {
                break;
            }
        }
        let bounds = if best <= alpha0 {
            Bounds {
                lower: -cells,
                upper: best,
                best: None,
            }
        } else if best >= beta0 {
            Bounds {
                lower: best,
                upper: cells,
                best: Some(rules.move_to_key_frame(best_move, perm, key)),
            }
        } else {
            Bounds {
                lower: best,
                upper: best,
                best: Some(rules.move_to_key_frame(best_move, perm, key)),
            }
        };
        self.shared.table.store(key, bounds, free_count);
        best
    }

    /// A move whose child's bounds in the table already reach `beta` (enhanced transposition
    /// cutoff): its value's lower bound and the move.
    fn child_cut(&self, drawn: u64, moves: &[(u32, u32, u32)], beta: i32) -> Option<(i32, u32)> {
        let rules = self.shared.rules;
        let table = self.shared.table;
        let mut keys = [0u64; 64];
        for (key, &(_, e, _)) in keys.iter_mut().zip(moves) {
            *key = rules.key(drawn | 1 << e).0;
            table.prefetch(*key);
        }
        moves.iter().zip(keys).find_map(|(&(_, e, points), key)| {
            let b = table.probe(key)?;
            let lower = if points > 0 {
                points as i32 + b.lower
            } else {
                -b.upper
            };
            (lower >= beta).then_some((lower, e))
        })
    }

    /// The moves of `drawn` to search, best first, as (priority, element, points): all free elements,
    /// or those the capture rules keep; `hint` (the table's best move) first, ties in `tie_order`.
    fn ordered_moves(&self, drawn: u64, hint: Option<u32>) -> ([(u32, u32, u32); 64], usize) {
        let rules = self.shared.rules;
        let mut moves = [(0u32, 0u32, 0u32); 64];
        let mut count = 0;
        let mut free = rules.full & !drawn;
        if self.shared.capture_rules {
            if let Some(kept) = captures::candidates(rules.rules, drawn, free) {
                free = kept;
            }
        }
        free = rules.twins.distinct_moves(free);
        while free != 0 {
            let e = free.trailing_zeros();
            free &= free - 1;
            let points = rules.rules.points(drawn, e);
            let priority = if Some(e) == hint {
                u32::MAX
            } else {
                rules.priority(drawn, e, points)
            };
            moves[count] = (priority, e, points);
            count += 1;
        }
        let ties = match self.shared.tie_order {
            TieOrder::LowFirst => |a: u32, b: u32| a.cmp(&b),
            TieOrder::HighFirst => |a: u32, b: u32| b.cmp(&a),
        };
        moves[..count].sort_unstable_by(|a, b| b.0.cmp(&a.0).then(ties(a.1, b.1)));
        (moves, count)
    }

    /// The exact value of `drawn` (with `cells` cells open) by a series of null-window searches
    /// (MTD(f), Plaat et al.), each asking whether the value reaches a bound, starting from 0: each
    /// test cuts more than a search with the full window does, and the table keeps what every test
    /// proved for the next. A value has the parity of `cells` (the cells left are split between the
    /// players), so every bound tested has it too.
    fn null_window_tests(&mut self, drawn: u64, cells: i32) -> i32 {
        mtd(cells, |beta| self.alpha_beta(drawn, cells, beta - 1, beta))
    }

    /// The value for the mover of drawing `e` (worth `points` at once) in `drawn` with `cells` cells
    /// open, searched with the window `alpha..beta` seen from the mover (Wilson's rule: a scoring
    /// move keeps the turn, so its child's window is shifted, not negated).
    fn move_value(
        &mut self,
        drawn: u64,
        e: u32,
        points: i32,
        cells: i32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let child = drawn | 1 << e;
        if points > 0 {
            points + self.alpha_beta(child, cells - points, alpha - points, beta - points)
        } else {
            -self.alpha_beta(child, cells, -beta, -alpha)
        }
    }

    /// The exact value of `drawn` from the table of its free elements, filled by this thread.
    fn endgame(&mut self, drawn: u64) -> i32 {
        let rules = self.shared.rules;
        let game = FreeElements::new(rules.rules, rules.items, drawn);
        let value = game.value_by_serial_fill(&mut self.scratch);
        self.count(self.scratch.len() as u64 - 1);
        value
    }
}

/// The search strategy as a [`Solver`]: exact values of any states of one game.
pub struct SearchSolver<'a, G> {
    game: &'a G,
    rules: Rules<'a>,
    table: BoundsTable,
    nodes: AtomicU64,
    progress: Option<Progress<'a>>,
    status: Option<StatusHook<'a>>,
    /// The moves of the position being valued, for status reports.
    root: RootMoves,
    endgame: u32,
    capture_rules: bool,
    tie_order: TieOrder,
    /// Exact values given so far, by table key: never evicted.
    exact: Mutex<FxHashMap<u64, i8>>,
}

impl<'a, G: SubsetIndexed> SearchSolver<'a, G> {
    /// A search for `game`, which must state completion rules; the table is allocated now, refused
    /// before allocating if over the budget.
    pub fn new(game: &'a G, options: SearchOptions<'a>) -> Result<Self, SolveError> {
        require_acyclic_deterministic(game, "search")?;
        check_values_fit(game)?;
        let rules = game.completion().ok_or(SolveError::Unsupported {
            solver: "search",
            feature: "moves not stated as completion rules",
        })?;
        let symmetries = if options.use_symmetries {
            game.symmetries()
        } else {
            None
        };
        Ok(SearchSolver {
            game,
            rules: Rules::new(rules, game.items(), symmetries, options.use_symmetries),
            table: BoundsTable::new(options.table_bytes, options.budget)?,
            nodes: AtomicU64::new(0),
            progress: options.progress,
            status: options.status,
            root: RootMoves::default(),
            endgame: options.endgame,
            capture_rules: options.capture_rules && game.capture_rules(),
            tie_order: options.tie_order,
            exact: Mutex::new(FxHashMap::default()),
        })
    }

    /// Bytes of the table of bounds.
    pub fn table_bytes(&self) -> u64 {
        self.table.bytes()
    }

    /// Entries of the table in use.
    pub fn table_used(&self) -> u64 {
        self.table.used()
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
            table: &self.table,
            nodes: &self.nodes,
            progress: self.progress,
            status: self.status,
            root: &self.root,
            endgame: self.endgame,
            capture_rules: self.capture_rules,
            tie_order: self.tie_order,
            stop,
        }
    }

    /// The exact value kept for `key`, if it was given before.
    fn known(&self, key: u64) -> Option<i32> {
        let exact = self.exact.lock().expect("no poisoned lock");
        exact.get(&key).map(|&v| v as i32)
    }

    fn keep(&self, key: u64, value: i32) {
        let mut exact = self.exact.lock().expect("no poisoned lock");
        exact.insert(key, value as i8);
    }

    /// The exact value of the state with bitmask `drawn`, by null-window searches on this thread.
    fn search(&self, drawn: u64) -> i32 {
        let (key, _) = self.rules.key(drawn);
        if let Some(v) = self.known(key) {
            return v;
        }
        let cells = FreeElements::new(self.rules.rules, self.game.items(), drawn).max_points();
        let never = AtomicBool::new(false);
        let shared = self.shared(&never);
        let mut worker = Worker::new(&shared);
        let value = worker.null_window_tests(drawn, cells as i32);
        worker.flush();
        self.keep(key, value);
        value
    }

    /// The exact value of `drawn` alone, on every core: the same null-window tests (MTD(f)) as
    /// [`Self::search`], each test asking its moves in parallel — the threads take the moves in order,
    /// best first, and the first move that reaches the bound stops the others. Small states (at most
    /// [`ROOT_SPLIT_FREE`] free elements, or an endgame) and states with one move to search are
    /// searched on this thread.
    fn root_value(&self, drawn: u64) -> i32 {
        let (key, perm) = self.rules.key(drawn);
        if let Some(v) = self.known(key) {
            return v;
        }
        let cells =
            FreeElements::new(self.rules.rules, self.game.items(), drawn).max_points() as i32;
        let free = (self.rules.full & !drawn).count_ones();
        if cells == 0 || free <= self.endgame.max(ROOT_SPLIT_FREE) {
            return self.search(drawn);
        }
        let never = AtomicBool::new(false);
        let shared = self.shared(&never);
        let worker = Worker::new(&shared);
        let hint = self
            .table
            .probe(key)
            .and_then(|b| b.best)
            .map(|m| self.rules.move_from_key_frame(m, perm, drawn));
        let (moves, count) = worker.ordered_moves(drawn, hint);
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
            return self.search(drawn);
        }
        if self.status.is_some() {
            // Status reports then give the bounds the table holds on the moves' values.
            let masks: Vec<u64> = moves.iter().map(|&(e, _)| drawn | 1 << e).collect();
            self.track_moves(&masks);
        }
        let value = mtd(cells, |beta| self.root_test(&moves, drawn, cells, beta));
        self.root.finish();
        self.keep(key, value);
        value
    }

    /// Whether `drawn`'s value reaches `beta`: a bound on it (fail-soft: at least `beta` when it does,
    /// below it otherwise), from `moves` (element, points) searched in parallel.
    fn root_test(&self, moves: &[(u32, i32)], drawn: u64, cells: i32, beta: i32) -> i32 {
        let stop = AtomicBool::new(false);
        let next = AtomicUsize::new(0);
        let best = AtomicI32::new(i32::MIN);
        let threads = rayon::current_num_threads().clamp(1, moves.len());
        std::thread::scope(|scope| {
            for _ in 0..threads {
                scope.spawn(|| {
                    let shared = self.shared(&stop);
                    let mut worker = Worker::new(&shared);
                    while let Some(&(e, points)) = moves.get(next.fetch_add(1, Ordering::Relaxed)) {
                        let value = worker.move_value(drawn, e, points, cells, beta - 1, beta);
                        if worker.stopped {
                            break;
                        }
                        best.fetch_max(value, Ordering::Relaxed);
                        if value >= beta {
                            stop.store(true, Ordering::Relaxed);
                            break;
                        }
                    }
                    worker.flush();
                });
            }
        });
        best.into_inner()
    }
}

impl<G: SubsetIndexed> Solver<G> for SearchSolver<'_, G> {
    /// The value of one state, using every core: its moves are searched in parallel.
    fn value(&mut self, state: &G::State) -> Result<i32, SolveError> {
        Ok(self.root_value(self.game.mask(state)))
    }

    /// Searches the states in parallel, sharing the table; symmetric states are searched once.
    /// When the states are the children of one position (the value of every move), status reports
    /// follow that position: its bounds, and each move's value as it is proved.
    fn values(&mut self, states: &[G::State]) -> Result<Vec<i32>, SolveError> {
        let masks: Vec<u64> = states.iter().map(|s| self.game.mask(s)).collect();
        let mut distinct: Vec<u64> = Vec::new();
        for &m in &masks {
            let key = self.rules.key(m).0;
            if !distinct.iter().any(|&d| self.rules.key(d).0 == key) {
                distinct.push(m);
            }
        }
        if self.status.is_some() {
            self.track_moves(&masks);
        }
        let this = &*self;
        distinct.par_iter().for_each(|&m| {
            let value = this.search(m);
            if let Some(status) = this.status {
                let nodes = this.nodes.load(Ordering::Relaxed);
                if let Some(now) = this
                    .root
                    .prove(this.rules.key(m).0, value, nodes, &this.table)
                {
                    status(&now);
                }
            }
        });
        self.root.finish();
        Ok(masks.iter().map(|&m| self.search(m)).collect())
    }

    fn states_visited(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }
}
