//! The report of `ply dice-race compare` (and of `POST /api/dice-race/compare`): one serde type, so
//! every front end prints the same JSON.

use super::race::{compare, parse_sums, ExactComparison, PickList, RaceError};
use super::Dice;
use crate::games::solitaire::format_fraction;
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

/// A list as written (`5,6,7`) and as raced.
pub fn written_list(text: &str, dice: &Dice) -> Result<(Vec<u32>, PickList), RaceError> {
    let written = parse_sums(text, dice)?;
    let list = PickList::new(written.clone(), dice)?;
    Ok((written, list))
}

/// Parses both lists and races them: what `ply dice-race compare` computes.
pub fn compare_written(
    dice: &Dice,
    first: &str,
    second: &str,
) -> Result<(CompareReport, ExactComparison), RaceError> {
    let (a_written, a) = written_list(first, dice)?;
    let (b_written, b) = written_list(second, dice)?;
    let exact = compare(dice, &a, &b)?;
    Ok((
        CompareReport::new(dice, a_written, b_written, &exact),
        exact,
    ))
}
