//! Plain negamax: the reference strategy. Obviously right, exponentially slow.

use super::{negamax_step, require_acyclic_deterministic, ScoredGame, SolveError, Solver};
use crate::engine::util::progress::{Progress, PROGRESS_EVERY};
use std::convert::Infallible;

/// Evaluates every path of the game tree from the asked state, remembering nothing.
pub struct RecursionSolver<'a, G> {
    game: &'a G,
    visited: u64,
    progress: Option<Progress<'a>>,
}

impl<'a, G: ScoredGame> RecursionSolver<'a, G> {
    /// A solver for `game`; refuses games with chance or cycles.
    pub fn new(game: &'a G) -> Result<Self, SolveError> {
        require_acyclic_deterministic(game, "recursion")?;
        Ok(RecursionSolver {
            game,
            visited: 0,
            progress: None,
        })
    }

    /// Reports the number of visited nodes every [`PROGRESS_EVERY`] nodes.
    pub fn with_progress(mut self, progress: Option<Progress<'a>>) -> Self {
        self.progress = progress;
        self
    }

    fn negamax(&mut self, state: &G::State) -> i32 {
        self.visited += 1;
        if self.visited % PROGRESS_EVERY == 0 {
            if let Some(progress) = self.progress {
                progress(self.visited);
            }
        }
        let game = self.game;
        let Ok(value) = negamax_step(game, state, |child| {
            Ok::<_, Infallible>(self.negamax(child))
        });
        value
    }
}

impl<G: ScoredGame> Solver<G> for RecursionSolver<'_, G> {
    fn value(&mut self, state: &G::State) -> Result<i32, SolveError> {
        Ok(self.negamax(state))
    }

    fn states_visited(&self) -> u64 {
        self.visited
    }
}
