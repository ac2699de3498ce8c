//! Levels of play, 1 to 8: weaker players by design, so that a person can win at level 1 and lose at
//! level 8 (the perfect player, the default). Below 8 a level plays, on each move, at random with
//! one chance, greedily (take a cell if it can, else a move that offers nothing — what casual
//! players do) with another, and otherwise the best move by its value — proved, or the learned
//! estimate where it is not — with uniform noise of a few cells added to each move's value (none at
//! level 7, whose only errors are its greedy moves: with noise it was no weaker than level 6). Each
//! level's record against the next is measured (`ply bench dots-player --level N --opponent
//! level --opponent-level N+1`) and kept in BENCHMARKS.md.

use super::board::DotsBoard;
use super::naive::Naive;
use super::notation::edge_named;
use super::position::Position;
use super::report::DotsReport;
use super::theory::learned::{move_estimate, Reading};
use crate::engine::util::chooser::Chooser;
use serde::de::{self, Deserializer};
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// A level of play, 1 (weakest) to [`Level::PERFECT`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Level(u8);

impl<'de> Deserialize<'de> for Level {
    /// A level from a request: a whole number, 1 to 8.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let n = u64::deserialize(deserializer)?;
        Level::new(n)
            .map_err(|_| de::Error::custom("a whole number from 1 (weakest) to 8 (perfect)"))
    }
}

/// A level no player has.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("level: 1 (weakest) to 8 (perfect), not {0}")]
pub struct LevelError(pub u64);

/// How a level below the perfect one errs: per cent of moves at random, per cent played greedily,
/// and the noise added to the other moves' values (uniform in `-noise..=noise` cells).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Weakness {
    random: u32,
    greedy: u32,
    noise: u32,
}

/// Levels 1 to 7 (level 8 is perfect).
const WEAKNESS: [Weakness; 7] = [
    Weakness {
        random: 100,
        greedy: 0,
        noise: 0,
    },
    Weakness {
        random: 0,
        greedy: 100,
        noise: 0,
    },
    Weakness {
        random: 0,
        greedy: 70,
        noise: 3,
    },
    Weakness {
        random: 0,
        greedy: 50,
        noise: 2,
    },
    Weakness {
        random: 0,
        greedy: 30,
        noise: 2,
    },
    Weakness {
        random: 0,
        greedy: 15,
        noise: 1,
    },
    Weakness {
        random: 0,
        greedy: 5,
        noise: 0,
    },
];

impl Level {
    /// The perfect player: the best move by proof, else by the estimate's search.
    pub const PERFECT: Level = Level(8);

    /// The level numbered `n` (1 to 8).
    pub fn new(n: u64) -> Result<Level, LevelError> {
        match n {
            1..=8 => Ok(Level(n as u8)),
            _ => Err(LevelError(n)),
        }
    }

    /// Its number, 1 to 8.
    pub fn number(self) -> u8 {
        self.0
    }

    /// Whether it is the perfect player.
    pub fn is_perfect(self) -> bool {
        self == Level::PERFECT
    }

    /// The move a player of this level makes in `position` of `board`, given the `report` of that
    /// position with every move (proved values or bounds); its draws from `chooser`. `None` for the
    /// perfect level (the player's own choice stands) and when the game is over.
    pub fn choose(
        self,
        board: &DotsBoard,
        position: &Position,
        report: &DotsReport,
        chooser: &mut Chooser,
    ) -> Option<String> {
        if self.is_perfect() || report.moves.is_empty() {
            return None;
        }
        let weakness = WEAKNESS[self.0 as usize - 1];
        let roll = chooser.below(100) as u32;
        let simple = if roll < weakness.random {
            Some(Naive::Random)
        } else if roll < weakness.random + weakness.greedy {
            Some(Naive::Greedy)
        } else {
            None
        };
        if let Some(opponent) = simple {
            let edge = opponent.choose(board, position, chooser);
            return Some(super::notation::format_edge(board, edge));
        }
        let drawn = position.drawn().0;
        let noise = weakness.noise as u64;
        let keyed: Vec<(i64, &str)> = report
            .moves
            .iter()
            .map(|m| {
                let value = m.value.unwrap_or_else(|| {
                    let edge = edge_named(board, &m.mv).expect("a move the report names");
                    move_estimate(board, drawn, edge.0 as u32, m.points, m.range(), Reading::Search)
                });
                let jitter = chooser.between(0, 2 * noise) as i64 - noise as i64;
                (value as i64 + jitter, m.mv.as_str())
            })
            .collect();
        let best = keyed.iter().map(|&(key, _)| key).max()?;
        let tied: Vec<&str> = keyed
            .iter()
            .filter(|&&(key, _)| key == best)
            .map(|&(_, mv)| mv)
            .collect();
        Some(tied[chooser.below(tied.len() as u128) as usize].to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::util::memory::MemoryBudget;
    use crate::games::dots::answer::Hooks;
    use crate::games::dots::player::{think_at_level, Choice};
    use crate::games::dots::policy::Policy;
    use crate::games::dots::request::DotsRequest;
    use crate::games::dots::Geometry;

    #[test]
    fn a_weaker_level_says_so_and_plays_a_legal_move_the_perfect_one_a_best() {
        let query = DotsRequest::new(Geometry::Boxes { rows: 2, cols: 3 }, "1-2 5-6")
            .validate()
            .unwrap();
        let policy = Policy::new(MemoryBudget::new(1 << 26), None);
        for n in 1..=8 {
            for seed in 0..20 {
                let level = Level::new(n).unwrap();
                let mut chooser = Chooser::new(seed);
                let hooks = Hooks::default();
                let (played, report) =
                    think_at_level(&query, &policy, None, &mut chooser, seed, hooks, level)
                        .unwrap()
                        .unwrap();
                let listed = report.moves.iter().find(|m| m.mv == played.mv).unwrap();
                assert_eq!(played.value, listed.value);
                if level.is_perfect() {
                    assert_eq!((played.choice, played.level), (Choice::Exact, None));
                    assert_eq!(played.value, report.value);
                } else {
                    assert_eq!(
                        (played.choice, played.level),
                        (Choice::Level, Some(n as u8))
                    );
                }
            }
        }
    }

    #[test]
    fn levels_are_one_to_eight() {
        assert_eq!(Level::new(1).unwrap().number(), 1);
        assert!(Level::new(8).unwrap().is_perfect());
        assert_eq!(
            Level::new(0).unwrap_err().to_string(),
            "level: 1 (weakest) to 8 (perfect), not 0"
        );
        assert!(Level::new(9).is_err());
        // Weaker levels err more: no less chance of a random or greedy move.
        for pair in WEAKNESS.windows(2) {
            let (weaker, stronger) = (pair[0], pair[1]);
            assert!(weaker.random + weaker.greedy >= stronger.random + stronger.greedy);
            assert!(weaker.random >= stronger.random);
        }
    }
}
