//! Simple loony endgames, valued without search.
//!
//! Read as strings and coins (a cell is a coin, an element a string tying it to the cells it lies in,
//! or to the ground when it lies in one cell only), a position in which **every open cell has exactly
//! two free elements** is a sum of *chains* (paths of coins from ground to ground) and *loops*
//! (cycles of coins). No cell is capturable and every move opens a component for the opponent
//! (Berlekamp, *The Dots and Boxes Game*, ch. 2–4), who then either takes it all and must move again,
//! or declines the last two coins of a chain (the last four of a loop) so that the opener takes those
//! and must move again. The opener of a chain of one or two coins leaves no such choice (a chain of
//! two opened in the middle is two single coins). So with `rest` the value of the other components
//! for whoever must move in them, opening a component is worth to the opener:
//!
//! - a chain of `n ≤ 2`: `-(n + rest)`;
//! - a chain of `n ≥ 3`: `-max(n + rest, n - 4 - rest)`;
//! - a loop of `n ≥ 4`: `-max(n + rest, n - 8 - rest)`;
//!
//! and the position is worth the best of these. A dynamic programme over the multiset of components
//! gives it at once. Positions of another shape (a capturable cell, a cell with three free elements
//! or more, an element in no open cell, a loop shorter than four) are left to the search.
//!
//! Like the [`captures`](super::captures) rules this is dots theory, not a theorem about every
//! completion game: the dots boards state it as part of their [`super::DotsTheory`], and the crate's
//! tests check it against the
//! whole table on every state of every dots board of up to 2^24 states.

use crate::engine::scored::Completion;

/// At most this many kinds of component (a length and chain or loop) are valued; more is left to the
/// search (no dots board of up to 64 edges comes near).
const MAX_KINDS: usize = 16;

/// At most this many multisets of components are valued in one position (the memo of the dynamic
/// programme lives on the stack).
const MAX_SUBSETS: usize = 4096;

/// The value for the player to move of `drawn` (`free` its free elements) if it is a simple loony
/// endgame — every open cell has exactly two free elements, and every loop at least four cells —
/// and `None` otherwise.
pub fn simple_endgame_value(rules: Completion<'_>, drawn: u64, free: u64) -> Option<i32> {
    // The components met, as (cells, is a loop): at most one per free element.
    let mut components = [(0u8, false); 64];
    let mut found = 0;
    let mut unseen = free;
    while unseen != 0 {
        let start = unseen.trailing_zeros();
        let (cells, is_loop, seen) = component(rules, drawn, start)?;
        unseen &= !seen;
        if cells == 0 || (is_loop && cells < 4) {
            return None;
        }
        components[found] = (cells, is_loop);
        found += 1;
    }
    components_value(&components[..found])
}

/// The value for the player who must open one of `components` (cells, is a loop) — a sum of chains
/// and loops whatever the board, by the rules above; `None` when they are too many kinds or
/// multisets for the dynamic programme.
pub fn components_value(components: &[(u8, bool)]) -> Option<i32> {
    let mut kinds = [(0u8, false); MAX_KINDS];
    let mut counts = [0u8; MAX_KINDS];
    let mut distinct = 0;
    for &kind in components {
        match kinds[..distinct].iter().position(|&k| k == kind) {
            Some(i) => counts[i] = counts[i].checked_add(1)?,
            None if distinct < MAX_KINDS => {
                kinds[distinct] = kind;
                counts[distinct] = 1;
                distinct += 1;
            }
            None => return None,
        }
    }
    Multiset::new(&kinds[..distinct], &counts[..distinct]).map(|m| m.value())
}

/// The component through free element `start`: its cells, whether it is a loop, and its free
/// elements; `None` if a cell met has other than two free elements, or the walk goes astray (rules
/// that are not strings and coins).
fn component(rules: Completion<'_>, drawn: u64, start: u32) -> Option<(u8, bool, u64)> {
    let mut cells = 0u8;
    let mut seen = 1u64 << start;
    for slot in 0..2 {
        let (mut entry, mut cell) = (start, rules.others[start as usize][slot]);
        loop {
            if cell == 1 << entry {
                break; // the ground
            }
            let left = cell & !drawn;
            if left.count_ones() != 1 {
                return None; // capturable, or three free elements or more
            }
            cells += 1;
            let exit = left.trailing_zeros();
            if exit == start {
                return Some((cells, true, seen));
            }
            if seen >> exit & 1 == 1 || cells > 64 {
                return None;
            }
            seen |= 1 << exit;
            let whole = cell | 1 << entry;
            let [x, y] = rules.others[exit as usize];
            cell = if x | 1 << exit == whole { y } else { x };
            entry = exit;
        }
    }
    Some((cells, false, seen))
}

/// The components of a position, as kinds with counts, with the memo of the dynamic programme
/// indexed in mixed radix (digit `i` counts the components of kind `i` still unopened).
struct Multiset<'a> {
    kinds: &'a [(u8, bool)],
    counts: &'a [u8],
    /// Weight of digit `i` in a memo index.
    weights: [usize; MAX_KINDS],
    memo: [i8; MAX_SUBSETS],
}

/// Not yet valued, in the memo (no value reaches it: at most 64 cells).
const UNKNOWN: i8 = i8::MIN;

impl<'a> Multiset<'a> {
    /// The multiset with `counts[i]` components of kind `kinds[i]`; `None` when its sub-multisets
    /// are too many for the memo.
    fn new(kinds: &'a [(u8, bool)], counts: &'a [u8]) -> Option<Self> {
        let mut weights = [0usize; MAX_KINDS];
        let mut size = 1usize;
        for (i, &c) in counts.iter().enumerate() {
            weights[i] = size;
            size = size.checked_mul(c as usize + 1)?;
        }
        if size > MAX_SUBSETS {
            return None;
        }
        Some(Multiset {
            kinds,
            counts,
            weights,
            memo: [UNKNOWN; MAX_SUBSETS],
        })
    }

    /// The value for the player who must open one of the components.
    fn value(mut self) -> i32 {
        let mut left = [0u8; MAX_KINDS];
        left[..self.counts.len()].copy_from_slice(self.counts);
        let index = (0..self.counts.len())
            .map(|i| self.weights[i] * self.counts[i] as usize)
            .sum();
        self.best(&mut left, index)
    }

    /// The value of opening the best of the components `left` (memo index `index`).
    fn best(&mut self, left: &mut [u8; MAX_KINDS], index: usize) -> i32 {
        if index == 0 {
            return 0;
        }
        if self.memo[index] != UNKNOWN {
            return self.memo[index] as i32;
        }
        let mut best = i32::MIN;
        for i in 0..self.kinds.len() {
            if left[i] == 0 {
                continue;
            }
            left[i] -= 1;
            let rest = self.best(left, index - self.weights[i]);
            left[i] += 1;
            let (cells, is_loop) = self.kinds[i];
            let n = cells as i32;
            let taken = n + rest;
            let opponent = match (is_loop, n) {
                (false, 1 | 2) => taken,
                (false, _) => taken.max(n - 4 - rest),
                (true, _) => taken.max(n - 8 - rest),
            };
            best = best.max(-opponent);
        }
        self.memo[index] = best as i8;
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Values of multisets worked by hand.
    fn value_of(components: &[(u8, bool)]) -> i32 {
        components_value(components).unwrap()
    }

    #[test]
    fn hand_worked_endgames() {
        // One chain of three: the opponent takes all three.
        assert_eq!(value_of(&[(3, false)]), -3);
        // Two chains of three: the opponent takes one, declines the last two (3 - 4 + 3 = 2 against
        // 3 - 3 = 0 for taking all) and takes the other chain whole.
        assert_eq!(value_of(&[(3, false), (3, false)]), -2);
        // A chain of one and a chain of three: open the one (the opponent takes it, then must open
        // the three): -(1 + (-3)) = 2.
        assert_eq!(value_of(&[(1, false), (3, false)]), 2);
        // A loop of four alone: the opponent takes all four.
        assert_eq!(value_of(&[(4, true)]), -4);
        // A loop of four and a chain of three. Opening the loop: the opponent takes it (4 - 3 = 1)
        // or declines all four (-4 + 3 = -1). Opening the chain: taken 3 - 4 = -1, declined
        // -1 + 4 = 3. The opener opens the loop: -1.
        assert_eq!(value_of(&[(4, true), (3, false)]), -1);
    }
}
