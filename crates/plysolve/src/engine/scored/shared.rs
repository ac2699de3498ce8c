//! Bounds shared by searches in many processes: a store of what the searches proved of states with
//! many free elements (the top of their trees, where their work overlaps), that each search reads
//! as it reads a book and writes as it writes its own table, exchanged between the processes by a
//! front end (`plysolve.distributed` on Ray) at its own pace.
//!
//! The exchange may be late and lossy: an entry is a proved bound, so one that arrives late or
//! never only costs the search that lacks it time, never a wrong value. Entries are met
//! ([`ValueRange::meet`]): a store only ever narrows what it holds. Two proved bounds of one state
//! cannot be disjoint; if they ever are, something upstream is wrong: the store counts it
//! ([`SharedCounts::contradictions`]) and keeps the newer, never panics.
//!
//! An entry also keeps the best move found (in the key's frame), which a search that must still
//! search the state tries first, as it tries its own table's.
//!
//! The store is a fixed-size table (its memory is known up front) of two 64-bit words an entry —
//! the key XOR the data, and the data — read and written without locks as the search's own
//! [`BoundsTable`](super::bounds::BoundsTable) is: an entry torn by two writers reads as absent,
//! a merge lost to a race is a lost entry. Buckets hold two entries: the first keeps the state
//! with the fewest drawn elements (the most work below it), the second takes the rest. Keys are
//! the search's table keys (its states' normal forms under twins and symmetries), which are
//! themselves states of the game with the same value: a store serves the searches of one game
//! keyed one way ([`SharedBounds::claim`]).
//!
//! Beside the table, an *outbox*: each bound a search offers ([`SharedBounds::offer`]) that
//! narrows what the store held is also queued to be sent elsewhere ([`SharedBounds::drain`]);
//! bounds received from elsewhere ([`SharedBounds::absorb`]) are met into the table and not sent
//! on. The outbox holds at most [`OUTBOX_ENTRIES`]: past them, offers are dropped (counted).

use super::bounds::{mix, read_slot, write_slot};
use super::known::KnownValues;
use super::ValueRange;
use crate::engine::util::memory::{zeroed_atomics, MemoryBudget, MemoryError};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};

/// Bytes of one entry.
pub const SHARED_ENTRY_BYTES: u64 = 16;

/// Entries the outbox holds at most between two drains (1 MiB): a front end drains it every
/// fraction of a second, far more often than a search fills it.
pub const OUTBOX_ENTRIES: usize = 1 << 16;

const VALID: u64 = 1 << 40;
const NO_MOVE: u64 = 0xFF;

/// One bound proved of one state: the state's key (the search's table key), its range, and the
/// best move found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SharedEntry {
    /// The state's key in the search's table.
    pub key: u64,
    /// What is proved of its value.
    pub range: ValueRange,
    /// The element of the best move found, in the key's frame (a hint: the search checks it is a
    /// move before it tries it first).
    pub best: Option<u32>,
}

/// What a store has counted since it was made.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SharedCounts {
    /// Bounds offered by searches that narrowed the store (and so went to the outbox).
    pub offered: u64,
    /// Entries drained from the outbox.
    pub drained: u64,
    /// Entries absorbed from elsewhere.
    pub absorbed: u64,
    /// Offers the full outbox dropped.
    pub dropped: u64,
    /// Bounds disjoint from what the store held (a bug upstream: the newer was kept).
    pub contradictions: u64,
}

/// The shared store of bounds of states with at least [`SharedBounds::from_free`] free elements
/// (see the module's docs).
pub struct SharedBounds {
    words: Vec<AtomicU64>,
    /// Buckets - 1 (a power of two less one).
    bucket_mask: u64,
    from_free: u32,
    outbox: Mutex<Vec<SharedEntry>>,
    offered: AtomicU64,
    drained: AtomicU64,
    absorbed: AtomicU64,
    dropped: AtomicU64,
    contradictions: AtomicU64,
    /// The key scheme of the first search that used it.
    scheme: OnceLock<u64>,
}

fn pack(range: ValueRange, best: Option<u32>, drawn: u32) -> u64 {
    (range.lower as i8 as u8 as u64)
        | (range.upper as i8 as u8 as u64) << 8
        | (drawn.min(255) as u64) << 16
        | best
            .filter(|&b| (b as u64) < NO_MOVE)
            .map_or(NO_MOVE, |b| b as u64)
            << 24
        | VALID
}

fn unpack(data: u64) -> (ValueRange, Option<u32>) {
    let best = (data >> 24) & 0xFF;
    (
        ValueRange {
            lower: data as u8 as i8 as i32,
            upper: (data >> 8) as u8 as i8 as i32,
        },
        (best != NO_MOVE).then_some(best as u32),
    )
}

/// Drawn elements an entry's data stands for (fewer: more work below it).
fn drawn_of(data: u64) -> u32 {
    (data >> 16 & 0xFF) as u32
}

impl SharedBounds {
    /// A store of at most `bytes` (the largest power of two entries within, at least one bucket)
    /// for states with at least `from_free` free elements, refused before allocating if over
    /// `budget`.
    pub fn new(bytes: u64, from_free: u32, budget: MemoryBudget) -> Result<Self, MemoryError> {
        let entries = (bytes / SHARED_ENTRY_BYTES).max(2);
        let entries = 1u64 << (63 - entries.leading_zeros());
        let needed = entries * SHARED_ENTRY_BYTES;
        let what = || format!("a shared table of {entries} entries");
        budget.check(needed as u128, what)?;
        let words = zeroed_atomics((entries * 2) as usize, needed as u128, what)?;
        Ok(SharedBounds {
            words,
            bucket_mask: entries / 2 - 1,
            from_free,
            outbox: Mutex::new(Vec::new()),
            offered: AtomicU64::new(0),
            drained: AtomicU64::new(0),
            absorbed: AtomicU64::new(0),
            dropped: AtomicU64::new(0),
            contradictions: AtomicU64::new(0),
            scheme: OnceLock::new(),
        })
    }

    /// Bytes the store holds.
    pub fn bytes(&self) -> u64 {
        self.words.len() as u64 * 8
    }

    /// The fewest free elements of a state the store keeps.
    pub fn from_free(&self) -> u32 {
        self.from_free
    }

    /// Whether a search with key scheme `scheme` may use this store: the first caller sets it,
    /// every later one must match (keys of another game or key scheme would name other states).
    pub fn claim(&self, scheme: u64) -> bool {
        *self.scheme.get_or_init(|| scheme) == scheme
    }

    /// The first word of the bucket of `key`.
    fn bucket(&self, key: u64) -> usize {
        ((mix(key) & self.bucket_mask) * 4) as usize
    }

    fn read(&self, slot: usize) -> (u64, u64) {
        read_slot(&self.words, slot)
    }

    fn write(&self, slot: usize, key: u64, data: u64) {
        write_slot(&self.words, slot, key, data);
    }

    /// What the store holds of `key`, if anything.
    pub fn get(&self, key: u64) -> Option<SharedEntry> {
        let bucket = self.bucket(key);
        [bucket, bucket + 2].into_iter().find_map(|slot| {
            let (stored, data) = self.read(slot);
            (stored == key && data & VALID != 0).then(|| {
                let (range, best) = unpack(data);
                SharedEntry { key, range, best }
            })
        })
    }

    /// Meets `entry` into the store (its best move kept unless it has none): the entry the store
    /// now holds when that told it more (or made it), `None` when it held as much already.
    fn merge(&self, entry: SharedEntry) -> Option<SharedEntry> {
        let SharedEntry { key, range, best } = entry;
        let bucket = self.bucket(key);
        let drawn = key.count_ones();
        for slot in [bucket, bucket + 2] {
            let (stored, data) = self.read(slot);
            if stored == key && data & VALID != 0 {
                let (old, old_best) = unpack(data);
                let mut met = old.meet(range);
                if met.lower > met.upper {
                    self.contradictions.fetch_add(1, Ordering::Relaxed);
                    met = range;
                }
                let best = best.or(old_best);
                if met == old && best == old_best {
                    return None;
                }
                self.write(slot, key, pack(met, best, drawn));
                return Some(SharedEntry {
                    key,
                    range: met,
                    best,
                });
            }
        }
        let (_, first) = self.read(bucket);
        let keeps_first = first & VALID != 0 && drawn_of(first) < drawn;
        let slot = if keeps_first { bucket + 2 } else { bucket };
        self.write(slot, key, pack(range, best, drawn));
        Some(entry)
    }

    /// A bound a search proved of the state `key` (of at least [`Self::from_free`] free elements),
    /// with the best move it found: kept, and queued in the outbox when it tells the store more.
    pub fn offer(&self, entry: SharedEntry) {
        let Some(met) = self.merge(entry) else {
            return;
        };
        self.offered.fetch_add(1, Ordering::Relaxed);
        let mut outbox = self.outbox.lock().unwrap_or_else(|e| e.into_inner());
        if outbox.len() < OUTBOX_ENTRIES {
            outbox.push(met);
        } else {
            self.dropped.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// The entries queued since the last drain, taken out of the outbox.
    pub fn drain(&self) -> Vec<SharedEntry> {
        let taken = std::mem::take(&mut *self.outbox.lock().unwrap_or_else(|e| e.into_inner()));
        self.drained
            .fetch_add(taken.len() as u64, Ordering::Relaxed);
        taken
    }

    /// Bounds proved elsewhere (drained from other stores), met into the table; not queued.
    pub fn absorb(&self, entries: &[SharedEntry]) {
        for &e in entries {
            self.merge(e);
        }
        self.absorbed
            .fetch_add(entries.len() as u64, Ordering::Relaxed);
    }

    /// What the store has counted since it was made.
    pub fn counts(&self) -> SharedCounts {
        let get = |c: &AtomicU64| c.load(Ordering::Relaxed);
        SharedCounts {
            offered: get(&self.offered),
            drained: get(&self.drained),
            absorbed: get(&self.absorbed),
            dropped: get(&self.dropped),
            contradictions: get(&self.contradictions),
        }
    }
}

/// Looked up by the search with its table key (a state with the same value as the one reached,
/// [`super::search::SearchOptions::shared`]); any other caller finds the states stored in their
/// normal form, never a wrong one.
impl KnownValues for SharedBounds {
    fn range(&self, mask: u64) -> Option<ValueRange> {
        self.get(mask).map(|e| e.range)
    }

    fn fewest_free(&self) -> u32 {
        self.from_free
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn range(lower: i32, upper: i32) -> ValueRange {
        ValueRange { lower, upper }
    }

    /// An entry of `key` with bounds `lower..=upper` and no best move.
    fn entry(key: u64, lower: i32, upper: i32) -> SharedEntry {
        SharedEntry {
            key,
            range: range(lower, upper),
            best: None,
        }
    }

    /// The bounds the store holds of `key`.
    fn bounds(shared: &SharedBounds, key: u64) -> Option<ValueRange> {
        shared.get(key).map(|e| e.range)
    }

    fn store() -> SharedBounds {
        SharedBounds::new(1 << 12, 20, MemoryBudget::new(1 << 20)).unwrap()
    }

    #[test]
    fn offers_meet_and_only_narrowing_ones_are_sent() {
        let shared = store();
        assert_eq!(shared.bytes(), 1 << 12);
        assert_eq!(bounds(&shared, 0b1011), None);
        shared.offer(entry(0b1011, -3, 5));
        shared.offer(entry(0b1011, -7, 3));
        shared.offer(entry(0b1011, -9, 9));
        assert_eq!(bounds(&shared, 0b1011), Some(range(-3, 3)));
        let sent = shared.drain();
        assert_eq!(sent, vec![entry(0b1011, -3, 5), entry(0b1011, -3, 3)]);
        // A best move where there was none is news; the one kept is then the newest.
        shared.offer(SharedEntry {
            best: Some(4),
            ..entry(0b1011, -3, 3)
        });
        shared.offer(entry(0b1011, -3, 3));
        assert_eq!(shared.get(0b1011).unwrap().best, Some(4));
        assert_eq!(shared.drain().len(), 1);
        assert_eq!(shared.drain(), vec![]);
        let counts = shared.counts();
        assert_eq!((counts.offered, counts.drained), (3, 3));
    }

    #[test]
    fn absorbed_entries_are_kept_not_sent_and_contradictions_counted() {
        let shared = store();
        shared.absorb(&[entry(6, 1, 5)]);
        assert_eq!(bounds(&shared, 6), Some(range(1, 5)));
        assert_eq!(shared.drain(), vec![]);
        // Disjoint: counted, the newer kept.
        shared.offer(entry(6, -4, -2));
        assert_eq!(bounds(&shared, 6), Some(range(-4, -2)));
        let counts = shared.counts();
        assert_eq!((counts.absorbed, counts.contradictions), (1, 1));
    }

    #[test]
    fn a_full_outbox_drops_and_counts() {
        let shared = SharedBounds::new(1 << 22, 20, MemoryBudget::new(1 << 30)).unwrap();
        for key in 0..OUTBOX_ENTRIES as u64 + 10 {
            shared.offer(entry(key, 0, 2));
        }
        assert_eq!(shared.drain().len(), OUTBOX_ENTRIES);
        assert_eq!(shared.counts().dropped, 10);
    }

    #[test]
    fn the_state_with_more_work_keeps_its_slot() {
        // One bucket: every key lands in it.
        let shared = SharedBounds::new(32, 20, MemoryBudget::new(1 << 20)).unwrap();
        shared.offer(entry(0b1, 0, 2));
        shared.offer(entry(0b111, 1, 3));
        shared.offer(entry(0b11, -2, 0));
        // The fewest drawn elements stays; the second slot takes the last.
        assert_eq!(bounds(&shared, 0b1), Some(range(0, 2)));
        assert_eq!(bounds(&shared, 0b111), None);
        assert_eq!(bounds(&shared, 0b11), Some(range(-2, 0)));
        assert_eq!(shared.fewest_free(), 20);
    }

    #[test]
    fn refuses_over_budget() {
        assert!(SharedBounds::new(1 << 30, 20, MemoryBudget::new(1 << 20)).is_err());
    }
}
