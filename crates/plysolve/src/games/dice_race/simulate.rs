//! The original program's method, kept for comparison: Monte Carlo games with its sequential stopping
//! rule, each game played by the race's rules ([`super::rules::Standing`]).
//!
//! Two guards keep every run finite: a race whose games (almost) all tie is called a tie once the
//! decisive games are shown to be rarer than [`TIE_BELOW`], and no run draws more rolls than its
//! limit allows ([`MAX_DRAWS`] under [`WorkLimit::DEFAULT`]; a first round that would is refused
//! before it starts, with its estimate; a cap beyond it is lowered to it). A run obeys its halt,
//! checked every 10⁵ rolls or so.

use super::dice::Dice;
use super::race::{solve_fast, PickList, Race, RaceError};
use super::rules::{Finish, Standing};
use crate::engine::util::cost::{OverLimit, Rate, WorkLimit};
use crate::engine::util::estimate::Estimate;
use crate::engine::util::halt::{Halt, Halted, NEVER};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::Serialize;
use thiserror::Error;

/// Share of decisive games that makes a verdict.
pub const DECISIVE_SHARE: f64 = 0.6;

/// A race is called a tie when the upper end of the 95 % interval of P(a game is decisive) falls below
/// this: neither side can then win more often than the other by more than 10⁻⁵. With no decisive game
/// at all this takes 10⁶ games (the interval's upper end is about 3.84 / games).
pub const TIE_BELOW: f64 = 1e-5;

/// Rolls drawn a second, on one core: 6.8·10⁷ measured (release build, 10⁸ games of [6, 7] against
/// [8, 7], CPU time on a busy machine), rounded so that a minute is [`MAX_DRAWS`].
pub const DRAW_RATE: Rate = Rate::per_second(66_666_667);

/// Most rolls one simulation draws (games × expected rolls per game) under [`WorkLimit::DEFAULT`]:
/// about a minute.
pub const MAX_DRAWS: u64 = 4_000_000_000;

/// What a simulation is called in its refusal.
pub const SIMULATE_WHAT: &str = "simulating these games";

/// Rolls between two checks of the halt (a few milliseconds).
const CHECK_EVERY_DRAWS: f64 = 1e5;

/// Why a run stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Stop {
    /// One side won at least [`DECISIVE_SHARE`] of the decisive games.
    Verdict,
    /// Decisive games were shown rarer than [`TIE_BELOW`].
    Tie,
    /// The cap on games was reached.
    Cap,
    /// The next round would have passed the limit on rolls ([`MAX_DRAWS`] under the default limit).
    WorkLimit,
}

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
    /// Why the run stopped.
    pub stopped: Stop,
}

/// A simulation refused before it starts, or stopped.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SimulateError {
    /// The first round alone would draw more rolls than the limit allows: its estimate (rolls).
    #[error(transparent)]
    TooLong(OverLimit),
    /// The race itself cannot be solved (its expected length is needed for the estimate).
    #[error(transparent)]
    Race(#[from] RaceError),
    /// The halt came before the end of the run.
    #[error(transparent)]
    Halted(#[from] Halted),
}

/// Told, after every block of games, how many games have been played and how many the current round
/// plays in all.
pub type SimulationProgress<'a> = &'a dyn Fn(u64, u64);

/// Draws between two progress calls (about 20 ms).
const PROGRESS_EVERY: f64 = 1e6;

/// Expected draws per game: the exact expected rolls (in floats) of which only the rolls of a listed
/// sum are drawn.
fn draws_per_game(race: &Race, listed: u128, dice: &Dice, halt: &Halt) -> Result<f64, RaceError> {
    let rolls = solve_fast(race, halt)?.expected_rolls;
    Ok(rolls * listed as f64 / dice.total() as f64)
}

/// Plays `first` against `second`: `start` games, then ten times as many in all, and so on, until one
/// side wins at least [`DECISIVE_SHARE`] of the decisive games, the race is shown a tie
/// ([`TIE_BELOW`]), `cap` games have been played, or the next round would pass [`MAX_DRAWS`]. Refused
/// if the first round alone would.
pub fn simulate(
    dice: &Dice,
    first: &PickList,
    second: &PickList,
    start: u64,
    cap: u64,
    seed: u64,
    progress: Option<SimulationProgress<'_>>,
) -> Result<Simulation, SimulateError> {
    let run = Run {
        start,
        cap,
        seed,
        limit: WorkLimit::DEFAULT,
    };
    simulate_within(dice, (first, second), run, progress, &NEVER)
}

/// The games a simulation plays and what it may spend: `start` games, at most `cap`, from `seed`;
/// rolls drawn up to what `limit` allows at [`DRAW_RATE`] (never more than [`MAX_DRAWS`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Run {
    /// Games of the first round.
    pub start: u64,
    /// Most games in all.
    pub cap: u64,
    /// Seed of the random generator.
    pub seed: u64,
    /// The work the run may do.
    pub limit: WorkLimit,
}

/// The rolls a run may draw under `limit`.
pub fn draw_limit(limit: WorkLimit) -> u64 {
    limit.units(DRAW_RATE).min(MAX_DRAWS as u128) as u64
}

/// [`simulate`] as `run` says, stopped when `halt` comes (checked every 10⁵ rolls or so).
pub fn simulate_within(
    dice: &Dice,
    (first, second): (&PickList, &PickList),
    run: Run,
    progress: Option<SimulationProgress<'_>>,
    halt: &Halt,
) -> Result<Simulation, SimulateError> {
    let mut standing = Standing::new(first, second);
    // Rolls of other sums change nothing: draw among the listed sums only, by the running totals of
    // their weights (the first running total above the draw names the sum).
    let running: Vec<u128> = standing
        .sums()
        .iter()
        .scan(0u128, |acc, &s| {
            *acc += dice.ways(s);
            Some(*acc)
        })
        .collect();
    let total = *running.last().expect("lists are not empty");
    let race = Race::new(dice, first, second)?;
    let per_game = draws_per_game(&race, total, dice, halt)?;
    let cap = run.cap.max(1);
    let first_round = run.start.max(1).min(cap);
    let max_draws = draw_limit(run.limit);
    let first_draws = first_round as f64 * per_game;
    if first_draws > max_draws as f64 {
        return Err(SimulateError::TooLong(OverLimit {
            what: SIMULATE_WHAT.into(),
            work: first_draws.min(u128::MAX as f64) as u128,
            limit: max_draws as u128,
            rate: DRAW_RATE,
        }));
    }
    // The most games the limit allows: rounds stop short of it.
    let affordable = (max_draws as f64 / per_game.max(1.0)) as u64;
    let report_every = (PROGRESS_EVERY / per_game.max(1.0)).max(1.0) as u64;
    let check_every = (CHECK_EVERY_DRAWS / per_game.max(1.0)).max(1.0) as u64;
    let watched = halt.can_halt();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(run.seed);
    let (mut games, mut wins, mut target) = (0u64, [0u64; 3], first_round);
    loop {
        while games < target {
            standing.restart();
            let finish = loop {
                if let Some(finish) = standing.finish() {
                    break finish;
                }
                let r = rng.random_range(0..total);
                standing.cross_at(running.partition_point(|&t| t <= r));
            };
            let outcome = match finish {
                Finish::First => 0,
                Finish::Second => 1,
                Finish::Tie => 2,
            };
            wins[outcome] += 1;
            games += 1;
            if let Some(progress) = progress.filter(|_| games % report_every == 0) {
                progress(games, target);
            }
            if watched && games % check_every == 0 {
                if let Some(why) = halt.check() {
                    return Err(SimulateError::Halted(why));
                }
            }
        }
        let next = games.saturating_mul(10).min(cap);
        if let Some(stopped) = stop(wins, cap, next, affordable) {
            return Ok(Simulation {
                games,
                first_wins: wins[0],
                second_wins: wins[1],
                ties: wins[2],
                p_first: Estimate::wilson(wins[0], games),
                p_second: Estimate::wilson(wins[1], games),
                p_tie: Estimate::wilson(wins[2], games),
                decided: stopped == Stop::Verdict,
                stopped,
            });
        }
        target = next;
    }
}

/// Whether a run stops after a round, given its `[first, second, tie]` counts, the cap, the next
/// round's target and the most games the limit on rolls allows; `None` to play on.
fn stop(wins: [u64; 3], cap: u64, next: u64, affordable: u64) -> Option<Stop> {
    let games = wins.iter().sum();
    let decisive = wins[0] + wins[1];
    if decisive > 0 && wins[0].max(wins[1]) as f64 >= DECISIVE_SHARE * decisive as f64 {
        Some(Stop::Verdict)
    } else if Estimate::wilson(decisive, games).high < TIE_BELOW {
        Some(Stop::Tie)
    } else if games >= cap {
        Some(Stop::Cap)
    } else if next > affordable {
        Some(Stop::WorkLimit)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stopping_rules_in_order() {
        // 60 of 100 decisive games: a verdict, whatever else holds.
        assert_eq!(stop([60, 40, 0], 100, 100, 0), Some(Stop::Verdict));
        assert_eq!(stop([59, 41, 0], 1000, 1000, 10_000), None);
        // No decisive game: a tie once 3.84 / (games + 3.84) < 10⁻⁵, from 384 143 games on.
        assert_eq!(stop([0, 0, 384_142], u64::MAX, 3_841_420, u64::MAX), None);
        assert_eq!(
            stop([0, 0, 384_143], u64::MAX, 3_841_430, u64::MAX),
            Some(Stop::Tie)
        );
        // Two even decisive games in 10⁶ are rare enough to call a tie (the interval ends near 7·10⁻⁶),
        // six are not (near 1.3·10⁻⁵).
        assert_eq!(
            stop([1, 1, 999_998], u64::MAX, 10_000_000, u64::MAX),
            Some(Stop::Tie)
        );
        assert_eq!(stop([3, 3, 999_994], u64::MAX, 10_000_000, u64::MAX), None);
        // The cap, then the work limit.
        assert_eq!(stop([50, 50, 0], 100, 100, 1000), Some(Stop::Cap));
        assert_eq!(stop([50, 50, 0], 10_000, 1000, 999), Some(Stop::WorkLimit));
        assert_eq!(stop([50, 50, 0], 10_000, 1000, 1000), None);
    }
}
