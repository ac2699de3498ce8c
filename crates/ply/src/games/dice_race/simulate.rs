//! The seed's method, kept for comparison: Monte Carlo games with its sequential stopping rule.

use super::dice::Dice;
use super::race::PickList;
use crate::engine::estimate::Estimate;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde::Serialize;

/// Share of decisive games that makes a verdict.
pub const DECISIVE_SHARE: f64 = 0.6;

/// Counts and estimates from a simulation.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Simulation {
    /// Games played.
    pub games: u64,
    /// Games the first list won.
    pub first_wins: u64,
    /// Games the second list won.
    pub second_wins: u64,
    /// Tied games.
    pub ties: u64,
    /// Estimate and 95 % interval (Wilson) of P(first wins).
    pub p_first: Estimate,
    /// The same for P(second wins).
    pub p_second: Estimate,
    /// The same for P(tie).
    pub p_tie: Estimate,
    /// Whether one side reached the decisive share of decisive games before the cap.
    pub decided: bool,
}

/// Plays `first` against `second`: `start` games, then ten times as many in all, and so on, until one
/// side wins at least [`DECISIVE_SHARE`] of the decisive games or `cap` games have been played.
pub fn simulate(
    dice: &Dice,
    first: &PickList,
    second: &PickList,
    start: u64,
    cap: u64,
    seed: u64,
) -> Simulation {
    let mut sums: Vec<u32> = first.sums().iter().chain(second.sums()).copied().collect();
    sums.sort_unstable();
    sums.dedup();
    // Rolls of other sums change nothing: draw among the listed sums only.
    let weights: Vec<u128> = sums.iter().map(|&s| dice.ways(s)).collect();
    let total: u128 = weights.iter().sum();
    let a: Vec<u32> = sums.iter().map(|&s| first.count(s)).collect();
    let b: Vec<u32> = sums.iter().map(|&s| second.count(s)).collect();
    let mut rng = StdRng::seed_from_u64(seed);
    let (mut games, mut wins, mut target) = (0u64, [0u64; 3], start.max(1).min(cap.max(1)));
    let mut left_a = a.clone();
    let mut left_b = b.clone();
    loop {
        while games < target {
            left_a.copy_from_slice(&a);
            left_b.copy_from_slice(&b);
            let (mut rest_a, mut rest_b) = (first.sums().len(), second.sums().len());
            while rest_a > 0 && rest_b > 0 {
                let mut r = rng.random_range(0..total);
                let j = weights
                    .iter()
                    .position(|&w| {
                        if r < w {
                            true
                        } else {
                            r -= w;
                            false
                        }
                    })
                    .expect("a draw below the total");
                if left_a[j] > 0 {
                    left_a[j] -= 1;
                    rest_a -= 1;
                }
                if left_b[j] > 0 {
                    left_b[j] -= 1;
                    rest_b -= 1;
                }
            }
            let outcome = match (rest_a, rest_b) {
                (0, 0) => 2,
                (0, _) => 0,
                _ => 1,
            };
            wins[outcome] += 1;
            games += 1;
        }
        let decisive = wins[0] + wins[1];
        let decided =
            decisive > 0 && wins[0].max(wins[1]) as f64 >= DECISIVE_SHARE * decisive as f64;
        if decided || games >= cap {
            return Simulation {
                games,
                first_wins: wins[0],
                second_wins: wins[1],
                ties: wins[2],
                p_first: Estimate::wilson(wins[0], games),
                p_second: Estimate::wilson(wins[1], games),
                p_tie: Estimate::wilson(wins[2], games),
                decided,
            };
        }
        target = games.saturating_mul(10).min(cap);
    }
}
