//! The race's rules, stated once: a roll's sum crosses off one occurrence of it in each list that
//! still has it; the first list emptied wins, both emptied on the same roll is a tie. [`Standing`]
//! keeps the race on counts — what the simulation plays millions of times ([`super::simulate`]) —
//! and [`super::play::RaceCards`] the lists as written, for `ply play dice-race` and the page.

use super::race::{sums_and_counts, PickList};
use serde::Serialize;

/// How a race ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Finish {
    /// The first list was emptied first.
    First,
    /// The second list was emptied first.
    Second,
    /// Both were emptied on the same roll.
    Tie,
}

impl Finish {
    /// The end in words: `the first list wins`, `a tie: …`.
    pub fn words(self) -> &'static str {
        match self {
            Finish::First => "the first list wins",
            Finish::Second => "the second list wins",
            Finish::Tie => "a tie: both lists are crossed off on the same roll",
        }
    }
}

/// Which lists a roll crossed a sum off.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Crossed {
    /// Whether the first list had the sum left.
    pub first: bool,
    /// Whether the second list had it.
    pub second: bool,
}

/// A race under way on counts: the sums either list picks (sorted), and how many of each are left on
/// each list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Standing {
    sums: Vec<u32>,
    full: [Vec<u32>; 2],
    left: [Vec<u32>; 2],
    rest: [usize; 2],
}

impl Standing {
    /// The race of `first` against `second` before any roll.
    pub fn new(first: &PickList, second: &PickList) -> Self {
        let (sums, a, b) = sums_and_counts(first, second);
        let rest = [first.sums().len(), second.sums().len()];
        Standing {
            sums,
            left: [a.clone(), b.clone()],
            full: [a, b],
            rest,
        }
    }

    /// The sums either list picks, in increasing order: [`Standing::cross_at`] takes an index into
    /// them.
    pub fn sums(&self) -> &[u32] {
        &self.sums
    }

    /// Back to the start, before any roll.
    pub fn restart(&mut self) {
        for side in 0..2 {
            self.left[side].copy_from_slice(&self.full[side]);
            self.rest[side] = self.full[side].iter().sum::<u32>() as usize;
        }
    }

    /// A roll of the sum `self.sums()[index]`: one occurrence crossed off each list that has it left.
    pub fn cross_at(&mut self, index: usize) -> Crossed {
        let crossed = [0, 1].map(|side| {
            let has = self.left[side][index] > 0;
            if has {
                self.left[side][index] -= 1;
                self.rest[side] -= 1;
            }
            has
        });
        Crossed {
            first: crossed[0],
            second: crossed[1],
        }
    }

    /// A roll of `sum` (a sum neither list picks crosses nothing off).
    pub fn cross(&mut self, sum: u32) -> Crossed {
        match self.sums.binary_search(&sum) {
            Ok(index) => self.cross_at(index),
            Err(_) => Crossed {
                first: false,
                second: false,
            },
        }
    }

    /// How many of `self.sums()[index]` are crossed off list `side` (0: first, 1: second).
    pub fn crossed_at(&self, side: usize, index: usize) -> u32 {
        self.full[side][index] - self.left[side][index]
    }

    /// How the race ended, or `None` while both lists have sums left.
    pub fn finish(&self) -> Option<Finish> {
        match self.rest {
            [0, 0] => Some(Finish::Tie),
            [0, _] => Some(Finish::First),
            [_, 0] => Some(Finish::Second),
            _ => None,
        }
    }

    /// The sums left on list `side` (0: first, 1: second), in increasing order.
    pub fn left(&self, side: usize) -> Vec<u32> {
        self.sums
            .iter()
            .zip(&self.left[side])
            .flat_map(|(&sum, &n)| std::iter::repeat_n(sum, n as usize))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::dice_race::Dice;

    #[test]
    fn one_occurrence_a_roll_and_the_first_emptied_wins() {
        let dice = Dice::new(2, 6).unwrap();
        let first = PickList::new(vec![7, 7, 5], &dice).unwrap();
        let second = PickList::new(vec![7, 8], &dice).unwrap();
        let mut s = Standing::new(&first, &second);
        assert_eq!(s.sums(), &[5, 7, 8]);
        let both = Crossed {
            first: true,
            second: true,
        };
        assert_eq!(s.cross(7), both);
        assert_eq!((s.left(0), s.left(1)), (vec![5, 7], vec![8]));
        assert_eq!(s.crossed_at(0, 1), 1);
        assert_eq!(
            s.cross(7),
            Crossed {
                first: true,
                second: false
            }
        );
        let none = Crossed {
            first: false,
            second: false,
        };
        assert_eq!(s.cross(12), none);
        assert_eq!(s.finish(), None);
        s.cross(8);
        assert_eq!(s.finish(), Some(Finish::Second));
        s.restart();
        assert_eq!((s.left(0), s.finish()), (vec![5, 7, 7], None));
        // Both emptied on one roll: a tie.
        let seven = PickList::new(vec![7], &dice).unwrap();
        let mut tie = Standing::new(&seven, &seven);
        assert_eq!(tie.cross(7), both);
        assert_eq!(tie.finish(), Some(Finish::Tie));
    }
}
