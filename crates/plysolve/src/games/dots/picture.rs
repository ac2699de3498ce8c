//! Text pictures of dots boards, in the style of seed 004: numbered dots, `---`, `/` and `\` for drawn
//! edges, `.` for free ones, and the owner's letter inside each completed cell.

use super::board::{DotsBoard, Edge, EdgeSet};
use crate::engine::Player;

/// Where each dot's number starts and where each cell's label goes, as (text row, text column).
#[derive(Debug, Clone)]
pub struct Canvas {
    dots: Vec<(usize, usize)>,
    labels: Vec<(usize, usize)>,
}

impl Canvas {
    /// A plan with the position of every dot (by dot number) and of every cell label (by cell number).
    pub fn new(dots: Vec<(usize, usize)>, labels: Vec<(usize, usize)>) -> Self {
        Canvas { dots, labels }
    }

    /// Draws `drawn` edges and `owners` of cells; dot numbers are shown 1-based.
    pub fn draw(&self, board: &DotsBoard, drawn: EdgeSet, owners: &[Option<Player>]) -> String {
        let rows = self.dots.iter().map(|d| d.0).max().unwrap_or(0) + 1;
        let names: Vec<String> = (1..=self.dots.len()).map(|n| n.to_string()).collect();
        let cols = self
            .dots
            .iter()
            .zip(&names)
            .map(|(d, n)| d.1 + n.len())
            .max()
            .unwrap_or(0)
            + 1;
        let mut grid = vec![vec![' '; cols]; rows];
        for e in 0..board.edge_count() {
            let edge = Edge(e as u8);
            let (a, b) = board.endpoints(edge);
            let (left, right) = {
                let (a, b) = (a as usize, b as usize);
                if self.dots[a] <= self.dots[b] {
                    (a, b)
                } else {
                    (b, a)
                }
            };
            let (from, to) = (self.dots[left], self.dots[right]);
            let drawn = drawn.contains(edge);
            if from.0 == to.0 {
                // Between the end of the left number and the start of the right one.
                let (start, end) = (from.1 + names[left].len(), to.1);
                let fill = if drawn { '-' } else { ' ' };
                grid[from.0][start..end].fill(fill);
                if !drawn && end > start {
                    grid[from.0][(start + end - 1) / 2] = '.';
                }
            } else {
                let span = (to.0 - from.0) as i64;
                for (t, line) in grid[from.0 + 1..to.0].iter_mut().enumerate() {
                    let t = t as i64 + 1;
                    let col = (from.1 as i64 + (to.1 as i64 - from.1 as i64) * t / span) as usize;
                    line[col] = match (drawn, to.1.cmp(&from.1)) {
                        (false, _) => '.',
                        (true, std::cmp::Ordering::Less) => '/',
                        (true, std::cmp::Ordering::Greater) => '\\',
                        (true, std::cmp::Ordering::Equal) => '|',
                    };
                }
            }
        }
        for (&(row, col), owner) in self.labels.iter().zip(owners) {
            if let Some(player) = owner {
                grid[row][col] = player.to_string().chars().next().unwrap_or('?');
            }
        }
        for (&(row, col), name) in self.dots.iter().zip(&names) {
            for (i, ch) in name.chars().enumerate() {
                grid[row][col + i] = ch;
            }
        }
        let mut text = String::new();
        for line in grid {
            let line: String = line.into_iter().collect();
            text.push_str(line.trim_end());
            text.push('\n');
        }
        text
    }
}
