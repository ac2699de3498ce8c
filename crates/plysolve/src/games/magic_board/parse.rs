//! Reading a board: `d` lines of `d` numbers, checked row by row against the size rule and the
//! values' range, every fault naming its row and column.

use super::board::{stride_shift, Board};
use crate::engine::util::memory::{try_grow, MemoryError};
use crate::input::lines::{line_limit, NumberLines};
use crate::input::number::{items, parse_unsigned, IntFault};
use crate::input::{excerpt, quote, ReadError};
use std::io::BufRead;
use std::ops::RangeInclusive;
use thiserror::Error;

/// Board sizes of the original program's rule.
pub const SEED_SIZES: RangeInclusive<usize> = 5..=20;
/// Board sizes allowed under [`SizeRule::Any`].
pub const ANY_SIZES: RangeInclusive<usize> = 2..=4096;

/// A board that breaks a rule, with where: why a board's text does not parse ([`Board::parse`],
/// [`Board::read`]); also the size-rule and memory faults of [`generate`](super::generate) and
/// [`stats`](super::stats), which check a size as a parsed board's is checked.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ParseBoardError {
    /// No numbers at all.
    #[error("the board is empty")]
    Empty,
    /// Two commas with nothing between them, or one first or last.
    #[error("row {row}, column {col} is empty")]
    EmptyItem {
        /// 0-based row.
        row: usize,
        /// 0-based column.
        col: usize,
    },
    /// A token that is not a number.
    #[error("row {row}, column {col}: {} is not a whole number", quote(.token))]
    NotANumber {
        /// 0-based row.
        row: usize,
        /// 0-based column.
        col: usize,
        /// The token.
        token: String,
    },
    /// A row of another length than the first.
    #[error("row {row} has {found} numbers but row 0 has {expected} (rows must be equally long)")]
    Ragged {
        /// 0-based row.
        row: usize,
        /// Its length.
        found: usize,
        /// The first row's length.
        expected: usize,
    },
    /// As many columns as rows is the rule.
    #[error("the board is not square: {rows} rows of {cols} numbers")]
    NotSquare {
        /// Rows.
        rows: usize,
        /// Columns.
        cols: usize,
    },
    /// Far more rows than columns: the rows are counted up to twice the columns only.
    #[error("the board is not square: more than {} rows of {cols} numbers", 2 * .cols)]
    FarFromSquare {
        /// Columns.
        cols: usize,
    },
    /// Bytes no board holds (NUL, binary data, invalid UTF-8) or a line longer than any row.
    #[error(transparent)]
    Read(#[from] ReadError),
    /// A size outside the rule.
    #[error(transparent)]
    Size(SizeFault),
    /// A value outside 0..d−1.
    #[error("row {row}, column {col}: {} is outside 0 to {max} (values must be below the size {d})", excerpt(.value.as_bytes()))]
    OutOfRange {
        /// 0-based row.
        row: usize,
        /// 0-based column.
        col: usize,
        /// The value.
        value: String,
        /// The largest allowed value.
        max: usize,
        /// The size.
        d: usize,
    },
    /// No square holds 0.
    #[error("no square holds 0: the board needs exactly one goal")]
    NoGoal,
    /// The system refused the memory for the board or its searches.
    #[error(transparent)]
    Memory(#[from] MemoryError),
    /// Two squares hold 0.
    #[error("row {row}, column {col} holds a second 0 (the first is at row {first_row}, column {first_col}): the board needs exactly one goal")]
    TwoGoals {
        /// The first goal's row.
        first_row: usize,
        /// The first goal's column.
        first_col: usize,
        /// The second goal's row.
        row: usize,
        /// The second goal's column.
        col: usize,
    },
}

/// A board size outside the rule in force, with the wider rule that allows it, if there is one.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("a board of size {d} breaks the size rule ({} to {})", .rule.start(), .rule.end())]
pub struct SizeFault {
    /// The size.
    pub d: usize,
    /// The sizes the rule allows.
    pub rule: RangeInclusive<usize>,
    /// The sizes a wider rule allows, when a wider rule exists.
    pub wider: Option<RangeInclusive<usize>>,
}

impl SizeFault {
    /// The message with what lifts the rule (a front end's option) named inside its parentheses:
    /// `… (5 to 20; LIFT allows 2 to 4096)`; the plain message when no wider rule exists.
    pub fn lifted_by(&self, lift: &str) -> String {
        match &self.wider {
            Some(wider) => format!(
                "a board of size {} breaks the size rule ({} to {}; {lift} allows {} to {})",
                self.d,
                self.rule.start(),
                self.rule.end(),
                wider.start(),
                wider.end()
            ),
            None => self.to_string(),
        }
    }
}

impl ParseBoardError {
    /// The size fault, if that is what this is.
    pub fn size_fault(&self) -> Option<&SizeFault> {
        match self {
            ParseBoardError::Size(fault) => Some(fault),
            _ => None,
        }
    }
}

/// Which sizes are allowed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SizeRule {
    /// 5 to 20, as in the original program.
    Seed,
    /// 2 to 4096.
    Any,
}

impl SizeRule {
    pub(super) fn check(self, d: usize) -> Result<(), ParseBoardError> {
        let (rule, wider) = match self {
            SizeRule::Seed => (SEED_SIZES, Some(ANY_SIZES)),
            SizeRule::Any => (ANY_SIZES, None),
        };
        if rule.contains(&d) {
            Ok(())
        } else {
            Err(ParseBoardError::Size(SizeFault { d, rule, wider }))
        }
    }
}

impl Board {
    /// Parses `d` lines of `d` integers separated by white space or commas (blank lines are skipped).
    /// The first row sets the size, which is checked against `rule` before the rest is read.
    pub fn parse(text: &str, rule: SizeRule) -> Result<Board, ParseBoardError> {
        Board::read(text.as_bytes(), rule)
    }

    /// [`Board::parse`] over a stream, read row by row: a row may hold at most
    /// [`line_limit`]`(d)` bytes, so an endless or binary input is refused at its first bad line or
    /// byte, and at most twice as many rows as columns are read.
    pub fn read<R: BufRead>(source: R, rule: SizeRule) -> Result<Board, ParseBoardError> {
        let mut lines = NumberLines::new(source);
        let (_, first) = lines
            .line(line_limit(*ANY_SIZES.end()))?
            .ok_or(ParseBoardError::Empty)?;
        let d = items(first)
            .enumerate()
            .map(|(col, item)| {
                item.map(|_| 1)
                    .map_err(|_| ParseBoardError::EmptyItem { row: 0, col })
            })
            .sum::<Result<usize, _>>()?;
        rule.check(d)?;
        let shift = stride_shift(d);
        let squares = (d << shift) as u128;
        let mut values = Vec::new();
        try_grow(&mut values, squares, squares * 2, || {
            format!("a board of {d}×{d} squares")
        })?;
        let mut rows = Rows {
            d,
            shift,
            values,
            goal: None,
        };
        rows.push(first)?;
        for row in 1..d {
            let (_, text) = lines
                .line(line_limit(d))?
                .ok_or(ParseBoardError::NotSquare { rows: row, cols: d })?;
            rows.push(text)?;
        }
        let mut extra = 0;
        while lines.line(line_limit(d))?.is_some() {
            extra += 1;
            if extra == d + 1 {
                return Err(ParseBoardError::FarFromSquare { cols: d });
            }
        }
        if extra > 0 {
            return Err(ParseBoardError::NotSquare {
                rows: d + extra,
                cols: d,
            });
        }
        let (r, c) = rows.goal.ok_or(ParseBoardError::NoGoal)?;
        Ok(Board {
            d,
            shift: rows.shift,
            values: rows.values,
            goal: r << rows.shift | c,
        })
    }
}

/// The rows read so far, checked one at a time.
struct Rows {
    d: usize,
    shift: u32,
    values: Vec<u16>,
    goal: Option<(usize, usize)>,
}

impl Rows {
    /// Checks the next row and appends it, padded to the row stride.
    fn push(&mut self, line: &str) -> Result<(), ParseBoardError> {
        let (d, row) = (self.d, self.values.len() >> self.shift);
        let mut col = 0;
        for token in items(line) {
            let token = token.map_err(|_| ParseBoardError::EmptyItem { row, col })?;
            if col == d {
                return Err(ParseBoardError::Ragged {
                    row,
                    found: items(line).count(),
                    expected: d,
                });
            }
            let value = parse_value(token).ok_or_else(|| ParseBoardError::NotANumber {
                row,
                col,
                token: token.to_string(),
            })?;
            if value >= d as u64 {
                return Err(ParseBoardError::OutOfRange {
                    row,
                    col,
                    value: token.to_string(),
                    max: d - 1,
                    d,
                });
            }
            if value == 0 {
                if let Some((first_row, first_col)) = self.goal {
                    return Err(ParseBoardError::TwoGoals {
                        first_row,
                        first_col,
                        row,
                        col,
                    });
                }
                self.goal = Some((row, col));
            }
            self.values.push(value as u16);
            col += 1;
        }
        if col != d {
            return Err(ParseBoardError::Ragged {
                row,
                found: col,
                expected: d,
            });
        }
        self.values.resize((row + 1) << self.shift, 0);
        Ok(())
    }
}

/// A non-negative decimal number (a leading `+` allowed); saturates, since beyond the size it is out
/// of range all the same.
fn parse_value(token: &str) -> Option<u64> {
    match parse_unsigned(token) {
        Ok(value) => Some(u64::try_from(value).unwrap_or(u64::MAX)),
        Err(IntFault::OutOfRange) => Some(u64::MAX),
        Err(IntFault::NotANumber) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    const EXAMPLE: &str = "4 4 4 1 1\n2 4 1 4 3\n0 2 1 3 2\n3 2 3 2 3\n3 4 2 2 1\n";

    #[test]
    fn rule_errors() {
        let err = |t: &str| Board::parse(t, SizeRule::Seed).unwrap_err().to_string();
        assert_eq!(err(""), "the board is empty");
        assert_eq!(err("4,,4 4 1 1\n"), "row 0, column 1 is empty");
        assert_eq!(err("4 4 4 1 1\n2 4 1 4 3,\n"), "row 1, column 5 is empty");
        assert_eq!(
            err("1 1\n0 1\n"),
            "a board of size 2 breaks the size rule (5 to 20)"
        );
        let fault = Board::parse("1 1\n0 1\n", SizeRule::Seed).unwrap_err();
        assert_eq!(
            fault.size_fault().map(|f| f.lifted_by("the wide rule")),
            Some(
                "a board of size 2 breaks the size rule (5 to 20; the wide rule allows 2 to 4096)"
                    .into()
            )
        );
        // One change to the example board each, and what is wrong with it.
        let edits = [
            (
                ("0 2 1 3 2", "0 2 1 3 5"),
                "row 2, column 4: 5 is outside 0 to 4 (values must be below the size 5)",
            ),
            (
                ("0 2 1 3 2", "0 2 1 3"),
                "row 2 has 4 numbers but row 0 has 5 (rows must be equally long)",
            ),
            (
                ("3 4 2 2 1\n", ""),
                "the board is not square: 4 rows of 5 numbers",
            ),
            (
                ("0 2 1 3 2", "1 2 1 3 2"),
                "no square holds 0: the board needs exactly one goal",
            ),
            (
                ("3 2 3 2 3", "3 2 0 2 3"),
                "row 3, column 2 holds a second 0 (the first is at row 2, column 0): the board needs exactly one goal",
            ),
            (
                ("3 2 3 2 3", "3 2 x 2 3"),
                "row 3, column 2: `x` is not a whole number",
            ),
            (
                ("4 4 4 1 1", "4 4 9 1 1"),
                "row 0, column 2: 9 is outside 0 to 4 (values must be below the size 5)",
            ),
        ];
        for ((from, to), expected) in edits {
            let bad = EXAMPLE.replace(from, to);
            assert_ne!(bad, EXAMPLE, "{from:?} is in the example");
            assert_eq!(err(&bad), expected, "{from:?} → {to:?}");
        }
    }

    #[test]
    fn commas_line_endings_and_bad_bytes() {
        let expected = Board::parse(EXAMPLE, SizeRule::Seed).unwrap();
        let commas = EXAMPLE.replace(' ', ",");
        assert_eq!(Board::parse(&commas, SizeRule::Seed), Ok(expected.clone()));
        let cr = EXAMPLE.replace('\n', "\r");
        assert_eq!(Board::parse(&cr, SizeRule::Seed), Ok(expected.clone()));
        let crlf = EXAMPLE.replace('\n', "\r\n");
        assert_eq!(Board::parse(&crlf, SizeRule::Seed), Ok(expected));
        let err = |t: &[u8]| Board::read(t, SizeRule::Seed).unwrap_err().to_string();
        assert_eq!(
            err(&[0; 64]),
            "line 1: byte 0 of the input is `\\0`, which no valid input holds"
        );
        assert_eq!(
            err(b"4 4 4 1 1\n2 4 \xff 4 3\n"),
            "line 2: byte 14 of the input starts invalid UTF-8 (`\\xff`)"
        );
        let tall = EXAMPLE.to_string() + &"1 1 1 1 1\n".repeat(100);
        assert_eq!(
            err(tall.as_bytes()),
            "the board is not square: more than 10 rows of 5 numbers"
        );
        let tall = EXAMPLE.to_string() + &"1 1 1 1 1\n".repeat(5);
        assert_eq!(
            err(tall.as_bytes()),
            "the board is not square: 10 rows of 5 numbers"
        );
    }
}
