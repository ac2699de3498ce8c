//! The Triangle War contest format (UVa 751 / POJ 1085): many games on the classic board, one verdict
//! each, all answered from one table.
//!
//! Input: the number of games; for each game a line with m (6 ≤ m ≤ 18), then m lines `i j`, the
//! moves in the order played, A first. Blank lines are ignored; numbers on a line are separated by
//! white space or commas. The input is read as a stream, each line bounded ([`crate::input::lines`]).
//! Output per game: `Game k: A wins.`

use super::board::DotsBoard;
use super::geometry::{BuiltBoard, Geometry, GeometryError};
use super::kept::Kept;
use super::notation::{play_checked, MoveFault};
use super::position::Position;
use crate::engine::scored::table::SubsetTable;
use crate::engine::scored::SolveError;
use crate::engine::util::memory::MemoryBudget;
use crate::engine::util::progress::Watch;
use crate::engine::{final_margin_a, Winner};
use crate::input::lines::{line_fault, read_records, record_fault, ContestError, RecordNames};
use crate::input::surface::{Surface, Worded};
use serde::{Deserialize, Serialize};
use std::io::BufRead;
use thiserror::Error;

/// Fewest and most moves a game may list.
pub const MOVES_PER_GAME: std::ops::RangeInclusive<i128> = 6..=18;

/// What the format calls its records.
const GAMES: RecordNames = RecordNames {
    one: "game",
    many: "games",
};

/// What is wrong in one game.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum WarFault {
    /// A move count outside 6..=18.
    #[error("the number of moves must be 6 to 18, got {0}")]
    MoveCount(i128),
    /// A move that is not legal.
    #[error("{0}")]
    Move(MoveFault),
}

/// A fault with where it is: the game and the line when known.
pub type WarError = ContestError<WarFault>;

/// Bytes a game read takes until it is answered, at the most: its final position and its verdict
/// (twice: a list grows by doubling) and the verdict's line (`Game 18446744073709551615: A wins.`).
const GAME_BYTES: u64 =
    (2 * (std::mem::size_of::<Position>() + std::mem::size_of::<Winner>()) + 40) as u64;

/// Parses and plays every game of `text` on `board`; returns the final positions, or the first fault.
/// (The text bounds what its games can take.)
pub fn parse_games(board: &DotsBoard, text: &str) -> Result<Vec<Position>, WarError> {
    games_of(board, text.as_bytes(), None)
}

/// Reads and plays every game from `source` on `board`, line by line: the reading stops at the
/// first fault, so an endless or binary input is refused at once, and a count of games whose
/// positions and verdicts `budget` cannot hold is refused before any game is read.
pub fn read_games<R: BufRead>(
    board: &DotsBoard,
    source: R,
    budget: MemoryBudget,
) -> Result<Vec<Position>, WarError> {
    games_of(board, source, Some(budget))
}

/// The games of `source`, within `budget` when it is a stream ([`read_games`], [`parse_games`]).
fn games_of<R: BufRead>(
    board: &DotsBoard,
    source: R,
    budget: Option<MemoryBudget>,
) -> Result<Vec<Position>, WarError> {
    read_records(source, GAMES, budget, GAME_BYTES, |lines, g, games| {
        // If the count line holds a move, the game before listed more moves than its count.
        let count_line = match g {
            1 => "one number (the number of moves)".to_string(),
            _ => format!("one number (the number of moves; if this is a move, game {} lists more moves than its count)", g - 1),
        };
        let (line, m) = lines
            .numbers(1, &count_line, || {
                format!("the move count of game {g} of {games}")
            })
            .map_err(line_fault)?;
        let m = m[0];
        if !MOVES_PER_GAME.contains(&m) {
            return Err(record_fault(line, WarFault::MoveCount(m)));
        }
        let mut position = Position::new(board);
        for k in 1..=m {
            let (line, dots) = lines
                .numbers(2, "two dot numbers (a move; if this is a move count, this game lists fewer moves than its count)", || format!("move {k} of {m}"))
                .map_err(line_fault)?;
            play_checked(board, &mut position, dots[0], dots[1])
                .map_err(|fault| record_fault(line, WarFault::Move(fault)))?;
        }
        Ok(position)
    })
}

/// The classic board the contest is played on.
pub fn classic_board() -> Result<BuiltBoard, GeometryError> {
    Geometry::CLASSIC_TRIANGLES.build()
}

/// The contest as every front end asks it: `ply triangle-war [FILE]` reads the games from a file,
/// `POST /api/triangle-war` from `games`, the same text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TriangleWarRequest {
    /// The games in the contest format (see the module).
    pub games: String,
}

/// Each game's winner under perfect play, in the order given: what the contest prints as `Game k:
/// A wins.`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TriangleWarReport {
    /// The winners, game 1 first.
    pub winners: Vec<Winner>,
}

impl TriangleWarReport {
    /// The contest's own output: `Game k: A wins.`, `Game k: tie.`, a line each.
    pub fn text(&self) -> String {
        self.winners
            .iter()
            .enumerate()
            .map(|(k, winner)| match winner {
                Winner::A => format!("Game {}: A wins.\n", k + 1),
                Winner::B => format!("Game {}: B wins.\n", k + 1),
                Winner::Tie => format!("Game {}: tie.\n", k + 1),
            })
            .collect()
    }
}

impl Worded for WarError {
    /// A contest fault names lines and games, not options: the same on every surface.
    fn worded(&self, _: Surface) -> String {
        self.to_string()
    }
}

/// Every game of `positions` (played on `built`, the classic board) judged from the board's whole
/// table: `kept`'s, or one built now within `budget`.
pub fn judge(
    built: &BuiltBoard,
    positions: &[Position],
    kept: Option<&Kept>,
    budget: MemoryBudget,
) -> Result<TriangleWarReport, SolveError> {
    let winners = match kept {
        Some(kept) => verdicts(&*kept.table(built, budget, Watch::default())?, positions),
        None => verdicts(
            &SubsetTable::build(&built.board, budget, Watch::default())?,
            positions,
        ),
    };
    Ok(TriangleWarReport { winners })
}

/// The winner of each game under perfect play from its final position, looked up in `table`
/// (the solved table of `board`).
pub fn verdicts(table: &SubsetTable, positions: &[Position]) -> Vec<Winner> {
    positions
        .iter()
        .map(|p| {
            let value = table.value_of_mask(p.drawn().0);
            Winner::from_margin_a(final_margin_a(p.score(), p.to_move(), value))
        })
        .collect()
}
