//! One thread of a search: negamax alpha-beta over the net score with the table of bounds, the
//! enhanced transposition cutoff, the theory's endgames and the free-element endgame tables, and the
//! null-window tests (MTD(f)) that turn it into exact values.

use super::rules::Rules;
use super::status::{RootMoves, StatusHook};
use super::TieOrder;
use crate::engine::scored::bounds::{Bounds, BoundsTable};
use crate::engine::scored::known::KnownValues;
use crate::engine::scored::restrict::FreeElements;
use crate::engine::scored::shared::{SharedBounds, SharedEntry};
use crate::engine::scored::ValueRange;
use crate::engine::util::halt::{Halt, Halted};
use crate::engine::util::progress::{Progress, PROGRESS_EVERY};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::OnceLock;

/// Nodes counted by a thread before it adds them to the shared count (and checks the halt).
const NODE_BATCH: u64 = 1 << 14;

/// Nodes between two checks of the halt within a batch: a batch takes 4 ms to tens of
/// milliseconds (slower while the table grows onto fresh pages), and a front end that asks the
/// solve to give way should be heard within a few.
const HALT_EVERY: u64 = 1 << 11;

/// What null-window tests prove of a state with `cells` cells open (MTD(f), Plaat et al.), asked
/// about in `window` ([`ValueRange::next_test`]: [`ValueRange::FULL`] for the exact value),
/// starting from what is already `known` of it (a book's or the table's bounds: no test is spent
/// on a side they settle — a position whose parent is proved is known on one side):
/// `test(beta)` gives a bound on the value — at least `beta` when the value reaches it, below `beta`
/// otherwise — or `None` when a halt interrupted it. A value has the parity of `cells`, so every
/// bound tested has it too; the first test is at 0 (or 1). The range decides the window unless a
/// test was interrupted.
pub(super) fn mtd(
    cells: i32,
    known: ValueRange,
    window: ValueRange,
    mut test: impl FnMut(i32) -> Option<i32>,
) -> ValueRange {
    let mut range = within_cells(cells, known);
    let mut guess = cells & 1;
    while let Some(beta) = range.next_test(window, guess) {
        let Some(value) = test(beta) else {
            break;
        };
        if value >= beta {
            range.lower = value;
        } else {
            range.upper = value;
        }
        guess = value;
    }
    range
}

/// `known` bounds of a state with `cells` cells open, narrowed to the values it can have (the
/// parity of `cells`, within ±`cells`); all it allows when they leave none (bounds from elsewhere
/// that contradict each other are not trusted).
pub(super) fn within_cells(cells: i32, known: ValueRange) -> ValueRange {
    let lower = known.lower.max(-cells);
    let upper = known.upper.min(cells);
    let lower = lower + ((lower + cells) & 1);
    let upper = upper - ((cells - upper) & 1);
    if lower <= upper {
        ValueRange { lower, upper }
    } else {
        ValueRange {
            lower: -cells,
            upper: cells,
        }
    }
}

/// What bounds `lower..=upper` proved of a state make of the window `alpha..beta`: the value to
/// return at once (`Ok`: exact, or a bound past the window, fail-soft), or the window narrowed by them.
#[inline]
fn cut(lower: i32, upper: i32, alpha: i32, beta: i32) -> Result<i32, (i32, i32)> {
    if lower >= beta || lower == upper {
        return Ok(lower);
    }
    if upper <= alpha {
        return Ok(upper);
    }
    Err((alpha.max(lower), beta.min(upper)))
}

/// The state shared by the threads of one search.
pub(super) struct Shared<'a> {
    pub(super) rules: &'a Rules<'a>,
    pub(super) table: &'a BoundsTable,
    pub(super) nodes: &'a AtomicU64,
    pub(super) progress: Option<Progress<'a>>,
    pub(super) status: Option<StatusHook<'a>>,
    pub(super) root: &'a RootMoves,
    pub(super) endgame: u32,
    pub(super) tie_order: TieOrder,
    /// Set when the search this worker serves is no longer needed (a sibling move reached the
    /// bound, or the halt came): it then returns at once, and stores nothing more in the table.
    pub(super) stop: &'a AtomicBool,
    /// Checked every [`HALT_EVERY`] nodes; when it comes, its reason is kept in `halted` (for every
    /// search of the solver) and `stop` is set.
    pub(super) halt: &'a Halt,
    /// Why the solver's searches halted, once one did.
    pub(super) halted: &'a OnceLock<Halted>,
    /// Nodes after which the searches give up, halted (`u64::MAX`: never).
    pub(super) node_limit: u64,
    /// Set when they did.
    pub(super) gave_up: &'a AtomicBool,
    /// What is proved already (a book), and the fewest free elements of a state it knows.
    pub(super) known: Option<(&'a dyn KnownValues, u32)>,
    /// Bounds shared with searches elsewhere: met at states with many free elements, and offered
    /// what this search proves of them.
    pub(super) shared: Option<&'a SharedBounds>,
}

/// One thread's view: the shared state, its own node count and room for endgame tables.
pub(super) struct Worker<'a> {
    shared: &'a Shared<'a>,
    nodes: u64,
    scratch: Vec<i8>,
    /// Whether this worker saw the stop flag: its last result means nothing.
    pub(super) stopped: bool,
}

impl<'a> Worker<'a> {
    /// A worker of the search `shared` describes, nothing counted yet; stopped from the start if
    /// the solver's halt has already come.
    pub(super) fn new(shared: &'a Shared<'a>) -> Self {
        Worker {
            shared,
            nodes: 0,
            scratch: Vec::new(),
            stopped: shared.halted.get().is_some(),
        }
    }

    /// Counts `n` more states, adding them to the shared count (and telling progress) in batches.
    fn count(&mut self, n: u64) {
        let before = self.nodes;
        self.nodes += n;
        // A node limit below a batch is checked at it (a test's limit of 0: at the first node).
        if self.nodes >= NODE_BATCH.min(self.shared.node_limit.saturating_add(1)) {
            // Past the node limit a running search gives up (one that has finished keeps its
            // answer: its last nodes are added by `flush`, which does not check the limit).
            if self.publish() > self.shared.node_limit {
                self.shared.gave_up.store(true, Ordering::Relaxed);
                let _ = self.shared.halted.set(Halted::Cancelled);
            }
            self.check_halt();
        } else if before / HALT_EVERY != self.nodes / HALT_EVERY {
            self.check_halt();
        }
    }

    /// Adds the nodes not yet counted to the shared count and gives the new total; tells progress
    /// each time the count passes a multiple of [`PROGRESS_EVERY`] (also when the nodes come from
    /// many searches too small to fill a batch, such as the moves of a position searched one by
    /// one), and the status also when [`STATUS_EVERY`](super::status::STATUS_EVERY) has passed
    /// since the last.
    fn publish(&mut self) -> u64 {
        let added = std::mem::take(&mut self.nodes);
        let shared = self.shared;
        let before = shared.nodes.fetch_add(added, Ordering::Relaxed);
        let passed = (before + added) / PROGRESS_EVERY != before / PROGRESS_EVERY;
        if let Some(status) = shared.status {
            if passed || shared.root.status_due() {
                status(&shared.root.status(before + added, shared.table));
            }
        } else if let Some(progress) = shared.progress.filter(|_| passed) {
            progress(before + added);
        }
        before + added
    }

    /// Sets the stop flag when the halt has come (to this search or to another of the solver's).
    fn check_halt(&self) {
        let shared = self.shared;
        if shared.halted.get().is_some() {
            shared.stop.store(true, Ordering::Relaxed);
        } else if let Some(why) = shared.halt.check() {
            let _ = shared.halted.set(why);
            shared.stop.store(true, Ordering::Relaxed);
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

    /// Adds the nodes not yet counted to the shared count (see [`Self::publish`]).
    pub(super) fn flush(&mut self) {
        self.publish();
    }

    /// The value of `drawn` (with `cells` cells still open) if it lies strictly between `alpha` and
    /// `beta`; otherwise a bound on the far side of the window (fail-soft).
    pub(super) fn alpha_beta(
        &mut self,
        drawn: u64,
        cells: i32,
        mut alpha: i32,
        mut beta: i32,
    ) -> i32 {
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
            match cut(b.lower, b.upper, alpha, beta) {
                Ok(value) => return value,
                Err(window) => (alpha, beta) = window,
            }
            hint = b.best.map(|m| rules.move_from_key_frame(m, perm, drawn));
        }
        if let Some((known, fewest)) = self.shared.known {
            if let Some(b) = (free_count >= fewest).then(|| known.range(drawn)).flatten() {
                match cut(b.lower, b.upper, alpha, beta) {
                    Ok(value) => return value,
                    Err(window) => (alpha, beta) = window,
                }
            }
        }
        if let Some(shared) = self.shared.shared {
            // Keyed as the table is: the key is a state of the same value.
            if let Some(e) = (free_count >= shared.from_free())
                .then(|| shared.get(key))
                .flatten()
            {
                match cut(e.range.lower, e.range.upper, alpha, beta) {
                    Ok(value) => return value,
                    Err(window) => (alpha, beta) = window,
                }
                // Its best move when the table has none (one of the board's elements: the
                // store's entries may come from anywhere).
                if hint.is_none() {
                    hint = e
                        .best
                        .filter(|&m| m < rules.items)
                        .map(|m| rules.move_from_key_frame(m, perm, drawn));
                }
            }
        }
        let loony = rules
            .theory
            .and_then(|t| t.endgame_value(rules.rules, drawn, rules.full & !drawn));
        if loony.is_some() || free_count <= self.shared.endgame {
            let value = loony.unwrap_or_else(|| self.endgame(drawn));
            let exact = Bounds {
                lower: value,
                upper: value,
                best: None,
            };
            self.keep(key, exact, free_count);
            return value;
        }
        let (alpha0, beta0) = (alpha, beta);
        let (moves, count) = rules.ordered_moves(drawn, hint, self.shared.tie_order);
        if let Some((value, e)) = self.child_cut(drawn, &moves[..count], beta) {
            let bounds = Bounds {
                lower: value,
                upper: cells,
                best: Some(rules.move_to_key_frame(e, perm, key)),
            };
            self.keep(key, bounds, free_count);
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
        self.keep(key, bounds, free_count);
        best
    }

    /// Stores `bounds` proved of the state `key` (with `free` free elements) in the table, and
    /// offers them to the shared bounds when the state has enough free elements.
    fn keep(&self, key: u64, bounds: Bounds, free: u32) {
        self.shared.table.store(key, bounds, free, self.shared.halt);
        if let Some(shared) = self.shared.shared.filter(|s| free >= s.from_free()) {
            shared.offer(SharedEntry {
                key,
                range: ValueRange {
                    lower: bounds.lower,
                    upper: bounds.upper,
                },
                best: bounds.best,
            });
        }
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

    /// What null-window searches prove of `drawn` (with `cells` cells open) on this thread, asked
    /// about in `window` ([`mtd`], from the bounds `known` of it): its exact value, or a bound that
    /// decides the window, or bounds when the halt interrupted them. Each test cuts more than a search with the full window does,
    /// and the table keeps what every test proved for the next.
    pub(super) fn null_window_tests(
        &mut self,
        drawn: u64,
        cells: i32,
        known: ValueRange,
        window: ValueRange,
    ) -> ValueRange {
        mtd(cells, known, window, |beta| {
            let value = self.alpha_beta(drawn, cells, beta - 1, beta);
            (!self.stopped).then_some(value)
        })
    }

    /// The value for the mover of drawing `e` (worth `points` at once) in `drawn` with `cells` cells
    /// open, searched with the window `alpha..beta` seen from the mover (Wilson's rule: a scoring
    /// move keeps the turn, so its child's window is shifted, not negated).
    pub(super) fn move_value(
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The null-window tests MTD(f) asks to find `value` of a state with `cells` cells open,
    /// starting from `known`, and what they find.
    fn tests_for(cells: i32, known: ValueRange, value: i32) -> (Vec<i32>, ValueRange) {
        let mut asked = Vec::new();
        let found = mtd(cells, known, ValueRange::FULL, |beta| {
            asked.push(beta);
            // Fail-soft at the bound itself: the least a test can say.
            Some(if value >= beta { beta } else { beta - 2 })
        });
        (asked, found)
    }

    #[test]
    fn known_bounds_spare_the_tests_they_settle() {
        let full = ValueRange::FULL;
        // Nothing known: a value of -2 takes a test at 0 (fails) and at -2 (holds).
        assert_eq!(
            tests_for(16, full, -2),
            (vec![0, -2], ValueRange::exact(-2))
        );
        // Known at most -2 (a proved parent's bound): one test, at -2.
        let at_most = ValueRange {
            lower: -16,
            upper: -2,
        };
        assert_eq!(
            tests_for(16, at_most, -2),
            (vec![-2], ValueRange::exact(-2))
        );
        // Known at least -2: the test at 0 settles it.
        let at_least = ValueRange {
            lower: -2,
            upper: 16,
        };
        assert_eq!(
            tests_for(16, at_least, -2),
            (vec![0], ValueRange::exact(-2))
        );
        // Known exactly: no test at all.
        assert_eq!(
            tests_for(16, ValueRange::exact(4), 4),
            (vec![], ValueRange::exact(4))
        );
    }

    #[test]
    fn known_bounds_are_narrowed_to_the_values_a_state_can_have() {
        let r = |lower, upper| ValueRange { lower, upper };
        // Parity of the cells, within them.
        assert_eq!(within_cells(5, r(-2, 40)), r(-1, 5));
        assert_eq!(within_cells(4, r(-3, 3)), r(-2, 2));
        assert_eq!(within_cells(4, ValueRange::FULL), r(-4, 4));
        // Bounds that leave no value of the right parity are not trusted.
        assert_eq!(within_cells(4, r(1, 1)), r(-4, 4));
        assert_eq!(within_cells(4, r(3, -3)), r(-4, 4));
    }
}
