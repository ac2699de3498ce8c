//! End-to-end tests of `ply heaps` (lowest-heap Nim, issue 4): exact stdout, exit status and stderr
//! of the `ply` binary for known cases, the flags, the batch format read from a file or stdin, and the
//! messages for bad input. Who wins, the winning move, the remoteness and the Grundy value are proved
//! once, against a brute force, in the library's tests (`crates/plysolve/tests/heaps.rs`).

use crate::common;
use common::*;

/// The Codeforces 1382B sample input.
const CF_SAMPLE: &str = "7\n3\n2 5 4\n8\n1 1 1 1 1 1 1 1\n6\n1 2 3 4 5 6\n6\n1 1 2 1 2 2\n1\n1000000000\n5\n1 2 2 1 1\n3\n1 1 1\n";

/// The Codeforces 1382B sample output.
const CF_SAMPLE_OUT: &str = "First\nSecond\nSecond\nFirst\nFirst\nSecond\nFirst\n";

/// The tail of every remoteness line.
const HURRIES: &str = "(the winner hurries, the loser delays)";

/// The line `--grundy` prints under misère play.
const NO_GRUNDY: &str = "grundy value: none under misère play (only normal-play values add up)\n";

/// `ply heaps <args>`, asserted successful; its stdout.
fn heaps(args: &[&str]) -> String {
    let mut all = vec!["heaps"];
    all.extend_from_slice(args);
    stdout_of(&all, None)
}

/// `ply heaps --batch <extra>` with `stdin`, asserted successful; its stdout.
fn batch_stdin(extra: &[&str], stdin: &str) -> String {
    let mut all = vec!["heaps", "--batch"];
    all.extend_from_slice(extra);
    stdout_of(&all, Some(stdin))
}

/// `ply heaps <args>` must fail with `expected`.
fn assert_bad_heaps(args: &[&str], expected: &str) {
    let mut all = vec!["heaps"];
    all.extend_from_slice(args);
    assert_bad_input(&all, None, expected);
}

/// `ply heaps --batch` reading `input` must fail with `expected`, whether the input comes from stdin
/// (`--batch` and `--batch -`) or from a file.
fn assert_bad_batch(input: &str, expected: &str) {
    assert_bad_input(&["heaps", "--batch"], Some(input), expected);
    assert_bad_input(&["heaps", "--batch", "-"], Some(input), expected);
    let file = TempFile::new("bad-batch.txt", input.as_bytes());
    assert_bad_input(&["heaps", "--batch", file.arg()], None, expected);
}

/// The stderr of `ply heaps --batch` refusing `input` (exit 2, nothing on stdout), for faults whose
/// line ends with a figure of the machine.
fn batch_failure(input: &str) -> String {
    let output = ply()
        .args(["heaps", "--batch"])
        .write_stdin(input)
        .assert()
        .failure()
        .code(2)
        .stdout("")
        .get_output()
        .clone();
    String::from_utf8(output.stderr).expect("stderr is UTF-8")
}

/// The remoteness line for `r` moves.
fn remoteness_line(r: u64) -> String {
    let moves = if r == 1 { "move" } else { "moves" };
    format!("remoteness: {r} {moves} {HURRIES}\n")
}

// ---------------------------------------------------------------------------------------------
// Text answers: the seed's examples.
// ---------------------------------------------------------------------------------------------

/// The seed's examples: the sizes as one comma-separated argument, and the exact text answer under
/// normal play.
const SEED_EXAMPLES: [(&str, &str); 8] = [
    (
        "1,2,2,2,1",
        "second player wins\nremoteness: 8 moves (the winner hurries, the loser delays)\n",
    ),
    (
        "1,2,3,1,2",
        "second player wins\nremoteness: 6 moves (the winner hurries, the loser delays)\n",
    ),
    (
        "2,3",
        "first player wins\nwinning move: take 1 from heap 1\n\
         remoteness: 3 moves (the winner hurries, the loser delays)\n",
    ),
    (
        "1,2",
        "second player wins\nremoteness: 2 moves (the winner hurries, the loser delays)\n",
    ),
    (
        "2,1",
        "first player wins\nwinning move: take 1 from heap 1\n\
         remoteness: 3 moves (the winner hurries, the loser delays)\n",
    ),
    (
        "1,2,3,1,4",
        "second player wins\nremoteness: 6 moves (the winner hurries, the loser delays)\n",
    ),
    (
        "1,1,2,3",
        "first player wins\nwinning move: take 1 from heap 1\n\
         remoteness: 5 moves (the winner hurries, the loser delays)\n",
    ),
    (
        "2,1,3,4,5",
        "first player wins\nwinning move: take all 2 from heap 1\n\
         remoteness: 7 moves (the winner hurries, the loser delays)\n",
    ),
];

#[test]
fn seed_examples_exact_text_from_separate_arguments() {
    for (sizes, text) in SEED_EXAMPLES {
        let args: Vec<&str> = sizes.split(',').collect();
        assert_eq!(heaps(&args), text, "{sizes}");
    }
}

#[test]
fn seed_examples_exact_text_from_one_comma_separated_argument() {
    for (sizes, text) in SEED_EXAMPLES {
        assert_eq!(heaps(&[sizes]), text, "{sizes}");
    }
}

#[test]
fn taking_a_whole_heap_says_all() {
    assert_eq!(
        heaps(&["3"]),
        format!(
            "first player wins\nwinning move: take all 3 from heap 1\n{}",
            remoteness_line(1)
        )
    );
    assert_eq!(
        heaps(&["3", "1", "1"]),
        format!(
            "first player wins\nwinning move: take all 3 from heap 1\n{}",
            remoteness_line(3)
        )
    );
    // A single counter is just taken.
    assert_eq!(
        heaps(&["1", "1", "3"]),
        format!(
            "first player wins\nwinning move: take 1 from heap 1\n{}",
            remoteness_line(3)
        )
    );
}

#[test]
fn misere_text_answers() {
    // One counter: the first player must take it and loses.
    assert_eq!(
        heaps(&["1", "--misere"]),
        format!("second player wins\n{}", remoteness_line(1))
    );
    // Three counters: leave one.
    assert_eq!(
        heaps(&["3", "--misere"]),
        format!(
            "first player wins\nwinning move: take 2 from heap 1\n{}",
            remoteness_line(2)
        )
    );
    // [2, 1]: take both, the opponent must take the last counter.
    assert_eq!(
        heaps(&["2", "1", "--misere"]),
        format!(
            "first player wins\nwinning move: take all 2 from heap 1\n{}",
            remoteness_line(2)
        )
    );
}

#[test]
fn largest_heap_size_is_accepted() {
    assert_eq!(
        heaps(&["18446744073709551615", "--json"]),
        "{\"winner\":\"first\",\"move\":{\"heap\":1,\"take\":18446744073709551615},\"remoteness\":1,\"grundy\":18446744073709551615,\"convention\":\"normal\"}\n"
    );
    assert_eq!(
        heaps(&["1", "18446744073709551615"]),
        format!("second player wins\n{}", remoteness_line(2))
    );
}

#[test]
fn grundy_exact_text() {
    assert_eq!(
        heaps(&["3", "--grundy"]),
        format!(
            "first player wins\nwinning move: take all 3 from heap 1\n{}grundy value: 3\n",
            remoteness_line(1)
        )
    );
    assert_eq!(
        heaps(&["1", "1", "--grundy"]),
        format!(
            "second player wins\n{}grundy value: 0\n",
            remoteness_line(2)
        )
    );
    assert_eq!(
        heaps(&["2", "1", "--grundy"]),
        format!(
            "first player wins\nwinning move: take 1 from heap 1\n{}grundy value: 2\n",
            remoteness_line(3)
        )
    );
    // A move that leaves counters in a heap of several.
    assert_eq!(
        heaps(&["5", "2", "7", "--grundy"]),
        format!(
            "first player wins\nwinning move: take 4 from heap 1\n{}grundy value: 5\n",
            remoteness_line(5)
        )
    );
}

#[test]
fn grundy_under_misere_says_none() {
    assert_eq!(
        heaps(&["3", "--misere", "--grundy"]),
        format!(
            "first player wins\nwinning move: take 2 from heap 1\n{}{NO_GRUNDY}",
            remoteness_line(2)
        )
    );
    assert_eq!(
        heaps(&["1", "--grundy", "--misere"]),
        format!("second player wins\n{}{NO_GRUNDY}", remoteness_line(1))
    );
}

// ---------------------------------------------------------------------------------------------
// JSON.
// ---------------------------------------------------------------------------------------------

#[test]
fn json_exactly_for_one_heap_of_three() {
    assert_eq!(
        heaps(&["3", "--json"]),
        "{\"winner\":\"first\",\"move\":{\"heap\":1,\"take\":3},\"remoteness\":1,\"grundy\":3,\"convention\":\"normal\"}\n"
    );
}

#[test]
fn json_exactly_for_second_player_wins() {
    assert_eq!(
        heaps(&["1", "1", "--json"]),
        "{\"winner\":\"second\",\"move\":null,\"remoteness\":2,\"grundy\":0,\"convention\":\"normal\"}\n"
    );
    assert_eq!(
        heaps(&["1", "2", "3", "1", "2", "--json"]),
        "{\"winner\":\"second\",\"move\":null,\"remoteness\":6,\"grundy\":0,\"convention\":\"normal\"}\n"
    );
}

#[test]
fn json_exactly_under_misere() {
    assert_eq!(
        heaps(&["1", "--misere", "--json"]),
        "{\"winner\":\"second\",\"move\":null,\"remoteness\":1,\"grundy\":null,\"convention\":\"misere\"}\n"
    );
    assert_eq!(
        heaps(&["3", "--misere", "--json"]),
        "{\"winner\":\"first\",\"move\":{\"heap\":1,\"take\":2},\"remoteness\":2,\"grundy\":null,\"convention\":\"misere\"}\n"
    );
}

#[test]
fn json_for_the_issue_example() {
    // The issue's example object (without the convention field, added since).
    assert_eq!(
        heaps(&["1", "1", "2", "3", "--json"]),
        "{\"winner\":\"first\",\"move\":{\"heap\":1,\"take\":1},\"remoteness\":5,\"grundy\":1,\"convention\":\"normal\"}\n"
    );
}

#[test]
fn json_with_grundy_flag_is_the_same_object() {
    assert_eq!(heaps(&["3", "--json", "--grundy"]), heaps(&["3", "--json"]));
}

// ---------------------------------------------------------------------------------------------
// --batch: the Codeforces 1382B format.
// ---------------------------------------------------------------------------------------------

#[test]
fn batch_sample_from_a_file() {
    let file = TempFile::new("cf-sample.txt", CF_SAMPLE.as_bytes());
    assert_eq!(heaps(&["--batch", file.arg()]), CF_SAMPLE_OUT);
}

#[test]
fn batch_sample_from_stdin() {
    assert_eq!(batch_stdin(&[], CF_SAMPLE), CF_SAMPLE_OUT);
}

#[test]
fn batch_sample_from_stdin_named_dash() {
    assert_eq!(batch_stdin(&["-"], CF_SAMPLE), CF_SAMPLE_OUT);
}

#[test]
fn batch_sample_with_crlf_blank_lines_and_no_final_newline() {
    let crlf = CF_SAMPLE.replace('\n', "\r\n");
    assert_eq!(batch_stdin(&[], &crlf), CF_SAMPLE_OUT);
    let spaced = format!("\n{}", CF_SAMPLE.replace('\n', "\n\n"));
    assert_eq!(batch_stdin(&[], &spaced), CF_SAMPLE_OUT);
    assert_eq!(batch_stdin(&[], CF_SAMPLE.trim_end()), CF_SAMPLE_OUT);
    let padded = CF_SAMPLE.replace(' ', "  \t");
    assert_eq!(batch_stdin(&[], &padded), CF_SAMPLE_OUT);
}

#[test]
fn batch_with_a_hundred_thousand_heaps() {
    // One test of 100 000 single counters, on one line of stdin: taken in turn, the second player
    // takes the last; under misère play the one who takes it loses.
    let ones = format!("1\n100000\n{}\n", vec!["1"; 100_000].join(" "));
    assert_eq!(batch_stdin(&[], &ones), "Second\n");
    assert_eq!(batch_stdin(&["--misere"], &ones), "First\n");
}

#[test]
fn batch_with_a_hundred_thousand_tests_of_one_huge_heap() {
    let mut input = String::from("100000\n");
    for _ in 0..100_000 {
        input.push_str("1\n1000000000\n");
    }
    assert_eq!(batch_stdin(&[], &input), "First\n".repeat(100_000));
}

#[test]
fn batch_test_count_larger_than_memory_is_refused_before_a_test_is_read() {
    // 9 bytes a test's answer takes at the most: 9·10^18 bytes, more than any machine's memory.
    let stderr = batch_failure("1000000000000000000\n1\n1\n");
    assert!(
        stderr.starts_with(
            "ply: line 1: keeping the answers of 1000000000000000000 tests needs 7.8 EiB \
             (9000000000000000000 bytes) but the memory budget is "
        ),
        "{stderr}"
    );
    // A count that fits is read until the input ends.
    assert_bad_batch(
        "1000000\n1\n1\n",
        "ply: test 2: the input ends before the heap count of test 2 of 1000000 (after line 3)",
    );
}

// ---------------------------------------------------------------------------------------------
// Bad input: exit 2, nothing on stdout, one line on stderr.
// ---------------------------------------------------------------------------------------------

#[test]
fn zero_heap() {
    assert_bad_heaps(
        &["0"],
        "ply: heap 1 holds 0; every heap must hold at least 1 counter",
    );
    assert_bad_heaps(
        &["1", "2", "0"],
        "ply: heap 3 holds 0; every heap must hold at least 1 counter",
    );
    assert_bad_heaps(
        &["1,0,2", "--json"],
        "ply: heap 2 holds 0; every heap must hold at least 1 counter",
    );
}

#[test]
fn negative_heap_after_double_dash_or_in_a_list() {
    assert_bad_heaps(
        &["--", "1", "-3"],
        "ply: heap 2 holds -3; every heap must hold at least 1 counter",
    );
    assert_bad_heaps(
        &["1,-3"],
        "ply: heap 2 holds -3; every heap must hold at least 1 counter",
    );
    assert_bad_heaps(
        &["-3,1"],
        "ply: heap 1 holds -3; every heap must hold at least 1 counter",
    );
    assert_bad_heaps(
        &["--misere", "--", "-18446744073709551616"],
        "ply: heap 1 holds -18446744073709551616; every heap must hold at least 1 counter",
    );
}

#[test]
fn negative_heap_as_its_own_argument() {
    assert_bad_heaps(
        &["1", "-3"],
        "ply: heap 2 holds -3; every heap must hold at least 1 counter",
    );
    assert_bad_heaps(
        &["-3"],
        "ply: heap 1 holds -3; every heap must hold at least 1 counter",
    );
}

#[test]
fn not_a_number() {
    assert_bad_heaps(&["1", "x"], "ply: heap 2: `x` is not a whole number");
    assert_bad_heaps(&["2.5"], "ply: heap 1: `2.5` is not a whole number");
    assert_bad_heaps(&["1", "1e3"], "ply: heap 2: `1e3` is not a whole number");
    assert_bad_heaps(&["1,0x10"], "ply: heap 2: `0x10` is not a whole number");
}

#[test]
fn bare_or_doubled_signs_are_not_numbers() {
    assert_bad_heaps(&["1", "+"], "ply: heap 2: `+` is not a whole number");
    assert_bad_heaps(&["1", "-"], "ply: heap 2: `-` is not a whole number");
    assert_bad_heaps(&["1", "++5"], "ply: heap 2: `++5` is not a whole number");
    assert_bad_heaps(&["--", "--5"], "ply: heap 1: `--5` is not a whole number");
}

#[test]
fn beyond_u64() {
    assert_bad_heaps(
        &["18446744073709551616"],
        "ply: heap 1 holds 18446744073709551616, more than the largest size (18446744073709551615)",
    );
    assert_bad_heaps(
        &["1", "2", "100000000000000000000000000000000000000000"],
        // Input is echoed up to 40 characters.
        "ply: heap 3 holds 1000000000000000000000000000000000000000…, more than the largest size (18446744073709551615)",
    );
}

#[test]
fn huge_negative_heap_is_not_too_large() {
    assert_bad_heaps(
        &["--", "-100000000000000000000000000000000000000000"],
        "ply: heap 1 holds -100000000000000000000000000000000000000…; every heap must hold at least 1 counter",
    );
}

#[test]
fn no_sizes() {
    assert_bad_heaps(
        &[],
        "ply: the following required arguments were not provided: <SIZES>...",
    );
    assert_bad_heaps(
        &["--misere", "--json"],
        "ply: the following required arguments were not provided: <SIZES>...",
    );
    // Arguments that hold no number at all.
    assert_bad_heaps(&[" ", "\t"], "ply: no heaps: give at least one heap size");
    assert_bad_heaps(&[",", " "], "ply: heaps: item 1 is empty");
}

#[test]
fn sizes_together_with_batch() {
    assert_bad_heaps(
        &["1", "2", "--batch"],
        "ply: the argument '[SIZES]...' cannot be used with '--batch [<FILE>]'",
    );
    assert_bad_heaps(
        &["--batch", "-", "1"],
        "ply: the argument '--batch [<FILE>]' cannot be used with '[SIZES]...'",
    );
}

#[test]
fn batch_with_json() {
    assert_bad_heaps(
        &["--batch", "--json"],
        "ply: the argument '--batch [<FILE>]' cannot be used with '--json'",
    );
}

#[test]
fn batch_file_missing() {
    let path = unique_path("missing.txt");
    let arg = path.to_str().expect("the temp path is UTF-8");
    assert_bad_heaps(
        &["--batch", arg],
        &format!("ply: cannot read {arg}: No such file or directory (os error 2)"),
    );
}

#[test]
fn batch_empty_input() {
    assert_bad_batch("", "ply: the input is empty (expected the number of tests)");
    assert_bad_batch(
        " \n\t\n\n",
        "ply: the input is empty (expected the number of tests)",
    );
}

#[test]
fn batch_zero_tests() {
    assert_bad_batch(
        "0\n",
        "ply: line 1: the number of tests must be at least 1, got 0",
    );
    assert_bad_batch(
        "\n-2\n1\n1\n",
        "ply: line 2: the number of tests must be at least 1, got -2",
    );
}

#[test]
fn batch_test_count_not_a_number() {
    assert_bad_batch("x\n1\n1\n", "ply: line 1: `x` is not a whole number");
    assert_bad_batch(
        "1 2\n1\n1\n",
        "ply: line 1: expected one number (the number of tests), found 2 items",
    );
}

#[test]
fn batch_zero_heaps() {
    assert_bad_batch(
        "1\n0\n\n",
        "ply: test 1, line 2: the number of heaps must be at least 1, got 0",
    );
    assert_bad_batch(
        "2\n1\n1\n0\n1\n",
        "ply: test 2, line 4: the number of heaps must be at least 1, got 0",
    );
}

#[test]
fn batch_counts_beyond_usize_are_not_called_below_one() {
    for (input, place) in [
        ("99999999999999999999999999\n1\n1\n", "ply: line 1: "),
        (
            "1\n99999999999999999999999999\n1\n",
            "ply: test 1, line 2: ",
        ),
    ] {
        let stderr = batch_failure(input);
        assert_eq!(stderr.lines().count(), 1, "{stderr:?}");
        assert!(stderr.starts_with(place), "{stderr:?}");
        assert!(stderr.contains("99999999999999999999999999"), "{stderr:?}");
        assert!(!stderr.contains("at least 1"), "{stderr:?}");
    }
}

#[test]
fn batch_sizes_line_with_too_few_numbers() {
    assert_bad_batch(
        "1\n3\n1 2\n",
        "ply: test 1, line 3: expected 3 heap sizes, found 2 items",
    );
    // Sizes spread over two lines are not one line of sizes.
    assert_bad_batch(
        "2\n1\n5\n3\n1 2\n3\n",
        "ply: test 2, line 5: expected 3 heap sizes, found 2 items",
    );
}

#[test]
fn batch_sizes_line_with_too_many_numbers() {
    assert_bad_batch(
        "1\n3\n1 2 3 4\n",
        "ply: test 1, line 3: expected 3 heap sizes, found 4 items",
    );
    assert_bad_batch(
        "1\n1 1\n1\n",
        "ply: test 1, line 2: expected one number (the number of heaps), found 2 items",
    );
}

#[test]
fn batch_zero_heap_names_the_test_and_the_line() {
    assert_bad_batch(
        "2\n3\n1 2 3\n2\n1 0\n",
        "ply: test 2, line 5: heap 2 holds 0; every heap must hold at least 1 counter",
    );
    assert_bad_batch(
        "1\n2\n1 -3\n",
        "ply: test 1, line 3: heap 2 holds -3; every heap must hold at least 1 counter",
    );
    assert_bad_batch(
        "1\n1\n18446744073709551616\n",
        "ply: test 1, line 3: heap 1 holds 18446744073709551616, more than the largest size (18446744073709551615)",
    );
}

#[test]
fn batch_truncated_input() {
    assert_bad_batch(
        "2\n3\n1 2 3\n",
        "ply: test 2: the input ends before the heap count of test 2 of 2 (after line 3)",
    );
    assert_bad_batch(
        "2\n3\n1 2 3\n2\n",
        "ply: test 2: the input ends before the 2 heap sizes of test 2 (after line 4)",
    );
    assert_bad_batch(
        "7\n3\n2 5 4\n",
        "ply: test 2: the input ends before the heap count of test 2 of 7 (after line 3)",
    );
}

#[test]
fn batch_trailing_extra_line() {
    assert_bad_batch(
        "1\n1\n5\n7\n",
        "ply: line 4: unexpected `7` after the last test (1 declared)",
    );
    let sample_plus = format!("{CF_SAMPLE}\n1\n");
    assert_bad_batch(
        &sample_plus,
        "ply: line 17: unexpected `1` after the last test (7 declared)",
    );
}

#[test]
fn batch_not_a_number_in_a_sizes_line() {
    assert_bad_batch(
        "1\n2\n1 x\n",
        "ply: test 1, line 3: `x` is not a whole number",
    );
    assert_bad_batch(
        "2\n1\n1\n2\n1.5 2\n",
        "ply: test 2, line 5: `1.5` is not a whole number",
    );
    assert_bad_batch(
        "1\n1\n99999999999999999999999999999999999999999\n",
        "ply: test 1, line 3: `9999999999999999999999999999999999999999…` is too large",
    );
}
