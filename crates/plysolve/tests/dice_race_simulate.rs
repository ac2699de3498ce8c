//! The seed's Monte Carlo method, kept beside the exact answer: its rounds and stopping rule, its
//! estimates and Wilson intervals recomputed by the reference of `reference/dice_race.rs`, the exact
//! values beside them, known runs of fixed seeds, and the limit on rolls; the race played roll by roll
//! (`dice_race::play`, by the rules of `dice_race::rules`) against the reference's crossing off and
//! its exact races.

use crate::reference;

use num_traits::ToPrimitive;
use plysolve::engine::util::cost::WorkLimit;
use plysolve::engine::util::halt::{Halt, Halted, NEVER};
use plysolve::games::dice_race::play::{RaceGameReport, RaceGameRequest, MAX_ROLLS};
use plysolve::games::dice_race::report::{CompareReport, SimulateReport};
use plysolve::games::dice_race::request::{CompareRequest, DiceRaceFault};
use plysolve::games::dice_race::rules::Finish;
use plysolve::games::dice_race::simulate::{
    simulate, simulate_within, Run, SimulateError, Stop, MAX_DRAWS,
};
use plysolve::games::dice_race::{compare, Dice, ExactComparison, PickList};
use plysolve::input::number_list::NumberList;
use reference::dice_race::{
    assert_close, cross_off, exact_race, fraction, wilson, SEED_FIRST, SEED_SECOND, SEED_TIE,
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

// ---------------------------------------------------------------------------------------------
// The seed's simulation.
// ---------------------------------------------------------------------------------------------

/// `ply dice-race simulate`'s report of `a` against `b` (as written) on `dice`: `start` games, then
/// ten times as many in all, up to `cap`, from `seed` (no timings).
fn simulation(
    dice: &Dice,
    a: &str,
    b: &str,
    (start, cap, seed): (u64, u64, u64),
) -> SimulateReport {
    let (report, exact) = compare_written(dice, a, b).unwrap();
    let sim = simulate(dice, &list(a, dice), &list(b, dice), start, cap, seed, None).unwrap();
    SimulateReport::new(
        (report.first, report.second),
        seed,
        &sim,
        &exact,
        (0.0, 0.0),
    )
}

/// Checks a simulation's report for consistency: the counts add up, the number of games is one of the
/// rounds (`start`, then ten times as many in all, …, capped), the verdict follows the 60 % rule and
/// the stop its reason, each estimate is the frequency with the Wilson interval recomputed here, and
/// the exact values are the reference's.
fn check_simulation(r: &SimulateReport, (count, sides): (u32, u32), start: u64, cap: u64) {
    let what = format!("{:?} against {:?}", r.first, r.second);
    let (fw, sw, ties, games) = (r.first_wins, r.second_wins, r.ties, r.games);
    assert_eq!(fw + sw + ties, games, "{what}");
    let mut steps = vec![start.min(cap)];
    while *steps.last().unwrap() < cap {
        steps.push(steps.last().unwrap().saturating_mul(10).min(cap));
    }
    assert!(
        steps.contains(&games),
        "{what}: {games} is one of {steps:?}"
    );
    let decisive = fw + sw;
    let verdict = decisive > 0 && fw.max(sw) as f64 >= 0.6 * decisive as f64;
    assert_eq!(r.decided, verdict, "{what}");
    assert_eq!(r.stopped == Stop::Verdict, verdict, "{what}");
    if r.stopped == Stop::Cap {
        assert_eq!(
            games, cap,
            "{what}: a run stopped by the cap played the cap"
        );
    }
    if r.stopped == Stop::Tie {
        assert_eq!(
            decisive, 0,
            "{what}: no decisive game in the runs tested here"
        );
    }
    let want = exact_race(count, sides, &r.first, &r.second);
    for (name, side, hits, q) in [
        ("p_first", &r.p_first, fw, &want.first),
        ("p_second", &r.p_second, sw, &want.second),
        ("p_tie", &r.p_tie, ties, &want.tie),
    ] {
        let e = side.estimate;
        let (p, low, high) = wilson(hits, games);
        assert_eq!(e.p, p, "{what}: {name}");
        assert_close(e.low, low, 1e-12, name);
        assert_close(e.high, high, 1e-12, name);
        assert!(
            e.low <= e.p && e.p <= e.high,
            "{what}: {name} in its interval"
        );
        assert_eq!(side.exact, fraction(q), "{what}: {name}");
        assert_close(
            side.exact_value,
            q.to_f64().unwrap(),
            1e-15,
            &format!("{what}: {name}"),
        );
        let x = side.exact_value;
        assert_eq!(side.inside, e.low <= x && x <= e.high, "{what}: {name}");
    }
}

#[test]
fn the_seed_simulation_is_reproducible_and_consistent() {
    let dice = Dice::new(2, 6).unwrap();
    let run = |seed| simulation(&dice, "5,6,7,8,9", "5,6,7,8,7", (10_000, 10_000_000, seed));
    let one = run(7);
    check_simulation(&one, (2, 6), 10_000, 10_000_000);
    assert_eq!(one, run(7));
    assert_eq!(
        (one.games, one.first_wins, one.second_wins, one.ties),
        (10_000, 3411, 1998, 4591)
    );
    assert_eq!((one.decided, one.stopped), (true, Stop::Verdict));
    assert_eq!(
        [&one.p_first.exact, &one.p_second.exact, &one.p_tie.exact],
        [SEED_FIRST, SEED_SECOND, SEED_TIE]
    );
    assert!(one.p_first.inside && one.p_second.inside && one.p_tie.inside);
    // Another seed, another run.
    let other = run(8);
    check_simulation(&other, (2, 6), 10_000, 10_000_000);
    assert_eq!(
        (other.first_wins, other.second_wins, other.ties),
        (3290, 2013, 4697)
    );
}

#[test]
fn simulation_falls_inside_its_interval() {
    let dice = Dice::new(2, 6).unwrap();
    for (a, b, seed) in [
        ("5,6,7,8,9", "5,6,7,8,7", 1),
        ("7", "6", 2),
        ("2,12", "7,7,7", 3),
    ] {
        let (a, b) = (list(a, &dice), list(b, &dice));
        let exact = compare(&dice, &a, &b).unwrap().to_floats();
        let games = 20_000;
        let sim = simulate(&dice, &a, &b, games, games, seed, None).unwrap();
        assert_eq!(sim.games, games);
        // Four standard errors: a fixed seed, and room for three estimates at once.
        let close = |p: f64, exact: f64| {
            (p - exact).abs() <= 4.0 * (exact * (1.0 - exact) / games as f64).sqrt() + 1e-12
        };
        assert!(close(sim.p_first.p, exact.p_first), "{sim:?} {exact:?}");
        assert!(close(sim.p_second.p, exact.p_second), "{sim:?} {exact:?}");
        assert!(close(sim.p_tie.p, exact.p_tie), "{sim:?} {exact:?}");
        // The 95 % interval is a proper interval around the estimate.
        assert!(sim.p_first.low < sim.p_first.p && sim.p_first.p < sim.p_first.high);
    }
}

#[test]
fn sequential_stopping_multiplies_by_ten() {
    let dice = Dice::new(2, 6).unwrap();
    // Lists, (start, cap, seed), then games, first wins, second wins, ties, and why the run stopped.
    let cases = [
        // Identical lists always tie: no side ever reaches 60 %, so the run goes to the cap.
        (
            "6,7,8",
            "6,7,8",
            (100, 10_000, 1),
            (10_000, 0, 0, 10_000),
            Stop::Cap,
        ),
        (
            "5,6,7",
            "7,6,5",
            (1000, 25_000, 1),
            (25_000, 0, 0, 25_000),
            Stop::Cap,
        ),
        // An even race: 100, 1000, 10 000, then the cap 30 000.
        (
            "6",
            "8",
            (100, 30_000, 1),
            (30_000, 14_932, 15_068, 0),
            Stop::Cap,
        ),
        // A start above the cap plays the cap: 300 games, too few for a verdict.
        (
            "5,6,7,8,9",
            "5,6,7,8,7",
            (5000, 300, 7),
            (300, 99, 70, 131),
            Stop::Cap,
        ),
        // A lopsided race is decided at once.
        (
            "7",
            "2,12",
            (100, 10_000, 1),
            (100, 97, 3, 0),
            Stop::Verdict,
        ),
    ];
    for (a, b, run, (games, first, second, ties), stopped) in cases {
        let r = simulation(&dice, a, b, run);
        check_simulation(&r, (2, 6), run.0, run.1);
        assert_eq!(
            (r.games, r.first_wins, r.second_wins, r.ties, r.stopped),
            (games, first, second, ties, stopped),
            "{a} against {b}"
        );
    }
}

#[test]
fn simulation_on_other_dice() {
    let dice = Dice::new(3, 4).unwrap();
    let r = simulation(&dice, "7,8", "6,7,9", (2000, 10_000_000, 5));
    check_simulation(&r, (3, 4), 2000, 10_000_000);
    assert_eq!(
        [&r.p_first.exact, &r.p_second.exact, &r.p_tie.exact],
        ["423/748", "325/1496", "325/1496"]
    );
}

#[test]
fn intervals_of_no_hits_contain_zero() {
    let dice = Dice::new(2, 6).unwrap();
    // Identical lists, 500 games: no wins either way, and P(win) is exactly 0.
    let r = simulation(&dice, "5,6,7", "5,6,7", (10_000, 500, 1));
    assert_eq!((r.games, r.ties), (500, 500));
    for side in [&r.p_first, &r.p_second] {
        assert_eq!(side.exact, "0");
        assert_eq!((side.estimate.p, side.estimate.low), (0.0, 0.0));
        assert!(side.inside);
    }
    // [6] against [8]: never a tie, and the interval of the tie's 0 contains 0.
    let r = simulation(&dice, "6", "8", (100, 30_000, 1));
    assert_eq!(r.ties, 0);
    assert_eq!((r.p_tie.estimate.p, r.p_tie.estimate.low), (0.0, 0.0));
    assert!(r.p_tie.inside);
}

#[test]
fn a_race_that_always_ties_is_called_a_tie() {
    let dice = Dice::new(2, 6).unwrap();
    // No cap to speak of: 10 000, 100 000, then 10⁶ games, all ties, and the run stops.
    let r = simulation(&dice, "7", "7", (10_000, u64::MAX, 1));
    check_simulation(&r, (2, 6), 10_000, u64::MAX);
    assert_eq!(
        (r.games, r.ties, r.first_wins, r.second_wins),
        (1_000_000, 1_000_000, 0, 0)
    );
    assert_eq!((r.stopped, r.decided), (Stop::Tie, false));
    assert_eq!(r.p_tie.exact, "1");
}

#[test]
fn a_first_round_past_the_roll_limit_is_refused() {
    let dice = Dice::new(2, 6).unwrap();
    // [7] against [6]: every draw (of a 6 or a 7) ends the game, one roll a game.
    let (seven, six) = (list("7", &dice), list("6", &dice));
    let Err(SimulateError::TooLong(over)) =
        simulate(&dice, &seven, &six, MAX_DRAWS + 1, u64::MAX, 1, None)
    else {
        panic!("a first round past the limit is refused");
    };
    assert_eq!(
        (over.work, over.limit),
        (MAX_DRAWS as u128 + 1, MAX_DRAWS as u128)
    );
    assert_eq!(
        simulate(
            &dice,
            &seven,
            &six,
            1_000_000_000_000_000_000,
            u64::MAX,
            1,
            None
        )
        .unwrap_err()
        .to_string(),
        "simulating these games would take over a century here (1·10^18 units of work; the limit \
         is 4·10^9, about 60 s)"
    );
    // A lower limit, as a server's time limit gives: 10^6 games are refused under 10 ms.
    let run = Run {
        start: 1_000_000,
        cap: u64::MAX,
        seed: 1,
        limit: WorkLimit::of(Duration::from_millis(10)),
    };
    assert_eq!(
        simulate_within(&dice, (&seven, &six), run, None, &NEVER)
            .unwrap_err()
            .to_string(),
        "simulating these games would take under a second here (1·10^6 units of work; the limit \
         is 6.7·10^5, under a second)"
    );
    // A past deadline stops a run that the limit allows.
    let run = Run {
        limit: WorkLimit::DEFAULT,
        ..run
    };
    let past = Halt::after(Duration::ZERO);
    assert_eq!(
        simulate_within(&dice, (&seven, &six), run, None, &past),
        Err(SimulateError::Halted(Halted::TimeLimit { millis: 0 }))
    );
}

/// The race played roll by roll for the page (`RaceGameRequest`, the rules of `dice_race::rules`)
/// answered for `first` against `second` on 2d6 with `seed`, `rolls` rolls asked for.
fn race_game(first: &str, second: &str, seed: u64, rolls: u64) -> RaceGameReport {
    let request = RaceGameRequest {
        first: NumberList::text(first),
        second: NumberList::text(second),
        dice: 2,
        sides: 6,
        seed,
        rolls,
    };
    request.answer_until(&NEVER).unwrap()
}

#[test]
fn a_race_rolled_from_a_seed_has_known_rolls_and_the_references_chances() {
    // Seed 10 throws 7 then 6: 5 against 8 are left, 4/36 against 5/36.
    let r = race_game("5,6,7", "7,8", 10, 2);
    let sums: Vec<u32> = r.rolls.iter().map(|roll| roll.sum).collect();
    assert_eq!(sums, vec![7, 6]);
    assert_eq!(
        (r.first_left.clone(), r.second_left.clone()),
        (vec![5], vec![8])
    );
    assert_eq!(r.finish, None);
    let exact = exact_race(2, 6, &[5], &[8]);
    let chances = r.chances.unwrap();
    assert_eq!(chances.exact.p_first, fraction(&exact.first));
    assert_eq!(chances.exact.p_first, "4/9");
    assert_eq!(chances.exact.p_tie, fraction(&exact.tie));
}

#[test]
fn the_races_rules_cross_off_as_the_reference_does_roll_by_roll() {
    let mut ends = [0; 3];
    for (first, second) in [
        ("5,6,7", "7,8"),
        ("7,7", "7"),
        ("6,8,6", "8,6"),
        ("2,12", "7"),
    ] {
        let a: Vec<u32> = first.split(',').map(|s| s.parse().unwrap()).collect();
        let b: Vec<u32> = second.split(',').map(|s| s.parse().unwrap()).collect();
        for seed in 0..40 {
            let whole = race_game(first, second, seed, MAX_ROLLS);
            let sums: Vec<u32> = whole.rolls.iter().map(|roll| roll.sum).collect();
            let (after, end) = cross_off(&a, &b, &sums);
            let here = format!("{first} vs {second}, seed {seed}");
            // Every race of these lists ends well within the rolls asked for, on its last roll.
            assert_eq!(after.len(), sums.len(), "{here}");
            let end = end.unwrap_or_else(|| panic!("{here}: no end"));
            ends[end] += 1;
            let finish = [Finish::First, Finish::Second, Finish::Tie][end];
            assert_eq!(whole.finish, Some(finish), "{here}");
            // Each shorter answer is the same race stopped earlier, its lists as the reference's,
            // its chances the reference's exact race of the lists left.
            for k in [1, sums.len() / 2, sums.len() - 1]
                .into_iter()
                .filter(|&k| k >= 1 && k < sums.len())
            {
                let part = race_game(first, second, seed, k as u64);
                assert_eq!(part.rolls, whole.rolls[..k], "{here}");
                let (left_a, left_b) = &after[k - 1];
                assert_eq!(
                    (&part.first_left, &part.second_left),
                    (left_a, left_b),
                    "{here} after {k}"
                );
                let exact = exact_race(2, 6, left_a, left_b);
                let chances = part.chances.unwrap();
                assert_eq!(
                    chances.exact.p_first,
                    fraction(&exact.first),
                    "{here} after {k}"
                );
                assert_eq!(
                    chances.exact.p_second,
                    fraction(&exact.second),
                    "{here} after {k}"
                );
            }
            for roll in &whole.rolls {
                assert_eq!(roll.faces.iter().sum::<u32>(), roll.sum, "{here}");
            }
        }
    }
    // All three ends were reached: the sweep is not one-sided.
    assert!(ends.iter().all(|&n| n > 0), "{ends:?}");
}
