//! A fixed-size table of value bounds, shared by the threads of a search without locks.
//!
//! Each entry is two 64-bit words: the data (lower and upper bound of the value, the free elements
//! of the state — how much work it stood for — and the best move found) and the key XOR the data.
//! A reader accepts an entry only when the XOR of the two words gives its key back, so an entry torn by
//! two threads writing at once reads as absent (the lockless scheme of Hyatt and Mann): no locks, and
//! an answer is never taken from another state.
//!
//! Entries live in buckets of two: the first keeps the state that stood for the most work, the second
//! takes whatever the first refuses.

use crate::engine::util::memory::{zeroed_atomics, MemoryBudget, MemoryError};
use std::sync::atomic::{AtomicU64, Ordering};

/// Bytes of one entry.
pub const ENTRY_BYTES: u64 = 16;

/// What the table knows about one state: `lower <= value <= upper`, and a good first move to try.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bounds {
    /// A lower bound of the value.
    pub lower: i32,
    /// An upper bound of the value.
    pub upper: i32,
    /// The element of the best move found (in the key's frame), if any.
    pub best: Option<u32>,
}

/// The table: `2^k` entries of [`ENTRY_BYTES`] each.
pub struct BoundsTable {
    words: Vec<AtomicU64>,
    /// Buckets - 1 (a power of two less one).
    bucket_mask: u64,
}

const VALID: u64 = 1 << 40;
const NO_MOVE: u64 = 0xFF;

fn pack(bounds: Bounds, work: u32) -> u64 {
    (bounds.lower as i8 as u8 as u64)
        | (bounds.upper as i8 as u8 as u64) << 8
        | (work.min(255) as u64) << 16
        | bounds.best.map_or(NO_MOVE, |b| b as u64) << 24
        | VALID
}

fn unpack(data: u64) -> (Bounds, u32) {
    let best = (data >> 24) & 0xFF;
    (
        Bounds {
            lower: data as u8 as i8 as i32,
            upper: (data >> 8) as u8 as i8 as i32,
            best: (best != NO_MOVE).then_some(best as u32),
        },
        (data >> 16 & 0xFF) as u32,
    )
}

/// Asks the system to back the (not yet touched) room of `words` with huge pages: every probe of a
/// large table lands on a random page, and with 4 KiB pages most of a search's time went to
/// translating addresses (two thirds of it in the probe, by perf, on a 1 GiB table). Only a request:
/// where the system declines, the table works the same.
#[allow(unsafe_code)]
fn advise_huge_pages(words: &Vec<AtomicU64>) {
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let start = words.as_ptr() as usize;
        let end = start + words.capacity() * std::mem::size_of::<AtomicU64>();
        let aligned = start.next_multiple_of(HUGE);
        if end >= aligned + HUGE {
            let len = (end - aligned) / HUGE * HUGE;
            // SAFETY: the range lies inside the vector's own allocation, and MADV_HUGEPAGE changes
            // only how the kernel backs it, never what it holds.
            unsafe {
                libc::madvise(aligned as *mut libc::c_void, len, libc::MADV_HUGEPAGE);
            }
        }
    }
}

impl BoundsTable {
    /// The largest table of at most `bytes` (at least one bucket), refused before allocating if over
    /// `budget`.
    pub fn new(bytes: u64, budget: MemoryBudget) -> Result<Self, MemoryError> {
        let entries = (bytes / ENTRY_BYTES).max(2);
        let entries = 1u64 << (63 - entries.leading_zeros());
        let needed = entries * ENTRY_BYTES;
        let what = || format!("a search table of {entries} entries");
        budget.check(needed as u128, what)?;
        let len = (entries * 2) as usize;
        let words = zeroed_atomics(len, needed as u128, what)?;
        advise_huge_pages(&words);
        Ok(BoundsTable {
            words,
            bucket_mask: entries / 2 - 1,
        })
    }

    /// Bytes the table holds.
    pub fn bytes(&self) -> u64 {
        self.words.len() as u64 * 8
    }

    /// The first word of the bucket of `key`.
    fn bucket(&self, key: u64) -> usize {
        let hash = key.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        ((hash >> 20 & self.bucket_mask) * 4) as usize
    }

    fn read(&self, slot: usize) -> (u64, u64) {
        let check = self.words[slot].load(Ordering::Relaxed);
        let data = self.words[slot + 1].load(Ordering::Relaxed);
        (check ^ data, data)
    }

    fn write(&self, slot: usize, key: u64, data: u64) {
        self.words[slot].store(key ^ data, Ordering::Relaxed);
        self.words[slot + 1].store(data, Ordering::Relaxed);
    }

    /// Asks the processor to start loading the bucket of `key` (a probe of a large table waits on
    /// memory; several loads started together wait once). Only a hint: nothing changes.
    #[inline]
    #[allow(unsafe_code)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let slot = &self.words[self.bucket(key)];
            // SAFETY: a prefetch never faults and reads nothing into the program; the address is
            // that of a live element of the table.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(slot as *const AtomicU64 as *const i8) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// What the table knows about `key`, if anything.
    pub fn probe(&self, key: u64) -> Option<Bounds> {
        let bucket = self.bucket(key);
        [bucket, bucket + 2].into_iter().find_map(|slot| {
            let (stored, data) = self.read(slot);
            (stored == key && data & VALID != 0).then(|| unpack(data).0)
        })
    }

    /// Records `bounds` for `key`, a state with `work` free elements, tightening what is known.
    pub fn store(&self, key: u64, bounds: Bounds, work: u32) {
        let bucket = self.bucket(key);
        let (first, second) = (bucket, bucket + 2);
        for slot in [first, second] {
            let (stored, data) = self.read(slot);
            if stored == key && data & VALID != 0 {
                let (old, _) = unpack(data);
                let merged = Bounds {
                    lower: bounds.lower.max(old.lower),
                    upper: bounds.upper.min(old.upper),
                    best: bounds.best.or(old.best),
                };
                self.write(slot, key, pack(merged, work));
                return;
            }
        }
        let (_, first_data) = self.read(first);
        let first_work = if first_data & VALID != 0 {
            unpack(first_data).1
        } else {
            0
        };
        let slot = if work >= first_work { first } else { second };
        self.write(slot, key, pack(bounds, work));
    }

    /// Share of the entries in use, from the first 2^16 of them (cheap enough for progress reports;
    /// the hash spreads states evenly over the table).
    pub fn fill_sample(&self) -> f64 {
        let sample = (self.words.len() / 2).min(1 << 16);
        let used = (0..sample)
            .filter(|&i| self.words[2 * i + 1].load(Ordering::Relaxed) & VALID != 0)
            .count();
        used as f64 / sample as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_merges_and_replaces() {
        let table = BoundsTable::new(64, MemoryBudget::new(1 << 20)).unwrap();
        assert_eq!(table.bytes(), 64);
        let key = 0b1011;
        assert_eq!(table.probe(key), None);
        let wide = Bounds {
            lower: -3,
            upper: 5,
            best: None,
        };
        table.store(key, wide, 10);
        assert_eq!(table.probe(key), Some(wide));
        table.store(
            key,
            Bounds {
                lower: -7,
                upper: 2,
                best: Some(4),
            },
            10,
        );
        assert_eq!(
            table.probe(key),
            Some(Bounds {
                lower: -3,
                upper: 2,
                best: Some(4)
            })
        );
        assert_eq!(table.fill_sample(), 0.25);
    }

    #[test]
    fn refuses_over_budget() {
        let err = BoundsTable::new(1 << 30, MemoryBudget::new(1 << 20))
            .err()
            .unwrap();
        assert!(err
            .to_string()
            .starts_with("a search table of 67108864 entries needs 1.0 GiB"));
    }
}
