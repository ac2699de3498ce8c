//! A board as a picture needs it: where every dot is, which dots each edge joins (by its name,
//! `2-5`), and each cell's edges, corners and centre. The page draws boards from this
//! (`POST /api/dots/board`) and never rebuilds a geometry or re-derives a rule itself.

use super::board::Edge;
use super::geometry::{BuiltBoard, Geometry};
use super::notation::format_edge;
use serde::Serialize;

/// One dot: its number as moves write it, and where it is drawn.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DotView {
    /// The dot's number (from 1).
    pub n: u32,
    /// Across, in edge lengths.
    pub x: f64,
    /// Down, in edge lengths.
    pub y: f64,
}

/// One edge: its name as moves write it and its two dots.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EdgeView {
    /// `2-5`, smaller dot first.
    pub name: String,
    /// The smaller dot's number.
    pub a: u32,
    /// The larger dot's number.
    pub b: u32,
}

/// One cell: its edges, its corner dots in order around it, and its centre.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CellView {
    /// The names of its edges.
    pub edges: Vec<String>,
    /// Its corner dots, in order around the cell (a polygon).
    pub corners: Vec<u32>,
    /// The centre, across.
    pub x: f64,
    /// The centre, down.
    pub y: f64,
}

/// A whole board for drawing. Cells are in the order of a report's `owners`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BoardView {
    /// The board: `"game"` and its size fields.
    #[serde(flatten)]
    pub geometry: Geometry,
    /// How people name it.
    pub title: String,
    /// The name of one cell and of several (`box`, `boxes`).
    pub cell_names: [&'static str; 2],
    /// Every dot.
    pub dots: Vec<DotView>,
    /// Every edge, in the board's edge order.
    pub edges: Vec<EdgeView>,
    /// Every cell.
    pub cells: Vec<CellView>,
    /// The picture's extent across, in edge lengths (dots from 0 to it).
    pub width: f64,
    /// Its extent down.
    pub height: f64,
}

/// The view of `built`.
pub fn view(built: &BuiltBoard) -> BoardView {
    let board = &built.board;
    let points = &built.points;
    let dots = points
        .iter()
        .enumerate()
        .map(|(i, &(x, y))| DotView {
            n: i as u32 + 1,
            x,
            y,
        })
        .collect();
    let edges = (0..board.edge_count())
        .map(|e| {
            let (a, b) = board.endpoints(Edge(e as u8));
            EdgeView {
                name: format_edge(board, Edge(e as u8)),
                a: a + 1,
                b: b + 1,
            }
        })
        .collect();
    let cells = (0..board.cell_count())
        .map(|cell| {
            let edges = board.cell_edges(cell);
            let mut corners: Vec<u32> = edges
                .iter()
                .flat_map(|&e| {
                    let (a, b) = board.endpoints(e);
                    [a, b]
                })
                .collect();
            corners.sort_unstable();
            corners.dedup();
            let n = corners.len() as f64;
            let x = corners.iter().map(|&d| points[d as usize].0).sum::<f64>() / n;
            let y = corners.iter().map(|&d| points[d as usize].1).sum::<f64>() / n;
            let angle = |d: u32| {
                let (px, py) = points[d as usize];
                (py - y).atan2(px - x)
            };
            corners.sort_by(|&p, &q| angle(p).total_cmp(&angle(q)));
            CellView {
                edges: edges.iter().map(|&e| format_edge(board, e)).collect(),
                corners: corners.into_iter().map(|d| d + 1).collect(),
                x,
                y,
            }
        })
        .collect();
    let (one, many) = built.geometry.cell_names();
    BoardView {
        geometry: built.geometry,
        title: built.geometry.title(),
        cell_names: [one, many],
        dots,
        edges,
        cells,
        width: points.iter().map(|p| p.0).fold(0.0, f64::max),
        height: points.iter().map(|p| p.1).fold(0.0, f64::max),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boxes_and_triangles_as_pictures() {
        let built = Geometry::Boxes { rows: 1, cols: 2 }.build().unwrap();
        let v = view(&built);
        assert_eq!((v.width, v.height), (2.0, 1.0));
        assert_eq!(
            v.dots[4],
            DotView {
                n: 5,
                x: 1.0,
                y: 1.0
            }
        );
        let names: Vec<&str> = v.edges.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["1-2", "1-4", "2-3", "2-5", "3-6", "4-5", "5-6"]);
        assert_eq!(v.cells[0].edges, ["1-2", "4-5", "1-4", "2-5"]);
        // The corners go around the box (by angle from its centre), never across it.
        assert_eq!(v.cells[0].corners, [1, 2, 5, 4]);
        assert_eq!((v.cells[1].x, v.cells[1].y), (1.5, 0.5));
        let classic = view(&Geometry::CLASSIC_TRIANGLES.build().unwrap());
        assert_eq!(classic.dots.len(), 10);
        assert_eq!(classic.cells.len(), 9);
        assert_eq!(
            classic.dots[0],
            DotView {
                n: 1,
                x: 1.5,
                y: 0.0
            }
        );
        // Every edge of the classic board has length 1: the triangles are equilateral.
        for e in &classic.edges {
            let (p, q) = (
                &classic.dots[e.a as usize - 1],
                &classic.dots[e.b as usize - 1],
            );
            assert!(
                ((p.x - q.x).hypot(p.y - q.y) - 1.0).abs() < 1e-9,
                "{}",
                e.name
            );
        }
        assert_eq!(classic.cell_names, ["triangle", "triangles"]);
    }
}
