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

use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

/// Temporary files being written now: what the interrupt handler removes.
static PENDING: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// How every temporary file's name ends: `.<target name>.<random>.<pid>.partial`.
const PARTIAL: &str = ".partial";

/// Test hook (undocumented for users): when this variable is set, a write stops after its first
/// chunk reaches the temporary file, says so on stderr and waits to be interrupted — so tests can
/// interrupt a save in the middle without depending on timing.
const PAUSE_HOOK: &str = "PLY_TEST_PAUSE_SAVE";

fn pending() -> MutexGuard<'static, Vec<PathBuf>> {
    PENDING.lock().unwrap_or_else(|e| e.into_inner())
}

/// Installs the Ctrl-C / SIGTERM / SIGHUP handler: it removes the temporary files being written,
/// says `ply: interrupted` and exits with status 130. Called once, at the start.
pub fn remove_partial_files_on_interrupt() {
    // Only fails if a handler is already installed, and this is the only place that installs one.
    let _ = ctrlc::set_handler(|| {
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

/// Refuses a target that cannot be written before any work is done: a directory, or a path whose
/// directory does not exist.
pub fn check_target(path: &Path) -> io::Result<()> {
    if path.is_dir() {
        return Err(io::Error::new(
            io::ErrorKind::IsADirectory,
            "it is a directory",
        ));
    }
    let dir = directory_of(path);
    if !std::fs::metadata(dir)?.is_dir() {
        return Err(io::Error::new(
            io::ErrorKind::NotADirectory,
            format!("{} is not a directory", dir.display()),
        ));
    }
    Ok(())
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
) -> io::Result<()> {
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
        let temp = builder.tempfile_in(directory_of(path))?;
        pending.push(temp.path().to_path_buf());
        temp
    };
    let temp_path = temp.path().to_path_buf();
    let written = (|| {
        let pause = std::env::var_os(PAUSE_HOOK)
            .is_some()
            .then_some(&*temp_path);
        let mut out = BufWriter::with_capacity(
            1 << 20,
            PauseAfterFirstWrite {
                file: temp.as_file(),
                pause,
            },
        );
        write(&mut out)?;
        out.flush()?;
        drop(out);
        temp.as_file().sync_all()
    })();
    let mut pending = pending();
    // On failure, dropping `temp` removes the temporary file; `persist` renames it into place.
    let result = written.and_then(|()| temp.persist(path).map(drop).map_err(|e| e.error));
    pending.retain(|p| *p != temp_path);
    result
}

/// The temporary file's writer, with the test hook of [`PAUSE_HOOK`].
struct PauseAfterFirstWrite<'a> {
    file: &'a std::fs::File,
    /// The temporary file's path, when the hook is on.
    pause: Option<&'a Path>,
}

impl Write for PauseAfterFirstWrite<'_> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        let written = self.file.write(bytes)?;
        if let Some(path) = self.pause {
            crate::progress::say(&format!(
                "ply: test hook: saving paused after {written} bytes in {}",
                path.display()
            ));
            loop {
                std::thread::park();
            }
        }
        Ok(written)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file.flush()
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
        assert_eq!(failed.unwrap_err().to_string(), "disk full");
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

    #[test]
    fn targets_that_cannot_be_written_are_named() {
        let dir = tempfile::tempdir().unwrap();
        let message = |path: &Path| write_whole(path, |_| Ok(())).unwrap_err().to_string();
        assert_eq!(message(dir.path()), "it is a directory");
        let file = dir.path().join("file");
        std::fs::write(&file, b"").unwrap();
        assert_eq!(
            message(&file.join("t")),
            format!("{} is not a directory", file.display())
        );
        assert_eq!(
            message(&dir.path().join("missing/t")),
            "No such file or directory (os error 2)"
        );
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }
}
