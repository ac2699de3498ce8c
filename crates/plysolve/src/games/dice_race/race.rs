//! One race between two pick lists, as an absorbing chain: the state is how many times each sum on
//! either list has been rolled, capped at the larger of the two counts for that sum (both players see
//! the same rolls). Rolls that change nothing are conditioned away.

use super::dice::Dice;
use crate::engine::absorbing::{absorb_until, AbsorbingDag, Absorption, ChainError};
use crate::engine::util::cost::{OverLimit, Rate, WorkLimit};
use crate::engine::util::halt::{Halt, Halted, NEVER};
use crate::input::number::{items, parse_unsigned, EmptyItem, IntFault};
use num_rational::BigRational;
use num_traits::ToPrimitive;
use serde::Serialize;
use thiserror::Error;

/// Most states one race may have.
pub const MAX_RACE_STATES: u64 = 1_000_000;

/// The speed of exact races in [`Race::exact_work`] units (one unit: one move of one state on a
/// fraction of one bit, more as the fractions outgrow a few machine words; see there). Measured on
/// the hardest races found (release build, a busy 2-core machine): 49d6 with 7 sums twice on each
/// list, 3000 sevens against a six on 2d6, 3d6 with 10 sums twice; see BENCHMARKS.md.
pub const EXACT_RATE: Rate = Rate::per_second(22_000_000);

/// The speed of float races in [`Race::fast_work`] units (one unit: one sum looked at in one state).
pub const FAST_RATE: Rate = Rate::per_second(100_000_000);

/// Bits below which a fraction's arithmetic costs about the same whatever its size (allocation,
/// a few machine words), added to every estimate of a fraction's size.
const SMALL_FRACTION_BITS: f64 = 64.0;

/// Bits of a fraction at which its arithmetic costs twice what its size alone says: past a few
/// thousand bits the greatest common divisors that keep fractions reduced cost the square of their
/// size (measured: the time per bit-move grows fivefold from 4·10^3 to 4·10^4 bits).
const QUADRATIC_FROM_BITS: f64 = 4000.0;

/// A player's picks: a multiset of sums, kept sorted.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(transparent)]
pub struct PickList(Vec<u32>);

/// A list or a race that cannot be played.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RaceError {
    /// No sums at all.
    #[error("a list needs at least one sum")]
    Empty,
    /// A sum the dice cannot make.
    #[error(
        "sum {} cannot be made by {dice} {} of {sides} sides (the sums are {min} to {max})",
        crate::input::excerpt(.sum.as_bytes()),
        if *.dice == 1 { "die" } else { "dice" }
    )]
    Impossible {
        /// The sum, as written (a number too large for any die is one).
        sum: String,
        /// Dice.
        dice: u32,
        /// Sides.
        sides: u32,
        /// Smallest sum.
        min: u32,
        /// Largest sum.
        max: u32,
    },
    /// Two commas with nothing between them, or one first or last.
    #[error("a list's {0}")]
    EmptyItem(#[from] EmptyItem),
    /// A token that is not a whole number.
    #[error("{} is not a whole number", crate::input::quote(.0))]
    NotANumber(String),
    /// A race with too many states to solve.
    #[error("this race has {states} states; at most {MAX_RACE_STATES} are solved")]
    TooBig {
        /// States it would have.
        states: u128,
    },
    /// A race whose exact fractions would take too long: its estimate over the limit.
    #[error(transparent)]
    TooSlow(#[from] OverLimit),
    /// The halt came before the answer.
    #[error(transparent)]
    Halted(#[from] Halted),
}

/// What an exact race is called in its refusal.
pub const EXACT_WHAT: &str = "comparing these lists exactly";

impl PickList {
    /// A list of sums the `dice` can make.
    pub fn new(mut sums: Vec<u32>, dice: &Dice) -> Result<Self, RaceError> {
        if sums.is_empty() {
            return Err(RaceError::Empty);
        }
        if let Some(&sum) = sums.iter().find(|&&s| dice.ways(s) == 0) {
            return Err(impossible(&sum.to_string(), dice));
        }
        sums.sort_unstable();
        Ok(PickList(sums))
    }

    /// Parses `5,6,7,8,9` (commas or spaces).
    pub fn parse(text: &str, dice: &Dice) -> Result<Self, RaceError> {
        PickList::new(parse_sums(text, dice)?, dice)
    }

    /// The sums, sorted.
    pub fn sums(&self) -> &[u32] {
        &self.0
    }

    /// How many times `sum` is on the list.
    pub fn count(&self, sum: u32) -> u32 {
        self.0.iter().filter(|&&s| s == sum).count() as u32
    }
}

/// Parses sums separated by commas or spaces, in the order written, checking each against `dice`.
pub fn parse_sums(text: &str, dice: &Dice) -> Result<Vec<u32>, RaceError> {
    checked_sums(items(text), dice)
}

/// The one rule for a list's sums, however they were written (one text's items, a JSON list's
/// numbers as written): in the order given, each a whole number that the `dice` can make (a number
/// too large for any die is such a sum; `-6` or `1.5` is no whole number), and at least one.
pub(crate) fn checked_sums<'a>(
    tokens: impl Iterator<Item = Result<&'a str, EmptyItem>>,
    dice: &Dice,
) -> Result<Vec<u32>, RaceError> {
    let sums = tokens
        .map(|token| {
            let token = token?;
            match parse_unsigned(token) {
                Ok(n) => u32::try_from(n)
                    .ok()
                    .filter(|&s| dice.ways(s) > 0)
                    .ok_or_else(|| impossible(token, dice)),
                Err(IntFault::OutOfRange) => Err(impossible(token, dice)),
                Err(IntFault::NotANumber) => Err(RaceError::NotANumber(token.to_string())),
            }
        })
        .collect::<Result<Vec<u32>, _>>()?;
    if sums.is_empty() {
        return Err(RaceError::Empty);
    }
    Ok(sums)
}

fn impossible(sum: &str, dice: &Dice) -> RaceError {
    RaceError::Impossible {
        sum: sum.to_string(),
        dice: dice.count(),
        sides: dice.sides(),
        min: dice.min_sum(),
        max: dice.max_sum(),
    }
}

/// The chain of one race: digits are the capped roll counts of the sums on either list.
pub struct Race<'a> {
    dice: &'a Dice,
    sums: Vec<u32>,
    first: Vec<u32>,
    second: Vec<u32>,
    strides: Vec<usize>,
    len: usize,
}

/// Outcome classes of a race.
const FIRST: usize = 0;
const SECOND: usize = 1;
const TIE: usize = 2;

/// The sums either list picks, in increasing order, with each list's count of each: the one reading of
/// a pair of lists that the race and its simulation share.
pub(crate) fn sums_and_counts(
    first: &PickList,
    second: &PickList,
) -> (Vec<u32>, Vec<u32>, Vec<u32>) {
    let mut sums: Vec<u32> = first.sums().iter().chain(second.sums()).copied().collect();
    sums.sort_unstable();
    sums.dedup();
    let a: Vec<u32> = sums.iter().map(|&s| first.count(s)).collect();
    let b: Vec<u32> = sums.iter().map(|&s| second.count(s)).collect();
    (sums, a, b)
}

impl<'a> Race<'a> {
    /// The race of `first` against `second`, refused if it has more than [`MAX_RACE_STATES`] states.
    pub fn new(dice: &'a Dice, first: &PickList, second: &PickList) -> Result<Self, RaceError> {
        let (sums, a, b) = sums_and_counts(first, second);
        let mut strides = Vec::with_capacity(sums.len());
        let mut len: u128 = 1;
        for (x, y) in a.iter().zip(&b) {
            strides.push(len as usize);
            len *= (*x.max(y) + 1) as u128;
            if len > MAX_RACE_STATES as u128 {
                return Err(RaceError::TooBig { states: len });
            }
        }
        Ok(Race {
            dice,
            sums,
            first: a,
            second: b,
            strides,
            len: len as usize,
        })
    }

    /// The cost of solving the race exactly, for refusing it up front: over the live states, moves ×
    /// the bits of the state's fractions `b` × `(1 + b / 4000)` (greatest common divisors cost the
    /// square of the size once it passes a few thousand bits). One pass over the states, no
    /// fractions.
    ///
    /// A state's fractions have denominators dividing the product, over the rolls still possible,
    /// of the weight `W` of the sums still to be rolled (rolls of other sums are conditioned away),
    /// and their least common multiple over every order of the rolls. Two bounds on its bits, the
    /// smaller taken:
    /// - every set `S` of the `u` sums still open can be the open set for up to `Σ_S (left − 1) + 1`
    ///   rolls, each dividing by `W(S) ≤ W`: at most `log2 W · (2^(u−1) · Σ (left − 1) + 2^u − 1)`
    ///   bits — what big dice (weights of a hundred bits or more, with few common factors) reach;
    /// - every weight is at most `W`, so every denominator divides `lcm(1..=W)^depth`, of at most
    ///   `1.5 · W · depth` bits (ψ(x) < 1.04 x) — what small dice stay under.
    ///
    /// Plus 64 bits for the cost of any fraction, however small.
    pub fn exact_work(&self) -> u128 {
        let caps = self.caps();
        let ways: Vec<f64> = self
            .sums
            .iter()
            .map(|&s| self.dice.ways(s) as f64)
            .collect();
        let mut digits = vec![0u32; caps.len()];
        let mut work = 0f64;
        for _ in 0..self.len {
            let (mut first_left, mut second_left, mut depth, mut open) = (0u64, 0u64, 0u64, 0i32);
            let (mut weight, mut extra) = (0f64, 0u64);
            for (j, &d) in digits.iter().enumerate() {
                first_left += self.first[j].saturating_sub(d) as u64;
                second_left += self.second[j].saturating_sub(d) as u64;
                let left = caps[j] - d;
                depth += left as u64;
                if left > 0 {
                    open += 1;
                    weight += ways[j];
                    extra += left as u64 - 1;
                }
            }
            if first_left > 0 && second_left > 0 {
                let sets = weight.log2().max(0.0)
                    * (2f64.powi(open - 1) * extra as f64 + 2f64.powi(open) - 1.0);
                let lcm = 1.5 * weight * depth as f64;
                let bits = SMALL_FRACTION_BITS + sets.min(lcm);
                work += open as f64 * bits * (1.0 + bits / QUADRATIC_FROM_BITS);
            }
            next_digits(&mut digits, &caps);
        }
        work.min(u128::MAX as f64) as u128
    }

    /// The cost of solving the race in floats: over every state, the sums looked at (once to see
    /// whether it ends, once for its moves), plus one for the state.
    pub fn fast_work(&self) -> u128 {
        self.len as u128 * (2 * self.sums.len() as u128 + 1)
    }

    /// States of the race.
    pub fn states(&self) -> usize {
        self.len
    }

    /// Each sum's cap: the larger of the two counts.
    fn caps(&self) -> Vec<u32> {
        self.first
            .iter()
            .zip(&self.second)
            .map(|(a, b)| *a.max(b))
            .collect()
    }

    /// Roll counts of each sum at `node`.
    fn digit(&self, node: usize, j: usize) -> u32 {
        let cap = self.first[j].max(self.second[j]) as usize + 1;
        (node / self.strides[j] % cap) as u32
    }
}

impl AbsorbingDag for Race<'_> {
    fn nodes(&self) -> usize {
        self.len
    }

    fn classes(&self) -> usize {
        3
    }

    fn absorbed(&self, node: usize) -> Option<usize> {
        let (mut first_done, mut second_done) = (true, true);
        for j in 0..self.sums.len() {
            let rolled = self.digit(node, j);
            first_done &= rolled >= self.first[j];
            second_done &= rolled >= self.second[j];
        }
        match (first_done, second_done) {
            (true, true) => Some(TIE),
            (true, false) => Some(FIRST),
            (false, true) => Some(SECOND),
            (false, false) => None,
        }
    }

    fn for_each_move(&self, node: usize, mut visit: impl FnMut(usize, u128)) {
        for j in 0..self.sums.len() {
            if self.digit(node, j) < self.first[j].max(self.second[j]) {
                visit(node + self.strides[j], self.dice.ways(self.sums[j]));
            }
        }
    }

    fn total(&self) -> u128 {
        self.dice.total()
    }
}

/// The result of a race, in a number type: [`BigRational`] exact ([`ExactComparison`]), `f64` fast
/// (the default), as [`crate::engine::absorbing::Absorption`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Comparison<T = f64> {
    /// P(the first list finishes first).
    pub p_first: T,
    /// P(the second list finishes first).
    pub p_second: T,
    /// P(both finish on the same roll).
    pub p_tie: T,
    /// Expected number of rolls until the race ends.
    pub expected_rolls: T,
}

/// The exact result of a race.
pub type ExactComparison = Comparison<BigRational>;

/// The next node: adds one to the mixed-radix number `digits` whose digits go up to `caps`.
fn next_digits(digits: &mut [u32], caps: &[u32]) {
    for (d, &cap) in digits.iter_mut().zip(caps) {
        if *d < cap {
            *d += 1;
            return;
        }
        *d = 0;
    }
}

/// A chain that cannot fail but by its halt: every live race state has a move.
fn halted(e: ChainError) -> RaceError {
    match e {
        ChainError::Halted(why) => RaceError::Halted(why),
        ChainError::Stuck(node) => unreachable!("race state {node} is live without a move"),
    }
}

/// Solves a race exactly; refused first, with its estimate, over [`WorkLimit::DEFAULT`].
pub fn compare(
    dice: &Dice,
    first: &PickList,
    second: &PickList,
) -> Result<ExactComparison, RaceError> {
    compare_within(dice, first, second, WorkLimit::DEFAULT, &NEVER)
}

/// Solves a race exactly: refused first, with its estimate ([`Race::exact_work`] at
/// [`EXACT_RATE`]), over `limit`; stopped when `halt` comes.
pub fn compare_within(
    dice: &Dice,
    first: &PickList,
    second: &PickList,
    limit: WorkLimit,
    halt: &Halt,
) -> Result<ExactComparison, RaceError> {
    let race = Race::new(dice, first, second)?;
    limit.check(|| EXACT_WHAT, race.exact_work(), EXACT_RATE)?;
    solve_exact(&race, halt)
}

/// The race solved exactly, without a cost check (the caller has made it).
pub(crate) fn solve_exact(race: &Race, halt: &Halt) -> Result<ExactComparison, RaceError> {
    let a: Absorption<BigRational> = absorb_until(race, halt).map_err(halted)?;
    let mut classes = a.classes.into_iter();
    Ok(ExactComparison {
        p_first: classes.next().expect("three classes"),
        p_second: classes.next().expect("three classes"),
        p_tie: classes.next().expect("three classes"),
        expected_rolls: a.expected_steps,
    })
}

/// Solves a race in floats (for searches over many races). Never refused for its work: at most
/// [`MAX_RACE_STATES`] states, a fraction of a second.
pub fn compare_fast(
    dice: &Dice,
    first: &PickList,
    second: &PickList,
) -> Result<Comparison, RaceError> {
    solve_fast(&Race::new(dice, first, second)?, &NEVER)
}

/// The race solved in floats.
pub(crate) fn solve_fast(race: &Race, halt: &Halt) -> Result<Comparison, RaceError> {
    let a: Absorption<f64> = absorb_until(race, halt).map_err(halted)?;
    Ok(Comparison {
        p_first: a.classes[FIRST],
        p_second: a.classes[SECOND],
        p_tie: a.classes[TIE],
        expected_rolls: a.expected_steps,
    })
}

impl ExactComparison {
    /// The same in floats.
    pub fn to_floats(&self) -> Comparison {
        let f = |x: &BigRational| x.to_f64().unwrap_or(f64::NAN);
        Comparison {
            p_first: f(&self.p_first),
            p_second: f(&self.p_second),
            p_tie: f(&self.p_tie),
            expected_rolls: f(&self.expected_rolls),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seven_against_six() {
        let dice = Dice::new(2, 6).unwrap();
        let seven = PickList::parse("7", &dice).unwrap();
        let six = PickList::parse("6", &dice).unwrap();
        let r = compare(&dice, &seven, &six).unwrap();
        assert_eq!(r.p_first, BigRational::new(6.into(), 11.into()));
        assert_eq!(r.p_second, BigRational::new(5.into(), 11.into()));
        assert_eq!(r.p_tie, BigRational::from_integer(0.into()));
        // Rolls until a 6 or a 7: 36/11 on average.
        assert_eq!(r.expected_rolls, BigRational::new(36.into(), 11.into()));
    }

    #[test]
    fn bad_lists() {
        let dice = Dice::new(2, 6).unwrap();
        assert_eq!(
            PickList::parse("5,13", &dice).unwrap_err().to_string(),
            "sum 13 cannot be made by 2 dice of 6 sides (the sums are 2 to 12)"
        );
        assert_eq!(PickList::parse(" ", &dice), Err(RaceError::Empty));
        assert_eq!(
            PickList::parse("5,x", &dice),
            Err(RaceError::NotANumber("x".into()))
        );
        assert_eq!(
            PickList::parse("7,,8", &dice).unwrap_err().to_string(),
            "a list's item 2 is empty"
        );
    }
}
