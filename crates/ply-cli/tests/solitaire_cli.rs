//! End-to-end tests of `ply solitaire` (Number Solitaire, issue 3): exact stdout, exit status and
//! stderr of the `ply` binary, its answers checked against the library's (whose solver is proved
//! against the reference in `crates/plysolve/tests/solitaire.rs`).

use crate::common;
use common::*;
use plysolve::engine::util::halt::NEVER;
use plysolve::games::solitaire::{solve, PathMode, SolitaireQuery, SolitaireReport};
use serde_json::{json, Value};

/// The seed's board.
const SEED: [&str; 6] = ["1", "-2", "0", "9", "-1", "-2"];

/// The seed's answer in text form.
const SEED_TEXT: &str = "8\npath: 0 -> 3 -> 5\nthrows: 3, 2\n";

/// The seed's answer as JSON.
const SEED_JSON: &str = r#"{"best":8,"path":[0,3,5],"throws":[3,2],"die":6,"n":6}"#;

/// The line `--expected` adds for the seed's board.
const SEED_EXPECTED_LINE: &str =
    "expected result with a fair 6-sided die (overshooting throws thrown again): 11/10 = 1.1\n";

/// Squares on the big board: over the 1 000 000 squares whose path is kept by default.
const BIG_N: usize = 1_200_000;

/// `ply solitaire <args>`, asserted successful; its stdout.
fn solitaire(args: &[&str]) -> String {
    let mut all = vec!["solitaire"];
    all.extend_from_slice(args);
    stdout_of(&all, None)
}

/// `ply solitaire <args> --json`, asserted to be one JSON object on one line, parsed.
fn solitaire_json(args: &[&str]) -> Value {
    let mut all = args.to_vec();
    all.push("--json");
    parse_json(&solitaire(&all))
}

/// `ply solitaire <args>` must fail with `expected`.
fn assert_bad_solitaire(args: &[&str], expected: &str) {
    let mut all = vec!["solitaire"];
    all.extend_from_slice(args);
    assert_bad_input(&all, None, expected);
}

/// The seed's board followed by `extra` arguments.
fn seed_with(extra: &[&'static str]) -> Vec<&'static str> {
    let mut args = SEED.to_vec();
    args.extend_from_slice(extra);
    args
}

/// The numbers 1..=n as arguments.
fn counting(n: u64) -> Vec<String> {
    (1..=n).map(|i| i.to_string()).collect()
}

/// The library's answer for `values` with a die of `die` (the best result alone when `path` is
/// false): what the CLI must say (the solver itself is proved against the reference in the
/// library's tests).
fn library(values: &[i64], die: u64, path: bool) -> SolitaireReport {
    let text: Vec<String> = values.iter().map(i64::to_string).collect();
    let path = if path {
        PathMode::Always
    } else {
        PathMode::Never
    };
    solve(
        text.join(" ").as_bytes(),
        SolitaireQuery::best(die, path),
        &NEVER,
    )
    .expect("the library solves it")
}

/// A deterministic board of `n` values in -10 000..=10 000 (a 64-bit LCG).
fn pseudo_random_board(n: usize, seed: u64) -> Vec<i64> {
    let mut x = seed;
    (0..n)
        .map(|_| {
            x = x
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            ((x >> 33) % 20_001) as i64 - 10_000
        })
        .collect()
}

/// The big board written one value a line.
fn big_board_file(name: &str) -> (Vec<i64>, TempFile) {
    let values = pseudo_random_board(BIG_N, 12_345);
    let mut text = String::with_capacity(BIG_N * 7);
    for v in &values {
        text.push_str(&v.to_string());
        text.push('\n');
    }
    let file = TempFile::new(name, text.as_bytes());
    (values, file)
}

// ---------------------------------------------------------------------------------------------
// The seed's board, every way of giving it.
// ---------------------------------------------------------------------------------------------

#[test]
fn seed_board_as_arguments() {
    assert_eq!(solitaire(&SEED), SEED_TEXT);
}

#[test]
fn seed_board_as_one_comma_separated_argument() {
    assert_eq!(solitaire(&["1,-2,0,9,-1,-2"]), SEED_TEXT);
}

#[test]
fn seed_board_with_commas_and_spaces_mixed_in_the_arguments() {
    assert_eq!(solitaire(&["1,-2", "0", "9,-1", "-2"]), SEED_TEXT);
    assert_eq!(solitaire(&["1,-2,0", "9,-1,-2"]), SEED_TEXT);
    assert_eq!(solitaire(&["1,", "-2", ",0,", "9", "-1", ",-2"]), SEED_TEXT);
    assert_eq!(solitaire(&["1 -2,0", "9 -1,-2"]), SEED_TEXT);
}

#[test]
fn comma_separated_argument_starting_with_a_minus() {
    // The issue allows comma-separated arguments; a board whose first value is negative must work.
    assert_eq!(
        solitaire(&["-3,-4,-3,2,-7,-1"]),
        "-2\npath: 0 -> 3 -> 5\nthrows: 3, 2\n"
    );
    assert_eq!(solitaire(&["1,-2,0", "9", "-1,-2"]), SEED_TEXT);
    assert_eq!(solitaire(&["1,", "-2,", "0", "9", "-1", "-2"]), SEED_TEXT);
    assert_eq!(solitaire(&["1", "-2 0", "9", "-1 -2"]), SEED_TEXT);
}

#[test]
fn seed_board_from_a_file_with_mixed_separators() {
    let file = TempFile::new("seed.txt", b"1\t-2,\n0 , 9\r\n\n-1,\n-2\n");
    assert_eq!(solitaire(&["--input", file.arg()]), SEED_TEXT);
    assert!(file.path().exists());
}

#[test]
fn seed_board_from_a_file_without_a_final_newline() {
    let file = TempFile::new("seed-no-newline.txt", b"1,-2,0,9,-1,-2");
    assert_eq!(solitaire(&["--input", file.arg()]), SEED_TEXT);
}

#[test]
fn seed_board_from_stdin_with_mixed_separators() {
    assert_eq!(
        stdout_of(
            &["solitaire", "--input", "-"],
            Some("  1,\t-2\n0\t\t9,-1\n\n,-2\n")
        ),
        SEED_TEXT
    );
    assert_eq!(
        stdout_of(&["solitaire", "--input", "-"], Some("1 -2 0 9 -1 -2")),
        SEED_TEXT
    );
}

#[test]
fn temp_files_are_removed_when_dropped() {
    let path = {
        let file = TempFile::new("dropped.txt", b"1 2");
        assert_eq!(
            solitaire(&["--input", file.arg()]),
            "3\npath: 0 -> 1\nthrows: 1\n"
        );
        file.path().to_path_buf()
    };
    assert!(!path.exists(), "{} is left behind", path.display());
}

// ---------------------------------------------------------------------------------------------
// Known values (issue 3).
// ---------------------------------------------------------------------------------------------

#[test]
fn two_squares() {
    assert_eq!(solitaire(&["1", "-2"]), "-1\npath: 0 -> 1\nthrows: 1\n");
}

#[test]
fn three_squares() {
    // 1 + 1 - 2 = 0 beats 1 - 2 = -1, though it takes one throw more.
    assert_eq!(
        solitaire(&["1", "1", "-2"]),
        "0\npath: 0 -> 1 -> 2\nthrows: 1, 1\n"
    );
}

#[test]
fn all_but_one_negative() {
    // -3 + 2 - 1.
    assert_eq!(
        solitaire(&["-3", "-4", "-3", "2", "-7", "-1"]),
        "-2\npath: 0 -> 3 -> 5\nthrows: 3, 2\n"
    );
}

#[test]
fn twelve_squares() {
    // 1 + 9 + 3 + 4 + 6 = 23.
    assert_eq!(
        solitaire(&["1", "-2", "0", "9", "-1", "-2", "3", "0", "-1", "4", "-4", "6"]),
        "23\npath: 0 -> 3 -> 6 -> 9 -> 11\nthrows: 3, 3, 3, 2\n"
    );
}

#[test]
fn two_sided_die() {
    // LeetCode 1696, k = 2: 1 - 1 + 4 + 3 = 7.
    assert_eq!(
        solitaire(&["--die", "2", "1", "-1", "-2", "4", "-7", "3"]),
        "7\npath: 0 -> 1 -> 3 -> 5\nthrows: 1, 2, 2\n"
    );
}

#[test]
fn three_sided_die() {
    // LeetCode 1696, k = 3: 10 + 4 + 3 = 17.
    assert_eq!(
        solitaire(&["--die", "3", "10", "-5", "-2", "4", "0", "3"]),
        "17\npath: 0 -> 3 -> 5\nthrows: 3, 2\n"
    );
    assert_eq!(
        solitaire_json(&["--die", "3", "10,-5,-2", "4", "0", "3"]),
        json!({"best": 17, "path": [0, 3, 5], "throws": [3, 2], "die": 3, "n": 6})
    );
}

#[test]
fn one_square_needs_no_throw() {
    assert_eq!(solitaire(&["5"]), "5\npath: 0\nthrows: none\n");
    assert_eq!(
        solitaire_json(&["5"]),
        json!({"best": 5, "path": [0], "throws": [], "die": 6, "n": 1})
    );
}

#[test]
fn one_square_expected_is_its_value() {
    assert_eq!(
        solitaire(&["-5", "--expected"]),
        "-5\npath: 0\nthrows: none\n\
         expected result with a fair 6-sided die (overshooting throws thrown again): -5\n"
    );
}

#[test]
fn die_with_one_face_visits_every_square() {
    assert_eq!(
        solitaire(&["--die", "1", "1", "-2", "0", "9", "-1", "-2"]),
        "5\npath: 0 -> 1 -> 2 -> 3 -> 4 -> 5\nthrows: 1, 1, 1, 1, 1\n"
    );
}

#[test]
fn die_with_a_million_faces_jumps_straight_to_the_end() {
    assert_eq!(
        solitaire(&["--die", "1000000", "1", "-2", "-3", "-4", "-5", "7"]),
        "8\npath: 0 -> 5\nthrows: 5\n"
    );
}

#[test]
fn extreme_values_do_not_overflow() {
    // The sum of two i64::MAX is beyond i64: the answer is still exact.
    assert_eq!(
        solitaire(&["9223372036854775807", "9223372036854775807"]),
        "18446744073709551614\npath: 0 -> 1\nthrows: 1\n"
    );
    assert_eq!(
        solitaire(&["--die", "1", "-9223372036854775808", "-9223372036854775808"]),
        "-18446744073709551616\npath: 0 -> 1\nthrows: 1\n"
    );
}

#[test]
fn small_random_boards_agree_with_the_library() {
    for (n, die, seed) in [
        (2, 1, 1),
        (7, 2, 2),
        (10, 3, 3),
        (10, 4, 4),
        (25, 6, 5),
        (40, 6, 6),
        (60, 5, 7),
    ] {
        let values = pseudo_random_board(n, seed);
        let text: Vec<String> = values.iter().map(i64::to_string).collect();
        let die_text = die.to_string();
        let mut args = vec!["--die", die_text.as_str()];
        args.extend(text.iter().map(String::as_str));
        let expected = serde_json::to_value(library(&values, die, true)).unwrap();
        assert_eq!(
            solitaire_json(&args),
            expected,
            "board {values:?}, die {die}"
        );
        assert_eq!(expected["n"], json!(n));
    }
}

// ---------------------------------------------------------------------------------------------
// JSON.
// ---------------------------------------------------------------------------------------------

#[test]
fn seed_json_exactly() {
    assert_eq!(solitaire(&seed_with(&["--json"])), format!("{SEED_JSON}\n"));
}

#[test]
fn seed_json_with_expected_exactly() {
    assert_eq!(
        solitaire(&seed_with(&["--json", "--expected"])),
        "{\"best\":8,\"path\":[0,3,5],\"throws\":[3,2],\"die\":6,\"n\":6,\
         \"expected\":1.1,\"expected_exact\":\"11/10\"}\n"
    );
}

#[test]
fn seed_json_without_path_exactly() {
    assert_eq!(
        solitaire(&seed_with(&["--no-path", "--json"])),
        "{\"best\":8,\"path\":null,\"throws\":null,\"die\":6,\"n\":6}\n"
    );
    let v = solitaire_json(&seed_with(&["--no-path"]));
    assert_eq!(v["path"], Value::Null);
    assert_eq!(v["throws"], Value::Null);
    assert_eq!(v["best"], json!(8));
}

#[test]
fn seed_json_with_distribution() {
    let v = solitaire_json(&seed_with(&["--distribution"]));
    assert_eq!(v["expected_exact"], json!("11/10"));
    assert_eq!(v["expected"], json!(1.1));
    let rows: Vec<(i64, String)> = v["distribution"]
        .as_array()
        .expect("a distribution")
        .iter()
        .map(|row| {
            (
                row["result"].as_i64().expect("an integer result"),
                row["probability"].as_str().expect("a fraction").to_string(),
            )
        })
        .collect();
    let expected: Vec<(i64, String)> = [
        (-4, "1/15"),
        (-3, "1/15"),
        (-2, "4/15"),
        (-1, "4/15"),
        (5, "1/30"),
        (6, "1/30"),
        (7, "2/15"),
        (8, "2/15"),
    ]
    .iter()
    .map(|&(r, p)| (r, p.to_string()))
    .collect();
    assert_eq!(rows, expected);
    let p_total: f64 = v["distribution"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| row["p"].as_f64().expect("a float"))
        .sum();
    assert!(
        (p_total - 1.0).abs() < 1e-12,
        "probabilities sum to {p_total}"
    );
}

#[test]
fn seed_json_with_explain() {
    let v = solitaire_json(&seed_with(&["--explain"]));
    assert_eq!(
        v["explain"],
        json!([
            {"square": 0, "value": 1, "best": 1, "from": null},
            {"square": 1, "value": -2, "best": -1, "from": 0},
            {"square": 2, "value": 0, "best": 1, "from": 0},
            {"square": 3, "value": 9, "best": 10, "from": 0},
            {"square": 4, "value": -1, "best": 9, "from": 3},
            {"square": 5, "value": -2, "best": 8, "from": 3}
        ])
    );
}

// ---------------------------------------------------------------------------------------------
// --expected, --distribution, --explain in text.
// ---------------------------------------------------------------------------------------------

#[test]
fn seed_expected_line() {
    // By hand: from square i a fair throw lands uniformly on i+1..=5, which gives 11/10.
    assert_eq!(
        solitaire(&seed_with(&["--expected"])),
        format!("{SEED_TEXT}{SEED_EXPECTED_LINE}")
    );
}

#[test]
fn seed_expected_without_path() {
    assert_eq!(
        solitaire(&seed_with(&["--expected", "--no-path"])),
        format!("8\n{SEED_EXPECTED_LINE}")
    );
}

#[test]
fn seed_distribution_table() {
    // By hand (results after square 0's 1): -4 1/15, -3 1/15, -2 4/15, -1 4/15, 5 1/30, 6 1/30,
    // 7 2/15, 8 2/15; they sum to 1 and their mean is 33/30 = 11/10.
    let expected = format!(
        "{SEED_TEXT}{SEED_EXPECTED_LINE}\n\
         \x20     result  probability              as decimal\n\
         \x20         -4  1/15                     0.066667\n\
         \x20         -3  1/15                     0.066667\n\
         \x20         -2  4/15                     0.266667\n\
         \x20         -1  4/15                     0.266667\n\
         \x20          5  1/30                     0.033333\n\
         \x20          6  1/30                     0.033333\n\
         \x20          7  2/15                     0.133333\n\
         \x20          8  2/15                     0.133333\n"
    );
    assert_eq!(solitaire(&seed_with(&["--distribution"])), expected);
}

#[test]
fn seed_explain_table() {
    // The seed's table: best[3] = 1 + 9 comes from square 0 (square 2 ties at 1, in one more throw).
    let expected = format!(
        "{SEED_TEXT}\n\
         square    value       best   from\n\
         \x20    0        1          1      -\n\
         \x20    1       -2         -1      0\n\
         \x20    2        0          1      0\n\
         \x20    3        9         10      0\n\
         \x20    4       -1          9      3\n\
         \x20    5       -2          8      3\n"
    );
    assert_eq!(solitaire(&seed_with(&["--explain"])), expected);
}

#[test]
fn explain_and_distribution_at_their_limits() {
    // 40 squares explained, 60 squares distributed: both accepted.
    let forty = counting(40);
    let mut args: Vec<&str> = forty.iter().map(String::as_str).collect();
    args.extend(["--explain", "--no-path"]);
    let text = solitaire(&args);
    let lines: Vec<&str> = text.lines().collect();
    // Best 820 (every square), a blank line, the header and 40 rows.
    assert_eq!(lines.len(), 43, "{text}");
    assert_eq!(lines[0], "820");
    assert_eq!(lines[42], "    39       40        820     38");

    let sixty = counting(60);
    let mut args: Vec<&str> = sixty.iter().map(String::as_str).collect();
    args.extend(["--die", "1", "--distribution", "--no-path"]);
    assert_eq!(
        solitaire(&args),
        "1830\n\
         expected result with a fair 1-sided die (overshooting throws thrown again): 1830\n\
         \n      result  probability              as decimal\n\
         \x20       1830  1                        1.000000\n"
    );
}

// ---------------------------------------------------------------------------------------------
// A board over the path limit.
// ---------------------------------------------------------------------------------------------

#[test]
fn big_board_default_gives_best_without_path() {
    let (values, file) = big_board_file("big-default.txt");
    let best = library(&values, 6, false).best;
    assert_eq!(
        solitaire(&["--input", file.arg()]),
        format!("{best}\npath: not kept for 1200000 squares (over 1000000); use --path\n")
    );
}

#[test]
fn big_board_no_path_gives_best_alone() {
    let (values, file) = big_board_file("big-no-path.txt");
    let best = library(&values, 6, false).best;
    assert_eq!(
        solitaire(&["--input", file.arg(), "--no-path"]),
        format!("{best}\n")
    );
    assert_eq!(
        solitaire_json(&["--input", file.arg(), "--no-path"]),
        json!({"best": best, "path": null, "throws": null, "die": 6, "n": BIG_N})
    );
}

#[test]
fn big_board_path_on_request() {
    let (values, file) = big_board_file("big-path.txt");
    let answer = library(&values, 6, true);
    let text = solitaire(&["--input", file.arg(), "--path"]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "best, path and throws");
    assert_eq!(lines[0], answer.best.to_string());
    let path: Vec<String> = answer.path.unwrap().iter().map(u64::to_string).collect();
    assert_eq!(lines[1], format!("path: {}", path.join(" -> ")));
    assert!(lines[1].ends_with(" -> 1199999"));
    let throws: Vec<String> = answer.throws.unwrap().iter().map(u64::to_string).collect();
    assert_eq!(lines[2], format!("throws: {}", throws.join(", ")));
}

// ---------------------------------------------------------------------------------------------
// Reading: tokens across the 1 MiB read buffer.
// ---------------------------------------------------------------------------------------------

/// A file of `zeros` zeros, then `-0…05` written with 98 leading zeros (100 characters), then 1.
fn zero_padded_token_file(name: &str, zeros: usize) -> TempFile {
    let mut text = "0 ".repeat(zeros);
    text.push('-');
    text.push_str(&"0".repeat(98));
    text.push_str("5 1\n");
    TempFile::new(name, text.as_bytes())
}

#[test]
fn long_zero_padded_token_inside_the_buffer() {
    // The token starts 300 bytes before the 1 MiB mark and ends before it.
    let zeros = ((1 << 20) - 300) / 2;
    let file = zero_padded_token_file("padded-inside.txt", zeros);
    assert_eq!(
        solitaire_json(&["--input", file.arg(), "--die", "1", "--no-path"]),
        json!({"best": -4, "path": null, "throws": null, "die": 1, "n": zeros + 2})
    );
}

#[test]
fn long_zero_padded_token_across_the_buffer() {
    // The same token starting 80 bytes before the 1 MiB mark, so 80 of its 100 characters are in
    // the first read: the answer must not depend on where the reads fall.
    let zeros = ((1 << 20) - 80) / 2;
    let file = zero_padded_token_file("padded-across.txt", zeros);
    assert_eq!(
        solitaire_json(&["--input", file.arg(), "--die", "1", "--no-path"]),
        json!({"best": -4, "path": null, "throws": null, "die": 1, "n": zeros + 2})
    );
}

// ---------------------------------------------------------------------------------------------
// Bad input: exit 2, nothing on stdout, one line on stderr.
// ---------------------------------------------------------------------------------------------

#[test]
fn bad_token_in_the_arguments() {
    assert_bad_solitaire(
        &["1", "x", "3"],
        "ply: token 2 (line 1) `x` is not an integer",
    );
    assert_bad_solitaire(&["1.5"], "ply: token 1 (line 1) `1.5` is not an integer");
    assert_bad_solitaire(
        &["1,-2", "0,9x"],
        "ply: token 4 (line 1) `9x` is not an integer",
    );
}

#[test]
fn value_beyond_i64() {
    assert_bad_solitaire(
        &["9223372036854775808"],
        "ply: token 1 (line 1) `9223372036854775808` is outside the 64-bit integer range",
    );
    assert_bad_solitaire(
        &["1", "-9223372036854775809"],
        "ply: token 2 (line 1) `-9223372036854775809` is outside the 64-bit integer range",
    );
}

#[test]
fn bad_token_on_line_three_of_a_file() {
    let file = TempFile::new("bad-line-3.txt", b"1 2\n3,4\n5 x7 6\n");
    assert_bad_solitaire(
        &["--input", file.arg()],
        "ply: token 6 (line 3) `x7` is not an integer",
    );
}

#[test]
fn bad_token_on_line_three_of_stdin() {
    assert_bad_input(
        &["solitaire", "--input", "-"],
        Some("1\r\n\n2,3 4.0\n"),
        "ply: token 4 (line 3) `4.0` is not an integer",
    );
}

#[test]
fn empty_file() {
    let file = TempFile::new("empty.txt", b"");
    assert_bad_solitaire(
        &["--input", file.arg()],
        "ply: the board is empty: give at least one number",
    );
}

#[test]
fn only_separators_in_a_file() {
    let file = TempFile::new("commas.txt", b" ,\n,, \t\n");
    assert_bad_solitaire(&["--input", file.arg()], "ply: token 1 (line 1) is empty");
    let file = TempFile::new("blank.txt", b" \n \t\n");
    assert_bad_solitaire(
        &["--input", file.arg()],
        "ply: the board is empty: give at least one number",
    );
}

#[test]
fn only_whitespace_on_stdin() {
    assert_bad_input(
        &["solitaire", "--input", "-"],
        Some(" \n\t \r\n  "),
        "ply: the board is empty: give at least one number",
    );
    assert_bad_input(
        &["solitaire", "--input", "-"],
        Some(""),
        "ply: the board is empty: give at least one number",
    );
}

#[test]
fn no_values_and_no_input() {
    assert_bad_solitaire(
        &[],
        "ply: no board: give the numbers as arguments or with --input FILE",
    );
    assert_bad_solitaire(
        &["--die", "3"],
        "ply: no board: give the numbers as arguments or with --input FILE",
    );
}

#[test]
fn die_with_no_faces() {
    assert_bad_solitaire(
        &["--die", "0", "1", "2"],
        "ply: the die must have 1 to 1000000 faces, not 0",
    );
}

#[test]
fn die_with_too_many_faces() {
    assert_bad_solitaire(
        &["--die", "1000001", "1", "2"],
        "ply: the die must have 1 to 1000000 faces, not 1000001",
    );
}

#[test]
fn die_with_negative_faces() {
    assert_bad_solitaire(
        &["--die", "-3", "1", "2"],
        "ply: --die: `-3` must not be negative",
    );
    assert_bad_solitaire(
        &["--die=-3", "1", "2"],
        "ply: --die: `-3` must not be negative",
    );
}

#[test]
fn explain_on_41_squares() {
    let values = counting(41);
    let mut args: Vec<&str> = values.iter().map(String::as_str).collect();
    args.push("--explain");
    assert_bad_solitaire(
        &args,
        "ply: --explain is for boards of at most 40 squares; this one has 41",
    );
}

#[test]
fn distribution_on_61_squares() {
    let values = counting(61);
    let mut args: Vec<&str> = values.iter().map(String::as_str).collect();
    args.push("--distribution");
    assert_bad_solitaire(
        &args,
        "ply: --distribution is for boards of at most 60 squares; this one has 61",
    );
}

#[test]
fn values_and_input_together() {
    let file = TempFile::new("both.txt", b"1 2 3\n");
    assert_bad_solitaire(
        &["1", "2", "--input", file.arg()],
        "ply: the argument '[VALUES]...' cannot be used with '--input <FILE>'",
    );
    assert_bad_solitaire(
        &["--input", file.arg(), "1", "2"],
        "ply: the argument '--input <FILE>' cannot be used with '[VALUES]...'",
    );
}

#[test]
fn no_path_and_path_together() {
    assert_bad_solitaire(
        &["--no-path", "--path", "1", "2"],
        "ply: the argument '--no-path' cannot be used with '--path'",
    );
    assert_bad_solitaire(
        &["--path", "--no-path", "1", "2"],
        "ply: the argument '--path' cannot be used with '--no-path'",
    );
}

#[test]
fn missing_input_file() {
    let path = unique_path("missing.txt");
    assert!(!path.exists());
    let arg = path.to_str().expect("the temp path is UTF-8");
    assert_bad_solitaire(
        &["--input", arg],
        &format!("ply: cannot read {arg}: No such file or directory (os error 2)"),
    );
}
