//! The board as a puzzle: squares numbered with a power-of-two row stride, its moves
//! ([`Puzzle`]) and the moves into a square ([`Predecessors`]).

use crate::engine::reach::{Predecessors, Puzzle};
use std::fmt::Write;

/// A legal board. Squares are numbered `row << shift | col` with `1 << shift` the smallest power of
/// two at least `d`, so that moves need no division; the padding squares hold no moves and are never
/// reached.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Board {
    pub(super) d: usize,
    pub(super) shift: u32,
    pub(super) values: Vec<u16>,
    pub(super) goal: usize,
}

/// The row stride for size `d`: `log2` of the smallest power of two at least `d`.
pub(super) fn stride_shift(d: usize) -> u32 {
    d.next_power_of_two().trailing_zeros()
}

impl Board {
    /// The size d.
    pub fn size(&self) -> usize {
        self.d
    }

    /// The value at (row, col).
    pub fn value(&self, row: usize, col: usize) -> u16 {
        self.values[self.square(row, col)]
    }

    /// The goal as (row, col).
    pub fn goal(&self) -> (usize, usize) {
        self.place(self.goal)
    }

    /// The state number of (row, col).
    pub(super) fn square(&self, row: usize, col: usize) -> usize {
        row << self.shift | col
    }

    /// The (row, col) of a state number.
    pub(super) fn place(&self, square: usize) -> (usize, usize) {
        (square >> self.shift, square & ((1 << self.shift) - 1))
    }

    /// The four corners, in the order (0,0), (0,d−1), (d−1,0), (d−1,d−1).
    pub fn corners(&self) -> [(usize, usize); 4] {
        let e = self.d - 1;
        [(0, 0), (0, e), (e, 0), (e, e)]
    }

    /// The board as text: `d` lines of `d` numbers separated by spaces.
    pub fn to_text(&self) -> String {
        let mut out = String::with_capacity(self.values.len() * 3);
        for row in self.values.chunks(1 << self.shift) {
            for (i, v) in row[..self.d].iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                let _ = write!(out, "{v}");
            }
            out.push('\n');
        }
        out
    }
}

impl Puzzle for Board {
    fn states(&self) -> usize {
        self.values.len()
    }

    #[inline]
    fn successors(&self, s: usize, mut visit: impl FnMut(usize)) {
        let k = self.values[s] as usize;
        if k == 0 {
            return;
        }
        let (r, c, d) = (s >> self.shift, s & ((1 << self.shift) - 1), self.d);
        if r >= k {
            visit(s - (k << self.shift));
        }
        if r + k < d {
            visit(s + (k << self.shift));
        }
        if c + k < d {
            visit(s + k);
        }
        if c >= k {
            visit(s - k);
        }
    }
}

impl Predecessors for Board {
    /// The squares of the same row or column whose value is their distance to `s`. (The square
    /// itself never matches: its distance is 0, and only the goal holds 0.) A padding state beyond
    /// the row's end has none: no move reaches it.
    fn predecessors(&self, s: usize, mut visit: impl FnMut(usize)) {
        let (r, c, d, shift) = (
            s >> self.shift,
            s & ((1 << self.shift) - 1),
            self.d,
            self.shift,
        );
        if c >= d {
            return;
        }
        let row = &self.values[r << shift..(r << shift) + d];
        if d <= 64 {
            // Collect matches as bits first (a loop without calls, which compiles to vector code).
            let mut across = 0u64;
            let mut down = 0u64;
            for (i, &v) in row.iter().enumerate() {
                across |= ((v as usize == c.abs_diff(i)) as u64) << i;
            }
            for i in 0..d {
                down |= ((self.values[i << shift | c] as usize == r.abs_diff(i)) as u64) << i;
            }
            across &= !(1 << c);
            down &= !(1 << r);
            while across != 0 {
                visit(r << shift | across.trailing_zeros() as usize);
                across &= across - 1;
            }
            while down != 0 {
                visit((down.trailing_zeros() as usize) << shift | c);
                down &= down - 1;
            }
            return;
        }
        for (c2, &v) in row.iter().enumerate() {
            if v as usize == c.abs_diff(c2) && c2 != c {
                visit(r << shift | c2);
            }
        }
        for r2 in 0..d {
            let v = self.values[r2 << shift | c];
            if v as usize == r.abs_diff(r2) && r2 != r {
                visit(r2 << shift | c);
            }
        }
    }
}
