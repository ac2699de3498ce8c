//! Solving a board: which corners may start, and one shortest path from each (the report behind
//! `ply magic-board`).

use super::Board;
use crate::engine::reach::{shortest_path_until, shortest_path_work, Puzzle, SearchStop};
use crate::engine::util::cost::{OverLimit, Rate, WorkLimit};
use crate::engine::util::halt::{Halt, Halted, NEVER};
use crate::engine::util::memory::{Bytes, MemoryBudget, MemoryError};
use rayon::prelude::*;
use serde::Serialize;
use thiserror::Error;

/// A start that is not allowed.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum StartError {
    /// Only corners are starts.
    #[error("({row},{col}) is not a corner; the starts are (0,0), (0,{e}), ({e},0) and ({e},{e})")]
    NotACorner {
        /// Row asked.
        row: usize,
        /// Column asked.
        col: usize,
        /// d − 1.
        e: usize,
    },
    /// The goal is not a start.
    #[error("({row},{col}) is the goal; start from another corner")]
    IsTheGoal {
        /// Row.
        row: usize,
        /// Column.
        col: usize,
    },
}

/// The answer for one corner.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CornerReport {
    /// The corner, `[row, col]`.
    pub start: [usize; 2],
    /// Whether the goal can be reached from it.
    pub solvable: bool,
    /// Whether this corner holds the goal (then it is no start).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub is_goal: bool,
    /// Moves of a shortest path.
    pub moves: Option<u32>,
    /// The lexicographically first shortest path, `[row, col]` squares from the start to the goal.
    pub path: Option<Vec<[usize; 2]>>,
}

/// Everything `ply magic-board` says about a board.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BoardReport {
    /// The size.
    pub d: usize,
    /// The goal, `[row, col]`.
    pub goal: [usize; 2],
    /// One entry per corner asked.
    pub corners: Vec<CornerReport>,
}

/// State-visits a second of the corners' searches ([`shortest_path_work`]: each square cleared and
/// visited once, each of its 4 moves looked at once), the corners searched in parallel on 2 cores:
/// 1.5·10^8 to 3.1·10^8 measured on 1000×1000 and 4096×4096 boards (release build, a busy 2-core
/// machine, `ply bench costs`), the slower taken; see BENCHMARKS.md.
pub const SOLVE_RATE: Rate = Rate::per_second(150_000_000);

/// What solving a board is called in its refusal.
pub const SOLVE_WHAT: &str = "searching this board from its corners";

/// Moves a square has at most: north, south, east, west.
const MOVES: u32 = 4;

/// The cost of searching `board` from `corners` corners, in [`SOLVE_RATE`] units: a whole
/// breadth-first search each (one that meets the goal early does less).
pub fn solve_work(board: &Board, corners: usize) -> u128 {
    solve_work_for(board.states(), corners)
}

/// [`solve_work`] for a board of `states` states (squares, rows padded to a power of two), for a
/// front end that bounds them before the board is read.
pub fn solve_work_for(states: usize, corners: usize) -> u128 {
    shortest_path_work(states, MOVES).saturating_mul(corners as u128)
}

/// Why a board could not be solved as asked.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SolveBoardError {
    /// A bad start.
    #[error(transparent)]
    Start(#[from] StartError),
    /// Too big for memory.
    #[error(transparent)]
    Memory(#[from] MemoryError),
    /// Too big for the share of the budget each corner's search gets.
    #[error("{source} (the {} budget is split over {corners} corners, one search each)", Bytes(*total as u128))]
    CornerShare {
        /// The refusal of one corner's search.
        source: MemoryError,
        /// The whole budget.
        total: u64,
        /// Corners searched.
        corners: usize,
    },
    /// The searches would take longer than allowed: the estimate over the limit.
    #[error(transparent)]
    TooSlow(#[from] OverLimit),
    /// The halt came before the answer.
    #[error(transparent)]
    Halted(#[from] Halted),
}

/// Solves every corner, or only `start` (which must be a corner other than the goal): one
/// breadth-first search per corner, the corners in parallel. Refused over [`WorkLimit::DEFAULT`].
pub fn solve(
    board: &Board,
    start: Option<(usize, usize)>,
    budget: MemoryBudget,
) -> Result<BoardReport, SolveBoardError> {
    solve_within(board, start, budget, WorkLimit::DEFAULT, &NEVER)
}

/// [`solve`], refused first when its estimate ([`solve_work`]) passes `limit`, stopped when `halt`
/// comes.
pub fn solve_within(
    board: &Board,
    start: Option<(usize, usize)>,
    budget: MemoryBudget,
    limit: WorkLimit,
    halt: &Halt,
) -> Result<BoardReport, SolveBoardError> {
    let corners: Vec<(usize, usize)> = match start {
        None => board.corners().to_vec(),
        Some((row, col)) => {
            if !board.corners().contains(&(row, col)) {
                return Err(StartError::NotACorner {
                    row,
                    col,
                    e: board.d - 1,
                }
                .into());
            }
            if (row, col) == board.goal() {
                return Err(StartError::IsTheGoal { row, col }.into());
            }
            vec![(row, col)]
        }
    };
    let corners_asked = corners.len();
    limit.check(|| SOLVE_WHAT, solve_work(board, corners_asked), SOLVE_RATE)?;
    let per_search = budget.share(budget.bytes() / corners_asked as u64);
    let corners = corners
        .into_par_iter()
        .map(|(row, col)| {
            let s = board.square(row, col);
            let is_goal = s == board.goal;
            let path = match is_goal {
                true => None,
                false => shortest_path_until(board, s, board.goal, per_search, halt)?,
            };
            Ok(CornerReport {
                start: [row, col],
                solvable: path.is_some(),
                is_goal,
                moves: path.as_ref().map(|p| p.len() as u32 - 1),
                path: path.map(|p| p.into_iter().map(|s| board.place(s).into()).collect()),
            })
        })
        .collect::<Result<Vec<_>, SearchStop>>()
        .map_err(|stop| match (stop, corners_asked) {
            (SearchStop::Halted(why), _) => SolveBoardError::Halted(why),
            (SearchStop::Memory(source), 1) => SolveBoardError::Memory(source),
            (SearchStop::Memory(source), corners) => SolveBoardError::CornerShare {
                source,
                total: budget.bytes(),
                corners,
            },
        })?;
    let (row, col) = board.goal();
    Ok(BoardReport {
        d: board.d,
        goal: [row, col],
        corners,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::magic_board::SizeRule;
    const EXAMPLE: &str = "4 4 4 1 1\n2 4 1 4 3\n0 2 1 3 2\n3 2 3 2 3\n3 4 2 2 1\n";

    #[test]
    fn the_issue_example() {
        let board = Board::parse(EXAMPLE, SizeRule::Seed).unwrap();
        let r = solve(&board, None, MemoryBudget::new(1 << 30)).unwrap();
        assert_eq!(r.goal, [2, 0]);
        assert!(r.corners.iter().all(|c| c.solvable));
        assert_eq!(
            r.corners[0].path,
            Some(vec![[0, 0], [4, 0], [4, 3], [2, 3], [2, 0]])
        );
        assert_eq!(
            r.corners
                .iter()
                .map(|c| c.moves.unwrap())
                .collect::<Vec<_>>(),
            vec![4, 5, 3, 3]
        );
        assert_eq!(board.to_text(), EXAMPLE);
    }

    #[test]
    fn work_over_the_limit_is_refused_and_a_halt_stops_the_search() {
        let board = Board::parse(EXAMPLE, SizeRule::Seed).unwrap();
        // Every square cleared and visited, 4 moves each, 4 corners.
        let work = 4 * board.states() as u128 * 6;
        assert_eq!(solve_work(&board, 4), work);
        let budget = MemoryBudget::new(1 << 30);
        let tiny = WorkLimit::of(std::time::Duration::from_nanos(1));
        let e = solve_within(&board, None, budget, tiny, &NEVER).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!(
                "searching this board from its corners would take under a second here ({work} \
                 units of work; the limit is 0, under a second)"
            )
        );
        // A 256×256 board of ones with the goal in a corner: the search from the opposite corner
        // visits every square, and a past deadline stops it at its first check.
        let mut rows = vec![vec!["1"; 256]; 256];
        rows[255][255] = "0";
        let text: String = rows.iter().map(|r| r.join(" ") + "\n").collect();
        let board = Board::parse(&text, SizeRule::Any).unwrap();
        let past = Halt::after(std::time::Duration::ZERO);
        assert_eq!(
            solve_within(&board, Some((0, 0)), budget, WorkLimit::DEFAULT, &past),
            Err(SolveBoardError::Halted(Halted::TimeLimit { millis: 0 }))
        );
        assert_eq!(
            solve(&board, Some((0, 0)), budget).unwrap().corners[0].moves,
            Some(510)
        );
    }

    #[test]
    fn starts_must_be_corners_other_than_the_goal() {
        let board = Board::parse(
            &EXAMPLE
                .replace("4 4 4 1 1", "0 4 4 1 1")
                .replace("0 2 1 3 2", "1 2 1 3 2"),
            SizeRule::Seed,
        )
        .unwrap();
        let budget = MemoryBudget::new(1 << 30);
        assert_eq!(
            solve(&board, Some((0, 0)), budget).unwrap_err().to_string(),
            "(0,0) is the goal; start from another corner"
        );
        assert_eq!(
            solve(&board, Some((1, 0)), budget).unwrap_err().to_string(),
            "(1,0) is not a corner; the starts are (0,0), (0,4), (4,0) and (4,4)"
        );
        let r = solve(&board, None, budget).unwrap();
        assert!(r.corners[0].is_goal && !r.corners[0].solvable);
    }
}
