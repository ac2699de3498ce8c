//! MagicBoard (seed 002): a d×d board of integers 0..d−1 with exactly one 0, the goal. From a square
//! holding n the player moves exactly n squares north, south, east or west, never off the board. The
//! starts are the four corners; a board is solvable from a corner when the goal can be reached.
//!
//! The board only states its moves ([`Puzzle`]); reachability, shortest paths and fast verdicts are
//! the engine's ([`crate::engine::reach`]).

use crate::engine::estimate::Estimate;
use crate::engine::memory::{try_grow, try_vec, Bytes, MemoryBudget, MemoryError};
use crate::engine::progress::Progress;
use crate::engine::reach::{shortest_path, Predecessors, Puzzle, Verdicts};
use crate::input::{excerpt, quote, ReadError};
use crate::lines::{items, line_limit, NumberLines};
use rand::{Rng, RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;
use serde::Serialize;
use std::fmt::Write;
use std::io::BufRead;
use std::ops::RangeInclusive;
use thiserror::Error;

pub mod generated;

/// Board sizes of the seed's rule.
pub const SEED_SIZES: RangeInclusive<usize> = 5..=20;
/// Board sizes allowed under [`SizeRule::Any`].
pub const ANY_SIZES: RangeInclusive<usize> = 2..=4096;
/// Largest board `--draw` prints.
pub const MAX_DRAWN: usize = 100;

/// A legal board. Squares are numbered `row << shift | col` with `1 << shift` the smallest power of
/// two at least `d`, so that moves need no division; the padding squares hold no moves and are never
/// reached.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Board {
    d: usize,
    shift: u32,
    values: Vec<u16>,
    goal: usize,
}

/// The row stride for size `d`: `log2` of the smallest power of two at least `d`.
fn stride_shift(d: usize) -> u32 {
    d.next_power_of_two().trailing_zeros()
}

/// A board that breaks a rule, with where.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BoardError {
    /// No numbers at all.
    #[error("the board is empty")]
    Empty,
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

impl BoardError {
    /// The size fault, if that is what this is.
    pub fn size_fault(&self) -> Option<&SizeFault> {
        match self {
            BoardError::Size(fault) => Some(fault),
            _ => None,
        }
    }
}

/// Which sizes are allowed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SizeRule {
    /// 5 to 20, as in the seed.
    Seed,
    /// 2 to 4096.
    Any,
}

impl SizeRule {
    fn check(self, d: usize) -> Result<(), BoardError> {
        let (rule, wider) = match self {
            SizeRule::Seed => (SEED_SIZES, Some(ANY_SIZES)),
            SizeRule::Any => (ANY_SIZES, None),
        };
        if rule.contains(&d) {
            Ok(())
        } else {
            Err(BoardError::Size(SizeFault { d, rule, wider }))
        }
    }
}

impl Board {
    /// Parses `d` lines of `d` integers separated by white space or commas (blank lines are skipped).
    /// The first row sets the size, which is checked against `rule` before the rest is read.
    pub fn parse(text: &str, rule: SizeRule) -> Result<Board, BoardError> {
        Board::read(text.as_bytes(), rule)
    }

    /// [`Board::parse`] over a stream, read row by row: a row may hold at most
    /// [`line_limit`]`(d)` bytes, so an endless or binary input is refused at its first bad line or
    /// byte, and at most twice as many rows as columns are read.
    pub fn read<R: BufRead>(source: R, rule: SizeRule) -> Result<Board, BoardError> {
        let mut lines = NumberLines::new(source);
        let (_, first) = lines
            .line(line_limit(*ANY_SIZES.end()))?
            .ok_or(BoardError::Empty)?;
        let d = items(first).count();
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
                .ok_or(BoardError::NotSquare { rows: row, cols: d })?;
            rows.push(text)?;
        }
        let mut extra = 0;
        while lines.line(line_limit(d))?.is_some() {
            extra += 1;
            if extra == d + 1 {
                return Err(BoardError::FarFromSquare { cols: d });
            }
        }
        if extra > 0 {
            return Err(BoardError::NotSquare {
                rows: d + extra,
                cols: d,
            });
        }
        let (r, c) = rows.goal.ok_or(BoardError::NoGoal)?;
        Ok(Board {
            d,
            shift: rows.shift,
            values: rows.values,
            goal: r << rows.shift | c,
        })
    }

    /// The size d.
    pub fn size(&self) -> usize {
        self.d
    }

    /// The value at (row, col).
    pub fn value(&self, row: usize, col: usize) -> u16 {
        self.values[self.square(row, col)]
    }

    /// The goal as (row, col).
    pub fn goal(&self) -> (usize, usize) {
        self.place(self.goal)
    }

    /// The state number of (row, col).
    fn square(&self, row: usize, col: usize) -> usize {
        row << self.shift | col
    }

    /// The (row, col) of a state number.
    fn place(&self, square: usize) -> (usize, usize) {
        (square >> self.shift, square & ((1 << self.shift) - 1))
    }

    /// The four corners, in the order (0,0), (0,d−1), (d−1,0), (d−1,d−1).
    pub fn corners(&self) -> [(usize, usize); 4] {
        let e = self.d - 1;
        [(0, 0), (0, e), (e, 0), (e, e)]
    }

    /// The board as text: `d` lines of `d` numbers separated by spaces.
    pub fn to_text(&self) -> String {
        let mut out = String::with_capacity(self.values.len() * 3);
        for row in self.values.chunks(1 << self.shift) {
            for (i, v) in row[..self.d].iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                let _ = write!(out, "{v}");
            }
            out.push('\n');
        }
        out
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
    fn push(&mut self, line: &str) -> Result<(), BoardError> {
        let (d, row) = (self.d, self.values.len() >> self.shift);
        let mut col = 0;
        for token in items(line) {
            if col == d {
                return Err(BoardError::Ragged {
                    row,
                    found: items(line).count(),
                    expected: d,
                });
            }
            let value = parse_value(token).ok_or_else(|| BoardError::NotANumber {
                row,
                col,
                token: token.to_string(),
            })?;
            if value >= d as u64 {
                return Err(BoardError::OutOfRange {
                    row,
                    col,
                    value: token.to_string(),
                    max: d - 1,
                    d,
                });
            }
            if value == 0 {
                if let Some((first_row, first_col)) = self.goal {
                    return Err(BoardError::TwoGoals {
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
            return Err(BoardError::Ragged {
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
    let digits = token.strip_prefix('+').unwrap_or(token).as_bytes();
    if digits.is_empty() {
        return None;
    }
    let mut value: u64 = 0;
    for &b in digits {
        let digit = b.wrapping_sub(b'0');
        if digit > 9 {
            return None;
        }
        value = value.saturating_mul(10).saturating_add(digit as u64);
    }
    Some(value)
}

impl Puzzle for Board {
    fn states(&self) -> usize {
        self.values.len()
    }

    #[inline]
    fn successors(&self, s: usize, mut visit: impl FnMut(usize)) {
        let k = self.values[s] as usize;
        if k == 0 {
            return;
        }
        let (r, c, d) = (s >> self.shift, s & ((1 << self.shift) - 1), self.d);
        if r >= k {
            visit(s - (k << self.shift));
        }
        if r + k < d {
            visit(s + (k << self.shift));
        }
        if c + k < d {
            visit(s + k);
        }
        if c >= k {
            visit(s - k);
        }
    }
}

impl Predecessors for Board {
    /// The squares of the same row or column whose value is their distance to `s`. (The square
    /// itself never matches: its distance is 0, and only the goal holds 0.) A padding state beyond
    /// the row's end has none: no move reaches it.
    fn predecessors(&self, s: usize, mut visit: impl FnMut(usize)) {
        let (r, c, d, shift) = (
            s >> self.shift,
            s & ((1 << self.shift) - 1),
            self.d,
            self.shift,
        );
        if c >= d {
            return;
        }
        let row = &self.values[r << shift..(r << shift) + d];
        if d <= 64 {
            // Collect matches as bits first (a loop without calls, which compiles to vector code).
            let mut across = 0u64;
            let mut down = 0u64;
            for (i, &v) in row.iter().enumerate() {
                across |= ((v as usize == c.abs_diff(i)) as u64) << i;
            }
            for i in 0..d {
                down |= ((self.values[i << shift | c] as usize == r.abs_diff(i)) as u64) << i;
            }
            across &= !(1 << c);
            down &= !(1 << r);
            while across != 0 {
                visit(r << shift | across.trailing_zeros() as usize);
                across &= across - 1;
            }
            while down != 0 {
                visit((down.trailing_zeros() as usize) << shift | c);
                down &= down - 1;
            }
            return;
        }
        for (c2, &v) in row.iter().enumerate() {
            if v as usize == c.abs_diff(c2) && c2 != c {
                visit(r << shift | c2);
            }
        }
        for r2 in 0..d {
            let v = self.values[r2 << shift | c];
            if v as usize == r.abs_diff(r2) && r2 != r {
                visit(r2 << shift | c);
            }
        }
    }
}

/// A start that is not allowed.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum StartError {
    /// Only corners are starts.
    #[error("({row},{col}) is not a corner; the starts are (0,0), (0,{e}), ({e},0) and ({e},{e})")]
    NotACorner {
        /// Row asked.
        row: usize,
        /// Column asked.
        col: usize,
        /// d − 1.
        e: usize,
    },
    /// The goal is not a start.
    #[error("({row},{col}) is the goal; start from another corner")]
    IsTheGoal {
        /// Row.
        row: usize,
        /// Column.
        col: usize,
    },
}

/// The answer for one corner.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CornerReport {
    /// The corner, `[row, col]`.
    pub start: [usize; 2],
    /// Whether the goal can be reached from it.
    pub solvable: bool,
    /// Whether this corner holds the goal (then it is no start).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub is_goal: bool,
    /// Moves of a shortest path.
    pub moves: Option<u32>,
    /// The lexicographically first shortest path, `[row, col]` squares from the start to the goal.
    pub path: Option<Vec<[usize; 2]>>,
}

/// Everything `ply magic-board` says about a board.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BoardReport {
    /// The size.
    pub d: usize,
    /// The goal, `[row, col]`.
    pub goal: [usize; 2],
    /// One entry per corner asked.
    pub corners: Vec<CornerReport>,
}

/// Why a board could not be solved as asked.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SolveBoardError {
    /// A bad start.
    #[error(transparent)]
    Start(#[from] StartError),
    /// Too big for memory.
    #[error(transparent)]
    Memory(#[from] MemoryError),
    /// Too big for the share of the budget each corner's search gets.
    #[error("{source} (the {} budget is split over {corners} corners, one search each)", Bytes(*total as u128))]
    CornerShare {
        /// The refusal of one corner's search.
        source: MemoryError,
        /// The whole budget.
        total: u64,
        /// Corners searched.
        corners: usize,
    },
}

/// Solves every corner, or only `start` (which must be a corner other than the goal): one
/// breadth-first search per corner, the corners in parallel.
pub fn solve(
    board: &Board,
    start: Option<(usize, usize)>,
    budget: MemoryBudget,
) -> Result<BoardReport, SolveBoardError> {
    let corners: Vec<(usize, usize)> = match start {
        None => board.corners().to_vec(),
        Some((row, col)) => {
            if !board.corners().contains(&(row, col)) {
                return Err(StartError::NotACorner {
                    row,
                    col,
                    e: board.d - 1,
                }
                .into());
            }
            if (row, col) == board.goal() {
                return Err(StartError::IsTheGoal { row, col }.into());
            }
            vec![(row, col)]
        }
    };
    let corners_asked = corners.len();
    let per_search = budget.share(budget.bytes() / corners_asked as u64);
    let corners = corners
        .into_par_iter()
        .map(|(row, col)| {
            let s = board.square(row, col);
            let is_goal = s == board.goal;
            let path = match is_goal {
                true => None,
                false => shortest_path(board, s, board.goal, per_search)?,
            };
            Ok(CornerReport {
                start: [row, col],
                solvable: path.is_some(),
                is_goal,
                moves: path.as_ref().map(|p| p.len() as u32 - 1),
                path: path.map(|p| p.into_iter().map(|s| board.place(s).into()).collect()),
            })
        })
        .collect::<Result<Vec<_>, MemoryError>>()
        .map_err(|source| match corners_asked {
            1 => SolveBoardError::Memory(source),
            corners => SolveBoardError::CornerShare {
                source,
                total: budget.bytes(),
                corners,
            },
        })?;
    let (row, col) = board.goal();
    Ok(BoardReport {
        d: board.d,
        goal: [row, col],
        corners,
    })
}

/// The board with a path marked: visited squares show their step number in parentheses.
pub fn draw(board: &Board, path: &[[usize; 2]]) -> String {
    let d = board.d;
    let mut step = vec![None; d * d];
    for (i, &[r, c]) in path.iter().enumerate() {
        step[r * d + c] = Some(i);
    }
    let width = (d - 1).to_string().len().max(path.len().to_string().len()) + 2;
    let mut out = String::new();
    for r in 0..d {
        let cells: Vec<String> = (0..d)
            .map(|c| match step[r * d + c] {
                Some(i) => format!("{:>width$}", format!("({i})")),
                None => format!("{:>width$}", format!("{} ", board.value(r, c))),
            })
            .collect();
        out.push_str(cells.join(" ").trim_end());
        out.push('\n');
    }
    out
}

/// What a generated board must satisfy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wanted {
    /// Any legal board.
    Any,
    /// Solvable from every corner that is not the goal.
    Solvable,
    /// Solvable from no corner.
    Unsolvable,
}

/// Attempts `generate` makes before giving up.
pub const MAX_ATTEMPTS: u64 = 1_000_000;

/// Draws uniform values in `1..d` four at a time from 64-bit words (Lemire's multiply-shift on 16-bit
/// pieces, rejecting the few pieces that would bias it).
struct ValueSampler {
    range: u32,
    reject_below: u32,
}

impl ValueSampler {
    fn new(d: usize) -> Self {
        let range = d as u32 - 1;
        ValueSampler {
            range,
            reject_below: (1u32 << 16) % range,
        }
    }

    fn fill(&self, rng: &mut Xoshiro256PlusPlus, out: &mut [u16]) {
        let mut i = 0;
        while i < out.len() {
            let mut word = rng.next_u64();
            for _ in 0..4 {
                let m = (word & 0xFFFF) as u32 * self.range;
                word >>= 16;
                if (m & 0xFFFF) >= self.reject_below && i < out.len() {
                    out[i] = (m >> 16) as u16 + 1;
                    i += 1;
                }
            }
        }
    }
}

/// A random legal board: the goal on a uniformly chosen square, every other square uniform in 1..d−1.
/// `values` is the room for it (from [`scratch`] or the previous board), zero on padding squares.
fn random_board(d: usize, rng: &mut Xoshiro256PlusPlus, mut values: Vec<u16>) -> Board {
    let shift = stride_shift(d);
    let sampler = ValueSampler::new(d);
    debug_assert_eq!(values.len(), d << shift);
    // Padding squares stay 0; every real square is drawn afresh.
    for row in values.chunks_mut(1 << shift) {
        sampler.fill(rng, &mut row[..d]);
    }
    let (r, c) = (rng.random_range(0..d), rng.random_range(0..d));
    let goal = r << shift | c;
    values[goal] = 0;
    Board {
        d,
        shift,
        values,
        goal,
    }
}

/// The room one thread needs to draw and search boards of size `d`, allocated up front so that a
/// refusal by the system is an error, not an abort: a search's scratch space and a board's values.
fn scratch(d: usize) -> Result<(Verdicts, Vec<u16>), MemoryError> {
    let squares = d << stride_shift(d);
    let what = || format!("a search over {squares} states");
    let mut verdicts = Verdicts::default();
    verdicts.reserve(squares)?;
    let values = try_vec(squares, 0, what)?;
    Ok((verdicts, values))
}

/// Why no board was generated.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum GenerateError {
    /// A bad size.
    #[error(transparent)]
    Board(#[from] BoardError),
    /// No board with the wanted property in [`MAX_ATTEMPTS`] tries.
    #[error("no such board of size {d} in {MAX_ATTEMPTS} random boards")]
    NotFound {
        /// The size.
        d: usize,
    },
}

/// A random legal board of size `d` from `seed` (the same seed gives the same board).
pub fn generate(
    d: usize,
    seed: u64,
    wanted: Wanted,
    rule: SizeRule,
) -> Result<Board, GenerateError> {
    rule.check(d)?;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let (mut verdicts, mut values) = scratch(d).map_err(BoardError::from)?;
    for _ in 0..MAX_ATTEMPTS {
        let board = random_board(d, &mut rng, values);
        let goal = board.goal;
        let ok = match wanted {
            Wanted::Any => true,
            _ => {
                let starts: Vec<usize> = board
                    .corners()
                    .iter()
                    .map(|&(r, c)| board.square(r, c))
                    .filter(|&s| s != goal)
                    .collect();
                let reach = verdicts.reach_with_predecessors(&board, &starts, goal);
                if wanted == Wanted::Solvable {
                    reach.iter().all(|&x| x)
                } else {
                    reach.iter().all(|&x| !x)
                }
            }
        };
        if ok {
            return Ok(board);
        }
        values = board.values;
    }
    Err(GenerateError::NotFound { d })
}

impl GenerateError {
    /// The size fault, if that is what this is.
    pub fn size_fault(&self) -> Option<&SizeFault> {
        match self {
            GenerateError::Board(e) => e.size_fault(),
            GenerateError::NotFound { .. } => None,
        }
    }
}

/// Solvability counts for one corner (or for "at least one corner").
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct CornerStats {
    /// Boards where this corner was a start (not the goal).
    pub starts: u64,
    /// Of those, boards solvable from it.
    pub solvable: u64,
    /// The fraction with its 95 % interval.
    pub estimate: Estimate,
}

/// Statistics for one size.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SizeStats {
    /// The size.
    pub d: usize,
    /// Boards generated.
    pub boards: u64,
    /// Per corner, in the order (0,0), (0,d−1), (d−1,0), (d−1,d−1).
    pub corners: Vec<CornerStats>,
    /// Solvable from at least one corner.
    pub any_corner: CornerStats,
}

/// What `ply magic-board stats` reports: every size's statistics and the speed.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StatsReport {
    /// The seed of the random generator.
    pub seed: u64,
    /// One entry per size, smallest first.
    pub sizes: Vec<SizeStats>,
    /// Wall time of the whole run.
    pub seconds: f64,
    /// Boards drawn and searched per second.
    pub boards_per_second: f64,
}

impl StatsReport {
    /// The report of `sizes` drawn from `seed` in `seconds`.
    pub fn new(seed: u64, sizes: Vec<SizeStats>, seconds: f64) -> Self {
        let boards: u64 = sizes.iter().map(|s| s.boards).sum();
        StatsReport {
            seed,
            sizes,
            seconds,
            boards_per_second: boards as f64 / seconds,
        }
    }
}

/// Boards per parallel task: each task draws from its own stream, so results do not depend on threads.
const CHUNK: u64 = 4096;

/// What one board costs [`stats`], in squares: its d² squares plus this much for drawing the goal and
/// counting. Measured (CPU time, release build): 0.67 µs per 5×5 board, 1.9 µs per 20×20, 94 µs per
/// 200×200, 42 ms per 2000×2000: 5.4, 3.8, 2.3 and 10.6 ns per square so counted.
pub const BOARD_OVERHEAD: u128 = 100;

/// Most work one `stats` request may take, in squares (see [`BOARD_OVERHEAD`]): at 10⁸ squares a
/// second per core, the slowest rate measured (2000×2000 boards), about 5 core-minutes; the seed's
/// 100 000 boards of each size 5 to 20 are 4.4·10⁸.
pub const MAX_STATS_WORK: u128 = 30_000_000_000;

/// A `stats` request refused before any board is drawn.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum StatsError {
    /// A size outside the rule.
    #[error(transparent)]
    Size(#[from] BoardError),
    /// Too much work.
    #[error(
        "{boards} boards of {} are {:.1e} squares to draw and search; the limit is {:.1e}, a few \
         minutes",
        size_text(sizes),
        *work as f64,
        MAX_STATS_WORK as f64
    )]
    TooMuch {
        /// Boards per size.
        boards: u64,
        /// The sizes.
        sizes: RangeInclusive<usize>,
        /// Squares in all, with [`BOARD_OVERHEAD`] per board.
        work: u128,
    },
}

impl StatsError {
    /// The size fault, if that is what this is.
    pub fn size_fault(&self) -> Option<&SizeFault> {
        match self {
            StatsError::Size(e) => e.size_fault(),
            StatsError::TooMuch { .. } => None,
        }
    }
}

/// `size 20` or `sizes 5 to 20`, for messages.
fn size_text(sizes: &RangeInclusive<usize>) -> String {
    match sizes.start() == sizes.end() {
        true => format!("size {}", sizes.start()),
        false => format!("sizes {} to {}", sizes.start(), sizes.end()),
    }
}

/// Checks a whole `stats` request before any work: every size against `rule` (the smallest and the
/// largest, the range being whole), and the work against [`MAX_STATS_WORK`]. Returns the work.
pub fn check_stats(
    sizes: RangeInclusive<usize>,
    boards: u64,
    rule: SizeRule,
) -> Result<u128, StatsError> {
    rule.check(*sizes.start())?;
    rule.check(*sizes.end())?;
    let work: u128 = sizes
        .clone()
        .map(|d| boards as u128 * ((d * d) as u128 + BOARD_OVERHEAD))
        .sum();
    if work > MAX_STATS_WORK {
        return Err(StatsError::TooMuch {
            boards,
            sizes,
            work,
        });
    }
    Ok(work)
}

/// Generates `boards` random legal boards of size `d` (checked against `rule`) from `seed` and counts
/// which corners solve them, telling `progress` the boards done so far now and then. Callers check the
/// work first with [`check_stats`].
pub fn stats(
    d: usize,
    boards: u64,
    seed: u64,
    rule: SizeRule,
    progress: Option<Progress<'_>>,
) -> Result<SizeStats, BoardError> {
    rule.check(d)?;
    let chunks = boards.div_ceil(CHUNK);
    let done = std::sync::atomic::AtomicU64::new(0);
    let report = |boards: u64| {
        let finished = done.fetch_add(boards, std::sync::atomic::Ordering::Relaxed) + boards;
        if let Some(progress) = progress {
            progress(finished);
        }
    };
    let counts = (0..chunks)
        .into_par_iter()
        .map(|chunk| {
            let stream = seed
                ^ (d as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
                ^ chunk.wrapping_mul(0xD1B5_4A32_D192_ED03);
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(stream);
            let (mut verdicts, mut values) = scratch(d)?;
            let mut counts = [[0u64; 2]; 5];
            // Progress is told every 2^20 squares or so, so that big boards show it too.
            let report_every = (1u64 << 20).div_ceil((d * d) as u64);
            let mut unreported = 0u64;
            for _ in 0..CHUNK.min(boards - chunk * CHUNK) {
                let board = random_board(d, &mut rng, values);
                let goal = board.goal;
                let corners = board.corners().map(|(r, c)| board.square(r, c));
                let reach = verdicts.reach_with_predecessors(&board, &corners, goal);
                let mut any = false;
                for (i, (&s, &ok)) in corners.iter().zip(&reach).enumerate() {
                    if s != goal {
                        counts[i][0] += 1;
                        counts[i][1] += ok as u64;
                        any |= ok;
                    }
                }
                counts[4][0] += 1;
                counts[4][1] += any as u64;
                values = board.values;
                unreported += 1;
                if unreported == report_every {
                    report(unreported);
                    unreported = 0;
                }
            }
            report(unreported);
            Ok::<_, MemoryError>(counts)
        })
        .try_reduce(
            || [[0u64; 2]; 5],
            |mut a, b| {
                for (x, y) in a.iter_mut().zip(b) {
                    x[0] += y[0];
                    x[1] += y[1];
                }
                Ok(a)
            },
        )?;
    let stat = |[starts, solvable]: [u64; 2]| CornerStats {
        starts,
        solvable,
        estimate: Estimate::wilson(solvable, starts.max(1)),
    };
    Ok(SizeStats {
        d,
        boards,
        corners: counts[..4].iter().map(|&c| stat(c)).collect(),
        any_corner: stat(counts[4]),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const EXAMPLE: &str = "4 4 4 1 1\n2 4 1 4 3\n0 2 1 3 2\n3 2 3 2 3\n3 4 2 2 1\n";

    #[test]
    fn the_issue_example() {
        let board = Board::parse(EXAMPLE, SizeRule::Seed).unwrap();
        let r = solve(&board, None, MemoryBudget::new(1 << 30)).unwrap();
        assert_eq!(r.goal, [2, 0]);
        assert!(r.corners.iter().all(|c| c.solvable));
        assert_eq!(
            r.corners[0].path,
            Some(vec![[0, 0], [4, 0], [4, 3], [2, 3], [2, 0]])
        );
        assert_eq!(
            r.corners
                .iter()
                .map(|c| c.moves.unwrap())
                .collect::<Vec<_>>(),
            vec![4, 5, 3, 3]
        );
        assert_eq!(board.to_text(), EXAMPLE);
    }

    #[test]
    fn rule_errors() {
        let err = |t: &str| Board::parse(t, SizeRule::Seed).unwrap_err().to_string();
        assert_eq!(err(""), "the board is empty");
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
        let mut bad = EXAMPLE.replace("0 2 1 3 2", "0 2 1 3 5");
        assert_eq!(
            err(&bad),
            "row 2, column 4: 5 is outside 0 to 4 (values must be below the size 5)"
        );
        bad = EXAMPLE.replace("0 2 1 3 2", "0 2 1 3");
        assert_eq!(
            err(&bad),
            "row 2 has 4 numbers but row 0 has 5 (rows must be equally long)"
        );
        bad = EXAMPLE.replace("3 4 2 2 1\n", "");
        assert_eq!(err(&bad), "the board is not square: 4 rows of 5 numbers");
        bad = EXAMPLE.replace("0 2 1 3 2", "1 2 1 3 2");
        assert_eq!(
            err(&bad),
            "no square holds 0: the board needs exactly one goal"
        );
        bad = EXAMPLE.replace("3 2 3 2 3", "3 2 0 2 3");
        assert_eq!(err(&bad), "row 3, column 2 holds a second 0 (the first is at row 2, column 0): the board needs exactly one goal");
        bad = EXAMPLE.replace("3 2 3 2 3", "3 2 x 2 3");
        assert_eq!(err(&bad), "row 3, column 2: `x` is not a whole number");
        bad = EXAMPLE.replace("4 4 4 1 1", "4 4 9 1 1");
        assert_eq!(
            err(&bad),
            "row 0, column 2: 9 is outside 0 to 4 (values must be below the size 5)"
        );
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

    #[test]
    fn starts_must_be_corners_other_than_the_goal() {
        let board = Board::parse(
            &EXAMPLE
                .replace("4 4 4 1 1", "0 4 4 1 1")
                .replace("0 2 1 3 2", "1 2 1 3 2"),
            SizeRule::Seed,
        )
        .unwrap();
        let budget = MemoryBudget::new(1 << 30);
        assert_eq!(
            solve(&board, Some((0, 0)), budget).unwrap_err().to_string(),
            "(0,0) is the goal; start from another corner"
        );
        assert_eq!(
            solve(&board, Some((1, 0)), budget).unwrap_err().to_string(),
            "(1,0) is not a corner; the starts are (0,0), (0,4), (4,0) and (4,4)"
        );
        let r = solve(&board, None, budget).unwrap();
        assert!(r.corners[0].is_goal && !r.corners[0].solvable);
    }

    #[test]
    fn generated_boards_are_legal_and_reproducible() {
        for d in [5, 12, 20] {
            let a = generate(d, 7, Wanted::Any, SizeRule::Seed).unwrap();
            assert_eq!(a, generate(d, 7, Wanted::Any, SizeRule::Seed).unwrap());
            assert_eq!(Board::parse(&a.to_text(), SizeRule::Seed).unwrap(), a);
            let s = generate(d, 7, Wanted::Solvable, SizeRule::Seed).unwrap();
            let r = solve(&s, None, MemoryBudget::new(1 << 30)).unwrap();
            assert!(r.corners.iter().all(|c| c.solvable || c.is_goal));
            let u = generate(d, 7, Wanted::Unsolvable, SizeRule::Seed).unwrap();
            let r = solve(&u, None, MemoryBudget::new(1 << 30)).unwrap();
            assert!(r.corners.iter().all(|c| !c.solvable));
        }
    }
}
