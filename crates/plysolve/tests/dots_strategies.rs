//! The three strategies, and an independent brute force, agree on the value of dots positions.

use plysolve::engine::conformance;
use plysolve::engine::scored::analysis::analyse;
use plysolve::engine::scored::choose::{with_solver, SolveOptions};
use plysolve::engine::scored::memo::{HashStore, MemoSolver};
use plysolve::engine::scored::recursion::RecursionSolver;
use plysolve::engine::scored::table::SubsetTable;
use plysolve::engine::scored::{ScoredGame, Solver, Strategy, SubsetIndexed};
use plysolve::engine::util::halt::NEVER;
use plysolve::engine::util::progress::Watch;
use plysolve::engine::MemoryBudget;
use plysolve::games::dots::{DotsBoard, Edge, EdgeSet, Geometry};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::collections::HashMap;
use std::ops::ControlFlow;

fn board(size: u32) -> DotsBoard {
    Geometry::Triangles { size }.build().unwrap().board
}

fn budget() -> MemoryBudget {
    MemoryBudget::new(1 << 30)
}

/// A second implementation that shares nothing with the engine but the list of edges: it finds the
/// cells itself (three dots pairwise joined, or four dots joined in a cycle — the unit triangles and
/// squares of these grids) and plays with explicit players and scores, A maximising and B minimising
/// A's final margin, without Wilson's rule.
struct BruteForce {
    edges: Vec<(u32, u32)>,
    triangles: Vec<Vec<usize>>,
    memo: HashMap<(u64, bool), i32>,
}

impl BruteForce {
    /// For a box board: the cells are the 4-cycles.
    fn boxes(board: &DotsBoard) -> Self {
        let mut brute = BruteForce::new(board);
        let edges = brute.edges.clone();
        let find = |a: u32, b: u32| {
            edges
                .iter()
                .position(|&(x, y)| (x, y) == (a.min(b), a.max(b)))
        };
        let n = board.dots();
        let mut cells = Vec::new();
        for a in 0..n {
            for b in a + 1..n {
                for c in b + 1..n {
                    for d in c + 1..n {
                        for [p, q, r, s] in [[a, b, c, d], [a, b, d, c], [a, c, b, d]] {
                            let cycle = [find(p, q), find(q, r), find(r, s), find(s, p)];
                            if cycle.iter().all(Option::is_some) {
                                cells.push(cycle.iter().map(|e| e.unwrap()).collect());
                            }
                        }
                    }
                }
            }
        }
        brute.triangles = cells;
        brute
    }

    fn new(board: &DotsBoard) -> Self {
        let edges: Vec<(u32, u32)> = (0..board.edge_count())
            .map(|e| board.endpoints(Edge(e as u8)))
            .collect();
        let find = |a: u32, b: u32| {
            edges
                .iter()
                .position(|&(x, y)| (x, y) == (a.min(b), a.max(b)))
        };
        let mut triangles = Vec::new();
        for a in 0..board.dots() {
            for b in a + 1..board.dots() {
                for c in b + 1..board.dots() {
                    if let (Some(x), Some(y), Some(z)) = (find(a, b), find(a, c), find(b, c)) {
                        triangles.push(vec![x, y, z]);
                    }
                }
            }
        }
        BruteForce {
            edges,
            triangles,
            memo: HashMap::new(),
        }
    }

    fn closed(&self, drawn: u64) -> usize {
        self.triangles
            .iter()
            .filter(|t| t.iter().all(|&e| drawn >> e & 1 == 1))
            .count()
    }

    /// A's final margin from here (future cells only), `a_to_move` saying whose turn it is.
    fn margin_a(&mut self, drawn: u64, a_to_move: bool) -> i32 {
        if let Some(&v) = self.memo.get(&(drawn, a_to_move)) {
            return v;
        }
        let mut best: Option<i32> = None;
        for e in 0..self.edges.len() {
            if drawn >> e & 1 == 1 {
                continue;
            }
            let child = drawn | 1 << e;
            let gained = (self.closed(child) - self.closed(drawn)) as i32;
            let next = if gained > 0 { a_to_move } else { !a_to_move };
            let margin = if a_to_move { gained } else { -gained } + self.margin_a(child, next);
            best = Some(match best {
                None => margin,
                Some(b) if a_to_move => b.max(margin),
                Some(b) => b.min(margin),
            });
        }
        let v = best.unwrap_or(0);
        self.memo.insert((drawn, a_to_move), v);
        v
    }

    /// Net future cells for the player to move.
    fn value(&mut self, drawn: u64) -> i32 {
        self.margin_a(drawn, true)
    }
}

#[test]
fn brute_force_finds_the_board_cells() {
    for size in 1..=4 {
        let brute = BruteForce::new(&board(size));
        assert_eq!(brute.triangles.len() as u32, size * size);
    }
}

#[test]
fn every_state_of_small_boards_agrees_with_brute_force() {
    for size in 1..=2 {
        let board = board(size);
        let table = SubsetTable::build(&board, budget(), Watch::default()).unwrap();
        let mut brute = BruteForce::new(&board);
        let mut recursion = RecursionSolver::new(&board).unwrap();
        let mut memo = MemoSolver::new(&board, HashStore::new(budget())).unwrap();
        for mask in 0..1u64 << board.edge_count() {
            let state = EdgeSet(mask);
            let expected = brute.value(mask);
            assert_eq!(
                table.value_of_mask(mask),
                expected,
                "table, size {size}, state {mask:b}"
            );
            assert_eq!(
                recursion.value(&state).unwrap(),
                expected,
                "recursion, state {mask:b}"
            );
            assert_eq!(
                memo.value(&state).unwrap(),
                expected,
                "memo, state {mask:b}"
            );
        }
    }
}

#[test]
fn known_values_of_empty_boards() {
    // One triangle: A draws, B draws, A closes it.
    let one = board(1);
    let table = SubsetTable::build(&one, budget(), Watch::default()).unwrap();
    assert_eq!(table.value_of_mask(0), 1);
    // The classic board: B wins 6-3 (seed 004), by memo and by table.
    let classic = board(3);
    for strategy in [Strategy::Memo, Strategy::Table] {
        let options = SolveOptions::new(budget());
        let empty = EdgeSet(0);
        let value = with_solver(&classic, strategy, options, &empty, |s| s.value(&empty)).unwrap();
        assert_eq!(value, -3, "{strategy:?}");
    }
    assert_eq!(BruteForce::new(&classic).value(0), -3);
}

/// Random positions of the classic board with at least `min_drawn` edges, from a fixed seed.
fn random_positions(count: usize, min_drawn: usize, seed: u64) -> Vec<EdgeSet> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut edges: Vec<u32> = (0..18).collect();
    (0..count)
        .map(|i| {
            edges.shuffle(&mut rng);
            let drawn = min_drawn + i % (19 - min_drawn);
            EdgeSet(edges[..drawn].iter().fold(0, |m, &e| m | 1 << e))
        })
        .collect()
}

#[test]
fn strategies_agree_on_random_classic_positions() {
    let board = board(3);
    let table = SubsetTable::build(&board, budget(), Watch::default()).unwrap();
    let mut memo = MemoSolver::new(&board, HashStore::new(budget())).unwrap();
    let mut brute = BruteForce::new(&board);
    let mut recursion = RecursionSolver::new(&board).unwrap();
    let positions = random_positions(1000, 10, 7);
    assert_eq!(positions.iter().filter(|p| p.len() == 10).count(), 112);
    for state in positions {
        let expected = table.value_of_mask(state.0);
        assert_eq!(recursion.value(&state).unwrap(), expected, "{state:?}");
        assert_eq!(memo.value(&state).unwrap(), expected, "{state:?}");
        assert_eq!(brute.value(state.0), expected, "{state:?}");
    }
}

/// A dots board whose move list is empty while its completion rules are the board's: a table
/// built from it has values only if it fills from the rules (the lane path), never the move list.
struct RulesOnly(DotsBoard);

impl ScoredGame for RulesOnly {
    type State = EdgeSet;
    type Move = Edge;
    fn capabilities(&self) -> plysolve::engine::Capabilities {
        self.0.capabilities()
    }
    fn max_points(&self) -> u32 {
        self.0.max_points()
    }
    fn for_each_move<B, F>(&self, _: &EdgeSet, _: F) -> ControlFlow<B>
    where
        F: FnMut(Edge, EdgeSet, u32) -> ControlFlow<B>,
    {
        ControlFlow::Continue(())
    }
    fn play(&self, _: &EdgeSet, _: Edge) -> Option<(EdgeSet, u32)> {
        None
    }
}

impl SubsetIndexed for RulesOnly {
    fn items(&self) -> u32 {
        self.0.items()
    }
    fn mask(&self, state: &EdgeSet) -> u64 {
        self.0.mask(state)
    }
    fn state(&self, mask: u64) -> EdgeSet {
        self.0.state(mask)
    }
    fn completion(&self) -> Option<plysolve::engine::scored::Completion<'_>> {
        self.0.completion()
    }
}

#[test]
fn completion_path_matches_the_general_table() {
    for geometry in [
        Geometry::Triangles { size: 2 },
        Geometry::Triangles { size: 3 },
        Geometry::Boxes { rows: 2, cols: 2 },
    ] {
        let board = geometry.build().unwrap().board;
        let fast = SubsetTable::build(&board, budget(), Watch::default()).unwrap();
        let general = SubsetTable::build_general(&board, budget()).unwrap();
        let differ = (0..1u64 << board.edge_count())
            .filter(|&m| fast.value_of_mask(m) != general.value_of_mask(m))
            .count();
        assert_eq!(differ, 0, "{geometry:?}");
        // The two sides ran different paths: from the rules alone the empty board has its value,
        // from the (empty) move list every value is 0.
        let rules_only = RulesOnly(board);
        let lanes = SubsetTable::build(&rules_only, budget(), Watch::default()).unwrap();
        let moves = SubsetTable::build_general(&rules_only, budget()).unwrap();
        assert_eq!(
            lanes.value_of_mask(0),
            general.value_of_mask(0),
            "{geometry:?}"
        );
        assert_eq!(moves.value_of_mask(0), 0, "{geometry:?}");
        let lanes_differ = (0..1u64 << lanes.items())
            .filter(|&m| lanes.value_of_mask(m) != general.value_of_mask(m))
            .count();
        assert_eq!(lanes_differ, 0, "{geometry:?}");
    }
}

#[test]
fn every_classic_state_matches_brute_force() {
    let board = board(3);
    let table = SubsetTable::build(&board, budget(), Watch::default()).unwrap();
    let mut brute = BruteForce::new(&board);
    let mismatches = (0..1u64 << 18)
        .filter(|&m| table.value_of_mask(m) != brute.value(m))
        .count();
    assert_eq!(mismatches, 0);
}

#[test]
fn the_best_line_realises_the_value() {
    let board = board(3);
    let table = SubsetTable::build(&board, budget(), Watch::default()).unwrap();
    let mut brute = BruteForce::new(&board);
    for state in random_positions(200, 0, 11) {
        let analysis = analyse(&board, &mut table.solver(&board), &state, true).unwrap();
        // Replaying the line, the first mover's net gain is the value.
        let (mut net, mut first_moves) = (0i32, true);
        for step in &analysis.line {
            assert_eq!(step.by_opponent, !first_moves, "{state:?}");
            net += if first_moves {
                step.points as i32
            } else {
                -(step.points as i32)
            };
            if step.points == 0 {
                first_moves = !first_moves;
            }
        }
        assert_eq!(Some(net), analysis.range.value(), "{state:?}");
        assert_eq!(analysis.line.len() as u32, 18 - state.len());
        // Moves are sorted best first, and each move's value is what the brute force (explicit
        // players, no Wilson's rule) finds for the mover after it: its points, plus its own margin
        // if it moves again, else the opponent's margin against it.
        assert!(analysis
            .moves
            .windows(2)
            .all(|w| w[0].value() >= w[1].value()));
        assert_eq!(
            Some(brute.value(state.0)),
            analysis.range.value(),
            "{state:?}"
        );
        for m in &analysis.moves {
            let child = state.0 | 1 << m.mv.0;
            let gained = (brute.closed(child) - brute.closed(state.0)) as i32;
            let after = brute.margin_a(child, gained > 0);
            assert_eq!(
                (m.points as i32, m.value()),
                (gained, Some(gained + after)),
                "{state:?} {:?}",
                m.mv
            );
        }
        let first = analysis.moves.first();
        assert_eq!(first.is_none(), state.len() == 18, "{state:?}");
    }
}

#[test]
fn play_agrees_with_the_move_list() {
    let board = board(4);
    let states = random_positions(300, 0, 3);
    assert_eq!(conformance::scored(&board, &states), Ok(()));
    for state in states {
        let listed = plysolve::engine::scored::children(&board, &state);
        assert_eq!(listed.len() as u32, 30 - state.len());
    }
}

/// Random masks of `items` elements, every count of elements drawn, from a fixed seed.
fn random_masks(items: u32, count: usize, seed: u64) -> Vec<u64> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut elements: Vec<u32> = (0..items).collect();
    (0..count)
        .map(|i| {
            elements.shuffle(&mut rng);
            let drawn = i % (items as usize + 1);
            elements[..drawn].iter().fold(0, |m, &e| m | 1 << e)
        })
        .collect()
}

#[test]
fn dots_boards_and_their_free_elements_conform_to_their_shape() {
    use plysolve::engine::scored::restrict::FreeElements;
    for geometry in [
        Geometry::Triangles { size: 3 },
        Geometry::Boxes { rows: 2, cols: 2 },
        Geometry::Boxes { rows: 2, cols: 3 },
    ] {
        let board = geometry.build().unwrap().board;
        assert!(board.completion().is_some() && board.symmetries().is_some());
        let mut memo = MemoSolver::new(&board, HashStore::new(budget())).unwrap();
        let samples = random_masks(board.items(), 200, 11);
        let checked = conformance::subset_indexed(&board, &samples, &mut memo);
        assert_eq!(checked, Ok(()), "{geometry:?}");
        let position = EdgeSet(samples[7]);
        let free = FreeElements::of(&board, &position).unwrap();
        let mut memo = MemoSolver::new(&free, HashStore::new(budget())).unwrap();
        let samples = random_masks(free.items(), 100, 12);
        let checked = conformance::subset_indexed(&free, &samples, &mut memo);
        assert_eq!(checked, Ok(()), "{geometry:?} after {position:?}");
    }
}

#[test]
fn table_refuses_before_allocating() {
    let big = board(5);
    let err = SubsetTable::build(&big, MemoryBudget::new(1 << 30), Watch::default()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "a table of 2^45 states (one byte each) needs 32.0 TiB (35184372088832 bytes) but the memory budget is 1.0 GiB (1073741824 bytes)"
    );
}

#[test]
fn triangle_war_verdicts_match_an_independent_replay() {
    use plysolve::engine::Winner;
    use plysolve::games::dots::triangle_war::{parse_games, verdicts};
    use rand::Rng;

    let board = board(3);
    let mut brute = BruteForce::new(&board);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
    let mut games = Vec::new();
    let mut text = String::from("300\n");
    for _ in 0..300 {
        let mut order: Vec<usize> = (0..18).collect();
        order.shuffle(&mut rng);
        let m = rng.random_range(6..=18);
        text += &format!("{m}\n");
        for &e in &order[..m] {
            let (a, b) = board.endpoints(Edge(e as u8));
            text += &format!("{} {}\n", a + 1, b + 1);
        }
        games.push(order[..m].to_vec());
    }
    let table = SubsetTable::build(&board, budget(), Watch::default()).unwrap();
    let positions = parse_games(&board, &text).unwrap();
    let winners = verdicts(&table, &positions);
    for (moves, winner) in games.iter().zip(winners) {
        // Replay with the brute force's own triangle count and turn rule.
        let (mut drawn, mut a_to_move, mut margin) = (0u64, true, 0i32);
        for &e in moves {
            let gained = (brute.closed(drawn | 1 << e) - brute.closed(drawn)) as i32;
            margin += if a_to_move { gained } else { -gained };
            drawn |= 1 << e;
            if gained == 0 {
                a_to_move = !a_to_move;
            }
        }
        let total = margin + brute.margin_a(drawn, a_to_move);
        let expected = if total > 0 { Winner::A } else { Winner::B };
        assert_eq!(winner, expected, "{moves:?}");
    }
}

#[test]
fn every_state_of_small_box_boards_agrees_with_brute_force() {
    for (rows, cols) in [(1, 1), (1, 2), (2, 2)] {
        let board = Geometry::Boxes { rows, cols }.build().unwrap().board;
        let mut brute = BruteForce::boxes(&board);
        assert_eq!(brute.triangles.len() as u32, rows * cols);
        let table = SubsetTable::build(&board, budget(), Watch::default()).unwrap();
        let general = SubsetTable::build_general(&board, budget()).unwrap();
        let mut recursion = RecursionSolver::new(&board).unwrap();
        let mut memo = MemoSolver::new(&board, HashStore::new(budget())).unwrap();
        for mask in 0..1u64 << board.edge_count() {
            let expected = brute.value(mask);
            assert_eq!(
                table.value_of_mask(mask),
                expected,
                "{rows}x{cols} {mask:b}"
            );
            assert_eq!(general.value_of_mask(mask), expected);
            if mask.count_ones() as usize + 9 >= board.edge_count() {
                assert_eq!(recursion.value(&EdgeSet(mask)).unwrap(), expected);
            }
            assert_eq!(memo.value(&EdgeSet(mask)).unwrap(), expected);
        }
    }
}

#[test]
fn three_by_three_boxes_is_lost_by_three() {
    // Wilson's result: the first player loses 3×3 Dots and Boxes by 3.
    let board = Geometry::Boxes { rows: 3, cols: 3 }.build().unwrap().board;
    let table = SubsetTable::build(&board, budget(), Watch::default()).unwrap();
    assert_eq!(table.value_of_mask(0), -3);
}

#[test]
fn symmetric_states_share_values_and_canonical_memo_agrees() {
    use plysolve::engine::scored::memo::CanonicalStore;
    for geometry in [
        Geometry::Triangles { size: 3 },
        Geometry::Boxes { rows: 2, cols: 2 },
        Geometry::Boxes { rows: 2, cols: 3 },
    ] {
        let board = geometry.build().unwrap().board;
        let symmetries = board
            .symmetries()
            .expect("dots boards know their symmetries");
        let table = SubsetTable::build(&board, budget(), Watch::default()).unwrap();
        let differ = (0..1u64 << board.edge_count())
            .filter(|&m| table.value_of_mask(m) != table.value_of_mask(symmetries.canonical(m)))
            .count();
        assert_eq!(differ, 0, "{geometry:?}");
        let store = CanonicalStore::new(&board, symmetries, HashStore::new(budget()));
        let mut memo = MemoSolver::new(&board, store).unwrap();
        for state in random_positions(300, 0, 9)
            .into_iter()
            .filter(|s| s.0 >> board.edge_count() == 0)
        {
            assert_eq!(
                memo.value(&state).unwrap(),
                table.value_of_mask(state.0),
                "{geometry:?} {state:?}"
            );
        }
        assert_eq!(memo.value(&EdgeSet(0)).unwrap(), table.value_of_mask(0));
    }
}

#[test]
fn free_tables_and_search_agree_with_brute_force() {
    use plysolve::engine::scored::restrict::FreeTable;
    use plysolve::engine::scored::search::{SearchOptions, SearchSolver};
    for geometry in [
        Geometry::Triangles { size: 2 },
        Geometry::Boxes { rows: 2, cols: 2 },
        Geometry::Triangles { size: 3 },
    ] {
        let board = geometry.build().unwrap().board;
        let mut brute = if matches!(geometry, Geometry::Boxes { .. }) {
            BruteForce::boxes(&board)
        } else {
            BruteForce::new(&board)
        };
        let mut search = SearchSolver::new(
            &board,
            SearchOptions {
                endgame: 4,
                ..SearchOptions::plain(1 << 16, budget(), &NEVER)
            },
        )
        .unwrap();
        let edges = board.edge_count();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(21);
        let mut order: Vec<usize> = (0..edges).collect();
        for _ in 0..40 {
            order.shuffle(&mut rng);
            let drawn = order[..edges / 3].iter().fold(0u64, |m, &e| m | 1 << e);
            let table =
                FreeTable::build(&board, &EdgeSet(drawn), budget(), Watch::default()).unwrap();
            // The position and every state after it that adds at most two more edges.
            for &a in &order[edges / 3..] {
                for &b in &order[edges / 3..] {
                    let mask = drawn | 1 << a | 1 << b;
                    let expected = brute.value(mask);
                    assert_eq!(table.value_of_mask(mask), Some(expected), "{mask:b}");
                    assert_eq!(search.value(&EdgeSet(mask)).unwrap(), expected, "{mask:b}");
                }
            }
            assert_eq!(table.value_of_mask(drawn), Some(brute.value(drawn)));
        }
    }
}
