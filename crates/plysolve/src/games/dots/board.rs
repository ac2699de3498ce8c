//! The rules of every dots game, given as an incidence of edges and cells.

use super::theory::{DotsTheory, Leaf};
use crate::engine::scored::symmetry::Symmetries;
use crate::engine::scored::{Completion, ScoredGame, SubsetIndexed, Theory};
use crate::engine::Capabilities;
use std::ops::ControlFlow;
use thiserror::Error;

/// An edge, by its number on the board (0-based, in the board's edge order).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Edge(pub u8);

/// The set of drawn edges: the whole solved state of a dots game, as a bitmask over edge numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct EdgeSet(pub u64);

impl EdgeSet {
    /// Whether `edge` is drawn.
    pub fn contains(self, edge: Edge) -> bool {
        self.0 >> edge.0 & 1 == 1
    }

    /// This set with `edge` drawn too.
    pub fn with(self, edge: Edge) -> EdgeSet {
        EdgeSet(self.0 | 1 << edge.0)
    }

    /// How many edges are drawn.
    pub fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether no edge is drawn.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
}

/// The most cells a board has: what a one-byte value can count (a position's value, and every
/// bound on it, lies within ± its open cells).
pub const MAX_CELLS: usize = 127;

/// A board whose incidence breaks the rules every solver relies on.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BoardError {
    /// More edges than a 64-bit state can hold.
    #[error("the board has {edges} edges; at most 63 fit a state")]
    TooManyEdges {
        /// Edges asked for.
        edges: usize,
    },
    /// More cells than a one-byte value can count.
    #[error("the board has {cells} cells; at most {MAX_CELLS} fit a value")]
    TooManyCells {
        /// Cells asked for.
        cells: usize,
    },
    /// An edge joins a dot to itself or to a dot that does not exist.
    #[error(
        "edge {edge} joins dots {a} and {b}, which is not an edge between two of the {dots} dots"
    )]
    BadEdge {
        /// Edge number.
        edge: usize,
        /// First dot (0-based).
        a: u32,
        /// Second dot (0-based).
        b: u32,
        /// Number of dots.
        dots: u32,
    },
    /// The same two dots are joined twice.
    #[error("dots {a} and {b} are joined by two edges")]
    DuplicateEdge {
        /// First dot (0-based).
        a: u32,
        /// Second dot (0-based).
        b: u32,
    },
    /// A cell names an edge that does not exist, or none at all.
    #[error("cell {cell} is not a non-empty set of the board's edges")]
    BadCell {
        /// Cell number.
        cell: usize,
    },
    /// A dot permutation that is not a symmetry of the board.
    #[error("dot permutation {0} does not map the board's edges and cells onto themselves")]
    NotASymmetry(usize),
    /// An edge borders more than two cells: not a planar board.
    #[error("edge {edge} borders more than two cells")]
    EdgeInTooManyCells {
        /// Edge number.
        edge: usize,
    },
}

/// The rules of one dots board: which dots each edge joins and which edges make each cell.
///
/// Implements [`ScoredGame`] with [`EdgeSet`] states and [`SubsetIndexed`] (the edge bitmask), so every
/// strategy of the engine can solve it.
#[derive(Debug, Clone)]
pub struct DotsBoard {
    dots: u32,
    edges: Vec<(u32, u32)>,
    cells: Vec<Vec<Edge>>,
    /// Per edge, the cells it borders (at most two).
    borders: Vec<[Option<u16>; 2]>,
    /// Per edge, the other edges of each bordered cell, in the engine's [`Completion`] form.
    others: Vec<[u64; 2]>,
    /// The board's symmetries as edge permutations, if the geometry gave them.
    symmetries: Option<Symmetries>,
    /// Whether the dots theory ([`DotsTheory`]) is known to hold on this board (the geometries'
    /// boards).
    theory: bool,
    /// The estimate the theory values the anytime search's leaves by.
    leaf: Leaf,
    /// Each edge's rank from the board's centre out (0 nearest), when the geometry placed the dots.
    centre_ranks: Option<Vec<u8>>,
}

impl DotsBoard {
    /// A board of `dots` dots (0-based), `edges` as pairs of dots (each pair once), and `cells` as sets
    /// of edge numbers. Checked: at most 63 edges and 127 cells, every edge on at most two cells.
    pub fn new(
        dots: u32,
        edges: Vec<(u32, u32)>,
        cells: Vec<Vec<Edge>>,
    ) -> Result<Self, BoardError> {
        if edges.len() > 63 {
            return Err(BoardError::TooManyEdges { edges: edges.len() });
        }
        if cells.len() > MAX_CELLS {
            return Err(BoardError::TooManyCells { cells: cells.len() });
        }
        let mut seen = std::collections::HashSet::new();
        for (edge, &(a, b)) in edges.iter().enumerate() {
            if a == b || a >= dots || b >= dots {
                return Err(BoardError::BadEdge { edge, a, b, dots });
            }
            if !seen.insert((a.min(b), a.max(b))) {
                return Err(BoardError::DuplicateEdge { a, b });
            }
        }
        let mut borders = vec![[None; 2]; edges.len()];
        let mut others: Vec<[u64; 2]> = (0..edges.len()).map(|e| [1 << e; 2]).collect();
        for (cell, members) in cells.iter().enumerate() {
            let mask = members.iter().fold(0u64, |m, e| m | 1 << e.0);
            let distinct = mask.count_ones() as usize == members.len();
            if members.is_empty()
                || !distinct
                || members.iter().any(|e| e.0 as usize >= edges.len())
            {
                return Err(BoardError::BadCell { cell });
            }
            for e in members {
                let e = e.0 as usize;
                let slot = borders[e]
                    .iter()
                    .position(Option::is_none)
                    .ok_or(BoardError::EdgeInTooManyCells { edge: e })?;
                borders[e][slot] = Some(cell as u16);
                others[e][slot] = mask & !(1 << e);
            }
        }
        Ok(DotsBoard {
            dots,
            edges,
            cells,
            borders,
            others,
            symmetries: None,
            theory: false,
            leaf: Leaf::default(),
            centre_ranks: None,
        })
    }

    /// The same board with its symmetries, given as permutations of the dots (`perm[d]` is the image
    /// of dot `d`); each is checked to map edges to edges and cells to cells.
    pub fn with_symmetries(mut self, dot_perms: &[Vec<u32>]) -> Result<Self, BoardError> {
        let cell_set = |cells: &[Vec<Edge>]| {
            let mut masks: Vec<u64> = cells
                .iter()
                .map(|c| c.iter().fold(0, |m, e| m | 1 << e.0))
                .collect();
            masks.sort_unstable();
            masks
        };
        let original = cell_set(&self.cells);
        let mut edge_perms = Vec::with_capacity(dot_perms.len());
        for (i, perm) in dot_perms.iter().enumerate() {
            let image = |e: usize| {
                let (a, b) = self.edges[e];
                let (a, b) = (*perm.get(a as usize)?, *perm.get(b as usize)?);
                self.edge_between(a, b)
            };
            let edges: Option<Vec<Edge>> = (0..self.edges.len()).map(image).collect();
            let edges = edges.ok_or(BoardError::NotASymmetry(i))?;
            let mapped: Vec<Vec<Edge>> = self
                .cells
                .iter()
                .map(|c| c.iter().map(|e| edges[e.0 as usize]).collect())
                .collect();
            if cell_set(&mapped) != original {
                return Err(BoardError::NotASymmetry(i));
            }
            edge_perms.push(edges.into_iter().map(|e| e.0).collect());
        }
        self.symmetries = Some(Symmetries::new(self.edges.len() as u32, &edge_perms));
        Ok(self)
    }

    /// The same board with its edges ranked from the centre out, the dots placed at `points`: the
    /// edge whose middle is nearest the middle of all the dots first (Barker and Korf's move order:
    /// central edges decide the most). Edges at the same distance share a rank.
    pub fn with_centre_order(mut self, points: &[(f64, f64)]) -> Self {
        let n = points.len().max(1) as f64;
        let centre = points
            .iter()
            .fold((0.0, 0.0), |(x, y), p| (x + p.0 / n, y + p.1 / n));
        let distance: Vec<f64> = self
            .edges
            .iter()
            .map(|&(a, b)| {
                let (p, q) = (points[a as usize], points[b as usize]);
                let mid = ((p.0 + q.0) / 2.0, (p.1 + q.1) / 2.0);
                (mid.0 - centre.0).hypot(mid.1 - centre.1)
            })
            .collect();
        let mut sorted = distance.clone();
        sorted.sort_by(f64::total_cmp);
        sorted.dedup_by(|a, b| (*a - *b).abs() < 1e-9);
        let rank = |d: f64| {
            sorted
                .iter()
                .position(|&s| (s - d).abs() < 1e-9)
                .unwrap_or(0) as u8
        };
        self.centre_ranks = Some(distance.into_iter().map(rank).collect());
        self
    }

    /// The same board, declared to obey the dots theory ([`DotsTheory`]): the capture rules (a safe
    /// capture is as good as any move, and otherwise a capture or its double-deal is) and the values
    /// of simple loony endgames. True of boxes and triangles (checked on every state of every such
    /// board of up to 2^24 states in `tests/dots_chain_rules.rs`); not assumed of other incidences.
    pub fn with_theory(mut self) -> Self {
        self.theory = true;
        self
    }

    /// The same board, the leaves of its anytime search valued by `leaf`'s estimate (the learned
    /// one unless said otherwise): what an A/B of the estimate alone plays with.
    pub fn with_leaf(mut self, leaf: Leaf) -> Self {
        self.leaf = leaf;
        self
    }

    /// Number of symmetries known (1: only the identity).
    pub fn symmetry_order(&self) -> usize {
        self.symmetries.as_ref().map_or(1, Symmetries::order)
    }

    /// Number of dots.
    pub fn dots(&self) -> u32 {
        self.dots
    }

    /// Number of edges.
    pub fn edge_count(&self) -> usize {
        self.edges.len()
    }

    /// Number of cells.
    pub fn cell_count(&self) -> usize {
        self.cells.len()
    }

    /// The two dots (0-based, smaller first) an edge joins.
    pub fn endpoints(&self, edge: Edge) -> (u32, u32) {
        let (a, b) = self.edges[edge.0 as usize];
        (a.min(b), a.max(b))
    }

    /// The edge joining two dots (0-based, either order), if any.
    pub fn edge_between(&self, a: u32, b: u32) -> Option<Edge> {
        let key = (a.min(b), a.max(b));
        self.edges
            .iter()
            .position(|&(x, y)| (x.min(y), x.max(y)) == key)
            .map(|e| Edge(e as u8))
    }

    /// The edges of a cell.
    pub fn cell_edges(&self, cell: usize) -> &[Edge] {
        &self.cells[cell]
    }

    /// All edges drawn.
    pub fn full(&self) -> EdgeSet {
        EdgeSet(if self.edges.is_empty() {
            0
        } else {
            u64::MAX >> (64 - self.edges.len())
        })
    }

    /// The cells that drawing `edge` completes when `drawn` is already on the board.
    pub fn completed_by(&self, drawn: EdgeSet, edge: Edge) -> impl Iterator<Item = usize> + '_ {
        let e = edge.0 as usize;
        (0..2).filter_map(move |i| {
            let cell = self.borders[e][i]?;
            let others = self.others[e][i];
            (drawn.0 & others == others).then_some(cell as usize)
        })
    }

    #[inline(always)]
    fn points(&self, drawn: u64, edge: u32) -> u32 {
        Completion {
            others: &self.others,
        }
        .points(drawn, edge)
    }
}

impl ScoredGame for DotsBoard {
    type State = EdgeSet;
    type Move = Edge;

    fn capabilities(&self) -> Capabilities {
        Capabilities {
            chance: false,
            cycles: false,
        }
    }

    fn max_points(&self) -> u32 {
        self.cells.len() as u32
    }

    #[inline]
    fn for_each_move<B, F>(&self, state: &EdgeSet, mut visit: F) -> ControlFlow<B>
    where
        F: FnMut(Edge, EdgeSet, u32) -> ControlFlow<B>,
    {
        let drawn = state.0;
        let mut free = self.full().0 & !drawn;
        while free != 0 {
            let edge = free.trailing_zeros();
            free &= free - 1;
            visit(
                Edge(edge as u8),
                EdgeSet(drawn | 1 << edge),
                self.points(drawn, edge),
            )?;
        }
        ControlFlow::Continue(())
    }

    fn play(&self, state: &EdgeSet, edge: Edge) -> Option<(EdgeSet, u32)> {
        let legal = (edge.0 as usize) < self.edges.len() && !state.contains(edge);
        legal.then(|| (state.with(edge), self.points(state.0, edge.0 as u32)))
    }
}

impl SubsetIndexed for DotsBoard {
    fn items(&self) -> u32 {
        self.edges.len() as u32
    }

    #[inline(always)]
    fn mask(&self, state: &EdgeSet) -> u64 {
        state.0
    }

    #[inline(always)]
    fn state(&self, mask: u64) -> EdgeSet {
        EdgeSet(mask)
    }

    fn completion(&self) -> Option<Completion<'_>> {
        Some(Completion {
            others: &self.others,
        })
    }

    fn symmetries(&self) -> Option<&Symmetries> {
        self.symmetries.as_ref()
    }

    /// The edges' ranks from the centre out, when [`DotsBoard::with_centre_order`] set them.
    fn move_ranks(&self) -> Option<&[u8]> {
        self.centre_ranks.as_deref()
    }

    /// The dots theory, when [`DotsBoard::with_theory`] declared it, with the board's [`Leaf`].
    fn theory(&self) -> Option<&dyn Theory> {
        self.theory
            .then_some(DotsTheory::of(self.leaf) as &dyn Theory)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::dots::theory::{estimate::estimate, learned::learned_estimate};

    #[test]
    fn the_leaf_names_the_estimate_the_theory_values_positions_by() {
        let board = crate::games::dots::Geometry::Boxes { rows: 5, cols: 5 }
            .build()
            .unwrap()
            .board;
        let rules = board.completion().unwrap();
        // Three edges drawn (1-2, 1-7, 2-8: the first box one edge short) on the 5×5 board.
        let drawn = 0b1011;
        let free = ((1u64 << board.edge_count()) - 1) & !drawn;
        let valued = |board: &DotsBoard| board.theory().unwrap().estimate(rules, drawn, free);
        let learned = valued(&board);
        let hand_made = valued(&board.clone().with_leaf(Leaf::HandMade));
        assert_eq!(learned, learned_estimate(rules, drawn, free));
        assert_eq!(hand_made, estimate(rules, drawn, free));
        assert_eq!((learned, hand_made), (-3, -19));
        assert_eq!(valued(&board.clone().with_leaf(Leaf::Learned)), learned);
    }

    /// One triangle: dots 0,1,2; edges 0-1, 0-2, 1-2.
    fn triangle() -> DotsBoard {
        DotsBoard::new(
            3,
            vec![(0, 1), (0, 2), (1, 2)],
            vec![vec![Edge(0), Edge(1), Edge(2)]],
        )
        .unwrap()
    }

    #[test]
    fn edges_are_ranked_from_the_centre_out() {
        let built = crate::games::dots::Geometry::Boxes { rows: 2, cols: 2 }
            .build()
            .unwrap();
        let board = &built.board;
        let ranks = board.move_ranks().unwrap();
        let rank = |a: u32, b: u32| ranks[board.edge_between(a - 1, b - 1).unwrap().0 as usize];
        // The four edges at the centre dot (5) first, then the middle of each side, then the rest.
        for (a, b) in [(2, 5), (4, 5), (5, 6), (5, 8)] {
            assert_eq!(rank(a, b), 0, "{a}-{b}");
        }
        assert!(rank(1, 2) > 0 && rank(1, 2) == rank(8, 9));
        let classic = crate::games::dots::Geometry::CLASSIC_TRIANGLES
            .build()
            .unwrap()
            .board;
        // On the classic board the six edges nearest the middle (around dot 5) share the first rank.
        let r = classic.move_ranks().unwrap();
        assert_eq!(r.iter().filter(|&&x| x == 0).count(), 6);
    }

    #[test]
    fn last_edge_of_a_cell_scores() {
        let board = triangle();
        assert_eq!(
            board.play(&EdgeSet(0b011), Edge(2)),
            Some((EdgeSet(0b111), 1))
        );
        assert_eq!(
            board.play(&EdgeSet(0b001), Edge(2)),
            Some((EdgeSet(0b101), 0))
        );
        assert_eq!(board.play(&EdgeSet(0b001), Edge(0)), None);
        assert_eq!(
            board
                .completed_by(EdgeSet(0b011), Edge(2))
                .collect::<Vec<_>>(),
            vec![0]
        );
    }

    #[test]
    fn rejects_broken_incidences() {
        assert_eq!(
            DotsBoard::new(2, vec![(0, 0)], vec![]).unwrap_err(),
            BoardError::BadEdge {
                edge: 0,
                a: 0,
                b: 0,
                dots: 2
            }
        );
        assert_eq!(
            DotsBoard::new(3, vec![(0, 1), (1, 0)], vec![]).unwrap_err(),
            BoardError::DuplicateEdge { a: 1, b: 0 }
        );
        let three_cells = vec![vec![Edge(0)], vec![Edge(0)], vec![Edge(0)]];
        assert_eq!(
            DotsBoard::new(2, vec![(0, 1)], three_cells).unwrap_err(),
            BoardError::EdgeInTooManyCells { edge: 0 }
        );
        assert_eq!(
            DotsBoard::new(2, vec![(0, 1)], vec![vec![Edge(0), Edge(0)]]).unwrap_err(),
            BoardError::BadCell { cell: 0 }
        );
    }
}
