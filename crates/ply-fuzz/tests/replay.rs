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

/// The inputs RELIABILITY.md lists under "Crashes found": every `fuzz/crashes/<target>/<name>` it
/// names, as (target, name).
fn crashes_listed() -> Vec<(String, String)> {
    let text =
        std::fs::read_to_string(fuzz_dir().join("../RELIABILITY.md")).expect("RELIABILITY.md");
    let section = text
        .split("### Crashes found")
        .nth(1)
        .expect("a section of crashes found");
    let section = section.split("\n#").next().unwrap_or(section);
    let mut listed: Vec<(String, String)> = section
        .split('`')
        .filter_map(|quoted| quoted.strip_prefix("fuzz/crashes/"))
        .map(|rest| {
            let (target, name) = rest.split_once('/').expect("fuzz/crashes/<target>/<name>");
            (target.to_string(), name.to_string())
        })
        .collect();
    listed.sort();
    listed
}

/// Every input that once crashed a check, kept in `fuzz/crashes/<target>/`, replays through its
/// target's check; the folder holds exactly the inputs RELIABILITY.md lists (none missing, none
/// unlisted), and is not empty.
#[test]
fn past_crashes_stay_fixed() {
    let crashes = fuzz_dir().join("crashes");
    let mut kept = Vec::new();
    for &(target, check) in ply_fuzz::TARGETS {
        let dir = crashes.join(target);
        if dir.is_dir() {
            let replayed = replay(&dir, check);
            assert!(replayed > 0, "{}: empty", dir.display());
            for file in files(&dir) {
                let name = file
                    .file_name()
                    .expect("a name")
                    .to_string_lossy()
                    .into_owned();
                kept.push((target.to_string(), name));
            }
        }
    }
    kept.sort();
    // A folder of another name would not be replayed.
    let folders = std::fs::read_dir(&crashes)
        .unwrap_or_else(|e| panic!("{}: {e}", crashes.display()))
        .count();
    let targets: std::collections::BTreeSet<&String> = kept.iter().map(|(t, _)| t).collect();
    assert_eq!(
        folders,
        targets.len(),
        "a folder of fuzz/crashes that is no target"
    );
    assert_eq!(kept, crashes_listed());
    assert!(kept.len() >= 6, "{kept:?}");
}
