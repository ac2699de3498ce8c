//! What a perfect opponent needs beyond values: ties between equally good moves broken by a seed (so
//! games vary but replay exactly), dice rolls, and the values of lowest-heap Nim moves.
//!
//! Front ends (`ply play`, the web page) decide who moves; everything here is pure data.

use crate::engine::impartial::Convention;
use crate::games::dice_race::Dice;
use crate::games::heaps::{analyse, Side};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::Serialize;

/// A seeded source of choices: the same seed gives the same tie-breaks and the same rolls.
pub struct Chooser {
    rng: Xoshiro256PlusPlus,
}

impl Chooser {
    /// A chooser started from `seed`.
    pub fn new(seed: u64) -> Self {
        Chooser {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
        }
    }

    /// One of the items whose `key` is greatest, uniformly among them; `None` when there are none.
    pub fn best<'a, T, K: Ord>(&mut self, items: &'a [T], key: impl Fn(&T) -> K) -> Option<&'a T> {
        let top = items.iter().map(&key).max()?;
        let best: Vec<&T> = items.iter().filter(|i| key(i) == top).collect();
        Some(best[self.rng.random_range(0..best.len())])
    }

    /// A number uniformly in `low..=high`.
    pub fn between(&mut self, low: u64, high: u64) -> u64 {
        self.rng.random_range(low..=high)
    }

    /// The sum of one throw of `dice`, each sum with its exact probability.
    pub fn roll(&mut self, dice: &Dice) -> u32 {
        let mut r = self.rng.random_range(0..dice.total());
        for sum in dice.sums() {
            let ways = dice.ways(sum);
            if r < ways {
                return sum;
            }
            r -= ways;
        }
        unreachable!("a draw below the total falls on some sum")
    }
}

/// A class of lowest-heap Nim moves that lead to positions of the same value: take all the lowest
/// heap, leave one counter, or leave two or more (which the closed form values alike).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct HeapMove {
    /// 1-based number of the lowest non-empty heap (the only one that may be taken from).
    pub heap: usize,
    /// Fewest counters taken by a move of this class.
    pub take_min: u64,
    /// Most counters taken by a move of this class.
    pub take_max: u64,
    /// Whether the mover wins after this move under perfect play.
    pub wins: bool,
    /// Moves until the end after this one (the winner hurries, the loser delays), counting this move.
    pub remoteness: u64,
}

impl HeapMove {
    /// How good the move is for the mover: a win beats a loss, a faster win beats a slower one, and a
    /// longer loss beats a shorter one (the loser delays).
    pub fn preference(&self) -> (bool, i128) {
        let r = self.remoteness as i128;
        (self.wins, if self.wins { -r } else { r })
    }
}

/// Every move of the position `sizes` (heaps still to play, the first non-empty), grouped in classes of
/// equal value, best first. Empty when every heap is empty.
pub fn heap_moves(sizes: &[u64], convention: Convention) -> Vec<HeapMove> {
    let Some(first) = sizes.iter().position(|&s| s > 0) else {
        return Vec::new();
    };
    let left = sizes[first];
    let rest = &sizes[first + 1..];
    // (fewest taken, most taken, counters left in the heap)
    let mut classes = vec![(left, left, 0)];
    if left >= 2 {
        classes.push((left - 1, left - 1, 1));
    }
    if left >= 3 {
        classes.push((1, left - 2, 2));
    }
    let mut moves: Vec<HeapMove> = classes
        .into_iter()
        .map(|(take_min, take_max, kept)| {
            let after: Vec<u64> = (kept > 0)
                .then_some(kept)
                .into_iter()
                .chain(rest.iter().copied())
                .collect();
            let (opponent_wins, remoteness) = if after.is_empty() {
                // The mover took the last counter.
                (convention == Convention::Misere, 0)
            } else {
                let r = analyse(&after, convention);
                (r.winner == Side::First, r.remoteness)
            };
            HeapMove {
                heap: first + 1,
                take_min,
                take_max,
                wins: !opponent_wins,
                remoteness: remoteness + 1,
            }
        })
        .collect();
    moves.sort_by_key(|m| std::cmp::Reverse(m.preference()));
    moves
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::impartial::ImpartialSolver;
    use crate::games::heaps::LowestHeapGame;

    #[test]
    fn heap_moves_agree_with_the_generic_solver() {
        // Every move's outcome, checked against the engine's explicit solver on all positions of up
        // to 3 heaps of up to 4 counters.
        for convention in [Convention::Normal, Convention::Misere] {
            for n in 1..=3u32 {
                for code in 0..4u64.pow(n) {
                    let sizes: Vec<u64> = (0..n).map(|i| code / 4u64.pow(i) % 4 + 1).collect();
                    let game = LowestHeapGame {
                        sizes: sizes.clone(),
                    };
                    let mut solver = ImpartialSolver::new(&game, convention);
                    let start = solver.outcome(&game.start());
                    let moves = heap_moves(&sizes, convention);
                    assert_eq!(moves[0].wins, start.wins, "{sizes:?}");
                    assert_eq!(moves[0].remoteness, start.remoteness, "{sizes:?}");
                    let taken: u64 = moves.iter().map(|m| m.take_max - m.take_min + 1).sum();
                    assert_eq!(taken, sizes[0]);
                    for m in &moves {
                        for take in m.take_min..=m.take_max {
                            let child = if take < sizes[0] {
                                (0, sizes[0] - take)
                            } else {
                                (1, sizes.get(1).copied().unwrap_or(0))
                            };
                            let o = solver.outcome(&child);
                            assert_eq!(m.wins, !o.wins, "{sizes:?} take {take}");
                            assert_eq!(m.remoteness, o.remoteness + 1, "{sizes:?} take {take}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn ties_are_broken_by_the_seed_and_rolls_follow_the_dice() {
        let items = [3, 7, 7, 1, 7];
        let picks: Vec<usize> = (0..40)
            .map(|seed| {
                let p = Chooser::new(seed).best(&items, |&x| x).unwrap();
                items.iter().position(|x| std::ptr::eq(x, p)).unwrap()
            })
            .collect();
        assert!(picks.iter().all(|&i| items[i] == 7));
        // Different seeds reach every one of the three equal items.
        for i in [1, 2, 4] {
            assert!(picks.contains(&i));
        }
        assert_eq!(Chooser::new(5).best(&[] as &[u8], |&x| x), None);
        let dice = Dice::new(2, 6).unwrap();
        let mut c = Chooser::new(1);
        let mut counts = [0u32; 13];
        for _ in 0..36_000 {
            counts[c.roll(&dice) as usize] += 1;
        }
        assert_eq!(counts[0] + counts[1], 0);
        // 6/36 of the throws are 7, within a generous margin (the seed fixes the draw).
        assert!((5_500..6_500).contains(&counts[7]), "{counts:?}");
    }
}
