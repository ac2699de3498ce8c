//! The anytime player against the whole tables of small boards: given almost no time, so that the
//! search proves only part of each position, it never plays a move below what it proved of the
//! position, every value and bound it reports holds, and where it says "exact" it plays a best move.

use plysolve::engine::scored::table::SubsetTable;
use plysolve::engine::util::chooser::Chooser;
use plysolve::engine::util::progress::Watch;
use plysolve::engine::MemoryBudget;
use plysolve::games::dots::answer::Hooks;
use plysolve::games::dots::kept::Kept;
use plysolve::games::dots::notation::{format_edge, position_from_moves};
use plysolve::games::dots::opponents::Opponent;
use plysolve::games::dots::player::{think, Choice};
use plysolve::games::dots::policy::Policy;
use plysolve::games::dots::request::{Detail, DotsQuery, Strategy};
use plysolve::games::dots::{Edge, Geometry, Position};
use std::time::Duration;

/// The value of the position after `position` plus `edge` for the mover of `edge` (Wilson's rule
/// on the table's values).
fn move_value(table: &SubsetTable, position: &Position, edge: Edge, points: u32) -> i32 {
    let child = table.value_of_mask(position.drawn().with(edge).0);
    if points > 0 {
        points as i32 + child
    } else {
        -child
    }
}

#[test]
fn the_anytime_player_never_gives_away_what_it_proved() {
    let budget = MemoryBudget::new(1 << 28);
    let mut exact_moves = 0;
    let mut estimated_moves = 0;
    for geometry in [
        Geometry::CLASSIC_TRIANGLES,
        Geometry::Boxes { rows: 2, cols: 3 },
        Geometry::Boxes { rows: 3, cols: 3 },
    ] {
        let built = geometry.build().unwrap();
        let board = &built.board;
        let table = SubsetTable::build(board, budget, Watch::default()).unwrap();
        let kept = Kept::new(1 << 22, 1);
        for seed in 0..12u64 {
            // A few milliseconds, the search forced: most early positions are left unproved.
            let policy = Policy::new(budget, Some(Duration::from_millis(1 + seed % 4)));
            let mut chooser = Chooser::new(seed);
            let mut position = Position::new(board);
            let ply_side = if seed % 2 == 0 {
                plysolve::engine::Player::A
            } else {
                plysolve::engine::Player::B
            };
            while position.drawn() != board.full() {
                let edge = if position.to_move() == ply_side {
                    let moves: Vec<String> = position
                        .history()
                        .iter()
                        .map(|&e| format_edge(board, e))
                        .collect();
                    let mut query = DotsQuery::at(&built, position.clone(), Detail::Moves);
                    query.strategy = Strategy::Search;
                    let (played, report) = think(
                        &query,
                        &policy,
                        Some(&kept),
                        &mut chooser,
                        seed,
                        Hooks::default(),
                    )
                    .unwrap()
                    .unwrap();
                    let truth = table.value_of_mask(position.drawn().0);
                    let range = report.range();
                    assert!(
                        range.lower <= truth && truth <= range.upper,
                        "{geometry:?} {moves:?}"
                    );
                    // Every move's value or bounds hold.
                    for m in &report.moves {
                        let e = position_from_moves(board, &m.mv).unwrap().history()[0];
                        let v = move_value(&table, &position, e, m.points);
                        let r = m.range();
                        assert!(
                            r.lower <= v && v <= r.upper,
                            "{geometry:?} {moves:?} {}",
                            m.mv
                        );
                    }
                    let e = position_from_moves(board, &played.mv).unwrap().history()[0];
                    let value = move_value(&table, &position, e, played.points);
                    if played.choice == Choice::Exact {
                        assert_eq!(value, truth, "{geometry:?} {moves:?}");
                        exact_moves += 1;
                    } else {
                        estimated_moves += 1;
                    }
                    // What was proved of the position is never given away.
                    if range.lower >= 0 {
                        assert!(
                            value >= range.lower,
                            "{geometry:?} {moves:?}: {value} < {}",
                            range.lower
                        );
                    }
                    e
                } else {
                    Opponent::Random.choose(board, &position, &mut chooser)
                };
                position.play(board, edge).unwrap();
            }
        }
    }
    // Both ways of choosing were exercised.
    assert!(
        exact_moves > 100 && estimated_moves > 10,
        "{exact_moves} exact, {estimated_moves} estimated"
    );
}
