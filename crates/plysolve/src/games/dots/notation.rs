//! Move notation: an edge is written by its two dots, `2-4`, `2 4` or `2,4`, dots numbered from 1;
//! moves are separated by spaces, commas or newlines.

use super::board::{DotsBoard, Edge};
use super::position::{PlayError, Position};
use crate::input::lines::BYTES_PER_NUMBER;
use crate::input::number::{items, parse_int};
use crate::input::quote;
use thiserror::Error;

/// Why one written move is not a legal move on the board.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MoveFault {
    /// A token that is not a dot number.
    #[error("{} is not a dot number", quote(.0))]
    NotANumber(String),
    /// Two commas with nothing between them, or one first or last.
    #[error("an empty item")]
    EmptyItem,
    /// A lone number at the end of the list.
    #[error("a move needs two dots, this one has one")]
    MissingDot,
    /// A token with more or fewer than two dots around its dash.
    #[error("{} is not a move (write two dots: 2-4, 2 4 or 2,4)", quote(.0))]
    Malformed(String),
    /// A dot number outside the board.
    #[error("dot {dot} does not exist (this board has dots 1 to {dots})")]
    UnknownDot {
        /// The number written.
        dot: i128,
        /// How many dots the board has.
        dots: u32,
    },
    /// Two dots with no edge between them.
    #[error("dots {a} and {b} are not joined by an edge")]
    NotJoined {
        /// First dot as written.
        a: i128,
        /// Second dot as written.
        b: i128,
    },
    /// An edge drawn a second time.
    #[error("edge {a}-{b} is already drawn (by move {earlier})")]
    AlreadyDrawn {
        /// Smaller dot.
        a: u32,
        /// Larger dot.
        b: u32,
        /// The move that drew it first (1-based).
        earlier: usize,
    },
}

/// A move list that does not parse or does not play: which move, as written, and why.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub struct MoveError {
    /// 1-based position of the move in the list.
    pub number: usize,
    /// The move as written.
    pub text: String,
    /// What is wrong with it.
    pub fault: MoveFault,
}

impl std::fmt::Display for MoveError {
    /// `move 2 `2-x`: `x` is not a dot number`; the move quoted once when the fault's quote of it
    /// would be the same (`move 1: `2--3` is not a move …`, or the same first 40 characters).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let number = self.number;
        match &self.fault {
            MoveFault::NotANumber(token) | MoveFault::Malformed(token)
                if quote(token) == quote(&self.text) =>
            {
                write!(f, "move {number}: {}", self.fault)
            }
            fault => write!(f, "move {number} {}: {fault}", quote(&self.text)),
        }
    }
}

/// One move as written: its text and its two dot numbers (1-based, unchecked).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WrittenMove {
    /// The text of the move.
    pub text: String,
    /// First dot.
    pub a: i128,
    /// Second dot.
    pub b: i128,
}

/// Splits a move list into moves without looking at any board.
pub fn parse_moves(text: &str) -> Result<Vec<WrittenMove>, MoveError> {
    let text = join_dashes(text);
    let tokens = items(&text);
    let mut moves = Vec::new();
    let mut pending: Option<(&str, i128)> = None;
    let fail = |number: usize, text: &str, fault| MoveError {
        number,
        text: text.to_string(),
        fault,
    };
    for token in tokens {
        let number = moves.len() + 1;
        let token = token.map_err(|_| fail(number, ",", MoveFault::EmptyItem))?;
        if token.contains('-') {
            if let Some((first, _)) = pending {
                return Err(fail(number, first, MoveFault::MissingDot));
            }
            let parts: Vec<&str> = token.split('-').collect();
            if parts.len() != 2 || parts.iter().any(|p| p.is_empty()) {
                return Err(fail(number, token, MoveFault::Malformed(token.into())));
            }
            let a = dot_number(parts[0]).map_err(|f| fail(number, token, f))?;
            let b = dot_number(parts[1]).map_err(|f| fail(number, token, f))?;
            moves.push(WrittenMove {
                text: token.into(),
                a,
                b,
            });
        } else {
            let n = dot_number(token).map_err(|f| fail(number, token, f))?;
            match pending.take() {
                None => pending = Some((token, n)),
                Some((first, a)) => moves.push(WrittenMove {
                    text: format!("{first} {token}"),
                    a,
                    b: n,
                }),
            }
        }
    }
    if let Some((first, _)) = pending {
        return Err(fail(moves.len() + 1, first, MoveFault::MissingDot));
    }
    Ok(moves)
}

/// Removes white space around dashes, so that `2 - 4` reads as `2-4`.
fn join_dashes(text: &str) -> String {
    let mut joined = String::with_capacity(text.len());
    let mut after_dash = false;
    for c in text.chars() {
        if c == '-' {
            joined.truncate(joined.trim_ascii_end().len());
            after_dash = true;
        } else if c.is_ascii_whitespace() && after_dash {
            continue;
        } else {
            after_dash = false;
        }
        joined.push(c);
    }
    joined
}

fn dot_number(token: &str) -> Result<i128, MoveFault> {
    parse_int(token).map_err(|_| MoveFault::NotANumber(token.into()))
}

/// The edge joining dots `a` and `b` (1-based, either order) on `board`.
pub fn edge_of(board: &DotsBoard, a: i128, b: i128) -> Result<Edge, MoveFault> {
    for dot in [a, b] {
        if dot < 1 || dot > board.dots() as i128 {
            return Err(MoveFault::UnknownDot {
                dot,
                dots: board.dots(),
            });
        }
    }
    board
        .edge_between(a as u32 - 1, b as u32 - 1)
        .ok_or(MoveFault::NotJoined { a, b })
}

/// Plays the edge joining dots `a` and `b` (1-based, as written) on `position`: the faults of
/// [`edge_of`], and a repeated edge as [`MoveFault::AlreadyDrawn`].
pub fn play_checked(
    board: &DotsBoard,
    position: &mut Position,
    a: i128,
    b: i128,
) -> Result<(), MoveFault> {
    let edge = edge_of(board, a, b)?;
    position.play(board, edge).map(drop).map_err(|e| match e {
        PlayError::AlreadyDrawn { by_move } => {
            let (a, b) = board.endpoints(edge);
            MoveFault::AlreadyDrawn {
                a: a + 1,
                b: b + 1,
                earlier: by_move,
            }
        }
        // `edge_of` gives only edges of the board.
        PlayError::NoSuchEdge(_) => MoveFault::NotJoined { a, b },
    })
}

/// The most bytes a written move list for `board` can hold: a game has at most one move per edge,
/// and a move at most two numbers, plus room for any spacing. Readers of move files stop past it.
pub fn max_moves_text(board: &DotsBoard) -> usize {
    (board.edge_count() * 2 * BYTES_PER_NUMBER).saturating_add(crate::input::lines::LINE_BYTES)
}

/// Parses a move list and plays it from the empty board.
pub fn position_from_moves(board: &DotsBoard, text: &str) -> Result<Position, MoveError> {
    let mut position = Position::new(board);
    for (i, written) in parse_moves(text)?.into_iter().enumerate() {
        play_checked(board, &mut position, written.a, written.b).map_err(|fault| MoveError {
            number: i + 1,
            text: written.text.clone(),
            fault,
        })?;
    }
    Ok(position)
}

/// The edge as users write it: `2-5`, smaller dot first, 1-based.
pub fn format_edge(board: &DotsBoard, edge: Edge) -> String {
    let (a, b) = board.endpoints(edge);
    format!("{}-{}", a + 1, b + 1)
}

/// The edge a single move `name` (`2-5`, as [`format_edge`] writes it) names on `board`, if it
/// names one: how the library reads back the moves its own reports name.
pub fn edge_named(board: &DotsBoard, name: &str) -> Option<Edge> {
    let [written] = <[WrittenMove; 1]>::try_from(parse_moves(name).ok()?).ok()?;
    edge_of(board, written.a, written.b).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::dots::Geometry;

    fn classic() -> DotsBoard {
        Geometry::CLASSIC_TRIANGLES.build().unwrap().board
    }

    #[test]
    fn all_three_spellings_and_separators() {
        let moves = parse_moves("2-4, 4 5\n5,9 3 -\n 6").unwrap();
        let pairs: Vec<(i128, i128)> = moves.iter().map(|m| (m.a, m.b)).collect();
        assert_eq!(pairs, vec![(2, 4), (4, 5), (5, 9), (3, 6)]);
        assert_eq!(moves[1].text, "4 5");
        assert!(parse_moves("").unwrap().is_empty());
    }

    #[test]
    fn faults_name_the_move() {
        let err = |text: &str| {
            position_from_moves(&classic(), text)
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            err("2-4 4-11"),
            "move 2 `4-11`: dot 11 does not exist (this board has dots 1 to 10)"
        );
        assert_eq!(
            err("1-5"),
            "move 1 `1-5`: dots 1 and 5 are not joined by an edge"
        );
        assert_eq!(
            err("2-4 5 4 4-2"),
            "move 3 `4-2`: edge 2-4 is already drawn (by move 1)"
        );
        assert_eq!(err("2-4 x-5"), "move 2 `x-5`: `x` is not a dot number");
        assert_eq!(err("2-4,,4-5"), "move 2 `,`: an empty item");
        assert_eq!(err(",2-4"), "move 1 `,`: an empty item");
        // The move quoted once when its fault quotes all of it (or the same first 40 characters).
        assert_eq!(err("2 x"), "move 1: `x` is not a dot number");
        assert_eq!(err("2--4"), "move 1: `2--4` is not a move (write two dots: 2-4, 2 4 or 2,4)");
        let long = "7".repeat(50);
        assert_eq!(
            err(&format!("{long}-2")),
            format!("move 1: `{}…` is not a dot number", "7".repeat(40))
        );
        assert_eq!(
            err("2-4 5"),
            "move 2 `5`: a move needs two dots, this one has one"
        );
        assert_eq!(
            err("2 4-5"),
            "move 1 `2`: a move needs two dots, this one has one"
        );
        assert_eq!(
            err("2-4-5"),
            "move 1: `2-4-5` is not a move (write two dots: 2-4, 2 4 or 2,4)"
        );
        assert_eq!(
            err("0 1"),
            "move 1 `0 1`: dot 0 does not exist (this board has dots 1 to 10)"
        );
        assert_eq!(
            err("3 3"),
            "move 1 `3 3`: dots 3 and 3 are not joined by an edge"
        );
    }
}
