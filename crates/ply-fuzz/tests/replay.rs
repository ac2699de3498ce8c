//! Replays the committed fuzz corpora on stable: every file of `fuzz/corpus/<target>/` through its
//! target's check, so that what the fuzzer once explored stays checked by `cargo test --workspace`.

use std::path::{Path, PathBuf};

/// The files of one directory, sorted by name.
fn files(dir: &Path) -> Vec<PathBuf> {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let mut files: Vec<PathBuf> = entries
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.is_file())
        .collect();
    files.sort();
    files
}

fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz")
}

/// Runs every file of `dir` through `check`, naming the file that fails.
fn replay(dir: &Path, check: ply_fuzz::Check) -> usize {
    let files = files(dir);
    for file in &files {
        let data = std::fs::read(file).expect("a corpus file reads");
        let outcome = std::panic::catch_unwind(|| check(&data));
        assert!(outcome.is_ok(), "{} fails its check", file.display());
    }
    files.len()
}

#[test]
fn every_target_has_a_corpus_and_every_input_passes() {
    for &(target, check) in ply_fuzz::TARGETS {
        let replayed = replay(&fuzz_dir().join("corpus").join(target), check);
        assert!(replayed >= 5, "{target}: only {replayed} corpus files");
    }
}

#[test]
fn every_target_has_a_fuzz_target() {
    for &(target, _) in ply_fuzz::TARGETS {
        let source = fuzz_dir().join(format!("fuzz_targets/{target}.rs"));
        let text = std::fs::read_to_string(&source).expect("the target's source reads");
        assert!(
            text.contains(&format!("ply_fuzz::check_{target}(")),
            "{target}"
        );
    }
}

/// Inputs that crashed a check, kept in `fuzz/regressions/<target>/` until the parser is fixed; once
/// it is, they move into the target's corpus. Run with `cargo test -p ply-fuzz -- --ignored`.
#[test]
#[ignore = "known crashes awaiting their fixes (listed in RELIABILITY.md)"]
fn known_crashes_are_fixed() {
    for &(target, check) in ply_fuzz::TARGETS {
        let dir = fuzz_dir().join("regressions").join(target);
        if dir.is_dir() {
            replay(&dir, check);
        }
    }
}
