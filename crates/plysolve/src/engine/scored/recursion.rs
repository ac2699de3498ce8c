//! Plain negamax: the reference strategy. Obviously right, exponentially slow.

use super::{negamax_step, require_acyclic_deterministic, ScoredGame, SolveError, Solver};
use crate::engine::util::progress::Watch;

/// Evaluates every path of the game tree from the asked state, remembering nothing.
pub struct RecursionSolver<'a, G> {
    game: &'a G,
    visited: u64,
    watch: Watch<'a>,
}

impl<'a, G: ScoredGame> RecursionSolver<'a, G> {
    /// A solver for `game`; refuses games with chance or cycles.
    pub fn new(game: &'a G) -> Result<Self, SolveError> {
        require_acyclic_deterministic(game, "recursion")?;
        Ok(RecursionSolver {
            game,
            visited: 0,
            watch: Watch::default(),
        })
    }

    /// Reports the visited nodes and stops at the halt, as `watch` says.
    pub fn with_watch(mut self, watch: Watch<'a>) -> Self {
        self.watch = watch;
        self
    }

    fn negamax(&mut self, state: &G::State) -> Result<i32, SolveError> {
        self.visited += 1;
        self.watch.tick(self.visited)?;
        let game = self.game;
        negamax_step(game, state, |child| self.negamax(child))
    }
}

impl<G: ScoredGame> Solver<G> for RecursionSolver<'_, G> {
    fn value(&mut self, state: &G::State) -> Result<i32, SolveError> {
        self.negamax(state)
    }

    fn states_visited(&self) -> u64 {
        self.visited
    }
}
