//! The other endpoints: each parses its body into the CLI's options and calls the library function the
//! CLI calls, so the answer is the CLI's `--json` output for the same input.

use crate::error::ApiError;
use crate::limits::{MAGIC_MEMORY, MAX_LISTS, MAX_MAGIC_SIZE, MAX_PICKS};
use ply::engine::impartial::Convention;
use ply::engine::MemoryBudget;
use ply::games::dice_race::report::{compare_written, written_list};
use ply::games::dice_race::search::{best, equilibrium, multiset_count, SearchError};
use ply::games::dice_race::{Dice, RaceError};
use ply::games::heaps::player::heap_reply;
use ply::games::heaps::{analyse, parse_sizes};
use ply::games::magic_board::generated::generated;
use ply::games::magic_board::{solve as solve_board, Board, SizeRule, SolveBoardError, Wanted};
use ply::games::solitaire::{solve as solve_solitaire, PathMode, SolitaireOptions};
use ply::option_hints;
use serde::Deserialize;
use serde_json::Number;

/// A report as the CLI prints it with `--json`: one line of JSON and a newline.
pub(crate) fn json(value: &impl serde::Serialize) -> Result<String, ApiError> {
    serde_json::to_string(value)
        .map(|s| s + "\n")
        .map_err(|e| ApiError {
            status: axum::http::StatusCode::INTERNAL_SERVER_ERROR,
            message: format!("cannot write JSON: {e}"),
        })
}

/// Numbers as the CLI would read them from its arguments.
fn numbers(list: &[Number], separator: &str) -> String {
    list.iter()
        .map(Number::to_string)
        .collect::<Vec<_>>()
        .join(separator)
}

/// `POST /api/solitaire`: `ply solitaire SQUARES --die K [--expected] [--distribution] [--explain] --json`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SolitaireRequest {
    squares: Vec<Number>,
    #[serde(default = "six")]
    die: u64,
    #[serde(default)]
    expected: bool,
    #[serde(default)]
    distribution: bool,
    #[serde(default)]
    explain: bool,
}

fn six() -> u64 {
    6
}

/// Answers `POST /api/solitaire`.
pub fn solitaire(r: &SolitaireRequest) -> Result<String, ApiError> {
    if r.squares.is_empty() {
        return Err(ApiError::bad(
            "no board: give the numbers as arguments or with --input FILE",
        ));
    }
    let options = SolitaireOptions {
        faces: r.die,
        path: PathMode::Auto,
        expected: r.expected || r.distribution,
        distribution: r.distribution,
        explain: r.explain,
    };
    let text = numbers(&r.squares, " ");
    json(
        &solve_solitaire(text.as_bytes(), options)
            .map_err(|e| ApiError::bad(option_hints::solitaire(&e)))?,
    )
}

/// `POST /api/heaps`: `ply heaps SIZES [--misere] [--grundy] --json`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HeapsRequest {
    heaps: Vec<Number>,
    #[serde(default)]
    misere: bool,
    /// Accepted for symmetry with the CLI; the JSON always holds the Grundy value.
    #[serde(default)]
    #[allow(dead_code)]
    grundy: bool,
}

/// The heaps and convention of a request, read as `ply heaps` reads its arguments.
fn heaps_position(heaps: &[Number], misere: bool) -> Result<(Vec<u64>, Convention), ApiError> {
    if heaps.is_empty() {
        return Err(ApiError::bad(
            "the following required arguments were not provided: <SIZES>...",
        ));
    }
    let sizes = parse_sizes(&numbers(heaps, " ")).map_err(ApiError::bad)?;
    let convention = if misere {
        Convention::Misere
    } else {
        Convention::Normal
    };
    Ok((sizes, convention))
}

/// Answers `POST /api/heaps`.
pub fn heaps(r: &HeapsRequest) -> Result<String, ApiError> {
    let (sizes, convention) = heaps_position(&r.heaps, r.misere)?;
    json(&analyse(&sizes, convention))
}

/// `POST /api/play/heaps`: the perfect player's move in lowest-heap Nim, as `ply play heaps SIZES
/// [--misere] --seed SEED` makes it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayHeapsRequest {
    heaps: Vec<Number>,
    #[serde(default)]
    misere: bool,
    #[serde(default = "one")]
    seed: u64,
}

/// Answers `POST /api/play/heaps`.
pub fn play_heaps(r: &PlayHeapsRequest) -> Result<String, ApiError> {
    let (sizes, convention) = heaps_position(&r.heaps, r.misere)?;
    json(&heap_reply(&sizes, convention, r.seed).expect("every heap read holds a counter"))
}

/// A dice-race list: `"5,6,7"` as on the command line, or `[5,6,7]`.
#[derive(Deserialize)]
#[serde(untagged)]
pub enum List {
    /// As written on the command line.
    Text(String),
    /// As numbers.
    Numbers(Vec<Number>),
}

impl List {
    fn text(&self) -> String {
        match self {
            List::Text(t) => t.clone(),
            List::Numbers(n) => numbers(n, ","),
        }
    }
}

fn dice(count: Option<u32>, sides: Option<u32>) -> Result<Dice, ApiError> {
    Dice::new(count.unwrap_or(2), sides.unwrap_or(6)).map_err(ApiError::bad)
}

fn race_error(e: RaceError) -> ApiError {
    match e {
        RaceError::TooBig { .. } => ApiError::over_budget(e),
        _ => ApiError::bad(e),
    }
}

/// `POST /api/dice-race/compare`: `ply dice-race compare FIRST SECOND [--dice N --sides K] --json`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CompareRequest {
    first: List,
    second: List,
    dice: Option<u32>,
    sides: Option<u32>,
}

/// Answers `POST /api/dice-race/compare`.
pub fn compare(r: &CompareRequest) -> Result<String, ApiError> {
    let dice = dice(r.dice, r.sides)?;
    let (first, second) = (r.first.text(), r.second.text());
    for text in [&first, &second] {
        let (list, _) = written_list(text, &dice).map_err(race_error)?;
        if list.len() > MAX_PICKS {
            return Err(ApiError::over_budget(format!(
                "the server races lists of up to {MAX_PICKS} sums; one has {}",
                list.len()
            )));
        }
    }
    let (report, _) = compare_written(&dice, &first, &second).map_err(race_error)?;
    json(&report)
}

/// `POST /api/dice-race/best` and `/equilibrium`: `--picks M [--dice N --sides K] --json`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PicksRequest {
    picks: u32,
    dice: Option<u32>,
    sides: Option<u32>,
}

fn search_error(e: SearchError) -> ApiError {
    match e {
        SearchError::TooMany { .. } => ApiError::over_budget(e),
        SearchError::Race(e) => race_error(e),
        _ => ApiError::bad(option_hints::pick_search(&e)),
    }
}

fn checked_picks(r: &PicksRequest) -> Result<Dice, ApiError> {
    let dice = dice(r.dice, r.sides)?;
    let lists = multiset_count(dice.max_sum() - dice.min_sum() + 1, r.picks);
    if lists > MAX_LISTS {
        return Err(ApiError::over_budget(format!(
            "{} picks make {lists} lists; the server searches at most {MAX_LISTS} (run `ply dice-race` on your machine)",
            r.picks
        )));
    }
    Ok(dice)
}

/// Answers `POST /api/dice-race/best`.
pub fn best_list(r: &PicksRequest) -> Result<String, ApiError> {
    let dice = checked_picks(r)?;
    json(&best(&dice, r.picks).map_err(search_error)?)
}

/// Answers `POST /api/dice-race/equilibrium`.
pub fn equilibrium_of(r: &PicksRequest) -> Result<String, ApiError> {
    let dice = checked_picks(r)?;
    json(&equilibrium(&dice, r.picks).map_err(search_error)?)
}

/// `POST /api/dice-race/sums`: `ply dice-race sums [--dice N --sides K] --json`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SumsRequest {
    dice: Option<u32>,
    sides: Option<u32>,
}

/// Answers `POST /api/dice-race/sums`.
pub fn sums(r: &SumsRequest) -> Result<String, ApiError> {
    json(&dice(r.dice, r.sides)?.chances())
}

fn size_rule(any_size: bool) -> SizeRule {
    if any_size {
        SizeRule::Any
    } else {
        SizeRule::Seed
    }
}

/// `POST /api/magic-board`: `ply magic-board FILE [--start R,C] [--any-size] --json`, the board as text.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MagicRequest {
    board: String,
    start: Option<[usize; 2]>,
    #[serde(default)]
    any_size: bool,
}

/// Answers `POST /api/magic-board`.
pub fn magic_board(r: &MagicRequest) -> Result<String, ApiError> {
    let board = Board::parse(&r.board, size_rule(r.any_size))
        .map_err(|e| ApiError::bad(option_hints::board_size(&e, e.size_fault())))?;
    if board.size() > MAX_MAGIC_SIZE {
        return Err(ApiError::over_budget(format!(
            "the server solves boards up to {MAX_MAGIC_SIZE}×{MAX_MAGIC_SIZE}; this one is {0}×{0}",
            board.size()
        )));
    }
    let start = r.start.map(|[row, col]| (row, col));
    let report =
        solve_board(&board, start, MemoryBudget::new(MAGIC_MEMORY)).map_err(|e| match e {
            SolveBoardError::Memory(_) => ApiError::over_budget(e),
            _ => ApiError::bad(e),
        })?;
    json(&report)
}

/// `POST /api/magic-board/generate`: `ply magic-board generate --size D --seed S [--solvable |
/// --unsolvable] [--any-size] --json`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GenerateRequest {
    size: usize,
    #[serde(default = "one")]
    seed: u64,
    #[serde(default)]
    solvable: bool,
    #[serde(default)]
    unsolvable: bool,
    #[serde(default)]
    any_size: bool,
}

fn one() -> u64 {
    1
}

/// Answers `POST /api/magic-board/generate`.
pub fn generate(r: &GenerateRequest) -> Result<String, ApiError> {
    let wanted = match (r.solvable, r.unsolvable) {
        (true, true) => {
            return Err(ApiError::bad(
                "the argument '--solvable' cannot be used with '--unsolvable'",
            ))
        }
        (true, false) => Wanted::Solvable,
        (false, true) => Wanted::Unsolvable,
        (false, false) => Wanted::Any,
    };
    if r.size > MAX_MAGIC_SIZE && r.any_size {
        return Err(ApiError::over_budget(format!(
            "the server generates boards up to {MAX_MAGIC_SIZE}×{MAX_MAGIC_SIZE}; asked for {0}×{0}",
            r.size
        )));
    }
    json(
        &generated(r.size, r.seed, wanted, size_rule(r.any_size))
            .map_err(|e| ApiError::bad(option_hints::board_size(&e, e.size_fault())))?,
    )
}
