//! `_ply.DotsGame`: a dots game in progress played by the library's rules, for Python code that
//! keeps a game state of its own (OpenSpiel's Dots and Triangles, `plysolve.openspiel_triangles`)
//! and must apply moves without restating which cells an edge completes or who moves next.

use crate::{bad, dots_query};
use plysolve::games::dots::board::Edge;
use plysolve::games::dots::geometry::BuiltBoard;
use plysolve::games::dots::notation::format_edge;
use plysolve::games::dots::position::{PlayError, Position};
use pyo3::prelude::*;
use std::sync::Arc;

/// A position of a dots game and its board (`plysolve::games::dots::position::Position`): the
/// edges drawn, the score, who owns each cell and who is to move (0 for A, who starts; 1 for B).
/// Copies (`copy.copy`, `copy.deepcopy`) share the board and own their position.
#[pyclass(module = "plysolve._ply")]
#[derive(Clone)]
pub struct DotsGame {
    /// The board, shared by every copy.
    board: Arc<BuiltBoard>,
    /// The game so far.
    position: Position,
}

#[pymethods]
impl DotsGame {
    /// The position of the JSON `DotsRequest` (its board and moves, as `plysolve.dots` takes
    /// them); a fault of the request raises ValueError with `plysolve.dots`'s message.
    #[new]
    fn new(request: &str) -> PyResult<Self> {
        let query = dots_query(request)?;
        Ok(DotsGame {
            board: Arc::new(query.built),
            position: query.position,
        })
    }

    /// Draws edge `edge` (its number in the board's order, from 0) for the player to move; the
    /// cells it completed, now that player's, who then moves again (if any). An edge the board
    /// does not have, or one drawn already, raises ValueError and changes nothing.
    fn play(&mut self, edge: usize) -> PyResult<Vec<usize>> {
        let edges = self.board.board.edge_count();
        let e = u8::try_from(edge)
            .ok()
            .filter(|&e| (e as usize) < edges)
            .ok_or_else(|| bad(format!("edge {edge} is none of the board's {edges} edges")))?;
        let board = &self.board.board;
        self.position
            .play(board, Edge(e))
            .map_err(|fault| match fault {
                PlayError::AlreadyDrawn { by_move } => bad(format!(
                    "edge {} is already drawn (by move {by_move})",
                    format_edge(board, Edge(e))
                )),
                other => bad(other),
            })
    }

    /// The player to move: 0 (A, who starts) or 1 (B).
    #[getter]
    fn to_move(&self) -> usize {
        self.position.to_move().index()
    }

    /// Cells taken so far by A and by B.
    #[getter]
    fn score(&self) -> (u32, u32) {
        let [a, b] = self.position.score();
        (a, b)
    }

    /// Who took each cell, in the board's cell order: 0 (A), 1 (B) or None while it is open.
    #[getter]
    fn owners(&self) -> Vec<Option<usize>> {
        self.position
            .owners()
            .iter()
            .map(|o| o.map(|p| p.index()))
            .collect()
    }

    /// The edges drawn, as a bitmask over the board's edge order.
    #[getter]
    fn drawn(&self) -> u64 {
        self.position.drawn().0
    }

    /// How many edges the board has (the actions are 0 to this less one).
    #[getter]
    fn edges(&self) -> usize {
        self.board.board.edge_count()
    }

    /// The free edges, in ascending order.
    fn free_edges(&self) -> Vec<usize> {
        let drawn = self.position.drawn().0;
        (0..self.edges()).filter(|&e| drawn >> e & 1 == 0).collect()
    }

    /// A copy of the game (the board shared).
    fn __copy__(&self) -> Self {
        self.clone()
    }

    /// A copy of the game (the board shared: it never changes).
    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
        self.clone()
    }
}
