//! The moves of players that do not look ahead: random (any free edge) and greedy (a scoring edge
//! if there is one; else one leaving no cell one edge short; else any). The opponents ply is
//! measured against, and the slips of ply's weaker levels.

use super::board::{DotsBoard, Edge};
use super::position::Position;
use crate::engine::util::chooser::Chooser;

/// A way of choosing a move without looking ahead.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Naive {
    /// Any free edge, uniformly.
    Random,
    /// A scoring edge if there is one; else one leaving no cell one edge short; else any.
    Greedy,
}

impl Naive {
    /// Its move in `position` (not over), drawn by `chooser`.
    pub fn choose(self, board: &DotsBoard, position: &Position, chooser: &mut Chooser) -> Edge {
        let drawn = position.drawn();
        let free: Vec<Edge> = (0..board.edge_count() as u8)
            .map(Edge)
            .filter(|&e| !drawn.contains(e))
            .collect();
        let pick = |moves: &[Edge], chooser: &mut Chooser| {
            moves[chooser.below(moves.len() as u128) as usize]
        };
        if self == Naive::Random {
            return pick(&free, chooser);
        }
        let scoring: Vec<Edge> = free
            .iter()
            .copied()
            .filter(|&e| board.completed_by(drawn, e).next().is_some())
            .collect();
        if !scoring.is_empty() {
            return pick(&scoring, chooser);
        }
        let after = |e: Edge| drawn.with(e);
        let safe: Vec<Edge> = free
            .iter()
            .copied()
            .filter(|&e| {
                let next = after(e);
                // No cell is left one edge short: nothing is offered.
                free.iter()
                    .filter(|&&f| f != e)
                    .all(|&f| board.completed_by(next, f).next().is_none())
            })
            .collect();
        if safe.is_empty() {
            pick(&free, chooser)
        } else {
            pick(&safe, chooser)
        }
    }
}
