//! The reports of `ply dice-race compare` (and of `POST /api/dice-race/compare`) and `simulate`: serde
//! types, so every front end prints the same JSON. The requests that lead to them are in
//! [`request`](super::request).

use super::race::ExactComparison;
use super::simulate::{Simulation, Stop};
use super::Dice;
use crate::engine::util::estimate::Estimate;
use crate::engine::util::fraction::format_fraction;
use num_rational::BigRational;
use serde::Serialize;

/// The exact probabilities as reduced fractions, `"a/b"`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ExactFractions {
    /// P(the first list finishes first).
    pub p_first: String,
    /// P(the second list finishes first).
    pub p_second: String,
    /// P(both finish on the same roll).
    pub p_tie: String,
    /// Expected number of rolls until the race ends.
    pub expected_rolls: String,
}

/// A race of two lists, exactly and in floats.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CompareReport {
    /// Number of dice.
    pub dice: u32,
    /// Sides of each die.
    pub sides: u32,
    /// The first list as written.
    pub first: Vec<u32>,
    /// The second list as written.
    pub second: Vec<u32>,
    /// P(the first list finishes first).
    pub p_first: f64,
    /// P(the second list finishes first).
    pub p_second: f64,
    /// P(both finish on the same roll).
    pub p_tie: f64,
    /// Expected number of rolls until the race ends.
    pub expected_rolls: f64,
    /// The same, exactly.
    pub exact: ExactFractions,
}

impl CompareReport {
    /// The report of a solved race of the lists `first` and `second` as written.
    pub fn new(dice: &Dice, first: Vec<u32>, second: Vec<u32>, exact: &ExactComparison) -> Self {
        let f = exact.to_floats();
        CompareReport {
            dice: dice.count(),
            sides: dice.sides(),
            first,
            second,
            p_first: f.p_first,
            p_second: f.p_second,
            p_tie: f.p_tie,
            expected_rolls: f.expected_rolls,
            exact: ExactFractions {
                p_first: format_fraction(&exact.p_first),
                p_second: format_fraction(&exact.p_second),
                p_tie: format_fraction(&exact.p_tie),
                expected_rolls: format_fraction(&exact.expected_rolls),
            },
        }
    }
}

/// One simulated probability beside the exact one.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SimulatedChance {
    /// The simulation's estimate with its 95 % interval.
    pub estimate: Estimate,
    /// The exact probability as a reduced fraction.
    pub exact: String,
    /// The exact probability as a float.
    pub exact_value: f64,
    /// Whether the exact value lies inside the interval.
    pub inside: bool,
}

impl SimulatedChance {
    /// `estimate` beside the exact `value` (`approx` its float).
    pub fn new(estimate: Estimate, value: &BigRational, approx: f64) -> Self {
        SimulatedChance {
            estimate,
            exact: format_fraction(value),
            exact_value: approx,
            inside: estimate.contains(approx),
        }
    }
}

/// What `ply dice-race simulate` reports: the original program's Monte Carlo run beside the exact
/// answer.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SimulateReport {
    /// The first list as written.
    pub first: Vec<u32>,
    /// The second list as written.
    pub second: Vec<u32>,
    /// Seed of the random generator.
    pub seed: u64,
    /// Games played.
    pub games: u64,
    /// Games the first list won.
    pub first_wins: u64,
    /// Games the second list won.
    pub second_wins: u64,
    /// Tied games.
    pub ties: u64,
    /// Whether one side reached the decisive share of decisive games before the cap.
    pub decided: bool,
    /// Why the run stopped.
    pub stopped: Stop,
    /// P(first wins), simulated and exact.
    pub p_first: SimulatedChance,
    /// P(second wins), simulated and exact.
    pub p_second: SimulatedChance,
    /// P(tie), simulated and exact.
    pub p_tie: SimulatedChance,
    /// Wall time of the simulation.
    pub simulation_seconds: f64,
    /// Wall time of the exact answer.
    pub exact_seconds: f64,
}

impl SimulateReport {
    /// The report of `sim`, a simulation of the lists `first` and `second` as written, beside the
    /// exact answer `exact`, with the time each took.
    pub fn new(
        (first, second): (Vec<u32>, Vec<u32>),
        seed: u64,
        sim: &Simulation,
        exact: &ExactComparison,
        (simulation_seconds, exact_seconds): (f64, f64),
    ) -> Self {
        let f = exact.to_floats();
        SimulateReport {
            first,
            second,
            seed,
            games: sim.games,
            first_wins: sim.first_wins,
            second_wins: sim.second_wins,
            ties: sim.ties,
            decided: sim.decided,
            stopped: sim.stopped,
            p_first: SimulatedChance::new(sim.p_first, &exact.p_first, f.p_first),
            p_second: SimulatedChance::new(sim.p_second, &exact.p_second, f.p_second),
            p_tie: SimulatedChance::new(sim.p_tie, &exact.p_tie, f.p_tie),
            simulation_seconds,
            exact_seconds,
        }
    }
}
