//! Lowest-heap Nim (the original program 001; Codeforces 1382B "Sequential Nim"): heaps 1..n, each
//! with at least one counter; a move takes any positive number of counters from the lowest-numbered
//! non-empty heap. Under normal play whoever takes the last counter wins; under misère play whoever
//! does loses.
//!
//! The closed form works heap by heap from the last: with `next` the outcome once heap i is empty,
//! a heap of one counter is forced (its outcome is `next` seen from the other side), and a heap of two or
//! more is a win — take it all if `next` is lost for the one who then moves, else leave one. The
//! explicit game ([`LowestHeapGame`]) lets the engine's generic solver prove it. [`request`] holds the
//! questions as every front end asks them, [`player`] the perfect player, [`play`] a game as it is
//! played (takes checked and graded, the turn, the end and the winner).

pub mod door;
pub mod play;
pub mod player;
pub mod request;

use crate::engine::impartial::{Convention, ImpartialGame, Outcome};
use crate::engine::util::memory::MemoryBudget;
use crate::input::lines::{
    count_fault, line_fault, parse_whole, read_records, record_fault, ContestError, LineFault,
    RecordNames,
};
use crate::input::number::{items, EmptyItem};
use crate::input::{excerpt, quote};
use serde::Serialize;
use std::io::BufRead;
use thiserror::Error;

/// A winning move: take `take` counters from heap `heap` (1-based).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Take {
    /// 1-based heap number.
    pub heap: usize,
    /// Counters taken.
    pub take: u64,
}

/// Who wins with perfect play: the player to move first or the other one (serialised `"first"`,
/// `"second"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// The player who moves first.
    First,
    /// The player who moves second.
    Second,
}

impl Side {
    /// The side that moves first wins exactly when `first_wins`.
    pub fn winner(first_wins: bool) -> Side {
        if first_wins {
            Side::First
        } else {
            Side::Second
        }
    }

    /// The word used in reports: `first` or `second`.
    pub fn name(self) -> &'static str {
        match self {
            Side::First => "first",
            Side::Second => "second",
        }
    }
}

impl std::fmt::Display for Side {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Everything `ply heaps` says about a position.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HeapsReport {
    /// Who wins with perfect play.
    pub winner: Side,
    /// A winning move for the first player (`None` when the second player wins).
    #[serde(rename = "move")]
    pub winning_move: Option<Take>,
    /// Moves the game lasts when the winner hurries and the loser delays.
    pub remoteness: u64,
    /// The Grundy value under normal play (`None` under misère play, where values do not add up).
    pub grundy: Option<u64>,
    /// The play convention.
    pub convention: Convention,
}

/// The outcome once heaps `i..` remain with heap `i` full, for every `i` (index `n` = all empty).
fn outcomes_from_the_back(sizes: &[u64], convention: Convention) -> Vec<Outcome> {
    let mut after = vec![
        Outcome {
            wins: convention == Convention::Misere,
            remoteness: 0,
        };
        sizes.len() + 1
    ];
    for i in (0..sizes.len()).rev() {
        after[i] = heap_outcome(sizes[i], after[i + 1]);
    }
    after
}

/// The outcome of a heap holding `left` counters followed by a rest whose outcome is `next`.
fn heap_outcome(left: u64, next: Outcome) -> Outcome {
    match (left, next.wins) {
        // One counter: the move is forced.
        (1, _) => next.before(),
        // Take all, leaving the opponent a lost rest.
        (_, false) => next.before(),
        // Leave one: the opponent must take it and hand over the won rest.
        (_, true) => next.before().before(),
    }
}

/// The Grundy value of heap `i` holding `left` counters when the rest has Grundy value `next`:
/// the options are `next` and the values of smaller heaps, which take every value but `next`.
fn heap_grundy(left: u64, next: u64) -> u64 {
    if left <= next {
        left - 1
    } else {
        left
    }
}

/// Solves a position by the closed form, in O(n).
pub fn analyse(sizes: &[u64], convention: Convention) -> HeapsReport {
    let after = outcomes_from_the_back(sizes, convention);
    let start = after[0];
    let winning_move = match sizes.first() {
        Some(&first) if start.wins => Some(Take {
            heap: 1,
            take: if first == 1 || !after[1].wins {
                first
            } else {
                first - 1
            },
        }),
        _ => None,
    };
    let grundy = (convention == Convention::Normal).then(|| {
        sizes
            .iter()
            .rev()
            .fold(0, |next, &left| heap_grundy(left, next))
    });
    HeapsReport {
        winner: Side::winner(start.wins),
        winning_move,
        remoteness: start.remoteness,
        grundy,
        convention,
    }
}

/// The explicit game: the state is the lowest non-empty heap (0-based; `sizes.len()` when all are
/// empty) and the counters left in it; the heaps above it are untouched.
pub struct LowestHeapGame {
    /// Heap sizes, each at least 1.
    pub sizes: Vec<u64>,
}

impl LowestHeapGame {
    /// The starting position.
    pub fn start(&self) -> (usize, u64) {
        (0, self.sizes.first().copied().unwrap_or(0))
    }
}

impl ImpartialGame for LowestHeapGame {
    type State = (usize, u64);
    type Move = Take;

    fn moves(&self, &(heap, left): &(usize, u64), out: &mut Vec<(Take, (usize, u64))>) {
        for take in 1..=left {
            let next = if take < left {
                (heap, left - take)
            } else {
                (heap + 1, self.sizes.get(heap + 1).copied().unwrap_or(0))
            };
            out.push((
                Take {
                    heap: heap + 1,
                    take,
                },
                next,
            ));
        }
    }
}

/// Why heap sizes were refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum HeapsFault {
    /// No heaps at all.
    #[error("no heaps: give at least one heap size")]
    NoHeaps,
    /// A heap with no counters (or fewer).
    #[error("heap {heap} holds {}; every heap must hold at least 1 counter", excerpt(.size.as_bytes()))]
    NotPositive {
        /// 1-based heap number.
        heap: usize,
        /// The size given.
        size: String,
    },
    /// A heap too large for 64 bits.
    #[error("heap {heap} holds {}, more than the largest size ({})", excerpt(.size.as_bytes()), u64::MAX)]
    TooLarge {
        /// 1-based heap number.
        heap: usize,
        /// The size given.
        size: String,
    },
    /// Two commas with nothing between them, or one first or last (1-based item number).
    #[error("heaps: {0}")]
    EmptyItem(#[from] EmptyItem),
    /// A token that is not a whole number.
    #[error("heap {heap}: {} is not a whole number", quote(.token))]
    NotANumber {
        /// 1-based heap number.
        heap: usize,
        /// The token.
        token: String,
    },
}

/// Checks one heap size (`heap` is 1-based).
fn heap_size(heap: usize, size: i128) -> Result<u64, HeapsFault> {
    match u64::try_from(size) {
        _ if size < 1 => Err(HeapsFault::NotPositive {
            heap,
            size: size.to_string(),
        }),
        Ok(s) => Ok(s),
        Err(_) => Err(HeapsFault::TooLarge {
            heap,
            size: size.to_string(),
        }),
    }
}

/// Checks one heap size given as text.
fn heap_token(heap: usize, token: &str) -> Result<u64, HeapsFault> {
    match parse_whole(token) {
        Ok(size) => heap_size(heap, size),
        Err(LineFault::TooLarge(size)) if size.starts_with('-') => {
            Err(HeapsFault::NotPositive { heap, size })
        }
        Err(LineFault::TooLarge(size)) => Err(HeapsFault::TooLarge { heap, size }),
        Err(_) => Err(HeapsFault::NotANumber {
            heap,
            token: token.to_string(),
        }),
    }
}

/// Parses heap sizes separated by white space or commas.
pub fn parse_sizes(text: &str) -> Result<Vec<u64>, HeapsFault> {
    let sizes: Vec<u64> = items(text)
        .enumerate()
        .map(|(i, token)| heap_token(i + 1, token?))
        .collect::<Result<_, _>>()?;
    if sizes.is_empty() {
        return Err(HeapsFault::NoHeaps);
    }
    Ok(sizes)
}

/// What the format calls its records.
const TESTS: RecordNames = RecordNames {
    one: "test",
    many: "tests",
};

/// What is wrong in one test of a batch file.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BatchFault {
    /// A heap count below 1 or beyond memory.
    #[error("{}", count_fault("heaps", *.0))]
    HeapCount(i128),
    /// A bad heap size.
    #[error(transparent)]
    Heap(#[from] HeapsFault),
}

/// A batch fault with its place: the test and the line.
pub type BatchError = ContestError<BatchFault>;

/// Bytes a test read takes until it is answered, at the most: its answer (twice: a list grows by
/// doubling) and the answer's line (`Second`).
const TEST_BYTES: u64 = 9;

/// Parses the Codeforces 1382B format — t, then per test a line with n and a line with n sizes — and
/// answers each test by the closed form: `true` when the first player wins. (The text bounds what
/// its tests can take.)
pub fn solve_batch(text: &str, convention: Convention) -> Result<Vec<bool>, BatchError> {
    batch_of(text.as_bytes(), convention, None)
}

/// [`solve_batch`] over a stream, read line by line: the reading stops at the first fault, so an
/// endless or binary input is refused at once, and a count of tests or of heaps whose answers or
/// sizes `budget` cannot hold is refused before it is read.
pub fn read_batch<R: BufRead>(
    source: R,
    convention: Convention,
    budget: MemoryBudget,
) -> Result<Vec<bool>, BatchError> {
    batch_of(source, convention, Some(budget))
}

/// The tests of `source` answered, within `budget` when it is a stream ([`read_batch`],
/// [`solve_batch`]).
fn batch_of<R: BufRead>(
    source: R,
    convention: Convention,
    budget: Option<MemoryBudget>,
) -> Result<Vec<bool>, BatchError> {
    read_records(source, TESTS, budget, TEST_BYTES, |lines, test, tests| {
        let (line, n) = lines
            .numbers(1, "one number (the number of heaps)", || {
                format!("the heap count of test {test} of {tests}")
            })
            .map_err(line_fault)?;
        let n = match usize::try_from(n[0]) {
            Ok(n) if n >= 1 => n,
            _ => return Err(record_fault(line, BatchFault::HeapCount(n[0]))),
        };
        let (line, sizes) = lines
            .numbers(n, &format!("{n} heap sizes"), || {
                format!("the {n} heap sizes of test {test}")
            })
            .map_err(line_fault)?;
        let sizes = sizes
            .into_iter()
            .enumerate()
            .map(|(i, s)| heap_size(i + 1, s))
            .collect::<Result<Vec<u64>, _>>()
            .map_err(|f| record_fault(line, f.into()))?;
        Ok(analyse(&sizes, convention).winner == Side::First)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn winner(sizes: &[u64]) -> &'static str {
        analyse(sizes, Convention::Normal).winner.name()
    }

    #[test]
    fn the_original_examples() {
        assert_eq!(winner(&[1, 2, 2, 2, 1]), "second");
        assert_eq!(winner(&[1, 2, 3, 1, 2]), "second");
        assert_eq!(winner(&[2, 3]), "first");
        assert_eq!(winner(&[1, 2]), "second");
        assert_eq!(winner(&[2, 1]), "first");
        assert_eq!(winner(&[1, 2, 3, 1, 4]), "second");
        assert_eq!(winner(&[1, 1, 2, 3]), "first");
        assert_eq!(winner(&[2, 1, 3, 4, 5]), "first");
    }

    #[test]
    fn moves_remoteness_and_grundy() {
        let r = analyse(&[2, 1], Convention::Normal);
        // Take all of heap 1? No: the rest [1] is won by whoever moves, so leave one.
        assert_eq!(r.winning_move, Some(Take { heap: 1, take: 1 }));
        assert_eq!(r.remoteness, 3);
        assert_eq!(r.grundy, Some(2));
        let r = analyse(&[3, 1, 1], Convention::Normal);
        assert_eq!(r.winning_move, Some(Take { heap: 1, take: 3 }));
        assert_eq!(r.remoteness, 3);
        assert_eq!(analyse(&[1], Convention::Misere).winner, Side::Second);
        assert_eq!(analyse(&[1], Convention::Misere).grundy, None);
    }

    #[test]
    fn bad_sizes() {
        assert_eq!(parse_sizes("1 2,3"), Ok(vec![1, 2, 3]));
        assert_eq!(
            parse_sizes("1 0").unwrap_err().to_string(),
            "heap 2 holds 0; every heap must hold at least 1 counter"
        );
        assert_eq!(
            parse_sizes("-4").unwrap_err().to_string(),
            "heap 1 holds -4; every heap must hold at least 1 counter"
        );
        assert_eq!(
            parse_sizes("1 18446744073709551616")
                .unwrap_err()
                .to_string(),
            "heap 2 holds 18446744073709551616, more than the largest size (18446744073709551615)"
        );
        assert_eq!(
            parse_sizes("1 x").unwrap_err().to_string(),
            "heap 2: `x` is not a whole number"
        );
        assert_eq!(parse_sizes(" ").unwrap_err(), HeapsFault::NoHeaps);
        for (text, item) in [("1,,2", 2), (",1", 1), ("1 2,", 3), (" , ", 1)] {
            let fault = parse_sizes(text).unwrap_err().to_string();
            assert_eq!(fault, format!("heaps: item {item} is empty"), "{text:?}");
        }
    }
}
