//! The anytime search's estimate (`engine::scored::heuristic::best_estimate`: alpha-beta by
//! iterative deepening, its best moves remembered between iterations and its estimates kept by
//! state) against plain minimax over the same rules, depth and estimate, written here with none of
//! that: on positions of 3×3 boxes and size-3 triangles, the score it gives is the minimax value.

use plysolve::engine::scored::heuristic::best_estimate;
use plysolve::engine::scored::{Completion, SubsetIndexed, Theory};
use plysolve::engine::util::chooser::Chooser;
use plysolve::engine::util::halt::NEVER;
use plysolve::games::dots::Geometry;

/// The value for the player to move of `drawn` searched `depth` turns deep, as the anytime search
/// defines it: a move that scores keeps the turn and costs no depth; on the last turn a move that
/// hands the turn over is valued by the estimate of what it leaves.
fn minimax(rules: Completion<'_>, theory: &dyn Theory, full: u64, drawn: u64, depth: u32) -> i32 {
    let free = full & !drawn;
    if free == 0 {
        return 0;
    }
    if let Some(value) = theory.endgame_value(rules, drawn, free) {
        return value;
    }
    best_move_value(rules, theory, full, drawn, depth)
}

/// The best of the moves the theory keeps in `drawn`, `depth` turns deep.
fn best_move_value(
    rules: Completion<'_>,
    theory: &dyn Theory,
    full: u64,
    drawn: u64,
    depth: u32,
) -> i32 {
    let free = full & !drawn;
    let mut moves = theory.candidates(rules, drawn, free).unwrap_or(free);
    let mut best = i32::MIN;
    while moves != 0 {
        let e = moves.trailing_zeros();
        moves &= moves - 1;
        let child = drawn | 1 << e;
        let points = rules.points(drawn, e) as i32;
        let value = if points > 0 {
            points + minimax(rules, theory, full, child, depth)
        } else if depth <= 1 {
            -theory.estimate(rules, child, full & !child)
        } else {
            -minimax(rules, theory, full, child, depth - 1)
        };
        best = best.max(value);
    }
    best
}

/// `count` positions of `geometry` with `free_from..=free_to` free edges, drawn at random (any set
/// of edges is a position).
fn positions(geometry: Geometry, free_from: u32, free_to: u32, count: usize) -> Vec<u64> {
    let board = geometry.build().unwrap().board;
    let items = board.items();
    let mut rng = Chooser::new(7);
    (0..count)
        .map(|_| {
            let free = rng.between(free_from as u64, free_to as u64) as u32;
            let mut drawn = (1u64 << items) - 1;
            while drawn.count_ones() > items - free {
                drawn &= !(1 << rng.below(items as u128));
            }
            drawn
        })
        .collect()
}

#[test]
fn the_anytime_search_s_score_is_the_minimax_value_of_its_estimate() {
    let mut compared = 0;
    for (geometry, from, to) in [
        (Geometry::Boxes { rows: 3, cols: 3 }, 10, 16),
        (Geometry::Triangles { size: 3 }, 8, 14),
    ] {
        let board = geometry.build().unwrap().board;
        let rules = board.completion().unwrap();
        let theory = board.theory().unwrap();
        let full = (1u64 << board.items()) - 1;
        for drawn in positions(geometry, from, to, 40) {
            for depth in 1..=3 {
                let found = best_estimate(&board, drawn, full & !drawn, &NEVER, depth).unwrap();
                let expected = best_move_value(rules, theory, full, drawn, found.depth);
                assert_eq!(
                    found.score, expected,
                    "{geometry:?} {drawn:#x} at depth {}",
                    found.depth
                );
                compared += 1;
            }
        }
    }
    assert_eq!(compared, 240);
}
