//! Files written whole or not at all, and never at another file's expense.
//!
//! A file is written to a fresh temporary file beside its target (the tempfile crate picks a name no
//! file has, so nothing else is touched), synced to disk and renamed into place. A failure removes
//! the temporary file; Ctrl-C or SIGTERM during the write removes it too (the interrupt handler
//! removes every temporary file still being written, then exits with status 130). Temporary names
//! carry the writer's process id, so those a process killed outright left behind are removed: every
//! one in a directory of ply's own (the cache, [`remove_stale_partial_files`]), and beside any other
//! target those of the same target, on its next save ([`remove_stale_partials_of`]). A write past the
//! file size limit (`ulimit -f`) fails like any other instead of killing the process
//! ([`fail_writes_over_the_size_limit`]), so its temporary file is removed too.
//!
//! An interrupt stops a save at once: the file is written [`WRITE_CHUNK`] bytes at a time and synced
//! every [`SYNC_EVERY`] bytes, each step under a lock the interrupt handler takes before it removes
//! the temporary file and exits. So the handler waits for at most one chunk's write or sync already
//! under way (a process cannot end while a thread of its waits on the disk), and none starts after
//! it: no fsync of a whole large file stands between Ctrl-C and the end.

use plysolve::input::quote_path;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

/// Temporary files being written now: what the interrupt handler removes.
static PENDING: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Held by a save for each write or sync it makes, and by the interrupt handler before it ends the
/// process: the handler waits for the step under way, and no step starts after it.
static STEP: Mutex<()> = Mutex::new(());

/// Set by the interrupt handler: a save checks it before each step and makes none after it.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// The most bytes a save writes at a time (each write a step the interrupt handler waits for).
pub const WRITE_CHUNK: usize = 1 << 20;

/// A save syncs what it has written every this many bytes, so that the sync before the rename
/// (and any one an interrupt waits for) has at most this much left to do.
pub const SYNC_EVERY: u64 = 8 << 20;

/// How every temporary file's name ends: `.<target name>.<random>.<pid>.partial`.
const PARTIAL: &str = ".partial";

/// Test hook (undocumented for users): when this variable is set, a write stops after its first
/// chunk reaches the temporary file, says so on stderr and waits to be interrupted — so tests can
/// interrupt a save in the middle without depending on timing.
const PAUSE_HOOK: &str = "PLY_TEST_PAUSE_SAVE";

/// Test hook (undocumented for users): a save's every step takes this many milliseconds more (a
/// slow disk) and is told on stderr (`N bytes written`, `synced N bytes`) — so tests can interrupt a
/// save between steps and see which steps were made.
const SLOW_HOOK: &str = "PLY_TEST_SLOW_SAVE";

fn pending() -> MutexGuard<'static, Vec<PathBuf>> {
    PENDING.lock().unwrap_or_else(|e| e.into_inner())
}

/// Makes one step of a save (a write or a sync) unless an interrupt has come: then makes none and
/// waits for the interrupt handler to end the process.
fn step<T>(make: impl FnOnce() -> io::Result<T>) -> io::Result<T> {
    {
        let _step = STEP.lock().unwrap_or_else(|e| e.into_inner());
        if !INTERRUPTED.load(Ordering::SeqCst) {
            return make();
        }
    }
    // The handler holds STEP now or soon, removes the temporary file and exits.
    loop {
        std::thread::park();
    }
}

/// Set by a command that stops cleanly when interrupted ([`stop_cleanly_on_interrupt`]): the first
/// interrupt raises it instead of ending the process.
static STOP: Mutex<Option<Arc<AtomicBool>>> = Mutex::new(None);

/// Asks that the first interrupt (Ctrl-C, SIGTERM, SIGHUP) raise the flag given back instead of
/// ending the process, so that a long computation stops at its next check and keeps what it has
/// proved (a book build: the bounds of the position under proof). The handler says so on stderr;
/// a second interrupt ends the process at once, as always.
pub fn stop_cleanly_on_interrupt() -> Arc<AtomicBool> {
    let flag = Arc::new(AtomicBool::new(false));
    *STOP.lock().unwrap_or_else(|e| e.into_inner()) = Some(flag.clone());
    flag
}

/// Installs the Ctrl-C / SIGTERM / SIGHUP handler: it removes the temporary files being written,
/// says `ply: interrupted` and exits with status 130 — or, the first time, raises the flag of a
/// command that stops cleanly ([`stop_cleanly_on_interrupt`]). Called once, at the start.
pub fn remove_partial_files_on_interrupt() {
    // Only fails if a handler is already installed, and this is the only place that installs one.
    let _ = ctrlc::set_handler(|| {
        if let Some(stop) = STOP.lock().unwrap_or_else(|e| e.into_inner()).take() {
            stop.store(true, Ordering::SeqCst);
            crate::progress::say(
                "ply: interrupted: stopping, keeping what is proved (interrupt again to stop at once)",
            );
            return;
        }
        INTERRUPTED.store(true, Ordering::SeqCst);
        // The save's step under way ends (one chunk at most); none starts after it. Never released.
        let _step = STEP.lock().unwrap_or_else(|e| e.into_inner());
        // Holding the lock until the exit: no new temporary file can appear meanwhile.
        let pending = pending();
        for path in pending.iter() {
            let _ = std::fs::remove_file(path);
        }
        // Never `eprintln!`: with stderr a closed pipe (`ply … 2>&1 | head -1`) it panics, the
        // handler's thread dies and the process would go on working after the signal.
        crate::progress::say("ply: interrupted");
        std::process::exit(130);
    });
}

/// Makes a write past the file size limit (`RLIMIT_FSIZE`, `ulimit -f`) fail with `EFBIG` ("File too
/// large") instead of killing the process with SIGXFSZ: the save then fails like any other, naming
/// its file, and its temporary file is removed. Called once, at the start.
pub fn fail_writes_over_the_size_limit() {
    // SAFETY: setting a signal's disposition to "ignore" installs no code to run; `signal` is safe
    // to call from any thread, and nothing else in ply sets SIGXFSZ.
    #[allow(unsafe_code)]
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
}

/// Why a file was not saved: its target refused before any work, or the writing failed.
#[derive(Debug)]
pub enum SaveError {
    /// The target cannot be written (what is wrong with it, after its path: `is a directory`).
    Target(String),
    /// The writing failed (the disk, permissions, the size limit), in the system's words.
    Write(io::Error),
}

impl From<io::Error> for SaveError {
    fn from(e: io::Error) -> Self {
        SaveError::Write(e)
    }
}

impl SaveError {
    /// One line naming `path` as the user gave it (never the temporary file):
    /// `` `t.plytable` is not a regular file ``, `` cannot write `t.plytable`: File too large ``.
    pub fn about(&self, path: &Path) -> String {
        let shown = quote_path(path);
        match self {
            SaveError::Target(fault) => format!("{shown} {fault}"),
            SaveError::Write(e) => format!("cannot write {shown}: {e}"),
        }
    }
}

/// Refuses, before any work is done, a target that cannot be written: a directory, a path whose
/// directory does not exist, and anything else that exists and is not a regular file.
///
/// The rename that puts a saved file in place replaces whatever has the target's name, so a
/// character device (`/dev/null`, as root), a FIFO or a socket would become a regular file. A
/// symbolic link (a dangling one too) is refused rather than followed: the rename would replace the
/// link itself, and following it would write the temporary file and clear stale ones in a directory
/// the user never named, or create a file wherever a dangling link points. The user can name the
/// file the link points to.
pub fn check_target(path: &Path) -> Result<(), SaveError> {
    let target = |fault: &str| Err(SaveError::Target(fault.to_string()));
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.is_dir() => return target("is a directory"),
        Ok(meta) if !meta.is_file() => return target("is not a regular file"),
        _ => {}
    }
    let dir = directory_of(path);
    let shown = quote_path(dir);
    match std::fs::metadata(dir) {
        Ok(meta) if meta.is_dir() => Ok(()),
        Ok(_) => target(&format!("is in {shown}, which is not a directory")),
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            target(&format!("is in {shown}, which does not exist"))
        }
        Err(e) => Err(SaveError::Write(e)),
    }
}

/// Refuses a target that already holds something other than the kind of file a save writes: a
/// file that is neither empty nor starts with `magic` (`PLYTABLE`) is the user's own — a book, a
/// note, a file named by a slip — and a save must not replace it. SQLite files (ply's books) are
/// named as such. A missing target, or one that cannot be read, is left to [`check_target`].
pub fn check_replaces_only(path: &Path, magic: &[u8], kind: &str) -> Result<(), SaveError> {
    use std::io::Read;
    let Ok(file) = std::fs::File::open(path) else {
        return Ok(());
    };
    if !file.metadata().is_ok_and(|m| m.is_file()) {
        return Ok(());
    }
    let mut head = Vec::with_capacity(16);
    file.take(16).read_to_end(&mut head)?;
    if head.is_empty() || head.starts_with(magic) {
        return Ok(());
    }
    let what = if head.starts_with(b"SQLite format 3\0") {
        "is a SQLite file (a ply book?)"
    } else {
        "holds something else"
    };
    Err(SaveError::Target(format!(
        "{what}, not {kind}: a save replaces only {kind}; remove it first or name another file"
    )))
}

/// The directory `path` is in (`.` for a bare file name).
fn directory_of(path: &Path) -> &Path {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    }
}

/// Writes `path` whole with `write`, through a fresh temporary file beside it: `path` is replaced
/// only once every byte is on disk, and on any failure nothing new remains.
pub fn write_whole(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<(), SaveError> {
    check_target(path)?;
    remove_stale_partials_of(path);
    let name = path
        .file_name()
        .unwrap_or(path.as_os_str())
        .to_string_lossy();
    let prefix = format!(".{name}.");
    let suffix = format!(".{}{PARTIAL}", std::process::id());
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(&suffix);
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o644));
    // Created and registered under the lock, so an interrupt never misses it.
    let temp = {
        let mut pending = pending();
        // The error names the temporary file: only what went wrong is kept.
        let temp = builder
            .tempfile_in(directory_of(path))
            .map_err(|e| io::Error::from(e.kind()))?;
        pending.push(temp.path().to_path_buf());
        temp
    };
    let temp_path = temp.path().to_path_buf();
    let written = (|| {
        let hooks = Hooks {
            pause: std::env::var_os(PAUSE_HOOK)
                .is_some()
                .then_some(&*temp_path),
            slow: std::env::var(SLOW_HOOK)
                .ok()
                .and_then(|ms| ms.parse().ok())
                .map(std::time::Duration::from_millis),
        };
        let chunked = Chunked {
            file: temp.as_file(),
            written: 0,
            synced: 0,
            hooks,
        };
        // Small writes gathered into chunks; a large one goes through in chunks of its own.
        let mut out = BufWriter::with_capacity(WRITE_CHUNK, chunked);
        write(&mut out)?;
        out.into_inner().map_err(|e| e.into_error())?.sync(true)
    })();
    // The target checked again just before the rename: it may have changed during the work.
    let checked = written
        .map_err(SaveError::Write)
        .and_then(|()| check_target(path));
    let mut pending = pending();
    // On failure, dropping `temp` removes the temporary file; `persist` renames it into place.
    let result = checked.and_then(|()| {
        temp.persist(path)
            .map(drop)
            .map_err(|e| SaveError::Write(e.error))
    });
    pending.retain(|p| *p != temp_path);
    result
}

/// The test hooks of [`PAUSE_HOOK`] and [`SLOW_HOOK`], when they are on.
struct Hooks<'a> {
    /// The temporary file's path, when a save pauses after its first chunk.
    pause: Option<&'a Path>,
    /// What each step takes more.
    slow: Option<std::time::Duration>,
}

impl Hooks<'_> {
    /// The slow hook's delay and line, at the end of a step (the step lasts that much longer).
    fn within_step(&self, what: impl FnOnce() -> String) {
        if let Some(delay) = self.slow {
            std::thread::sleep(delay);
            crate::progress::say(&format!("ply: test hook: {}", what()));
        }
    }
}

/// The temporary file's writer: at most [`WRITE_CHUNK`] bytes a write, a sync every
/// [`SYNC_EVERY`] bytes, each a [`step`] an interrupt stops before.
struct Chunked<'a> {
    file: &'a std::fs::File,
    /// Bytes written so far.
    written: u64,
    /// Bytes synced so far.
    synced: u64,
    hooks: Hooks<'a>,
}

impl Chunked<'_> {
    /// Syncs what was written since the last sync (everything, metadata included, when `last`).
    fn sync(&mut self, last: bool) -> io::Result<()> {
        step(|| {
            match last {
                true => self.file.sync_all()?,
                false => self.file.sync_data()?,
            }
            self.hooks
                .within_step(|| format!("synced {} bytes", self.written));
            Ok(())
        })?;
        self.synced = self.written;
        Ok(())
    }
}

impl Write for Chunked<'_> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        let chunk = &bytes[..bytes.len().min(WRITE_CHUNK)];
        let written = step(|| {
            let written = self.file.write(chunk)?;
            self.hooks
                .within_step(|| format!("{} bytes written", self.written + written as u64));
            Ok(written)
        })?;
        self.written += written as u64;
        if let Some(path) = self.hooks.pause {
            crate::progress::say(&format!(
                "ply: test hook: saving paused after {written} bytes in {}",
                path.display()
            ));
            loop {
                std::thread::park();
            }
        }
        if self.written - self.synced >= SYNC_EVERY {
            self.sync(false)?;
        }
        Ok(written)
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Removes the temporary files in `dir` — a directory of ply's own — whose writer is gone: left by
/// a process killed outright (or by an older ply, whose names carry no process id). Files of a
/// process still running are left to it.
pub fn remove_stale_partial_files(dir: &Path) {
    remove_files_of_gone_writers(dir, |name| {
        let stem = name.strip_suffix(PARTIAL)?;
        Some(stem.rsplit_once('.').and_then(|(_, pid)| pid.parse().ok()))
    });
}

/// Removes the temporary files a save of `target` left beside it when its process was killed
/// outright (SIGKILL, a crash): exactly the names `.NAME.<random>.<pid>.partial` of `target`'s
/// name whose process no longer runs. Nothing else in the directory is touched — not another
/// target's partial files, not a user's file, not a save of `target` still running.
pub fn remove_stale_partials_of(target: &Path) {
    let Some(name) = target.file_name() else {
        return;
    };
    // The prefix `write_whole` gives the temporary files of this target.
    let prefix = format!(".{}.", name.to_string_lossy());
    remove_files_of_gone_writers(directory_of(target), |file| {
        let (random, pid) = file
            .strip_prefix(&prefix)?
            .strip_suffix(PARTIAL)?
            .split_once('.')?;
        let random_part = !random.is_empty() && random.bytes().all(|b| b.is_ascii_alphanumeric());
        let pid_part = !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit());
        (random_part && pid_part).then(|| pid.parse().ok())
    });
}

/// Removes the files in `dir` that `writer` says are temporary files (`Some`) whose writer — the
/// process id in the name, if it has one — no longer runs.
fn remove_files_of_gone_writers(dir: &Path, writer: impl Fn(&str) -> Option<Option<u32>>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(&writer) else {
            continue;
        };
        if pid.is_none_or(process_is_gone) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// Whether no process `pid` runs (known on systems with `/proc`; elsewhere assumed running).
fn process_is_gone(pid: u32) -> bool {
    Path::new("/proc/self").exists() && !Path::new("/proc").join(pid.to_string()).exists()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stale_files_go_and_everything_else_stays() {
        let dir = tempfile::tempdir().unwrap();
        // A process that has ended: its id is free (until reused, which the next check tolerates).
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let gone = child.id();
        child.wait().unwrap();
        let live = std::process::id();
        let names = [
            format!(".boxes-1x8.plytable.AbC123.{gone}.partial"),
            format!(".boxes-1x8.plytable.XyZ789.{live}.partial"),
            "boxes-1x8.partial".to_string(),
            "boxes-1x8.plytable".to_string(),
            "notes.partial.txt".to_string(),
        ];
        for name in &names {
            std::fs::write(dir.path().join(name), b"x").unwrap();
        }
        remove_stale_partial_files(dir.path());
        let mut left: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        left.sort();
        let mut expected = vec![
            names[1].clone(),
            "boxes-1x8.plytable".to_string(),
            "notes.partial.txt".to_string(),
        ];
        if !process_is_gone(gone) {
            // The id was taken again meanwhile: its file is rightly kept.
            expected.push(names[0].clone());
        }
        expected.sort();
        assert_eq!(left, expected);
    }

    #[test]
    fn a_save_removes_only_its_own_target_stale_partials() {
        let dir = tempfile::tempdir().unwrap();
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let gone = child.id();
        child.wait().unwrap();
        let live = std::process::id();
        let stale = format!(".t.plytable.AbC123.{gone}.partial");
        let names = [
            stale.clone(),
            format!(".t.plytable.XyZ789.{live}.partial"),
            // Another target's (`t.plytable.b`), one without a process id, and the user's own.
            format!(".t.plytable.b.AbC123.{gone}.partial"),
            format!(".u.plytable.AbC123.{gone}.partial"),
            ".t.plytable.AbC123.partial".to_string(),
            format!(".t.plytable.A-C123.{gone}.partial"),
            "t.plytable.partial".to_string(),
        ];
        for name in &names {
            std::fs::write(dir.path().join(name), b"x").unwrap();
        }
        let target = dir.path().join("t.plytable");
        write_whole(&target, |out| out.write_all(b"new")).unwrap();
        let mut left: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        left.sort();
        let mut expected: Vec<String> = names[1..].to_vec();
        expected.push("t.plytable".to_string());
        if !process_is_gone(gone) {
            expected.push(stale);
        }
        expected.sort();
        assert_eq!(left, expected);
    }

    #[test]
    fn a_failed_write_leaves_nothing_and_keeps_the_target() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("t.plytable");
        std::fs::write(&target, b"old").unwrap();
        std::fs::write(dir.path().join("t.plytable.partial"), b"user's").unwrap();
        let failed = write_whole(&target, |out| {
            out.write_all(b"new half")?;
            Err(io::Error::other("disk full"))
        });
        assert_eq!(
            failed.unwrap_err().about(&target),
            format!("cannot write {}: disk full", quote_path(&target))
        );
        assert_eq!(std::fs::read(&target).unwrap(), b"old");
        assert_eq!(
            std::fs::read(dir.path().join("t.plytable.partial")).unwrap(),
            b"user's"
        );
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
        // Other tests write files at the same time: only this directory's entries must be gone.
        assert!(!pending().iter().any(|p| p.starts_with(dir.path())));
        write_whole(&target, |out| out.write_all(b"new")).unwrap();
        assert_eq!(std::fs::read(&target).unwrap(), b"new");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
        assert!(!pending().iter().any(|p| p.starts_with(dir.path())));
    }

    /// The target's fault as `write_whole` says it, after the path.
    fn fault(path: &Path) -> String {
        match write_whole(path, |_| Ok(())).unwrap_err() {
            SaveError::Target(fault) => fault,
            SaveError::Write(e) => panic!("{path:?} was tried: {e}"),
        }
    }

    #[test]
    fn targets_that_cannot_be_written_are_named() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(fault(dir.path()), "is a directory");
        let file = dir.path().join("file");
        std::fs::write(&file, b"").unwrap();
        let shown = quote_path(&file);
        assert_eq!(
            fault(&file.join("t")),
            format!("is in {shown}, which is not a directory")
        );
        let missing = dir.path().join("missing");
        assert_eq!(
            fault(&missing.join("t")),
            format!("is in {}, which does not exist", quote_path(&missing))
        );
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
        assert_eq!(
            SaveError::Target("is a directory".into()).about(Path::new("a\tb")),
            "`a\\tb` is a directory"
        );
    }

    #[test]
    fn special_files_and_links_are_never_replaced() {
        let dir = tempfile::tempdir().unwrap();
        // A character device: refused by the check alone, so nothing is written even as root.
        assert_eq!(
            check_target(Path::new("/dev/null"))
                .unwrap_err()
                .about(Path::new("/dev/null")),
            "`/dev/null` is not a regular file"
        );
        let fifo = dir.path().join("fifo");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        let file = dir.path().join("file");
        std::fs::write(&file, b"kept").unwrap();
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&file, &link).unwrap();
        let dangling = dir.path().join("dangling");
        std::os::unix::fs::symlink(dir.path().join("nowhere"), &dangling).unwrap();
        for target in [&fifo, &link, &dangling] {
            assert_eq!(fault(target), "is not a regular file", "{target:?}");
            let meta = std::fs::symlink_metadata(target).unwrap();
            assert!(!meta.is_file(), "{target:?} is left as it was");
        }
        assert_eq!(std::fs::read(&file).unwrap(), b"kept");
        assert!(!dir.path().join("nowhere").exists());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 4);
    }

    #[test]
    fn a_failed_temporary_file_is_not_named() {
        // A name of 250 bytes is a file name; its temporary file's, 20 bytes longer, is none.
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("t".repeat(250));
        let e = write_whole(&target, |out| out.write_all(b"x")).unwrap_err();
        let shown = quote_path(&target);
        assert_eq!(
            e.about(&target),
            format!("cannot write {shown}: invalid filename")
        );
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }
}
