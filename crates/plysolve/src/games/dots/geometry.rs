//! Board shapes. A geometry only builds the incidence (edges and cells) and where things are drawn;
//! the rules and every solver are shared by all shapes.

use super::board::{DotsBoard, Edge};
use super::picture::Canvas;
use serde::Serialize;
use std::collections::BTreeMap;
use thiserror::Error;

/// A board shape with its size.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "game", rename_all = "lowercase")]
pub enum Geometry {
    /// Dots and Triangles: a triangle of `size` rows of small triangles ((size+1)(size+2)/2 dots,
    /// 3·size(size+1)/2 edges, size² cells). Size 3 is the classic Triangle War board.
    Triangles {
        /// Rows of triangles, 1..=6.
        size: u32,
    },
    /// Dots and Boxes: `rows` × `cols` boxes ((rows+1)(cols+1) dots, rows(cols+1) + cols(rows+1)
    /// edges, at most 63).
    Boxes {
        /// Rows of boxes.
        rows: u32,
        /// Columns of boxes.
        cols: u32,
    },
}

/// The most edges a board has: what one state holds. A move list longer than this is no game on any
/// board (the page refuses one before it asks).
pub const MAX_EDGES: u32 = 63;

/// The sizes of triangle boards: size 6 has 63 edges ([`MAX_EDGES`]), the most a state holds.
pub const TRIANGLE_SIZES: std::ops::RangeInclusive<u32> = 1..=6;

/// A size no board of that shape can have.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum GeometryError {
    /// Triangle boards have 1 to 6 rows (size 6 has 63 edges, the most a state holds).
    #[error(
        "triangle boards have size 1 to 6 (size 6 has 63 edges, the most a state holds); got {0}"
    )]
    TriangleSize(u32),
    /// A box board with no box or more than 63 edges.
    #[error("a board of {rows}×{cols} boxes has {edges} edges; boards need at least one box and at most 63 edges")]
    BoxesSize {
        /// Rows asked.
        rows: u32,
        /// Columns asked.
        cols: u32,
        /// Edges it would have.
        edges: u64,
    },
}

/// A geometry turned into rules and a drawing plan.
#[derive(Debug, Clone)]
pub struct BuiltBoard {
    /// The shape and size it was built from.
    pub geometry: Geometry,
    /// The rules.
    pub board: DotsBoard,
    /// Where dots and cell labels go in the text picture.
    pub canvas: Canvas,
    /// Where each dot is drawn in a picture, in units of one edge's length (x to the right, y
    /// down): what the page draws, so that it never rebuilds the geometry itself.
    pub points: Vec<(f64, f64)>,
}

impl BuiltBoard {
    /// What a solved table of this board is for: the shape and the edge numbering, so that a table
    /// file is only ever read for the board it was solved for.
    pub fn identity(&self) -> String {
        let edges: Vec<String> = (0..self.board.edge_count())
            .map(|e| {
                let (a, b) = self.board.endpoints(Edge(e as u8));
                format!("{}-{}", a + 1, b + 1)
            })
            .collect();
        format!("{}; edges {}", self.geometry.title(), edges.join(" "))
    }

    /// A file name for this board's table: `triangles-4.plytable`, `boxes-3x4.plytable`.
    pub fn table_file_name(&self) -> String {
        format!("{}.plytable", self.geometry.slug())
    }
}

impl Geometry {
    /// The classic Triangle War board: 10 dots, 18 edges, 9 triangles.
    pub const CLASSIC_TRIANGLES: Geometry = Geometry::Triangles { size: 3 };

    /// Builds the incidence and the picture plan. Edges are numbered in order of their dot pairs
    /// (smaller dot, then larger dot), so the numbering follows from the dot numbering alone.
    pub fn build(self) -> Result<BuiltBoard, GeometryError> {
        self.check()?;
        let (board, canvas, points) = match self {
            Geometry::Triangles { size } => triangles(size),
            Geometry::Boxes { rows, cols } => boxes(rows, cols),
        };
        Ok(BuiltBoard {
            geometry: self,
            board,
            canvas,
            points,
        })
    }

    /// Whether a board of this shape and size can be built: triangles of size 1 to 6, boxes with at
    /// least one box and at most 63 edges (the most a state holds).
    pub fn check(self) -> Result<(), GeometryError> {
        match self {
            Geometry::Triangles { size } if !TRIANGLE_SIZES.contains(&size) => {
                Err(GeometryError::TriangleSize(size))
            }
            Geometry::Boxes { rows, cols } => {
                let edges = rows as u64 * (cols as u64 + 1) + cols as u64 * (rows as u64 + 1);
                if rows == 0 || cols == 0 || edges > u64::from(MAX_EDGES) {
                    Err(GeometryError::BoxesSize { rows, cols, edges })
                } else {
                    Ok(())
                }
            }
            Geometry::Triangles { .. } => Ok(()),
        }
    }

    /// Every board that can be built, triangles by size then boxes by rows and columns: what a front
    /// end offers, so that it never offers a board the library refuses.
    pub fn every() -> Vec<Geometry> {
        let triangles = (1..=6).map(|size| Geometry::Triangles { size });
        // A board of rows × cols boxes has at least 3·max(rows, cols) + 1 edges, so no side is
        // longer than 21.
        let boxes =
            (1..=21).flat_map(|rows| (1..=21).map(move |cols| Geometry::Boxes { rows, cols }));
        triangles
            .chain(boxes)
            .filter(|g| g.check().is_ok())
            .collect()
    }

    /// How people name the board: `Dots and Triangles, size 3` or `Dots and Boxes, 3×3`.
    pub fn title(self) -> String {
        match self {
            Geometry::Triangles { size } => format!("Dots and Triangles, size {size}"),
            Geometry::Boxes { rows, cols } => format!("Dots and Boxes, {rows}×{cols}"),
        }
    }

    /// The board's short name in file names and books: `triangles-5`, `boxes-4x4`.
    pub fn slug(self) -> String {
        match self {
            Geometry::Triangles { size } => format!("triangles-{size}"),
            Geometry::Boxes { rows, cols } => format!("boxes-{rows}x{cols}"),
        }
    }

    /// The geometry a [`Self::slug`] names, if it names one.
    pub fn from_slug(slug: &str) -> Option<Geometry> {
        if let Some(size) = slug.strip_prefix("triangles-") {
            return Some(Geometry::Triangles {
                size: size.parse().ok()?,
            });
        }
        let (rows, cols) = slug.strip_prefix("boxes-")?.split_once('x')?;
        Some(Geometry::Boxes {
            rows: rows.parse().ok()?,
            cols: cols.parse().ok()?,
        })
    }

    /// The name of one cell, and of several.
    pub fn cell_names(self) -> (&'static str, &'static str) {
        match self {
            Geometry::Triangles { .. } => ("triangle", "triangles"),
            Geometry::Boxes { .. } => ("box", "boxes"),
        }
    }
}

/// Numbers edges in order of their dot pairs (smaller dot first) and returns the sorted pairs with a
/// lookup from any pair of dots (either order) to its edge.
fn number_edges(mut pairs: Vec<(u32, u32)>) -> (Vec<(u32, u32)>, impl Fn(u32, u32) -> Edge) {
    for p in &mut pairs {
        *p = (p.0.min(p.1), p.0.max(p.1));
    }
    pairs.sort_unstable();
    let number: BTreeMap<(u32, u32), Edge> = pairs
        .iter()
        .enumerate()
        .map(|(i, &p)| (p, Edge(i as u8)))
        .collect();
    (pairs, move |a: u32, b: u32| number[&(a.min(b), a.max(b))])
}

/// What a shape builds: the rules, the text picture's plan and each dot's place in a picture.
type Shape = (DotsBoard, Canvas, Vec<(f64, f64)>);

/// Text columns from one dot to the next in a row of the picture: room for the widest dot number
/// and three characters of edge, even (so that triangle rows can be shifted by half of it). The last
/// dot ends a row, so its number may be wider (the classic board keeps its `9---10`).
fn column_step(dots: u32) -> usize {
    let width = dots.saturating_sub(1).max(1).to_string().len();
    (width + 3).next_multiple_of(2)
}

/// `rows` × `cols` boxes. Dot (r, c) is number r(cols+1) + c (0-based), drawn at text row 2r, column
/// `step`·c; a box's label sits in its middle. In a picture, dot (r, c) is at (c, r).
fn boxes(rows: u32, cols: u32) -> Shape {
    let dot = |r: u32, c: u32| r * (cols + 1) + c;
    let step = column_step(dot(rows, cols) + 1);
    let mut pairs = Vec::new();
    for r in 0..=rows {
        for c in 0..=cols {
            if c < cols {
                pairs.push((dot(r, c), dot(r, c + 1)));
            }
            if r < rows {
                pairs.push((dot(r, c), dot(r + 1, c)));
            }
        }
    }
    let (pairs, edge) = number_edges(pairs);
    let mut cells = Vec::new();
    let mut labels = Vec::new();
    for r in 0..rows {
        for c in 0..cols {
            let (a, b, d, e) = (dot(r, c), dot(r, c + 1), dot(r + 1, c), dot(r + 1, c + 1));
            cells.push(vec![edge(a, b), edge(d, e), edge(a, d), edge(b, e)]);
            labels.push(((2 * r + 1) as usize, step * c as usize + step / 2));
        }
    }
    let positions = (0..=rows)
        .flat_map(|r| (0..=cols).map(move |c| ((2 * r) as usize, step * c as usize)))
        .collect();
    let points: Vec<(f64, f64)> = (0..=rows)
        .flat_map(|r| (0..=cols).map(move |c| (c as f64, r as f64)))
        .collect();
    // Reflections of the rectangle; a square also turns and reflects across its diagonals.
    type DotMap = Box<dyn Fn(u32, u32) -> (u32, u32)>;
    let mut maps: Vec<DotMap> = vec![
        Box::new(|r, c| (r, c)),
        Box::new(move |r, c| (rows - r, c)),
        Box::new(move |r, c| (r, cols - c)),
        Box::new(move |r, c| (rows - r, cols - c)),
    ];
    if rows == cols {
        maps.push(Box::new(|r, c| (c, r)));
        maps.push(Box::new(move |r, c| (cols - c, r)));
        maps.push(Box::new(move |r, c| (c, rows - r)));
        maps.push(Box::new(move |r, c| (cols - c, rows - r)));
    }
    let perms: Vec<Vec<u32>> = maps
        .iter()
        .map(|f| {
            (0..=rows)
                .flat_map(|r| (0..=cols).map(move |c| (r, c)))
                .map(|(r, c)| {
                    let (r2, c2) = f(r, c);
                    dot(r2, c2)
                })
                .collect()
        })
        .collect();
    let board = DotsBoard::new(dot(rows, cols) + 1, pairs, cells)
        .and_then(|b| b.with_symmetries(&perms))
        .map(DotsBoard::with_theory)
        .map(|b| b.with_centre_order(&points))
        .expect("box geometry is a valid incidence with its symmetries");
    (board, Canvas::new(positions, labels), points)
}

/// Triangles of `size` rows. Dot (r, c), row r = 0..=size, c = 0..=r, is number r(r+1)/2 + c (0-based),
/// drawn at text row 2r, column `step`/2·(size - r) + `step`·c; in a picture, at
/// (size/2 − r/2 + c, r·√3/2), so that every triangle is equilateral.
fn triangles(size: u32) -> Shape {
    let dot = |r: u32, c: u32| r * (r + 1) / 2 + c;
    let mut pairs = Vec::new();
    for r in 0..=size {
        for c in 0..=r {
            if c < r {
                pairs.push((dot(r, c), dot(r, c + 1)));
            }
            if r < size {
                pairs.push((dot(r, c), dot(r + 1, c)));
                pairs.push((dot(r, c), dot(r + 1, c + 1)));
            }
        }
    }
    let (pairs, edge) = number_edges(pairs);

    let step = column_step(dot(size + 1, 0));
    let half = step / 2;
    let at = |r: u32, c: u32| {
        (
            (2 * r) as usize,
            half * (size - r) as usize + step * c as usize,
        )
    };
    let mut cells = Vec::new();
    let mut labels = Vec::new();
    for r in 0..size {
        for c in 0..=r {
            // The triangle pointing up below dot (r, c).
            let (a, b, d) = (dot(r, c), dot(r + 1, c), dot(r + 1, c + 1));
            cells.push(vec![edge(a, b), edge(a, d), edge(b, d)]);
            labels.push((at(r, c).0 + 1, at(r, c).1));
            if c < r {
                // The triangle pointing down between dots (r, c), (r, c + 1) and (r + 1, c + 1).
                let (a, b, d) = (dot(r, c), dot(r, c + 1), dot(r + 1, c + 1));
                cells.push(vec![edge(a, b), edge(a, d), edge(b, d)]);
                labels.push((at(r, c).0 + 1, at(r, c).1 + half));
            }
        }
    }
    let dots = dot(size + 1, 0);
    let positions = (0..=size)
        .flat_map(|r| (0..=r).map(move |c| (r, c)))
        .map(|(r, c)| at(r, c));
    let canvas = Canvas::new(positions.collect(), labels);
    let height = 3f64.sqrt() / 2.0;
    let points: Vec<(f64, f64)> = (0..=size)
        .flat_map(|r| (0..=r).map(move |c| (r, c)))
        .map(|(r, c)| {
            (
                size as f64 / 2.0 - r as f64 / 2.0 + c as f64,
                r as f64 * height,
            )
        })
        .collect();
    // The six symmetries of the triangle permute the barycentric coordinates (size − r, r − c, c).
    let perms: Vec<Vec<u32>> = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ]
    .iter()
    .map(|order| {
        (0..=size)
            .flat_map(|r| (0..=r).map(move |c| (r, c)))
            .map(|(r, c)| {
                let coords = [size - r, r - c, c];
                let [a, _, g] = order.map(|i| coords[i]);
                dot(size - a, g)
            })
            .collect()
    })
    .collect();
    let board = DotsBoard::new(dots, pairs, cells)
        .and_then(|b| b.with_symmetries(&perms))
        .map(DotsBoard::with_theory)
        .map(|b| b.with_centre_order(&points))
        .expect("triangle geometry is a valid incidence with six symmetries");
    (board, canvas, points)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn max_edges_is_the_largest_boards() {
        let most = Geometry::every()
            .iter()
            .map(|g| g.build().unwrap().board.edge_count())
            .max();
        assert_eq!(most, Some(63));
        assert_eq!(most, Some(MAX_EDGES as usize));
    }

    #[test]
    fn every_board_builds_and_no_other_does() {
        let every = Geometry::every();
        assert_eq!(every.len(), 6 + 77);
        assert!(every.iter().all(|g| g.build().is_ok()));
        assert!(every.contains(&Geometry::Boxes { rows: 5, cols: 5 }));
        assert!(every.contains(&Geometry::Boxes { rows: 1, cols: 20 }));
        assert!(!every.contains(&Geometry::Boxes { rows: 5, cols: 6 }));
        for rows in 1..=30 {
            for cols in 1..=30 {
                let g = Geometry::Boxes { rows, cols };
                assert_eq!(g.build().is_ok(), every.contains(&g), "{rows}×{cols}");
            }
        }
    }

    #[test]
    fn triangle_counts() {
        for size in 1..=6u32 {
            let built = Geometry::Triangles { size }.build().unwrap();
            assert_eq!(built.board.dots(), (size + 1) * (size + 2) / 2);
            assert_eq!(built.board.edge_count() as u32, 3 * size * (size + 1) / 2);
            assert_eq!(built.board.cell_count() as u32, size * size);
        }
        assert_eq!(
            Geometry::Triangles { size: 7 }.build().unwrap_err(),
            GeometryError::TriangleSize(7)
        );
        assert!(Geometry::Triangles { size: 0 }.build().is_err());
    }

    #[test]
    fn symmetry_groups() {
        for size in 1..=6 {
            let order = Geometry::Triangles { size }
                .build()
                .unwrap()
                .board
                .symmetry_order();
            assert_eq!(order, 6);
        }
        assert_eq!(
            Geometry::Boxes { rows: 3, cols: 3 }
                .build()
                .unwrap()
                .board
                .symmetry_order(),
            8
        );
        assert_eq!(
            Geometry::Boxes { rows: 3, cols: 4 }
                .build()
                .unwrap()
                .board
                .symmetry_order(),
            4
        );
        assert_eq!(
            Geometry::Boxes { rows: 1, cols: 1 }
                .build()
                .unwrap()
                .board
                .symmetry_order(),
            8
        );
    }

    #[test]
    fn box_counts_and_limits() {
        for (rows, cols) in [(1, 1), (2, 2), (3, 3), (3, 4), (5, 5)] {
            let built = Geometry::Boxes { rows, cols }.build().unwrap();
            assert_eq!(built.board.dots(), (rows + 1) * (cols + 1));
            assert_eq!(
                built.board.edge_count() as u32,
                rows * (cols + 1) + cols * (rows + 1)
            );
            assert_eq!(built.board.cell_count() as u32, rows * cols);
        }
        assert_eq!(
            Geometry::Boxes { rows: 5, cols: 6 }
                .build()
                .unwrap_err()
                .to_string(),
            "a board of 5×6 boxes has 71 edges; boards need at least one box and at most 63 edges"
        );
        assert!(Geometry::Boxes { rows: 0, cols: 3 }.build().is_err());
    }

    #[test]
    fn classic_board_edges_follow_dot_pairs() {
        let board = Geometry::CLASSIC_TRIANGLES.build().unwrap().board;
        // Dots are 0-based here: 1-2 is the first edge, 9-10 the last.
        assert_eq!(board.endpoints(Edge(0)), (0, 1));
        assert_eq!(board.endpoints(Edge(17)), (8, 9));
        assert_eq!(board.edge_between(1, 2), Some(Edge(2)));
        assert_eq!(board.edge_between(0, 4), None);
        // The top triangle is 1-2, 1-3, 2-3.
        assert_eq!(board.cell_edges(0), &[Edge(0), Edge(1), Edge(2)]);
    }
}
