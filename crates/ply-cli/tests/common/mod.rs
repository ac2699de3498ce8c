//! Helpers shared by the end-to-end tests of the `ply` binary.
// Each test file uses some of these, and compiles this module on its own.
#![allow(dead_code)]

pub mod server;

use assert_cmd::Command;
use predicates::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The `ply` binary, run with a cache directory of its own (`XDG_CACHE_HOME`, removed when this is
/// dropped): no test reads or writes the user's cache, or sees what another test left there.
pub struct Ply {
    command: Command,
    cache: tempfile::TempDir,
}

impl Ply {
    /// The cache home the command runs with (`ply` keeps its tables in its `ply` directory).
    pub fn cache_home(&self) -> &Path {
        self.cache.path()
    }
}

impl std::ops::Deref for Ply {
    type Target = Command;
    fn deref(&self) -> &Command {
        &self.command
    }
}

impl std::ops::DerefMut for Ply {
    fn deref_mut(&mut self) -> &mut Command {
        &mut self.command
    }
}

/// `command` (which runs `ply`) with a fresh temporary cache directory and no progress asked for
/// through the environment (plain progress lines only when a test asks for them).
fn isolated(mut command: Command) -> Ply {
    let cache = tempfile::tempdir().expect("a temporary cache directory");
    command
        .env("XDG_CACHE_HOME", cache.path())
        .env_remove("PLY_PROGRESS");
    Ply { command, cache }
}

/// The `ply` binary, with a fresh temporary cache directory.
pub fn ply() -> Ply {
    isolated(Command::cargo_bin("ply").expect("the ply binary is built"))
}

/// The `ply` binary run by `sh` after the shell commands `setup` (e.g. limits), with a fresh
/// temporary cache directory like [`ply`]'s.
pub fn ply_after_shell(setup: &str) -> Ply {
    let mut command = Command::new("sh");
    command
        .arg("-c")
        .arg(format!("{setup}; exec \"$0\" \"$@\""))
        .arg(assert_cmd::cargo::cargo_bin("ply"));
    isolated(command)
}

/// The `ply` binary as a plain process, for tests that signal it, with the cache home `cache`.
pub fn ply_process(cache: &Path) -> std::process::Command {
    let mut command = std::process::Command::new(assert_cmd::cargo::cargo_bin("ply"));
    command
        .env("XDG_CACHE_HOME", cache)
        .env_remove("PLY_PROGRESS");
    command
}

/// A path in the temp directory no other test (or test run) uses.
pub fn unique_path(name: &str) -> PathBuf {
    static COUNTER: AtomicUsize = AtomicUsize::new(0);
    let count = COUNTER.fetch_add(1, Ordering::Relaxed);
    std::env::temp_dir().join(format!(
        "ply-cli-test-{}-{count}-{name}",
        std::process::id()
    ))
}

/// A file in the temp directory with a unique name, removed when dropped.
pub struct TempFile(PathBuf);

impl TempFile {
    /// Writes `contents` to a new temp file.
    pub fn new(name: &str, contents: impl AsRef<[u8]>) -> Self {
        let path = unique_path(name);
        std::fs::write(&path, contents).expect("the temp file is written");
        TempFile(path)
    }

    /// Its path.
    pub fn path(&self) -> &Path {
        &self.0
    }

    /// Its path as a command-line argument.
    pub fn arg(&self) -> &str {
        self.0.to_str().expect("the temp path is UTF-8")
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// Runs `ply args` (with `stdin` if given), asserts success with nothing on stderr, returns stdout.
pub fn stdout_of(args: &[&str], stdin: Option<&str>) -> String {
    let mut cmd = ply();
    cmd.args(args);
    if let Some(text) = stdin {
        cmd.write_stdin(text);
    }
    let output = cmd
        .assert()
        .success()
        .code(0)
        .stderr("")
        .get_output()
        .clone();
    String::from_utf8(output.stdout).expect("stdout is UTF-8")
}

/// Runs `ply args` (with `stdin` if given) and asserts a bad-input failure: exit status 2, nothing on
/// stdout, and exactly the line `expected` (plus its newline) on stderr.
pub fn assert_bad_input(args: &[&str], stdin: Option<&str>, expected: &str) {
    assert!(expected.starts_with("ply: ") && !expected.contains('\n'));
    let mut cmd = ply();
    cmd.args(args);
    if let Some(text) = stdin {
        cmd.write_stdin(text);
    }
    cmd.assert()
        .failure()
        .code(2)
        .stdout("")
        .stderr(format!("{expected}\n"));
}

/// Runs `ply args` and returns its stderr after asserting exit 2, empty stdout and one `ply: ` line.
pub fn one_line_failure(args: &[&str]) -> String {
    let output = ply()
        .args(args)
        .write_stdin("")
        .assert()
        .failure()
        .code(2)
        .stdout("")
        .stderr(predicate::str::starts_with("ply: "))
        .get_output()
        .clone();
    let stderr = String::from_utf8(output.stderr).expect("stderr is UTF-8");
    assert!(stderr.ends_with('\n'), "stderr ends its line: {stderr:?}");
    assert_eq!(stderr.lines().count(), 1, "one line on stderr: {stderr:?}");
    stderr.trim_end().to_string()
}

/// Stdout that must be one JSON value on one line, ending with a newline, parsed.
pub fn parse_json_line(text: &str) -> serde_json::Value {
    assert!(text.ends_with('\n'), "JSON and a newline: {text:?}");
    assert_eq!(text.lines().count(), 1, "JSON on one line: {text:?}");
    serde_json::from_str(text).expect("stdout is JSON")
}

/// Stdout that must be one JSON object on one line, parsed.
pub fn parse_json(text: &str) -> serde_json::Value {
    assert!(
        text.ends_with("}\n"),
        "one JSON object and a newline: {text:?}"
    );
    parse_json_line(text)
}
