//! The Triangle War contest format (UVa 751 / POJ 1085): many games on the classic board, one verdict
//! each, all answered from one table.
//!
//! Input: the number of games; for each game a line with m (6 ≤ m ≤ 18), then m lines `i j`, the
//! moves in the order played, A first. Blank lines are ignored; numbers on a line are separated by
//! white space or commas. The input is read as a stream, each line bounded ([`crate::input::lines`]).
//! Output per game: `Game k: A wins.`

use super::board::DotsBoard;
use super::notation::{play_checked, MoveFault};
use super::position::Position;
use crate::engine::scored::table::SubsetTable;
use crate::engine::{final_margin_a, Winner};
use crate::input::lines::{line_fault, read_records, record_fault, ContestError, RecordNames};
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

/// Parses and plays every game of `text` on `board`; returns the final positions, or the first fault.
pub fn parse_games(board: &DotsBoard, text: &str) -> Result<Vec<Position>, WarError> {
    read_games(board, text.as_bytes())
}

/// Reads and plays every game from `source` on `board`, line by line: the reading stops at the
/// first fault, so an endless or binary input is refused at once.
pub fn read_games<R: BufRead>(board: &DotsBoard, source: R) -> Result<Vec<Position>, WarError> {
    read_records(source, GAMES, |lines, g, games| {
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
