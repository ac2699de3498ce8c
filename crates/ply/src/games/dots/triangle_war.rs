//! The Triangle War contest format (UVa 751 / POJ 1085): many games on the classic board, one verdict
//! each, all answered from one table.
//!
//! Input: the number of games; for each game a line with m (6 ≤ m ≤ 18), then m lines `i j`, the
//! moves in the order played, A first. Blank lines are ignored. Output per game: `Game k: A wins.`

use super::board::DotsBoard;
use super::notation::{edge_of, play_checked, MoveFault};
use super::position::Position;
use crate::engine::scored::table::SubsetTable;
use crate::engine::{final_margin_a, Winner};
use std::fmt;
use thiserror::Error;

/// Fewest and most moves a game may list.
pub const MOVES_PER_GAME: std::ops::RangeInclusive<i64> = 6..=18;

/// What is wrong at one place of the input.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum WarFault {
    /// Nothing but white space.
    #[error("the input is empty (expected the number of games)")]
    Empty,
    /// A token that is not a whole number.
    #[error("`{0}` is not a whole number")]
    NotANumber(String),
    /// A line with the wrong number of items.
    #[error("expected {expected}, found {found} items")]
    WrongItemCount {
        /// What the line should hold.
        expected: &'static str,
        /// How many items it holds.
        found: usize,
    },
    /// A game count below 1.
    #[error("the number of games must be at least 1, got {0}")]
    GameCount(i64),
    /// A move count outside 6..=18.
    #[error("the number of moves must be 6 to 18, got {0}")]
    MoveCount(i64),
    /// A move that is not legal.
    #[error("{0}")]
    Move(MoveFault),
    /// The input stops early.
    #[error("the input ends before {0}")]
    Truncated(String),
    /// More lines after the last game.
    #[error("unexpected `{text}` after the last game ({games} declared)")]
    Trailing {
        /// The first extra line.
        text: String,
        /// Games declared.
        games: usize,
    },
}

/// A fault with where it is: the game (1-based) and the line (1-based) when known.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub struct WarError {
    /// The game the fault belongs to.
    pub game: Option<usize>,
    /// The line it is on.
    pub line: Option<usize>,
    /// The fault.
    pub fault: WarFault,
}

impl fmt::Display for WarError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let place = match (self.game, self.line) {
            (Some(g), Some(l)) => format!("game {g}, line {l}: "),
            (Some(g), None) => format!("game {g}: "),
            (None, Some(l)) => format!("line {l}: "),
            (None, None) => String::new(),
        };
        write!(f, "{place}{}", self.fault)
    }
}

/// Lines that hold something, with their 1-based line numbers.
struct Lines<'a> {
    inner: std::iter::Enumerate<std::str::Lines<'a>>,
    game: Option<usize>,
}

impl<'a> Lines<'a> {
    fn fail(&self, line: Option<usize>, fault: WarFault) -> WarError {
        WarError {
            game: self.game,
            line,
            fault,
        }
    }

    /// The next non-blank line, which must hold `count` whole numbers (`what` names them).
    fn numbers(
        &mut self,
        count: usize,
        what: &'static str,
        missing: impl FnOnce() -> String,
    ) -> Result<(usize, Vec<i64>), WarError> {
        let (index, text) = loop {
            match self.inner.next() {
                Some((i, text)) if !text.trim().is_empty() => break (i + 1, text),
                Some(_) => continue,
                None => return Err(self.fail(None, WarFault::Truncated(missing()))),
            }
        };
        let items: Vec<&str> = text.split_whitespace().collect();
        if items.len() != count {
            return Err(self.fail(
                Some(index),
                WarFault::WrongItemCount {
                    expected: what,
                    found: items.len(),
                },
            ));
        }
        let numbers = items
            .iter()
            .map(|t| {
                t.parse::<i64>()
                    .map_err(|_| self.fail(Some(index), WarFault::NotANumber(t.to_string())))
            })
            .collect::<Result<_, _>>()?;
        Ok((index, numbers))
    }
}

/// Parses and plays every game of `text` on `board`; returns the final positions, or the first fault.
pub fn parse_games(board: &DotsBoard, text: &str) -> Result<Vec<Position>, WarError> {
    let mut lines = Lines {
        inner: text.lines().enumerate(),
        game: None,
    };
    if text.trim().is_empty() {
        return Err(lines.fail(None, WarFault::Empty));
    }
    let (line, count) = lines.numbers(1, "one number (the number of games)", String::new)?;
    if count[0] < 1 {
        return Err(lines.fail(Some(line), WarFault::GameCount(count[0])));
    }
    let games = count[0] as usize;
    let mut positions = Vec::with_capacity(games.min(1 << 20));
    for game in 1..=games {
        lines.game = Some(game);
        let (line, m) = lines.numbers(1, "one number (the number of moves)", || {
            format!("the move count of game {game} of {games}")
        })?;
        let m = m[0];
        if !MOVES_PER_GAME.contains(&m) {
            return Err(lines.fail(Some(line), WarFault::MoveCount(m)));
        }
        let mut position = Position::new(board);
        for k in 1..=m {
            let (line, dots) =
                lines.numbers(2, "two dot numbers (a move)", || format!("move {k} of {m}"))?;
            let (a, b) = (dots[0], dots[1]);
            edge_of(board, a, b)
                .and_then(|edge| play_checked(board, &mut position, edge))
                .map_err(|fault| lines.fail(Some(line), WarFault::Move(fault)))?;
        }
        positions.push(position);
    }
    lines.game = None;
    if let Some((i, text)) = lines.inner.find(|(_, t)| !t.trim().is_empty()) {
        return Err(lines.fail(
            Some(i + 1),
            WarFault::Trailing {
                text: text.trim().to_string(),
                games,
            },
        ));
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
