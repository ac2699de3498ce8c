//! The Triangle War contest format (UVa 751 / POJ 1085): many games on the classic board, one verdict
//! each, all answered from one table.
//!
//! Input: the number of games; for each game a line with m (6 ≤ m ≤ 18), then m lines `i j`, the
//! moves in the order played, A first. Blank lines are ignored; numbers on a line are separated by
//! white space or commas. The input is read as a stream, each line bounded ([`crate::input::lines`]).
//! Output per game: `Game k: A wins.`

use super::board::DotsBoard;
use super::notation::{edge_of, play_checked, MoveFault};
use super::position::Position;
use crate::engine::scored::table::SubsetTable;
use crate::engine::{final_margin_a, Winner};
use crate::input::lines::{count_fault, LineError, LineFault, NumberLines, Place};
use crate::input::quote;
use std::io::BufRead;
use thiserror::Error;

/// Fewest and most moves a game may list.
pub const MOVES_PER_GAME: std::ops::RangeInclusive<i128> = 6..=18;

/// What is wrong at one place of the input.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum WarFault {
    /// Nothing but white space.
    #[error("the input is empty (expected the number of games)")]
    Empty,
    /// A line that does not hold the numbers it should.
    #[error(transparent)]
    Line(#[from] LineFault),
    /// A game count below 1 or beyond memory.
    #[error("{}", count_fault("games", *.0))]
    GameCount(i128),
    /// A move count outside 6..=18.
    #[error("the number of moves must be 6 to 18, got {0}")]
    MoveCount(i128),
    /// A move that is not legal.
    #[error("{0}")]
    Move(MoveFault),
    /// More lines after the last game.
    #[error("unexpected {} after the last game ({games} declared)", quote(.text))]
    Trailing {
        /// The first extra line.
        text: String,
        /// Games declared.
        games: usize,
    },
}

/// A fault with where it is: the game and the line when known.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{place}{fault}")]
pub struct WarError {
    /// Where.
    pub place: Place,
    /// The fault.
    pub fault: WarFault,
}

/// Parses and plays every game of `text` on `board`; returns the final positions, or the first fault.
pub fn parse_games(board: &DotsBoard, text: &str) -> Result<Vec<Position>, WarError> {
    read_games(board, text.as_bytes())
}

/// Reads and plays every game from `source` on `board`, line by line: the reading stops at the
/// first fault, so an endless or binary input is refused at once.
pub fn read_games<R: BufRead>(board: &DotsBoard, source: R) -> Result<Vec<Position>, WarError> {
    let mut lines = NumberLines::new(source);
    let mut game = None;
    let fail = |game: Option<usize>, line: Option<usize>, fault: WarFault| WarError {
        place: Place {
            record: game.map(|g| ("game", g)),
            line,
        },
        fault,
    };
    let line_fault = |game| move |(line, fault): LineError| fail(game, line, fault.into());
    let (line, count) = lines
        .numbers(1, "one number (the number of games)", String::new)
        .map_err(|e| match e {
            (None, LineFault::Truncated(_)) => fail(None, None, WarFault::Empty),
            e => line_fault(game)(e),
        })?;
    if count[0] < 1 || count[0] > usize::MAX as i128 {
        return Err(fail(None, Some(line), WarFault::GameCount(count[0])));
    }
    let games = count[0] as usize;
    // Room for a few games only: the rest grows with the games actually read, not the count declared.
    let mut positions = Vec::with_capacity(games.min(1 << 10));
    for g in 1..=games {
        game = Some(g);
        // If the count line holds a move, the game before listed more moves than its count.
        let count_line = match g {
            1 => "one number (the number of moves)".to_string(),
            _ => format!("one number (the number of moves; if this is a move, game {} lists more moves than its count)", g - 1),
        };
        let (line, m) = lines
            .numbers(1, &count_line, || {
                format!("the move count of game {g} of {games}")
            })
            .map_err(line_fault(game))?;
        let m = m[0];
        if !MOVES_PER_GAME.contains(&m) {
            return Err(fail(game, Some(line), WarFault::MoveCount(m)));
        }
        let mut position = Position::new(board);
        for k in 1..=m {
            let (line, dots) = lines
                .numbers(2, "two dot numbers (a move; if this is a move count, this game lists fewer moves than its count)", || format!("move {k} of {m}"))
                .map_err(line_fault(game))?;
            edge_of(board, dots[0], dots[1])
                .and_then(|edge| play_checked(board, &mut position, edge))
                .map_err(|fault| fail(game, Some(line), WarFault::Move(fault)))?;
        }
        positions.push(position);
    }
    if let Some((line, text)) = lines.next_non_blank().map_err(line_fault(None))? {
        let trailing = WarFault::Trailing {
            text: text.to_string(),
            games,
        };
        return Err(fail(None, Some(line), trailing));
    }
    Ok(positions)
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
