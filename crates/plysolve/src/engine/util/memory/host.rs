//! Words shared by the processes of one host: a table kept in a file of the host's shared memory
//! (`/dev/shm`), mapped by every process that names it, so that the workers of a distributed
//! solve on one machine search one table as the threads of one process do, instead of one table
//! each (whose states, searched once in each, cost a second worker 1.7 times the nodes).
//!
//! The file, `/dev/shm/ply-table-NAME`, is a header page — [`MAGIC`], the table's length in words,
//! the format's version and the claim of the first search that used it (the fingerprint of its
//! game and key scheme: a search keyed otherwise is refused the table) — and the table's words. Its
//! whole room is reserved when it is made (`posix_fallocate`), so a host whose shared memory is too
//! small refuses it at once instead of killing a process at the first page it cannot have.
//!
//! Lifetime: every process using the file holds a shared lock on it (`flock`). The last one to let
//! go — its table dropped, the lock taken alone — removes it; a file no process holds (its users
//! killed) is removed by the next process that opens another host table, and taken up, with what
//! its killed users proved, by one that opens it by its name. A file is made under a name of
//! its own and linked into place whole, so no process ever maps half a header. A race between a
//! process removing a file and one opening it costs sharing (the opener maps a file nobody else
//! will), never a wrong answer: entries are proved bounds, whichever process wrote them.

use super::budget::{MemoryBudget, MemoryError};
use crate::engine::util::excerpt::quote_path;
use std::fs::{File, OpenOptions};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// The first word of a host table's file.
pub const MAGIC: u64 = u64::from_le_bytes(*b"PLYHOST1");

/// The layout of the file this version writes; a file of another layout is refused, not read.
const VERSION: u64 = 1;

/// Bytes before the table's words (one page: the words stay page-aligned).
const HEADER_BYTES: usize = 4096;

/// Where host tables live: the host's shared memory.
const DIR: &str = "/dev/shm";

/// Every host table's file name starts so; only such files are ever removed.
const PREFIX: &str = "ply-table-";

/// The longest name a host table may have.
pub const NAME_MOST: usize = 100;

/// A table's words in the host's shared memory (see the module's docs).
pub struct HostWords {
    map: memmap2::MmapMut,
    /// Holds the shared lock for as long as the table is used.
    file: File,
    path: PathBuf,
}

/// Whether `name` may name a host table: 1 to 100 letters, digits, `.`, `_` or `-`, not
/// starting with a dot — a plain file name, never a path.
pub fn valid_name(name: &str) -> bool {
    (1..=NAME_MOST).contains(&name.len())
        && !name.starts_with('.')
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b))
}

impl HostWords {
    /// The table `name` of `len` words on this host: the one other processes made, or a new one of
    /// zeroes. Refused (before anything is mapped) when a new table's `len` words are over
    /// `budget` (a table another process made is in memory already: opening it takes none), when
    /// the name is not a plain name, when a table of that name holds another length or layout, or
    /// when the host's shared memory has no room for it. `what` names the table in refusals.
    pub fn open(
        name: &str,
        len: usize,
        budget: MemoryBudget,
        what: impl Fn() -> String,
    ) -> Result<Self, MemoryError> {
        let bytes = HEADER_BYTES as u128 + len as u128 * 8;
        let refused = |reason: String| MemoryError::Unshared {
            what: what(),
            reason,
        };
        if !valid_name(name) {
            return Err(refused(format!(
                "its name must be 1 to {NAME_MOST} letters, digits, '.', '_' or '-'"
            )));
        }
        remove_abandoned(name);
        let path = Path::new(DIR).join(format!("{PREFIX}{name}"));
        let size = u64::try_from(bytes).map_err(|_| refused("beyond the file size".into()))?;
        // A file removed between its opening and its lock is opened again (a few times at most).
        for _ in 0..8 {
            let file = match OpenOptions::new().read(true).write(true).open(&path) {
                Ok(file) => file,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                    // The header's page is not counted: a table of the whole budget fits it, as
                    // one of the process's own does.
                    budget.check(len as u128 * 8, &what)?;
                    match make(&path, size, len) {
                        Ok(Some(made)) => return Ok(made),
                        Ok(None) => continue,
                        Err(e) => return Err(refused(e)),
                    }
                }
                Err(e) => return Err(refused(format!("{}: {e}", quote_path(&path)))),
            };
            flock(&file, libc::LOCK_SH)
                .map_err(|e| refused(format!("{}: {e}", quote_path(&path))))?;
            if !still_named(&file, &path) {
                continue;
            }
            return attach(file, path.clone(), size, len).map_err(refused);
        }
        Err(refused(format!(
            "{} was removed and made again as it was opened",
            quote_path(&path)
        )))
    }

    /// The table's words.
    pub fn words(&self) -> &[AtomicU64] {
        words_of(&self.map)
    }

    /// Whether a search whose game and key scheme have the fingerprint `tag` (non-zero) may use the
    /// table: the first caller on the host sets it, every later one must match.
    pub fn claim(&self, tag: u64) -> bool {
        let tag = tag.max(1);
        let held = &header_of(&self.map)[3];
        match held.compare_exchange(0, tag, Ordering::AcqRel, Ordering::Acquire) {
            Ok(_) => true,
            Err(other) => other == tag,
        }
    }

    /// The file the table lives in.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for HostWords {
    /// Lets go of the table, and removes its file when no other process holds it.
    fn drop(&mut self) {
        // Unlocked first: the lock this process holds would keep it from taking the file alone.
        let _ = flock(&self.file, libc::LOCK_UN);
        if let Ok(ours) = self.file.metadata() {
            remove_if_alone(&self.path, Some(ours.ino()));
        }
    }
}

/// The table's words past the header of `map`.
#[allow(unsafe_code)]
fn words_of(map: &memmap2::MmapMut) -> &[AtomicU64] {
    let bytes = &map[HEADER_BYTES..];
    // SAFETY: the mapping is page-aligned and HEADER_BYTES is a multiple of 8, so the words are
    // aligned; any bits are a valid AtomicU64; the slice lives as long as the borrow of the
    // mapping, which is never unmapped or written through a plain reference while shared.
    unsafe { std::slice::from_raw_parts(bytes.as_ptr() as *const AtomicU64, bytes.len() / 8) }
}

/// The header's words of `map`.
#[allow(unsafe_code)]
fn header_of(map: &memmap2::MmapMut) -> &[AtomicU64] {
    // SAFETY: as in `words_of`, for the header page.
    unsafe { std::slice::from_raw_parts(map.as_ptr() as *const AtomicU64, HEADER_BYTES / 8) }
}

/// Whether `file` (open, locked) is still the file named `path`: not removed by a process that
/// found it abandoned between its opening and its lock.
fn still_named(file: &File, path: &Path) -> bool {
    match (file.metadata(), std::fs::metadata(path)) {
        (Ok(ours), Ok(named)) => ours.nlink() > 0 && ours.ino() == named.ino(),
        _ => false,
    }
}

/// Maps `file`, a host table already made, checking that it holds `len` words of this layout.
fn attach(file: File, path: PathBuf, size: u64, len: usize) -> Result<HostWords, String> {
    let named = quote_path(&path);
    let found = file.metadata().map_err(|e| format!("{named}: {e}"))?.len();
    if found != size {
        return Err(format!(
            "{named} holds {found} bytes, not the {size} asked for (its workers asked another size)"
        ));
    }
    let map = map_file(&file, &path)?;
    let header = header_of(&map);
    let (magic, words, version) = (
        header[0].load(Ordering::Acquire),
        header[1].load(Ordering::Relaxed),
        header[2].load(Ordering::Relaxed),
    );
    if magic != MAGIC || words != len as u64 || version != VERSION {
        return Err(format!(
            "{named} is not a table of this version of ply (its header reads another)"
        ));
    }
    Ok(HostWords { map, file, path })
}

/// Makes the table `path` of `len` words: made whole under a name of its own, then linked into
/// place. `None` when another process linked one there first (open it instead), or removed the
/// draft as abandoned before it was locked (make it again).
fn make(path: &Path, size: u64, len: usize) -> Result<Option<HostWords>, String> {
    let mut draft = path.as_os_str().to_owned();
    draft.push(format!(".{}.draft", std::process::id()));
    let draft = PathBuf::from(draft);
    let _ = std::fs::remove_file(&draft);
    let file = OpenOptions::new()
        .read(true)
        .write(true)
        .create_new(true)
        .open(&draft)
        .map_err(|e| format!("{}: {e}", quote_path(&draft)))?;
    let made: Result<memmap2::MmapMut, String> = (|| {
        flock(&file, libc::LOCK_SH).map_err(|e| format!("{}: {e}", quote_path(&draft)))?;
        reserve(&file, size)?;
        let map = map_file(&file, &draft)?;
        let header = header_of(&map);
        header[1].store(len as u64, Ordering::Relaxed);
        header[2].store(VERSION, Ordering::Relaxed);
        header[0].store(MAGIC, Ordering::Release);
        Ok(map)
    })();
    let map = match made {
        Ok(map) => map,
        Err(e) => {
            let _ = std::fs::remove_file(&draft);
            return Err(e);
        }
    };
    let linked = std::fs::hard_link(&draft, path);
    let _ = std::fs::remove_file(&draft);
    match linked {
        Ok(()) => Ok(Some(HostWords {
            map,
            file,
            path: path.to_path_buf(),
        })),
        Err(e)
            if matches!(
                e.kind(),
                std::io::ErrorKind::AlreadyExists | std::io::ErrorKind::NotFound
            ) =>
        {
            Ok(None)
        }
        Err(e) => Err(format!("{}: {e}", quote_path(path))),
    }
}

/// Reserves `size` bytes of the host's shared memory for `file`, all zero: refused now when there
/// is no room, where a file only sized would kill the process at the first page it could not have.
#[allow(unsafe_code)]
fn reserve(file: &File, size: u64) -> Result<(), String> {
    use std::os::fd::AsRawFd;
    let len = libc::off_t::try_from(size).map_err(|_| "beyond the file size".to_string())?;
    // SAFETY: the descriptor is open for writing for the whole call; the call only sizes the file.
    let err = unsafe { libc::posix_fallocate(file.as_raw_fd(), 0, len) };
    match err {
        0 => Ok(()),
        libc::ENOSPC => Err(format!(
            "the host's shared memory ({DIR}) has no room for it"
        )),
        e => Err(format!("{DIR}: {}", std::io::Error::from_raw_os_error(e))),
    }
}

/// Applies `op` (`LOCK_SH`, `LOCK_EX | LOCK_NB`, `LOCK_UN`) to `file`'s lock (`flock`: one per
/// open file, let go by the system when its process dies).
#[allow(unsafe_code)]
fn flock(file: &File, op: libc::c_int) -> std::io::Result<()> {
    use std::os::fd::AsRawFd;
    // SAFETY: the descriptor is open for the whole call; the call only changes its lock.
    match unsafe { libc::flock(file.as_raw_fd(), op) } {
        0 => Ok(()),
        _ => Err(std::io::Error::last_os_error()),
    }
}

/// Maps `file`, named `path` (shared between the processes mapping it).
#[allow(unsafe_code)]
fn map_file(file: &File, path: &Path) -> Result<memmap2::MmapMut, String> {
    // SAFETY: the file is only ever written through atomic words, by this and other processes; no
    // plain reference to its bytes outlives a call here, and its size never changes once made.
    let map = unsafe { memmap2::MmapMut::map_mut(file) }
        .map_err(|e| format!("{}: {e}", quote_path(path)))?;
    if map.len() < HEADER_BYTES {
        return Err(format!("{} is too short for a table", quote_path(path)));
    }
    Ok(map)
}

/// Removes `path` if no process holds it (and, with `ino`, only if it is still that file).
fn remove_if_alone(path: &Path, ino: Option<u64>) {
    let Ok(file) = File::open(path) else { return };
    if flock(&file, libc::LOCK_EX | libc::LOCK_NB).is_err() {
        return;
    }
    let same = ino.is_none_or(|ino| file.metadata().is_ok_and(|m| m.ino() == ino));
    if same && still_named(&file, path) {
        let _ = std::fs::remove_file(path);
    }
}

/// Removes the host tables no process holds (their users killed before they could), except the
/// one named `opened`: a worker started again after its run's last worker on this host was
/// killed takes up the table with what the killed one proved (entries are proved bounds,
/// whichever process wrote them; a run's name is its own, so no other run's table is met).
fn remove_abandoned(opened: &str) {
    remove_free(|name| name != opened);
}

/// Removes the host tables whose names (past [`PREFIX`]) `chosen` picks that no process holds;
/// how many it picked are still held.
fn remove_free(chosen: impl Fn(&str) -> bool) -> usize {
    let Ok(entries) = std::fs::read_dir(DIR) else {
        return 0;
    };
    let mut held = 0;
    for entry in entries.flatten() {
        let file = entry.file_name();
        let Some(name) = file.to_str().and_then(|f| f.strip_prefix(PREFIX)) else {
            continue;
        };
        if chosen(name) {
            let path = entry.path();
            remove_if_alone(&path, None);
            held += path.exists() as usize;
        }
    }
    held
}

/// Removes the host tables named `name`, or `name-…` and `name.…` (a run's, one per board,
/// and their drafts), once no process holds them, waiting at most `wait` for the processes that
/// do (killed, not yet gone); how many are still held then (left for the next opening of a host
/// table on this machine to remove).
pub fn remove_tables(name: &str, wait: std::time::Duration) -> usize {
    let until = std::time::Instant::now() + wait;
    let ours = |table: &str| {
        table
            .strip_prefix(name)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with(['-', '.']))
    };
    loop {
        let held = remove_free(ours);
        if held == 0 || std::time::Instant::now() >= until {
            return held;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn budget() -> MemoryBudget {
        MemoryBudget::new(1 << 30)
    }

    fn name(test: &str) -> String {
        format!("test-{test}-{}", std::process::id())
    }

    /// A file at `path` holding `bytes`, held (locked shared) from before it has its name: the
    /// other tests' openings, removing files no process holds, leave it alone.
    fn held_file(path: &Path, bytes: &[u8]) -> File {
        let mut draft = std::ffi::OsString::from("draft-");
        draft.push(path.file_name().unwrap());
        let draft = path.with_file_name(draft);
        std::fs::write(&draft, bytes).unwrap();
        let file = File::open(&draft).unwrap();
        flock(&file, libc::LOCK_SH).unwrap();
        std::fs::rename(&draft, path).unwrap();
        file
    }

    #[test]
    fn two_openings_of_one_name_share_their_words_and_the_last_removes_the_file() {
        let name = name("share");
        let first = HostWords::open(&name, 1024, budget(), || "a table".into()).unwrap();
        let second = HostWords::open(&name, 1024, budget(), || "a table".into()).unwrap();
        assert_eq!(first.words().len(), 1024);
        first.words()[17].store(99, Ordering::Relaxed);
        assert_eq!(second.words()[17].load(Ordering::Relaxed), 99);
        assert!(first.claim(5));
        assert!(second.claim(5));
        assert!(!second.claim(6));
        let path = first.path().to_path_buf();
        drop(first);
        assert!(path.exists(), "still held by the second");
        drop(second);
        assert!(!path.exists(), "the last one removes it");
    }

    #[test]
    fn bad_names_other_sizes_and_foreign_files_are_refused() {
        let what = || "a table".to_string();
        for bad in ["", ".x", "a/b", "..", "x y", &"n".repeat(101)] {
            let err = HostWords::open(bad, 8, budget(), what).err().unwrap();
            assert_eq!(
                err.to_string(),
                "a table cannot be shared on this host: its name must be 1 to 100 letters, \
                 digits, '.', '_' or '-'"
            );
        }
        let name = name("sizes");
        let table = HostWords::open(&name, 1024, budget(), what).unwrap();
        let err = HostWords::open(&name, 2048, budget(), what).err().unwrap();
        assert_eq!(
            err.to_string(),
            format!(
                "a table cannot be shared on this host: `/dev/shm/ply-table-{name}` holds 12288 \
                 bytes, not the 20480 asked for (its workers asked another size)"
            )
        );
        // Opening the table another process made takes no new memory: no budget refuses it.
        let again = HostWords::open(&name, 1024, MemoryBudget::new(0), what).unwrap();
        drop((table, again));
        let err = HostWords::open(&name, 1 << 40, MemoryBudget::new(1 << 20), what)
            .err()
            .unwrap();
        assert!(err.caller_limited(), "{err}");
        // A file of that name and size that is not a table.
        let foreign = name.clone() + "-foreign";
        let path = Path::new(DIR).join(format!("{PREFIX}{foreign}"));
        let held = held_file(&path, &vec![1u8; HEADER_BYTES + 64]);
        let err = HostWords::open(&foreign, 8, budget(), what).err().unwrap();
        assert_eq!(
            err.to_string(),
            format!(
                "a table cannot be shared on this host: {} is not a table of this version of \
                 ply (its header reads another)",
                quote_path(&path)
            )
        );
        drop(held);
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn a_runs_tables_are_removed_once_free_and_no_others() {
        let run = name("run");
        let file = |suffix: &str| Path::new(DIR).join(format!("{PREFIX}{run}{suffix}"));
        // One held by a worker still running, one left by a killed worker.
        let holder = held_file(&file("-a"), b"a table");
        std::fs::write(file("-b"), b"a killed worker's").unwrap();
        // Another run's, whose name starts as this one's does.
        let other = HostWords::open(&format!("{run}x"), 8, budget(), || "t".into()).unwrap();
        let wait = std::time::Duration::from_millis(100);
        assert_eq!(remove_tables(&run, wait), 1, "the held one is left");
        assert!(!file("-b").exists() && file("-a").exists() && other.path().exists());
        let worker = std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(50));
            drop(holder);
        });
        assert_eq!(remove_tables(&run, std::time::Duration::from_secs(10)), 0);
        worker.join().unwrap();
        assert!(!file("-a").exists() && other.path().exists());
    }

    #[test]
    fn a_table_its_killed_users_left_is_taken_up_by_its_name() {
        let name = name("taken-up");
        let killed = HostWords::open(&name, 1024, budget(), || "a table".into()).unwrap();
        killed.words()[17].store(99, Ordering::Relaxed);
        // Killed: the kernel lets go of its lock; nothing removes the file.
        flock(&killed.file, libc::LOCK_UN).unwrap();
        let path = killed.path().to_path_buf();
        std::mem::forget(killed);
        let again = HostWords::open(&name, 1024, budget(), || "a table".into()).unwrap();
        assert_eq!(again.words()[17].load(Ordering::Relaxed), 99);
        drop(again);
        assert!(!path.exists(), "the last one removes it");
    }

    #[test]
    fn a_file_no_process_holds_is_removed_at_the_next_opening() {
        let abandoned = Path::new(DIR).join(format!("{PREFIX}{}", name("abandoned")));
        std::fs::write(&abandoned, b"left by a killed worker").unwrap();
        let table = HostWords::open(&name("sweeper"), 8, budget(), || "t".into()).unwrap();
        assert!(!abandoned.exists());
        assert!(table.path().exists());
    }
}
