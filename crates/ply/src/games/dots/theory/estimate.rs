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
    let mut drawn = drawn;
    let mut free = free;
    // The mover takes every capturable cell (and moves again each time).
    let mut taken = 0;
    while let Some(e) = elements(free).find(|&e| rules.points(drawn, e) > 0) {
        taken += rules.points(drawn, e) as i32;
        drawn |= 1 << e;
        free &= !(1 << e);
    }
    // The safe moves, in order, each handing the turn over.
    let mut safe = 0;
    while let Some(e) = elements(free).find(|&e| is_safe(rules, drawn, e)) {
        drawn |= 1 << e;
        free &= !(1 << e);
        safe += 1;
    }
    let left = chains_value(rules, drawn, free);
    taken + if safe % 2 == 0 { left } else { -left }
}

/// The elements of a mask, lowest first.
fn elements(mut mask: u64) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let e = mask.trailing_zeros();
            mask &= mask - 1;
            e
        })
    })
}

/// The cells of element `e`, each as its whole mask (a missing cell left out).
fn cells_of(rules: Completion<'_>, e: u32) -> impl Iterator<Item = u64> + '_ {
    rules.others[e as usize]
        .into_iter()
        .filter(move |&other| other != 1 << e)
        .map(move |other| other | 1 << e)
}

/// Whether drawing `e` leaves no cell of it one element short (nothing is offered).
fn is_safe(rules: Completion<'_>, drawn: u64, e: u32) -> bool {
    cells_of(rules, e).all(|cell| (cell & !drawn & !(1 << e)).count_ones() >= 2)
}

/// The value for the player to move of a position with no capturable cell and no safe move: its
/// components (open cells joined by shared free elements) valued as a loony endgame, a component
/// with a junction as a chain of its cells; past what the dynamic programme takes, as if the
/// opponent took every cell.
fn chains_value(rules: Completion<'_>, drawn: u64, free: u64) -> i32 {
    let mut components = [(0u8, false); 64];
    let mut found = 0;
    let mut unseen = free;
    let mut all_cells = 0i32;
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
        all_cells += n as i32;
        components[found] = (n, two_each && !grounded && n >= 4);
        found += 1;
    }
    components_value(&components[..found]).unwrap_or(-all_cells)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::scored::table::SubsetTable;
    use crate::engine::scored::{ScoredGame, SubsetIndexed};
    use crate::engine::util::memory::MemoryBudget;
    use crate::engine::util::progress::Watch;
    use crate::games::dots::Geometry;

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
