//! `ply dots … --strategy search`: progress lines when asked (each move's value as it is proved, the
//! bounds of the position's value), nothing on stderr otherwise.

mod common;
use common::*;
use predicates::prelude::*;

/// The classic triangles board after one move: 17 moves.
const SEARCH: [&str; 7] = [
    "dots",
    "triangles",
    "--moves",
    "1-2",
    "--strategy",
    "search",
    "--json",
];

#[test]
fn search_progress_names_every_move_as_it_is_proved() {
    let output = ply()
        .arg("--progress")
        .args(SEARCH)
        .assert()
        .success()
        .get_output()
        .clone();
    let stderr = String::from_utf8(output.stderr).unwrap();
    let proved: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("ply: move "))
        .collect();
    // Children that are images of each other under a symmetry of the board are searched once:
    // after 1-2, 7-8 leaves the mirror image of what 6-10 leaves, so 16 lines name 16 moves.
    assert_eq!(proved.len(), 16, "{stderr}");
    let mut named: Vec<&str> = proved
        .iter()
        .map(|l| l.split(' ').nth(2).unwrap())
        .collect();
    named.sort_unstable();
    named.dedup();
    assert_eq!(named.len(), 16, "{stderr}");
    assert!(!named.contains(&"7-8"), "{stderr}");
    let line = predicate::str::is_match(
        r"^ply: move \d+-\d+ = [+-]?\d+ \(\d+ nodes, table \d+\.\d% full, value [+-]?\d+\.\.[+-]?\d+, \d+/17 moves proved\)$",
    )
    .unwrap();
    assert!(proved.iter().all(|l| line.eval(l)), "{stderr}");
    // Once every move is proved, the bounds meet at the value the report gives.
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let value = report["value"].as_i64().unwrap();
    let shown = if value > 0 {
        format!("+{value}")
    } else {
        value.to_string()
    };
    let last = proved
        .iter()
        .find(|l| l.ends_with("17/17 moves proved)"))
        .unwrap();
    assert!(
        last.contains(&format!("value {shown}..{shown}, ")),
        "{last}"
    );
    // Unasked, stderr stays empty.
    ply().args(SEARCH).assert().success().stderr("");
}
