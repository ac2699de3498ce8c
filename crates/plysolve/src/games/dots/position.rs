//! A game in progress: the drawn edges (the solved state) plus what the solver does not need — the
//! score so far, who owns which cell, whose turn it is and the moves made.

use super::board::{DotsBoard, Edge, EdgeSet};
use crate::engine::scored::keeps_turn;
use crate::engine::Player;

/// Why an edge cannot be drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// The board has no edge of that number.
    #[error("the board has no edge {}", .0.0)]
    NoSuchEdge(Edge),
    /// The edge is drawn already.
    #[error("the edge was drawn by move {by_move}")]
    AlreadyDrawn {
        /// The move (1-based) that drew it.
        by_move: usize,
    },
}

/// A dots game after some moves. `A` moves first; completing a cell scores it and moves again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Position {
    drawn: EdgeSet,
    score: [u32; 2],
    to_move: Player,
    owners: Vec<Option<Player>>,
    history: Vec<Edge>,
}

impl Position {
    /// The empty board, `A` to move.
    pub fn new(board: &DotsBoard) -> Self {
        Position {
            drawn: EdgeSet::default(),
            score: [0, 0],
            to_move: Player::A,
            owners: vec![None; board.cell_count()],
            history: Vec::new(),
        }
    }

    /// Draws `edge` for the player to move. Returns the cells it completed (which now belong to that
    /// player, who moves again if there are any), or why the move is not legal.
    pub fn play(&mut self, board: &DotsBoard, edge: Edge) -> Result<Vec<usize>, PlayError> {
        if edge.0 as usize >= board.edge_count() {
            return Err(PlayError::NoSuchEdge(edge));
        }
        if let Some(earlier) = self.history.iter().position(|&e| e == edge) {
            return Err(PlayError::AlreadyDrawn {
                by_move: earlier + 1,
            });
        }
        let completed: Vec<usize> = board.completed_by(self.drawn, edge).collect();
        for &cell in &completed {
            self.owners[cell] = Some(self.to_move);
        }
        self.score[self.to_move.index()] += completed.len() as u32;
        if !keeps_turn(completed.len() as u32) {
            self.to_move = self.to_move.other();
        }
        self.drawn = self.drawn.with(edge);
        self.history.push(edge);
        Ok(completed)
    }

    /// The drawn edges: all a solver needs.
    pub fn drawn(&self) -> EdgeSet {
        self.drawn
    }

    /// Cells won so far by `[A, B]`.
    pub fn score(&self) -> [u32; 2] {
        self.score
    }

    /// The player whose turn it is.
    pub fn to_move(&self) -> Player {
        self.to_move
    }

    /// The owner of each cell, `None` while it is open.
    pub fn owners(&self) -> &[Option<Player>] {
        &self.owners
    }

    /// The moves made, in order.
    pub fn history(&self) -> &[Edge] {
        &self.history
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::dots::Edge;
    use crate::games::dots::Geometry;

    #[test]
    fn scoring_keeps_the_turn() {
        let board = Geometry::CLASSIC_TRIANGLES.build().unwrap().board;
        let mut position = Position::new(&board);
        // 1-2 (A), 1-3 (B), 2-3 completes the top triangle for A, who moves again.
        for (a, b, mover) in [(0, 1, Player::A), (0, 2, Player::B), (1, 2, Player::A)] {
            assert_eq!(position.to_move(), mover);
            position
                .play(&board, board.edge_between(a, b).unwrap())
                .unwrap();
        }
        assert_eq!(position.score(), [1, 0]);
        assert_eq!(position.to_move(), Player::A);
        assert_eq!(position.owners()[0], Some(Player::A));
        let again = position.play(&board, board.edge_between(0, 2).unwrap());
        assert_eq!(again, Err(PlayError::AlreadyDrawn { by_move: 2 }));
        let missing = position.play(&board, Edge(18));
        assert_eq!(missing, Err(PlayError::NoSuchEdge(Edge(18))));
    }
}
