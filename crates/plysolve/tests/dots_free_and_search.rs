//! Tables over the free edges and the alpha-beta search agree with whole tables.

use plysolve::engine::scored::analysis::analyse;
use plysolve::engine::scored::restrict::FreeTable;
use plysolve::engine::scored::search::{SearchOptions, SearchSolver};
use plysolve::engine::scored::table::SubsetTable;
use plysolve::engine::scored::Solver;
use plysolve::engine::util::halt::NEVER;
use plysolve::engine::util::progress::Watch;
use plysolve::engine::MemoryBudget;
use plysolve::games::dots::{DotsBoard, EdgeSet, Geometry};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

fn budget() -> MemoryBudget {
    MemoryBudget::new(1 << 30)
}

fn board(geometry: Geometry) -> DotsBoard {
    geometry.build().unwrap().board
}

/// Every board of up to 2^20 states (20 edges), smallest first.
fn small_boards() -> Vec<Geometry> {
    let mut boards: Vec<Geometry> = (1..=3).map(|size| Geometry::Triangles { size }).collect();
    for (rows, cols) in [
        (1, 1),
        (1, 2),
        (1, 3),
        (2, 2),
        (1, 4),
        (1, 5),
        (2, 3),
        (1, 6),
    ] {
        boards.push(Geometry::Boxes { rows, cols });
    }
    boards
}

/// A random set of `drawn` of the board's `edges` edges.
fn random_position(rng: &mut Xoshiro256PlusPlus, edges: u32, drawn: u32) -> u64 {
    let mut order: Vec<u32> = (0..edges).collect();
    order.shuffle(rng);
    order[..drawn as usize].iter().fold(0, |m, &e| m | 1 << e)
}

fn search(
    board: &DotsBoard,
    table_bytes: u64,
    use_symmetries: bool,
) -> SearchSolver<'_, DotsBoard> {
    search_with_endgame(board, table_bytes, use_symmetries, 0)
}

fn search_with_endgame(
    board: &DotsBoard,
    table_bytes: u64,
    use_symmetries: bool,
    endgame: u32,
) -> SearchSolver<'_, DotsBoard> {
    search_with(board, table_bytes, use_symmetries, endgame, true)
}

fn search_with(
    board: &DotsBoard,
    table_bytes: u64,
    use_symmetries: bool,
    endgame: u32,
    capture_rules: bool,
) -> SearchSolver<'_, DotsBoard> {
    SearchSolver::new(
        board,
        SearchOptions {
            use_symmetries,
            endgame,
            use_theory: capture_rules,
            ..SearchOptions::plain(table_bytes, budget(), &NEVER)
        },
    )
    .unwrap()
}

#[test]
fn free_tables_equal_whole_tables_on_random_positions() {
    // (board, positions, fewest edges drawn): 3×3 boxes, whose tables are slow in a debug build,
    // gets fewer positions, none of them nearly empty.
    let mut boards: Vec<(Geometry, usize, u32)> =
        small_boards().into_iter().map(|g| (g, 12, 0)).collect();
    boards.push((Geometry::Boxes { rows: 3, cols: 3 }, 4, 8));
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(13);
    for (geometry, positions, fewest) in boards {
        let board = board(geometry);
        let edges = board.edge_count() as u32;
        let whole = SubsetTable::build(&board, budget(), Watch::default()).unwrap();
        for i in 0..positions {
            let drawn = if i == 0 && fewest == 0 {
                0
            } else {
                rng.random_range(fewest..=edges)
            };
            let base = random_position(&mut rng, edges, drawn);
            let free =
                FreeTable::build(&board, &EdgeSet(base), budget(), Watch::default()).unwrap();
            assert_eq!(free.len(), 1 << (edges - drawn));
            // Every state that follows from the position, or 4 096 of them at random.
            let free_mask = board.full().0 & !base;
            let states: Vec<u64> = if edges - drawn <= 12 {
                (0..1u64 << edges).filter(|m| m & base == base).collect()
            } else {
                (0..4096)
                    .map(|_| base | rng.random::<u64>() & free_mask)
                    .collect()
            };
            for mask in states {
                assert_eq!(
                    free.value_of_mask(mask),
                    Some(whole.value_of_mask(mask)),
                    "{geometry:?} base {base:b} state {mask:b}"
                );
            }
            if base != 0 {
                assert_eq!(free.value_of_mask(0), None);
            }
        }
    }
}

#[test]
fn free_tables_refuse_over_budget_with_the_figure() {
    let board = board(Geometry::Boxes { rows: 4, cols: 4 });
    let err = FreeTable::build(
        &board,
        &EdgeSet(0b111),
        MemoryBudget::new(1 << 30),
        Watch::default(),
    )
    .err()
    .unwrap();
    assert_eq!(
        err.to_string(),
        "a table of 2^37 states (one byte each) needs 128.0 GiB (137438953472 bytes) but the \
         memory budget is 1.0 GiB (1073741824 bytes)"
    );
}

#[test]
fn search_equals_the_table_on_every_state_of_small_boards() {
    for geometry in small_boards() {
        let board = board(geometry);
        let whole = SubsetTable::build(&board, budget(), Watch::default()).unwrap();
        for capture_rules in [true, false] {
            let mut solver = search_with(&board, 1 << 20, true, 0, capture_rules);
            let differ = (0..1u64 << board.edge_count())
                .filter(|&m| solver.value(&EdgeSet(m)).unwrap() != whole.value_of_mask(m))
                .count();
            assert_eq!(differ, 0, "{geometry:?} capture rules {capture_rules}");
        }
    }
}

#[test]
fn search_with_a_tiny_table_and_no_symmetries_still_agrees() {
    // 64 entries for 2^17 states: entries are replaced all the time.
    for (geometry, use_symmetries) in [
        (Geometry::Boxes { rows: 2, cols: 3 }, false),
        (Geometry::Triangles { size: 3 }, true),
    ] {
        let board = board(geometry);
        let whole = SubsetTable::build(&board, budget(), Watch::default()).unwrap();
        let mut solver = search(&board, 1024, use_symmetries);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(2);
        let edges = board.edge_count() as u32;
        for _ in 0..200 {
            let drawn = rng.random_range(0..=edges);
            let mask = random_position(&mut rng, edges, drawn);
            assert_eq!(
                solver.value(&EdgeSet(mask)).unwrap(),
                whole.value_of_mask(mask),
                "{geometry:?} {mask:b}"
            );
        }
    }
}

#[test]
fn search_equals_free_tables_on_random_positions_of_larger_boards() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(4);
    for geometry in [
        Geometry::Boxes { rows: 3, cols: 4 },
        Geometry::Triangles { size: 4 },
        Geometry::Boxes { rows: 4, cols: 4 },
    ] {
        let board = board(geometry);
        let edges = board.edge_count() as u32;
        let mut solver = search(&board, 1 << 22, true);
        for i in 0..150 {
            let free = 4 + i % 13;
            let base = random_position(&mut rng, edges, edges - free);
            let table =
                FreeTable::build(&board, &EdgeSet(base), budget(), Watch::default()).unwrap();
            assert_eq!(
                solver.value(&EdgeSet(base)).unwrap(),
                table.value_of_mask(base).unwrap(),
                "{geometry:?} {base:b}"
            );
        }
    }
}

#[test]
fn search_gives_every_move_its_exact_value() {
    let board = board(Geometry::Boxes { rows: 2, cols: 3 });
    let whole = SubsetTable::build(&board, budget(), Watch::default()).unwrap();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(8);
    let mut solver = search(&board, 1 << 16, true);
    for _ in 0..20 {
        let drawn = rng.random_range(0..12);
        let state = EdgeSet(random_position(&mut rng, 17, drawn));
        let by_search = analyse(&board, &mut solver, &state, true).unwrap();
        let by_table = analyse(&board, &mut whole.solver(&board), &state, true).unwrap();
        assert_eq!(by_search.moves, by_table.moves, "{state:?}");
        assert_eq!(by_search.range, by_table.range);
        assert_eq!(by_search.line, by_table.line);
    }
}

#[test]
fn known_values_by_search() {
    let classic = board(Geometry::Triangles { size: 3 });
    assert_eq!(
        search(&classic, 1 << 20, true).value(&EdgeSet(0)).unwrap(),
        -3
    );
    let boxes = board(Geometry::Boxes { rows: 3, cols: 3 });
    assert_eq!(
        search(&boxes, 1 << 22, true).value(&EdgeSet(0)).unwrap(),
        -3
    );
}

/// Release only (`cargo test --release -- --ignored`): minutes in a debug build.
#[test]
#[ignore]
fn known_values_of_larger_boards_by_search() {
    let triangles = board(Geometry::Triangles { size: 4 });
    assert_eq!(
        search(&triangles, 1 << 26, true)
            .value(&EdgeSet(0))
            .unwrap(),
        -2
    );
    let boxes = board(Geometry::Boxes { rows: 3, cols: 4 });
    assert_eq!(search(&boxes, 1 << 26, true).value(&EdgeSet(0)).unwrap(), 0);
}

#[test]
fn search_handing_endgames_to_free_tables_agrees() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(6);
    for (geometry, endgame) in [
        (Geometry::Boxes { rows: 2, cols: 3 }, 6),
        (Geometry::Triangles { size: 3 }, 10),
        (Geometry::Boxes { rows: 3, cols: 4 }, 10),
    ] {
        let board = board(geometry);
        let edges = board.edge_count() as u32;
        let mut handing = search_with_endgame(&board, 1 << 20, true, endgame);
        let mut plain = search(&board, 1 << 20, true);
        for i in 0..60 {
            let free = (4 + i % 13).min(edges);
            let mask = random_position(&mut rng, edges, edges - free);
            assert_eq!(
                handing.value(&EdgeSet(mask)).unwrap(),
                plain.value(&EdgeSet(mask)).unwrap(),
                "{geometry:?} {mask:b}"
            );
        }
    }
}

/// The search that gives way to the free-edge table (the automatic choice's): stopped by a node
/// limit of 0 (at its first node) the table answers, and says so; with no limit the search answers, alone. Both give the free-edge table's values,
/// of the position and of every move.
#[test]
fn a_search_that_gives_way_answers_from_the_free_table() {
    use plysolve::engine::scored::fallback::SearchOrTable;
    use plysolve::engine::scored::Strategy;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(29);
    let board = board(Geometry::Boxes { rows: 3, cols: 3 });
    let edges = board.edge_count() as u32;
    for drawn in [4, 5, 6] {
        let drawn = EdgeSet(random_position(&mut rng, edges, drawn));
        let children: Vec<EdgeSet> = (0..edges)
            .filter(|&e| drawn.0 >> e & 1 == 0)
            .map(|e| EdgeSet(drawn.0 | 1 << e))
            .collect();
        let table = FreeTable::build(&board, &drawn, budget(), Watch::default()).unwrap();
        let mut truth = table.solver(&board);
        let value = truth.value(&drawn).unwrap();
        let child_values = truth.values(&children).unwrap();
        for (limit, answered_by) in [(Some(0), Some(Strategy::FreeTable)), (None, None)] {
            let search = SearchSolver::new(
                &board,
                SearchOptions {
                    endgame: 0,
                    node_limit: limit,
                    ..SearchOptions::plain(1 << 20, budget(), &NEVER)
                },
            )
            .unwrap();
            let mut solver = SearchOrTable::new(&board, drawn, search, budget(), Watch::default());
            assert_eq!(solver.value(&drawn).unwrap(), value, "{drawn:?} {limit:?}");
            assert_eq!(solver.values(&children).unwrap(), child_values);
            assert_eq!(solver.answered_by(), answered_by, "{drawn:?} {limit:?}");
            assert_eq!(solver.halted(), None);
        }
    }
}
