//! MagicBoard questions as every front end asks them: a board solved ([`MagicBoardRequest`]: `ply
//! magic-board FILE`, `POST /api/magic-board`) and a board generated ([`GenerateRequest`]: `ply
//! magic-board generate`, `POST /api/magic-board/generate`), whose keys are the commands' long option
//! names (and `board`, the board's text). Each is checked once (`validate`); a size outside the
//! original program's rule names the option that lifts it, in the caller's terms ([`worded`]:
//! `--any-size`, `"any_size": true`, `any_size=True`).

use super::generated::{generated, GeneratedBoard};
use super::{
    check_stats, solve_within, stats, Board, BoardReport, GenerateError, ParseBoardError,
    SizeFault, SizeRule, SizeStats, SolveBoardError, StatsError, StatsReport, Wanted,
};
use crate::engine::util::cost::WorkLimit;
use crate::engine::util::halt::{Halt, NEVER};
use crate::engine::util::memory::MemoryBudget;
use crate::engine::util::progress::Progress;
use crate::input::surface::{Surface, Value, Worded};
use serde::{Deserialize, Serialize};
use std::fmt::Display;
use std::io::BufRead;
use thiserror::Error;

/// The seed of a generated board when a request names none.
pub const DEFAULT_SEED: u64 = 1;

fn default_seed() -> u64 {
    DEFAULT_SEED
}

/// Boards drawn per size when a statistics request names no number.
pub const DEFAULT_BOARDS: u64 = 100_000;

fn default_boards() -> u64 {
    DEFAULT_BOARDS
}

/// A board to solve, unchecked: `ply magic-board FILE [--start R,C] [--any-size]`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MagicBoardRequest {
    /// The board as text: d lines of d numbers (left empty when the board is read from a stream:
    /// [`MagicBoardRequest::validate_from`]).
    pub board: String,
    /// One corner only, `[row, col]` (zero-based); every corner when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<[usize; 2]>,
    /// Sizes 2 to 4096 instead of the original program's 5 to 20.
    #[serde(default)]
    pub any_size: bool,
}

/// A board to generate, unchecked: `ply magic-board generate --size D [--seed S] [--solvable |
/// --unsolvable] [--any-size]`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GenerateRequest {
    /// The size d.
    pub size: usize,
    /// Seed of the random generator (default 1): the same seed gives the same board.
    #[serde(default = "default_seed")]
    pub seed: u64,
    /// Only a board solvable from every corner that is not the goal.
    #[serde(default)]
    pub solvable: bool,
    /// Only a board solvable from no corner.
    #[serde(default)]
    pub unsolvable: bool,
    /// Sizes 2 to 4096 instead of the original program's 5 to 20.
    #[serde(default)]
    pub any_size: bool,
}

/// Statistics of solvability asked for, unchecked: `ply magic-board stats (--size D | --sizes
/// LOW..HIGH) [--boards N] [--seed S] [--any-size]`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StatsRequest {
    /// One size.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<usize>,
    /// A range of sizes, `[low, high]` (the command line writes `low..high`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sizes: Option<[usize; 2]>,
    /// Boards drawn per size (default 100 000).
    #[serde(default = "default_boards")]
    pub boards: u64,
    /// Seed of the random generator (default 1).
    #[serde(default = "default_seed")]
    pub seed: u64,
    /// Sizes 2 to 4096 instead of the original program's 5 to 20.
    #[serde(default)]
    pub any_size: bool,
}

/// Why a request is not answered. Its messages name the request's options as the surface the
/// request came through names them ([`Worded`]); `Display` is the command line's wording.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{}", self.worded(Surface::Cli))]
pub enum MagicBoardFault {
    /// A board that does not parse, or breaks the size rule.
    Board(#[from] ParseBoardError),
    /// A board's text and a stream both (only the command line reads a board from a stream).
    TwoBoards,
    /// A start refused, a search over the memory budget or its work limit, or halted.
    Solve(#[from] SolveBoardError),
    /// No board generated: a size outside the rule, or none with the property in the attempts made.
    Generate(#[from] GenerateError),
    /// `solvable` and `unsolvable` together.
    WantedConflict,
    /// Statistics refused before any board is drawn: a size outside the rule, or too much work.
    Stats(#[from] StatsError),
    /// Statistics of no size, or of a size and a range both.
    SizeOrSizes,
    /// A range of sizes from a larger to a smaller.
    EmptyRange([usize; 2]),
    /// Statistics over no boards.
    NoBoards,
}

impl MagicBoardFault {
    /// Whether this is work over a memory budget or a work limit, or halted (a server's 422),
    /// rather than a bad request.
    pub fn is_over_budget(&self) -> bool {
        matches!(
            self,
            MagicBoardFault::Solve(
                SolveBoardError::Memory(_)
                    | SolveBoardError::CornerShare { .. }
                    | SolveBoardError::TooSlow(_)
                    | SolveBoardError::Halted(_),
            ) | MagicBoardFault::Generate(
                GenerateError::NotFound { .. } | GenerateError::Halted(_)
            ) | MagicBoardFault::Stats(StatsError::TooSlow(_))
        )
    }
}

impl Worded for MagicBoardFault {
    /// A size outside the original program's rule names `any_size`, which lifts it; `solvable`
    /// and `unsolvable` together name both.
    fn worded(&self, surface: Surface) -> String {
        match self {
            MagicBoardFault::Board(e) => worded(e, e.size_fault(), surface),
            MagicBoardFault::TwoBoards => {
                "give the board once: as text or from a file, not both".to_string()
            }
            MagicBoardFault::Solve(e) => e.to_string(),
            MagicBoardFault::Generate(e) => worded(e, e.size_fault(), surface),
            MagicBoardFault::WantedConflict => format!(
                "{} cannot be used with {}",
                surface.setting("solvable", Value::On),
                surface.setting("unsolvable", Value::On)
            ),
            MagicBoardFault::Stats(e) => worded(e, e.size_fault(), surface),
            MagicBoardFault::SizeOrSizes => format!(
                "give one of {} and {}",
                surface.name("size"),
                surface.name("sizes")
            ),
            MagicBoardFault::EmptyRange([low, high]) => {
                format!(
                    "{}: {low} to {high} is an empty range",
                    surface.name("sizes")
                )
            }
            MagicBoardFault::NoBoards => format!("{} must be at least 1", surface.name("boards")),
        }
    }
}

/// A MagicBoard fault `e` as `surface` words it: a size outside the original program's rule
/// (`size`) names the option that lifts it (`--any-size`, `"any_size": true`, `any_size=True`);
/// any other fault as it is.
pub fn worded(e: &impl Display, size: Option<&SizeFault>, surface: Surface) -> String {
    match size {
        Some(fault) => fault.lifted_by(&surface.setting("any_size", Value::On)),
        None => e.to_string(),
    }
}

/// The size rule `any_size` asks for.
pub fn size_rule(any_size: bool) -> SizeRule {
    if any_size {
        SizeRule::Any
    } else {
        SizeRule::Seed
    }
}

/// A checked board and start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MagicBoardQuery {
    /// The board, read under the size rule asked for.
    pub board: Board,
    /// The corner asked for, if one (checked against the board when solving).
    pub start: Option<(usize, usize)>,
}

impl MagicBoardQuery {
    /// Every corner's verdict and shortest path (or the one corner asked), the searches sharing
    /// `budget`: a front end's memory (`--memory`, or a server's share).
    pub fn answer(&self, budget: MemoryBudget) -> Result<BoardReport, MagicBoardFault> {
        self.answer_until(budget, &NEVER)
    }

    /// [`MagicBoardQuery::answer`] under `halt`: refused first over the default limit, or what the
    /// halt's deadline leaves ([`super::solve_work`]), stopped when it comes.
    pub fn answer_until(
        &self,
        budget: MemoryBudget,
        halt: &Halt,
    ) -> Result<BoardReport, MagicBoardFault> {
        let limit = WorkLimit::DEFAULT.within(halt);
        Ok(solve_within(&self.board, self.start, budget, limit, halt)?)
    }
}

impl MagicBoardRequest {
    /// Reads the board's text.
    pub fn validate(&self) -> Result<MagicBoardQuery, MagicBoardFault> {
        self.query(Board::parse(&self.board, size_rule(self.any_size))?)
    }

    /// Reads the board from `input`, a stream (a file or stdin), row by row; the request's `board`
    /// must be empty.
    pub fn validate_from<R: BufRead>(&self, input: R) -> Result<MagicBoardQuery, MagicBoardFault> {
        if !self.board.is_empty() {
            return Err(MagicBoardFault::TwoBoards);
        }
        self.query(Board::read(input, size_rule(self.any_size))?)
    }

    fn query(&self, board: Board) -> Result<MagicBoardQuery, MagicBoardFault> {
        Ok(MagicBoardQuery {
            board,
            start: self.start.map(|[row, col]| (row, col)),
        })
    }
}

/// A checked generation request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GenerateQuery {
    /// The size d (checked against the rule when generating).
    pub size: usize,
    /// Seed of the random generator.
    pub seed: u64,
    /// What the board must satisfy.
    pub wanted: Wanted,
    /// The size rule.
    pub rule: SizeRule,
}

impl GenerateQuery {
    /// The board, drawn from the seed (at most the tries the default work limit allows).
    pub fn answer(&self) -> Result<GeneratedBoard, MagicBoardFault> {
        self.answer_until(&NEVER)
    }

    /// [`GenerateQuery::answer`] under `halt`: the tries are what its deadline leaves, and drawing
    /// stops when it comes.
    pub fn answer_until(&self, halt: &Halt) -> Result<GeneratedBoard, MagicBoardFault> {
        Ok(generated(
            self.size,
            self.seed,
            self.wanted,
            self.rule,
            halt,
        )?)
    }
}

impl GenerateRequest {
    /// Checks that `solvable` and `unsolvable` are not both asked for.
    pub fn validate(&self) -> Result<GenerateQuery, MagicBoardFault> {
        let wanted = match (self.solvable, self.unsolvable) {
            (true, true) => return Err(MagicBoardFault::WantedConflict),
            (true, false) => Wanted::Solvable,
            (false, true) => Wanted::Unsolvable,
            (false, false) => Wanted::Any,
        };
        Ok(GenerateQuery {
            size: self.size,
            seed: self.seed,
            wanted,
            rule: size_rule(self.any_size),
        })
    }

    /// The generated board: what `ply magic-board generate --json` prints.
    pub fn answer(&self) -> Result<GeneratedBoard, MagicBoardFault> {
        self.validate()?.answer()
    }
}

/// A checked statistics request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatsQuery {
    /// The sizes, smallest first (checked against the rule, with the work, when answering).
    pub sizes: [usize; 2],
    /// Boards per size, at least 1.
    pub boards: u64,
    /// Seed of the random generator.
    pub seed: u64,
    /// The size rule.
    pub rule: SizeRule,
}

impl StatsQuery {
    /// Every size's statistics, refused before any board is drawn over `limit` ([`check_stats`]),
    /// `progress` told the boards done in all now and then; timed.
    pub fn answer_within(
        &self,
        limit: WorkLimit,
        progress: Option<Progress<'_>>,
    ) -> Result<StatsReport, MagicBoardFault> {
        let [low, high] = self.sizes;
        check_stats(low..=high, self.boards, self.rule, limit)?;
        let started = std::time::Instant::now();
        let mut results: Vec<SizeStats> = Vec::new();
        for d in low..=high {
            let before = self.boards * results.len() as u64;
            let update = |done: u64| {
                if let Some(progress) = progress {
                    progress(before + done);
                }
            };
            let size = stats(d, self.boards, self.seed, self.rule, Some(&update))
                .map_err(StatsError::from)?;
            results.push(size);
        }
        Ok(StatsReport::new(
            self.seed,
            results,
            started.elapsed().as_secs_f64(),
        ))
    }
}

impl StatsRequest {
    /// Checks that one of `size` and `sizes` is given, the range is not empty and boards are
    /// drawn.
    pub fn validate(&self) -> Result<StatsQuery, MagicBoardFault> {
        let sizes = match (self.size, self.sizes) {
            (Some(d), None) => [d, d],
            (None, Some([low, high])) if low > high => {
                return Err(MagicBoardFault::EmptyRange([low, high]))
            }
            (None, Some(range)) => range,
            _ => return Err(MagicBoardFault::SizeOrSizes),
        };
        if self.boards == 0 {
            return Err(MagicBoardFault::NoBoards);
        }
        Ok(StatsQuery {
            sizes,
            boards: self.boards,
            seed: self.seed,
            rule: size_rule(self.any_size),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const EXAMPLE: &str = "4 4 4 1 1\n2 4 1 4 3\n0 2 1 3 2\n3 2 3 2 3\n3 4 2 2 1\n";

    fn solve_json(json: &str) -> Result<BoardReport, String> {
        let request: MagicBoardRequest = serde_json::from_str(json).map_err(|e| e.to_string())?;
        let query = request.validate().map_err(|e| e.to_string())?;
        query
            .answer(MemoryBudget::new(1 << 30))
            .map_err(|e| e.to_string())
    }

    #[test]
    fn text_and_stream_give_the_same_board() {
        let json = serde_json::json!({ "board": EXAMPLE, "start": [4, 4] }).to_string();
        let r = solve_json(&json).unwrap();
        assert_eq!((r.goal, r.corners.len()), ([2, 0], 1));
        let request = MagicBoardRequest {
            start: Some([4, 4]),
            ..MagicBoardRequest::default()
        };
        let streamed = request.validate_from(EXAMPLE.as_bytes()).unwrap();
        let budget = MemoryBudget::new(1 << 30);
        assert_eq!(streamed.answer(budget).unwrap(), r);
        let both = MagicBoardRequest {
            board: EXAMPLE.to_string(),
            ..MagicBoardRequest::default()
        };
        assert_eq!(
            both.validate_from(EXAMPLE.as_bytes()),
            Err(MagicBoardFault::TwoBoards)
        );
    }

    #[test]
    fn faults_name_the_option() {
        assert_eq!(
            solve_json(r#"{"board":"1 0\n1 1"}"#).unwrap_err(),
            "a board of size 2 breaks the size rule (5 to 20; --any-size allows 2 to 4096)"
        );
        assert_eq!(
            solve_json(r#"{"board":"1 0\n1 1","any_size":true,"start":[0,1]}"#).unwrap_err(),
            "(0,1) is the goal; start from another corner"
        );
        let generate = |json: &str| {
            serde_json::from_str::<GenerateRequest>(json)
                .unwrap()
                .answer()
                .map_err(|e| e.to_string())
        };
        assert_eq!(
            generate(r#"{"size":3}"#).unwrap_err(),
            "a board of size 3 breaks the size rule (5 to 20; --any-size allows 2 to 4096)"
        );
        assert_eq!(
            generate(r#"{"size":6,"solvable":true,"unsolvable":true}"#).unwrap_err(),
            "--solvable cannot be used with --unsolvable"
        );
        let board = generate(r#"{"size":6,"seed":3,"solvable":true}"#).unwrap();
        assert_eq!((board.size, board.seed), (6, 3));
        let e = serde_json::from_str::<GenerateRequest>(r#"{"size":6,"colour":1}"#).unwrap_err();
        assert!(e.to_string().starts_with("unknown field `colour`"), "{e}");
    }

    #[test]
    fn faults_name_options_in_the_callers_terms() {
        let each =
            |e: MagicBoardFault| [Surface::Cli, Surface::Api, Surface::Python].map(|s| e.worded(s));
        let small: MagicBoardRequest = serde_json::from_str(r#"{"board":"1 0\n1 1"}"#).unwrap();
        let rule = "a board of size 2 breaks the size rule (5 to 20;";
        assert_eq!(
            each(small.validate().unwrap_err()),
            [
                format!("{rule} --any-size allows 2 to 4096)"),
                format!("{rule} \"any_size\": true allows 2 to 4096)"),
                format!("{rule} any_size=True allows 2 to 4096)"),
            ]
        );
        let both: GenerateRequest =
            serde_json::from_str(r#"{"size":8,"solvable":true,"unsolvable":true}"#).unwrap();
        assert_eq!(
            each(both.validate().unwrap_err()),
            [
                "--solvable cannot be used with --unsolvable",
                "\"solvable\": true cannot be used with \"unsolvable\": true",
                "solvable=True cannot be used with unsolvable=True",
            ]
        );
    }
}
