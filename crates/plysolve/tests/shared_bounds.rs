//! Bounds shared between searches (`engine::scored::shared`): a search that meets another search's
//! bounds — all of them, a random half of them (the exchange is lossy), each widened (stale
//! bounds, weaker but true), or with best moves at random (drawn edges, edges past the board) —
//! gives the value the search alone gives, on random 3×4 positions of
//! 20–24 free edges; with all of them it searches no more nodes than alone; and a store keyed for
//! another board is refused.

use plysolve::engine::scored::search::{SearchOptions, SearchSolver};
use plysolve::engine::scored::shared::{SharedBounds, SharedEntry};
use plysolve::engine::scored::{SolveError, Solver, ValueRange};
use plysolve::engine::util::halt::NEVER;
use plysolve::engine::MemoryBudget;
use plysolve::games::dots::{DotsBoard, EdgeSet, Geometry};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Random positions checked.
const POSITIONS: usize = 24;

/// Shared are the bounds of positions with at least this many fewer free edges than the root's.
const BELOW_ROOT: u32 = 6;

fn budget() -> MemoryBudget {
    MemoryBudget::new(1 << 30)
}

/// A new store for positions of at least `from_free` free edges.
fn store(from_free: u32) -> SharedBounds {
    SharedBounds::new(16 << 20, from_free, budget()).unwrap()
}

/// A search's options: a table of its own, meeting `shared` if given.
fn options(shared: Option<&SharedBounds>) -> SearchOptions<'_> {
    SearchOptions {
        endgame: 7,
        shared,
        ..SearchOptions::plain(1 << 24, budget(), &NEVER)
    }
}

/// The value of `drawn` by a new search meeting `shared`, and its nodes.
fn value(board: &DotsBoard, drawn: u64, shared: Option<&SharedBounds>) -> (i32, u64) {
    let mut solver = SearchSolver::new(board, options(shared)).unwrap();
    let value = solver.value(&EdgeSet(drawn)).unwrap();
    (value, solver.states_visited())
}

/// `count` random positions of `board` with 20 to 24 free edges, drawn from `seed` (also the
/// host table's tests').
pub(crate) fn random_positions(board: &DotsBoard, count: usize, seed: u64) -> Vec<u64> {
    let edges = board.edge_count() as u32;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut order: Vec<u32> = (0..edges).collect();
    (0..count)
        .map(|_| {
            let free = rng.random_range(20..=24);
            order.shuffle(&mut rng);
            order[free as usize..].iter().fold(0u64, |m, &e| m | 1 << e)
        })
        .collect()
}

#[test]
fn searches_meeting_shared_bounds_give_the_values_of_a_search_alone() {
    let board = Geometry::Boxes { rows: 3, cols: 4 }.build().unwrap().board;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    let (mut alone_nodes, mut repeat_nodes) = (0, 0);
    let mut sent = 0;
    let mut with_best = 0;
    for drawn in random_positions(&board, POSITIONS, 35) {
        let free = board.edge_count() as u32 - drawn.count_ones();
        let (alone, nodes) = value(&board, drawn, None);
        // The first search fills its store's outbox.
        let first = store(free - BELOW_ROOT);
        assert_eq!(value(&board, drawn, Some(&first)).0, alone, "{drawn:#x}");
        let entries = first.drain();
        assert!(!entries.is_empty(), "{drawn:#x}");
        assert!(entries.iter().all(|e| e.range.lower <= e.range.upper));
        assert_eq!(first.counts().contradictions, 0);
        sent += entries.len();
        with_best += entries.iter().filter(|e| e.best.is_some()).count();

        // Every entry, absorbed elsewhere: the same value, no more nodes.
        let all = store(free - BELOW_ROOT);
        all.absorb(&entries);
        let (repeat, repeat_visited) = value(&board, drawn, Some(&all));
        assert_eq!(repeat, alone, "{drawn:#x}");
        assert!(
            repeat_visited <= nodes,
            "{drawn:#x}: {repeat_visited} > {nodes}"
        );
        alone_nodes += nodes;
        repeat_nodes += repeat_visited;
        // What the repeat proved agrees with what it met.
        assert_eq!(all.counts().contradictions, 0);

        // Lossy: a random half of them.
        let half = store(free - BELOW_ROOT);
        let kept: Vec<SharedEntry> = entries
            .iter()
            .copied()
            .filter(|_| rng.random_bool(0.5))
            .collect();
        half.absorb(&kept);
        assert_eq!(value(&board, drawn, Some(&half)).0, alone, "{drawn:#x}");

        // Stale: each bound widened by two points (weaker, still true).
        let stale = store(free - BELOW_ROOT);
        let widened: Vec<SharedEntry> = entries
            .iter()
            .map(|e| SharedEntry {
                range: ValueRange {
                    lower: e.range.lower - 2,
                    upper: e.range.upper + 2,
                },
                ..*e
            })
            .collect();
        stale.absorb(&widened);
        assert_eq!(value(&board, drawn, Some(&stale)).0, alone, "{drawn:#x}");

        // Best moves from anywhere (drawn edges, beyond the board): hints only.
        let scrambled = store(free - BELOW_ROOT);
        let moved: Vec<SharedEntry> = entries
            .iter()
            .map(|e| SharedEntry {
                best: Some(rng.random_range(0..70)),
                ..*e
            })
            .collect();
        scrambled.absorb(&moved);
        assert_eq!(
            value(&board, drawn, Some(&scrambled)).0,
            alone,
            "{drawn:#x}"
        );
    }
    assert!(sent > POSITIONS * 10, "{sent}");
    assert!(
        with_best * 4 > sent,
        "{with_best} of {sent} with a best move"
    );
    // Meeting every bound the first search proved cuts most of the repeat's work.
    assert!(
        repeat_nodes * 2 < alone_nodes,
        "{repeat_nodes} of {alone_nodes}"
    );
}

#[test]
fn a_store_serves_one_board() {
    let boxes = Geometry::Boxes { rows: 3, cols: 4 }.build().unwrap().board;
    let triangles = Geometry::Triangles { size: 3 }.build().unwrap().board;
    let shared = store(10);
    value(&boxes, random_positions(&boxes, 1, 35)[0], Some(&shared));
    let refused = SearchSolver::new(&triangles, options(Some(&shared)));
    assert!(matches!(
        refused.err(),
        Some(SolveError::Unsupported { feature, .. }) if feature.contains("shared bounds")
    ));
}
