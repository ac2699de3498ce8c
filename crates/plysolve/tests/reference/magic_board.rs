//! An independent solver of MagicBoard, nothing from the product: a plain breadth-first search over
//! (row, column) squares, the canonical path by the rule (among the shortest paths, read backward
//! from the goal, every step goes to the smallest square, row-major, one move closer to the start),
//! and the number of shortest paths.

use std::collections::VecDeque;

/// A square, (row, column).
pub type Sq = (usize, usize);

/// A board as numbers, read here by the test's own rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grid {
    /// Its size.
    pub d: usize,
    /// Its numbers, row by row.
    pub cells: Vec<Vec<usize>>,
}

impl Grid {
    /// `d` non-blank lines of `d` whitespace-separated numbers, one of them 0 (asserted).
    pub fn parse(text: &str) -> Grid {
        let cells: Vec<Vec<usize>> = text
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| {
                l.split_whitespace()
                    .map(|t| t.parse().expect("a number"))
                    .collect()
            })
            .collect();
        let d = cells.len();
        assert!(d >= 2, "a board");
        for row in &cells {
            assert_eq!(row.len(), d, "square");
            assert!(row.iter().all(|&v| v < d), "values below {d}");
        }
        let zeros = cells.iter().flatten().filter(|&&v| v == 0).count();
        assert_eq!(zeros, 1, "exactly one goal");
        Grid { d, cells }
    }

    /// A board written one row per slash: `4 4 4 1 1 / 2 4 1 4 3 / …`.
    pub fn from_rows(slashed: &str) -> Grid {
        Grid::parse(
            &slashed
                .split('/')
                .map(|row| row.trim().to_string() + "\n")
                .collect::<String>(),
        )
    }

    /// The board as text, one row a line.
    pub fn text(&self) -> String {
        self.cells
            .iter()
            .map(|row| {
                row.iter()
                    .map(usize::to_string)
                    .collect::<Vec<_>>()
                    .join(" ")
                    + "\n"
            })
            .collect()
    }

    /// The number on `(r, c)`.
    pub fn value(&self, (r, c): Sq) -> usize {
        self.cells[r][c]
    }

    /// The square holding 0.
    pub fn goal(&self) -> Sq {
        (0..self.d)
            .flat_map(|r| (0..self.d).map(move |c| (r, c)))
            .find(|&s| self.value(s) == 0)
            .expect("a goal")
    }

    /// The corners in the product's order: (0,0), (0,d−1), (d−1,0), (d−1,d−1).
    pub fn corners(&self) -> [Sq; 4] {
        let e = self.d - 1;
        [(0, 0), (0, e), (e, 0), (e, e)]
    }

    /// The squares one move from `s`: exactly its value north, south, east or west, on the board.
    pub fn moves(&self, s: Sq) -> Vec<Sq> {
        let (r, c) = s;
        let n = self.value(s);
        let mut out = Vec::new();
        if n == 0 {
            return out;
        }
        if r >= n {
            out.push((r - n, c));
        }
        if r + n < self.d {
            out.push((r + n, c));
        }
        if c >= n {
            out.push((r, c - n));
        }
        if c + n < self.d {
            out.push((r, c + n));
        }
        out
    }

    /// Whether `to` is one legal move from `from`.
    pub fn is_move(&self, from: Sq, to: Sq) -> bool {
        let n = self.value(from);
        let along = |a: usize, b: usize| a.abs_diff(b) == n;
        n > 0
            && ((from.0 == to.0 && along(from.1, to.1)) || (from.1 == to.1 && along(from.0, to.0)))
    }

    /// Fewest moves from `start` to every square (`None`: unreachable), by a queue.
    pub fn distances(&self, start: Sq) -> Vec<Vec<Option<usize>>> {
        let mut dist = vec![vec![None; self.d]; self.d];
        dist[start.0][start.1] = Some(0);
        let mut queue = VecDeque::from([start]);
        while let Some(s) = queue.pop_front() {
            let k = dist[s.0][s.1].expect("queued squares have a distance");
            for t in self.moves(s) {
                if dist[t.0][t.1].is_none() {
                    dist[t.0][t.1] = Some(k + 1);
                    queue.push_back(t);
                }
            }
        }
        dist
    }

    /// The squares with a move onto `t`: only squares in its row or column can have one.
    pub fn predecessors(&self, t: Sq) -> Vec<Sq> {
        let mut out: Vec<Sq> = (0..self.d)
            .map(|r| (r, t.1))
            .chain((0..self.d).map(|c| (t.0, c)))
            .filter(|&s| s != t && self.is_move(s, t))
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The canonical shortest path from `start` to the goal: backward from the goal, each step to the
    /// smallest (row, col) square one move closer to the start. `None` when the goal is unreachable.
    pub fn canonical_path(&self, start: Sq) -> Option<Vec<Sq>> {
        let dist = self.distances(start);
        let goal = self.goal();
        dist[goal.0][goal.1]?;
        let mut path = vec![goal];
        let mut at = goal;
        while at != start {
            let k = dist[at.0][at.1].expect("on the path");
            at = self
                .predecessors(at)
                .into_iter()
                .find(|p| dist[p.0][p.1] == Some(k - 1))
                .expect("a square one move closer");
            path.push(at);
        }
        path.reverse();
        Some(path)
    }

    /// How many different shortest paths lead from `start` to the goal.
    pub fn shortest_path_count(&self, start: Sq) -> u64 {
        let dist = self.distances(start);
        let mut order: Vec<Sq> = (0..self.d)
            .flat_map(|r| (0..self.d).map(move |c| (r, c)))
            .filter(|s| dist[s.0][s.1].is_some())
            .collect();
        order.sort_by_key(|s| dist[s.0][s.1]);
        let mut count = vec![vec![0u64; self.d]; self.d];
        count[start.0][start.1] = 1;
        for s in order {
            let k = dist[s.0][s.1].expect("reached");
            for t in self.moves(s) {
                if dist[t.0][t.1] == Some(k + 1) {
                    count[t.0][t.1] += count[s.0][s.1];
                }
            }
        }
        let g = self.goal();
        count[g.0][g.1]
    }

    /// Asserts `path` is legal: from `start` to the goal, each step one move, no square twice; returns
    /// its number of moves.
    pub fn assert_legal(&self, start: Sq, path: &[Sq]) -> usize {
        assert_eq!(path.first(), Some(&start), "starts at the start: {path:?}");
        assert_eq!(
            path.last(),
            Some(&self.goal()),
            "ends at the goal: {path:?}"
        );
        for w in path.windows(2) {
            assert!(
                self.is_move(w[0], w[1]),
                "{:?} → {:?} is a move",
                w[0],
                w[1]
            );
        }
        let mut seen = path.to_vec();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), path.len(), "no square twice: {path:?}");
        path.len() - 1
    }
}
