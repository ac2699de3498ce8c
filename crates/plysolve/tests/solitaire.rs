//! Number Solitaire: known values, the streaming method against the reference (`reference/
//! solitaire.rs`: an exhaustive search on short boards, the original program's table on long ones,
//! up to 1 200 000 squares), and the game under fair throws against exact rationals and a Monte
//! Carlo run.

use crate::reference;

use num_traits::ToPrimitive;
use plysolve::engine::chance::{distribution_work, exact_expectation, WindowWalk};
use plysolve::engine::util::halt::NEVER;
use plysolve::games::solitaire::{solve, PathMode, SolitaireQuery};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use reference::solitaire::{all_paths, best_and_fewest_throws};

fn best(values: &[i64], faces: u64) -> i128 {
    let text = values
        .iter()
        .map(i64::to_string)
        .collect::<Vec<_>>()
        .join(",");
    solve(
        text.as_bytes(),
        SolitaireQuery::best(faces, PathMode::Auto),
        &NEVER,
    )
    .unwrap()
    .best
}

#[test]
fn known_values() {
    assert_eq!(best(&[1, -2, 0, 9, -1, -2], 6), 8);
    assert_eq!(best(&[1, -2], 6), -1);
    assert_eq!(best(&[1, 1, -2], 6), 0);
    assert_eq!(best(&[-3, -4, -3, 2, -7, -1], 6), -2);
    assert_eq!(best(&[1, -2, 0, 9, -1, -2, 3, 0, -1, 4, -4, 6], 6), 23);
    // LeetCode 1696 "Jump Game VI".
    assert_eq!(best(&[1, -1, -2, 4, -7, 3], 2), 7);
    assert_eq!(best(&[10, -5, -2, 4, 0, 3], 3), 17);
}

proptest! {
    #[test]
    fn streaming_table_and_exhaustive_search_agree(
        values in prop::collection::vec(-20i64..=20, 1..=10),
        faces in 1u64..=4,
    ) {
        let text = values.iter().map(i64::to_string).collect::<Vec<_>>().join(" ");
        let with_path = solve(text.as_bytes(), SolitaireQuery::best(faces, PathMode::Always), &NEVER).unwrap();
        let streaming = solve(text.as_bytes(), SolitaireQuery::best(faces, PathMode::Never), &NEVER).unwrap();
        let paths = all_paths(&values, faces as usize);
        let top = paths.iter().map(|p| p.0).max().unwrap();
        let fewest = paths.iter().filter(|p| p.0 == top).map(|p| p.1).min().unwrap();
        prop_assert_eq!(streaming.best, top);
        prop_assert_eq!(streaming.path, None);
        prop_assert_eq!(with_path.best, top);
        let path = with_path.path.unwrap();
        let path: Vec<usize> = path.iter().map(|&p| p as usize).collect();
        prop_assert_eq!(path.len() - 1, fewest);
        prop_assert!(paths.iter().any(|p| p.0 == top && p.2 == path));
        let throws = with_path.throws.unwrap();
        prop_assert!(throws.iter().all(|&t| (1..=faces).contains(&t)));
    }

    #[test]
    fn forward_walk_matches_exact_backward_expectation(
        values in prop::collection::vec(-10_000i64..=10_000, 1..=40),
        faces in 1usize..=8,
    ) {
        let mut walk = WindowWalk::new(faces);
        values.iter().for_each(|&v| walk.push(v));
        let approx = walk.finish().unwrap();
        let exact = exact_expectation(&values, faces).unwrap().to_f64().unwrap();
        prop_assert!((approx - exact).abs() <= 1e-9 * exact.abs().max(1.0), "{} vs {}", approx, exact);
    }

    /// The distribution's cost model grows with everything that grows its work: a square more,
    /// a larger die, larger weights, a higher limit on the totals.
    #[test]
    fn the_distribution_estimate_grows_with_its_work(
        values in prop::collection::vec(-1_000i64..=1_000, 1..=60),
        extra in -1_000i64..=1_000,
        faces in 1usize..=60,
        factor in 1i64..=50,
        limit in 1usize..=100_000,
    ) {
        let base = distribution_work(&values, faces, limit);
        let mut longer = values.clone();
        longer.push(extra);
        prop_assert!(distribution_work(&longer, faces, limit) >= base);
        prop_assert!(distribution_work(&values, faces + 1, limit) >= base);
        let scaled: Vec<i64> = values.iter().map(|v| v * factor).collect();
        prop_assert!(distribution_work(&scaled, faces, limit) >= base);
        prop_assert!(distribution_work(&values, faces, limit + 1) >= base);
    }
}

/// Plays the seed's game with a fair die: throws that overshoot are thrown again.
fn play_fair(values: &[i64], faces: u64, rng: &mut Xoshiro256PlusPlus) -> i64 {
    let last = values.len() - 1;
    let (mut at, mut total) = (0, values[0]);
    while at < last {
        let throw = rng.random_range(1..=faces) as usize;
        if at + throw <= last {
            at += throw;
            total += values[at];
        }
    }
    total
}

#[test]
fn monte_carlo_falls_inside_its_interval_of_the_exact_expectation() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(2026);
    for (n, faces) in [(6, 6), (20, 6), (35, 3), (50, 10)] {
        let values: Vec<i64> = (0..n).map(|_| rng.random_range(-100..=100)).collect();
        let text = values
            .iter()
            .map(i64::to_string)
            .collect::<Vec<_>>()
            .join(" ");
        let mut asked = SolitaireQuery::best(faces, PathMode::Auto);
        asked.expected = true;
        let report = solve(text.as_bytes(), asked, &NEVER).unwrap();
        let expected = report.expected.unwrap();
        assert!(report.expected_exact.is_some());
        let games = 40_000;
        let results: Vec<f64> = (0..games)
            .map(|_| play_fair(&values, faces, &mut rng) as f64)
            .collect();
        let mean = results.iter().sum::<f64>() / games as f64;
        let var = results.iter().map(|r| (r - mean).powi(2)).sum::<f64>() / (games - 1) as f64;
        let half_width = 4.0 * (var / games as f64).sqrt();
        assert!(
            (mean - expected).abs() <= half_width,
            "n={n}: simulated {mean} ± {half_width}, exact {expected}"
        );
    }
}

#[test]
fn seed_board_under_fair_throws() {
    let mut asked = SolitaireQuery::best(6, PathMode::Auto);
    asked.expected = true;
    asked.distribution = true;
    let r = solve("1 -2 0 9 -1 -2".as_bytes(), asked, &NEVER).unwrap();
    assert_eq!(r.expected_exact.as_deref(), Some("11/10"));
    assert_eq!(r.expected, Some(1.1));
    let dist = r.distribution.unwrap();
    let listed: Vec<(i128, &str)> = dist
        .iter()
        .map(|d| (d.result, d.probability.as_str()))
        .collect();
    assert_eq!(
        listed,
        vec![
            (-4, "1/15"),
            (-3, "1/15"),
            (-2, "4/15"),
            (-1, "4/15"),
            (5, "1/30"),
            (6, "1/30"),
            (7, "2/15"),
            (8, "2/15")
        ]
    );
}

#[test]
fn long_boards_do_not_overflow_and_stream() {
    // 3 million squares of the largest value: the total is far beyond i64.
    let n = 3_000_000u64;
    let text = format!("{} ", i64::MAX).repeat(n as usize);
    let r = solve(
        text.as_bytes(),
        SolitaireQuery::best(6, PathMode::Never),
        &NEVER,
    )
    .unwrap();
    assert_eq!(r.best, i64::MAX as i128 * n as i128);
    assert_eq!(r.n, n);
    assert_eq!(r.path, None);
}

#[test]
fn wide_dice_take_the_best_square_in_reach() {
    // With a die as wide as the board the player jumps straight to the last square unless a
    // positive square lies between.
    let values: Vec<i64> = (0..1000).map(|i| if i == 500 { 7 } else { -1 }).collect();
    let text = values
        .iter()
        .map(i64::to_string)
        .collect::<Vec<_>>()
        .join(" ");
    let r = solve(
        text.as_bytes(),
        SolitaireQuery::best(100_000, PathMode::Auto),
        &NEVER,
    )
    .unwrap();
    assert_eq!(r.best, -1 + 7 - 1);
    assert_eq!(r.path, Some(vec![0, 500, 999]));
}

#[test]
fn every_small_size_and_die_agrees_with_exhaustive_search() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(10);
    for n in 1..=10usize {
        for faces in 1..=4u64 {
            for _ in 0..10 {
                let values: Vec<i64> = (0..n).map(|_| rng.random_range(-9..=9)).collect();
                let top = all_paths(&values, faces as usize)
                    .iter()
                    .map(|p| p.0)
                    .max()
                    .unwrap();
                assert_eq!(
                    best(&values, faces),
                    top,
                    "{values:?} with a {faces}-sided die"
                );
            }
        }
    }
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

#[test]
fn long_boards_agree_with_the_original_table() {
    for (n, die, seed) in [
        (2, 1, 1),
        (7, 2, 2),
        (10, 3, 3),
        (10, 4, 4),
        (25, 6, 5),
        (40, 6, 6),
        (60, 5, 7),
        (1_200_000, 6, 12_345),
    ] {
        let values = pseudo_random_board(n, seed);
        let (best, fewest) = best_and_fewest_throws(&values, die);
        let text: Vec<String> = values.iter().map(i64::to_string).collect();
        let options = SolitaireQuery::best(die as u64, PathMode::Always);
        let r = solve(text.join(" ").as_bytes(), options, &NEVER).unwrap();
        assert_eq!(
            (r.best, r.n, r.die),
            (best as i128, n as u64, die as u64),
            "n {n}"
        );
        let path = r.path.unwrap();
        assert_eq!(path.len() as u64, fewest + 1, "the fewest throws, n {n}");
        assert_eq!((path[0], *path.last().unwrap()), (0, n as u64 - 1));
        assert_eq!(path.iter().map(|&s| values[s as usize]).sum::<i64>(), best);
        let throws: Vec<u64> = path.windows(2).map(|w| w[1] - w[0]).collect();
        assert!(throws.iter().all(|t| (1..=die as u64).contains(t)));
        assert_eq!(r.throws.unwrap(), throws);
    }
}
