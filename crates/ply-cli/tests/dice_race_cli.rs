//! End-to-end tests of `ply dice-race` (the dice race of seed 003, issue 5): exact stdout, JSON,
//! exit status and stderr of the `ply` binary for known cases, the options of each subcommand, and the
//! messages for bad input. The values themselves (exact probabilities, best lists, equilibria,
//! simulations, sums) are proved once, against a reference solver, in the library's tests
//! (`crates/plysolve/tests/dice_race.rs`, `dice_race_search.rs`, `dice_race_simulate.rs`).

use crate::common;
use common::*;
use predicates::prelude::*;
use serde_json::Value;

// ---------------------------------------------------------------------------------------------
// Running the binary.
// ---------------------------------------------------------------------------------------------

/// `ply dice-race <args>`, asserted successful; its stdout.
fn dice_race(args: &[&str]) -> String {
    let mut all = vec!["dice-race"];
    all.extend_from_slice(args);
    stdout_of(&all, None)
}

/// `ply dice-race <args> --json`, asserted to be one JSON value on one line, parsed.
fn dice_race_json(args: &[&str]) -> Value {
    let mut all = args.to_vec();
    all.push("--json");
    parse_json_line(&dice_race(&all))
}

/// Runs `ply dice-race args` and asserts a bad-input failure: exit status 2, nothing on stdout, and
/// exactly the line `expected` (plus its newline) on stderr.
fn assert_bad(args: &[&str], expected: &str) {
    let mut all = vec!["dice-race"];
    all.extend_from_slice(args);
    assert_bad_input(&all, None, expected);
}

/// A JSON array of small integers.
fn ints(v: &Value) -> Vec<u32> {
    v.as_array()
        .unwrap_or_else(|| panic!("an array: {v}"))
        .iter()
        .map(|x| x.as_u64().expect("an integer") as u32)
        .collect()
}

/// A JSON number.
fn num(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("a number: {v}"))
}

/// `simulate --json` output without its two timings (which differ from run to run, and must be
/// seconds), written back as one line: everything else is fixed by the seed.
fn without_timings(text: &str) -> String {
    let mut v = parse_json(text);
    let o = v.as_object_mut().expect("an object");
    for timing in ["simulation_seconds", "exact_seconds"] {
        let seconds = o.remove(timing).unwrap_or_else(|| panic!("{timing}"));
        assert!(num(&seconds) >= 0.0, "{timing}: {seconds}");
    }
    v.to_string()
}

/// The lines of `text` but those at `skip` (which hold a time).
fn lines_but(text: &str, skip: &[usize]) -> Vec<String> {
    text.lines()
        .enumerate()
        .filter(|(i, _)| !skip.contains(i))
        .map(|(_, l)| l.to_string())
        .collect()
}

// ---------------------------------------------------------------------------------------------
// compare
// ---------------------------------------------------------------------------------------------

/// The exact text of `compare 5,6,7,8,9 5,6,7,8,7`.
const SEED_TEXT: &str = "\
2 dice of 6 sides
first  [5, 6, 7, 8, 9]
second [5, 6, 7, 8, 7]
P(first wins)  = 1138029621/3424590400 ≈ 0.332311
P(second wins) = 82426243/413922600 ≈ 0.199134
P(tie)         = 187739007919/400677076800 ≈ 0.468554
expected rolls = 621703609/38915800 ≈ 15.975609
verdict: the first list wins more often than it loses
";

#[test]
fn compare_seed_pair_exact_text() {
    assert_eq!(dice_race(&["compare", "5,6,7,8,9", "5,6,7,8,7"]), SEED_TEXT);
}

#[test]
fn compare_seed_pair_exact_json() {
    assert_eq!(
        dice_race(&["compare", "5,6,7,8,9", "5,6,7,8,7", "--json"]),
        "{\"dice\":2,\"sides\":6,\"first\":[5,6,7,8,9],\"second\":[5,6,7,8,7],\
         \"p_first\":0.3323111636942041,\"p_second\":0.19913443479529747,\
         \"p_tie\":0.4685544015104984,\"expected_rolls\":15.975609109924504,\
         \"exact\":{\"p_first\":\"1138029621/3424590400\",\"p_second\":\"82426243/413922600\",\
         \"p_tie\":\"187739007919/400677076800\",\"expected_rolls\":\"621703609/38915800\"}}\n"
    );
}

#[test]
fn compare_seven_against_six() {
    assert_eq!(
        dice_race(&["compare", "7", "6", "--json"]),
        "{\"dice\":2,\"sides\":6,\"first\":[7],\"second\":[6],\"p_first\":0.5454545454545454,\
         \"p_second\":0.45454545454545453,\"p_tie\":0.0,\"expected_rolls\":3.272727272727273,\
         \"exact\":{\"p_first\":\"6/11\",\"p_second\":\"5/11\",\"p_tie\":\"0\",\
         \"expected_rolls\":\"36/11\"}}\n"
    );
    assert_eq!(
        dice_race(&["compare", "7", "6"]),
        "2 dice of 6 sides\n\
         first  [7]\n\
         second [6]\n\
         P(first wins)  = 6/11 ≈ 0.545455\n\
         P(second wins) = 5/11 ≈ 0.454545\n\
         P(tie)         = 0 ≈ 0.000000\n\
         expected rolls = 36/11 ≈ 3.272727\n\
         verdict: the first list wins more often than it loses\n"
    );
}

#[test]
fn compare_says_when_the_second_list_wins() {
    assert_eq!(
        dice_race(&["compare", "6", "7"]),
        "2 dice of 6 sides\n\
         first  [6]\n\
         second [7]\n\
         P(first wins)  = 5/11 ≈ 0.454545\n\
         P(second wins) = 6/11 ≈ 0.545455\n\
         P(tie)         = 0 ≈ 0.000000\n\
         expected rolls = 36/11 ≈ 3.272727\n\
         verdict: the second list wins more often than it loses\n"
    );
}

#[test]
fn compare_keeps_lists_in_written_order() {
    let v = dice_race_json(&["compare", "9,8,7,6,5", "7,8,7,6,5"]);
    assert_eq!(v["first"], serde_json::json!([9, 8, 7, 6, 5]));
    assert_eq!(v["second"], serde_json::json!([7, 8, 7, 6, 5]));
    let out = dice_race(&["compare", "9,8,7,6,5", "7,8,7,6,5"]);
    assert!(out.starts_with("2 dice of 6 sides\nfirst  [9, 8, 7, 6, 5]\nsecond [7, 8, 7, 6, 5]\n"));
    // Spaces separate sums as well as commas, inside one argument.
    let v = dice_race_json(&["compare", "9 8, 7 6,5", "5,6,7,8,7"]);
    assert_eq!(v["first"], serde_json::json!([9, 8, 7, 6, 5]));
}

#[test]
fn compare_identical_lists_always_tie() {
    assert_eq!(
        dice_race(&["compare", "5,6,7,8,9", "9,8,7,6,5", "--json"]),
        "{\"dice\":2,\"sides\":6,\"first\":[5,6,7,8,9],\"second\":[9,8,7,6,5],\"p_first\":0.0,\
         \"p_second\":0.0,\"p_tie\":1.0,\"expected_rolls\":17.767819023082183,\
         \"exact\":{\"p_first\":\"0\",\"p_second\":\"0\",\"p_tie\":\"1\",\
         \"expected_rolls\":\"6758523/380380\"}}\n"
    );
    assert_eq!(
        dice_race(&["compare", "7", "7"]),
        "2 dice of 6 sides\n\
         first  [7]\n\
         second [7]\n\
         P(first wins)  = 0 ≈ 0.000000\n\
         P(second wins) = 0 ≈ 0.000000\n\
         P(tie)         = 1 ≈ 1.000000\n\
         expected rolls = 6 ≈ 6.000000\n\
         verdict: neither list wins more often than the other\n"
    );
}

#[test]
fn compare_on_three_four_sided_dice() {
    assert_eq!(
        dice_race(&["compare", "6", "7", "--dice", "3", "--sides", "4", "--json"]),
        "{\"dice\":3,\"sides\":4,\"first\":[6],\"second\":[7],\"p_first\":0.45454545454545453,\
         \"p_second\":0.5454545454545454,\"p_tie\":0.0,\"expected_rolls\":2.909090909090909,\
         \"exact\":{\"p_first\":\"5/11\",\"p_second\":\"6/11\",\"p_tie\":\"0\",\
         \"expected_rolls\":\"32/11\"}}\n"
    );
}

#[test]
fn compare_on_one_die() {
    assert_eq!(
        dice_race(&["compare", "3", "5", "--dice", "1", "--sides", "6"]),
        "1 die of 6 sides\n\
         first  [3]\n\
         second [5]\n\
         P(first wins)  = 1/2 ≈ 0.500000\n\
         P(second wins) = 1/2 ≈ 0.500000\n\
         P(tie)         = 0 ≈ 0.000000\n\
         expected rolls = 3 ≈ 3.000000\n\
         verdict: neither list wins more often than the other\n"
    );
}

// ---------------------------------------------------------------------------------------------
// best
// ---------------------------------------------------------------------------------------------

/// Checks the first line of `best` text: `<dice>, <picks> picks: <lists> lists, <n> exact races,
/// <t> s`; returns the number of races.
fn best_first_line(line: &str, prefix: &str) -> u64 {
    let rest = line
        .strip_prefix(prefix)
        .unwrap_or_else(|| panic!("{line:?} starts with {prefix:?}"));
    let (races, time) = rest
        .split_once(" exact races, ")
        .unwrap_or_else(|| panic!("races and a time in {line:?}"));
    let seconds: f64 = time
        .strip_suffix(" s")
        .and_then(|t| t.parse().ok())
        .unwrap_or_else(|| panic!("a time in seconds in {line:?}"));
    assert!(seconds >= 0.0);
    races.parse().expect("a number of races")
}

#[test]
fn best_five_picks_json() {
    assert_eq!(
        dice_race(&["best", "--picks", "5", "--json"]),
        "{\"best\":[5,6,7,8,9],\"unbeaten\":true,\"all_unbeaten\":[[5,6,7,8,9]],\
         \"greedy\":[5,6,7,8,9],\"greedy_agrees\":true,\"multisets\":3003,\"races\":9007}\n"
    );
}

#[test]
fn best_five_picks_text() {
    let out = dice_race(&["best", "--picks", "5"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    let races = best_first_line(lines[0], "2 dice of 6 sides, 5 picks: 3003 lists, ");
    assert_eq!(races, 9007);
    assert_eq!(
        lines[1],
        "best: [5, 6, 7, 8, 9] (no list beats it head to head)"
    );
    assert_eq!(
        lines[2],
        "greedy substitution (the original program's method): [5, 6, 7, 8, 9], the same list"
    );
}

#[test]
fn best_one_pick_is_seven() {
    assert_eq!(
        dice_race(&["best", "--picks", "1", "--json"]),
        "{\"best\":[7],\"unbeaten\":true,\"all_unbeaten\":[[7]],\"greedy\":[7],\
         \"greedy_agrees\":true,\"multisets\":11,\"races\":31}\n"
    );
    let out = dice_race(&["best", "--picks", "1"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    best_first_line(lines[0], "2 dice of 6 sides, 1 picks: 11 lists, ");
    assert_eq!(lines[1], "best: [7] (no list beats it head to head)");
    assert_eq!(
        lines[2],
        "greedy substitution (the original program's method): [7], the same list"
    );
}

#[test]
fn best_on_one_die_lists_every_unbeaten_sum() {
    assert_eq!(
        dice_race(&["best", "--picks", "1", "--dice", "1", "--sides", "6", "--json"]),
        "{\"best\":[1],\"unbeaten\":true,\"all_unbeaten\":[[1],[2],[3],[4],[5],[6]],\
         \"greedy\":[6],\"greedy_agrees\":true,\"multisets\":6,\"races\":36}\n"
    );
    let out = dice_race(&["best", "--picks", "1", "--dice", "1", "--sides", "6"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    best_first_line(lines[0], "1 die of 6 sides, 1 picks: 6 lists, ");
    assert_eq!(lines[1], "best: [1] (no list beats it head to head)");
    assert_eq!(lines[2], "unbeaten lists: [[1], [2], [3], [4], [5], [6]]");
    assert_eq!(
        lines[3],
        "greedy substitution (the original program's method): [6], another unbeaten list"
    );
}

#[test]
fn best_six_picks_on_two_three_sided_dice_is_beaten() {
    assert_eq!(
        dice_race(&["best", "--picks", "6", "--dice", "2", "--sides", "3", "--json"]),
        "{\"best\":[3,3,4,4,4,5],\"unbeaten\":false,\"all_unbeaten\":[],\
         \"greedy\":[2,3,4,4,5,6],\"greedy_agrees\":false,\"multisets\":210,\"races\":444}\n"
    );
    let out = dice_race(&["best", "--picks", "6", "--dice", "2", "--sides", "3"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    best_first_line(lines[0], "2 dice of 3 sides, 6 picks: 210 lists, ");
    assert_eq!(
        lines[1],
        "no list is unbeaten: every list loses head to head to some other (see `equilibrium`)"
    );
    assert_eq!(
        lines[2],
        "greedy substitution (the original program's method): [2, 3, 4, 4, 5, 6], not unbeaten either"
    );
}

// ---------------------------------------------------------------------------------------------
// equilibrium
// ---------------------------------------------------------------------------------------------

#[test]
fn equilibrium_five_picks_is_pure() {
    assert_eq!(
        dice_race(&["equilibrium", "--picks", "5", "--json"]),
        "{\"support\":[{\"list\":[5,6,7,8,9],\"weight\":1.0}],\"value\":0.0,\"pure\":true,\
         \"multisets\":3003,\"races\":3002}\n"
    );
    assert_eq!(
        dice_race(&["equilibrium", "--picks", "5"]),
        "2 dice of 6 sides, 5 picks: 3003 lists; optimal strategy (pure), value 0.000000\n\
         \x20 1.000000  [5, 6, 7, 8, 9]\n"
    );
}

#[test]
fn equilibrium_one_pick_is_seven() {
    assert_eq!(
        dice_race(&["equilibrium", "--picks", "1", "--json"]),
        "{\"support\":[{\"list\":[7],\"weight\":1.0}],\"value\":0.0,\"pure\":true,\
         \"multisets\":11,\"races\":10}\n"
    );
}

#[test]
fn equilibrium_mixed_text_lists_the_support_of_the_json() {
    let args = ["equilibrium", "--picks", "6", "--dice", "2", "--sides", "3"];
    let v = dice_race_json(&args);
    assert_eq!(v["pure"], false);
    assert_eq!(v["multisets"], 210);
    let support = v["support"].as_array().expect("support");
    assert!(support.len() >= 2, "a mixed strategy: {v}");
    // The text: a header and one line per list of the support, heaviest first, as in the JSON.
    let mut want = String::from(
        "2 dice of 3 sides, 6 picks: 210 lists; optimal strategy (mixed), value 0.000000\n",
    );
    for w in support {
        want += &format!("  {:>8.6}  {:?}\n", num(&w["weight"]), ints(&w["list"]));
    }
    assert_eq!(dice_race(&args), want);
}

// ---------------------------------------------------------------------------------------------
// simulate
// ---------------------------------------------------------------------------------------------

/// The seed pair, 10 000 games to start with, seed 7.
const SEED_SIMULATION: [&str; 7] = [
    "simulate",
    "5,6,7,8,9",
    "5,6,7,8,7",
    "--games",
    "10000",
    "--seed",
    "7",
];

#[test]
fn simulate_seed_pair_json_is_reproducible() {
    let mut args = SEED_SIMULATION.to_vec();
    args.push("--json");
    let one = without_timings(&dice_race(&args));
    assert_eq!(
        one,
        "{\"first\":[5,6,7,8,9],\"second\":[5,6,7,8,7],\"seed\":7,\"games\":10000,\
         \"first_wins\":3411,\"second_wins\":1998,\"ties\":4591,\"decided\":true,\
         \"stopped\":\"verdict\",\
         \"p_first\":{\"estimate\":{\"p\":0.3411,\"low\":0.3318708257239059,\
         \"high\":0.35045120895829507},\"exact\":\"1138029621/3424590400\",\
         \"exact_value\":0.3323111636942041,\"inside\":true},\
         \"p_second\":{\"estimate\":{\"p\":0.1998,\"low\":0.19207901873651875,\
         \"high\":0.20775153388523546},\"exact\":\"82426243/413922600\",\
         \"exact_value\":0.19913443479529747,\"inside\":true},\
         \"p_tie\":{\"estimate\":{\"p\":0.4591,\"low\":0.44935058991609955,\
         \"high\":0.4688808211506217},\"exact\":\"187739007919/400677076800\",\
         \"exact_value\":0.4685544015104984,\"inside\":true}}"
    );
    assert_eq!(without_timings(&dice_race(&args)), one);
}

#[test]
fn simulate_seed_pair_text() {
    let out = dice_race(&SEED_SIMULATION);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 7, "{out}");
    assert_eq!(
        lines[0],
        "2 dice of 6 sides: [5, 6, 7, 8, 9] against [5, 6, 7, 8, 7]"
    );
    assert!(
        predicate::str::is_match(
            r"^simulated 10000 games \(seed 7\) in [0-9]+\.[0-9]{3} s: one side reached 60 % of decisive games$"
        )
        .unwrap()
        .eval(lines[1]),
        "{}",
        lines[1]
    );
    assert_eq!(
        lines[2],
        "                 simulated           95 % interval   exact"
    );
    assert_eq!(
        lines[3],
        "P(first wins)     0.341100  [0.331871, 0.350451]   0.332311 = 1138029621/3424590400"
    );
    assert_eq!(
        lines[4],
        "P(second wins)    0.199800  [0.192079, 0.207752]   0.199134 = 82426243/413922600"
    );
    assert_eq!(
        lines[5],
        "P(tie)            0.459100  [0.449351, 0.468881]   0.468554 = 187739007919/400677076800"
    );
    assert!(
        predicate::str::is_match(r"^exact answer computed in [0-9]+\.[0-9]{6} s$")
            .unwrap()
            .eval(lines[6])
    );
}

#[test]
fn simulate_identical_lists_run_to_the_cap() {
    // The seed is 1 unless given.
    let out = dice_race(&[
        "simulate",
        "5,6,7",
        "7,6,5",
        "--games",
        "1000",
        "--max-games",
        "25000",
    ]);
    assert!(
        out.lines()
            .nth(1)
            .is_some_and(|l| l.starts_with("simulated 25000 games (seed 1) in ")
                && l.ends_with(" s: the cap was reached")),
        "{out}"
    );
    assert_eq!(
        lines_but(&out, &[1, 6]),
        [
            "2 dice of 6 sides: [5, 6, 7] against [7, 6, 5]",
            "                 simulated           95 % interval   exact",
            "P(first wins)     0.000000  [0.000000, 0.000154]   0.000000 = 0",
            "P(second wins)    0.000000  [0.000000, 0.000154]   0.000000 = 0",
            "P(tie)            1.000000  [0.999846, 1.000000]   1.000000 = 1",
        ]
    );
}

#[test]
fn simulate_marks_an_exact_value_outside_the_interval() {
    let out = dice_race(&[
        "simulate",
        "7",
        "6",
        "--games",
        "100",
        "--max-games",
        "100",
        "--seed",
        "15",
    ]);
    assert_eq!(
        lines_but(&out, &[1, 6]),
        [
            "2 dice of 6 sides: [7] against [6]",
            "                 simulated           95 % interval   exact",
            "P(first wins)     0.440000  [0.346720, 0.537719]   0.545455 = 6/11  (outside the interval)",
            "P(second wins)    0.560000  [0.462281, 0.653280]   0.454545 = 5/11  (outside the interval)",
            "P(tie)            0.000000  [0.000000, 0.036993]   0.000000 = 0",
        ]
    );
}

#[test]
fn simulate_other_dice() {
    let out = dice_race(&[
        "simulate", "7,8", "6,7,9", "--games", "2000", "--seed", "5", "--dice", "3", "--sides", "4",
    ]);
    assert_eq!(
        lines_but(&out, &[1, 6]),
        [
            "3 dice of 4 sides: [7, 8] against [6, 7, 9]",
            "                 simulated           95 % interval   exact",
            "P(first wins)     0.560500  [0.538653, 0.582116]   0.565508 = 423/748",
            "P(second wins)    0.218500  [0.200939, 0.237141]   0.217246 = 325/1496",
            "P(tie)            0.221000  [0.203360, 0.239710]   0.217246 = 325/1496",
        ]
    );
}

// ---------------------------------------------------------------------------------------------
// sums
// ---------------------------------------------------------------------------------------------

/// The exact JSON of `sums` (2d6).
const SUMS_2D6_JSON: &str = "[\
{\"sum\":2,\"ways\":1,\"probability\":\"1/36\",\"p\":0.027777777777777776},\
{\"sum\":3,\"ways\":2,\"probability\":\"1/18\",\"p\":0.05555555555555555},\
{\"sum\":4,\"ways\":3,\"probability\":\"1/12\",\"p\":0.08333333333333333},\
{\"sum\":5,\"ways\":4,\"probability\":\"1/9\",\"p\":0.1111111111111111},\
{\"sum\":6,\"ways\":5,\"probability\":\"5/36\",\"p\":0.1388888888888889},\
{\"sum\":7,\"ways\":6,\"probability\":\"1/6\",\"p\":0.16666666666666666},\
{\"sum\":8,\"ways\":5,\"probability\":\"5/36\",\"p\":0.1388888888888889},\
{\"sum\":9,\"ways\":4,\"probability\":\"1/9\",\"p\":0.1111111111111111},\
{\"sum\":10,\"ways\":3,\"probability\":\"1/12\",\"p\":0.08333333333333333},\
{\"sum\":11,\"ways\":2,\"probability\":\"1/18\",\"p\":0.05555555555555555},\
{\"sum\":12,\"ways\":1,\"probability\":\"1/36\",\"p\":0.027777777777777776}]\n";

/// The exact text of `sums` (2d6).
const SUMS_2D6_TEXT: &str = "\
2 dice of 6 sides: 36 outcomes
  sum         ways    probability   decimal
    2            1           1/36  0.027778 #######
    3            2           1/18  0.055556 #############
    4            3           1/12  0.083333 ####################
    5            4            1/9  0.111111 ###########################
    6            5           5/36  0.138889 #################################
    7            6            1/6  0.166667 ########################################
    8            5           5/36  0.138889 #################################
    9            4            1/9  0.111111 ###########################
   10            3           1/12  0.083333 ####################
   11            2           1/18  0.055556 #############
   12            1           1/36  0.027778 #######
";

#[test]
fn sums_of_two_six_sided_dice_json() {
    assert_eq!(
        dice_race(&["sums", "--dice", "2", "--sides", "6", "--json"]),
        SUMS_2D6_JSON
    );
    // The defaults are 2 dice of 6 sides.
    assert_eq!(dice_race(&["sums", "--json"]), SUMS_2D6_JSON);
}

#[test]
fn sums_of_two_six_sided_dice_text() {
    let out = dice_race(&["sums", "--dice", "2", "--sides", "6"]);
    assert_eq!(out, SUMS_2D6_TEXT);
    let seven = out
        .lines()
        .find(|l| l.trim_start().starts_with("7 "))
        .expect("the line for 7");
    assert_eq!(seven.matches('#').count(), 40);
    assert!(seven.ends_with(&format!(" {}", "#".repeat(40))));
}

#[test]
fn sums_of_three_six_sided_dice_text() {
    let out = dice_race(&["sums", "--dice", "3", "--sides", "6"]);
    assert!(out.starts_with(
        "3 dice of 6 sides: 216 outcomes\n  sum         ways    probability   decimal\n    3            1          1/216  0.004630 #\n"
    ));
    assert_eq!(out.lines().count(), 18);
}

// ---------------------------------------------------------------------------------------------
// Bad input: exit 2, nothing on stdout, one line naming the fault.
// ---------------------------------------------------------------------------------------------

const SUMS_2D6: &str = "(the sums are 2 to 12)";

#[test]
fn bad_sum_the_dice_cannot_make() {
    assert_bad(
        &["compare", "5,13", "7"],
        &format!("ply: the first list: sum 13 cannot be made by 2 dice of 6 sides {SUMS_2D6}"),
    );
    assert_bad(
        &["compare", "7", "1,5"],
        &format!("ply: the second list: sum 1 cannot be made by 2 dice of 6 sides {SUMS_2D6}"),
    );
    assert_bad(
        &["compare", "0", "7"],
        &format!("ply: the first list: sum 0 cannot be made by 2 dice of 6 sides {SUMS_2D6}"),
    );
    assert_bad(
        &["compare", "3", "7", "--dice", "1", "--sides", "2"],
        "ply: the first list: sum 3 cannot be made by 1 die of 2 sides (the sums are 1 to 2)",
    );
    assert_bad(
        &["simulate", "13", "7"],
        &format!("ply: the first list: sum 13 cannot be made by 2 dice of 6 sides {SUMS_2D6}"),
    );
    assert_bad(
        &["compare", "99999999999", "7"],
        &format!(
            "ply: the first list: sum 99999999999 cannot be made by 2 dice of 6 sides {SUMS_2D6}"
        ),
    );
}

#[test]
fn bad_empty_list() {
    for (a, b, which) in [
        ("", "7", "first"),
        ("7", "", "second"),
        (" \t ", "7", "first"),
    ] {
        assert_bad(
            &["compare", a, b],
            &format!("ply: the {which} list needs at least one sum"),
        );
    }
    assert_bad(
        &["compare", " , ", "7"],
        "ply: the first list: item 1 is empty",
    );
    assert_bad(
        &["simulate", "", "7"],
        "ply: the first list needs at least one sum",
    );
}

#[test]
fn bad_zero_picks() {
    assert_bad(&["best", "--picks", "0"], "ply: --picks must be at least 1");
    assert_bad(
        &["equilibrium", "--picks", "0"],
        "ply: --picks must be at least 1",
    );
}

#[test]
fn bad_zero_dice_or_sides() {
    let no_dice = "ply: the number of dice must be at least 1";
    let no_sides = "ply: dice must have at least 1 side";
    assert_bad(&["compare", "7", "6", "--dice", "0"], no_dice);
    assert_bad(&["compare", "7", "6", "--sides", "0"], no_sides);
    assert_bad(&["sums", "--dice", "0"], no_dice);
    assert_bad(&["sums", "--sides", "0"], no_sides);
    assert_bad(&["best", "--picks", "2", "--dice", "0"], no_dice);
    assert_bad(&["equilibrium", "--picks", "2", "--sides", "0"], no_sides);
    assert_bad(&["simulate", "7", "6", "--dice", "0"], no_dice);
}

#[test]
fn bad_not_a_number() {
    let first = "ply: the first list: ";
    let second = "ply: the second list: ";
    assert_bad(
        &["compare", "5,x", "7"],
        &format!("{first}`x` is not a whole number"),
    );
    assert_bad(
        &["compare", "7", "5.5"],
        &format!("{second}`5.5` is not a whole number"),
    );
    assert_bad(
        &["compare", "5,-6", "7"],
        &format!("{first}`-6` is not a whole number"),
    );
    assert_bad(
        &["simulate", "7", "6,y"],
        &format!("{second}`y` is not a whole number"),
    );
}

#[test]
fn bad_too_many_lists_for_the_exhaustive_search() {
    // C(11 + 9 - 1, 9) = 92378 lists, 92378 · 92377 / 2 races at most.
    let lists: u128 = (1..=9u128).fold(1, |c, i| c * (10 + i) / i);
    assert_eq!(lists, 92_378);
    let races = lists * (lists - 1) / 2;
    let expected = format!(
        "ply: 9 picks of 11 sums make {lists} lists; the exhaustive search is limited to 20000 \
         lists (up to {races} exact races, about 12 hours)"
    );
    assert_bad(&["best", "--picks", "9"], &expected);
    assert_bad(&["equilibrium", "--picks", "9"], &expected);
    ply()
        .args(["dice-race", "best", "--picks", "9"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("92378 lists").and(predicate::str::contains("hours")));
}

#[test]
fn bad_zero_games() {
    let expected = "ply: --games and --max-games must be at least 1";
    assert_bad(&["simulate", "7", "6", "--games", "0"], expected);
    assert_bad(&["simulate", "7", "6", "--max-games", "0"], expected);
}

#[test]
fn bad_too_many_dice() {
    let expected =
        "ply: 200 dice of 6 sides are too many: at most 10000 dice, 10000 sums and 2^128 outcomes";
    assert_bad(&["sums", "--dice", "200"], expected);
    assert_bad(&["compare", "7", "6", "--dice", "200"], expected);
    assert_bad(&["best", "--picks", "1", "--dice", "200"], expected);
}

#[test]
fn bad_race_with_too_many_states() {
    let many: Vec<String> = (1..=21).map(|s: u32| s.to_string()).collect();
    assert_bad(
        &[
            "compare",
            &many.join(","),
            "1",
            "--dice",
            "1",
            "--sides",
            "100",
        ],
        "ply: this race has 1048576 states; at most 1000000 are solved",
    );
}

#[test]
fn more_dice_than_the_limit_are_refused_even_with_one_side() {
    // One side makes one sum and one outcome, but counting takes a pass per die: the dice count
    // has its own limit, named in the message.
    assert_bad(
        &["sums", "--dice", "4294967295", "--sides", "1"],
        "ply: 4294967295 dice of 1 sides are too many: at most 10000 dice, 10000 sums and 2^128 outcomes",
    );
}

// ---------------------------------------------------------------------------------------------
// Big requests: refused up front with their estimate.
// ---------------------------------------------------------------------------------------------

#[test]
fn bad_too_many_lists_past_128_bits() {
    // C(11 + 10^7 − 1, 10^7) is past 2^128: said so, not printed as 2^128 − 1.
    assert_bad(
        &["best", "--picks", "10000000"],
        "ply: 10000000 picks of 11 sums make over 10^38 lists; the exhaustive search is limited to \
         20000 lists (up to over 10^38 exact races, over a century)",
    );
}

#[test]
fn bad_exact_answer_too_slow() {
    // N sevens against one six: N live states whose fractions grow by about 7 bits a roll ahead
    // (`Race::exact_work`), about 2.2·10^12 units for 65 000 sevens at 2.2·10^7 a second: over the
    // default limit of a minute, refused before anything is solved; the same for `simulate`, before
    // any game.
    let sevens = vec!["7"; 65_000].join(",");
    let expected = "ply: comparing these lists exactly would take about 28 hours here (2.2·10^12 \
                    units of work; the limit is 1.3·10^9, about 60 s)";
    assert_bad(&["compare", &sevens, "6"], expected);
    assert_bad(&["simulate", &sevens, "6"], expected);
    let sevens = vec!["7"; 60_000].join(",");
    assert_bad(
        &[
            "simulate",
            &sevens,
            "6",
            "--max-games",
            "18446744073709551615",
        ],
        "ply: comparing these lists exactly would take about 22 hours here (1.7·10^12 units of \
         work; the limit is 1.3·10^9, about 60 s)",
    );
}

#[test]
fn bad_search_too_slow() {
    // 1365 lists of 4 sums of one die of 12 sides, 495 of them of the likely orbit (4 different
    // sums), each raced against every list: about 1.1·10^11 search units at 10^8 a second.
    assert_bad(
        &["best", "--picks", "4", "--dice", "1", "--sides", "12"],
        "ply: searching every list for the unbeaten one would take about 18 minutes here (1.1·10^11 \
         units of work; the limit is 6·10^9, about 60 s)",
    );
}

#[test]
fn bad_simulation_too_long() {
    // [7] against [6]: one roll a game, 10^18 rolls.
    assert_bad(
        &[
            "simulate",
            "7",
            "6",
            "--games",
            "1000000000000000000",
            "--max-games",
            "1000000000000000000",
        ],
        "ply: simulating these games would take over a century here (1·10^18 units of work; the \
         limit is 4·10^9, about 60 s)",
    );
}

// ---------------------------------------------------------------------------------------------
// A run with no cap to speak of ends.
// ---------------------------------------------------------------------------------------------

#[test]
fn simulate_always_tie_stops_as_a_tie() {
    // [7] against [7] ties every game: with no cap to speak of the run stops once decisive games
    // are shown rarer than 1 in 100 000, after 10^6 games.
    let args = ["simulate", "7", "7", "--max-games", "18446744073709551615"];
    let mut json = args.to_vec();
    json.push("--json");
    assert_eq!(
        without_timings(&dice_race(&json)),
        "{\"first\":[7],\"second\":[7],\"seed\":1,\"games\":1000000,\"first_wins\":0,\
         \"second_wins\":0,\"ties\":1000000,\"decided\":false,\"stopped\":\"tie\",\
         \"p_first\":{\"estimate\":{\"p\":0.0,\"low\":0.0,\"high\":3.841444063944942e-6},\
         \"exact\":\"0\",\"exact_value\":0.0,\"inside\":true},\
         \"p_second\":{\"estimate\":{\"p\":0.0,\"low\":0.0,\"high\":3.841444063944942e-6},\
         \"exact\":\"0\",\"exact_value\":0.0,\"inside\":true},\
         \"p_tie\":{\"estimate\":{\"p\":1.0,\"low\":0.9999961585559362,\"high\":1.0},\
         \"exact\":\"1\",\"exact_value\":1.0,\"inside\":true}}"
    );
    let out = dice_race(&args);
    assert!(
        out.lines()
            .nth(1)
            .is_some_and(|l| l.starts_with("simulated 1000000 games (seed 1) in ")
                && l.ends_with(" s: decisive games are rarer than 1 in 100000: a tie")),
        "{out}"
    );
}
