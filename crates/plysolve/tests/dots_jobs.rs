//! The split of a position into jobs (`games::dots::jobs`) against whole tables: the distinct
//! children's best is the position's value, keys are shared exactly by positions of one value
//! class, and bounds from part of the children hold. The windowed search the jobs run
//! (`Solver::range_within`, a request's `window`) against the same tables: every bound it gives
//! holds and decides its window, and children searched in the windows `before_move` gives decide
//! their parent's window once combined.

use plysolve::engine::scored::search::{SearchOptions, SearchSolver};
use plysolve::engine::scored::table::SubsetTable;
use plysolve::engine::scored::{Solver, SubsetIndexed, ValueRange};
use plysolve::engine::util::halt::NEVER;
use plysolve::engine::util::progress::Watch;
use plysolve::engine::MemoryBudget;
use plysolve::games::dots::answer::{answer, Hooks};
use plysolve::games::dots::jobs::{combine, expand, key};
use plysolve::games::dots::policy::Policy;
use plysolve::games::dots::request::{Detail, DotsQuery, DotsRequest, Strategy};
use plysolve::games::dots::{DotsBoard, EdgeSet, Geometry};
use plysolve::input::surface::{Surface, Worded};
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Random games on `geometry`, checked at every position.
fn check_board(geometry: Geometry, games: usize) {
    let built = geometry.build().unwrap();
    let board = &built.board;
    let table = whole_table(board);
    let value = |drawn: u64| table.value_of_mask(drawn);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(24);
    let mut pruned = 0;
    for _ in 0..games {
        let mut moves: Vec<String> = Vec::new();
        loop {
            let query = DotsRequest::new(geometry, &moves.join(" "))
                .validate()
                .unwrap();
            let drawn = query.position.drawn();
            let node = expand(&query);
            assert_eq!(node.key, key(&built, drawn));
            assert_eq!(node.free, board.items() - drawn.len());
            let all = board.items() - drawn.len();
            assert!(node.children.len() as u32 <= all);
            pruned += all as usize - node.children.len();
            // The distinct children's best is the position's value.
            let proved: Vec<(u32, Option<ValueRange>)> = node
                .children
                .iter()
                .map(|c| {
                    let child = DotsRequest::new(geometry, &c.moves.join(" "))
                        .validate()
                        .unwrap();
                    let d = child.position.drawn();
                    assert_eq!(c.key, key(&built, d));
                    assert_eq!(c.free, board.items() - d.len());
                    assert_eq!((d.0 & !drawn.0).count_ones(), 1, "one edge more");
                    (c.points, Some(ValueRange::exact(value(d.0))))
                })
                .collect();
            assert_eq!(
                combine(node.cells, &proved),
                ValueRange::exact(value(drawn.0)),
                "{geometry:?} after {moves:?}"
            );
            // Distinct children have distinct keys.
            let mut keys: Vec<&String> = node.children.iter().map(|c| &c.key).collect();
            keys.sort();
            keys.dedup();
            assert_eq!(keys.len(), node.children.len());
            // Part of the children: bounds that hold, exact when the proved ones decide.
            for known in 0..=proved.len() {
                let mut part = proved.clone();
                for p in part.iter_mut().skip(known) {
                    p.1 = None;
                }
                let range = combine(node.cells, &part);
                let v = value(drawn.0);
                assert!(range.lower <= v && v <= range.upper, "{range:?} vs {v}");
                assert!(range.upper <= node.cells as i32 && range.lower >= -(node.cells as i32));
            }
            let free: Vec<u32> = (0..board.items())
                .filter(|&e| !drawn.contains(plysolve::games::dots::Edge(e as u8)))
                .collect();
            let Some(&e) = free.choose(&mut rng) else {
                assert!(node.children.is_empty());
                assert_eq!(combine(node.cells, &[]), ValueRange::exact(0));
                break;
            };
            moves.push(plysolve::games::dots::notation::format_edge(
                board,
                plysolve::games::dots::Edge(e as u8),
            ));
        }
    }
    // The capture rules, twins and symmetries leave moves out.
    assert!(pruned > 0);
}

#[test]
fn distinct_children_value_their_parent_on_whole_tables() {
    check_board(Geometry::Triangles { size: 3 }, 40);
    check_board(Geometry::Boxes { rows: 2, cols: 3 }, 40);
    check_board(Geometry::Boxes { rows: 3, cols: 3 }, 25);
}

#[test]
fn keys_are_shared_by_symmetric_positions_and_twins_only() {
    let geometry = Geometry::Boxes { rows: 3, cols: 3 };
    let built = geometry.build().unwrap();
    let board = &built.board;
    let table = whole_table(board);
    let symmetries = board.symmetries().unwrap();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    let edges: Vec<u32> = (0..board.items()).collect();
    let mut by_key: std::collections::HashMap<String, i32> = Default::default();
    for _ in 0..20_000 {
        let drawn = edges
            .choose_multiple(&mut rng, 12)
            .fold(0u64, |m, &e| m | 1 << e);
        let k = key(&built, EdgeSet(drawn));
        let v = table.value_of_mask(drawn);
        // Every image under the board's symmetries has the same key.
        for i in 0..symmetries.order() - 1 {
            assert_eq!(key(&built, EdgeSet(symmetries.image(i, drawn))), k);
        }
        // One key, one value.
        assert_eq!(*by_key.entry(k).or_insert(v), v);
    }
    // The two outer edges of a corner box are twins: drawing either gives one key.
    let corner = |a: u32, b: u32| {
        let e = board.edge_between(a - 1, b - 1).unwrap();
        EdgeSet(1 << e.0)
    };
    assert_eq!(key(&built, corner(1, 2)), key(&built, corner(1, 5)));
    assert_ne!(key(&built, corner(1, 2)), key(&built, corner(2, 3)));
    assert!(key(&built, EdgeSet(0)).starts_with("Dots and Boxes, 3×3: "));
}

/// A search of `board` as the dots policy sets one up (capture rules, symmetries, endgame tables),
/// with a table of its own.
/// The board's whole table: every state's value, the reference the searches are checked against.
fn whole_table(board: &DotsBoard) -> SubsetTable {
    SubsetTable::build(board, MemoryBudget::new(1 << 30), Watch::default()).unwrap()
}

fn search(board: &DotsBoard) -> SearchSolver<'_, DotsBoard> {
    SearchSolver::new(
        board,
        SearchOptions::plain(4 << 20, MemoryBudget::new(1 << 30), &NEVER),
    )
    .unwrap()
}

/// A random position of `geometry` that is not over: random edges drawn in a random order.
fn random_position(rng: &mut Xoshiro256PlusPlus, geometry: Geometry) -> DotsQuery {
    let built = geometry.build().unwrap();
    let board = &built.board;
    let edges: Vec<String> = (0..board.items())
        .map(|e| {
            plysolve::games::dots::notation::format_edge(
                board,
                plysolve::games::dots::Edge(e as u8),
            )
        })
        .collect();
    let count = rng.random_range(0..edges.len());
    let moves: Vec<String> = edges.choose_multiple(rng, count).cloned().collect();
    DotsRequest::new(geometry, &moves.join(" "))
        .validate()
        .unwrap()
}

/// Whether `range` holds `value` and answers what `window` asks: exact where the value lies
/// strictly inside it, else at least a bound on the far side of one of its ends.
fn answers(range: ValueRange, value: i32, window: ValueRange) -> bool {
    let holds = range.lower <= value && value <= range.upper;
    let decided =
        range.value().is_some() || range.upper <= window.lower || range.lower >= window.upper;
    let inside = window.lower < value && value < window.upper;
    holds && decided && (!inside || range.value() == Some(value))
}

/// Windows to ask about a position worth `value` with `cells` open: the null windows around the
/// value (each a single test) and random ones, some reaching past the cells.
fn windows(rng: &mut Xoshiro256PlusPlus, value: i32, cells: i32) -> Vec<ValueRange> {
    let mut found: Vec<ValueRange> = (value - 2..=value + 2)
        .map(|t| ValueRange {
            lower: t - 1,
            upper: t,
        })
        .collect();
    for _ in 0..3 {
        let lower = rng.random_range(-cells - 2..=cells + 1);
        let upper = rng.random_range(lower + 1..=cells + 2);
        found.push(ValueRange { lower, upper });
    }
    found.push(ValueRange::FULL);
    found
}

/// Calls `check` on `count` random positions of each board, with the board, its whole table and
/// the position's value from that table.
fn on_random_positions(
    rng: &mut Xoshiro256PlusPlus,
    boards: &[(Geometry, usize)],
    mut check: impl FnMut(&mut Xoshiro256PlusPlus, &DotsBoard, &SubsetTable, &DotsQuery, i32),
) {
    for &(geometry, count) in boards {
        let built = geometry.build().unwrap();
        let table = whole_table(&built.board);
        for _ in 0..count {
            let query = random_position(rng, geometry);
            let value = table.value_of_mask(query.position.drawn().0);
            check(rng, &built.board, &table, &query, value);
        }
    }
}

#[test]
fn windowed_searches_give_bounds_that_hold_and_decide_their_window_on_whole_tables() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(2024);
    let mut decided_by_a_bound = 0;
    let boards = [
        (Geometry::Triangles { size: 3 }, 60),
        (Geometry::Boxes { rows: 2, cols: 3 }, 60),
        (Geometry::Boxes { rows: 3, cols: 3 }, 40),
    ];
    on_random_positions(&mut rng, &boards, |rng, board, _, query, value| {
        let drawn = query.position.drawn();
        for window in windows(rng, value, expand(query).cells as i32) {
            // A search of its own: nothing an earlier window proved answers this one.
            let found = search(board).range_within(&drawn, window).unwrap();
            assert!(
                answers(found, value, window),
                "{:?} {drawn:?} worth {value}: {found:?} in {window:?}",
                query.built.geometry
            );
            decided_by_a_bound += usize::from(found.value().is_none());
        }
    });
    // Windows the value lies outside are answered by a bound, not the exact value.
    assert!(decided_by_a_bound > 100, "{decided_by_a_bound}");
}

#[test]
fn children_searched_in_their_windows_decide_their_parents_window() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(31);
    let boards = [
        (Geometry::Boxes { rows: 2, cols: 3 }, 40),
        (Geometry::Boxes { rows: 3, cols: 3 }, 25),
    ];
    on_random_positions(&mut rng, &boards, |rng, board, table, query, value| {
        let node = expand(query);
        for window in windows(rng, value, node.cells as i32) {
            let mut solver = search(board);
            let children: Vec<(u32, Option<ValueRange>)> = node
                .children
                .iter()
                .map(|c| {
                    let child = DotsRequest::new(query.built.geometry, &c.moves.join(" "))
                        .validate()
                        .unwrap();
                    let drawn = child.position.drawn();
                    let asked = window.before_move(c.points);
                    let found = solver.range_within(&drawn, asked).unwrap();
                    assert!(answers(found, table.value_of_mask(drawn.0), asked));
                    (c.points, Some(found))
                })
                .collect();
            let parent = combine(node.cells, &children);
            assert!(
                answers(parent, value, window),
                "{:?} {:?} worth {value}: {parent:?} in {window:?}",
                query.built.geometry,
                query.position.drawn()
            );
        }
    });
}

#[test]
fn a_request_with_a_window_is_answered_by_a_bound_that_holds() {
    let geometry = Geometry::Boxes { rows: 3, cols: 3 };
    let built = geometry.build().unwrap();
    let table = whole_table(&built.board);
    let moves = "1-2 5-6 9-13 3-7 10-11";
    let asked = |window: Option<[i32; 2]>, detail: Detail| DotsRequest {
        window,
        detail,
        strategy: Strategy::Search,
        ..DotsRequest::new(geometry, moves)
    };
    let query = asked(None, Detail::Value).validate().unwrap();
    let value = table.value_of_mask(query.position.drawn().0);
    let policy = Policy::new(MemoryBudget::new(1 << 30), None);
    for t in value - 3..=value + 3 {
        let query = asked(Some([t - 1, t]), Detail::Value).validate().unwrap();
        let report = answer(&query, &policy, None, Hooks::default()).unwrap();
        let range = report.range();
        assert!(answers(range, value, query.window), "{t}: {range:?}");
        assert_eq!(report.exact, report.value.is_some());
        if let Some(reason) = &report.reason {
            assert_eq!(
                *reason,
                format!("the value lies outside the window asked ({}, {t})", t - 1)
            );
        }
    }
    // The whole table answers exactly whatever the window.
    let query = DotsRequest {
        strategy: Strategy::Table,
        ..asked(Some([value + 1, value + 3]), Detail::Value)
    }
    .validate()
    .unwrap();
    let report = answer(&query, &policy, None, Hooks::default()).unwrap();
    assert_eq!((report.value, report.reason), (Some(value), None));
    // A window that holds nothing, or asked with every move's value, is refused.
    // (A window is the API's and Python's: worded here as the API words it.)
    let fault = |request: DotsRequest| request.validate().unwrap_err().worded(Surface::Api);
    assert_eq!(
        fault(asked(Some([2, 2]), Detail::Value)),
        "\"window\": [2, 2]: its lower end must be below its upper end"
    );
    assert_eq!(
        fault(asked(Some([0, 2]), Detail::Moves)),
        "a window bounds the value alone: ask for \"detail\": \"value\" with it"
    );
}
