//! What the learned estimate ([`super::learned`]) reads of a position: numbers from dots theory
//! (Berlekamp, *The Dots and Boxes Game*) for the player to move — the cells to take at once, the
//! safe moves left and their parity (the long-chain rule), the chains and loops then on the board
//! and their sizes, the controlled value, and the hand-made estimate ([`super::estimate`]) itself.
//! One definition serves the training data (`crates/plysolve/examples/estimate_data.rs`) and the
//! inference, so the two cannot drift apart.

use super::estimate::Playout;
use super::loony::{components_value, simple_endgame_value};
use crate::engine::scored::Completion;

/// The features' names, in the order [`features`] gives them (the training script's columns).
pub const FEATURE_NAMES: [&str; 26] = [
    "free",
    "open_cells",
    "taken",
    "safe",
    "safe_at_first",
    "parity",
    "loony",
    "estimate",
    "singles",
    "doubles",
    "long_chains",
    "loops",
    "long_chain_cells",
    "loop_cells",
    "controlled",
    "parity_controlled",
    "parity_shorts",
    "parity_cells_left",
    "parity_loony",
    "one_free_side",
    "two_free_sides",
    "three_free_sides",
    "four_free_sides",
    "safe_at_first_odd",
    "parity_other_order",
    "junction_cells",
];

/// How many features there are.
pub const FEATURE_COUNT: usize = FEATURE_NAMES.len();

/// The features of `drawn` (`free` its free elements) for the player to move.
pub fn features(rules: Completion<'_>, drawn: u64, free: u64) -> [f64; FEATURE_COUNT] {
    features_with(rules, drawn, free, simple_endgame_value(rules, drawn, free))
}

/// [`features`], given the position's value as a simple loony endgame (`None`: it is none), which
/// the caller may have looked up already.
pub(super) fn features_with(
    rules: Completion<'_>,
    drawn: u64,
    free: u64,
    simple: Option<i32>,
) -> [f64; FEATURE_COUNT] {
    let playout = Playout::of(rules, drawn, free);
    let parity = playout.parity();
    let count = |f: &dyn Fn(u8, bool) -> bool| {
        playout
            .components
            .iter()
            .filter(|&&(n, is_loop)| f(n, is_loop))
            .count() as i32
    };
    let cells = |f: &dyn Fn(u8, bool) -> bool| -> i32 {
        playout
            .components
            .iter()
            .filter(|&&(n, is_loop)| f(n, is_loop))
            .map(|&(n, _)| n as i32)
            .sum()
    };
    let singles = count(&|n, l| !l && n == 1);
    let doubles = count(&|n, l| !l && n == 2);
    let long_chains = count(&|n, l| !l && n >= 3);
    let loops = count(&|_, l| l);
    let long_chain_cells = cells(&|n, l| !l && n >= 3);
    let loop_cells = cells(&|_, l| l);
    let cells_left = playout.cells_left();
    let loony = components_value(&playout.components).unwrap_or(-cells_left);
    // Berlekamp's controlled value: what the player in control nets by keeping control to the end
    // (four cells given back on each long chain but the last, eight on each loop).
    let last_kept = if long_chains > 0 {
        4
    } else if loops > 0 {
        8
    } else {
        0
    };
    let controlled = long_chain_cells + loop_cells - 4 * long_chains - 8 * loops + last_kept;
    let open = open_cells(rules, free);
    // Open cells by their free sides, now.
    let mut by_free_sides = [0i32; 4];
    for &cell in &open {
        by_free_sides[((cell & !drawn).count_ones() as usize).clamp(1, 4) - 1] += 1;
    }
    let other_order = Playout::in_order(rules, drawn, free, true);
    // Cells with three free sides or more once no safe move is left: junctions of chains.
    let after = playout.drawn;
    let junction_cells = open_cells(rules, free & !after)
        .iter()
        .filter(|&&cell| (cell & !after).count_ones() >= 3)
        .count() as i32;
    [
        free.count_ones() as f64,
        open.len() as f64,
        playout.taken as f64,
        playout.safe as f64,
        playout.safe_at_first as f64,
        parity as f64,
        loony as f64,
        // The hand-made estimate, from the same playout.
        simple.unwrap_or(playout.taken + parity * loony) as f64,
        singles as f64,
        doubles as f64,
        long_chains as f64,
        loops as f64,
        long_chain_cells as f64,
        loop_cells as f64,
        controlled as f64,
        (parity * controlled) as f64,
        (parity * (singles + doubles)) as f64,
        (parity * cells_left) as f64,
        (parity * loony) as f64,
        by_free_sides[0] as f64,
        by_free_sides[1] as f64,
        by_free_sides[2] as f64,
        by_free_sides[3] as f64,
        (playout.safe_at_first % 2) as f64,
        other_order.parity() as f64,
        junction_cells as f64,
    ]
}

/// The open cells of a position whose free elements are `free`: the cells of those elements.
fn open_cells(rules: Completion<'_>, free: u64) -> Vec<u64> {
    let mut open: Vec<u64> = super::estimate::elements(free)
        .flat_map(|e| super::estimate::cells_of(rules, e))
        .collect();
    open.sort_unstable();
    open.dedup();
    open
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::scored::SubsetIndexed;
    use crate::games::dots::Geometry;

    #[test]
    fn the_estimate_feature_is_the_hand_made_estimate_on_every_state() {
        let board = Geometry::Boxes { rows: 2, cols: 2 }.build().unwrap().board;
        let rules = board.completion().unwrap();
        let full = (1u64 << board.items()) - 1;
        let at = FEATURE_NAMES.iter().position(|&n| n == "estimate").unwrap();
        for mask in 0..=full {
            let free = full & !mask;
            let hand_made = super::super::estimate::estimate(rules, mask, free);
            assert_eq!(
                features(rules, mask, free)[at],
                hand_made as f64,
                "{mask:#b}"
            );
        }
    }

    #[test]
    fn the_features_of_a_board_of_one_long_chain() {
        // The empty 1×3 boxes board: ten free edges, three open cells, nothing to take.
        let board = Geometry::Boxes { rows: 1, cols: 3 }.build().unwrap().board;
        let rules = board.completion().unwrap();
        let full = (1u64 << board.items()) - 1;
        let f = features(rules, 0, full);
        assert_eq!(f[0], 10.0);
        assert_eq!(f[1], 3.0);
        assert_eq!(f[2], 0.0);
        let named = |name: &str| f[FEATURE_NAMES.iter().position(|&n| n == name).unwrap()];
        assert_eq!(
            named("parity"),
            if named("safe") as u32 % 2 == 0 {
                1.0
            } else {
                -1.0
            }
        );
        assert_eq!(
            named("estimate"),
            super::super::estimate::estimate(rules, 0, full) as f64
        );
    }
}
