//! The dice race, exactly: races and their reports, the sums of the dice, and the limit on exact
//! work, checked against the independent reference of `reference/dice_race.rs` (dice counted roll by
//! roll, races solved by recursion over the sums still needed) and against known values. The searches
//! are in `dice_race_search.rs`, the original program's simulation in
//! `dice_race_simulate.rs`.

use crate::reference;

use num_rational::BigRational;
use num_traits::{ToPrimitive, Zero};
use plysolve::engine::conformance;
use plysolve::engine::util::cost::WorkLimit;
use plysolve::engine::util::halt::{Halt, Halted};
use plysolve::games::dice_race::lists::all_lists;
use plysolve::games::dice_race::race::{Race, EXACT_RATE};
use plysolve::games::dice_race::report::CompareReport;
use plysolve::games::dice_race::request::{CompareRequest, DiceRaceFault};
use plysolve::games::dice_race::{
    compare, compare_fast, compare_within, Dice, ExactComparison, PickList, RaceError,
};
use plysolve::input::number_list::NumberList;
use reference::dice_race::{
    all_sums, assert_close, enumerate_dice, exact_race, fraction, multisets, race, ratio, Outcome,
    SEED_FIRST, SEED_ROLLS, SEED_SECOND, SEED_TIE,
};
use std::time::Duration;

fn list(text: &str, dice: &Dice) -> PickList {
    PickList::parse(text, dice).unwrap()
}

/// Races the lists written as `first` and `second` on `dice` through the dice race home's request,
/// the parse and race that `ply dice-race compare` and the web API run: its report and the fractions.
fn compare_written(
    dice: &Dice,
    first: &str,
    second: &str,
) -> Result<(CompareReport, ExactComparison), DiceRaceFault> {
    let request = CompareRequest {
        first: NumberList::text(first),
        second: NumberList::text(second),
        dice: dice.count(),
        sides: dice.sides(),
    };
    Ok(request.validate()?.compare()?)
}

/// A list as the CLI takes it: `5,6,7`.
fn written(list: &[u32]) -> String {
    list.iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

// ---------------------------------------------------------------------------------------------
// The reference itself.
// ---------------------------------------------------------------------------------------------

#[test]
fn reference_knows_hand_computed_races() {
    let (ways, total) = enumerate_dice(2, 6);
    assert_eq!(ways[2..], [1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1]);
    assert_eq!(total, 36);
    // [7] against [6]: whichever comes first; 11 of 36 rolls end it.
    let r: Outcome<BigRational> = race(&ways, total, &[7], &[6]);
    assert_eq!(
        (r.first, r.second, r.tie, r.rolls),
        (ratio(6, 11), ratio(5, 11), ratio(0, 1), ratio(36, 11))
    );
    // Identical lists always tie; [7] alone waits 6 rolls on average.
    let r: Outcome<BigRational> = race(&ways, total, &[7], &[7]);
    assert_eq!(
        (r.first, r.second, r.tie, r.rolls),
        (ratio(0, 1), ratio(0, 1), ratio(1, 1), ratio(6, 1))
    );
    // [7,7] against [7]: the first 7 ends it for the second.
    let r: Outcome<BigRational> = race(&ways, total, &[7, 7], &[7]);
    assert_eq!(
        (r.first, r.second, r.tie),
        (ratio(0, 1), ratio(1, 1), ratio(0, 1))
    );
    // [2,12] against [7]: the first needs both a 2 and a 12 before any 7. By hand: a 2 or 12
    // comes before a 7 with probability 2/8, then the other one before a 7 with 1/7.
    let r: Outcome<BigRational> = race(&ways, total, &[2, 12], &[7]);
    assert_eq!(r.first, ratio(2, 8) * ratio(1, 7));
    assert_eq!(r.first + r.second + r.tie, ratio(1, 1));
    // The f64 solver agrees with the exact one.
    let f: Outcome<f64> = race(&ways, total, &[5, 6, 7, 8, 9], &[5, 6, 7, 8, 7]);
    let e: Outcome<BigRational> = race(&ways, total, &[5, 6, 7, 8, 9], &[5, 6, 7, 8, 7]);
    assert_close(
        f.first,
        e.first.to_f64().unwrap(),
        1e-12,
        "f64 against exact",
    );
    assert_close(
        f.rolls,
        e.rolls.to_f64().unwrap(),
        1e-9,
        "f64 against exact",
    );
    // Three dice of four sides, counted by hand: 1 3 6 10 12 12 10 6 3 1 out of 64.
    let (ways, total) = enumerate_dice(3, 4);
    assert_eq!(ways[3..], [1, 3, 6, 10, 12, 12, 10, 6, 3, 1]);
    assert_eq!(total, 64);
    assert_eq!(multisets(&all_sums(2, 6), 5).len(), 3003);
    assert_eq!(multisets(&[1, 2], 2), [[1, 1], [1, 2], [2, 2]]);
    assert_eq!(fraction(&ratio(6, 36)), "1/6");
    assert_eq!(fraction(&ratio(36, 36)), "1");
    assert_eq!(fraction(&ratio(0, 7)), "0");
}

// ---------------------------------------------------------------------------------------------
// Exact races.
// ---------------------------------------------------------------------------------------------

/// Races `a` against `b` (as written) on `dice` dice of `sides` sides through [`compare_written`], the
/// parse and race that `ply dice-race compare` and the web API run, and checks every field of the
/// report against the reference: the lists as written, the exact fractions (in lowest terms, adding
/// up to 1) and their floats; [`compare_fast`]'s floats too.
fn check_against_reference(dice: u32, sides: u32, a: &[u32], b: &[u32]) {
    let what = format!("{a:?} against {b:?} on {dice}d{sides}");
    let want = exact_race(dice, sides, a, b);
    let d = Dice::new(dice, sides).unwrap();
    let (report, exact) = compare_written(&d, &written(a), &written(b)).unwrap();
    assert_eq!((report.dice, report.sides), (dice, sides), "{what}");
    assert_eq!((&report.first[..], &report.second[..]), (a, b), "{what}");
    let wants = [&want.first, &want.second, &want.tie, &want.rolls];
    let exacts = [
        &exact.p_first,
        &exact.p_second,
        &exact.p_tie,
        &exact.expected_rolls,
    ];
    assert_eq!(exacts, wants, "{what}");
    assert_eq!(
        &want.first + &want.second + &want.tie,
        ratio(1, 1),
        "{what}: the three probabilities add up to 1"
    );
    let fast = compare_fast(&d, &list(&written(a), &d), &list(&written(b), &d)).unwrap();
    let e = &report.exact;
    let texts = [&e.p_first, &e.p_second, &e.p_tie, &e.expected_rolls];
    let r = &report;
    let floats = [r.p_first, r.p_second, r.p_tie, r.expected_rolls];
    let fasts = [fast.p_first, fast.p_second, fast.p_tie, fast.expected_rolls];
    let names = ["p_first", "p_second", "p_tie", "expected_rolls"];
    for i in 0..4 {
        let (name, x) = (names[i], wants[i].to_f64().unwrap());
        assert_eq!(texts[i], &fraction(wants[i]), "{what}: exact {name}");
        let tolerance = x.max(1.0);
        assert_close(floats[i], x, 1e-12 * tolerance, &format!("{what}: {name}"));
        assert_close(
            fasts[i],
            x,
            1e-9 * tolerance,
            &format!("{what}: fast {name}"),
        );
    }
}

#[test]
fn seed_comparison_and_one_pick() {
    let dice = Dice::new(2, 6).unwrap();
    let r = compare(&dice, &list("5,6,7,8,9", &dice), &list("5,6,7,8,7", &dice)).unwrap();
    assert!(r.p_first > r.p_second);
    assert_eq!(fraction(&r.p_first), SEED_FIRST);
    assert_eq!(fraction(&r.p_second), SEED_SECOND);
    assert_eq!(fraction(&r.p_tie), SEED_TIE);
    assert_eq!(fraction(&r.expected_rolls), SEED_ROLLS);
    check_against_reference(2, 6, &[5, 6, 7, 8, 9], &[5, 6, 7, 8, 7]);
    let r = compare(&dice, &list("7", &dice), &list("6", &dice)).unwrap();
    assert_eq!(
        (r.p_first, r.p_second, r.p_tie, r.expected_rolls),
        (
            ratio(6, 11),
            ratio(5, 11),
            BigRational::zero(),
            ratio(36, 11)
        )
    );
    check_against_reference(2, 6, &[7], &[6]);
}

#[test]
fn chain_matches_the_reference_on_every_pair_up_to_three_picks_on_two_d4() {
    let dice = Dice::new(2, 4).unwrap();
    let (ways, total) = enumerate_dice(2, 4);
    let mut pairs = 0;
    for picks in 1..=3 {
        let lists = all_lists(&dice, picks).unwrap();
        for a in &lists {
            for b in &lists {
                let race_ab = Race::new(&dice, a, b).unwrap();
                assert_eq!(conformance::absorbing(&race_ab), Ok(()), "{a:?} {b:?}");
                let chain = compare(&dice, a, b).unwrap();
                let want: Outcome<BigRational> = race(&ways, total, a.sums(), b.sums());
                assert_eq!(
                    (
                        chain.p_first,
                        chain.p_second,
                        chain.p_tie,
                        chain.expected_rolls
                    ),
                    (want.first, want.second, want.tie, want.rolls),
                    "{a:?} {b:?}"
                );
                pairs += 1;
            }
        }
    }
    assert_eq!(pairs, 7 * 7 + 28 * 28 + 84 * 84);
}

/// Pairs of lists of up to three sums each, with repeats, overlaps, ties and lists not in order.
const PAIRS_2D4: &[(&[u32], &[u32])] = &[
    (&[5], &[4]),
    (&[2], &[8]),
    (&[5, 5], &[5]),
    (&[4, 5, 6], &[5, 5, 5]),
    (&[4, 5, 6], &[3, 5, 7]),
    (&[2, 3, 4], &[8, 7, 6]),
    (&[5, 5, 6], &[4, 5, 5]),
    (&[4, 6], &[5, 5]),
    (&[2, 8], &[5]),
    (&[3, 5, 7], &[7, 5, 3]),
    (&[4, 4, 4], &[5]),
    (&[6, 5, 4], &[5, 6]),
    (&[2, 2, 2], &[8, 8]),
    (&[3, 4], &[4, 5, 6]),
];

const PAIRS_2D6: &[(&[u32], &[u32])] = &[
    (&[7], &[6]),
    (&[7, 7], &[6, 8]),
    (&[6, 7, 8], &[7, 7, 7]),
    (&[6, 7, 8], &[5, 7, 9]),
    (&[2, 12], &[7]),
    (&[7, 7, 6], &[7, 8, 8]),
    (&[2, 3, 4], &[10, 11, 12]),
    (&[6, 8], &[7]),
    (&[5, 6, 7], &[6, 7, 8]),
    (&[7, 7, 7], &[7, 7]),
    (&[12, 7], &[2, 7]),
    (&[4, 10, 7], &[6, 6, 8]),
    (&[3], &[11, 11]),
    (&[5, 6, 7, 8, 9], &[5, 6, 7, 8, 8]),
    (&[5, 6, 7, 8, 9], &[6, 6, 7, 8, 8]),
    (&[2, 3, 4, 5, 6], &[7, 7, 7, 7, 7]),
    (&[4, 5, 6, 7, 8], &[6, 7, 8, 9, 10]),
];

#[test]
fn reports_match_the_reference_on_known_pairs() {
    for &(a, b) in PAIRS_2D4 {
        check_against_reference(2, 4, a, b);
    }
    for &(a, b) in PAIRS_2D6 {
        check_against_reference(2, 6, a, b);
    }
    check_against_reference(3, 4, &[7, 8], &[6, 7, 9]);
    check_against_reference(1, 6, &[1, 2], &[3]);
}

#[test]
fn swapped_lists_swap_the_answer_and_order_does_not_matter() {
    let dice = Dice::new(2, 6).unwrap();
    let (seed, other) = (list("5,6,7,8,9", &dice), list("5,6,7,8,7", &dice));
    let r = compare(&dice, &other, &seed).unwrap();
    assert_eq!(
        [&r.p_first, &r.p_second, &r.p_tie, &r.expected_rolls].map(fraction),
        [SEED_SECOND, SEED_FIRST, SEED_TIE, SEED_ROLLS]
    );
    // Written in another order (spaces as well as commas), the lists race the same; the report keeps
    // them as written.
    let (report, _) = compare_written(&dice, "9 8, 7 6,5", "7,8,7,6,5").unwrap();
    assert_eq!(report.first, [9, 8, 7, 6, 5]);
    assert_eq!(report.second, [7, 8, 7, 6, 5]);
    assert_eq!(
        [
            &report.exact.p_first,
            &report.exact.p_second,
            &report.exact.p_tie,
            &report.exact.expected_rolls
        ],
        [SEED_FIRST, SEED_SECOND, SEED_TIE, SEED_ROLLS]
    );
}

#[test]
fn identical_lists_always_tie() {
    let dice = Dice::new(2, 6).unwrap();
    let r = compare(&dice, &list("5,6,7,8,9", &dice), &list("9,8,7,6,5", &dice)).unwrap();
    assert_eq!(
        [&r.p_first, &r.p_second, &r.p_tie, &r.expected_rolls].map(fraction),
        ["0", "0", "1", "6758523/380380"]
    );
    check_against_reference(2, 6, &[5, 6, 7, 8, 9], &[9, 8, 7, 6, 5]);
    let r = compare(&dice, &list("7", &dice), &list("7", &dice)).unwrap();
    assert_eq!((r.p_tie, r.expected_rolls), (ratio(1, 1), ratio(6, 1)));
}

#[test]
fn single_picks_race_in_proportion_to_their_ways() {
    // One sum each: P(first) = ways(a) / (ways(a) + ways(b)), rolls: total / (ways(a) + ways(b)).
    let dice = Dice::new(3, 4).unwrap();
    let (ways, total) = enumerate_dice(3, 4);
    for (a, b) in [(7u32, 8u32), (6, 7), (3, 12), (5, 9), (4, 7), (10, 10)] {
        let r = compare(
            &dice,
            &list(&a.to_string(), &dice),
            &list(&b.to_string(), &dice),
        )
        .unwrap();
        let (wa, wb) = (ways[a as usize] as i64, ways[b as usize] as i64);
        let total = total as i64;
        let want = if a == b {
            (ratio(0, 1), ratio(0, 1), ratio(1, 1), ratio(total, wa))
        } else {
            (
                ratio(wa, wa + wb),
                ratio(wb, wa + wb),
                ratio(0, 1),
                ratio(total, wa + wb),
            )
        };
        assert_eq!(
            (r.p_first, r.p_second, r.p_tie, r.expected_rolls),
            want,
            "[{a}] against [{b}] on 3d4"
        );
    }
    // The values themselves.
    let r = |a: &str, b: &str| {
        let r = compare(&dice, &list(a, &dice), &list(b, &dice)).unwrap();
        [r.p_first, r.p_second, r.expected_rolls].map(|q| fraction(&q))
    };
    assert_eq!(r("7", "8"), ["1/2", "1/2", "8/3"]);
    assert_eq!(r("6", "7"), ["5/11", "6/11", "32/11"]);
    assert_eq!(r("3", "12"), ["1/2", "1/2", "32"]);
}

#[test]
fn races_on_one_die() {
    let dice = Dice::new(1, 6).unwrap();
    let r = |a: &str, b: &str| {
        let r = compare(&dice, &list(a, &dice), &list(b, &dice)).unwrap();
        [r.p_first, r.p_second, r.p_tie, r.expected_rolls].map(|q| fraction(&q))
    };
    assert_eq!(r("3", "5"), ["1/2", "1/2", "0", "3"]);
    assert_eq!(r("4", "4"), ["0", "0", "1", "6"]);
    // [1,2] against [3]: the second needs one 3 (1 in 3 of the rolls that matter), the first a 1 and a
    // 2 before it: 2/3 · 1/2 = 1/3.
    assert_eq!(r("1,2", "3"), ["1/3", "2/3", "0", "4"]);
}

// ---------------------------------------------------------------------------------------------
// The sums of the dice.
// ---------------------------------------------------------------------------------------------

#[test]
fn sum_chances_match_the_enumeration() {
    for (count, sides) in [
        (2, 6),
        (3, 6),
        (1, 6),
        (3, 4),
        (2, 3),
        (4, 5),
        (1, 1),
        (5, 2),
    ] {
        let (ways, total) = enumerate_dice(count, sides);
        let dice = Dice::new(count, sides).unwrap();
        assert_eq!(dice.total(), total);
        let chances = dice.chances();
        assert_eq!(chances.len(), (count * (sides - 1) + 1) as usize);
        for (c, sum) in chances.iter().zip(count..) {
            let what = format!("{sum} on {count}d{sides}");
            assert_eq!((c.sum, c.ways), (sum, ways[sum as usize]), "{what}");
            let p = BigRational::new(c.ways.into(), total.into());
            assert_eq!(c.probability, fraction(&p), "{what}");
            assert_close(c.p, p.to_f64().unwrap(), 1e-15, &what);
        }
        assert_eq!(chances.iter().map(|c| c.ways).sum::<u128>(), total);
    }
    // Known values.
    let ways = |d: &Dice| d.chances().iter().map(|c| c.ways).collect::<Vec<_>>();
    let two_d6 = Dice::new(2, 6).unwrap();
    assert_eq!(ways(&two_d6), [1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1]);
    let probabilities: Vec<String> = two_d6
        .chances()
        .into_iter()
        .map(|c| c.probability)
        .collect();
    assert_eq!(
        probabilities,
        ["1/36", "1/18", "1/12", "1/9", "5/36", "1/6", "5/36", "1/9", "1/12", "1/18", "1/36"]
    );
    let three_d6 = Dice::new(3, 6).unwrap().chances();
    assert_eq!(
        (three_d6.len(), three_d6[0].probability.as_str()),
        (16, "1/216")
    );
    assert_eq!(
        (
            three_d6[7].sum,
            three_d6[7].ways,
            three_d6[7].probability.as_str()
        ),
        (10, 27, "1/8")
    );
}

// ---------------------------------------------------------------------------------------------
// Exact work: estimated, and refused past the limit.
// ---------------------------------------------------------------------------------------------

/// The exact work of a race by brute force over its states, nested loops over the capped counts,
/// with the model of `Race::exact_work` written out again: for each live state, its open sums × the
/// bits `b` of its fractions × (1 + b / 4000), the bits being 64 plus the smaller of the two bounds
/// (every set of open sums dividing by its weight, every denominator dividing lcm(1..=W)^depth).
fn brute_work(a: &[u32], b: &[u32], ways: &[f64]) -> u128 {
    let caps: Vec<u32> = a.iter().zip(b).map(|(x, y)| *x.max(y)).collect();
    let mut work = 0f64;
    let mut digits = vec![0u32; caps.len()];
    loop {
        let left = |list: &[u32]| -> u32 {
            list.iter()
                .zip(&digits)
                .map(|(x, d)| x.saturating_sub(*d))
                .sum()
        };
        if left(a) > 0 && left(b) > 0 {
            let open: Vec<usize> = (0..caps.len()).filter(|&j| digits[j] < caps[j]).collect();
            let weight: f64 = open.iter().map(|&j| ways[j]).sum();
            let extra: u32 = open.iter().map(|&j| caps[j] - digits[j] - 1).sum();
            let depth: u32 = digits.iter().zip(&caps).map(|(d, c)| c - d).sum();
            let u = open.len() as i32;
            let sets = weight.log2() * (2f64.powi(u - 1) * extra as f64 + 2f64.powi(u) - 1.0);
            let bits = 64.0 + sets.min(1.5 * weight * depth as f64);
            work += u as f64 * bits * (1.0 + bits / 4000.0);
        }
        let Some(j) = (0..caps.len()).find(|&j| digits[j] < caps[j]) else {
            return work as u128;
        };
        digits[j] += 1;
        digits[..j].iter_mut().for_each(|d| *d = 0);
    }
}

fn repeated(sum: u32, times: usize) -> String {
    vec![sum.to_string(); times].join(",")
}

#[test]
fn exact_work_is_estimated_and_limited() {
    let dice = Dice::new(2, 6).unwrap();
    // Ways of 6, 7 and 8 on 2d6.
    let ways = [5.0, 6.0, 5.0];
    // N sevens against one six: N live states, both sums open, 11 ways between them.
    for n in [1u32, 2, 10, 300] {
        let (a, b) = (list(&repeated(7, n as usize), &dice), list("6", &dice));
        let race = Race::new(&dice, &a, &b).unwrap();
        assert_eq!(
            race.exact_work(),
            brute_work(&[0, n], &[1, 0], &ways[..2]),
            "{n}"
        );
    }
    // Counts per sum 6, 7, 8: brute force over the states.
    for (a, b, counts_a, counts_b) in [
        ("6,6,7,8", "7,7,8", [2, 1, 1], [0, 2, 1]),
        ("6,7,7,7,8,8", "6,6,6,8", [1, 3, 2], [3, 0, 1]),
    ] {
        let race = Race::new(&dice, &list(a, &dice), &list(b, &dice)).unwrap();
        assert_eq!(
            race.exact_work(),
            brute_work(&counts_a, &counts_b, &ways),
            "{a} {b}"
        );
    }
    // 6000 sevens against a six are over the default limit of a minute (22·10^6 units a second);
    // nothing is solved, and the refusal tells the estimate in time.
    let (a, b) = (list(&repeated(7, 6000), &dice), list("6", &dice));
    let work = Race::new(&dice, &a, &b).unwrap().exact_work();
    assert_eq!(work, brute_work(&[0, 6000], &[1, 0], &ways[..2]));
    assert!(work > 60 * EXACT_RATE.per_second as u128);
    let Err(RaceError::TooSlow(over)) = compare(&dice, &a, &b) else {
        panic!("6000 sevens are refused");
    };
    assert_eq!((over.work, over.limit), (work, 1_320_000_000));
    assert_eq!(
        over.to_string(),
        "comparing these lists exactly would take about 90 s here (2·10^9 units of work; the limit \
         is 1.3·10^9, about 60 s)"
    );
    // A past deadline stops the solve itself (3 000 sevens are under the limit).
    let (a, b) = (list(&repeated(7, 3000), &dice), list("6", &dice));
    let past = Halt::after(Duration::ZERO);
    assert_eq!(
        compare_within(&dice, &a, &b, WorkLimit::DEFAULT, &past),
        Err(RaceError::Halted(Halted::TimeLimit { millis: 0 }))
    );
}
