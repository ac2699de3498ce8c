//! The book's key scheme: one key for every position whose value is the same by the board's
//! symmetries and its twins, stable across versions (it depends only on the board's edge order,
//! which the book records and checks).
//!
//! A position is its set of drawn edges, bit `i` for edge `i` in the board's edge order (the order
//! `ply dots` numbers edges in: `BuiltBoard::identity` lists it). Twins are edges lying in the same
//! cells (a corner box's two outer edges): which of them is drawn never changes a value, so the
//! *twin normal form* draws the lowest ones of each group. The key is the smallest twin normal form
//! among the position's images under the board's symmetries (the identity included), as an
//! unsigned 64-bit number. Moves stored with a key (a best move) are in the key's own frame: an edge
//! free in the key's position.

use crate::engine::scored::twins::Twins;
use crate::engine::scored::SubsetIndexed;
use crate::games::dots::board::{DotsBoard, Edge, EdgeSet};
use std::borrow::Cow;

/// A position's key and the symmetry that gives it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Keyed {
    /// The key.
    pub key: u64,
    /// The index of the board's non-identity symmetry whose image gives the key (`None`: the
    /// position itself, in twin normal form).
    symmetry: Option<usize>,
    /// The position's own edges.
    drawn: u64,
}

/// The key scheme of one board: its symmetries and twins (the twins worked out once and lent,
/// [`Self::with_twins`], where a book's index keys position after position in a search).
pub struct KeyScheme<'a> {
    board: &'a DotsBoard,
    twins: Cow<'a, Twins>,
}

impl<'a> KeyScheme<'a> {
    /// The scheme of `board`.
    pub fn new(board: &'a DotsBoard) -> Self {
        let twins = Twins::new(
            board
                .completion()
                .expect("dots boards state completion rules"),
            board.items(),
        );
        KeyScheme {
            board,
            twins: Cow::Owned(twins),
        }
    }

    /// The scheme of `board` with its `twins` already worked out ([`Self::twins`] of an earlier
    /// scheme of the board).
    pub fn with_twins(board: &'a DotsBoard, twins: &'a Twins) -> Self {
        KeyScheme {
            board,
            twins: Cow::Borrowed(twins),
        }
    }

    /// The board's twins.
    pub fn twins(&self) -> &Twins {
        &self.twins
    }

    /// The key of the position with edges `drawn`.
    pub fn key(&self, drawn: EdgeSet) -> Keyed {
        let mut best = (self.twins.normal(drawn.0), None);
        if let Some(s) = self.board.symmetries() {
            for i in 0..s.order() - 1 {
                let image = self.twins.normal(s.image(i, drawn.0));
                if image < best.0 {
                    best = (image, Some(i));
                }
            }
        }
        Keyed {
            key: best.0,
            symmetry: best.1,
            drawn: drawn.0,
        }
    }

    /// A move of `keyed`'s position in its key's frame.
    pub fn to_key_frame(&self, keyed: Keyed, edge: Edge) -> Edge {
        let image = match (keyed.symmetry, self.board.symmetries()) {
            (Some(i), Some(s)) => s.image(i, 1 << edge.0).trailing_zeros(),
            _ => edge.0 as u32,
        };
        Edge(self.twins.free_twin(image, keyed.key) as u8)
    }

    /// A move of `keyed`'s position from a move `edge` in its key's frame; `None` when `edge` is not
    /// free there (a damaged entry).
    pub fn from_key_frame(&self, keyed: Keyed, edge: Edge) -> Option<Edge> {
        if edge.0 as usize >= self.board.edge_count() || keyed.key >> edge.0 & 1 == 1 {
            return None;
        }
        let original = match (keyed.symmetry, self.board.symmetries()) {
            (Some(i), Some(s)) => (0..self.board.edge_count() as u32)
                .find(|&f| s.image(i, 1 << f) == 1 << edge.0)
                .expect("a symmetry is a permutation of the edges"),
            _ => edge.0 as u32,
        };
        Some(Edge(self.twins.free_twin(original, keyed.drawn) as u8))
    }

    /// Open cells of the position `drawn`: its value lies in `-cells..=cells`.
    pub fn open_cells(&self, drawn: EdgeSet) -> u32 {
        (0..self.board.cell_count())
            .filter(|&c| self.board.cell_edges(c).iter().any(|&e| !drawn.contains(e)))
            .count() as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::dots::Geometry;

    #[test]
    fn symmetric_positions_share_a_key_and_moves_map_back() {
        let built = Geometry::Boxes { rows: 4, cols: 4 }.build().unwrap();
        let board = &built.board;
        let scheme = KeyScheme::new(board);
        let edge = |a: u32, b: u32| board.edge_between(a - 1, b - 1).unwrap();
        // 2-3 and its mirror image 3-4 (left-right) give one key; 7-8 another.
        let left = scheme.key(EdgeSet(0).with(edge(2, 3)));
        let right = scheme.key(EdgeSet(0).with(edge(3, 4)));
        let middle = scheme.key(EdgeSet(0).with(edge(7, 8)));
        assert_eq!(left.key, right.key);
        assert_ne!(left.key, middle.key);
        // A move taken to the key's frame and back is the same move (or its free twin).
        for e in 0..board.edge_count() as u8 {
            if right.drawn >> e & 1 == 1 {
                continue;
            }
            let framed = scheme.to_key_frame(right, Edge(e));
            assert_eq!(right.key >> framed.0 & 1, 0);
            let back = scheme.from_key_frame(right, framed).unwrap();
            let child = |k: Keyed, m: Edge| scheme.key(EdgeSet(k.drawn).with(m)).key;
            assert_eq!(child(right, back), child(right, Edge(e)));
        }
        assert_eq!(scheme.open_cells(EdgeSet(0)), 16);
        assert_eq!(scheme.from_key_frame(right, Edge(200)), None);
    }
}
