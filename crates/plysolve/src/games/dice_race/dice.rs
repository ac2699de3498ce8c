//! N dice of K sides: which sums they make and in how many ways.

use crate::engine::util::chooser::Chooser;
use crate::engine::util::cost::Rate;
use crate::engine::util::fraction::format_ratio;
use serde::Serialize;
use thiserror::Error;

/// Most sums a set of dice may have (N·(K−1)+1).
pub const MAX_SUMS: u64 = 10_000;

/// Additions of 128-bit counts a second when the sums are counted ([`Dice::work`]): 3·10⁸ measured
/// on 2 dice of 5 000 sides (release build, one core of a busy machine).
pub const DICE_RATE: Rate = Rate::per_second(300_000_000);

/// What counting the sums is called in its refusal.
pub const DICE_WHAT: &str = "counting the sums of these dice";

/// A set of identical fair dice, with the number of ways to roll each sum.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dice {
    count: u32,
    sides: u32,
    /// Ways to roll each sum, from `count` to `count * sides`.
    ways: Vec<u128>,
    total: u128,
}

/// Dice that cannot be rolled or counted.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DiceError {
    /// No dice.
    #[error("the number of dice must be at least 1")]
    NoDice,
    /// Dice without sides.
    #[error("dice must have at least 1 side")]
    NoSides,
    /// More outcomes than 128 bits count, or too many sums.
    #[error(
        "{count} dice of {sides} sides are too many: at most {MAX_SUMS} dice, {MAX_SUMS} sums and 2^128 outcomes"
    )]
    TooMany {
        /// Dice.
        count: u32,
        /// Sides.
        sides: u32,
    },
}

/// One throw of the dice: each die's face and their sum, the number the race crosses off.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Throw {
    /// Each die's face, 1 to the sides.
    pub faces: Vec<u32>,
    /// Their sum.
    pub sum: u32,
}

/// One sum with its chances, for `ply dice-race sums`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SumChance {
    /// The sum.
    pub sum: u32,
    /// Ways to roll it.
    pub ways: u128,
    /// Its probability, `ways / total` reduced.
    pub probability: String,
    /// The same as a float.
    pub p: f64,
}

impl Dice {
    /// `count` dice of `sides` sides; counts every sum by convolution.
    pub fn new(count: u32, sides: u32) -> Result<Self, DiceError> {
        if count == 0 {
            return Err(DiceError::NoDice);
        }
        if sides == 0 {
            return Err(DiceError::NoSides);
        }
        let too_many = DiceError::TooMany { count, sides };
        let sums = count as u64 * (sides as u64 - 1) + 1;
        let total = (sides as u128).checked_pow(count).ok_or(too_many.clone())?;
        if sums > MAX_SUMS || count as u64 > MAX_SUMS {
            return Err(too_many);
        }
        let mut ways = vec![1u128];
        for _ in 0..count {
            let mut next = vec![0u128; ways.len() + sides as usize - 1];
            for (i, &w) in ways.iter().enumerate() {
                for slot in &mut next[i..i + sides as usize] {
                    *slot += w;
                }
            }
            ways = next;
        }
        Ok(Dice {
            count,
            sides,
            ways,
            total,
        })
    }

    /// The cost of [`Dice::new`] for `count` dice of `sides` sides, in additions: the convolution
    /// adds each die's `sides` faces to every sum so far (`i · (sides − 1) + 1` sums after `i`
    /// dice), and each of the final sums is written once more. At most about 5·10⁷ for dice that
    /// [`Dice::new`] takes (their sums are at most [`MAX_SUMS`]): a fraction of a second.
    pub fn work(count: u32, sides: u32) -> u128 {
        let (n, k) = (count as u128, sides as u128);
        let sums_so_far = n + k.saturating_sub(1) * n * n.saturating_sub(1) / 2;
        (sums_so_far * k).saturating_add(n * k.saturating_sub(1) + 1)
    }

    /// Number of dice.
    pub fn count(&self) -> u32 {
        self.count
    }

    /// Sides of each die.
    pub fn sides(&self) -> u32 {
        self.sides
    }

    /// The smallest sum.
    pub fn min_sum(&self) -> u32 {
        self.count
    }

    /// The largest sum.
    pub fn max_sum(&self) -> u32 {
        self.count * self.sides
    }

    /// Ways to roll `sum` (0 if it cannot be rolled).
    pub fn ways(&self, sum: u32) -> u128 {
        sum.checked_sub(self.count)
            .and_then(|i| self.ways.get(i as usize))
            .copied()
            .unwrap_or(0)
    }

    /// Equally likely outcomes of one roll: `sides^count`.
    pub fn total(&self) -> u128 {
        self.total
    }

    /// One throw, drawn by `chooser`: each die's face uniformly from 1 to the sides, and their sum
    /// (so each sum comes with its exact probability).
    pub fn throw(&self, chooser: &mut Chooser) -> Throw {
        let faces: Vec<u32> = (0..self.count)
            .map(|_| chooser.between(1, self.sides as u64) as u32)
            .collect();
        Throw {
            sum: faces.iter().sum(),
            faces,
        }
    }

    /// Every sum, smallest first.
    pub fn sums(&self) -> impl Iterator<Item = u32> + '_ {
        self.min_sum()..=self.max_sum()
    }

    /// Every sum with its exact and float probability.
    pub fn chances(&self) -> Vec<SumChance> {
        self.sums()
            .map(|sum| {
                let ways = self.ways(sum);
                SumChance {
                    sum,
                    ways,
                    probability: format_ratio(ways, self.total),
                    p: ways as f64 / self.total as f64,
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rolls_follow_the_dice() {
        let dice = Dice::new(2, 6).unwrap();
        let mut chooser = Chooser::new(1);
        let mut counts = [0u32; 13];
        for _ in 0..36_000 {
            let throw = dice.throw(&mut chooser);
            assert!(throw.faces.iter().all(|f| (1..=6).contains(f)));
            assert_eq!(throw.faces.iter().sum::<u32>(), throw.sum);
            counts[throw.sum as usize] += 1;
        }
        assert_eq!(counts[0] + counts[1], 0);
        // 6/36 of the throws are 7, within a generous margin (the seed fixes the draw).
        assert!((5_500..6_500).contains(&counts[7]), "{counts:?}");
    }

    #[test]
    fn two_six_sided_dice() {
        let d = Dice::new(2, 6).unwrap();
        let ways: Vec<u128> = d.sums().map(|s| d.ways(s)).collect();
        assert_eq!(ways, vec![1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1]);
        assert_eq!(d.total(), 36);
        assert_eq!(d.ways(13), 0);
        assert_eq!(d.ways(1), 0);
        assert_eq!(d.chances()[5].probability, "1/6");
    }

    #[test]
    fn limits() {
        assert_eq!(Dice::new(0, 6), Err(DiceError::NoDice));
        assert_eq!(Dice::new(2, 0), Err(DiceError::NoSides));
        assert!(Dice::new(200, 6).is_err());
        assert_eq!(Dice::new(3, 1).unwrap().ways(3), 1);
    }
}
