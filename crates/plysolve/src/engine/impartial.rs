//! Two players, win or lose, the same moves for both (impartial games): who wins, in how many moves,
//! and the Grundy value, computed over the explicit game tree.
//!
//! This is the generic reference: games with a closed form (lowest-heap Nim) are proved against it.

use serde::Serialize;
use std::collections::HashMap;
use std::hash::Hash;

/// Who wins at the end: under normal play the player who cannot move loses; under misère play the
/// player who cannot move wins (the one who made the last move lost).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Convention {
    /// The last player to move wins.
    Normal,
    /// The last player to move loses.
    Misere,
}

/// An impartial game: the moves of a state, the same whoever is to move.
pub trait ImpartialGame {
    /// A position.
    type State: Clone + Eq + Hash;
    /// A move.
    type Move: Clone;

    /// Every legal move of `state` with the state it leads to; none means the game is over.
    fn moves(&self, state: &Self::State, out: &mut Vec<(Self::Move, Self::State)>);
}

/// The result of a position for the player to move under perfect play.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Outcome {
    /// Whether the player to move wins.
    pub wins: bool,
    /// Moves until the end when the winner hurries and the loser delays (0 at the end).
    pub remoteness: u64,
}

impl Outcome {
    /// The outcome of a position one move before a child with outcome `self`, reached by that move,
    /// when it is the best the mover has — the rule of remoteness: a win is one more than its fastest
    /// winning child, a loss one more than its slowest child.
    pub fn before(self) -> Outcome {
        Outcome {
            wins: !self.wins,
            remoteness: self.remoteness + 1,
        }
    }
}

/// Solves positions of an impartial game by memoized recursion over the explicit tree.
pub struct ImpartialSolver<'a, G: ImpartialGame> {
    game: &'a G,
    convention: Convention,
    outcomes: HashMap<G::State, Outcome>,
    grundy: HashMap<G::State, u64>,
}

impl<'a, G: ImpartialGame> ImpartialSolver<'a, G> {
    /// A solver for `game` under `convention`.
    pub fn new(game: &'a G, convention: Convention) -> Self {
        ImpartialSolver {
            game,
            convention,
            outcomes: HashMap::new(),
            grundy: HashMap::new(),
        }
    }

    fn children(&self, state: &G::State) -> Vec<(G::Move, G::State)> {
        let mut out = Vec::new();
        self.game.moves(state, &mut out);
        out
    }

    /// Who wins `state`, and its remoteness.
    pub fn outcome(&mut self, state: &G::State) -> Outcome {
        if let Some(&known) = self.outcomes.get(state) {
            return known;
        }
        let children = self.children(state);
        let outcome = if children.is_empty() {
            Outcome {
                wins: self.convention == Convention::Misere,
                remoteness: 0,
            }
        } else {
            let results: Vec<Outcome> = children.iter().map(|(_, c)| self.outcome(c)).collect();
            let fastest_win = results
                .iter()
                .filter(|o| !o.wins)
                .map(|o| o.remoteness)
                .min();
            match fastest_win {
                Some(r) => Outcome {
                    wins: true,
                    remoteness: r + 1,
                },
                None => Outcome {
                    wins: false,
                    remoteness: results.iter().map(|o| o.remoteness).max().unwrap_or(0) + 1,
                },
            }
        };
        self.outcomes.insert(state.clone(), outcome);
        outcome
    }

    /// The moves of `state` that keep a win at the best remoteness (empty if `state` is lost).
    pub fn best_moves(&mut self, state: &G::State) -> Vec<(G::Move, G::State)> {
        let target = self.outcome(state);
        if !target.wins {
            return Vec::new();
        }
        self.children(state)
            .into_iter()
            .filter(|(_, child)| self.outcome(child).before() == target)
            .collect()
    }

    /// The Grundy value of `state` under normal play: the least value no move leads to (mex).
    pub fn grundy(&mut self, state: &G::State) -> u64 {
        if let Some(&known) = self.grundy.get(state) {
            return known;
        }
        let mut seen: Vec<u64> = self
            .children(state)
            .iter()
            .map(|(_, c)| self.grundy(c))
            .collect();
        seen.sort_unstable();
        seen.dedup();
        let mex = seen
            .iter()
            .enumerate()
            .find(|(i, &g)| *i as u64 != g)
            .map_or(seen.len(), |(i, _)| i) as u64;
        self.grundy.insert(state.clone(), mex);
        mex
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Subtraction game: take 1 or 2 from a pile.
    struct TakeOneOrTwo;

    impl ImpartialGame for TakeOneOrTwo {
        type State = u32;
        type Move = u32;
        fn moves(&self, state: &u32, out: &mut Vec<(u32, u32)>) {
            out.extend(
                [1, 2]
                    .into_iter()
                    .filter(|&t| t <= *state)
                    .map(|t| (t, state - t)),
            );
        }
    }

    #[test]
    fn subtraction_game() {
        let mut solver = ImpartialSolver::new(&TakeOneOrTwo, Convention::Normal);
        // Multiples of 3 are lost; Grundy value n mod 3.
        for n in 0..12u32 {
            assert_eq!(solver.outcome(&n).wins, n % 3 != 0, "{n}");
            assert_eq!(solver.grundy(&n), (n % 3) as u64);
        }
        assert_eq!(
            solver.outcome(&3),
            Outcome {
                wins: false,
                remoteness: 2
            }
        );
        assert_eq!(
            solver.outcome(&4),
            Outcome {
                wins: true,
                remoteness: 3
            }
        );
        assert_eq!(
            solver
                .best_moves(&4)
                .iter()
                .map(|m| m.0)
                .collect::<Vec<_>>(),
            vec![1]
        );
        let mut misere = ImpartialSolver::new(&TakeOneOrTwo, Convention::Misere);
        // Misère: n ≡ 1 (mod 3) is lost.
        for n in 0..12u32 {
            assert_eq!(misere.outcome(&n).wins, n % 3 != 1, "{n}");
        }
    }
}
