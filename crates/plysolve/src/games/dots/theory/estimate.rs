//! An estimate of a dots position's value from the strategy players use (Berlekamp, *The Dots and
//! Boxes Game*): the game is decided by who must open the first long chain once the *safe* moves
//! (moves that offer the opponent nothing) run out, and how the chains and loops left are then
//! shared by the player in control.
//!
//! So the estimate plays the position forward as careful players do: the player to move takes what
//! is capturable; the safe moves are drawn in a fixed order until none is left, the turn passing at
//! each (their parity decides who is left to open a chain — the long-chain rule); and the chains and
//! loops then on the board are valued exactly as a loony endgame ([`super::loony`]), each component
//! with a junction counted as a chain of its cells. Simple loony endgames are exact. It is an
//! estimate and no more: the anytime player searches with it where no proof is in reach, and never
//! in place of a proved value.

use super::loony::{components_value, simple_endgame_value};
use crate::engine::scored::Completion;

/// The estimated value of `drawn` (`free` its free elements) for the player to move.
pub fn estimate(rules: Completion<'_>, drawn: u64, free: u64) -> i32 {
    if let Some(value) = simple_endgame_value(rules, drawn, free) {
        return value;
    }
    let playout = Playout::of(rules, drawn, free);
    let left = components_value(&playout.components).unwrap_or(-playout.cells_left());
    playout.taken + playout.parity() * left
}

/// A position played forward as careful players do (see the module's documentation): what the
/// player to move takes at once, how many safe moves follow, and the components of open cells left
/// when none is (each as its cells and whether it is a loop; a component with a junction counts as
/// a chain of its cells).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Playout {
    /// Cells the player to move takes at once.
    pub taken: i32,
    /// Safe moves drawn after that, the turn passing at each.
    pub safe: u32,
    /// Safe moves there were right after the captures (before any was drawn).
    pub safe_at_first: u32,
    /// The components of open cells when no safe move is left: (cells, is a loop).
    pub components: Vec<(u8, bool)>,
    /// The elements drawn then.
    pub drawn: u64,
}

impl Playout {
    /// `drawn` (`free` its free elements) played forward, the safe moves drawn lowest first.
    pub fn of(rules: Completion<'_>, drawn: u64, free: u64) -> Self {
        Self::in_order(rules, drawn, free, false)
    }

    /// `drawn` played forward, the safe moves drawn highest first when `highest_first` (another
    /// order reaches another count of safe moves when their number is not settled yet).
    pub fn in_order(rules: Completion<'_>, drawn: u64, free: u64, highest_first: bool) -> Self {
        let mut drawn = drawn;
        let mut free = free;
        // The mover takes every capturable cell (and moves again each time).
        let mut taken = 0;
        while let Some(e) = elements(free).find(|&e| rules.points(drawn, e) > 0) {
            taken += rules.points(drawn, e) as i32;
            drawn |= 1 << e;
            free &= !(1 << e);
        }
        // The safe moves, in order, each handing the turn over. A move once unsafe stays so (drawing
        // only takes free sides away), and drawing `e` changes only the safety of the elements of
        // its cells: the set of safe moves is kept as a mask and updated there alone.
        let mut safe_now = elements(free)
            .filter(|&e| is_safe(rules, drawn, e))
            .fold(0u64, |mask, e| mask | 1 << e);
        let safe_at_first = safe_now.count_ones();
        let mut safe = 0;
        while safe_now != 0 {
            let e = if highest_first {
                63 - safe_now.leading_zeros()
            } else {
                safe_now.trailing_zeros()
            };
            drawn |= 1 << e;
            free &= !(1 << e);
            safe += 1;
            safe_now &= !(1 << e);
            for cell in cells_of(rules, e) {
                for other in elements(cell & safe_now) {
                    if !is_safe(rules, drawn, other) {
                        safe_now &= !(1 << other);
                    }
                }
            }
        }
        Playout {
            taken,
            safe,
            safe_at_first,
            components: components(rules, drawn, free),
            drawn,
        }
    }

    /// +1 when the player to move is the one who must open the first component (an even number of
    /// safe moves), −1 when the opponent is.
    pub fn parity(&self) -> i32 {
        if self.safe % 2 == 0 {
            1
        } else {
            -1
        }
    }

    /// The open cells of the components.
    pub fn cells_left(&self) -> i32 {
        self.components.iter().map(|&(n, _)| n as i32).sum()
    }
}

/// The elements of a mask, lowest first.
pub(super) fn elements(mut mask: u64) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let e = mask.trailing_zeros();
            mask &= mask - 1;
            e
        })
    })
}

/// The cells of element `e`, each as its whole mask (a missing cell left out).
pub(super) fn cells_of(rules: Completion<'_>, e: u32) -> impl Iterator<Item = u64> + '_ {
    rules.others[e as usize]
        .into_iter()
        .filter(move |&other| other != 1 << e)
        .map(move |other| other | 1 << e)
}

/// Whether drawing `e` leaves no cell of it one element short (nothing is offered).
pub fn is_safe(rules: Completion<'_>, drawn: u64, e: u32) -> bool {
    cells_of(rules, e).all(|cell| (cell & !drawn & !(1 << e)).count_ones() >= 2)
}

/// The components of a position with no capturable cell and no safe move: open cells joined by
/// shared free elements, each as (cells, is a loop) — a loop when every cell has two free elements,
/// none lies on the edge of the board and it has four cells or more; any other is read as a chain.
fn components(rules: Completion<'_>, drawn: u64, free: u64) -> Vec<(u8, bool)> {
    let mut found = Vec::new();
    let mut unseen = free;
    while unseen != 0 {
        // The component of the lowest unseen element: grow it through the cells of its elements.
        let mut members = 1u64 << unseen.trailing_zeros();
        loop {
            let mut grown = members;
            for e in elements(members) {
                for cell in cells_of(rules, e) {
                    grown |= cell & free;
                }
            }
            if grown == members {
                break;
            }
            members = grown;
        }
        unseen &= !members;
        let mut cells: Vec<u64> = elements(members).flat_map(|e| cells_of(rules, e)).collect();
        cells.sort_unstable();
        cells.dedup();
        let grounded = elements(members).any(|e| cells_of(rules, e).count() < 2);
        let two_each = cells.iter().all(|&c| (c & !drawn).count_ones() == 2);
        let n = cells.len().min(u8::MAX as usize) as u8;
        found.push((n, two_each && !grounded && n >= 4));
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::scored::table::SubsetTable;
    use crate::engine::scored::{ScoredGame, SubsetIndexed};
    use crate::engine::util::memory::MemoryBudget;
    use crate::engine::util::progress::Watch;
    use crate::games::dots::Geometry;

    /// The playout as first written: each safe move found by asking every free element again.
    fn playout_by_scanning(
        rules: Completion<'_>,
        mut drawn: u64,
        mut free: u64,
        highest_first: bool,
    ) -> (u32, u32, u64) {
        while let Some(e) = elements(free).find(|&e| rules.points(drawn, e) > 0) {
            drawn |= 1 << e;
            free &= !(1 << e);
        }
        let at_first = elements(free).filter(|&e| is_safe(rules, drawn, e)).count() as u32;
        let mut safe = 0;
        loop {
            let mut found = elements(free).filter(|&e| is_safe(rules, drawn, e));
            let next = if highest_first {
                found.last()
            } else {
                found.next()
            };
            let Some(e) = next else { break };
            drawn |= 1 << e;
            free &= !(1 << e);
            safe += 1;
        }
        (at_first, safe, drawn)
    }

    /// The safe moves kept as a mask draw what asking every element at each step draws, in both
    /// orders, on every state of 2×3 boxes and size-3 triangles.
    #[test]
    fn the_kept_safe_moves_play_out_as_scanning_for_them() {
        let mut differing = 0;
        let mut states = 0;
        for geometry in [
            Geometry::Boxes { rows: 2, cols: 3 },
            Geometry::Triangles { size: 3 },
        ] {
            let board = geometry.build().unwrap().board;
            let rules = board.completion().unwrap();
            let full = (1u64 << board.items()) - 1;
            for drawn in 0..=full {
                for highest_first in [false, true] {
                    let p = Playout::in_order(rules, drawn, full & !drawn, highest_first);
                    let scanned = playout_by_scanning(rules, drawn, full & !drawn, highest_first);
                    differing += ((p.safe_at_first, p.safe, p.drawn) != scanned) as u32;
                    states += 1;
                }
            }
        }
        assert_eq!(differing, 0);
        assert_eq!(states, 2 * ((1 << 17) + (1 << 18)));
    }

    #[test]
    fn simple_endgames_are_exact_and_estimates_stay_in_range() {
        let board = Geometry::Boxes { rows: 2, cols: 3 }.build().unwrap().board;
        let table =
            SubsetTable::build(&board, MemoryBudget::new(1 << 30), Watch::default()).unwrap();
        let rules = board.completion().unwrap();
        let theory = board.theory().unwrap();
        let full = (1u64 << board.items()) - 1;
        let mut agree = 0;
        for mask in 0..=full {
            let free = full & !mask;
            let cells =
                crate::engine::scored::restrict::FreeElements::new(rules, board.items(), mask)
                    .max_points() as i32;
            let guess = estimate(rules, mask, free);
            assert!(
                guess.abs() <= cells,
                "{mask:#b}: {guess} with {cells} cells open"
            );
            if let Some(exact) = theory.endgame_value(rules, mask, free) {
                assert_eq!(guess, exact, "{mask:#b}");
            }
            agree += (guess.signum() == table.value_of_mask(mask).signum()) as u32;
        }
        // The estimate is a guess, but a good one: it gets the winner right on most states.
        assert!(
            agree as u64 * 10 > (full + 1) * 6,
            "{agree} of {}",
            full + 1
        );
    }
}
