//! What searches of one game learn and keep: the table of bounds and the exact values given. It
//! outlives a solver, so that a server answering many positions of one board, or a player thinking
//! move after move, never proves the same state twice.

use crate::engine::scored::bounds::BoundsTable;
use crate::engine::scored::ValueRange;
use crate::engine::util::memory::{MemoryBudget, MemoryError};
use rustc_hash::FxHashMap;
use std::sync::{Mutex, OnceLock};

/// Exact values kept at most; past it the map starts again (the table still holds the bounds).
const MAX_EXACT: usize = 1 << 20;

/// A state whose bounds a search proved ([`SearchMemory::proved`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProvedState {
    /// The state's drawn elements.
    pub state: u64,
    /// Its value lies within this range.
    pub range: ValueRange,
    /// The best move found (a free element of `state`), if any.
    pub best: Option<u32>,
    /// Its free elements, as the table recorded them.
    pub free: u32,
}

/// The table of bounds and the exact values of one game's searches, shared by every search that
/// uses it (from any thread). Keys are the game's states in the search's key frame, so one memory
/// serves one game with one key scheme: a search keyed otherwise is refused it.
pub struct SearchMemory {
    table: BoundsTable,
    exact: Mutex<FxHashMap<u64, i8>>,
    /// The key scheme of the first search that used it.
    scheme: OnceLock<u64>,
}

impl SearchMemory {
    /// A memory with a table of at most `table_bytes`, refused before allocating if over `budget`.
    pub fn new(table_bytes: u64, budget: MemoryBudget) -> Result<Self, MemoryError> {
        Ok(Self::of(BoundsTable::new(table_bytes, budget)?))
    }

    /// A memory whose table of bounds, of at most `table_bytes`, is the one named `name` in the
    /// host's shared memory ([`BoundsTable::on_host`]): the searches of every process of this
    /// machine that names it share what they prove, as the threads of one process do. Refused
    /// before anything is mapped over `budget`, and when the name is not a plain name or names a
    /// table of another size or layout.
    pub fn on_host(
        name: &str,
        table_bytes: u64,
        budget: MemoryBudget,
    ) -> Result<Self, MemoryError> {
        Ok(Self::of(BoundsTable::on_host(name, table_bytes, budget)?))
    }

    /// A memory of `table`, no exact value kept yet, no search's key scheme claimed.
    fn of(table: BoundsTable) -> Self {
        SearchMemory {
            table,
            exact: Mutex::new(FxHashMap::default()),
            scheme: OnceLock::new(),
        }
    }

    /// Bytes of the table of bounds.
    pub fn table_bytes(&self) -> u64 {
        self.table.bytes()
    }

    /// The table of bounds.
    pub(crate) fn table(&self) -> &BoundsTable {
        &self.table
    }

    /// The states of a game of `elements` elements with at least `free` free elements whose
    /// bounds the table holds, most free first, at most `most` of them: what the searches in this
    /// memory proved, kept when a long proof stops part way (a book build's, say) so that the next
    /// one starts from it. The table is counted first and read only as deep as `most` states reach
    /// whole (the states of the deepest number of free elements that fits, and every shallower
    /// one), so a table of billions of entries is never copied out whole. Each state is a table
    /// key — a state of the game with the value of those it stands for — and its bounds are
    /// proved, never a guess (a search stores a state's bounds only once its subtree is searched;
    /// a search halted stores nothing more): read while searches run, it gives what they have
    /// proved so far. A key that is not a state with its entry's free elements (a torn entry's
    /// garbage) is left out.
    pub fn proved(&self, elements: u32, free: u32, most: usize) -> Vec<ProvedState> {
        let counts = self.table.proved_counts();
        let mut from = free as usize;
        while from < counts.len() && counts[from..].iter().sum::<u64>() > most as u64 {
            from += 1;
        }
        let mut found: Vec<ProvedState> = self
            .table
            .proved(from as u32)
            .into_iter()
            .filter(|&(key, _, work)| {
                let drawn = key.count_ones();
                (elements >= 64 || key >> elements == 0)
                    && drawn <= elements
                    && work == elements - drawn
            })
            .map(|(key, bounds, work)| ProvedState {
                state: key,
                range: ValueRange {
                    lower: bounds.lower,
                    upper: bounds.upper,
                },
                best: bounds.best.filter(|&b| b < elements && key >> b & 1 == 0),
                free: work,
            })
            .filter(|p| p.range.lower <= p.range.upper)
            .collect();
        found.sort_unstable_by_key(|p| (std::cmp::Reverse(p.free), p.state));
        // A state held twice (in both slots of its bucket, each written by a thread that did not
        // see the other's) is one state, its bounds both entries' proved ones at once.
        found.dedup_by(|later, kept| {
            let same = later.state == kept.state;
            if same {
                kept.range.lower = kept.range.lower.max(later.range.lower);
                kept.range.upper = kept.range.upper.min(later.range.upper);
                kept.best = kept.best.or(later.best);
            }
            same
        });
        found.retain(|p| p.range.lower <= p.range.upper);
        // Entries stored while the table was counted.
        found.truncate(most);
        found
    }

    /// Whether a search with key scheme `scheme` (a fingerprint of the rules and of how states are
    /// keyed) may use this memory: the first caller sets it, every later one must match — on the
    /// whole host, for a table shared there.
    pub(crate) fn claim(&self, scheme: u64) -> bool {
        self.table.claim(scheme) && *self.scheme.get_or_init(|| scheme) == scheme
    }

    /// The exact value kept for `key`, if it was given before.
    pub(crate) fn known(&self, key: u64) -> Option<i32> {
        let exact = self.exact.lock().unwrap_or_else(|e| e.into_inner());
        exact.get(&key).map(|&v| v as i32)
    }

    /// Keeps the exact value of `key`.
    pub(crate) fn keep(&self, key: u64, value: i32) {
        let mut exact = self.exact.lock().unwrap_or_else(|e| e.into_inner());
        if exact.len() >= MAX_EXACT {
            exact.clear();
        }
        exact.insert(key, value as i8);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::scored::bounds::Bounds;

    #[test]
    fn one_scheme_per_memory_and_exact_values_kept() {
        let memory = SearchMemory::new(1 << 12, MemoryBudget::new(1 << 20)).unwrap();
        assert!(memory.claim(7));
        assert!(memory.claim(7));
        assert!(!memory.claim(8));
        assert_eq!(memory.known(5), None);
        memory.keep(5, -3);
        assert_eq!(memory.known(5), Some(-3));
        assert_eq!(memory.table_bytes(), 1 << 12);
    }

    /// A state held in both slots of its bucket is read once, with both entries' bounds.
    #[test]
    fn a_state_held_twice_is_proved_once() {
        let memory = SearchMemory::new(1 << 12, MemoryBudget::new(1 << 20)).unwrap();
        let bounds = |lower, upper, best| Bounds { lower, upper, best };
        let state = 0b1011;
        memory
            .table
            .hold_twice(state, bounds(-2, 4, None), bounds(-4, 1, Some(2)), 5);
        memory
            .table
            .hold_twice(0b11, bounds(0, 0, None), bounds(0, 0, None), 6);
        let proved = memory.proved(8, 0, 10);
        assert_eq!(proved.len(), 2, "{proved:?}");
        assert_eq!((proved[0].state, proved[0].free), (0b11, 6));
        assert_eq!(
            (
                proved[1].state,
                proved[1].range,
                proved[1].best,
                proved[1].free
            ),
            (
                state,
                ValueRange {
                    lower: -2,
                    upper: 1
                },
                Some(2),
                5
            )
        );
    }
}
