//! The capture rules and the simple loony endgames the search relies on, proved on every state of
//! every dots board of up to 2^24 states: wherever the rules keep only some moves, the best of those is
//! the best of all moves; wherever a position is valued as a simple loony endgame, that is its value.

use plysolve::engine::scored::table::SubsetTable;
use plysolve::engine::scored::{move_value, SubsetIndexed};
use plysolve::engine::util::progress::Watch;
use plysolve::engine::MemoryBudget;
use plysolve::games::dots::theory::captures::candidates;
use plysolve::games::dots::theory::loony::simple_endgame_value;
use plysolve::games::dots::Geometry;
use rayon::prelude::*;

/// Every board of boxes or triangles with at most 24 edges (2^24 states), up to rotation.
fn boards_up_to_24_edges() -> Vec<Geometry> {
    let mut boards: Vec<Geometry> = (1..=3).map(|size| Geometry::Triangles { size }).collect();
    for rows in 1..=3 {
        for cols in rows..=8 {
            if rows * (cols + 1) + cols * (rows + 1) <= 24 {
                boards.push(Geometry::Boxes { rows, cols });
            }
        }
    }
    boards
}

/// What the rules did on one board: states where they kept one move, states where they kept
/// several, and states where the best kept move is not the best move (must be none); states valued
/// as simple loony endgames, and those valued wrong (must be none).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
struct Tally {
    one: u64,
    several: u64,
    wrong: u64,
    loony: u64,
    loony_wrong: u64,
}

impl std::ops::Add for Tally {
    type Output = Tally;
    fn add(self, o: Tally) -> Tally {
        Tally {
            one: self.one + o.one,
            several: self.several + o.several,
            wrong: self.wrong + o.wrong,
            loony: self.loony + o.loony,
            loony_wrong: self.loony_wrong + o.loony_wrong,
        }
    }
}

fn check_every_state(geometry: Geometry) -> Tally {
    let board = geometry.build().unwrap().board;
    assert!(board.theory().is_some(), "{geometry:?} declares the rules");
    let rules = board.completion().unwrap();
    let table = SubsetTable::build(&board, MemoryBudget::new(1 << 30), Watch::default()).unwrap();
    let full = board.full().0;
    (0..=full)
        .into_par_iter()
        .map(|drawn| {
            let free = full & !drawn;
            let Some(kept) = candidates(rules, drawn, free) else {
                return match simple_endgame_value(rules, drawn, free) {
                    Some(value) => Tally {
                        loony: 1,
                        loony_wrong: (value != table.value_of_mask(drawn)) as u64,
                        ..Tally::default()
                    },
                    None => Tally::default(),
                };
            };
            assert_eq!(
                simple_endgame_value(rules, drawn, free),
                None,
                "{geometry:?} {drawn:b}: a capturable cell is no simple endgame"
            );
            assert_eq!(
                kept & !free,
                0,
                "{geometry:?} {drawn:b}: kept a drawn element"
            );
            let best_kept = (0..64)
                .filter(|e| kept >> e & 1 == 1)
                .map(|e| {
                    let points = rules.points(drawn, e) as i32;
                    move_value(points, table.value_of_mask(drawn | 1 << e))
                })
                .max()
                .unwrap();
            let single = kept.count_ones() == 1;
            Tally {
                one: single as u64,
                several: !single as u64,
                wrong: (best_kept != table.value_of_mask(drawn)) as u64,
                ..Tally::default()
            }
        })
        .reduce(Tally::default, |a, b| a + b)
}

#[test]
fn capture_rules_and_loony_endgames_never_change_a_value_on_any_state_of_boards_up_to_2_pow_24() {
    let boards = boards_up_to_24_edges();
    assert_eq!(boards.len(), 14);
    for geometry in boards {
        let tally = check_every_state(geometry);
        assert_eq!(tally.wrong, 0, "{geometry:?}: {tally:?}");
        assert_eq!(tally.loony_wrong, 0, "{geometry:?}: {tally:?}");
        // Every board has simple loony endgames (the empty cells of a finished game's last chain).
        assert!(tally.loony > 0, "{geometry:?}: {tally:?}");
        // The rules do act: on every board with two cells or more, both kinds are met.
        assert!(tally.one > 0, "{geometry:?}: {tally:?}");
        if !matches!(
            geometry,
            Geometry::Triangles { size: 1 } | Geometry::Boxes { rows: 1, cols: 1 }
        ) {
            assert!(tally.several > 0, "{geometry:?}: {tally:?}");
        }
    }
}
