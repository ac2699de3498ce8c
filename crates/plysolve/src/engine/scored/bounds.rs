//! A fixed-size table of value bounds, shared by the threads of a search without locks.
//!
//! Each entry is two 64-bit words: the data (lower and upper bound of the value, the free elements
//! of the state — how much work it stood for — the best move found, and a tag: the top bits of the
//! key's hash) and the key XOR the data. A reader accepts an entry only when the XOR of the two
//! words gives its key back and the tag is that key's (the lockless scheme of Hyatt and Mann, with
//! a check of its own): an entry torn by two threads writing at once — whose XOR gives a key
//! neither wrote, perhaps another state's — reads as absent but for one chance in 2^23. No locks,
//! and an answer is not taken from another state.
//!
//! Entries live in buckets of two: the first keeps the state that stood for the most work, the second
//! takes whatever the first refuses.
//!
//! The table grows as it fills: the whole room is allocated (zeroed, so untouched pages cost
//! nothing) but states hash into a prefix of it, [`INITIAL_BYTES`] at first, doubled each time as
//! many new states have been stored as half the prefix holds. A search that visits
//! few states so touches few pages — a gigabyte faulted in costs about a second of a core, more than
//! the whole search of many positions — and one that visits many soon has the whole table. Growing
//! moves the entries whose bucket changes with the wider hash into the new half (the thread that
//! doubled it does, while the others search on, checking its search's halt as it goes: moving half
//! of a large table takes a tenth of a second and more); one not moved yet, or overwritten by a
//! race, is only missed — its key does not match where it is looked for — and no answer is ever
//! taken from another state.
//!
//! A table may also live in the host's shared memory ([`BoundsTable::on_host`]): the processes of
//! one machine that name it search one table as the threads of one process do. Such a table is
//! whole from the start (its prefix is all of it: the processes share no count to grow it by), and
//! it serves the searches of one game keyed one way, on the whole host ([`BoundsTable::claim`]).

use crate::engine::util::fingerprint::fnv1a;
use crate::engine::util::halt::Halt;
use crate::engine::util::memory::{zeroed_atomics, HostWords, MemoryBudget, MemoryError};
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

/// The prefix of the table states hash into at first (see the module's docs).
pub const INITIAL_BYTES: u64 = 4 << 20;

/// Buckets moved between two checks of the halt while the prefix grows (64 KiB of table: under a
/// millisecond, even when the new half's pages are faulted in as huge pages).
const MOVED_BETWEEN_CHECKS: usize = 1 << 11;

/// Where a table's words live.
enum Words {
    /// In this process's memory.
    Own(Vec<AtomicU64>),
    /// In the host's shared memory, shared with the other processes that name it.
    Host(HostWords),
}

impl std::ops::Deref for Words {
    type Target = [AtomicU64];

    fn deref(&self) -> &[AtomicU64] {
        match self {
            Words::Own(words) => words,
            Words::Host(host) => host.words(),
        }
    }
}

/// The table: `2^k` entries of [`ENTRY_BYTES`] each, a prefix of them in use.
pub struct BoundsTable {
    words: Words,
    /// Buckets in use - 1 (a power of two less one): the prefix states hash into.
    bucket_mask: AtomicU64,
    /// Buckets of the whole table - 1: the most the prefix grows to.
    full_mask: u64,
    /// States stored new since the prefix last grew.
    filled: AtomicU64,
}

const VALID: u64 = 1 << 40;
const NO_MOVE: u64 = 0xFF;
/// The data word's bits from here up hold the same bits of the key's hash (its tag).
const TAG_SHIFT: u32 = 41;

/// Mixed into a host table's claim: the layout of its entries (bump it when `pack` changes) and
/// the version of ply, so that a table written by a process keying or packing states otherwise is
/// never read as this one's. (Host tables are named by the run that makes them, so processes of
/// two versions meet on one only when a caller names it for both.)
const HOST_SCHEME: u64 = 0x504c_5942_4f55_4e44 ^ 1 ^ fnv1a(env!("CARGO_PKG_VERSION").as_bytes());

/// Whether `data` is an entry written for the key whose hash is `hash`: valid, and tagged with
/// its hash's top bits (a pair torn by two writers carries another key's tag).
fn tagged(data: u64, hash: u64) -> bool {
    data & VALID != 0 && data >> TAG_SHIFT == hash >> TAG_SHIFT
}

/// The key and data of the entry at `slot` of a lockless table of word pairs: the first word holds
/// the key XOR the data, so a pair torn by two writers at once reads as another key and is never
/// believed (the scheme of chess engines' shared tables). Shared by this table and
/// [`SharedBounds`](super::shared::SharedBounds).
#[inline]
pub(super) fn read_slot(words: &[AtomicU64], slot: usize) -> (u64, u64) {
    let check = words[slot].load(Ordering::Relaxed);
    let data = words[slot + 1].load(Ordering::Relaxed);
    (check ^ data, data)
}

/// Writes `key` and `data` to the entry at `slot` of a lockless table of word pairs (see
/// [`read_slot`]).
#[inline]
pub(super) fn write_slot(words: &[AtomicU64], slot: usize, key: u64, data: u64) {
    words[slot].store(key ^ data, Ordering::Relaxed);
    words[slot + 1].store(data, Ordering::Relaxed);
}

/// MurmurHash3's 64-bit finaliser: every input bit moves every output bit (the tables' hash).
pub(super) fn mix(key: u64) -> u64 {
    let mut h = key ^ (key >> 33);
    h = h.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
    h ^= h >> 33;
    h = h.wrapping_mul(0xC4CE_B9FE_1A85_EC53);
    h ^ (h >> 33)
}

/// The data word of `bounds` for a state of `work` free elements whose key's hash is `hash`.
fn pack(hash: u64, bounds: Bounds, work: u32) -> u64 {
    (bounds.lower as i8 as u8 as u64)
        | (bounds.upper as i8 as u8 as u64) << 8
        | (work.min(255) as u64) << 16
        | bounds.best.map_or(NO_MOVE, |b| b as u64) << 24
        | VALID
        | hash >> TAG_SHIFT << TAG_SHIFT
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
fn advise_huge_pages(words: &[AtomicU64]) {
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let start = words.as_ptr() as usize;
        let end = start + std::mem::size_of_val(words);
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
        let entries = Self::entries_within(bytes);
        let needed = entries * ENTRY_BYTES;
        let what = || format!("a search table of {entries} entries");
        budget.check(needed as u128, what)?;
        let words = zeroed_atomics((entries * 2) as usize, needed as u128, what)?;
        advise_huge_pages(&words);
        let first = INITIAL_BYTES / ENTRY_BYTES / 2;
        Ok(Self::of(Words::Own(words), first))
    }

    /// The table `name` of at most `bytes` in the host's shared memory: the one another process
    /// of this machine made under that name, or a new one (see the module's docs). Refused, before
    /// anything is mapped, when a new one would be over `budget`, and when the name is not a plain
    /// name or names a table of another size or layout.
    pub fn on_host(name: &str, bytes: u64, budget: MemoryBudget) -> Result<Self, MemoryError> {
        let entries = Self::entries_within(bytes);
        let what = || format!("a search table of {entries} entries");
        let words = HostWords::open(name, (entries * 2) as usize, budget, what)?;
        advise_huge_pages(words.words());
        Ok(Self::of(Words::Host(words), u64::MAX))
    }

    /// Entries of the largest table of at most `bytes` (a power of two, at least one bucket).
    fn entries_within(bytes: u64) -> u64 {
        let entries = (bytes / ENTRY_BYTES).max(2);
        1u64 << (63 - entries.leading_zeros())
    }

    /// A table of `words`, states hashed into its first `first` buckets (at most all) at first.
    fn of(words: Words, first: u64) -> Self {
        let buckets = words.len() as u64 / 4;
        let first = first.clamp(1, buckets);
        BoundsTable {
            words,
            bucket_mask: AtomicU64::new(first - 1),
            full_mask: buckets - 1,
            filled: AtomicU64::new(0),
        }
    }

    /// Whether a search whose game and key scheme have the fingerprint `scheme` may use the
    /// table: always for a table of this process (its memory checks that), and for one shared on
    /// the host only if every search of the host that used it had the same.
    pub fn claim(&self, scheme: u64) -> bool {
        match &self.words {
            Words::Own(_) => true,
            Words::Host(host) => host.claim(mix(scheme ^ HOST_SCHEME)),
        }
    }

    /// Bytes the table holds.
    pub fn bytes(&self) -> u64 {
        self.words.len() as u64 * 8
    }

    /// Bytes of the prefix in use (what the states hash into now).
    pub fn bytes_in_use(&self) -> u64 {
        (self.bucket_mask.load(Ordering::Relaxed) + 1) * 2 * ENTRY_BYTES
    }

    /// The first word of the bucket of `key`: the low bits of a full 64-bit mix of the key (the
    /// finaliser of MurmurHash3), so that every bit of the key moves the bucket. (A single multiply
    /// read from bit 20 up ignored the key's top bits: on boards of more than 44 elements, states
    /// differing only there shared one bucket, and a 5×5 search took 2–3 times the nodes.)
    fn bucket(&self, key: u64) -> usize {
        self.home(mix(key))
    }

    /// [`bucket`](Self::bucket) of a key whose hash is `hash`.
    fn home(&self, hash: u64) -> usize {
        ((hash & self.bucket_mask.load(Ordering::Relaxed)) * 4) as usize
    }

    /// Counts a state stored that the table did not hold, and doubles the prefix once as many have
    /// been stored since it last grew as half its entries (one thread doubles it; the others see the
    /// wider mask). New states, not empty slots, are counted: a prefix too small for the search
    /// fills at once and then only replaces, and must grow all the same. Once the prefix is the
    /// whole table nothing is counted.
    fn count_new_state(&self, halt: &Halt) {
        let mask = self.bucket_mask.load(Ordering::Relaxed);
        if mask == self.full_mask {
            return;
        }
        // A sixteenth of the prefix's entries (an eighth of its buckets).
        if self.filled.fetch_add(1, Ordering::Relaxed) + 1 >= (mask + 1) / 8
            && self
                .bucket_mask
                .compare_exchange(mask, mask * 2 + 1, Ordering::Relaxed, Ordering::Relaxed)
                .is_ok()
        {
            self.filled.store(0, Ordering::Relaxed);
            self.move_to_new_half(mask, halt);
        }
    }

    fn read(&self, slot: usize) -> (u64, u64) {
        read_slot(&self.words, slot)
    }

    /// Writes `key` into both slots of its bucket, with `first` and `second` as their bounds: what
    /// a move of the prefix's doubling and a store of the same state can leave (tests of readers).
    #[cfg(test)]
    pub(super) fn hold_twice(&self, key: u64, first: Bounds, second: Bounds, work: u32) {
        let hash = mix(key);
        let bucket = self.home(hash);
        self.write(bucket, key, pack(hash, first, work));
        self.write(bucket + 2, key, pack(hash, second, work));
    }

    fn write(&self, slot: usize, key: u64, data: u64) {
        write_slot(&self.words, slot, key, data);
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
        let hash = mix(key);
        let bucket = self.home(hash);
        [bucket, bucket + 2].into_iter().find_map(|slot| {
            let (stored, data) = self.read(slot);
            (stored == key && tagged(data, hash)).then(|| unpack(data).0)
        })
    }

    /// Records `bounds` for `key`, a state with `work` free elements, tightening what is known. A
    /// store that grows the table checks `halt` while it moves entries: it gives way as the halt
    /// says, and stops moving once the halt has come (what is not moved is only missed).
    pub fn store(&self, key: u64, bounds: Bounds, work: u32, halt: &Halt) {
        let hash = mix(key);
        let bucket = self.home(hash);
        let (first, second) = (bucket, bucket + 2);
        for slot in [first, second] {
            let (stored, data) = self.read(slot);
            if stored == key && tagged(data, hash) {
                let (old, _) = unpack(data);
                let merged = Bounds {
                    lower: bounds.lower.max(old.lower),
                    upper: bounds.upper.min(old.upper),
                    best: bounds.best.or(old.best),
                };
                self.write(slot, key, pack(hash, merged, work));
                return;
            }
        }
        self.place(bucket, key, pack(hash, bounds, work), work);
        self.count_new_state(halt);
    }

    /// Writes the entry `key` → `data` (standing for `work`) into `bucket`: the first slot if it
    /// stood for at least as much work as the state there, else the second. The first slot's state
    /// counts only if it is at home: written before the prefix last doubled, an entry may hash to
    /// another bucket now, where it is looked for; left behind, it gives way like an empty slot.
    fn place(&self, bucket: usize, key: u64, data: u64, work: u32) {
        let (first, second) = (bucket, bucket + 2);
        let (first_key, first_data) = self.read(first);
        // Whether the first slot's state stands for more work is read first: only then does it
        // matter whether it is at home (a hash to compute).
        let keeps_first = first_data & VALID != 0
            && unpack(first_data).1 > work
            && self.bucket(first_key) == bucket;
        let slot = if keeps_first { second } else { first };
        self.write(slot, key, data);
    }

    /// Moves the entries of the buckets up to `old_mask` whose home is in the half the prefix has
    /// just gained (their hash's next bit is set) to it, so that doubling loses nothing but what
    /// other threads overwrite meanwhile. Called by the thread that doubled the prefix; the others
    /// go on searching (an entry not moved yet is only missed, never wrong). `halt` is checked
    /// every [`MOVED_BETWEEN_CHECKS`] buckets; once it has come, the rest is left where it is.
    fn move_to_new_half(&self, old_mask: u64, halt: &Halt) {
        for bucket in 0..=old_mask as usize {
            if bucket % MOVED_BETWEEN_CHECKS == MOVED_BETWEEN_CHECKS - 1 && halt.check().is_some() {
                return;
            }
            for slot in [bucket * 4, bucket * 4 + 2] {
                let (key, data) = self.read(slot);
                let hash = mix(key);
                // A pair torn by two writers is left where it is (never met: its tag is wrong).
                if !tagged(data, hash) {
                    continue;
                }
                let home = self.home(hash);
                if home != bucket * 4 {
                    self.place(home, key, data, unpack(data).1);
                }
            }
        }
    }

    /// Every entry of a state with at least `work` free elements, with its bounds and free
    /// elements: what a search has proved (read once its threads are done, or while they run).
    /// An entry is taken only in its home bucket and with its key's tag, so a pair torn by two
    /// writers, or as it is read — whose XOR gives a key neither wrote — is not read as a state
    /// but for one chance in 2^23; the caller checks the rest (the state's free elements against
    /// `work`, its bounds against its cells).
    pub fn proved(&self, work: u32) -> Vec<(u64, Bounds, u32)> {
        let mut found = Vec::new();
        self.each_proved(|key, bounds, free| {
            if free >= work {
                found.push((key, bounds, free));
            }
        });
        found
    }

    /// How many entries [`proved`](Self::proved) would read of each number of free elements
    /// (the index, up to 255): what lets a caller choose how deep to read before it copies
    /// anything out of a table of billions of entries.
    pub fn proved_counts(&self) -> Vec<u64> {
        let mut counts = vec![0u64; 256];
        self.each_proved(|_, _, free| counts[free as usize] += 1);
        counts
    }

    /// Calls `f` with the key, bounds and free elements of every entry in its home bucket.
    fn each_proved(&self, mut f: impl FnMut(u64, Bounds, u32)) {
        let mask = self.bucket_mask.load(Ordering::Relaxed) as usize;
        for bucket in 0..=mask {
            for slot in [bucket * 4, bucket * 4 + 2] {
                let (key, data) = self.read(slot);
                let hash = mix(key);
                if !tagged(data, hash) || self.home(hash) != bucket * 4 {
                    continue;
                }
                let (bounds, free) = unpack(data);
                f(key, bounds, free);
            }
        }
    }

    /// Share of the entries in use, from the first 2^16 of them (cheap enough for progress reports;
    /// the hash spreads states evenly over the prefix in use).
    pub fn fill_sample(&self) -> f64 {
        let in_use = (self.bucket_mask.load(Ordering::Relaxed) + 1) * 2;
        let sample = in_use.min(1 << 16) as usize;
        let used = (0..sample)
            .filter(|&i| self.words[2 * i + 1].load(Ordering::Relaxed) & VALID != 0)
            .count();
        used as f64 / sample as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::util::halt::NEVER;

    /// Keys spread by the hash: twice as many as a 16 MiB table has entries.
    fn spread_keys() -> Vec<u64> {
        (0..(1u64 << 21))
            .map(|i: u64| {
                // splitmix64's finaliser: distinct keys, spread like a game's hashes.
                let mut z = i.wrapping_add(0x9E37_79B9_7F4A_7C15);
                z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
                z ^ (z >> 31)
            })
            .collect()
    }

    /// The bounds stored for key `k`.
    fn bounds_of(k: u64) -> Bounds {
        Bounds {
            lower: -((k % 50) as i32),
            upper: (k % 61) as i32,
            best: Some((k % 40) as u32),
        }
    }

    /// How many of `keys` `table` finds (each with its own bounds), and of the last 1 000.
    fn found_and_recent(table: &BoundsTable, keys: &[u64]) -> (usize, usize) {
        let mut found = 0;
        for &k in keys {
            if let Some(b) = table.probe(k) {
                assert_eq!(b, bounds_of(k), "{k}");
                found += 1;
            }
        }
        let recent = keys[keys.len() - 1000..]
            .iter()
            .filter(|&&k| table.probe(k).is_some())
            .count();
        (found, recent)
    }

    #[test]
    fn a_halt_stops_the_moving_and_answers_stay_right() {
        let table = BoundsTable::new(16 << 20, MemoryBudget::new(1 << 30)).unwrap();
        let keys = spread_keys();
        // Halted from the start: each doubling moves its first buckets only.
        let halted = Halt::after(std::time::Duration::ZERO);
        for &k in &keys {
            table.store(k, bounds_of(k), (k % 30) as u32, &halted);
        }
        assert_eq!(table.bytes_in_use(), 16 << 20);
        let (_, recent) = found_and_recent(&table, &keys);
        assert!(recent > 900, "{recent}");
    }

    /// A pair torn by two writers — one state's key word beside another's data — gives a key
    /// neither wrote; in its home bucket it would be read as a state with the other's bounds, but
    /// its tag is the other key's: neither a probe nor a reading of the proved states takes it.
    #[test]
    fn a_torn_pair_is_never_read_as_a_state() {
        let table = BoundsTable::new(64, MemoryBudget::new(1 << 20)).unwrap();
        let bounds = |v: i32| Bounds {
            lower: v,
            upper: v,
            best: None,
        };
        let (first, second) = (0b1011u64, 0b0110u64);
        let first_data = pack(mix(first), bounds(1), 10);
        // A second state whose torn pair with the first hashes home to the first bucket.
        let (second, second_data, torn) = (second..)
            .map(|k| {
                let data = pack(mix(k), bounds(-3), 10);
                (k, data, first ^ first_data ^ data)
            })
            .find(|&(k, _, torn)| k != first && table.bucket(torn) == 0)
            .unwrap();
        assert_ne!(torn, second);
        table.words[0].store(first ^ first_data, Ordering::Relaxed);
        table.words[1].store(second_data, Ordering::Relaxed);
        assert_eq!(read_slot(&table.words, 0), (torn, second_data));
        assert_eq!(table.probe(torn), None);
        assert_eq!(table.proved(0), vec![]);
        // Written whole, it is read.
        table.store(torn, bounds(-3), 10, &NEVER);
        assert_eq!(table.probe(torn), Some(bounds(-3)));
        assert_eq!(table.proved(0), vec![(torn, bounds(-3), 10)]);
    }

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
        table.store(key, wide, 10, &NEVER);
        assert_eq!(table.probe(key), Some(wide));
        table.store(
            key,
            Bounds {
                lower: -7,
                upper: 2,
                best: Some(4),
            },
            10,
            &NEVER,
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
    fn the_prefix_in_use_doubles_as_it_fills_and_answers_stay_right() {
        let table = BoundsTable::new(16 << 20, MemoryBudget::new(1 << 30)).unwrap();
        assert_eq!(
            (table.bytes(), table.bytes_in_use()),
            (16 << 20, INITIAL_BYTES)
        );
        let keys = spread_keys();
        let mut sizes = vec![table.bytes_in_use()];
        for &k in &keys {
            table.store(k, bounds_of(k), (k % 30) as u32, &NEVER);
            if table.bytes_in_use() != *sizes.last().unwrap() {
                sizes.push(table.bytes_in_use());
            }
        }
        // 4 MiB, doubled twice to the whole 16 MiB, and no further.
        assert_eq!(sizes, vec![4 << 20, 8 << 20, 16 << 20]);
        // Every key found is found with its own bounds; most of the table's entries hold a state that
        // is found (the rest: moved out of reach by a doubling, or torn by a replacement); most of
        // the last ones written are found.
        let (found, recent) = found_and_recent(&table, &keys);
        assert!(found > keys.len() / 4, "{found}");
        assert!(recent > 900, "{recent}");
        // A table smaller than the first prefix is all in use from the start.
        let small = BoundsTable::new(64 << 10, MemoryBudget::new(1 << 20)).unwrap();
        assert_eq!(small.bytes_in_use(), 64 << 10);
    }

    #[test]
    fn every_bit_of_the_key_moves_the_bucket() {
        // States differing only in their top 14 elements (a 5×5 board's edges 46 to 59): with the
        // old hash (a multiply read from bit 20) all of them shared one bucket.
        let table = BoundsTable::new(4 << 20, MemoryBudget::new(1 << 30)).unwrap();
        let buckets: std::collections::HashSet<usize> =
            (0..1u64 << 14).map(|k| table.bucket(k << 46)).collect();
        assert!(buckets.len() > 14_000, "{}", buckets.len());
        let old: std::collections::HashSet<u64> = (0..1u64 << 14)
            .map(|k| (k << 46).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 20 & ((1 << 17) - 1))
            .collect();
        assert_eq!(old.len(), 1);
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
