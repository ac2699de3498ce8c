//! End-to-end tests of the `ply` binary: exact stdout, exit status and stderr.

use crate::common;
use common::*;
use plysolve::input::quote;
use predicates::prelude::*;
use serde_json::Value;

/// The sample input of UVa 751 (Triangle War), one item per line.
const UVA_SAMPLE: &str =
    "4\n6\n2 4\n4 5\n5 9\n3 6\n2 5\n3 5\n7\n2 4\n4 5\n5 9\n3 6\n2 5\n3 5\n7 8\n\
6\n1 2\n2 3\n1 3\n2 4\n2 5\n4 5\n10\n1 2\n2 5\n3 6\n5 8\n4 7\n6 10\n2 4\n4 5\n4 8\n7 8\n";

/// The sample output of UVa 751.
const UVA_VERDICTS: &str = "Game 1: B wins.\nGame 2: A wins.\nGame 3: A wins.\nGame 4: B wins.\n";

/// One game of six legal moves (the first sample game), without its count line.
const GAME_ONE: &str = "6\n2 4\n4 5\n5 9\n3 6\n2 5\n3 5\n";

/// The seed's puzzle: six edges drawn, nobody has scored, A to move and wins by 3.
const SEED_MOVES: &str = "2-3 4-5 5-6 7-8 8-9 9-10";

/// The fourth sample game: ten edges drawn, B has 3 triangles and moves.
const TEN_EDGES: &str = "1-2 2-5 3-6 5-8 4-7 6-10 2-4 4-5 4-8 7-8";

/// Every edge of the classic board, in dot order: the game is over, A 3 triangles, B 6.
const ALL_EDGES: &str = "1-2 1-3 2-3 2-4 2-5 3-5 3-6 4-5 4-7 4-8 5-6 5-8 5-9 6-9 6-10 7-8 8-9 9-10";

/// `ply dots triangles <args> --json`, parsed.
fn dots_json(args: &[&str]) -> Value {
    let mut all = vec!["dots", "triangles"];
    all.extend_from_slice(args);
    all.push("--json");
    parse_json(&stdout_of(&all, None))
}

/// `ply dots triangles --moves <moves>` must fail with `expected`.
fn assert_bad_moves(moves: &str, expected: &str) {
    assert_bad_input(&["dots", "triangles", "--moves", moves], None, expected);
}

/// `ply triangle-war` on `input` (stdin) must fail with `expected`.
fn assert_bad_war(input: &str, expected: &str) {
    assert_bad_input(&["triangle-war"], Some(input), expected);
}

fn int(v: &Value) -> i64 {
    v.as_i64()
        .unwrap_or_else(|| panic!("{v} is not an integer"))
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .expect("an array")
        .iter()
        .map(|s| s.as_str().expect("a string").to_string())
        .collect()
}

/// Drops the fields that depend on the strategy (its name and how many states it visited).
fn without_strategy(mut v: Value) -> Value {
    let object = v.as_object_mut().expect("a JSON object");
    assert!(object.remove("strategy").is_some());
    assert!(object.remove("states_visited").is_some());
    v
}

/// Checks the documented JSON schema and its invariants on one report.
fn check_schema(v: &Value) {
    let object = v.as_object().expect("a JSON object");
    for key in [
        "game",
        "size",
        "played",
        "to_move",
        "score",
        "value",
        "final_margin_a",
        "winner",
        "final_score",
        "moves",
        "line",
        "line_steps",
        "strategy",
        "states_visited",
    ] {
        assert!(object.contains_key(key), "key {key} missing in {v}");
    }
    assert_eq!(v["game"], "triangles");
    let size = v["size"].as_u64().expect("size is a non-negative integer");
    let cells = size * size;
    let edges = 3 * size * (size + 1) / 2;
    let to_move = v["to_move"].as_str().expect("to_move is a string");
    assert!(to_move == "A" || to_move == "B", "to_move {to_move}");
    let score_a = v["score"]["A"].as_u64().expect("score.A is an integer");
    let score_b = v["score"]["B"].as_u64().expect("score.B is an integer");
    assert_eq!(v["score"].as_object().unwrap().len(), 2);
    let value = int(&v["value"]);
    let margin = int(&v["final_margin_a"]);
    let signed_value = if to_move == "A" { value } else { -value };
    assert_eq!(margin, score_a as i64 - score_b as i64 + signed_value);
    let winner = v["winner"].as_str().expect("winner is a string");
    let expected_winner = match margin {
        m if m > 0 => "A",
        m if m < 0 => "B",
        _ => "tie",
    };
    assert_eq!(winner.to_lowercase(), expected_winner.to_lowercase());
    let final_a = v["final_score"]["A"].as_u64().expect("final_score.A");
    let final_b = v["final_score"]["B"].as_u64().expect("final_score.B");
    assert_eq!(final_a + final_b, cells);
    assert_eq!(final_a as i64 - final_b as i64, margin);

    let played = strings(&v["played"]);
    let free = edges as usize - played.len();
    let moves = v["moves"].as_array().expect("moves is an array");
    assert_eq!(moves.len(), free, "one entry per undrawn edge");
    let mut previous = i64::MAX;
    for m in moves {
        let keys = m.as_object().unwrap().len();
        assert!(
            keys == 3 || (keys == 4 && m["symmetric_to"].is_string()),
            "move, value, points: {m}"
        );
        let text = m["move"].as_str().expect("move is a string");
        assert!(!played.iter().any(|p| p == text), "{text} is already drawn");
        let mv = int(&m["value"]);
        assert!(mv <= previous, "moves are sorted best first: {v}");
        previous = mv;
        assert!(m["points"].as_u64().expect("points is an integer") <= 2);
    }
    let line = strings(&v["line"]);
    let steps = v["line_steps"].as_array().expect("line_steps is an array");
    if moves.is_empty() {
        assert_eq!(value, 0, "a finished game is worth nothing more");
        assert!(line.is_empty());
        assert!(steps.is_empty());
    } else {
        assert_eq!(
            int(&moves[0]["value"]),
            value,
            "the best move has the value"
        );
        assert_eq!(line.len(), free, "the line plays to the end of the game");
        let best: Vec<&str> = moves
            .iter()
            .filter(|m| int(&m["value"]) == value)
            .map(|m| m["move"].as_str().unwrap())
            .collect();
        assert!(best.contains(&line[0].as_str()), "the line starts best");
        assert_eq!(steps.len(), line.len());
        for (step, mv) in steps.iter().zip(&line) {
            assert_eq!(step["move"].as_str(), Some(mv.as_str()));
        }
        assert_eq!(steps[0]["player"].as_str(), Some(to_move));
        let (mut a, mut b) = (score_a, score_b);
        for step in steps {
            let points = step["points"].as_u64().expect("points is an integer");
            match step["player"].as_str() {
                Some("A") => a += points,
                Some("B") => b += points,
                other => panic!("player {other:?}"),
            }
        }
        assert_eq!(
            (a, b),
            (final_a, final_b),
            "the line reaches the final score"
        );
    }
}

// ---- 1. ply triangle-war: the UVa 751 sample -------------------------------------------------

#[test]
fn triangle_war_sample_from_a_file() {
    let file = TempFile::new("uva-sample.txt", UVA_SAMPLE);
    assert_eq!(stdout_of(&["triangle-war", file.arg()], None), UVA_VERDICTS);
}

#[test]
fn triangle_war_sample_from_stdin() {
    assert_eq!(stdout_of(&["triangle-war"], Some(UVA_SAMPLE)), UVA_VERDICTS);
    assert_eq!(
        stdout_of(&["triangle-war", "-"], Some(UVA_SAMPLE)),
        UVA_VERDICTS
    );
}

#[test]
fn triangle_war_accepts_blank_lines_and_crlf() {
    let spaced = UVA_SAMPLE
        .replace("\n6\n", "\n\n6\n\n")
        .replace('\n', "\r\n");
    assert_eq!(stdout_of(&["triangle-war"], Some(&spaced)), UVA_VERDICTS);
}

#[test]
fn triangle_war_full_board_is_judged_by_the_score() {
    let mut input = String::from("1\n18\n");
    for edge in ALL_EDGES.split(' ') {
        input.push_str(&edge.replace('-', " "));
        input.push('\n');
    }
    assert_eq!(
        stdout_of(&["triangle-war"], Some(&input)),
        "Game 1: B wins.\n"
    );
}

// ---- 2. ply dots: the seed puzzle, spellings, move files --------------------------------------

#[test]
fn seed_puzzle_json() {
    let v = dots_json(&["--moves", SEED_MOVES]);
    assert_eq!(v["game"], "triangles");
    assert_eq!(v["size"], 3);
    assert_eq!(v["value"], 3);
    assert_eq!(v["final_margin_a"], 3);
    assert_eq!(v["winner"], "A");
    assert_eq!(v["to_move"], "A");
    assert_eq!(v["score"], serde_json::json!({"A": 0, "B": 0}));
    assert_eq!(v["final_score"], serde_json::json!({"A": 6, "B": 3}));
    assert_eq!(
        strings(&v["played"]),
        ["2-3", "4-5", "5-6", "7-8", "8-9", "9-10"]
    );
    // Only the top triangle's edges hold the win; every other move loses by 7.
    let moves: Vec<(String, i64)> = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| (m["move"].as_str().unwrap().to_string(), int(&m["value"])))
        .collect();
    let expected: Vec<(String, i64)> = [
        ("1-2", 3),
        ("1-3", 3),
        ("2-4", -7),
        ("2-5", -7),
        ("3-5", -7),
        ("3-6", -7),
        ("4-7", -7),
        ("4-8", -7),
        ("5-8", -7),
        ("5-9", -7),
        ("6-9", -7),
        ("6-10", -7),
    ]
    .iter()
    .map(|&(m, value)| (m.to_string(), value))
    .collect();
    assert_eq!(moves, expected);
    check_schema(&v);
}

#[test]
fn seed_puzzle_text() {
    let text = stdout_of(&["dots", "triangles", "--moves", SEED_MOVES], None);
    assert!(text.starts_with(
        "Dots and Triangles, size 3 (9 triangles)\nPlayed: 2-3 4-5 5-6 7-8 8-9 9-10\n"
    ));
    assert!(text.contains("\nScore: A 0, B 0. A to move.\n"));
    assert!(text.contains(
        "\nValue: +3 for A (net triangles still to gain under perfect play, by free-table)\n"
    ));
    assert!(
        text.contains("\nResult with perfect play: A wins by 3, 6-3 (final margin for A: +3)\n")
    );
    assert!(text.contains(
        "\nMoves for A, best first:\n     1-2    +3\n     1-3    +3  (symmetric to 1-2)\n"
    ));
    assert!(text.ends_with("    6-10    -7  (symmetric to 4-7)\n"));
}

#[test]
fn seed_puzzle_every_spelling_gives_the_same_json() {
    let reference = stdout_of(
        &["dots", "triangles", "--moves", SEED_MOVES, "--json"],
        None,
    );
    for moves in [
        "2 3 4 5 5 6 7 8 8 9 9 10",
        "2,3 4,5 5,6 7,8 8,9 9,10",
        "2-3,4-5,5-6,7-8,8-9,9-10",
        "2-3\n4-5\n5-6\n7-8\n8-9\n9-10\n",
        "3-2, 5 4\n6,5  8-7,9 8\n\n10-9",
        "  2 3,4 5\n5-6 , 7,8 8 9 9-10  ",
    ] {
        assert_eq!(
            stdout_of(&["dots", "triangles", "--moves", moves, "--json"], None),
            reference,
            "moves {moves:?}"
        );
    }
}

#[test]
fn each_spelling_of_one_move_is_the_same() {
    let reference = stdout_of(&["dots", "triangles", "--moves", "2-4", "--json"], None);
    let v: Value = serde_json::from_str(&reference).unwrap();
    assert_eq!(strings(&v["played"]), ["2-4"]);
    assert_eq!(v["to_move"], "B");
    for moves in ["2 4", "2,4", "4-2", "4 2", "4,2"] {
        assert_eq!(
            stdout_of(&["dots", "triangles", "--moves", moves, "--json"], None),
            reference,
            "moves {moves:?}"
        );
    }
}

#[test]
fn seed_puzzle_from_a_moves_file_and_from_stdin() {
    let reference = stdout_of(
        &["dots", "triangles", "--moves", SEED_MOVES, "--json"],
        None,
    );
    let file = TempFile::new("seed-moves.txt", "2-3\n4 5\n5,6\n7-8, 8-9\n9-10\n");
    assert!(file.path().exists());
    assert_eq!(
        stdout_of(
            &["dots", "triangles", "--moves-file", file.arg(), "--json"],
            None
        ),
        reference
    );
    assert_eq!(
        stdout_of(
            &["dots", "triangles", "--moves-file", "-", "--json"],
            Some("2-3 4-5 5-6\n7-8 8-9 9-10\n")
        ),
        reference
    );
}

// ---- 3. Strategies agree ----------------------------------------------------------------------

#[test]
fn empty_classic_board_with_every_strategy() {
    let mut reports = Vec::new();
    for strategy in ["memo", "table", "auto"] {
        let v = dots_json(&["--strategy", strategy]);
        assert_eq!(v["value"], -3, "{strategy}");
        assert_eq!(v["final_margin_a"], -3, "{strategy}");
        assert_eq!(v["winner"], "B", "{strategy}");
        assert_eq!(v["to_move"], "A", "{strategy}");
        assert_eq!(
            v["final_score"],
            serde_json::json!({"A": 3, "B": 6}),
            "{strategy}"
        );
        assert_eq!(v["moves"].as_array().unwrap().len(), 18, "{strategy}");
        check_schema(&v);
        reports.push(v);
    }
    assert_eq!(reports[0]["strategy"], "memo");
    assert_eq!(reports[1]["strategy"], "table");
    assert_eq!(
        reports[2]["strategy"], "free-table",
        "auto picks the free-edge table on a board of 18 edges"
    );
    assert_eq!(reports[1]["states_visited"], 1 << 18);
    let memo = without_strategy(reports[0].clone());
    let table = without_strategy(reports[1].clone());
    let moves = |v: &Value| v["moves"].clone();
    assert_eq!(moves(&memo), moves(&table));
    assert_eq!(memo["value"], table["value"]);
}

#[test]
fn recursion_agrees_with_table_on_ten_edges_drawn() {
    let table = dots_json(&["--moves", TEN_EDGES, "--strategy", "table"]);
    assert_eq!(table["to_move"], "B");
    assert_eq!(table["score"], serde_json::json!({"A": 0, "B": 3}));
    assert_eq!(table["value"], 4);
    assert_eq!(table["final_margin_a"], -7);
    assert_eq!(table["winner"], "B");
    assert_eq!(table["final_score"], serde_json::json!({"A": 1, "B": 8}));
    check_schema(&table);
    let recursion = dots_json(&["--moves", TEN_EDGES, "--strategy", "recursion"]);
    assert_eq!(recursion["strategy"], "recursion");
    check_schema(&recursion);
    assert_eq!(recursion["value"], 4);
    assert_eq!(without_strategy(recursion), without_strategy(table.clone()));
    let memo = dots_json(&["--moves", TEN_EDGES, "--strategy", "memo"]);
    assert_eq!(without_strategy(memo), without_strategy(table));
}

#[test]
fn free_table_and_search_agree_with_table_on_ten_edges_drawn() {
    let table = dots_json(&["--moves", TEN_EDGES, "--strategy", "table"]);
    for strategy in ["free-table", "search"] {
        let report = dots_json(&["--moves", TEN_EDGES, "--strategy", strategy]);
        assert_eq!(report["strategy"], strategy);
        assert_eq!(report["value"], 4, "{strategy}");
        check_schema(&report);
        assert_eq!(without_strategy(report), without_strategy(table.clone()));
    }
    // The free-edge table of 8 free edges holds 2^8 states.
    let free = dots_json(&["--moves", TEN_EDGES, "--strategy", "free-table"]);
    assert_eq!(free["states_visited"], 256);
}

// ---- 4. The JSON schema -----------------------------------------------------------------------

#[test]
fn json_schema_on_several_positions() {
    for args in [
        vec!["--moves", SEED_MOVES],
        vec!["--moves", TEN_EDGES],
        vec!["--moves", "2-4"],
        vec!["--size", "1"],
        vec!["--size", "2"],
        vec!["--size", "2", "--moves", "1-2 1-3", "--strategy", "memo"],
    ] {
        check_schema(&dots_json(&args));
    }
}

#[test]
fn json_types_are_integers_where_integers() {
    let v = dots_json(&["--moves", TEN_EDGES]);
    for key in ["size", "value", "final_margin_a", "states_visited"] {
        assert!(v[key].is_i64() || v[key].is_u64(), "{key}: {}", v[key]);
    }
    for key in ["score", "final_score"] {
        for p in ["A", "B"] {
            assert!(v[key][p].is_u64(), "{key}.{p}: {}", v[key][p]);
        }
    }
    for m in v["moves"].as_array().unwrap() {
        assert!(m["move"].is_string());
        assert!(m["value"].is_i64());
        assert!(m["points"].is_u64());
    }
    assert!(v["line"].as_array().unwrap().iter().all(Value::is_string));
    assert_eq!(v["line"].as_array().unwrap().len(), 8);
}

#[test]
fn finished_game_has_value_zero_and_no_moves() {
    let v = dots_json(&["--moves", ALL_EDGES]);
    assert_eq!(v["value"], 0);
    assert_eq!(v["moves"], serde_json::json!([]));
    assert_eq!(v["line"], serde_json::json!([]));
    assert_eq!(v["score"], serde_json::json!({"A": 3, "B": 6}));
    assert_eq!(v["final_score"], serde_json::json!({"A": 3, "B": 6}));
    assert_eq!(v["final_margin_a"], -3);
    assert_eq!(v["winner"], "B");
    check_schema(&v);
    let text = stdout_of(&["dots", "triangles", "--moves", ALL_EDGES], None);
    assert!(text.contains("\nScore: A 3, B 6. Game over.\n"));
    assert!(!text.contains("Value:"));
    assert!(text.ends_with("Result with perfect play: B wins by 3, 3-6 (final margin for A: -3)\n"));
}

// ---- 5. Bad input: ply dots -------------------------------------------------------------------

#[test]
fn dots_unknown_dot() {
    assert_bad_moves(
        "2-11",
        "ply: move 1 `2-11`: dot 11 does not exist (this board has dots 1 to 10)",
    );
    assert_bad_moves(
        "2-4 0 1",
        "ply: move 2 `0 1`: dot 0 does not exist (this board has dots 1 to 10)",
    );
}

#[test]
fn dots_not_joined() {
    assert_bad_moves(
        "1-5",
        "ply: move 1 `1-5`: dots 1 and 5 are not joined by an edge",
    );
    assert_bad_moves(
        "3 3",
        "ply: move 1 `3 3`: dots 3 and 3 are not joined by an edge",
    );
}

#[test]
fn dots_edge_drawn_twice() {
    assert_bad_moves(
        "2-4 4-2",
        "ply: move 2 `4-2`: edge 2-4 is already drawn (by move 1)",
    );
    assert_bad_moves(
        "2-3 4-5 5-6 3,2",
        "ply: move 4 `3 2`: edge 2-3 is already drawn (by move 1)",
    );
}

#[test]
fn dots_not_a_number() {
    assert_bad_moves("2-x", "ply: move 1 `2-x`: `x` is not a dot number");
    assert_bad_moves("2-4 x 5", "ply: move 2: `x` is not a dot number");
}

#[test]
fn dots_lone_dot() {
    assert_bad_moves(
        "2-4 5",
        "ply: move 2 `5`: a move needs two dots, this one has one",
    );
    assert_bad_moves(
        "2 4-5",
        "ply: move 1 `2`: a move needs two dots, this one has one",
    );
}

#[test]
fn dots_three_dots_in_one_move() {
    assert_bad_moves(
        "2-4-5",
        "ply: move 1: `2-4-5` is not a move (write two dots: 2-4, 2 4 or 2,4)",
    );
}

#[test]
fn dots_bad_sizes() {
    for size in ["0", "7"] {
        assert_bad_input(
            &["dots", "triangles", "--size", size],
            None,
            &format!(
                "ply: triangle boards have size 1 to 6 (size 6 has 63 edges, the most a state \
                 holds); got {size}"
            ),
        );
    }
    assert_bad_input(
        &["dots", "triangles", "--size", "x"],
        None,
        "ply: --size: `x` is not a whole number",
    );
}

#[test]
fn dots_table_too_big_for_the_budget() {
    let line = one_line_failure(&[
        "dots",
        "triangles",
        "--size",
        "5",
        "--strategy",
        "table",
        "--memory",
        "1G",
    ]);
    assert!(line.contains("needs 32.0 TiB"), "{line}");
    assert_eq!(
        line,
        "ply: a table of 2^45 states (one byte each) needs 32.0 TiB (35184372088832 bytes) but \
         the memory budget is 1.0 GiB (1073741824 bytes); try --strategy memo, or a larger --memory"
    );
    assert_bad_input(
        &["dots", "triangles", "--strategy", "table", "--memory", "1"],
        None,
        "ply: a table of 2^18 states (one byte each) needs 256.0 KiB (262144 bytes) but the memory \
         budget is 1 B; try --strategy memo, or a larger --memory",
    );
    // No memory at all is refused as it is read, on every command alike.
    assert_bad_input(
        &["dots", "triangles", "--strategy", "table", "--memory", "0"],
        None,
        "ply: --memory: `0` is no memory at all: give a size like 1G",
    );
}

#[test]
fn dots_memo_too_big_for_the_budget() {
    let line = one_line_failure(&["dots", "triangles", "--strategy", "memo", "--memory", "1K"]);
    assert!(
        line.starts_with(
            "ply: a memo map growing past 28 states needs 1.6 KiB (1632 bytes) but the memory \
             budget is 1.0 KiB (1024 bytes)"
        ),
        "{line}"
    );
}

#[test]
fn dots_memo_too_big_does_not_suggest_memo() {
    let line = one_line_failure(&["dots", "triangles", "--strategy", "memo", "--memory", "1K"]);
    assert!(!line.contains("try --strategy memo"), "{line}");
}

#[test]
fn dots_bad_memory_values() {
    assert_bad_input(
        &["dots", "triangles", "--memory", "lots"],
        None,
        "ply: --memory: `lots` is not a memory size like 8G or \
         512M (invalid digit found in string)",
    );
    assert_bad_input(
        &["dots", "triangles", "--memory", ""],
        None,
        "ply: --memory: `` is not a memory size like 8G or 512M \
         (cannot parse integer from empty string)",
    );
    assert_bad_input(
        &["dots", "triangles", "--memory", "99999999999999T"],
        None,
        "ply: --memory: `99999999999999T` is not a \
         memory size like 8G or 512M (number too large to fit in target type)",
    );
}

#[test]
fn dots_unknown_strategy() {
    assert_bad_input(
        &["dots", "triangles", "--strategy", "fast"],
        None,
        "ply: invalid value 'fast' for '--strategy <STRATEGY>' [possible values: auto, recursion, memo, table, free-table, search]",
    );
}

#[test]
fn dots_missing_moves_file() {
    let missing = std::env::temp_dir().join(format!(
        "ply-cli-test-{}-no-such-file.txt",
        std::process::id()
    ));
    let missing = missing.to_str().unwrap();
    assert_bad_input(
        &["dots", "triangles", "--moves-file", missing],
        None,
        &format!("ply: cannot read {missing}: No such file or directory (os error 2)"),
    );
    assert_bad_input(
        &["dots", "triangles", "--moves-file"],
        None,
        "ply: a value is required for '--moves-file <FILE>' but none was supplied",
    );
}

#[test]
fn dots_moves_and_moves_file_conflict() {
    let file = TempFile::new("conflict.txt", "2-4\n");
    assert_bad_input(
        &[
            "dots",
            "triangles",
            "--moves",
            "1-2",
            "--moves-file",
            file.arg(),
        ],
        None,
        "ply: the argument '--moves <MOVES>' cannot be used with '--moves-file <FILE>'",
    );
}

#[test]
fn dots_bad_move_in_a_moves_file_and_on_stdin() {
    let file = TempFile::new("bad-moves.txt", "2-3\n4-5\n2-11\n");
    assert_bad_input(
        &["dots", "triangles", "--moves-file", file.arg()],
        None,
        "ply: move 3 `2-11`: dot 11 does not exist (this board has dots 1 to 10)",
    );
    assert_bad_input(
        &["dots", "triangles", "--moves-file", "-", "--json"],
        Some("2-4\n4-2\n"),
        "ply: move 2 `4-2`: edge 2-4 is already drawn (by move 1)",
    );
}

// ---- 5. Bad input: ply triangle-war -----------------------------------------------------------

#[test]
fn war_empty_input() {
    let expected = "ply: the input is empty (expected the number of games)";
    assert_bad_war("", expected);
    assert_bad_war("\n  \n\n", expected);
    let file = TempFile::new("empty.txt", "");
    assert_bad_input(&["triangle-war", file.arg()], None, expected);
}

#[test]
fn war_missing_file() {
    let missing = std::env::temp_dir().join(format!(
        "ply-cli-test-{}-no-such-games.txt",
        std::process::id()
    ));
    // A long path is shown by its end, as every path in a message is.
    let shown = plysolve::input::path_excerpt(&missing);
    let missing = missing.to_str().unwrap();
    assert_bad_input(
        &["triangle-war", missing],
        None,
        &format!("ply: cannot read {shown}: No such file or directory (os error 2)"),
    );
}

#[test]
fn war_bad_game_counts() {
    assert_bad_war(
        "0\n",
        "ply: line 1: the number of games must be at least 1, got 0",
    );
    assert_bad_war(
        "-1\n",
        "ply: line 1: the number of games must be at least 1, got -1",
    );
    assert_bad_war("x\n", "ply: line 1: `x` is not a whole number");
    assert_bad_war(
        "\n\n0\n",
        "ply: line 3: the number of games must be at least 1, got 0",
    );
    assert_bad_war(
        "1 2\n",
        "ply: line 1: expected one number (the number of games), found 2 items",
    );
}

#[test]
fn war_bad_move_counts() {
    assert_bad_war(
        "1\n5\n2 4\n4 5\n5 9\n3 6\n2 5\n",
        "ply: game 1, line 2: the number of moves must be 6 to 18, got 5",
    );
    assert_bad_war(
        "1\n19\n",
        "ply: game 1, line 2: the number of moves must be 6 to 18, got 19",
    );
    assert_bad_war(
        &format!("2\n{GAME_ONE}\n5\n"),
        "ply: game 2, line 10: the number of moves must be 6 to 18, got 5",
    );
    assert_bad_war(
        "1\nsix\n",
        "ply: game 1, line 2: `six` is not a whole number",
    );
}

#[test]
fn war_truncated_input() {
    assert_bad_war(
        &format!("2\n{GAME_ONE}"),
        "ply: game 2: the input ends before the move count of game 2 of 2 (after line 8)",
    );
    assert_bad_war(
        "1\n6\n2 4\n4 5\n",
        "ply: game 1: the input ends before move 3 of 6 (after line 4)",
    );
}

#[test]
fn war_trailing_line_after_the_last_game() {
    assert_bad_war(
        &format!("{UVA_SAMPLE}1 2\n"),
        "ply: line 35: unexpected `1 2` after the last game (4 declared)",
    );
    assert_bad_war(
        &format!("2\n{GAME_ONE}{GAME_ONE}\n\n  extra  \n"),
        "ply: line 18: unexpected `extra` after the last game (2 declared)",
    );
}

#[test]
fn war_move_line_with_three_numbers() {
    assert_bad_war(
        "1\n6\n2 4\n4 5 9\n",
        "ply: game 1, line 4: expected two dot numbers (a move; if this is a move count, this game lists fewer moves than its count), found 3 items",
    );
}

#[test]
fn war_move_line_with_a_non_number() {
    assert_bad_war(
        "1\n6\n2 4\n4 x\n",
        "ply: game 1, line 4: `x` is not a whole number",
    );
}

#[test]
fn war_unknown_dot() {
    assert_bad_war(
        "1\n6\n2 4\n4 11\n",
        "ply: game 1, line 4: dot 11 does not exist (this board has dots 1 to 10)",
    );
}

#[test]
fn war_dots_not_joined() {
    assert_bad_war(
        "1\n6\n1 5\n",
        "ply: game 1, line 3: dots 1 and 5 are not joined by an edge",
    );
}

#[test]
fn war_edge_drawn_twice() {
    assert_bad_war(
        "1\n6\n2 4\n4 5\n4 2\n",
        "ply: game 1, line 5: edge 2-4 is already drawn (by move 1)",
    );
    // The second game starts from an empty board, and its faults name it.
    assert_bad_war(
        &format!("2\n{GAME_ONE}6\n2 4\n4 5\n5 4\n"),
        "ply: game 2, line 12: edge 4-5 is already drawn (by move 2)",
    );
}

#[test]
fn war_fault_in_a_later_game_prints_nothing_for_earlier_games() {
    let input = UVA_SAMPLE.replacen("4 8\n", "4 11\n", 1);
    assert_bad_war(
        &input,
        "ply: game 4, line 33: dot 11 does not exist (this board has dots 1 to 10)",
    );
}

// ---- 6. Help and bench ------------------------------------------------------------------------

#[test]
fn help_exits_zero() {
    ply()
        .arg("--help")
        .assert()
        .success()
        .code(0)
        .stderr("")
        .stdout(
            predicate::str::contains("Usage: ply [OPTIONS] <COMMAND>")
                .and(predicate::str::contains("--progress"))
                .and(predicate::str::contains("[env: PLY_PROGRESS=]"))
                .and(predicate::str::contains("triangle-war"))
                .and(predicate::str::contains("bench")),
        );
    ply()
        .args(["dots", "triangles", "--help"])
        .assert()
        .success()
        .code(0)
        .stderr("")
        .stdout(predicate::str::contains("--moves-file <FILE>"));
}

#[test]
fn unknown_argument_is_one_line() {
    assert_bad_input(
        &["dots", "triangles", "--wat"],
        None,
        "ply: unexpected argument '--wat' found",
    );
    assert_bad_input(
        &["triangle-war", "a", "b"],
        None,
        "ply: unexpected argument 'b' found",
    );
}

#[test]
fn missing_subcommand_is_one_line() {
    for args in [&[][..], &["dots"][..], &["bench"][..]] {
        one_line_failure(args);
    }
}

#[test]
fn missing_subcommand_names_the_fault() {
    for args in [&[][..], &["dots"][..], &["bench"][..]] {
        let line = one_line_failure(args);
        assert!(line.contains("subcommand"), "{args:?}: {line}");
    }
}

#[test]
fn bench_dots_without_recursion() {
    let text = stdout_of(&["bench", "dots", "--skip-recursion"], None);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    assert_eq!(
        lines[0],
        "Dots and Triangles, classic board: 4 positions (6, 7, 6, 10 edges drawn), values [6, 2, \
         1, 4]"
    );
    assert_eq!(
        lines[1],
        "strategy   positions  states visited         time     speed-up"
    );
    let memo: Vec<&str> = lines[2].split_whitespace().collect();
    assert_eq!(memo[..2], ["memo", "4"], "{}", lines[2]);
    assert!(memo[2].parse::<u64>().unwrap() > 0, "{}", lines[2]);
    assert_eq!(memo.last(), Some(&"-"), "{}", lines[2]);
    let table: Vec<&str> = lines[3].split_whitespace().collect();
    assert_eq!(table[..3], ["table", "4", "262144"], "{}", lines[3]);
    assert_eq!(table.last(), Some(&"-"), "{}", lines[3]);
    assert!(!text.contains("recursion"));
}

#[test]
fn bench_dots_json_and_games_file() {
    let file = TempFile::new("bench-games.txt", UVA_SAMPLE);
    let text = stdout_of(
        &[
            "bench",
            "dots",
            "--skip-recursion",
            "--json",
            "--games",
            file.arg(),
        ],
        None,
    );
    let rows: Value = serde_json::from_str(&text).unwrap();
    let rows = rows.as_array().unwrap();
    assert_eq!(rows.len(), 2);
    for (row, name) in rows.iter().zip(["memo", "table"]) {
        assert_eq!(row["strategy"], name);
        assert_eq!(row["positions"], 4);
        assert_eq!(row["values"], serde_json::json!([6, 2, 1, 4]));
        assert_eq!(row["speedup_over_recursion"], Value::Null);
    }
    assert_eq!(rows[1]["states_visited"], 1 << 18);
}

#[test]
fn bench_dots_bad_games_file() {
    let file = TempFile::new("bench-bad.txt", "1\n6\n1 5\n");
    assert_bad_input(
        &["bench", "dots", "--skip-recursion", "--games", file.arg()],
        None,
        "ply: game 1, line 3: dots 1 and 5 are not joined by an edge",
    );
}

/// `ply bench dots-free`: one position per count of free edges, each strategy's value equal to the
/// whole table's for the same moves.
#[test]
fn bench_dots_free_series_agrees_with_the_whole_table() {
    let series: Value = serde_json::from_str(&stdout_of(
        &[
            "bench",
            "dots-free",
            "--rows",
            "3",
            "--cols",
            "3",
            "--from",
            "12",
            "--to",
            "20",
            "--search-up-to",
            "18",
            "--json",
        ],
        None,
    ))
    .unwrap();
    let rows = series.as_array().unwrap();
    let free: Vec<u64> = rows.iter().map(|r| r["free"].as_u64().unwrap()).collect();
    assert_eq!(free, [12, 14, 16, 18, 20]);
    let values: Vec<i64> = rows.iter().map(|r| r["value"].as_i64().unwrap()).collect();
    assert_eq!(values, [-1, 1, 1, -3, -3]);
    for row in rows {
        let moves = row["moves"].as_str().unwrap();
        assert_eq!(
            moves.split(' ').count() as u64,
            24 - row["free"].as_u64().unwrap()
        );
        let by_table: Value = serde_json::from_str(&stdout_of(
            &[
                "dots", "boxes", "--rows", "3", "--cols", "3", "--moves", moves, "--json",
            ],
            None,
        ))
        .unwrap();
        assert_eq!(by_table["value"], row["value"], "{moves}");
        let runs = row["runs"].as_array().unwrap();
        let names: Vec<&str> = runs
            .iter()
            .map(|r| r["strategy"].as_str().unwrap())
            .collect();
        assert_eq!(names, ["memo", "free-table", "search"]);
        // Memo and the free-edge table visit every subset of the free edges.
        let states = 1u64 << row["free"].as_u64().unwrap();
        assert_eq!(runs[0]["states_visited"], states);
        assert_eq!(runs[1]["states_visited"], states);
        assert_eq!(runs[0]["time_ratio"], 1.0);
    }
    let last = &rows[4]["runs"][2];
    assert_eq!(last["skipped"], "over --search-up-to 18");
    assert_eq!(last["seconds"], Value::Null);
}

/// Past every ceiling (the 28-dot board at 50 free edges), nothing runs — the automatic choice
/// neither, bounded as the strategy it picks — and the series ends at once.
#[test]
fn bench_dots_free_runs_nothing_past_every_ceiling() {
    let series: Value = serde_json::from_str(&stdout_of(
        &[
            "bench",
            "dots-free",
            "--size",
            "6",
            "--from",
            "50",
            "--to",
            "50",
            "--json",
        ],
        None,
    ))
    .unwrap();
    let row = &series[0];
    assert_eq!(row["value"], Value::Null);
    assert_eq!(row["auto"], "search");
    assert_eq!(
        row["auto_run"]["skipped"],
        "picks search, over --search-up-to 32"
    );
    assert_eq!(row["auto_run"]["seconds"], Value::Null);
    assert_eq!(row["auto_answered_by"], Value::Null);
    let skipped: Vec<&str> = row["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["skipped"].as_str().unwrap())
        .collect();
    assert_eq!(
        skipped,
        [
            "over --memo-up-to 24",
            "needs 1125899906842624 bytes, over the memory budget",
            "over --search-up-to 32"
        ]
    );
}

#[test]
fn bench_dots_free_bad_ranges() {
    for (args, expected) in [
        (
            &["--from", "14", "--to", "8"][..],
            "ply: free edges 14..8 are not a range within the board's 24 edges",
        ),
        (
            &["--from", "8", "--to", "25"][..],
            "ply: free edges 8..25 are not a range within the board's 24 edges",
        ),
        (&["--step", "0"][..], "ply: --step must be at least 1"),
    ] {
        let all = [
            &["bench", "dots-free", "--rows", "3", "--cols", "3"][..],
            args,
        ]
        .concat();
        assert_bad_input(&all, None, expected);
    }
}

#[test]
fn boxes_board_and_whole_tables() {
    let v: Value = serde_json::from_str(&stdout_of(
        &["dots", "boxes", "--rows", "3", "--cols", "3", "--json"],
        None,
    ))
    .unwrap();
    assert_eq!(
        (v["game"].as_str(), v["rows"].as_i64(), v["cols"].as_i64()),
        (Some("boxes"), Some(3), Some(3))
    );
    assert_eq!(v["value"], -3);
    assert_eq!(v["winner"], "B");
    let text = stdout_of(
        &[
            "dots",
            "boxes",
            "--rows",
            "1",
            "--cols",
            "1",
            "--moves",
            "1-2 1-3 2-4",
        ],
        None,
    );
    assert!(
        text.starts_with(
            "Dots and Boxes, 1×1 (1 box)\nPlayed: 1-2 1-3 2-4\n\n1---2\n|   |\n3 . 4\n"
        ),
        "{text}"
    );
    let solved: Value = serde_json::from_str(&stdout_of(
        &["dots", "solve", "triangles", "--size", "3", "--json"],
        None,
    ))
    .unwrap();
    assert_eq!(
        (solved["value"].as_i64(), solved["states"].as_u64()),
        (Some(-3), Some(1 << 18))
    );
    assert_bad_input(
        &["dots", "solve", "boxes", "--rows", "3", "--cols", "3", "--memory", "1M"],
        None,
        "ply: a table of 2^24 states (one byte each) needs 16.0 MiB, over the memory budget of 1.0 MiB; `ply dots --strategy memo` asks its positions one at a time",
    );
    assert_bad_input(
        &["dots", "boxes", "--rows", "5", "--cols", "6"],
        None,
        "ply: a board of 5×6 boxes has 71 edges; boards need at least one box and at most 63 edges",
    );
}

#[test]
fn saved_tables_answer_later_queries_and_bad_files_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("boxes-2x2.plytable");
    let path = file.to_str().unwrap();
    let solved = stdout_of(
        &[
            "dots", "solve", "boxes", "--rows", "2", "--cols", "2", "--save", path,
        ],
        None,
    );
    assert!(
        solved.starts_with("Dots and Boxes, 2×2: value of the empty board +2 for A\n"),
        "{solved}"
    );
    let from_file = stdout_of(
        &[
            "dots", "boxes", "--rows", "2", "--cols", "2", "--moves", "1-2", "--table", path,
            "--json",
        ],
        None,
    );
    let fresh = stdout_of(
        &[
            "dots",
            "boxes",
            "--rows",
            "2",
            "--cols",
            "2",
            "--moves",
            "1-2",
            "--json",
            "--strategy",
            "table",
        ],
        None,
    );
    assert_eq!(from_file, fresh);
    assert_bad_input(
        &["dots", "triangles", "--table", path],
        None,
        &format!(
            "ply: {path} is the table of Dots and Boxes, 2×2, not of Dots and Triangles, size 3"
        ),
    );
    let mut bytes = std::fs::read(&file).unwrap();
    let at = bytes.len() - 30;
    bytes[at] ^= 0x40;
    std::fs::write(&file, &bytes).unwrap();
    assert_bad_input(
        &[
            "dots", "boxes", "--rows", "2", "--cols", "2", "--table", path,
        ],
        None,
        &format!("ply: {path} is corrupt: its checksum does not match"),
    );
    std::fs::write(&file, &bytes[..bytes.len() / 2]).unwrap();
    let line = one_line_failure(&[
        "dots", "boxes", "--rows", "2", "--cols", "2", "--table", path,
    ]);
    assert!(line.contains("is truncated or padded"), "{line}");
}

/// The saved table of the 2×2 box board (12 edges, 4 boxes) in `dir`, and its path.
fn saved_boxes_2x2(dir: &std::path::Path) -> (std::path::PathBuf, Vec<u8>) {
    let file = dir.join("boxes-2x2.plytable");
    stdout_of(
        &[
            "dots",
            "solve",
            "boxes",
            "--rows",
            "2",
            "--cols",
            "2",
            "--save",
            file.to_str().unwrap(),
        ],
        None,
    );
    let bytes = std::fs::read(&file).unwrap();
    (file, bytes)
}

/// `table` (a saved 2×2 boxes table) with every value set to `value` and a valid checksum again.
fn forged(table: &[u8], value: i8) -> Vec<u8> {
    let mut forged = table.to_vec();
    let body = forged.len() - 8;
    forged[body - (1 << 12)..body].fill(value as u8);
    let digest = xxhash_rust::xxh3::xxh3_64(&forged[..body]);
    forged[body..].copy_from_slice(&digest.to_le_bytes());
    forged
}

#[test]
fn forged_tables_with_valid_checksums_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (file, bytes) = saved_boxes_2x2(dir.path());
    let path = file.to_str().unwrap();
    let query = [
        "dots", "boxes", "--rows", "2", "--cols", "2", "--table", path,
    ];
    // 127 points on a board of 4 boxes: refused while loading.
    std::fs::write(&file, forged(&bytes, 0x7f)).unwrap();
    assert_bad_input(
        &query,
        None,
        &format!(
            "ply: {path} holds the value 127, which no position of this board can have (at most 4 \
             either way)"
        ),
    );
    std::fs::write(&file, forged(&bytes, -128)).unwrap();
    assert_bad_input(
        &query,
        None,
        &format!(
            "ply: {path} holds the value -128, which no position of this board can have (at most 4 \
             either way)"
        ),
    );
    // 4 points is possible on the empty board, so the file loads (every move is then worth -4);
    // but after B has taken the first box only 3 are left, and the score is refused rather than
    // computed from it.
    std::fs::write(&file, forged(&bytes, 4)).unwrap();
    let empty = stdout_of(&query, None);
    assert!(
        empty.contains("Result with perfect play: B wins by 4, 0-4 (final margin for A: -4)\n"),
        "{empty}"
    );
    let mut after_a_box = query.to_vec();
    after_a_box.extend(["--moves", "1-2 1-4 2-5 4-5"]);
    assert_bad_input(
        &after_a_box,
        None,
        "ply: the solver gave the value -4 where only 3 points are left to win; its table is corrupt",
    );
    // A genuine table answers that position: B has the box and moves.
    std::fs::write(&file, &bytes).unwrap();
    let genuine = stdout_of(&after_a_box, None);
    assert!(
        genuine.contains("Score: A 0, B 1. B to move.\n"),
        "{genuine}"
    );
}

#[test]
fn directories_are_named_as_directories() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().to_str().unwrap();
    assert_bad_input(
        &["dots", "triangles", "--table", path],
        None,
        &format!("ply: {path} is a directory, not a table file"),
    );
    assert_bad_input(
        &["dots", "solve", "triangles", "--size", "2", "--save", path],
        None,
        &format!("ply: --save: {} is a directory", quote(path)),
    );
    let missing = format!("{path}/missing/t.plytable");
    assert_bad_input(
        &[
            "dots",
            "solve",
            "triangles",
            "--size",
            "2",
            "--save",
            &missing,
        ],
        None,
        &format!(
            "ply: --save: {} is in {}, which does not exist",
            quote(&missing),
            quote(&format!("{path}/missing"))
        ),
    );
    let file = dir.path().join("file");
    std::fs::write(&file, "x").unwrap();
    let under_file = format!("{}/t.plytable", file.display());
    assert_bad_input(
        &[
            "dots",
            "solve",
            "triangles",
            "--size",
            "2",
            "--save",
            &under_file,
        ],
        None,
        &format!(
            "ply: --save: {} is in {}, which is not a directory",
            quote(&under_file),
            quote(&file.display().to_string())
        ),
    );
    assert_eq!(files_in(dir.path()), ["file"], "nothing was left behind");
}

/// The names of the files in `dir`, sorted.
fn files_in(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
}

#[test]
fn saving_touches_no_other_file() {
    let dir = tempfile::tempdir().unwrap();
    // A user's own file with the name older versions wrote their partial table to.
    let theirs = dir.path().join("boxes-2x2.plytable.partial");
    std::fs::write(&theirs, "the user's notes").unwrap();
    let (file, bytes) = saved_boxes_2x2(dir.path());
    assert_eq!(std::fs::read(&theirs).unwrap(), b"the user's notes");
    assert_eq!(
        files_in(dir.path()),
        ["boxes-2x2.plytable", "boxes-2x2.plytable.partial"]
    );
    // 2^12 values, the header and the checksum.
    assert!(bytes.len() > 1 << 12, "{}", bytes.len());
    // Saving again replaces the table and still touches nothing else.
    saved_boxes_2x2(dir.path());
    assert_eq!(std::fs::read(&file).unwrap(), bytes);
    assert_eq!(
        files_in(dir.path()),
        ["boxes-2x2.plytable", "boxes-2x2.plytable.partial"]
    );
}

/// `ply` as a plain process (cache home `cache`) whose files may grow to `bytes` at most
/// (`RLIMIT_FSIZE`, what `ulimit -f` sets), with SIGXFSZ left as it comes: killing the process.
fn ply_with_file_size_limit(cache: &std::path::Path, bytes: u64) -> std::process::Command {
    use std::os::unix::process::CommandExt;
    let mut command = ply_process(cache);
    // SAFETY: the closure runs in the child between fork and exec and only calls `setrlimit`, which
    // is async-signal-safe.
    unsafe {
        command.pre_exec(move || {
            let limit = libc::rlimit {
                rlim_cur: bytes as libc::rlim_t,
                rlim_max: bytes as libc::rlim_t,
            };
            match libc::setrlimit(libc::RLIMIT_FSIZE, &limit) {
                0 => Ok(()),
                _ => Err(std::io::Error::last_os_error()),
            }
        });
    }
    command
}

#[test]
fn a_save_over_the_file_size_limit_fails_and_leaves_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    let file = dir.path().join("t.plytable");
    let path = file.to_str().unwrap();
    std::fs::write(&file, "PLYTABLE: an older table").unwrap();
    // Files may grow to 8 KiB: the table of 2^18 values fails part-way. ply itself ignores SIGXFSZ,
    // so the write reports the error instead of the signal killing the process.
    let output = ply_with_file_size_limit(cache.path(), 8 << 10)
        .args(["dots", "solve", "triangles", "--size", "3", "--save", path])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        format!(
            "ply: --save: cannot write {}: File too large (os error 27)\n",
            quote(path)
        )
    );
    assert_eq!(output.status.code(), Some(2), "{:?}", output.status);
    assert_eq!(output.stdout, b"");
    assert_eq!(files_in(dir.path()), ["t.plytable"]);
    assert_eq!(std::fs::read(&file).unwrap(), b"PLYTABLE: an older table");
}

/// Starts `ply dots solve triangles --size 3 --save FILE` with the test hook that pauses the save
/// after its first chunk, waits for the hook's line and returns the child and the temporary file.
fn paused_save(file: &std::path::Path, cache: &std::path::Path) -> (std::process::Child, String) {
    use std::io::BufRead;
    let mut child = ply_process(cache)
        .env("PLY_TEST_PAUSE_SAVE", "1")
        .args(["dots", "solve", "triangles", "--size", "3", "--save"])
        .arg(file)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = std::io::BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    stderr.read_line(&mut line).unwrap();
    let temp = line
        .trim_end()
        .split_once(" bytes in ")
        .map(|(_, temp)| temp.to_string())
        .unwrap_or_else(|| panic!("the hook's line: {line:?}"));
    assert!(
        line.starts_with("ply: test hook: saving paused after "),
        "{line}"
    );
    child.stderr = Some(stderr.into_inner());
    (child, temp)
}

#[test]
fn interrupted_saves_leave_nothing_behind() {
    let dir = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    let file = dir.path().join("t.plytable");
    std::fs::write(&file, "PLYTABLE: an older table").unwrap();
    for signal in ["-INT", "-TERM"] {
        let (child, temp) = paused_save(&file, cache.path());
        // Mid-save: a temporary file beside the target holds what was written; the target is intact.
        let written = std::fs::metadata(&temp).unwrap().len();
        assert!(written > 0, "{temp}");
        assert!(
            temp.starts_with(&format!("{}/.t.plytable.", dir.path().display()))
                && temp.ends_with(&format!(".{}.partial", child.id())),
            "{temp}"
        );
        let killed = std::process::Command::new("kill")
            .args([signal, &child.id().to_string()])
            .status()
            .unwrap();
        assert!(killed.success());
        let output = child.wait_with_output().unwrap();
        assert_eq!(output.status.code(), Some(130), "{signal}");
        assert_eq!(
            String::from_utf8_lossy(&output.stderr),
            "ply: interrupted\n"
        );
        assert_eq!(output.stdout, b"");
        assert_eq!(files_in(dir.path()), ["t.plytable"], "{signal}");
        assert_eq!(std::fs::read(&file).unwrap(), b"PLYTABLE: an older table");
    }
}

/// Ctrl-C while a save writes or syncs (a slow disk, by the test hook: each step 150 ms more): the
/// step under way ends, none starts after it — no sync at all — and the temporary file goes; the old
/// table stays.
#[test]
fn an_interrupted_save_stops_after_the_step_under_way_and_syncs_nothing() {
    use std::io::BufRead;
    let dir = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    let file = dir.path().join("t.plytable");
    std::fs::write(&file, "PLYTABLE: an older table").unwrap();
    // 3×3 boxes: a table of 2^24 values, 16 chunks of 1 MiB and a sync every 8 MiB.
    let mut child = ply_process(cache.path())
        .env("PLY_TEST_SLOW_SAVE", "150")
        .args([
            "dots", "solve", "boxes", "--rows", "3", "--cols", "3", "--save",
        ])
        .arg(&file)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = std::io::BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    // The header, then the first chunk of values.
    for _ in 0..2 {
        line.clear();
        stderr.read_line(&mut line).unwrap();
        assert!(line.ends_with(" bytes written\n"), "{line}");
    }
    assert!(line.starts_with("ply: test hook: 10"), "{line}");
    let killed = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut stderr, &mut rest).unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130), "{rest}");
    assert!(rest.ends_with("ply: interrupted\n"), "{rest}");
    // The step under way when the handler runs ends; one more may have begun between the signal
    // and the handler's thread waking (a loaded machine); the rest and the syncs never.
    assert!(rest.matches(" bytes written\n").count() <= 2, "{rest}");
    assert!(!rest.contains("synced"), "{rest}");
    assert_eq!(files_in(dir.path()), ["t.plytable"]);
    assert_eq!(std::fs::read(&file).unwrap(), b"PLYTABLE: an older table");
}

#[test]
fn a_killed_save_leaves_a_partial_file_that_the_next_save_removes() {
    let dir = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    let file = dir.path().join("t.plytable");
    let (mut child, temp) = paused_save(&file, cache.path());
    let killed = child.id();
    // SIGKILL: no handler runs, the temporary file stays.
    child.kill().unwrap();
    let status = child.wait().unwrap();
    assert_eq!(
        std::os::unix::process::ExitStatusExt::signal(&status),
        Some(9)
    );
    let partial = std::path::Path::new(&temp)
        .file_name()
        .unwrap()
        .to_str()
        .unwrap()
        .to_string();
    assert_eq!(files_in(dir.path()), std::slice::from_ref(&partial));
    // Beside it: a save of the same target still running (this test's process), another target's
    // partial file, and the user's own files.
    let live = format!(".t.plytable.XyZ789.{}.partial", std::process::id());
    let other = format!(".u.plytable.AbC123.{killed}.partial");
    for name in [&live, &other, &"t.plytable.partial".to_string()] {
        std::fs::write(dir.path().join(name), "half a table").unwrap();
    }
    let solved = stdout_of(
        &[
            "dots",
            "solve",
            "triangles",
            "--size",
            "3",
            "--save",
            file.to_str().unwrap(),
        ],
        None,
    );
    assert!(solved.starts_with("Dots and Triangles"), "{solved}");
    let mut expected = vec![
        live,
        other,
        "t.plytable".to_string(),
        "t.plytable.partial".to_string(),
    ];
    if std::path::Path::new(&format!("/proc/{killed}")).exists() {
        // The killed process's id was taken again meanwhile: its file is rightly kept.
        expected.push(partial);
    }
    expected.sort();
    assert_eq!(files_in(dir.path()), expected);
}

#[test]
fn stale_partial_files_in_the_cache_are_removed() {
    let mut cmd = ply();
    let dir = cmd.cache_home().join("ply");
    std::fs::create_dir_all(&dir).unwrap();
    // A process that has ended, so its id names no process (unless taken again since).
    let mut ended = std::process::Command::new("true").spawn().unwrap();
    let gone = ended.id();
    ended.wait().unwrap();
    let live = std::process::id();
    let stale = format!(".triangles-3.plytable.AbC123.{gone}.partial");
    let writing = format!(".triangles-4.plytable.XyZ789.{live}.partial");
    for name in [&stale, &writing, &"boxes-3x4.partial".to_string()] {
        std::fs::write(dir.join(name), "half a table").unwrap();
    }
    cmd.args(["dots", "triangles", "--strategy", "table"])
        .assert()
        .success()
        .stderr("");
    let mut expected = vec![writing];
    if std::path::Path::new(&format!("/proc/{gone}")).exists() {
        expected.push(stale);
    }
    expected.sort();
    assert_eq!(files_in(&dir), expected);
}

#[test]
fn progress_lines_appear_only_when_asked() {
    let solve = ["dots", "solve", "triangles", "--size", "3"];
    // Unasked: nothing on stderr, however long the solve takes.
    stdout_of(&solve, None);
    let lines = |asked: &mut assert_cmd::Command| {
        let output = asked.assert().success().get_output().clone();
        String::from_utf8(output.stderr).unwrap()
    };
    let line = predicate::str::is_match(
        r"^ply: \d+/262144 states filled \(\d+%\), (about \d+ s left|time left unknown)$",
    )
    .unwrap();
    for asked in [
        lines(ply().arg("--progress").args(solve)),
        lines(ply().args(solve).arg("--progress")),
        lines(ply().env("PLY_PROGRESS", "1").args(solve)),
    ] {
        assert!(!asked.is_empty());
        assert!(asked.lines().all(|l| line.eval(l)), "{asked}");
    }
    assert_eq!(lines(ply().env("PLY_PROGRESS", "0").args(solve)), "");
    let spinner = lines(ply().args(["--progress", "dots", "triangles", "--strategy", "table"]));
    // The first line at once: what is about to be done, with the memory it takes.
    let (first, rest) = spinner.split_once('\n').unwrap();
    assert_eq!(first, "ply: filling the whole table (256.0 KiB)");
    assert!(
        rest.lines()
            .all(|l| l.starts_with("ply: ") && l.ends_with(" states filled")),
        "{spinner}"
    );
    let search = lines(
        ply()
            .args(["--progress", "dots", "boxes", "--rows", "4", "--cols", "4"])
            .args([
                "--moves",
                "1-2 2-7 6-7 1-6",
                "--time",
                "1s",
                "--memory",
                "64M",
            ]),
    );
    assert_eq!(
        search.lines().next(),
        Some("ply: allocating the search table (64.0 MiB), then searching, for at most 1 s"),
        "{search}"
    );
}

/// A saved table of 2×4 boxes (22 edges: 4 MiB of values, four chunks of reading) in `dir`.
fn saved_boxes_2x4(dir: &std::path::Path) -> std::path::PathBuf {
    let file = dir.join("boxes-2x4.plytable");
    stdout_of(
        &[
            "dots",
            "solve",
            "boxes",
            "--rows",
            "2",
            "--cols",
            "4",
            "--save",
            file.to_str().unwrap(),
        ],
        None,
    );
    file
}

/// `ply dots boxes --rows 2 --cols 4 --table FILE` paused by the test hook after reading the first
/// 1 MiB of values; `meddle` then does something to the file and the query goes on. Returns the
/// exit status, stdout, and stderr after the hook's line.
fn query_while(table: &std::path::Path, meddle: impl FnOnce()) -> (Option<i32>, String, String) {
    use std::io::{BufRead, Read, Write};
    use std::process::Stdio;
    let cache = tempfile::tempdir().unwrap();
    let mut child = ply_process(cache.path())
        .env("PLY_TEST_PAUSE_TABLE", "1")
        .args(["dots", "boxes", "--rows", "2", "--cols", "4", "--table"])
        .arg(table)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = std::io::BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    stderr.read_line(&mut line).unwrap();
    assert_eq!(
        line,
        format!(
            "ply: test hook: reading paused after 1048576 bytes of {}\n",
            table.display()
        )
    );
    meddle();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"\n").unwrap();
    drop(stdin);
    let mut rest = String::new();
    stderr.read_to_string(&mut rest).unwrap();
    let output = child.wait_with_output().unwrap();
    (
        output.status.code(),
        String::from_utf8(output.stdout).unwrap(),
        rest,
    )
}

#[test]
fn a_table_file_changed_while_it_is_read_is_refused_never_a_signal() {
    let dir = tempfile::tempdir().unwrap();
    let file = saved_boxes_2x4(dir.path());
    let path = file.to_str().unwrap();
    let whole = std::fs::read(&file).unwrap();
    let copy = dir.path().join("copy.plytable");
    std::fs::write(&copy, &whole).unwrap();
    let changed = format!(
        "ply: the table file {path} changed while it was read; replace a table by renaming a new \
         file over it, never by writing into it\n"
    );
    let refused = (Some(2), String::new(), changed);
    // Truncated mid-read: once a memory-mapped table died of SIGBUS here (exit 135, no message).
    let truncated = query_while(&file, || {
        let out = std::fs::OpenOptions::new().write(true).open(&file).unwrap();
        out.set_len(whole.len() as u64 / 2).unwrap();
    });
    assert_eq!(truncated, refused);
    std::fs::write(&file, &whole).unwrap();
    // Written over in place by `cp` (truncated, then written again, here with the very same bytes):
    // what was read may be two tables' halves, so nothing of it is used. The pause puts the write on
    // another tick of the file system's clock than the read's start.
    let overwritten = query_while(&file, || {
        std::thread::sleep(std::time::Duration::from_millis(30));
        let cp = std::process::Command::new("cp")
            .arg(&copy)
            .arg(&file)
            .status()
            .unwrap();
        assert!(cp.success());
    });
    assert_eq!(overwritten, refused);
    assert_eq!(std::fs::read(&file).unwrap(), whole);
    // Replaced by renaming a new file over it (what `--save` does): the read goes on in the old
    // file, whole, and the answer is the table's.
    let fresh = stdout_of(
        &[
            "dots",
            "boxes",
            "--rows",
            "2",
            "--cols",
            "4",
            "--strategy",
            "table",
        ],
        None,
    );
    let renamed = query_while(&file, || {
        let new = dir.path().join("new.plytable");
        std::fs::write(&new, b"not even a table").unwrap();
        std::fs::rename(&new, &file).unwrap();
    });
    assert_eq!(renamed, (Some(0), fresh, String::new()));
    // And a table read whole is the process's own: the query above answered from it although the
    // file now holds something else.
    assert_eq!(std::fs::read(&file).unwrap(), b"not even a table");
}

#[test]
fn a_table_over_the_memory_budget_is_refused_before_it_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let (file, _) = saved_boxes_2x2(dir.path());
    let path = file.to_str().unwrap();
    assert_bad_input(
        &[
            "dots", "boxes", "--rows", "2", "--cols", "2", "--table", path, "--memory", "1K",
        ],
        None,
        &format!(
            "ply: the table in `{path}` (2^12 states, one byte each) needs 4.0 KiB (4096 bytes) but \
             the memory budget is 1.0 KiB (1024 bytes); try a larger --memory"
        ),
    );
}

#[test]
fn dots_bounds_as_wide_as_the_cells_left_are_not_shown_as_a_result() {
    // The empty 4×4 board in 0.1 s, no book: nothing proved. The text says so; the JSON keeps the
    // bounds.
    let args = [
        "dots",
        "boxes",
        "--rows",
        "4",
        "--cols",
        "4",
        "--time",
        "100ms",
        "--no-book",
    ];
    let out = stdout_of(&args, None);
    assert!(out.contains(
        "Score: A 0, B 0. A to move.\nValue for A: not proved yet (the time limit of 0.1 s was \
         reached; by search)\nResult with perfect play: not proved yet\n"
    ));
    assert!(out.contains(
        "\n     1-2  not proved yet\n     1-6  not proved yet  (symmetric to 1-2)\n     2-3  not \
         proved yet\n"
    ));
    assert!(!out.contains("16.."), "{out}");
    let json: Value =
        serde_json::from_str(&stdout_of(&[&args[..], &["--json"]].concat(), None)).unwrap();
    assert_eq!(
        (&json["lower"], &json["upper"]),
        (&(-16).into(), &16.into())
    );
    assert_eq!(json["moves"][0]["lower"], -16);
}

/// SIGTERM stops ply at once even when its stderr is a closed pipe (`ply … 2>&1 | head -1`): the
/// handler's message cannot be written, and it exits all the same (it used to panic there and leave
/// the process searching for an hour).
#[test]
fn a_signal_stops_ply_when_its_stderr_is_a_closed_pipe() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("b.plybook");
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("ply"))
        .args(["--progress", "dots", "book", "build"])
        .arg(&book)
        .args([
            "boxes", "--rows", "4", "--cols", "4", "--depth", "1", "--memory", "1G",
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // The first progress line comes, then nobody reads stderr any more.
    let mut stderr = child.stderr.take().unwrap();
    let mut first = [0u8; 4];
    std::io::Read::read_exact(&mut stderr, &mut first).unwrap();
    assert_eq!(&first, b"ply:");
    drop(stderr);
    // Progress lines go on coming meanwhile, into the closed pipe: dropped, never a panic.
    std::thread::sleep(std::time::Duration::from_millis(2500));
    assert!(
        child.try_wait().unwrap().is_none(),
        "ply ended before the signal"
    );
    let killed = std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let started = std::time::Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            assert_eq!(status.code(), Some(130));
            break;
        }
        // A 4×4 first move searches for many minutes: still running after 60 s is the old fault.
        assert!(
            started.elapsed().as_secs() < 60,
            "ply still running after SIGTERM"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}
