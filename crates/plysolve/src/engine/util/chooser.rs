//! Seeded choices: ties between equally good moves broken, and chance drawn, the same way for the
//! same seed — so that games vary but replay exactly, in the terminal and on the page alike.

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

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

    /// A number uniformly in `0..n` (`n` at least 1).
    pub fn below(&mut self, n: u128) -> u128 {
        self.rng.random_range(0..n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let mut c = Chooser::new(1);
        assert!((0..1000).all(|_| c.below(3) < 3));
        assert!((0..1000).all(|_| (4..=6).contains(&c.between(4, 6))));
    }
}
