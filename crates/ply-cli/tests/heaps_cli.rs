//! End-to-end tests of `ply heaps` (lowest-heap Nim, issue 4): exact stdout, exit status and stderr
//! of the `ply` binary, with every answer checked against a brute-force solver written here,
//! independently of the product.

mod common;
use common::*;
use serde_json::Value;

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

/// `ply heaps <args> --json`, asserted to be one JSON object on one line, parsed.
fn heaps_json(args: &[&str]) -> Value {
    let mut all = args.to_vec();
    all.push("--json");
    parse_json(&heaps(&all))
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

/// The remoteness line for `r` moves.
fn remoteness_line(r: u64) -> String {
    let moves = if r == 1 { "move" } else { "moves" };
    format!("remoteness: {r} {moves} {HURRIES}\n")
}

/// Sizes as arguments.
fn as_args(sizes: &[u64]) -> Vec<String> {
    sizes.iter().map(u64::to_string).collect()
}

// ---------------------------------------------------------------------------------------------
// The brute-force reference: the explicit game tree, nothing from the product.
// ---------------------------------------------------------------------------------------------

/// A state: the 0-based index of the lowest non-empty heap (`sizes.len()` once all are empty) and
/// the counters left in it; the heaps above it are untouched.
type State = (usize, u64);

/// Who wins a state (the player to move or not) and in how many moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Solved {
    wins: bool,
    remoteness: u64,
}

/// The starting state of `sizes`.
fn start(sizes: &[u64]) -> State {
    (0, sizes[0])
}

/// The state after taking `take` counters from the lowest non-empty heap of `state`.
fn after(sizes: &[u64], (heap, left): State, take: u64) -> State {
    assert!(heap < sizes.len() && (1..=left).contains(&take));
    if take < left {
        (heap, left - take)
    } else {
        (heap + 1, sizes.get(heap + 1).copied().unwrap_or(0))
    }
}

/// Every state one move away.
fn children(sizes: &[u64], state: State) -> Vec<State> {
    if state.0 == sizes.len() {
        return Vec::new();
    }
    (1..=state.1)
        .map(|take| after(sizes, state, take))
        .collect()
}

/// Win/lose and remoteness: at the end the player to move has lost under normal play and won under
/// misère play; a win is one more than its fastest losing child, a loss one more than its slowest
/// child.
fn solve(sizes: &[u64], state: State, misere: bool) -> Solved {
    let kids = children(sizes, state);
    if kids.is_empty() {
        return Solved {
            wins: misere,
            remoteness: 0,
        };
    }
    let solved: Vec<Solved> = kids.iter().map(|&c| solve(sizes, c, misere)).collect();
    match solved
        .iter()
        .filter(|s| !s.wins)
        .map(|s| s.remoteness)
        .min()
    {
        Some(fastest) => Solved {
            wins: true,
            remoteness: fastest + 1,
        },
        None => Solved {
            wins: false,
            remoteness: solved.iter().map(|s| s.remoteness).max().unwrap() + 1,
        },
    }
}

/// The Grundy value under normal play: the least value no move reaches.
fn grundy(sizes: &[u64], state: State) -> u64 {
    let seen: Vec<u64> = children(sizes, state)
        .into_iter()
        .map(|c| grundy(sizes, c))
        .collect();
    (0..).find(|g| !seen.contains(g)).unwrap()
}

/// Every configuration of 1 to `heaps` heaps, each of 1 to `size` counters.
fn configurations(heaps: usize, size: u64) -> Vec<Vec<u64>> {
    let mut all: Vec<Vec<u64>> = Vec::new();
    let mut layer: Vec<Vec<u64>> = vec![Vec::new()];
    for _ in 0..heaps {
        layer = layer
            .iter()
            .flat_map(|prefix| {
                (1..=size).map(move |s| {
                    let mut next = prefix.clone();
                    next.push(s);
                    next
                })
            })
            .collect();
        all.extend(layer.iter().cloned());
    }
    all
}

/// Checks one `--json` answer for `sizes` against the brute force.
fn check_json_against_brute_force(sizes: &[u64], misere: bool, v: &Value) {
    let here = format!("sizes {sizes:?}, misère {misere}: {v}");
    let truth = solve(sizes, start(sizes), misere);
    let winner = if truth.wins { "first" } else { "second" };
    assert_eq!(v["winner"], winner, "{here}");
    assert_eq!(v["remoteness"], truth.remoteness, "{here}");
    assert_eq!(
        v["convention"],
        if misere { "misere" } else { "normal" },
        "{here}"
    );
    if misere {
        assert_eq!(v["grundy"], Value::Null, "{here}");
    } else {
        let g = grundy(sizes, start(sizes));
        assert_eq!(v["grundy"], g, "{here}");
        assert_eq!(g == 0, !truth.wins, "Grundy 0 exactly when lost: {here}");
    }
    if !truth.wins {
        assert_eq!(v["move"], Value::Null, "{here}");
        return;
    }
    let mv = v["move"].as_object().expect("a winning move");
    assert_eq!(mv.len(), 2, "{here}");
    assert_eq!(mv["heap"], 1, "moves start in heap 1: {here}");
    let take = mv["take"].as_u64().expect("take is a count");
    assert!((1..=sizes[0]).contains(&take), "legal take: {here}");
    let child = solve(sizes, after(sizes, start(sizes), take), misere);
    assert_eq!(
        child,
        Solved {
            wins: false,
            remoteness: truth.remoteness - 1
        },
        "the move leaves a loss one move shorter: {here}"
    );
}

#[test]
fn brute_force_knows_the_small_cases() {
    // Normal play: one heap is taken at once; two single counters are taken in turn.
    let won = |r| Solved {
        wins: true,
        remoteness: r,
    };
    let lost = |r| Solved {
        wins: false,
        remoteness: r,
    };
    assert_eq!(solve(&[3], start(&[3]), false), won(1));
    assert_eq!(solve(&[1, 1], start(&[1, 1]), false), lost(2));
    assert_eq!(solve(&[2, 1], start(&[2, 1]), false), won(3));
    // Misère play: whoever takes the single last counter loses.
    assert_eq!(solve(&[1], start(&[1]), true), lost(1));
    assert_eq!(solve(&[3], start(&[3]), true), won(2));
    // Grundy: a lone heap is plain Nim; [1, 1] is 0; [2, 1] has options 0 ([1, 1]) and 1 ([1]).
    assert_eq!(grundy(&[5], start(&[5])), 5);
    assert_eq!(grundy(&[1, 1], start(&[1, 1])), 0);
    assert_eq!(grundy(&[2, 1], start(&[2, 1])), 2);
    assert_eq!(configurations(4, 4).len(), 4 + 16 + 64 + 256);
}

// ---------------------------------------------------------------------------------------------
// Text answers: the seed's examples.
// ---------------------------------------------------------------------------------------------

/// The seed's examples: sizes, the exact text answer under normal play, and the facts in it
/// (first player wins, winning take from heap 1, remoteness) that the brute force must confirm.
const SEED_EXAMPLES: [(&[u64], &str, Option<u64>, u64); 8] = [
    (
        &[1, 2, 2, 2, 1],
        "second player wins\nremoteness: 8 moves (the winner hurries, the loser delays)\n",
        None,
        8,
    ),
    (
        &[1, 2, 3, 1, 2],
        "second player wins\nremoteness: 6 moves (the winner hurries, the loser delays)\n",
        None,
        6,
    ),
    (
        &[2, 3],
        "first player wins\nwinning move: take 1 from heap 1\n\
         remoteness: 3 moves (the winner hurries, the loser delays)\n",
        Some(1),
        3,
    ),
    (
        &[1, 2],
        "second player wins\nremoteness: 2 moves (the winner hurries, the loser delays)\n",
        None,
        2,
    ),
    (
        &[2, 1],
        "first player wins\nwinning move: take 1 from heap 1\n\
         remoteness: 3 moves (the winner hurries, the loser delays)\n",
        Some(1),
        3,
    ),
    (
        &[1, 2, 3, 1, 4],
        "second player wins\nremoteness: 6 moves (the winner hurries, the loser delays)\n",
        None,
        6,
    ),
    (
        &[1, 1, 2, 3],
        "first player wins\nwinning move: take 1 from heap 1\n\
         remoteness: 5 moves (the winner hurries, the loser delays)\n",
        Some(1),
        5,
    ),
    (
        &[2, 1, 3, 4, 5],
        "first player wins\nwinning move: take all 2 from heap 1\n\
         remoteness: 7 moves (the winner hurries, the loser delays)\n",
        Some(2),
        7,
    ),
];

#[test]
fn seed_first_example_prints_second_player_wins_then_remoteness() {
    assert_eq!(
        heaps(&["1", "2", "3", "1", "2"]),
        "second player wins\nremoteness: 6 moves (the winner hurries, the loser delays)\n"
    );
}

#[test]
fn seed_examples_exact_text_confirmed_by_brute_force() {
    for (sizes, text, take, remoteness) in SEED_EXAMPLES {
        let truth = solve(sizes, start(sizes), false);
        assert_eq!(truth.wins, take.is_some(), "{sizes:?}");
        assert_eq!(truth.remoteness, remoteness, "{sizes:?}");
        if let Some(take) = take {
            let child = solve(sizes, after(sizes, start(sizes), take), false);
            assert!(
                !child.wins && child.remoteness == remoteness - 1,
                "{sizes:?}"
            );
        }
        let args = as_args(sizes);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        assert_eq!(heaps(&args), text, "{sizes:?}");
    }
}

#[test]
fn seed_examples_winners_from_one_comma_separated_argument() {
    let expected = [
        ("1,2,2,2,1", "second"),
        ("1,2,3,1,2", "second"),
        ("2,3", "first"),
        ("1,2", "second"),
        ("2,1", "first"),
        ("1,2,3,1,4", "second"),
        ("1,1,2,3", "first"),
        ("2,1,3,4,5", "first"),
    ];
    for (arg, winner) in expected {
        let text = heaps(&[arg]);
        assert_eq!(
            text.lines().next(),
            Some(format!("{winner} player wins").as_str()),
            "{arg}"
        );
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

// ---------------------------------------------------------------------------------------------
// Every small configuration, through --json, against the brute force.
// ---------------------------------------------------------------------------------------------

/// Every configuration of up to 4 heaps of up to 4 counters (340 runs).
fn every_small_configuration_agrees(misere: bool) {
    for sizes in configurations(4, 4) {
        let mut args = as_args(&sizes);
        if misere {
            args.push("--misere".to_string());
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let v = heaps_json(&args);
        check_json_against_brute_force(&sizes, misere, &v);
    }
}

#[test]
fn every_small_configuration_agrees_with_brute_force_normal() {
    every_small_configuration_agrees(false);
}

#[test]
fn every_small_configuration_agrees_with_brute_force_misere() {
    every_small_configuration_agrees(true);
}

/// The text answer the brute force predicts, with the `--grundy` line.
fn predicted_text(sizes: &[u64], misere: bool, take: Option<u64>) -> String {
    let truth = solve(sizes, start(sizes), misere);
    let mut text = String::new();
    if truth.wins {
        let take = take.expect("a winning take");
        let all = if take > 1 && take == sizes[0] {
            "all "
        } else {
            ""
        };
        text.push_str(&format!(
            "first player wins\nwinning move: take {all}{take} from heap 1\n"
        ));
    } else {
        text.push_str("second player wins\n");
    }
    text.push_str(&remoteness_line(truth.remoteness));
    if misere {
        text.push_str(NO_GRUNDY);
    } else {
        text.push_str(&format!("grundy value: {}\n", grundy(sizes, start(sizes))));
    }
    text
}

/// The winning take the brute force finds (the only one in this game), if any.
fn winning_take(sizes: &[u64], misere: bool) -> Option<u64> {
    let truth = solve(sizes, start(sizes), misere);
    if !truth.wins {
        return None;
    }
    let takes: Vec<u64> = (1..=sizes[0])
        .filter(|&t| {
            let child = solve(sizes, after(sizes, start(sizes), t), misere);
            !child.wins && child.remoteness + 1 == truth.remoteness
        })
        .collect();
    assert_eq!(takes.len(), 1, "one best winning take in {sizes:?}");
    Some(takes[0])
}

#[test]
fn grundy_text_for_up_to_three_heaps_of_three() {
    for sizes in configurations(3, 3) {
        for misere in [false, true] {
            let mut args = as_args(&sizes);
            args.push("--grundy".to_string());
            if misere {
                args.push("--misere".to_string());
            }
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let expected = predicted_text(&sizes, misere, winning_take(&sizes, misere));
            assert_eq!(heaps(&args), expected, "{sizes:?} misère {misere}");
        }
    }
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
    // [2, 1] reaches [1, 1] (0) and [1] (1): mex 2.
    assert_eq!(grundy(&[2, 1], start(&[2, 1])), 2);
    assert_eq!(
        heaps(&["2", "1", "--grundy"]),
        format!(
            "first player wins\nwinning move: take 1 from heap 1\n{}grundy value: 2\n",
            remoteness_line(3)
        )
    );
    // Larger cases than the exhaustive sweep, still within the brute force's reach.
    for (sizes, g) in [
        (&[5, 2, 7][..], 5),
        (&[6, 6, 1, 2][..], 5),
        (&[1, 4, 4][..], 0),
    ] {
        assert_eq!(grundy(sizes, start(sizes)), g, "{sizes:?}");
        let args = as_args(sizes);
        let mut args: Vec<&str> = args.iter().map(String::as_str).collect();
        args.push("--grundy");
        let text = heaps(&args);
        assert_eq!(
            text.lines().last(),
            Some(format!("grundy value: {g}").as_str()),
            "{sizes:?}"
        );
    }
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

/// Every small configuration as one batch; the answers the brute force predicts.
fn small_configurations_batch(misere: bool) -> (String, String) {
    let all = configurations(4, 4);
    let mut input = format!("{}\n", all.len());
    let mut output = String::new();
    for sizes in &all {
        input.push_str(&format!("{}\n{}\n", sizes.len(), as_args(sizes).join(" ")));
        let wins = solve(sizes, start(sizes), misere).wins;
        output.push_str(if wins { "First\n" } else { "Second\n" });
    }
    (input, output)
}

#[test]
fn batch_of_every_small_configuration_agrees_with_brute_force() {
    let (input, expected) = small_configurations_batch(false);
    assert_eq!(batch_stdin(&[], &input), expected);
    let (input, expected) = small_configurations_batch(true);
    assert_eq!(batch_stdin(&["--misere"], &input), expected);
}

/// One test of `n` heaps: all 1 but those given as (0-based index, size).
fn one_test_of_ones(n: usize, others: &[(usize, u64)]) -> String {
    let mut sizes = vec![1u64; n];
    for &(i, s) in others {
        sizes[i] = s;
    }
    format!("1\n{n}\n{}\n", as_args(&sizes).join(" "))
}

#[test]
fn batch_with_a_hundred_thousand_heaps() {
    // 100 000 single counters: taken in turn, the second player takes the last.
    assert_eq!(
        batch_stdin(&[], &one_test_of_ones(100_000, &[])),
        "Second\n"
    );
    // 99 999 single counters then 2: the 99 999 forced moves hand the 2 to the second player, who
    // takes it all.
    assert_eq!(
        batch_stdin(&[], &one_test_of_ones(100_000, &[(99_999, 2)])),
        "Second\n"
    );
    // 99 998 single counters then a 2 and a 1: the first player gets the 2 and leaves one.
    assert_eq!(
        batch_stdin(&[], &one_test_of_ones(100_000, &[(99_998, 2)])),
        "First\n"
    );
    // A 2 first: the first player controls the game.
    assert_eq!(
        batch_stdin(&[], &one_test_of_ones(100_000, &[(0, 2)])),
        "First\n"
    );
    // Under misère play the one who takes the 100 000th single counter loses.
    assert_eq!(
        batch_stdin(&["--misere"], &one_test_of_ones(100_000, &[])),
        "First\n"
    );
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
fn batch_test_count_larger_than_memory_then_truncated() {
    assert_bad_batch(
        "1000000000000000000\n1\n1\n",
        "ply: test 2: the input ends before the heap count of test 2 of 1000000000000000000 (after line 3)",
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
    assert_bad_heaps(&[",", " "], "ply: no heaps: give at least one heap size");
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
        let output = ply()
            .args(["heaps", "--batch"])
            .write_stdin(input)
            .assert()
            .failure()
            .code(2)
            .stdout("")
            .get_output()
            .clone();
        let stderr = String::from_utf8(output.stderr).expect("stderr is UTF-8");
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
