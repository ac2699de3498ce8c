//! MagicBoard boards (`ply magic-board`).

use crate::text;
use plysolve::engine::MemoryBudget;
use plysolve::games::magic_board::{draw, solve, Board, SizeRule};
use std::collections::VecDeque;

/// Boards up to this size are also solved, and checked against a breadth-first search of our own.
const SOLVED_SIZE: usize = 16;

/// Checks a board under both size rules: its text and its drawing (with no path marked) parse back
/// to the same board; a small board solves, every path is legal and shortest (an independent
/// breadth-first search over rows and columns agrees), and draws.
pub fn check_magic_board(data: &[u8]) {
    let text = text(data);
    for rule in [SizeRule::Seed, SizeRule::Any] {
        let board = match Board::parse(&text, rule) {
            Ok(board) => board,
            Err(fault) => {
                drop(fault.to_string());
                continue;
            }
        };
        let again = Board::parse(&board.to_text(), rule).expect("a board's text parses");
        assert_eq!(again, board, "parse → to_text → parse changed the board");
        let drawn = Board::parse(&draw(&board, &[]), rule).expect("a board's drawing parses");
        assert_eq!(drawn, board, "parse → draw → parse changed the board");
        if board.size() <= SOLVED_SIZE {
            check_solution(&board);
        }
    }
}

/// Solves every corner and checks each answer against [`distance_to_goal`].
fn check_solution(board: &Board) {
    let report = solve(board, None, MemoryBudget::new(64 << 20)).expect("a small board solves");
    assert_eq!(report.d, board.size());
    let (goal_row, goal_col) = board.goal();
    assert_eq!(report.goal, [goal_row, goal_col]);
    assert_eq!(report.corners.len(), 4, "all four corners answered");
    for (corner, (row, col)) in report.corners.iter().zip(board.corners()) {
        assert_eq!(corner.start, [row, col]);
        assert_eq!(corner.is_goal, (row, col) == board.goal());
        let expected = distance_to_goal(board, (row, col)).filter(|_| !corner.is_goal);
        assert_eq!(corner.moves, expected, "moves from {:?}", corner.start);
        assert_eq!(corner.solvable, expected.is_some());
        let Some(path) = &corner.path else { continue };
        assert_eq!(path.len() as u32, expected.unwrap() + 1);
        assert_eq!(path[0], [row, col], "a path starts at its corner");
        assert_eq!(
            path[path.len() - 1],
            [goal_row, goal_col],
            "and ends at the goal"
        );
        for step in path.windows(2) {
            let ([r, c], [r2, c2]) = (step[0], step[1]);
            let jump = board.value(r, c) as usize;
            let legal = (r == r2 && c.abs_diff(c2) == jump) || (c == c2 && r.abs_diff(r2) == jump);
            assert!(legal, "{:?} → {:?} is not a move", step[0], step[1]);
        }
        drop(draw(board, path));
    }
}

/// The fewest moves from `start` to the goal (`None` when it cannot be reached), by a plain
/// breadth-first search over (row, column): independent of the engine's search and its numbering.
fn distance_to_goal(board: &Board, start: (usize, usize)) -> Option<u32> {
    let d = board.size();
    let mut seen = vec![false; d * d];
    let mut queue = VecDeque::from([(start, 0u32)]);
    seen[start.0 * d + start.1] = true;
    while let Some(((r, c), moves)) = queue.pop_front() {
        if (r, c) == board.goal() {
            return Some(moves);
        }
        let k = board.value(r, c) as usize;
        let targets = [
            r.checked_sub(k).map(|r2| (r2, c)),
            Some((r + k, c)).filter(|&(r2, _)| r2 < d),
            c.checked_sub(k).map(|c2| (r, c2)),
            Some((r, c + k)).filter(|&(_, c2)| c2 < d),
        ];
        for (r2, c2) in targets.into_iter().flatten() {
            if !std::mem::replace(&mut seen[r2 * d + c2], true) {
                queue.push_back(((r2, c2), moves + 1));
            }
        }
    }
    None
}
