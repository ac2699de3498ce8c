//! The search (capture rules, endgame hand-off, symmetries, a shared table), in both orders of ties,
//! against whole tables on 10 000 random positions of each of the largest boards whose whole tables
//! a test can build:
//! 3×4 boxes (31 edges, 2 GiB) and triangles of size 4 (30 edges, 1 GiB). Building the two tables is
//! nearly all of this file's time (about 95 s on 2 busy cores in a test build); the searches take
//! about a second.

use ply::engine::scored::search::{SearchOptions, SearchSolver, TieOrder};
use ply::engine::scored::table::SubsetTable;
use ply::engine::scored::Solver;
use ply::engine::util::halt::NEVER;
use ply::engine::util::progress::Watch;
use ply::engine::MemoryBudget;
use ply::games::dots::{EdgeSet, Geometry};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Positions per board.
const POSITIONS: usize = 10_000;

/// Free edges of the random positions: from below the endgame hand-off to where a search takes
/// about a millisecond in a test build.
const FREE: std::ops::RangeInclusive<u32> = 4..=18;

fn check_random_positions(geometry: Geometry, seed: u64, known_value: i32) {
    let board = geometry.build().unwrap().board;
    let budget = MemoryBudget::new(1 << 32);
    let whole = SubsetTable::build(&board, budget, Watch::default()).unwrap();
    assert_eq!(whole.value_of_mask(0), known_value, "{geometry:?}");
    let search = |tie_order| {
        SearchSolver::new(
            &board,
            SearchOptions {
                table_bytes: 1 << 26,
                budget,
                progress: None,
                status: None,
                use_symmetries: true,
                endgame: 8,
                use_theory: true,
                halt: &NEVER,
                node_limit: None,
                known: None,
                tie_order,
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
        if values != [whole.value_of_mask(drawn); 2] {
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
fn search_equals_the_whole_table_on_random_boxes_3x4_positions() {
    check_random_positions(Geometry::Boxes { rows: 3, cols: 4 }, 34, 0);
}

#[test]
fn search_equals_the_whole_table_on_random_triangles_4_positions() {
    check_random_positions(Geometry::Triangles { size: 4 }, 44, -2);
}
