//! A dots position split into jobs, for a search spread over machines (`python -m
//! ply.distributed`): a front end expands the tree a few plies into distinct positions, has each
//! searched on its own (a job), and combines what the jobs proved back up — a job-level proof
//! search, the way checkers was solved (a front-end manager over back-end alpha-beta solvers).
//!
//! The expansion applies what the search applies, in its order ([`move_order`]): the moves the
//! board's [`Theory`](crate::engine::scored::Theory) keeps (a safe capture alone; otherwise the
//! captures and their double-deals), one move per group of twins, and one child per class of
//! positions equal up to the board's symmetries and twins ([`key`]). The combination is Wilson's
//! rule on bounds ([`ValueRange::after_move`]): a parent is proved once what its children proved
//! leaves it one value, whether or not every child is proved, and a question about the parent's
//! value in a window is a question about each child's in the window
//! [`ValueRange::before_move`] gives. No front end re-derives either.

use super::board::{DotsBoard, Edge, EdgeSet};
use super::geometry::BuiltBoard;
use super::notation::format_edge;
use super::request::DotsQuery;
use crate::engine::scored::search::move_order;
use crate::engine::scored::twins::Twins;
use crate::engine::scored::{SubsetIndexed, ValueRange};
use serde::Serialize;

/// One distinct child of a position: a move that reaches a class of positions no earlier child
/// reaches.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct JobChild {
    /// The edge drawn, `2-5`.
    #[serde(rename = "move")]
    pub mv: String,
    /// Cells it completes (the mover then moves again).
    pub points: u32,
    /// The moves from the empty board to the child: the position's own, then this one.
    pub moves: Vec<String>,
    /// The child's [`key`].
    pub key: String,
    /// Free edges of the child.
    pub free: u32,
    /// Open cells of the child: its value lies in `-cells..=cells`.
    pub cells: u32,
}

/// A position as the front end of a split search sees it: its key, its size, its distinct children.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct JobNode {
    /// The position's [`key`].
    pub key: String,
    /// Free edges.
    pub free: u32,
    /// Open cells: its value lies in `-cells..=cells`.
    pub cells: u32,
    /// The distinct children whose best is the position's value, in the order the search tries
    /// them (empty when the game is over).
    pub children: Vec<JobChild>,
}

/// The key of the position `drawn` on `built`'s board: the same for every position whose value is
/// the same by the board's symmetries and its twins (the smallest twin normal form of its images),
/// different for the rest. It names the board, so one store can hold several boards.
pub fn key(built: &BuiltBoard, drawn: EdgeSet) -> String {
    let board = &built.board;
    format!(
        "{}: {:#x}",
        built.geometry.title(),
        canonical(board, &twins(board), drawn.0)
    )
}

/// The position of `query` with its distinct children, in the order the search tries them.
pub fn expand(query: &DotsQuery) -> JobNode {
    let built = &query.built;
    let board = &built.board;
    let twins = twins(board);
    let drawn = query.position.drawn().0;
    let full = board.full().0;
    let rules = board
        .completion()
        .expect("dots boards state completion rules");
    let order = move_order(board, &query.position.drawn(), query.tie_order)
        .expect("dots boards state completion rules");
    let played: Vec<String> = query
        .position
        .history()
        .iter()
        .map(|&e| format_edge(board, e))
        .collect();
    let cells = open_cells(query);
    let mut seen: Vec<u64> = Vec::new();
    let mut children = Vec::new();
    for e in order {
        let child = drawn | 1 << e;
        let canonical = canonical(board, &twins, child);
        if seen.contains(&canonical) {
            continue;
        }
        seen.push(canonical);
        let points = rules.points(drawn, e);
        let mv = format_edge(board, Edge(e as u8));
        let mut moves = played.clone();
        moves.push(mv.clone());
        children.push(JobChild {
            mv,
            points,
            moves,
            key: format!("{}: {canonical:#x}", built.geometry.title()),
            free: (full & !child).count_ones(),
            cells: cells - points,
        });
    }
    JobNode {
        key: key(built, query.position.drawn()),
        free: (full & !drawn).count_ones(),
        cells,
        children,
    }
}

/// What is proved of a position with `cells` open cells from what is proved of its distinct
/// children, each given as (points, what is proved of the child's value: `None` for nothing yet):
/// Wilson's rule on both bounds of each move, the best move's bounds for the position. Exact once
/// the proved children leave one value; `-cells..=cells` narrowed as far as they allow otherwise.
/// A position without children (the game over) is worth 0.
pub fn combine(cells: u32, children: &[(u32, Option<ValueRange>)]) -> ValueRange {
    if children.is_empty() {
        return ValueRange::exact(0);
    }
    let c = cells as i32;
    let found = children
        .iter()
        .map(|&(points, range)| {
            let left = c - points as i32;
            range
                .unwrap_or(ValueRange {
                    lower: -left,
                    upper: left,
                })
                .after_move(points)
        })
        .fold(
            ValueRange {
                lower: i32::MIN,
                upper: i32::MIN,
            },
            |best, m| ValueRange {
                lower: best.lower.max(m.lower),
                upper: best.upper.max(m.upper),
            },
        );
    found.meet(ValueRange {
        lower: -c,
        upper: c,
    })
}

/// Open cells of `query`'s position.
fn open_cells(query: &DotsQuery) -> u32 {
    let [a, b] = query.position.score();
    query.built.board.cell_count() as u32 - a - b
}

fn twins(board: &DotsBoard) -> Twins {
    Twins::new(
        board
            .completion()
            .expect("dots boards state completion rules"),
        board.items(),
    )
}

/// The smallest twin normal form among the images of `drawn` under the board's symmetries.
fn canonical(board: &DotsBoard, twins: &Twins, drawn: u64) -> u64 {
    let mut best = twins.normal(drawn);
    if let Some(s) = board.symmetries() {
        for i in 0..s.order() - 1 {
            best = best.min(twins.normal(s.image(i, drawn)));
        }
    }
    best
}
