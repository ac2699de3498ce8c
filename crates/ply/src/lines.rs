//! Line-structured numeric input, as in contest formats: each record is a line holding a known number
//! of whole numbers. Blank lines are skipped; every fault says which line it is on.

use std::fmt;
use thiserror::Error;

/// What is wrong with one line (or with the lack of one).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum LineFault {
    /// A token that is not a whole number.
    #[error("`{0}` is not a whole number")]
    NotANumber(String),
    /// A whole number too large for any count or size (beyond 128 bits).
    #[error("`{0}` is too large")]
    TooLarge(String),
    /// A line with the wrong number of items.
    #[error("expected {expected}, found {found} item{}", if *.found == 1 { "" } else { "s" })]
    WrongItemCount {
        /// What the line should hold.
        expected: String,
        /// How many items it holds.
        found: usize,
    },
    /// The input ended where a line was expected.
    #[error("the input ends before {0}")]
    Truncated(String),
}

/// Where a fault is: the record (e.g. `game 2`) and the line, when known.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Place {
    /// The kind of record (`"game"`, `"test"`) and its 1-based number.
    pub record: Option<(&'static str, usize)>,
    /// 1-based line number.
    pub line: Option<usize>,
}

impl fmt::Display for Place {
    /// `game 2, line 9: `, `game 2: `, `line 9: ` or nothing.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.record, self.line) {
            (Some((noun, n)), Some(l)) => write!(f, "{noun} {n}, line {l}: "),
            (Some((noun, n)), None) => write!(f, "{noun} {n}: "),
            (None, Some(l)) => write!(f, "line {l}: "),
            (None, None) => Ok(()),
        }
    }
}

/// Reads lines of whole numbers from a text.
pub struct NumberLines<'a> {
    inner: std::iter::Enumerate<std::str::Lines<'a>>,
    /// The number of the last line read.
    last: usize,
}

impl<'a> NumberLines<'a> {
    /// A reader over `text`.
    pub fn new(text: &'a str) -> Self {
        NumberLines {
            inner: text.lines().enumerate(),
            last: 0,
        }
    }

    /// The next non-blank line, which must hold exactly `count` whole numbers (`what` names them, for
    /// the message); `missing` names what was expected if the input ends first.
    /// Returns the line number and the numbers.
    pub fn numbers(
        &mut self,
        count: usize,
        what: &str,
        missing: impl FnOnce() -> String,
    ) -> Result<(usize, Vec<i128>), (Option<usize>, LineFault)> {
        let last = self.last;
        let (line, text) = self
            .inner
            .find(|(_, t)| !t.trim().is_empty())
            .map(|(i, t)| (i + 1, t))
            .ok_or_else(|| {
                (
                    None,
                    LineFault::Truncated(format!("{} (after line {last})", missing())),
                )
            })?;
        self.last = line;
        let found = text.split_whitespace().count();
        if found != count {
            return Err((
                Some(line),
                LineFault::WrongItemCount {
                    expected: what.to_string(),
                    found,
                },
            ));
        }
        let numbers = text
            .split_whitespace()
            .map(|t| parse_whole(t).map_err(|fault| (Some(line), fault)))
            .collect::<Result<_, _>>()?;
        Ok((line, numbers))
    }

    /// The first non-blank line left, if any, with its number: for "unexpected data" faults.
    pub fn next_non_blank(&mut self) -> Option<(usize, &'a str)> {
        self.inner
            .find(|(_, t)| !t.trim().is_empty())
            .map(|(i, t)| (i + 1, t.trim()))
    }
}

/// Why a count of records is refused: below 1, or too large to hold.
pub fn count_fault(what: &str, count: i128) -> String {
    if count < 1 {
        format!("the number of {what} must be at least 1, got {count}")
    } else {
        format!("the number of {what} is too large: {count}")
    }
}

/// Parses a whole number of at most 128 bits, telling a too-large number from a non-number.
pub fn parse_whole(token: &str) -> Result<i128, LineFault> {
    token.parse::<i128>().map_err(|_| {
        let digits = token.strip_prefix(['-', '+']).unwrap_or(token);
        if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
            LineFault::TooLarge(token.to_string())
        } else {
            LineFault::NotANumber(token.to_string())
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_counted_lines() {
        let mut lines =
            NumberLines::new("2\n\n 3 -4 \n1 x\n9 99999999999999999999999999999999999999999\n");
        assert_eq!(lines.numbers(1, "a count", String::new), Ok((1, vec![2])));
        assert_eq!(lines.numbers(2, "two", String::new), Ok((3, vec![3, -4])));
        assert_eq!(
            lines.numbers(2, "two", String::new),
            Err((Some(4), LineFault::NotANumber("x".into())))
        );
        let too_large = "99999999999999999999999999999999999999999".to_string();
        assert_eq!(
            lines.numbers(2, "two", String::new),
            Err((Some(5), LineFault::TooLarge(too_large)))
        );
        assert_eq!(
            lines.numbers(1, "one", || "the end".into()),
            Err((None, LineFault::Truncated("the end (after line 5)".into())))
        );
        let place = Place {
            record: Some(("game", 2)),
            line: Some(9),
        };
        assert_eq!(place.to_string(), "game 2, line 9: ");
    }
}
