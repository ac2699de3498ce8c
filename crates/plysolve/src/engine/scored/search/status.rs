//! What a long search tells its front end as it goes: nodes, how full its table is, and — while it
//! values every move of a position — the bounds of that position's value and each move's value as it
//! is proved. The library never prints; a front end turns these into progress lines.

use crate::engine::scored::bounds::BoundsTable;
use crate::engine::scored::move_value;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

/// The most time between two statuses of a running search: the node count alone tells one every
/// [`crate::engine::util::progress::PROGRESS_EVERY`] nodes, which is seconds apart on a busy
/// machine, and a front end streaming the search would show nothing meanwhile.
pub const STATUS_EVERY: Duration = Duration::from_millis(500);

/// A search's state at one moment.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchStatus {
    /// Nodes searched so far (endgame table states included).
    pub nodes: u64,
    /// Share of the table's entries in use, from a sample of them (0.0 to 1.0).
    pub table_fill: f64,
    /// The moves of the position being valued, and how many of them have a proved value (0 of 0
    /// when the search values a single state).
    pub moves_proved: usize,
    /// See `moves_proved`.
    pub moves: usize,
    /// How many of the moves are known to be worth no more than the position's lower bound (proved,
    /// or bounded so by the table): with one value asked (`--value-only`), where no move is ever
    /// valued exactly, this is what counts down as the search closes on the value.
    pub moves_at_most_lower: usize,
    /// What is known of the position's value so far: `lower <= value <= upper`, from the moves
    /// proved and the table's bounds on the others (`None` when the search values a single state).
    pub root: Option<(i32, i32)>,
    /// When this report is for moves just proved: their elements and values for the mover (several
    /// when their children are one state in the table — images under a symmetry, or twins; empty
    /// in the reports made every so many nodes).
    pub proved: Vec<(u32, i32)>,
}

/// Told a [`SearchStatus`] every [`crate::engine::util::progress::PROGRESS_EVERY`] nodes, at least
/// every [`STATUS_EVERY`] while the search runs, and whenever a move of the position is proved.
pub type StatusHook<'a> = &'a (dyn Fn(&SearchStatus) + Sync);

/// One move of the position being valued.
#[derive(Debug, Clone, Copy)]
struct RootMove {
    element: u32,
    points: u32,
    /// The child's table key and its open cells (the child's value lies in `-cells..=cells`).
    key: u64,
    cells: i32,
    /// The child's proved value.
    value: Option<i32>,
}

/// The moves of the first position whose every move a search values (the position asked; later
/// ones, such as the steps of a best line, are answered from the table and not reported), shared by
/// the search's threads.
#[derive(Default)]
pub(super) struct RootMoves {
    state: Mutex<Tracked>,
    clock: StatusClock,
}

/// When the last status was told, for [`STATUS_EVERY`].
#[derive(Default)]
struct StatusClock {
    /// The first time a status was considered.
    start: OnceLock<Instant>,
    /// Milliseconds from `start` to the last status the clock made due.
    last: AtomicU64,
}

impl StatusClock {
    /// Whether [`STATUS_EVERY`] has passed since the last status it made due (the first call
    /// starts the clock); true for one of the threads asking at once.
    fn due(&self) -> bool {
        let start = *self.start.get_or_init(Instant::now);
        let now = start.elapsed().as_millis() as u64;
        let last = self.last.load(Ordering::Relaxed);
        now >= last + STATUS_EVERY.as_millis() as u64
            && self
                .last
                .compare_exchange(last, now, Ordering::Relaxed, Ordering::Relaxed)
                .is_ok()
    }
}

#[derive(Default)]
struct Tracked {
    moves: Vec<RootMove>,
    /// A position was tracked and valued already.
    done: bool,
}

impl RootMoves {
    /// Starts tracking the moves of one position, `(element, points, child key, child's open
    /// cells)`, unless a position was tracked before.
    pub(super) fn start(&self, moves: impl Iterator<Item = (u32, u32, u64, i32)>) {
        let mut tracked = self.lock();
        if tracked.done {
            return;
        }
        tracked.moves = moves
            .map(|(element, points, key, cells)| RootMove {
                element,
                points,
                key,
                cells,
                value: None,
            })
            .collect();
    }

    /// Records the proved value of the child with table `key`: the status after `nodes` nodes naming
    /// that move, or `None` if it is not a tracked move.
    pub(super) fn prove(
        &self,
        key: u64,
        value: i32,
        nodes: u64,
        table: &BoundsTable,
    ) -> Option<SearchStatus> {
        let mut tracked = self.lock();
        let mut proved = Vec::new();
        for m in tracked.moves.iter_mut().filter(|m| m.key == key) {
            m.value = Some(value);
            proved.push((m.element, move_value(m.points as i32, value)));
        }
        (!proved.is_empty()).then(|| status_of(&tracked.moves, nodes, table, proved))
    }

    /// Stops tracking: the position is valued.
    pub(super) fn finish(&self) {
        let mut tracked = self.lock();
        if !tracked.moves.is_empty() {
            tracked.moves.clear();
            tracked.done = true;
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Tracked> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether a status is due by the clock: [`STATUS_EVERY`] since the last one it made due.
    pub(super) fn status_due(&self) -> bool {
        self.clock.due()
    }

    /// The status after `nodes` nodes, reading the table for the bounds of unproved moves.
    pub(super) fn status(&self, nodes: u64, table: &BoundsTable) -> SearchStatus {
        status_of(&self.lock().moves, nodes, table, Vec::new())
    }
}

/// The status of a search at `moves` after `nodes` nodes.
fn status_of(
    moves: &[RootMove],
    nodes: u64,
    table: &BoundsTable,
    proved: Vec<(u32, i32)>,
) -> SearchStatus {
    // Each move's bounds for the mover.
    let bounds: Vec<(i32, i32)> = moves
        .iter()
        .map(|m| {
            let (lower, upper) = match m.value {
                Some(v) => (v, v),
                None => table
                    .probe(m.key)
                    .map_or((-m.cells, m.cells), |b| (b.lower, b.upper)),
            };
            let points = m.points as i32;
            if points > 0 {
                (points + lower, points + upper)
            } else {
                (-upper, -lower)
            }
        })
        .collect();
    let root = bounds
        .iter()
        .copied()
        .reduce(|(l, h), (lo, hi)| (l.max(lo), h.max(hi)));
    SearchStatus {
        nodes,
        table_fill: table.fill_sample(),
        moves_proved: moves.iter().filter(|m| m.value.is_some()).count(),
        moves: moves.len(),
        moves_at_most_lower: root.map_or(0, |(lower, _)| {
            bounds.iter().filter(|&&(_, hi)| hi <= lower).count()
        }),
        root,
        proved,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::scored::bounds::Bounds;
    use crate::engine::util::halt::NEVER;
    use crate::engine::util::memory::MemoryBudget;

    #[test]
    fn the_clock_makes_a_status_due_once_each_interval() {
        let clock = StatusClock::default();
        // The first call starts it.
        assert!(!clock.due());
        std::thread::sleep(STATUS_EVERY + Duration::from_millis(50));
        let due = std::thread::scope(|s| {
            let asked: Vec<_> = (0..4).map(|_| s.spawn(|| clock.due())).collect();
            asked
                .into_iter()
                .map(|h| h.join().unwrap())
                .collect::<Vec<_>>()
        });
        // One of four threads asking at once is told a status is due (unless the asking took an
        // interval: then at most one more).
        let told = due.iter().filter(|&&d| d).count();
        assert!((1..=2).contains(&told), "{due:?}");
    }

    fn root_move(element: u32, points: u32, key: u64, cells: i32) -> RootMove {
        RootMove {
            element,
            points,
            key,
            cells,
            value: None,
        }
    }

    #[test]
    fn root_bounds_and_moves_at_most_the_lower_bound() {
        let table = BoundsTable::new(1 << 10, MemoryBudget::new(1 << 20)).unwrap();
        let bounds = |lower, upper| Bounds {
            lower,
            upper,
            best: None,
        };
        // Move 0 hands over a child worth 1..3 to the opponent: -3..-1 for the mover.
        table.store(10, bounds(1, 3), 5, &NEVER);
        // Move 1 scores a cell and plays again in a child worth -2..0: -1..+1.
        table.store(11, bounds(-2, 0), 5, &NEVER);
        // Move 2 hands over a child proved worth -1: +1 for the mover.
        let mut moves = vec![
            root_move(0, 0, 10, 4),
            root_move(1, 1, 11, 4),
            root_move(2, 0, 12, 4),
        ];
        moves[2].value = Some(-1);
        let status = status_of(&moves, 7, &table, Vec::new());
        assert_eq!(status.root, Some((1, 1)));
        assert_eq!((status.moves_proved, status.moves), (1, 3));
        assert_eq!(status.moves_at_most_lower, 3);
        // Unknown to the table, move 3 may be worth anything in -4..+4: the upper bound stays open.
        moves.push(root_move(3, 0, 13, 4));
        let status = status_of(&moves, 8, &table, Vec::new());
        assert_eq!(status.root, Some((1, 4)));
        assert_eq!(status.moves_at_most_lower, 3);
        assert_eq!(status.nodes, 8);
    }
}
