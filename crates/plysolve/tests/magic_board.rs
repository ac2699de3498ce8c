//! MagicBoard: the library's answers (verdicts, shortest paths by the tie rule, the shared
//! depth-first verdicts) against the reference (`reference/magic_board.rs`, a plain breadth-first
//! search) on 10 000 random boards of every size 5 to 20 (the whole answer, paths and all, on
//! every tenth) and on hand-made boards; the reference's own
//! facts about the hand-made boards (those with ties really have several shortest paths).

use crate::reference;

use plysolve::engine::conformance;
use plysolve::engine::reach::{shortest_path, Puzzle, Verdicts};
use plysolve::engine::MemoryBudget;
use plysolve::games::magic_board::{generate, solve, Board, SizeRule, Wanted};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use reference::magic_board::Grid;

include!("fixtures/magic_boards.rs");

/// A 4×4 board of ones (legal only with `--any-size`): many ties everywhere.
const ONES_4: &str = "1 1 1 1 / 1 1 1 1 / 1 1 0 1 / 1 1 1 1";

/// A random legal board drawn independently of the product's generator.
fn random_values(d: usize, rng: &mut Xoshiro256PlusPlus) -> Vec<Vec<usize>> {
    let mut values: Vec<Vec<usize>> = (0..d)
        .map(|_| (0..d).map(|_| rng.random_range(1..d)).collect())
        .collect();
    values[rng.random_range(0..d)][rng.random_range(0..d)] = 0;
    values
}

/// Asserts the library's verdicts for `grid`'s board (read by `rule`) are the reference's — the
/// shared depth-first ones, and with `paths` the whole answer: for each corner its verdict and its
/// canonical path, legal and shortest. Returns how many corners are solvable.
fn assert_as_the_reference(
    grid: &Grid,
    rule: SizeRule,
    verdicts: &mut Verdicts,
    paths: bool,
) -> usize {
    let budget = MemoryBudget::new(1 << 30);
    let board = Board::parse(&grid.text(), rule).unwrap();
    let goal = grid.goal();
    let stride = grid.d.next_power_of_two();
    let square = |(r, c): (usize, usize)| r * stride + c;
    let starts: Vec<usize> = grid.corners().iter().map(|&p| square(p)).collect();
    let fast = verdicts.reach_with_predecessors(&board, &starts, square(goal));
    assert_eq!(verdicts.reach(&board, &starts, square(goal)), fast);
    if !paths {
        let reference = grid
            .corners()
            .map(|c| c != goal && grid.distances(c)[goal.0][goal.1].is_some());
        let reached = grid.corners().map(|c| c != goal);
        for i in 0..4 {
            assert_eq!(
                fast[i] && reached[i],
                reference[i],
                "{grid:?} from {:?}",
                grid.corners()[i]
            );
        }
        return reference.iter().filter(|&&r| r).count();
    }
    let answer = solve(&board, None, budget).unwrap();
    let mut solvable = 0;
    for (i, (corner, start)) in answer.corners.iter().zip(grid.corners()).enumerate() {
        assert_eq!(corner.start, [start.0, start.1]);
        assert_eq!(corner.is_goal, start == goal, "{grid:?}");
        let expected = (start != goal)
            .then(|| grid.canonical_path(start))
            .flatten();
        assert_eq!(
            corner.solvable,
            expected.is_some(),
            "{grid:?} from {start:?}"
        );
        if start != goal {
            assert_eq!(fast[i], corner.solvable, "{grid:?} from {start:?}");
        }
        let path: Option<Vec<(usize, usize)>> = corner
            .path
            .as_ref()
            .map(|p| p.iter().map(|&[r, c]| (r, c)).collect());
        assert_eq!(path, expected, "{grid:?} from {start:?}");
        if let Some(path) = &path {
            let moves = grid.assert_legal(start, path);
            assert_eq!(corner.moves, Some(moves as u32));
            solvable += 1;
        }
    }
    solvable
}

#[test]
fn the_library_answers_as_the_reference_on_ten_thousand_boards_of_every_size() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(2026);
    let mut verdicts = Verdicts::default();
    let mut solvable = 0;
    for d in 5..=20usize {
        for k in 0..10_000 {
            let grid = Grid {
                d,
                cells: random_values(d, &mut rng),
            };
            // Every board's verdicts; every tenth board's whole answer (paths and all).
            let paths = k % 10 == 0;
            solvable += assert_as_the_reference(&grid, SizeRule::Seed, &mut verdicts, paths);
        }
    }
    // About four boards in five are solvable from a corner at these sizes.
    assert!(solvable > 16 * 10_000 * 4 * 7 / 10, "{solvable}");
}

#[test]
fn the_library_answers_the_hand_made_boards_as_the_reference() {
    let mut verdicts = Verdicts::default();
    for board in [
        EXAMPLE,
        TWO_PATHS,
        BACKWARD_RULE,
        NOWHERE,
        SOME_CORNERS,
        ONE_MOVE,
        GOAL_ON_CORNER,
        LONG_PATH,
        ONES_4,
    ] {
        assert_as_the_reference(&Grid::from_rows(board), SizeRule::Any, &mut verdicts, true);
    }
}

#[test]
fn the_reference_knows_the_hand_made_boards() {
    let moves = |slashed: &str| -> Vec<Option<usize>> {
        let g = Grid::from_rows(slashed);
        g.corners()
            .iter()
            .map(|&s| g.canonical_path(s).map(|p| g.assert_legal(s, &p)))
            .collect()
    };
    assert_eq!(moves(EXAMPLE), [Some(4), Some(5), Some(3), Some(3)]);
    assert_eq!(moves(TWO_PATHS), [Some(2), None, None, None]);
    assert_eq!(moves(BACKWARD_RULE), [Some(6), Some(5), Some(4), Some(5)]);
    assert_eq!(moves(NOWHERE), [None; 4]);
    assert_eq!(moves(SOME_CORNERS), [Some(3), None, Some(2), None]);
    assert_eq!(moves(ONE_MOVE), [None, Some(4), Some(2), Some(1)]);
    assert_eq!(moves(LONG_PATH)[0], Some(12));
    // The tie-break boards really have more than one shortest path.
    let two = Grid::from_rows(TWO_PATHS);
    assert_eq!(two.shortest_path_count((0, 0)), 2);
    assert!(two.is_move((0, 0), (2, 0)) && two.is_move((2, 0), (2, 2)));
    let back = Grid::from_rows(BACKWARD_RULE);
    assert!(back.shortest_path_count((4, 0)) >= 2);
    // The forward-smallest alternatives are shortest paths too.
    let alternative = [(4, 0), (3, 0), (3, 1), (3, 3), (3, 2)];
    assert_eq!(back.assert_legal((4, 0), &alternative), 4);
    let alternative_00 = [(0, 0), (1, 0), (1, 1), (4, 1), (3, 1), (3, 3), (3, 2)];
    assert_eq!(back.assert_legal((0, 0), &alternative_00), 6);
    assert_eq!(Grid::from_rows(ONES_4).shortest_path_count((0, 0)), 6);
    // The only square with a move onto NOWHERE's goal is (0,2).
    let nowhere = Grid::from_rows(NOWHERE);
    assert_eq!(nowhere.predecessors(nowhere.goal()), [(0, 2)]);
    assert_eq!(nowhere.predecessors((0, 2)), []);
}

#[test]
fn hand_made_boards() {
    let budget = MemoryBudget::new(1 << 30);
    // Every square holds 1 but the goal in the middle: all corners reach it in 4 moves.
    let ones = "1 1 1 1 1\n1 1 1 1 1\n1 1 0 1 1\n1 1 1 1 1\n1 1 1 1 1\n";
    let r = solve(&Board::parse(ones, SizeRule::Seed).unwrap(), None, budget).unwrap();
    assert!(r.corners.iter().all(|c| c.moves == Some(4)));
    // All 4s around the goal: a corner's moves stay on the corners, so no corner is solvable.
    let fours = "4 4 4 4 4\n4 4 4 4 4\n4 4 0 4 4\n4 4 4 4 4\n4 4 4 4 4\n";
    let r = solve(&Board::parse(fours, SizeRule::Seed).unwrap(), None, budget).unwrap();
    assert!(r.corners.iter().all(|c| !c.solvable));
    // Only the top corners work (found by a separate search, checked here by the reference too).
    let some = "3 1 2 2 4\n2 4 4 2 2\n2 0 3 2 4\n4 4 4 3 2\n1 3 4 3 3\n";
    let grid = Grid::parse(some);
    let reference: Vec<bool> = grid
        .corners()
        .iter()
        .map(|&c| grid.canonical_path(c).is_some())
        .collect();
    assert_eq!(reference, vec![true, true, false, false]);
    let r = solve(&Board::parse(some, SizeRule::Seed).unwrap(), None, budget).unwrap();
    let verdicts: Vec<bool> = r.corners.iter().map(|c| c.solvable).collect();
    assert_eq!(verdicts, vec![true, true, false, false]);
    // The goal on a corner: that corner is the goal, the others are asked.
    let corner_goal = "0 1 1 1 1\n1 1 1 1 1\n1 1 1 1 1\n1 1 1 1 1\n1 1 1 1 1\n";
    let r = solve(
        &Board::parse(corner_goal, SizeRule::Seed).unwrap(),
        None,
        budget,
    )
    .unwrap();
    assert!(r.corners[0].is_goal && !r.corners[0].solvable);
    assert_eq!(r.corners[3].moves, Some(8));
}

#[test]
fn generated_boards_have_the_asked_property() {
    let budget = MemoryBudget::new(1 << 30);
    for d in 5..=20 {
        let solvable = generate(d, d as u64, Wanted::Solvable, SizeRule::Seed).unwrap();
        assert!(solve(&solvable, None, budget)
            .unwrap()
            .corners
            .iter()
            .all(|c| c.solvable || c.is_goal));
        let unsolvable = generate(d, d as u64, Wanted::Unsolvable, SizeRule::Seed).unwrap();
        assert!(solve(&unsolvable, None, budget)
            .unwrap()
            .corners
            .iter()
            .all(|c| !c.solvable));
        assert_eq!(unsolvable.size(), d);
    }
    // A start on the goal is a path of one square; squares are laid out with a power-of-two stride.
    let board = generate(6, 3, Wanted::Any, SizeRule::Seed).unwrap();
    assert_eq!(shortest_path(&board, 0, 0, budget), Ok(Some(vec![0])));
    assert_eq!(board.states(), 6 * 8);
}

#[test]
fn boards_conform_to_the_puzzle_shape() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
    for d in 5..=20usize {
        for _ in 0..20 {
            let values = random_values(d, &mut rng);
            let text = Grid {
                d,
                cells: values.clone(),
            }
            .text();
            let board = Board::parse(&text, SizeRule::Seed).unwrap();
            assert_eq!(conformance::predecessors(&board), Ok(()), "{values:?}");
        }
    }
}
