//! The dice race: known values, the chain against an independent recursion over roll sequences, the
//! seed's simulation against its interval, and the searches.

use num_rational::BigRational;
use num_traits::{ToPrimitive, Zero};
use ply::games::dice_race::search::{all_lists, best, equilibrium, head_to_head};
use ply::games::dice_race::simulate::simulate;
use ply::games::dice_race::{compare, compare_fast, Dice, PickList};
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
        let sim = simulate(&dice, &a, &b, games, games, seed);
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
    let sim = simulate(&dice, &same, &same, 100, 10_000, 1);
    assert_eq!((sim.games, sim.ties, sim.decided), (10_000, 10_000, false));
    // A lopsided race is decided at once.
    let sim = simulate(
        &dice,
        &list("7", &dice),
        &list("2,12", &dice),
        100,
        10_000,
        1,
    );
    assert_eq!((sim.games, sim.decided), (100, true));
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
