//! A Number Solitaire question as every front end asks it: the `ply solitaire` arguments and the
//! `POST /api/solitaire` JSON are one [`SolitaireRequest`] (keys: the command's long option names,
//! and `squares`), checked once and answered by [`SolitaireRequest::answer`], or by
//! [`SolitaireRequest::answer_from`] when the board is a stream (`--input FILE`). Its faults name the
//! option that asked for what is refused, in the caller's terms ([`Worded`]): `--explain` on the
//! command line, `"explain": true` in the API, `explain=True` in Python.

use super::{
    solve, solve_numbers, PathMode, SolitaireError, SolitaireQuery, SolitaireReport,
    DISTRIBUTION_LIMIT,
};
use crate::engine::util::halt::{Halt, NEVER};
use crate::input::number_list::NumberList;
use crate::input::surface::{Surface, Value, Worded};
use serde::{Deserialize, Serialize};
use std::io::Read;
use thiserror::Error;

/// The faces of the die when the request names none.
pub const DEFAULT_DIE: u64 = 6;

fn default_die() -> u64 {
    DEFAULT_DIE
}

/// A Number Solitaire question, unchecked.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SolitaireRequest {
    /// The numbers on the squares from square 0: a JSON list, or one text as the command line's
    /// arguments write them. An empty list is no board at all (unless the board is read from a
    /// stream: [`SolitaireRequest::answer_from`]); a text is read, and one without a number is an
    /// empty board.
    pub squares: NumberList,
    /// Faces of the die (default 6).
    #[serde(default = "default_die")]
    pub die: u64,
    /// The best result alone, in memory independent of the board's length.
    #[serde(default)]
    pub no_path: bool,
    /// The path even for boards over [`PATH_LIMIT`](super::PATH_LIMIT) squares.
    #[serde(default)]
    pub path: bool,
    /// Also the expected result under fair throws.
    #[serde(default)]
    pub expected: bool,
    /// Also the probability of each result under fair throws (implies `expected`).
    #[serde(default)]
    pub distribution: bool,
    /// Also the original program's table of best totals, square by square.
    #[serde(default)]
    pub explain: bool,
}

impl Default for SolitaireRequest {
    /// No board yet, a six-sided die, the path as the board's length allows, nothing more.
    fn default() -> Self {
        SolitaireRequest {
            squares: NumberList::default(),
            die: DEFAULT_DIE,
            no_path: false,
            path: false,
            expected: false,
            distribution: false,
            explain: false,
        }
    }
}

/// Why a request is not answered. Its messages name the request's options as the surface the
/// request came through names them ([`Worded`]); `Display` is the command line's wording.
#[derive(Debug, Error)]
#[error("{}", self.worded(Surface::Cli))]
pub enum SolitaireFault {
    /// No numbers at all.
    NoBoard,
    /// Numbers and a stream both (only the command line reads a board from a stream).
    TwoBoards,
    /// `no_path` and `path` together.
    PathConflict,
    /// The board or what it was asked for, refused by the solver.
    Solve(#[from] SolitaireError),
}

impl SolitaireFault {
    /// Whether the request was refused for the work or time it would take (a server's 422).
    pub fn is_over_budget(&self) -> bool {
        matches!(self, SolitaireFault::Solve(e) if e.is_over_budget())
    }
}

impl Worded for SolitaireFault {
    /// A fault worded with the option that asked: `--explain is for boards of at most 40 squares`,
    /// `"distribution": true …`, `no_path=True cannot be used with path=True`.
    fn worded(&self, surface: Surface) -> String {
        let on = |key| surface.setting(key, Value::On);
        match self {
            // The command line takes the board as its arguments or from a file; the others, as
            // `squares`.
            SolitaireFault::NoBoard if surface == Surface::Cli => {
                "no board: give the numbers as arguments or with --input FILE".to_string()
            }
            SolitaireFault::NoBoard => format!(
                "no board: {} is an empty list; give at least one number",
                surface.name("squares")
            ),
            SolitaireFault::TwoBoards => {
                "give the board once: as numbers or with --input FILE, not both".to_string()
            }
            SolitaireFault::PathConflict => {
                format!("{} cannot be used with {}", on("no_path"), on("path"))
            }
            SolitaireFault::Solve(SolitaireError::ExplainTooLong(limit)) => {
                format!("{} {limit}", on("explain"))
            }
            SolitaireFault::Solve(SolitaireError::DistributionTooLong(limit)) => {
                format!("{} {limit}", on("distribution"))
            }
            SolitaireFault::Solve(SolitaireError::TooManyTotals(totals)) => format!(
                "{totals}; {} lists at most {DISTRIBUTION_LIMIT}",
                on("distribution")
            ),
            SolitaireFault::Solve(e) => e.to_string(),
        }
    }
}

impl SolitaireRequest {
    /// What to compute, checked: `no_path` and `path` exclude each other; a distribution implies
    /// the expected result. The die is checked by the solver, before the first square is read.
    pub fn validate(&self) -> Result<SolitaireQuery, SolitaireFault> {
        let path = match (self.no_path, self.path) {
            (true, true) => return Err(SolitaireFault::PathConflict),
            (true, false) => PathMode::Never,
            (false, true) => PathMode::Always,
            (false, false) => PathMode::Auto,
        };
        Ok(SolitaireQuery {
            faces: self.die,
            path,
            expected: self.expected || self.distribution,
            distribution: self.distribution,
            explain: self.explain,
        })
    }

    /// Answers with the board of `squares` (a distribution over the default limit refused with
    /// its estimate).
    pub fn answer(&self) -> Result<SolitaireReport, SolitaireFault> {
        self.answer_until(&NEVER)
    }

    /// [`SolitaireRequest::answer`] under `halt`: a distribution is refused over what the halt's
    /// deadline leaves, and stopped when it comes.
    pub fn answer_until(&self, halt: &Halt) -> Result<SolitaireReport, SolitaireFault> {
        if self.squares.is_empty_list() {
            return Err(SolitaireFault::NoBoard);
        }
        let options = self.validate()?;
        Ok(match &self.squares {
            NumberList::Text(text) => solve(text.as_bytes(), options, halt),
            NumberList::Numbers(numbers) => solve_numbers(numbers, options, halt),
        }?)
    }

    /// Answers with the board read from `input` as a stream (a file of 10^8 numbers works); the
    /// request's `squares` must be an empty list.
    pub fn answer_from<R: Read>(&self, input: R) -> Result<SolitaireReport, SolitaireFault> {
        if !self.squares.is_empty_list() {
            return Err(SolitaireFault::TwoBoards);
        }
        Ok(solve(input, self.validate()?, &NEVER)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(json: &str) -> Result<SolitaireReport, String> {
        let request: SolitaireRequest = serde_json::from_str(json).map_err(|e| e.to_string())?;
        request.answer().map_err(|e| e.to_string())
    }

    #[test]
    fn json_and_text_give_the_same_board() {
        let numbers = answer(r#"{"squares":[1,-2,0,9,-1,-2]}"#).unwrap();
        let text = answer(r#"{"squares":"1 -2,0 9 -1 -2"}"#).unwrap();
        assert_eq!(numbers, text);
        assert_eq!((numbers.best, &numbers.path), (8, &Some(vec![0, 3, 5])));
        let streamed = SolitaireRequest::default()
            .answer_from("1 -2 0 9 -1 -2".as_bytes())
            .unwrap();
        assert_eq!(streamed, numbers);
        let r =
            answer(r#"{"squares":[1,-2,0,9,-1,-2],"no_path":true,"distribution":true}"#).unwrap();
        assert_eq!((r.path, r.expected_exact.is_some()), (None, true));
    }

    #[test]
    fn faults_name_the_option() {
        assert_eq!(
            answer(r#"{"squares":[]}"#).unwrap_err(),
            "no board: give the numbers as arguments or with --input FILE"
        );
        assert_eq!(
            answer(r#"{"squares":" "}"#).unwrap_err(),
            "the board is empty: give at least one number"
        );
        assert_eq!(
            answer(r#"{"squares":[1,2],"die":0}"#).unwrap_err(),
            "the die must have 1 to 1000000 faces, not 0"
        );
        assert_eq!(
            answer(r#"{"squares":[1],"path":true,"no_path":true}"#).unwrap_err(),
            "--no-path cannot be used with --path"
        );
        let squares: Vec<String> = (1..=41).map(|i| i.to_string()).collect();
        assert_eq!(
            answer(&format!(
                r#"{{"squares":[{}],"explain":true}}"#,
                squares.join(",")
            ))
            .unwrap_err(),
            "--explain is for boards of at most 40 squares; this one has 41"
        );
        assert_eq!(
            answer(r#"{"squares":[1,2.5]}"#).unwrap_err(),
            "token 2 (line 1) `2.5` is not an integer"
        );
        assert_eq!(
            answer(r#"{"squares":[9223372036854775808]}"#).unwrap_err(),
            "token 1 (line 1) `9223372036854775808` is outside the 64-bit integer range"
        );
        let e = serde_json::from_str::<SolitaireRequest>(r#"{"squares":[1],"colour":1}"#)
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("unknown field `colour`"), "{e}");
        let two = SolitaireRequest {
            squares: NumberList::text("1"),
            ..SolitaireRequest::default()
        };
        assert!(matches!(
            two.answer_from("1".as_bytes()),
            Err(SolitaireFault::TwoBoards)
        ));
    }

    #[test]
    fn faults_name_options_in_the_callers_terms() {
        let each = |json: &str| {
            let request: SolitaireRequest = serde_json::from_str(json).unwrap();
            let e = request.answer().unwrap_err();
            [Surface::Cli, Surface::Api, Surface::Python].map(|s| e.worded(s))
        };
        assert_eq!(
            each(r#"{"squares":[]}"#),
            [
                "no board: give the numbers as arguments or with --input FILE",
                "no board: \"squares\" is an empty list; give at least one number",
                "no board: squares is an empty list; give at least one number",
            ]
        );
        assert_eq!(
            each(r#"{"squares":[1],"path":true,"no_path":true}"#),
            [
                "--no-path cannot be used with --path",
                "\"no_path\": true cannot be used with \"path\": true",
                "no_path=True cannot be used with path=True",
            ]
        );
        let squares: Vec<String> = (1..=41).map(|i| i.to_string()).collect();
        let explain = format!(r#"{{"squares":[{}],"explain":true}}"#, squares.join(","));
        let rest = "is for boards of at most 40 squares; this one has 41";
        assert_eq!(
            each(&explain),
            [
                format!("--explain {rest}"),
                format!("\"explain\": true {rest}"),
                format!("explain=True {rest}"),
            ]
        );
    }
}
