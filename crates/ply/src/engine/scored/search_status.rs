//! What a long search tells its front end as it goes: nodes, how full its table is, and — while it
//! values every move of a position — the bounds of that position's value and each move's value as it
//! is proved. The library never prints; a front end turns these into progress lines.

use super::bounds::BoundsTable;
use super::move_value;
use std::sync::Mutex;

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
    /// What is known of the position's value so far: `lower <= value <= upper`, from the moves
    /// proved and the table's bounds on the others (`None` when the search values a single state).
    pub root: Option<(i32, i32)>,
    /// When this report is for a move just proved: its element and its value for the mover.
    pub proved: Option<(u32, i32)>,
}

/// Told a [`SearchStatus`] every [`crate::engine::util::progress::PROGRESS_EVERY`] nodes and whenever a
/// move of the position is proved.
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
        let mut proved = None;
        for m in tracked.moves.iter_mut().filter(|m| m.key == key) {
            m.value = Some(value);
            proved.get_or_insert((m.element, move_value(m.points as i32, value)));
        }
        proved.map(|p| status_of(&tracked.moves, nodes, table, Some(p)))
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

    /// The status after `nodes` nodes, reading the table for the bounds of unproved moves.
    pub(super) fn status(&self, nodes: u64, table: &BoundsTable) -> SearchStatus {
        status_of(&self.lock().moves, nodes, table, None)
    }
}

/// The status of a search at `moves` after `nodes` nodes.
fn status_of(
    moves: &[RootMove],
    nodes: u64,
    table: &BoundsTable,
    proved: Option<(u32, i32)>,
) -> SearchStatus {
    let mut root: Option<(i32, i32)> = None;
    for m in moves.iter() {
        let (lower, upper) = match m.value {
            Some(v) => (v, v),
            None => table
                .probe(m.key)
                .map_or((-m.cells, m.cells), |b| (b.lower, b.upper)),
        };
        let points = m.points as i32;
        let (lo, hi) = if points > 0 {
            (points + lower, points + upper)
        } else {
            (-upper, -lower)
        };
        root = Some(root.map_or((lo, hi), |(l, h)| (l.max(lo), h.max(hi))));
    }
    SearchStatus {
        nodes,
        table_fill: table.fill_sample(),
        moves_proved: moves.iter().filter(|m| m.value.is_some()).count(),
        moves: moves.len(),
        root,
        proved,
    }
}
