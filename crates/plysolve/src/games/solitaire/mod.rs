//! Number Solitaire (the original program 000): a pebble on square 0 of a row of numbered squares moves forward by
//! the throw of a K-sided die (throws that overshoot the last square are thrown again) until it stands
//! on the last square; the result is the sum of the squares it visited.
//!
//! The best result when the player may choose every throw is a best path over a window DAG
//! ([`crate::engine::window_path`]); the result under fair throws is a walk of chance over the same
//! DAG ([`crate::engine::chance`]). This module only states the die and the board; [`request`] is
//! the question as every front end asks it (`ply solitaire`, `POST /api/solitaire`).

pub mod door;
pub mod request;

use crate::engine::chance::{
    exact_distribution, exact_expectation, DistributionFault, TooManyTotals, WindowWalk,
};
use crate::engine::util::cost::{OverLimit, WorkLimit};
use crate::engine::util::fraction::format_fraction;
use crate::engine::util::halt::{Halt, Halted};
use crate::engine::util::memory::{MemoryBudget, MemoryError};
use crate::engine::window_path::WindowPath;
use crate::input::number::{parse_int, IntFault};
use crate::input::quote;
use crate::input::tokens::{IntReader, TokenError, TokenPlace};
use num_traits::ToPrimitive;
use serde::Serialize;
use std::io::Read;
use thiserror::Error;

/// Most faces a die may have.
pub const MAX_FACES: u64 = 1_000_000;
/// Boards up to this many squares keep the path by default (4 bytes a square to find it, some 40 a
/// square with the path and its throws as given: BENCHMARKS); longer ones give the
/// best result alone in O(K) memory unless the path is asked for.
pub const PATH_LIMIT: u64 = 1_000_000;
/// Bytes a square of a board takes when its path is kept and given, at the most (BENCHMARKS): what
/// a board read with `--path` is checked against, every [`PATH_CHECK_EVERY`] squares.
pub const PATH_BYTES_PER_SQUARE: u64 = 40;
/// How many squares are read between two checks of a kept path against the memory budget.
pub const PATH_CHECK_EVERY: u64 = 1 << 16;
/// Boards up to this many squares get the expected result as an exact fraction, and a distribution.
pub const EXACT_LIMIT: usize = 60;
/// Boards up to this many squares can be explained square by square.
pub const EXPLAIN_LIMIT: usize = 40;
/// Most distinct results a distribution may list.
pub const DISTRIBUTION_LIMIT: usize = 100_000;

/// Whether to give the optimal path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PathMode {
    /// Up to [`PATH_LIMIT`] squares.
    Auto,
    /// Never: the best result alone, O(K) memory.
    Never,
    /// Always, whatever the length (some 40 bytes a square with the path given).
    Always,
}

/// A checked request: what to compute ([`request::SolitaireRequest::validate`] makes one; the
/// benchmarks and tests build one directly).
#[derive(Debug, Clone, Copy)]
pub struct SolitaireQuery {
    /// Faces of the die, 1..=[`MAX_FACES`].
    pub faces: u64,
    /// Whether to give the path.
    pub path: PathMode,
    /// Also the expected result under fair throws.
    pub expected: bool,
    /// Also the probability of each result under fair throws (small boards).
    pub distribution: bool,
    /// Also the table of best totals, square by square (small boards).
    pub explain: bool,
}

impl SolitaireQuery {
    /// The best result alone (with the path as `path` says), nothing under fair throws, no table.
    pub fn best(faces: u64, path: PathMode) -> Self {
        SolitaireQuery {
            faces,
            path,
            expected: false,
            distribution: false,
            explain: false,
        }
    }
}

/// Why a board cannot be solved as asked.
#[derive(Debug, Error)]
pub enum SolitaireError {
    /// A bad token in the input.
    #[error(transparent)]
    Token(#[from] TokenError),
    /// No squares at all.
    #[error("the board is empty: give at least one number")]
    Empty,
    /// A die with no faces or too many.
    #[error("the die must have 1 to {MAX_FACES} faces, not {0}")]
    Faces(u64),
    /// The explanation asked for a long board.
    #[error("the explanation {0}")]
    ExplainTooLong(TooLong),
    /// The exact distribution asked for a long board.
    #[error("the distribution {0}")]
    DistributionTooLong(TooLong),
    /// A distribution with too many distinct results.
    #[error("{0}; a distribution lists at most {DISTRIBUTION_LIMIT}")]
    TooManyTotals(TooManyTotals),
    /// A distribution whose estimate passes the limit, refused before it starts.
    #[error(transparent)]
    TooSlow(#[from] OverLimit),
    /// The halt came before the distribution was done.
    #[error(transparent)]
    Halted(#[from] Halted),
    /// A path asked for on a board longer than memory can keep it for (a stream read on and on).
    #[error(transparent)]
    Memory(MemoryError),
}

impl SolitaireError {
    /// Whether the board was refused for the work, time or memory it would take (a server's 422), not
    /// for what it is.
    pub fn is_over_budget(&self) -> bool {
        matches!(
            self,
            SolitaireError::TooSlow(_) | SolitaireError::Halted(_) | SolitaireError::Memory(_)
        )
    }
}

/// An answer given only for boards of at most `limit` squares, asked for a board of `squares`. Its
/// text is the predicate (`is for boards of at most …`): a front end puts what was asked before it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[error("is for boards of at most {limit} squares; this one has {squares}")]
pub struct TooLong {
    /// Most squares the answer is given for.
    pub limit: u64,
    /// Squares of the board.
    pub squares: u64,
}

/// One square of the explanation: the original program's table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ExplainRow {
    /// Square number.
    pub square: u64,
    /// The number written on it.
    pub value: i64,
    /// Best total of a game that reaches it (its own value included).
    pub best: i128,
    /// The square the best way comes from (`None` for square 0).
    pub from: Option<u64>,
}

/// One possible result under fair throws.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ResultProbability {
    /// The result.
    pub result: i128,
    /// Its exact probability, `a/b`.
    pub probability: String,
    /// The same as a float.
    pub p: f64,
}

/// Everything `ply solitaire` shows.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SolitaireReport {
    /// The maximal result.
    pub best: i128,
    /// The squares of an optimal game with the fewest throws, if kept.
    pub path: Option<Vec<u64>>,
    /// Its throws.
    pub throws: Option<Vec<u64>>,
    /// Faces of the die.
    pub die: u64,
    /// Squares on the board.
    pub n: u64,
    /// Expected result under fair throws, if asked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected: Option<f64>,
    /// The same as an exact fraction (boards up to [`EXACT_LIMIT`] squares).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected_exact: Option<String>,
    /// Probability of each result, if asked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub distribution: Option<Vec<ResultProbability>>,
    /// The table of best totals, if asked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub explain: Option<Vec<ExplainRow>>,
}

/// A board's numbers, square after square: read from a stream, or given as JSON numbers.
trait SquareSource {
    /// The next square's number, `None` after the last.
    fn next_square(&mut self) -> Result<Option<i64>, TokenError>;
}

impl<R: Read> SquareSource for IntReader<R> {
    #[inline(always)]
    fn next_square(&mut self) -> Result<Option<i64>, TokenError> {
        self.next_int()
    }
}

/// JSON numbers as squares, each as written: each must be a 64-bit integer, and a fault names it as
/// the token it would be on a command line (the numbers written on one line, in order).
struct JsonSquares<'a> {
    numbers: std::slice::Iter<'a, String>,
    token: u64,
}

impl SquareSource for JsonSquares<'_> {
    fn next_square(&mut self) -> Result<Option<i64>, TokenError> {
        let Some(number) = self.numbers.next() else {
            return Ok(None);
        };
        self.token += 1;
        let place = TokenPlace {
            token: self.token,
            line: 1,
        };
        let text = quote(number);
        match parse_int(number).map(i64::try_from) {
            Ok(Ok(value)) => Ok(Some(value)),
            Ok(Err(_)) | Err(IntFault::OutOfRange) => Err(TokenError::OutOfRange { place, text }),
            Err(IntFault::NotANumber) => Err(TokenError::NotAnInteger { place, text }),
        }
    }
}

/// Reads the board from `input` (integers separated by white space or commas) and solves it in one
/// pass: memory stays O(K) unless the path, explanation or exact answers need more. Everything but
/// the distribution is linear in the board; the distribution is costed first
/// ([`distribution_work`]) and refused over the default limit, or what `halt`'s deadline leaves,
/// and stopped when `halt` comes. The input may be an endless stream: a path asked for is refused
/// once the board read is longer than the memory the system has could keep it for.
pub fn solve<R: Read>(
    input: R,
    options: SolitaireQuery,
    halt: &Halt,
) -> Result<SolitaireReport, SolitaireError> {
    solve_squares(IntReader::new(input), options, MemoryBudget::from_system, halt)
}

/// [`solve`] for a board given as JSON numbers as written, square 0 first, each a 64-bit integer.
pub fn solve_numbers(
    numbers: &[String],
    options: SolitaireQuery,
    halt: &Halt,
) -> Result<SolitaireReport, SolitaireError> {
    let squares = JsonSquares {
        numbers: numbers.iter(),
        token: 0,
    };
    // The numbers are in memory already: their path takes a few times what they do.
    solve_squares(squares, options, || MemoryBudget::new(u64::MAX), halt)
}

/// The speed of the exact distribution in the units of [`distribution_work`] (the chance walk's
/// model, measured by `ply bench costs`).
pub use crate::engine::chance::DISTRIBUTION_RATE;

/// The work of the exact distribution of a board of `squares` (at most [`EXACT_LIMIT`] of them)
/// with a die of `faces`, at most, in [`DISTRIBUTION_RATE`] units: the model a front end (or the
/// answer itself) checks against its limit before the work starts.
pub fn distribution_work(squares: &[i64], faces: u64) -> u128 {
    crate::engine::chance::distribution_work(squares, window(squares, faces), DISTRIBUTION_LIMIT)
}

/// The exact probability of each result of a board of `squares` with a die of `faces`, not costed
/// (a caller costs it first with [`distribution_work`]), stopped when `halt` comes.
pub fn exact_distribution_of(
    squares: &[i64],
    faces: u64,
    halt: &Halt,
) -> Result<Vec<ResultProbability>, SolitaireError> {
    let dist = exact_distribution(squares, window(squares, faces), DISTRIBUTION_LIMIT, halt)
        .map_err(|e| match e {
            DistributionFault::TooManyTotals(e) => SolitaireError::TooManyTotals(e),
            DistributionFault::Halted(e) => SolitaireError::Halted(e),
        })?;
    Ok(dist
        .into_iter()
        .map(|(result, p)| ResultProbability {
            result,
            probability: format_fraction(&p),
            p: p.to_f64().unwrap_or(f64::NAN),
        })
        .collect())
}

/// The throws that can matter on a board of `squares`: the die's faces, at most the board's length.
fn window(squares: &[i64], faces: u64) -> usize {
    faces.min(squares.len() as u64) as usize
}

/// The exact distribution of the small board `head`, costed first against the default limit or
/// what `halt` leaves.
fn distribution(
    head: &[i64],
    faces: u64,
    halt: &Halt,
) -> Result<Vec<ResultProbability>, SolitaireError> {
    WorkLimit::DEFAULT.within(halt).check(
        || "the exact distribution of this board",
        distribution_work(head, faces),
        DISTRIBUTION_RATE,
    )?;
    exact_distribution_of(head, faces, halt)
}

/// Solves the board `squares` gives, in one pass.
fn solve_squares<S: SquareSource>(
    mut squares: S,
    options: SolitaireQuery,
    budget: impl Fn() -> MemoryBudget,
    halt: &Halt,
) -> Result<SolitaireReport, SolitaireError> {
    let faces = options.faces;
    if !(1..=MAX_FACES).contains(&faces) {
        return Err(SolitaireError::Faces(faces));
    }
    let mut dag = WindowPath::new(faces, options.path != PathMode::Never);
    let mut walk = options.expected.then(|| WindowWalk::new(faces as usize));
    let keep = EXACT_LIMIT.max(EXPLAIN_LIMIT) + 1;
    let mut head: Vec<i64> = Vec::with_capacity(keep);
    let mut explain: Vec<ExplainRow> = Vec::new();
    // Asked of the system only when a path grows long (a board of a few squares asks nothing).
    let mut budget_now = None;
    while let Some(value) = squares.next_square()? {
        let square = dag.len();
        if dag.recording() && square > 0 && square % PATH_CHECK_EVERY == 0 {
            // A square past `square` has come: the next ones must fit too, checked before they are
            // kept. A path asked for is refused; one given by default is given up, as on a board
            // past `PATH_LIMIT`.
            let kept = u128::from(square + PATH_CHECK_EVERY) * u128::from(PATH_BYTES_PER_SQUARE);
            let budget = *budget_now.get_or_insert_with(&budget);
            match budget.check(kept, || format!("the path of a board of over {square} squares")) {
                Ok(()) => {}
                Err(_) if options.path == PathMode::Auto => dag.stop_recording(),
                Err(e) => return Err(SolitaireError::Memory(e)),
            }
        }
        let arrival = dag.push(value);
        if let Some(walk) = &mut walk {
            walk.push(value);
        }
        if head.len() < keep {
            head.push(value);
            if options.explain {
                explain.push(ExplainRow {
                    square,
                    value,
                    best: arrival.best,
                    from: arrival.from,
                });
            }
        }
        if options.path == PathMode::Auto && dag.len() > PATH_LIMIT && dag.recording() {
            dag.stop_recording();
        }
    }
    let n = dag.len();
    if options.explain && n > EXPLAIN_LIMIT as u64 {
        return Err(SolitaireError::ExplainTooLong(TooLong {
            limit: EXPLAIN_LIMIT as u64,
            squares: n,
        }));
    }
    if options.distribution && n > EXACT_LIMIT as u64 {
        return Err(SolitaireError::DistributionTooLong(TooLong {
            limit: EXACT_LIMIT as u64,
            squares: n,
        }));
    }
    let best = dag.finish().ok_or(SolitaireError::Empty)?;
    let throws = best
        .path
        .as_ref()
        .map(|p| p.windows(2).map(|w| w[1] - w[0]).collect());
    let small = n as usize <= EXACT_LIMIT;
    let exact = (options.expected && small)
        .then(|| exact_expectation(&head, faces as usize))
        .flatten();
    let distribution = options
        .distribution
        .then(|| distribution(&head, faces, halt))
        .transpose()?;
    Ok(SolitaireReport {
        best: best.best,
        path: best.path,
        throws,
        die: faces,
        n,
        // The exact value, when there is one, is the better float.
        expected: match &exact {
            Some(x) => x.to_f64(),
            None => walk.and_then(WindowWalk::finish),
        },
        expected_exact: exact.as_ref().map(format_fraction),
        distribution,
        explain: options.explain.then_some(explain),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::util::halt::NEVER;

    fn options(faces: u64) -> SolitaireQuery {
        SolitaireQuery::best(faces, PathMode::Auto)
    }

    #[test]
    fn a_path_longer_than_memory_is_refused_as_it_is_read_or_given_up_by_default() {
        let board = "1 ".repeat(70_000);
        let budget = MemoryBudget::new(1 << 20);
        let asked = SolitaireQuery::best(6, PathMode::Always);
        let refused = solve_squares(IntReader::new(board.as_bytes()), asked, || budget, &NEVER);
        assert_eq!(
            refused.unwrap_err().to_string(),
            "the path of a board of over 65536 squares needs 5.0 MiB (5242880 bytes) but the \
             memory budget is 1.0 MiB (1048576 bytes)"
        );
        let by_default = options(6);
        let r = solve_squares(IntReader::new(board.as_bytes()), by_default, || budget, &NEVER);
        let r = r.unwrap();
        assert_eq!((r.best, r.n, r.path), (70_000, 70_000, None));
        let unbounded = solve(board.as_bytes(), asked, &NEVER).unwrap();
        assert_eq!(unbounded.path.map(|p| p.len()), Some(70_000));
        // The first check comes with square 65 537: a board of 65 536 squares keeps its path.
        let whole = "1 ".repeat(65_536);
        let r = solve_squares(IntReader::new(whole.as_bytes()), asked, || budget, &NEVER);
        assert_eq!(r.unwrap().path.map(|p| p.len()), Some(65_536));
    }

    #[test]
    fn the_original_example() {
        let r = solve("1 -2 0 9 -1 -2".as_bytes(), options(6), &NEVER).unwrap();
        assert_eq!((r.best, r.n, r.die), (8, 6, 6));
        assert_eq!(r.path, Some(vec![0, 3, 5]));
        assert_eq!(r.throws, Some(vec![3, 2]));
    }

    #[test]
    fn one_square_and_faults() {
        let r = solve("7".as_bytes(), options(6), &NEVER).unwrap();
        assert_eq!((r.best, r.path, r.throws), (7, Some(vec![0]), Some(vec![])));
        assert_eq!(
            solve(" \n".as_bytes(), options(6), &NEVER)
                .unwrap_err()
                .to_string(),
            "the board is empty: give at least one number"
        );
        assert_eq!(
            solve("1 2".as_bytes(), options(0), &NEVER)
                .unwrap_err()
                .to_string(),
            "the die must have 1 to 1000000 faces, not 0"
        );
    }
}
