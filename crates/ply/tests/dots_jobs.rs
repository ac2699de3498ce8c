//! The split of a position into jobs (`games::dots::jobs`) against whole tables: the distinct
//! children's best is the position's value, keys are shared exactly by positions of one value
//! class, and bounds from part of the children hold.

use ply::engine::scored::table::SubsetTable;
use ply::engine::scored::{SubsetIndexed, ValueRange};
use ply::engine::util::progress::Watch;
use ply::engine::MemoryBudget;
use ply::games::dots::jobs::{combine, expand, key};
use ply::games::dots::request::DotsRequest;
use ply::games::dots::{EdgeSet, Geometry};
use rand::seq::IndexedRandom;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

/// Random games on `geometry`, checked at every position.
fn check_board(geometry: Geometry, games: usize) {
    let built = geometry.build().unwrap();
    let board = &built.board;
    let table = SubsetTable::build(board, MemoryBudget::new(1 << 30), Watch::default()).unwrap();
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
                .filter(|&e| !drawn.contains(ply::games::dots::Edge(e as u8)))
                .collect();
            let Some(&e) = free.choose(&mut rng) else {
                assert!(node.children.is_empty());
                assert_eq!(combine(node.cells, &[]), ValueRange::exact(0));
                break;
            };
            moves.push(ply::games::dots::notation::format_edge(
                board,
                ply::games::dots::Edge(e as u8),
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
    let table = SubsetTable::build(board, MemoryBudget::new(1 << 30), Watch::default()).unwrap();
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
