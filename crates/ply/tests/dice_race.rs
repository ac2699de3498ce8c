//! The dice race: known values, the chain against an independent recursion over roll sequences, the
//! seed's simulation against its interval, and the searches.

use num_rational::BigRational;
use num_traits::{ToPrimitive, Zero};
use ply::engine::conformance;
use ply::games::dice_race::race::{Race, MAX_EXACT_WORK};
use ply::games::dice_race::search::multiset_count;
use ply::games::dice_race::search::{all_lists, best, equilibrium, head_to_head};
use ply::games::dice_race::simulate::{simulate, SimulateError, Stop, MAX_DRAWS};
use ply::games::dice_race::{compare, compare_fast, Dice, PickList, RaceError};
use std::cmp::Ordering;
use std::collections::HashMap;

fn list(text: &str, dice: &Dice) -> PickList {
    PickList::parse(text, dice).unwrap()
}

fn ratio(n: i64, d: i64) -> BigRational {
    BigRational::new(n.into(), d.into())
}

#[test]
fn seed_comparison_and_one_pick() {
    let dice = Dice::new(2, 6).unwrap();
    let r = compare(&dice, &list("5,6,7,8,9", &dice), &list("5,6,7,8,7", &dice)).unwrap();
    assert!(r.p_first > r.p_second);
    assert_eq!(r.p_first.to_string(), "1138029621/3424590400");
    assert_eq!(r.p_second.to_string(), "82426243/413922600");
    assert_eq!(
        &r.p_first + &r.p_second + &r.p_tie,
        BigRational::from_integer(1.into())
    );
    let r = compare(&dice, &list("7", &dice), &list("6", &dice)).unwrap();
    assert_eq!(
        (r.p_first, r.p_second, r.p_tie),
        (ratio(6, 11), ratio(5, 11), BigRational::zero())
    );
}

/// An independent method: recursion over the remaining lists themselves (not capped counts), each roll
/// of the dice one of `total` outcomes, with the outcomes that change nothing solved as a geometric
/// series: P = Σ_moving w·P(child) / Σ_moving w.
struct Recursion<'a> {
    dice: &'a Dice,
    memo: HashMap<(Vec<u32>, Vec<u32>), [BigRational; 3]>,
}

impl Recursion<'_> {
    fn solve(&mut self, a: Vec<u32>, b: Vec<u32>) -> [BigRational; 3] {
        let one = || BigRational::from_integer(1.into());
        match (a.is_empty(), b.is_empty()) {
            (true, true) => return [BigRational::zero(), BigRational::zero(), one()],
            (true, false) => return [one(), BigRational::zero(), BigRational::zero()],
            (false, true) => return [BigRational::zero(), one(), BigRational::zero()],
            _ => {}
        }
        if let Some(v) = self.memo.get(&(a.clone(), b.clone())) {
            return v.clone();
        }
        let mut acc = [
            BigRational::zero(),
            BigRational::zero(),
            BigRational::zero(),
        ];
        let mut moving = BigRational::zero();
        for sum in self.dice.sums() {
            let (mut na, mut nb) = (a.clone(), b.clone());
            let hit_a = na
                .iter()
                .position(|&s| s == sum)
                .map(|i| na.remove(i))
                .is_some();
            let hit_b = nb
                .iter()
                .position(|&s| s == sum)
                .map(|i| nb.remove(i))
                .is_some();
            if !hit_a && !hit_b {
                continue;
            }
            let w = BigRational::from_integer(self.dice.ways(sum).into());
            moving += &w;
            let child = self.solve(na, nb);
            for k in 0..3 {
                acc[k] += &w * &child[k];
            }
        }
        let v = acc.map(|x| x / &moving);
        self.memo.insert((a, b), v.clone());
        v
    }
}

#[test]
fn chain_matches_recursion_on_every_pair_up_to_three_picks_on_two_d4() {
    let dice = Dice::new(2, 4).unwrap();
    let mut recursion = Recursion {
        dice: &dice,
        memo: HashMap::new(),
    };
    let mut pairs = 0;
    for picks in 1..=3 {
        let lists = all_lists(&dice, picks).unwrap();
        for a in &lists {
            for b in &lists {
                let race = Race::new(&dice, a, b).unwrap();
                assert_eq!(conformance::absorbing(&race), Ok(()), "{a:?} {b:?}");
                let chain = compare(&dice, a, b).unwrap();
                let [p1, p2, tie] = recursion.solve(a.sums().to_vec(), b.sums().to_vec());
                assert_eq!(
                    (&chain.p_first, &chain.p_second, &chain.p_tie),
                    (&p1, &p2, &tie),
                    "{a:?} {b:?}"
                );
                let fast = compare_fast(&dice, a, b).unwrap();
                assert!((fast.p_first - p1.to_f64().unwrap()).abs() < 1e-12);
                pairs += 1;
            }
        }
    }
    assert_eq!(pairs, 7 * 7 + 28 * 28 + 84 * 84);
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
    // Identical lists always tie: no side ever reaches 60 %, so the run goes to the cap.
    let same = list("6,7,8", &dice);
    let sim = simulate(&dice, &same, &same, 100, 10_000, 1, None).unwrap();
    assert_eq!((sim.games, sim.ties, sim.decided), (10_000, 10_000, false));
    assert_eq!(sim.stopped, Stop::Cap);
    // A lopsided race is decided at once.
    let sim = simulate(
        &dice,
        &list("7", &dice),
        &list("2,12", &dice),
        100,
        10_000,
        1,
        None,
    )
    .unwrap();
    assert_eq!(
        (sim.games, sim.decided, sim.stopped),
        (100, true, Stop::Verdict)
    );
}

#[test]
fn the_seed_list_is_unbeaten_and_greedy_finds_it() {
    let dice = Dice::new(2, 6).unwrap();
    let r = best(&dice, 5).unwrap();
    assert_eq!(r.best.sums(), &[5, 6, 7, 8, 9]);
    assert!(r.unbeaten);
    assert_eq!(r.all_unbeaten.len(), 1);
    assert_eq!(r.greedy.sums(), &[5, 6, 7, 8, 9]);
    assert_eq!(r.multisets, 3003);
    // Unbeaten for real: no list wins more than it loses against it.
    for other in all_lists(&dice, 5).unwrap() {
        assert_ne!(
            head_to_head(&dice, &other, &r.best).unwrap(),
            Ordering::Greater,
            "{other:?}"
        );
    }
}

#[test]
fn mixed_equilibrium_when_no_list_is_unbeaten() {
    let dice = Dice::new(2, 3).unwrap();
    let r = best(&dice, 6).unwrap();
    assert!(!r.unbeaten);
    let e = equilibrium(&dice, 6).unwrap();
    assert!(!e.pure);
    assert!(
        e.value.abs() < 1e-9,
        "a symmetric game is worth 0: {}",
        e.value
    );
    let total: f64 = e.support.iter().map(|w| w.weight).sum();
    assert!((total - 1.0).abs() < 1e-9);
    // No list does better than the value against the mix.
    for other in all_lists(&dice, 6).unwrap() {
        let against: f64 = e
            .support
            .iter()
            .map(|w| {
                let r = compare_fast(&dice, &w.list, &other).unwrap();
                w.weight * (r.p_first - r.p_second)
            })
            .sum();
        assert!(against >= -1e-9, "{other:?} gains {against}");
    }
}

// ---------------------------------------------------------------------------------------------
// Big requests: counted without overflow, refused up front, or finite.
// ---------------------------------------------------------------------------------------------

/// Multisets of `picks` out of `sums` kinds by Pascal's rule, M(s, p) = M(s − 1, p) + M(s, p − 1),
/// saturating at `u128::MAX`: sums only, no products, unlike `multiset_count`.
fn pascal_multisets(sums: usize, picks: usize) -> u128 {
    let mut row = vec![1u128; picks + 1]; // one kind: one multiset of every size
    for _ in 1..sums {
        for p in 1..=picks {
            row[p] = row[p].saturating_add(row[p - 1]);
        }
    }
    row[picks]
}

#[test]
fn list_counts_do_not_overflow() {
    assert_eq!(multiset_count(2, 200), 201);
    assert_eq!(multiset_count(1, 140), 1);
    for sums in 1..=12 {
        for picks in [1, 2, 5, 9, 60, 127, 128, 140, 200, 500, 1000] {
            assert_eq!(
                multiset_count(sums, picks),
                pascal_multisets(sums as usize, picks as usize),
                "{sums} sums, {picks} picks"
            );
        }
    }
    // C(199, 100) is past 2^128 and saturates; C(119, 60), near 10^35, is exact.
    assert_eq!(multiset_count(100, 100), pascal_multisets(100, 100));
    assert_eq!(multiset_count(100, 100), u128::MAX);
    assert_eq!(multiset_count(60, 60), pascal_multisets(60, 60));
    assert!(multiset_count(60, 60) < u128::MAX);
}

#[test]
fn many_picks_of_few_sums_are_searched() {
    let one_side = Dice::new(1, 1).unwrap();
    let r = best(&one_side, 140).unwrap();
    assert_eq!((r.multisets, r.best.sums()), (1, &[1u32; 140][..]));
    let coin = Dice::new(1, 2).unwrap();
    let lists = all_lists(&coin, 200).unwrap();
    assert_eq!(lists.len(), 201);
    assert_eq!(lists[0].sums(), &[1u32; 200][..]);
}

/// The exact work of a race by brute force over its states: nested loops over the capped counts.
fn brute_work(a: &[u32], b: &[u32]) -> u128 {
    let caps: Vec<u32> = a.iter().zip(b).map(|(x, y)| *x.max(y)).collect();
    let mut work = 0u128;
    let mut digits = vec![0u32; caps.len()];
    loop {
        let left = |list: &[u32]| -> u32 {
            list.iter()
                .zip(&digits)
                .map(|(x, d)| x.saturating_sub(*d))
                .sum()
        };
        if left(a) > 0 && left(b) > 0 {
            let moves = digits.iter().zip(&caps).filter(|(d, c)| d < c).count() as u128;
            let depth: u32 = digits.iter().zip(&caps).map(|(d, c)| c - d).sum();
            work += moves * depth as u128;
        }
        let Some(j) = (0..caps.len()).find(|&j| digits[j] < caps[j]) else {
            return work;
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
    // N sevens against one six: N live states, 2 moves each, N − i + 1 rolls deep: N(N + 3).
    for n in [1usize, 2, 10, 300] {
        let (a, b) = (list(&repeated(7, n), &dice), list("6", &dice));
        let race = Race::new(&dice, &a, &b).unwrap();
        assert_eq!(race.exact_work(), (n * (n + 3)) as u128);
    }
    // Counts per sum 6, 7, 8: brute force over the states.
    for (a, b, counts_a, counts_b) in [
        ("6,6,7,8", "7,7,8", [2, 1, 1], [0, 2, 1]),
        ("6,7,7,7,8,8", "6,6,6,8", [1, 3, 2], [3, 0, 1]),
    ] {
        let race = Race::new(&dice, &list(a, &dice), &list(b, &dice)).unwrap();
        assert_eq!(
            race.exact_work(),
            brute_work(&counts_a, &counts_b),
            "{a} {b}"
        );
    }
    // 5476 · 5479 = 30 003 004 is just over the limit; nothing is solved.
    const { assert!(5475 * 5478 <= MAX_EXACT_WORK && 5476 * 5479 > MAX_EXACT_WORK) };
    let (a, b) = (list(&repeated(7, 5476), &dice), list("6", &dice));
    assert_eq!(
        compare(&dice, &a, &b),
        Err(RaceError::TooSlow {
            states: 10_954,
            depth: 5477,
            work: 30_003_004
        })
    );
    assert_eq!(
        compare(&dice, &a, &b).unwrap_err().to_string(),
        "the exact answer needs about 3.0e7 units of fraction arithmetic (10954 states, up to 5477 \
         rolls deep); the limit is 3.0e7, about a minute"
    );
}

#[test]
fn a_race_that_always_ties_is_called_a_tie() {
    let dice = Dice::new(2, 6).unwrap();
    let seven = list("7", &dice);
    // No cap to speak of: 10 000, 100 000, then 10⁶ games, all ties, and the run stops.
    let sim = simulate(&dice, &seven, &seven, 10_000, u64::MAX, 1, None).unwrap();
    assert_eq!(
        (sim.games, sim.ties, sim.first_wins, sim.second_wins),
        (1_000_000, 1_000_000, 0, 0)
    );
    assert_eq!((sim.stopped, sim.decided), (Stop::Tie, false));
}

#[test]
fn a_first_round_past_the_roll_limit_is_refused() {
    let dice = Dice::new(2, 6).unwrap();
    // [7] against [6]: every draw (of a 6 or a 7) ends the game, one roll a game.
    let (seven, six) = (list("7", &dice), list("6", &dice));
    assert_eq!(
        simulate(&dice, &seven, &six, MAX_DRAWS + 1, u64::MAX, 1, None),
        Err(SimulateError::TooLong {
            games: MAX_DRAWS + 1,
            draws_per_game: 1
        })
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
        "1000000000000000000 games of about 1 roll each are 1.0e18 rolls; a simulation draws at \
         most 4.0e9, a few minutes"
    );
}
