//! `ply dots … --strategy search`: progress lines when asked (each move's value as it is proved, the
//! bounds of the position's value), nothing on stderr otherwise.

use crate::common;
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
    // Children that are one state of the table (images of each other under a symmetry of the board,
    // or twins) are searched once and proved together: each of their moves still gets its line, so
    // 17 lines name the 17 moves.
    assert_eq!(proved.len(), 17, "{stderr}");
    let mut named: Vec<&str> = proved
        .iter()
        .map(|l| l.split(' ').nth(2).unwrap())
        .collect();
    named.sort_unstable();
    named.dedup();
    assert_eq!(named.len(), 17, "{stderr}");
    // After 1-2, 7-8 leaves the mirror image of what 6-10 leaves: the same value, the same line.
    let value_of = |edge: &str| {
        let line = proved.iter().find(|l| l.split(' ').nth(2) == Some(edge));
        line.unwrap().split(' ').nth(4).unwrap()
    };
    assert_eq!(value_of("7-8"), value_of("6-10"), "{stderr}");
    let line = predicate::str::is_match(
        r"^ply: move \d+-\d+ = [+-]?\d+ \(\d+ nodes, table \d+\.\d% full, value [+-]?\d+\.\.[+-]?\d+, \d+/17 moves proved(, \d+/17 at most [+-]?\d+)?\)$",
    )
    .unwrap();
    assert!(proved.iter().all(|l| line.eval(l)), "{stderr}");
    // Until the last, each line counts the moves bounded at most the lower bound: the proved ones
    // at least.
    let open = proved
        .iter()
        .filter(|l| !l.ends_with("17/17 moves proved)"));
    assert!(open.clone().count() >= 1, "{stderr}");
    assert!(open.clone().all(|l| l.contains("/17 at most ")), "{stderr}");
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

/// `--value-only`: the search proves the position's value on every core (3×3 boxes, 22 to 24 free
/// edges: past the one-thread limit) and gives the value the table gives, with no move valued.
#[test]
fn value_only_gives_the_tables_value_and_values_no_move() {
    for (moves, value) in [("", -3), ("1-2 5-6", -3), ("1-2 6-7 11-12", 3)] {
        let args = [
            "dots", "boxes", "--rows", "3", "--cols", "3", "--moves", moves,
        ];
        let by_table = parse_json(&stdout_of(&[&args[..], &["--json"]].concat(), None));
        assert_eq!(by_table["value"], value, "{moves}");
        assert_eq!(by_table.get("value_only"), None);
        let search = ["--strategy", "search", "--value-only", "--json"];
        let by_search = parse_json(&stdout_of(&[&args[..], &search].concat(), None));
        assert_eq!(by_search["value"], value, "{moves}");
        assert_eq!(by_search["value_only"], true);
        assert_eq!(by_search["strategy"], "search");
        assert_eq!(by_search["moves"], serde_json::json!([]));
        assert_eq!(by_search["line"], serde_json::json!([]));
    }
    ply()
        .args([
            "dots",
            "boxes",
            "--rows",
            "3",
            "--cols",
            "3",
            "--value-only",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains("Value: -3 for A"))
        .stdout(predicate::str::contains(
            "(The moves were not valued: --value-only.)",
        ))
        .stdout(predicate::str::contains("Game over").not());
    ply()
        .args(["dots", "triangles", "--value-only", "--line"])
        .assert()
        .code(2)
        .stderr("ply: the argument '--value-only' cannot be used with '--line'\n");
}

/// `--tie-order high-first`: another tree (other node counts), the same value and move values.
#[test]
fn both_tie_orders_give_the_same_values_from_different_searches() {
    let args = [
        "dots",
        "boxes",
        "--rows",
        "3",
        "--cols",
        "3",
        "--moves",
        "1-2 6-7 11-12",
        "--strategy",
        "search",
        "--json",
    ];
    let low = parse_json(&stdout_of(&args, None));
    let high = parse_json(&stdout_of(
        &[&args[..], &["--tie-order", "high-first"]].concat(),
        None,
    ));
    assert_eq!(low["value"], 3);
    assert_eq!(high["value"], 3);
    let values = |report: &serde_json::Value| -> Vec<(String, i64)> {
        let mut moves: Vec<(String, i64)> = report["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| (m["move"].to_string(), m["value"].as_i64().unwrap()))
            .collect();
        moves.sort();
        moves
    };
    assert_eq!(values(&low).len(), 21);
    assert_eq!(values(&low), values(&high));
    assert_ne!(low["states_visited"], high["states_visited"]);
    ply()
        .args(["dots", "triangles", "--tie-order", "sideways"])
        .assert()
        .code(2)
        .stderr(predicate::str::starts_with(
            "ply: invalid value 'sideways' for '--tie-order <TIE_ORDER>'",
        ));
}
