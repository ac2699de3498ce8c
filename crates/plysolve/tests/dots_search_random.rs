//! The search (capture rules, endgame hand-off, symmetries, a shared table), in both orders of ties,
//! against tables on 10 000 random positions of each of two boards: 3×4 boxes (31 edges), each
//! position against the table of its own free edges (at most 2^18 states each: the whole table,
//! 2 GiB, would take most of a minute), and triangles of size 4 (30 edges) against the whole table
//! (1 GiB), against which every entry of the shipped size-4 triangles book is checked too. Building
//! the whole table is most of this file's time; the searches take about a second.

use plysolve::engine::scored::restrict::FreeTable;
use plysolve::engine::scored::search::{SearchOptions, SearchSolver, TieOrder};
use plysolve::engine::scored::table::SubsetTable;
use plysolve::engine::scored::{Solver, SubsetIndexed};
use plysolve::engine::util::halt::NEVER;
use plysolve::engine::util::progress::Watch;
use plysolve::engine::MemoryBudget;
use plysolve::games::dots::book::key::KeyScheme;
use plysolve::games::dots::book::{ops, shipped};
use plysolve::games::dots::notation::format_edge;
use plysolve::games::dots::{DotsBoard, Edge, EdgeSet, Geometry};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Positions per board.
const POSITIONS: usize = 10_000;

/// Free edges of the random positions: from below the endgame hand-off to where a search takes
/// about a millisecond in a test build.
const FREE: std::ops::RangeInclusive<u32> = 4..=18;

/// The budget of every table here.
fn budget() -> MemoryBudget {
    MemoryBudget::new(1 << 32)
}

/// Checks the search on random positions of `geometry` against `reference`, the value of a
/// position's bitmask of drawn edges by a table.
fn check_random_positions(
    geometry: Geometry,
    seed: u64,
    reference: impl Fn(&DotsBoard, u64) -> i32,
) {
    let board = geometry.build().unwrap().board;
    let budget = budget();
    let search = |tie_order| {
        SearchSolver::new(
            &board,
            SearchOptions {
                endgame: 8,
                tie_order,
                ..SearchOptions::plain(1 << 26, budget, &NEVER)
            },
        )
        .unwrap()
    };
    let mut low_first = search(TieOrder::LowFirst);
    let mut high_first = search(TieOrder::HighFirst);
    let edges = board.edge_count() as u32;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut order: Vec<u32> = (0..edges).collect();
    let mut differ = Vec::new();
    for _ in 0..POSITIONS {
        let free = rng.random_range(FREE);
        order.shuffle(&mut rng);
        let drawn = order[free as usize..].iter().fold(0u64, |m, &e| m | 1 << e);
        let state = EdgeSet(drawn);
        let values = [
            low_first.value(&state).unwrap(),
            high_first.value(&state).unwrap(),
        ];
        if values != [reference(&board, drawn); 2] {
            differ.push(drawn);
        }
    }
    // The two orders searched different trees (so the second run checks something).
    assert_ne!(
        low_first.states_visited(),
        high_first.states_visited(),
        "{geometry:?}"
    );
    assert_eq!(differ, Vec::<u64>::new(), "{geometry:?}");
}

#[test]
fn search_equals_the_free_edges_table_on_random_boxes_3x4_positions() {
    check_random_positions(Geometry::Boxes { rows: 3, cols: 4 }, 34, |board, drawn| {
        let state = EdgeSet(drawn);
        let table = FreeTable::build(board, &state, budget(), Watch::default()).unwrap();
        table.value_of_mask(drawn).unwrap()
    });
}

#[test]
fn search_and_the_shipped_book_equal_the_whole_table_on_triangles_4() {
    let geometry = Geometry::Triangles { size: 4 };
    let board = geometry.build().unwrap().board;
    let whole = SubsetTable::build(&board, budget(), Watch::default()).unwrap();
    assert_eq!(whole.value_of_mask(0), -2);
    check_random_positions(geometry, 44, |_, drawn| whole.value_of_mask(drawn));
    the_shipped_triangles_book_agrees_with(&whole);
}

/// Wilson's rule: a move scoring `points` > 0 is worth `points + child`, any other `-child`.
fn move_value(points: u32, child: i32) -> i32 {
    if points > 0 {
        points as i32 + child
    } else {
        -child
    }
}

/// Every entry of the shipped size-4 triangles book against the board's whole table: its value, its
/// key, and its best move (a free edge whose child gives the value).
fn the_shipped_triangles_book_agrees_with(table: &SubsetTable) {
    let built = Geometry::Triangles { size: 4 }.build().unwrap();
    let board = &built.board;
    let mut solver = table.solver(board);
    let rules = board.completion().unwrap();
    let scheme = KeyScheme::new(board);
    let mut checked = 0;
    for file in shipped::opened() {
        let file = file.unwrap();
        for (b, entries) in ops::boards_of(&file).unwrap() {
            if b.geometry != built.geometry {
                continue;
            }
            for entry in entries {
                let drawn = EdgeSet(entry.key);
                let value = solver.value(&drawn).unwrap();
                assert_eq!(entry.value(), Some(value), "{:#x}", entry.key);
                assert_eq!(scheme.key(drawn).key, entry.key);
                let best = entry
                    .best
                    .as_ref()
                    .expect("every shipped entry has a best move");
                let e = (0..board.edge_count())
                    .map(|e| Edge(e as u8))
                    .find(|&e| !drawn.contains(e) && format_edge(board, e) == *best)
                    .expect("a free edge");
                let child = solver.value(&drawn.with(e)).unwrap();
                assert_eq!(move_value(rules.points(drawn.0, e.0 as u32), child), value);
                checked += 1;
            }
        }
    }
    // Every position up to two moves after the empty board, up to symmetry.
    assert_eq!(checked, 74);
}
