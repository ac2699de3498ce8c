//! Capture rules: in a position with a capturable cell, which moves need to be searched at all.
//!
//! Stated over a [`Completion`], so the engine needs no game: a cell is *capturable* when one of its
//! elements is free, and drawing that element (the *capture*) scores it and keeps the turn. What the
//! capture leads to is read off the cell on the element's other side:
//!
//! - **Safe capture** — the capture leaves no other cell with one free element (the other side is the
//!   border, is completed by the same move, or keeps two free elements or more), or it opens a chain
//!   of at least three capturable cells (the other cell `Y` is left with one free element `f`, and
//!   `f`'s other cell `Z` with one free element `g` after `f`). Taking it loses nothing: the capture
//!   is the only move searched.
//! - **Otherwise** the capture opens a chain of exactly two (`Y` left with one free element `f`, and
//!   `f` leads nowhere capturable): the player either takes, or *double-deals* by drawing `f`, leaving
//!   both cells to the opponent as one double capture (Berlekamp's all-but-two). Only the captures and
//!   their double-dealing moves are searched.
//!
//! These are theorems about dots games (Berlekamp, *The Dots and Boxes Game*; Barker and Korf, AAAI
//! 2012), not about every completion game: the dots boards state them as their
//! [`Theory`](crate::engine::scored::Theory) ([`super::DotsTheory`]).
//! The crate's tests check both rules against the whole table on every state of every dots board of up
//! to 2^24 states: the best of the moves kept is always the best of all moves.

use crate::engine::scored::Completion;

/// The moves of `drawn` among which an optimal one lies, by the capture rules: `None` when no cell
/// is capturable (every move must be searched), otherwise a non-empty mask of free elements — one
/// safe capture alone, or every capture with its double-dealing move. `free` is the mask of free
/// elements of `drawn`.
#[inline]
pub fn candidates(rules: Completion<'_>, drawn: u64, free: u64) -> Option<u64> {
    let mut kept = 0u64;
    let mut rest = free;
    while rest != 0 {
        let e = rest.trailing_zeros();
        rest &= rest - 1;
        let [a, b] = rules.others[e as usize];
        let (takes_a, takes_b) = (drawn & a == a, drawn & b == b);
        if !(takes_a || takes_b) {
            continue;
        }
        match chain_after(rules, drawn, e, if takes_a { 0 } else { 1 }) {
            Chain { cells: 0, .. } => return Some(1 << e),
            Chain {
                cells: 2..,
                open_end: false,
                ..
            } => return Some(1 << e),
            Chain { next, .. } => kept |= 1 << e | 1 << next,
        }
    }
    (kept != 0).then_some(kept)
}

/// The chain a capture opens: the cells that each become capturable in turn once the one before is
/// taken.
struct Chain {
    /// Cells of the chain past the captured one (each has exactly two free elements).
    cells: u32,
    /// Whether the chain's last free element also completes a cell already capturable: the chain is
    /// open at both ends.
    open_end: bool,
    /// The first chain cell's other free element (the double-dealing move), when `cells > 0`.
    next: u32,
}

/// Follows the chain from the capture `e` of the cell in slot `taken` of `e`'s cells.
#[inline]
fn chain_after(rules: Completion<'_>, drawn: u64, e: u32, taken: usize) -> Chain {
    let mut chain = Chain {
        cells: 0,
        open_end: false,
        next: e,
    };
    // The element entering the next cell, and the cell (as its other elements) it enters.
    let (mut entry, mut cell) = (e, rules.others[e as usize][1 - taken]);
    // Each step enters a new cell (every cell of the chain has its two free elements used), so the
    // walk ends within the number of elements.
    loop {
        if cell == 1 << entry {
            return chain; // the border
        }
        let left = cell & !drawn;
        match left.count_ones() {
            // Completed by the entry too (a double capture), or already capturable: both ends open.
            0 => {
                chain.open_end = chain.cells > 0;
                return chain;
            }
            1 => {}
            _ => return chain,
        }
        let exit = left.trailing_zeros();
        if chain.cells == 0 {
            chain.next = exit;
        }
        chain.cells += 1;
        let whole = cell | 1 << entry;
        let [x, y] = rules.others[exit as usize];
        cell = if x | 1 << exit == whole { y } else { x };
        entry = exit;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A strip of three cells {0,1,2,3}, {3,4,5,6}, {6,7,8,9}: elements 3 and 6 are shared.
    fn strip() -> Vec<[u64; 2]> {
        let cells: [u64; 3] = [0b1111, 0b111_1000, 0b11_1100_0000];
        (0..10)
            .map(|e| {
                let mut slots = [1u64 << e; 2];
                let mut i = 0;
                for c in cells {
                    if c >> e & 1 == 1 {
                        slots[i] = c & !(1 << e);
                        i += 1;
                    }
                }
                slots
            })
            .collect()
    }

    #[test]
    fn no_capturable_cell_keeps_every_move() {
        let others = strip();
        let rules = Completion { others: &others };
        assert_eq!(candidates(rules, 0b11, ((1 << 10) - 1) & !0b11), None);
    }

    #[test]
    fn lone_capture_and_chain_of_three_are_safe_two_chain_keeps_the_double_deal() {
        let others = strip();
        let rules = Completion { others: &others };
        let all = (1u64 << 10) - 1;
        // First cell needs 3; the second cell has 4, 5 free besides 3: a lone capture.
        let drawn = 0b0111;
        assert_eq!(candidates(rules, drawn, all & !drawn), Some(1 << 3));
        // Second cell has only 3 and 6 free, the third 6 and 9: a chain of three.
        let drawn = 0b01_1011_0111;
        assert_eq!(candidates(rules, drawn, all & !drawn), Some(1 << 3));
        // Third cell keeps 8 and 9 free: a chain of two; take (3) or double-deal (6).
        let drawn = 0b00_1011_0111;
        assert_eq!(
            candidates(rules, drawn, all & !drawn),
            Some(1 << 3 | 1 << 6)
        );
    }
}
