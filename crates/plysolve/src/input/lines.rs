//! Line-structured numeric input, as in contest formats: each record is a line holding a known number
//! of whole numbers (separated by white space or commas). Blank lines are skipped; every fault says
//! which line it is on.
//!
//! The input is read as a stream through [`Lines`]: a line may hold at most [`LINE_BYTES`] bytes
//! plus [`BYTES_PER_NUMBER`] for each number it should hold (blank lines before it included), so an
//! endless or binary input is refused at its first impossible line or byte. A reader given a memory
//! budget ([`NumberLines::within`], [`read_records`]) also refuses, before reading on, a line or a
//! count of records whose numbers or answers could not be held in it.

use super::number::{items, parse_int, EmptyItem, IntFault};
use super::{quote, Lines, ReadError, ReadFault};
use crate::engine::util::memory::{MemoryBudget, MemoryError};
use std::fmt;
use std::io::BufRead;
use thiserror::Error;

/// Bytes every line may hold besides [`BYTES_PER_NUMBER`] per number: room for any spacing.
pub const LINE_BYTES: usize = 4096;
/// Bytes a line may hold for each number it should hold (a 128-bit number has at most 40).
pub const BYTES_PER_NUMBER: usize = 64;

/// The most bytes a line that should hold `count` numbers may have.
pub fn line_limit(count: usize) -> usize {
    count
        .saturating_mul(BYTES_PER_NUMBER)
        .saturating_add(LINE_BYTES)
}

/// What is wrong with one line (or with the lack of one).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum LineFault {
    /// Two commas with nothing between them, or one first or last.
    #[error(transparent)]
    EmptyItem(#[from] EmptyItem),
    /// A token that is not a whole number.
    #[error("{} is not a whole number", quote(.0))]
    NotANumber(String),
    /// A whole number too large for any count or size (beyond 128 bits).
    #[error("{} is too large", quote(.0))]
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
    /// Bytes that no valid input holds, or a line longer than any valid line.
    #[error(transparent)]
    Read(ReadFault),
    /// A line declared to hold more numbers than the memory budget can keep.
    #[error(transparent)]
    Memory(Box<MemoryError>),
}

/// Bytes a number read from a line takes at the least: its 16 in memory, one digit and one separator
/// in the line's text.
pub const HELD_PER_NUMBER: u64 = 18;

/// Bytes a reader may hold without asking its budget: the small change of reading, which the
/// budget's margin for the rest of the process covers (a budget of 0 under a tight `ulimit -v` still
/// reads a count line).
pub const UNCHECKED_BYTES: u128 = 1 << 16;

/// `Ok` when there is no budget (text already in memory bounds itself), or `needed` bytes are small
/// change ([`UNCHECKED_BYTES`]) or fit `budget`.
fn within(
    budget: Option<MemoryBudget>,
    needed: u128,
    what: impl FnOnce() -> String,
) -> Result<(), Box<MemoryError>> {
    match budget {
        Some(budget) if needed > UNCHECKED_BYTES => budget.check(needed, what).map_err(Box::new),
        _ => Ok(()),
    }
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

/// A fault with its line, when there is one.
pub type LineError = (Option<usize>, LineFault);

impl From<ReadError> for (Option<usize>, LineFault) {
    fn from(e: ReadError) -> Self {
        (Some(e.line), LineFault::Read(e.fault))
    }
}

/// Reads lines of whole numbers from a stream.
pub struct NumberLines<R> {
    lines: Lines<R>,
    /// The number of the last non-blank line read.
    last: usize,
    /// What the numbers of one line may take, text and values (none for text in memory).
    budget: Option<MemoryBudget>,
}

impl<R: BufRead> NumberLines<R> {
    /// A reader over `source` whose lines are bounded only by what they should hold (for text
    /// already in memory, which bounds them itself).
    pub fn new(source: R) -> Self {
        NumberLines {
            lines: Lines::new(source),
            last: 0,
            budget: None,
        }
    }

    /// A reader over `source` (a stream, which may be endless) that refuses a line declared to hold
    /// more numbers than `budget` can keep, and reads no line past what is left of it.
    pub fn within(source: R, budget: MemoryBudget) -> Self {
        NumberLines {
            budget: Some(budget),
            ..NumberLines::new(source)
        }
    }

    /// The next non-blank line with its number, of at most `limit` bytes with the blank lines before
    /// it; `None` at the end of the input.
    pub fn line(&mut self, limit: usize) -> Result<Option<(usize, &str)>, ReadError> {
        let mut used = 0usize;
        loop {
            let room = limit.saturating_sub(used);
            let blank_len = match self.lines.next_line(room) {
                Ok(Some(line)) => line.trim_ascii().is_empty().then_some(line.len()),
                Ok(None) => return Ok(None),
                // A run of blank lines past the limit is reported as one over-long line.
                Err(ReadError {
                    line,
                    fault: ReadFault::LineTooLong { .. },
                }) => {
                    return Err(ReadError {
                        line,
                        fault: ReadFault::LineTooLong { limit },
                    })
                }
                Err(e) => return Err(e),
            };
            match blank_len {
                Some(len) => {
                    used = used.saturating_add(len + 1);
                    if used > limit {
                        return Err(ReadError {
                            line: self.lines.line_number(),
                            fault: ReadFault::LineTooLong { limit },
                        });
                    }
                }
                None => {
                    self.last = self.lines.line_number();
                    return Ok(Some((self.last, self.lines.current())));
                }
            }
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
    ) -> Result<(usize, Vec<i128>), LineError> {
        let last = self.last;
        let held = count as u128 * u128::from(HELD_PER_NUMBER);
        within(self.budget, held, || format!("a line of {count} numbers"))
            .map_err(|e| (None, LineFault::Memory(e)))?;
        // The line's text may take what its numbers' values leave of the budget.
        let limit = match self.budget {
            Some(budget) => {
                let values = count as u128 * std::mem::size_of::<i128>() as u128;
                let room = u128::from(budget.bytes()).max(UNCHECKED_BYTES) - values;
                line_limit(count).min(usize::try_from(room).unwrap_or(usize::MAX))
            }
            None => line_limit(count),
        };
        let (line, text) = self.line(limit)?.ok_or_else(|| {
            (
                None,
                LineFault::Truncated(format!("{} (after line {last})", missing())),
            )
        })?;
        let mut found = 0;
        for item in items(text) {
            item.map_err(|e| (Some(line), e.into()))?;
            found += 1;
        }
        if found != count {
            return Err((
                Some(line),
                LineFault::WrongItemCount {
                    expected: what.to_string(),
                    found,
                },
            ));
        }
        let numbers = items(text)
            .map(|t| parse_whole(t.expect("checked above")).map_err(|fault| (Some(line), fault)))
            .collect::<Result<_, _>>()?;
        Ok((line, numbers))
    }

    /// The first non-blank line left, if any, with its number (trimmed): for "unexpected data" faults.
    pub fn next_non_blank(&mut self) -> Result<Option<(usize, &str)>, LineError> {
        Ok(self.line(LINE_BYTES)?.map(|(n, t)| (n, t.trim_ascii())))
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
    parse_int(token).map_err(|fault| match fault {
        IntFault::OutOfRange => LineFault::TooLarge(token.to_string()),
        IntFault::NotANumber => LineFault::NotANumber(token.to_string()),
    })
}

/// What a contest format calls its records, one and many: `game`/`games`, `test`/`tests`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RecordNames {
    /// One record, as places name it (`game 2, line 9: `).
    pub one: &'static str,
    /// Records, as counts name them.
    pub many: &'static str,
}

/// What is wrong in a contest input: the format's own faults (the count, a line, what follows the
/// last record) or a record's, `F`.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ContestFault<F> {
    /// Nothing but white space.
    #[error("the input is empty (expected the number of {})", .names.many)]
    Empty {
        /// The records' names.
        names: RecordNames,
    },
    /// A line that does not hold the numbers it should.
    #[error(transparent)]
    Line(LineFault),
    /// A record count below 1 or beyond memory.
    #[error("{}", count_fault(.names.many, *.count))]
    Count {
        /// The records' names.
        names: RecordNames,
        /// The count given.
        count: i128,
    },
    /// A record count whose records and answers the memory budget cannot hold.
    #[error(transparent)]
    Memory(Box<MemoryError>),
    /// A record's own fault.
    #[error("{0}")]
    Record(F),
    /// More lines after the last record.
    #[error("unexpected {} after the last {} ({count} declared)", quote(.text), .names.one)]
    Trailing {
        /// The records' names.
        names: RecordNames,
        /// The first extra line.
        text: String,
        /// Records declared.
        count: usize,
    },
}

/// A contest fault with its place: the record and the line, when known.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{place}{fault}")]
pub struct ContestError<F> {
    /// Where.
    pub place: Place,
    /// What.
    pub fault: ContestFault<F>,
}

/// A fault inside one record, with its line when known.
pub type RecordError<F> = (Option<usize>, ContestFault<F>);

/// A line's fault inside a record.
pub fn line_fault<F>((line, fault): LineError) -> RecordError<F> {
    (line, ContestFault::Line(fault))
}

/// A record's own fault on `line`.
pub fn record_fault<F>(line: usize, fault: F) -> RecordError<F> {
    (Some(line), ContestFault::Record(fault))
}

/// Reads a contest format from `source`: a line with the number of records, each record by
/// `record(lines, k, count)` (`k` 1-based), then nothing but blank lines. The reading stops at the
/// first fault, so an endless or binary input is refused at once; a count whose records, at
/// `per_record` bytes each (the record and what its answer will take), `budget` cannot hold is
/// refused before any is read, and so is a line whose numbers it cannot hold (no budget: text
/// already in memory, which bounds what it can declare).
pub fn read_records<R: BufRead, T, F>(
    source: R,
    names: RecordNames,
    budget: Option<MemoryBudget>,
    per_record: u64,
    mut record: impl FnMut(&mut NumberLines<R>, usize, usize) -> Result<T, RecordError<F>>,
) -> Result<Vec<T>, ContestError<F>> {
    let at = |record: Option<usize>, (line, fault): RecordError<F>| ContestError {
        place: Place {
            record: record.map(|k| (names.one, k)),
            line,
        },
        fault,
    };
    let mut lines = NumberLines {
        budget,
        ..NumberLines::new(source)
    };
    let what = format!("one number (the number of {})", names.many);
    let (line, count) = lines.numbers(1, &what, String::new).map_err(|e| match e {
        (None, LineFault::Truncated(_)) => at(None, (None, ContestFault::Empty { names })),
        e => at(None, line_fault(e)),
    })?;
    let count = match usize::try_from(count[0]) {
        Ok(count) if count >= 1 => count,
        _ => {
            let fault = ContestFault::Count {
                names,
                count: count[0],
            };
            return Err(at(None, (Some(line), fault)));
        }
    };
    within(budget, count as u128 * u128::from(per_record), || {
        format!("keeping the answers of {count} {}", names.many)
    })
    .map_err(|e| at(None, (Some(line), ContestFault::Memory(e))))?;
    // Room for a few records only: the rest grows with the records read, not the count declared.
    let mut records = Vec::with_capacity(count.min(1 << 10));
    for k in 1..=count {
        records.push(record(&mut lines, k, count).map_err(|e| at(Some(k), e))?);
    }
    if let Some((line, text)) = lines
        .next_non_blank()
        .map_err(|e| at(None, line_fault(e)))?
    {
        let trailing = ContestFault::Trailing {
            names,
            text: text.to_string(),
            count,
        };
        return Err(at(None, (Some(line), trailing)));
    }
    Ok(records)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_counted_lines() {
        let mut lines = NumberLines::new(
            &b"2\n\n 3 -4 \n1 x\n9 99999999999999999999999999999999999999999\n"[..],
        );
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

    #[test]
    fn an_empty_item_is_refused_before_the_count() {
        let mut lines = NumberLines::new(&b"1,,2\n"[..]);
        let fault = lines.numbers(3, "three", String::new).unwrap_err();
        assert_eq!(fault, (Some(1), LineFault::EmptyItem(EmptyItem(2))));
        assert_eq!(fault.1.to_string(), "item 2 is empty");
    }

    #[test]
    fn counts_and_lines_beyond_the_memory_budget_are_refused_before_they_are_read() {
        const ITEMS: RecordNames = RecordNames {
            one: "item",
            many: "items",
        };
        let budget = MemoryBudget::new(100_000);
        // A thousand records of 100 bytes fit; 1001 do not, whatever follows.
        let read = |text: &str| {
            read_records(text.as_bytes(), ITEMS, Some(budget), 100, |lines, _, _| {
                let two = || "two numbers".to_string();
                let (_, numbers) = lines.numbers(2, "two", two).map_err(line_fault)?;
                Ok::<_, RecordError<String>>(numbers[0] + numbers[1])
            })
        };
        assert_eq!(read("1\n2 3\n"), Ok(vec![5]));
        assert_eq!(
            read("1000\n2 3\n").unwrap_err().to_string(),
            "item 2: the input ends before two numbers (after line 2)"
        );
        assert_eq!(
            read("\n1001\n2 3\n").unwrap_err().to_string(),
            "line 2: keeping the answers of 1001 items needs 97.8 KiB (100100 bytes) but the \
             memory budget is 97.7 KiB (100000 bytes)"
        );
        // A line's numbers take at least 18 bytes each: 5555 fit, 5556 do not.
        let mut lines = NumberLines::within(&b"1\n"[..], budget);
        assert_eq!(
            lines
                .numbers(5556, "many", String::new)
                .unwrap_err()
                .1
                .to_string(),
            "a line of 5556 numbers needs 97.7 KiB (100008 bytes) but the memory budget is 97.7 \
             KiB (100000 bytes)"
        );
        let mut lines = NumberLines::within(&b"1\n"[..], budget);
        assert_eq!(
            lines
                .numbers(5555, "5555 numbers", String::new)
                .unwrap_err()
                .1,
            LineFault::WrongItemCount {
                expected: "5555 numbers".into(),
                found: 1
            }
        );
        // What the values leave of the budget bounds the line's text: 5000 × 16 = 80 000, 20 000
        // left (of the 324 096 bytes such a line may otherwise hold).
        let long = format!("1{}2\n", " ".repeat(25_000));
        let mut lines = NumberLines::within(long.as_bytes(), budget);
        assert_eq!(
            lines.numbers(5000, "5000", String::new).unwrap_err().1,
            LineFault::Read(ReadFault::LineTooLong { limit: 20_000 })
        );
        // Small change is not asked of the budget: a budget of nothing still reads a count.
        let mut lines = NumberLines::within(&b"7\n"[..], MemoryBudget::new(0));
        assert_eq!(lines.numbers(1, "one", String::new), Ok((1, vec![7])));
    }

    #[test]
    fn commas_and_every_line_ending() {
        let mut lines = NumberLines::new(&b"1,2\r\r3 ,4\r\n5"[..]);
        assert_eq!(lines.numbers(2, "two", String::new), Ok((1, vec![1, 2])));
        assert_eq!(lines.numbers(2, "two", String::new), Ok((3, vec![3, 4])));
        assert_eq!(lines.numbers(1, "one", String::new), Ok((4, vec![5])));
        assert_eq!(lines.next_non_blank(), Ok(None));
    }

    #[test]
    fn lines_are_bounded_blank_lines_included() {
        let limit = line_limit(1);
        let long = format!("1{}", " ".repeat(limit));
        let mut lines = NumberLines::new(long.as_bytes());
        let too_long = LineFault::Read(ReadFault::LineTooLong { limit });
        assert_eq!(
            lines.numbers(1, "one", String::new),
            Err((Some(1), too_long.clone()))
        );
        let blank = "\n".repeat(limit + 1) + "1\n";
        let mut lines = NumberLines::new(blank.as_bytes());
        assert_eq!(
            lines.numbers(1, "one", String::new),
            Err((Some(limit + 1), too_long))
        );
        let fine = "\n".repeat(limit - 1) + "1\n";
        let mut lines = NumberLines::new(fine.as_bytes());
        assert_eq!(lines.numbers(1, "one", String::new), Ok((limit, vec![1])));
    }

    #[test]
    fn long_tokens_are_quoted_short() {
        let text = format!("{}x\n", "7".repeat(100));
        let mut lines = NumberLines::new(text.as_bytes());
        let message = lines
            .numbers(1, "one", String::new)
            .unwrap_err()
            .1
            .to_string();
        assert_eq!(
            message,
            format!("`{}…` is not a whole number", "7".repeat(40))
        );
    }
}
