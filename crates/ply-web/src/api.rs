//! The other endpoints: each body is the game home's request type (the same one `ply` builds from its
//! arguments), answered by the same library call, so the answer is the CLI's `--json` output for the
//! same input. What is here is the server's own: its limits ([`crate::limits`]), checked against the
//! checked request, and the status of each refusal.

use crate::error::ApiError;
use crate::limits::{MAGIC_MEMORY, MAX_LISTS, MAX_MAGIC_SIZE, MAX_PICKS};
use plysolve::engine::util::cost::WorkLimit;
use plysolve::engine::util::halt::Halt;
use plysolve::engine::MemoryBudget;
use plysolve::games::dice_race::play::RaceGameRequest;
use plysolve::games::dice_race::request::{
    CompareRequest, PicksQuery, PicksRequest, RequestError as RaceRequestError, SumsRequest,
};
use plysolve::games::heaps::play::HeapsGameRequest;
use plysolve::games::heaps::request::{HeapsRequest, PlayHeapsRequest};
use plysolve::games::magic_board::request::{
    GenerateRequest, MagicBoardRequest, RequestError as BoardRequestError,
};
use plysolve::games::magic_board::{GenerateError, SizeRule, SolveBoardError};
use plysolve::games::solitaire::request::SolitaireRequest;

/// A report as the CLI prints it with `--json`: one line of JSON and a newline.
pub(crate) fn json(value: &impl serde::Serialize) -> Result<String, ApiError> {
    serde_json::to_string(value)
        .map(|s| s + "\n")
        .map_err(|e| ApiError {
            status: axum::http::StatusCode::INTERNAL_SERVER_ERROR,
            message: format!("cannot write JSON: {e}"),
        })
}

/// Answers `POST /api/solitaire`: `ply solitaire SQUARES [--die K] [--expected] [--distribution]
/// [--explain] --json`; a distribution that would not finish within the request's time is refused
/// with its estimate (422), and stopped when `halt` comes.
pub fn solitaire(r: &SolitaireRequest, halt: &Halt) -> Result<String, ApiError> {
    json(
        &r.answer_until(halt)
            .map_err(|e| ApiError::worded(&e, e.is_over_budget()))?,
    )
}

/// Answers `POST /api/heaps`: `ply heaps SIZES [--misere] [--grundy] --json`.
pub fn heaps(r: &HeapsRequest) -> Result<String, ApiError> {
    json(&r.answer().map_err(ApiError::bad)?)
}

/// Answers `POST /api/play/heaps`: the perfect player's move in lowest-heap Nim, as `ply play heaps
/// SIZES [--misere] --seed SEED` makes it.
pub fn play_heaps(r: &PlayHeapsRequest) -> Result<String, ApiError> {
    json(&r.answer().map_err(ApiError::bad)?)
}

/// Answers `POST /api/heaps/game`: a game of lowest-heap Nim replayed from its heaps and takes,
/// every position valued and every take graded by the home ([`HeapsGameRequest`]).
pub fn heaps_game(r: &HeapsGameRequest) -> Result<String, ApiError> {
    json(&r.answer().map_err(ApiError::bad)?)
}

/// A dice race refusal: 422 for work over its limit (too many states or lists, an estimate past the
/// time allowed) or stopped by the request's halt, 400 otherwise.
fn race_error(e: RaceRequestError) -> ApiError {
    ApiError::worded(&e, e.is_over_budget())
}

/// Answers `POST /api/dice-race/compare`: `ply dice-race compare FIRST SECOND [--dice N --sides K]
/// --json`, for lists of up to [`MAX_PICKS`] sums; refused with its estimate when it would not finish
/// within the request's time, stopped when `halt` comes (the deadline, or a client that left).
pub fn compare(r: &CompareRequest, halt: &Halt) -> Result<String, ApiError> {
    let race = r.validate().map_err(race_error)?;
    if race.longest() > MAX_PICKS {
        return Err(ApiError::over_budget(format!(
            "the server races lists of up to {MAX_PICKS} sums; one has {}",
            race.longest()
        )));
    }
    let (report, _) = race
        .compare_within(WorkLimit::DEFAULT.within(halt), halt)
        .map_err(|e| race_error(RaceRequestError::Race(e)))?;
    json(&report)
}

/// The pick game of a request, checked, over at most [`MAX_LISTS`] lists.
fn checked_picks(r: &PicksRequest) -> Result<PicksQuery, ApiError> {
    let query = r.validate().map_err(race_error)?;
    let lists = query.lists();
    if lists > MAX_LISTS {
        return Err(ApiError::over_budget(format!(
            "{} picks make {lists} lists; the server searches at most {MAX_LISTS} (run `ply dice-race` on your machine)",
            query.picks
        )));
    }
    Ok(query)
}

/// Answers `POST /api/dice-race/best`: `ply dice-race best --picks M [--dice N --sides K] --json`,
/// costed and halted as [`compare`].
pub fn best_list(r: &PicksRequest, halt: &Halt) -> Result<String, ApiError> {
    json(&checked_picks(r)?.best_until(halt).map_err(race_error)?)
}

/// Answers `POST /api/dice-race/equilibrium`: `ply dice-race equilibrium --picks M [--dice N --sides
/// K] --json`, costed and halted as [`compare`].
pub fn equilibrium_of(r: &PicksRequest, halt: &Halt) -> Result<String, ApiError> {
    json(
        &checked_picks(r)?
            .equilibrium_until(halt)
            .map_err(race_error)?,
    )
}

/// Answers `POST /api/dice-race/game`: the race rolled from its seed by the home
/// ([`RaceGameRequest`]), the exact chances after the last roll when they are quick.
pub fn race_game(r: &RaceGameRequest, halt: &Halt) -> Result<String, ApiError> {
    json(&r.answer_until(halt).map_err(race_error)?)
}

/// Answers `POST /api/dice-race/sums`: `ply dice-race sums [--dice N --sides K] --json`.
pub fn sums(r: &SumsRequest) -> Result<String, ApiError> {
    json(&r.answer().map_err(race_error)?)
}

/// A MagicBoard refusal: 422 when a search is over the server's memory or its work limit, or was
/// halted; 400 otherwise.
fn board_error(e: BoardRequestError) -> ApiError {
    let over_budget = matches!(
        e,
        BoardRequestError::Solve(
            SolveBoardError::Memory(_)
                | SolveBoardError::CornerShare { .. }
                | SolveBoardError::TooSlow(_)
                | SolveBoardError::Halted(_),
        ) | BoardRequestError::Generate(GenerateError::NotFound { .. } | GenerateError::Halted(_))
    );
    ApiError::worded(&e, over_budget)
}

/// Answers `POST /api/magic-board`: `ply magic-board FILE [--start R,C] [--any-size] --json`, the
/// board as text, up to [`MAX_MAGIC_SIZE`] squares a side, in [`MAGIC_MEMORY`]; costed and halted as
/// [`compare`].
pub fn magic_board(r: &MagicBoardRequest, halt: &Halt) -> Result<String, ApiError> {
    let query = r.validate().map_err(board_error)?;
    let size = query.board.size();
    if size > MAX_MAGIC_SIZE {
        return Err(ApiError::over_budget(format!(
            "the server solves boards up to {MAX_MAGIC_SIZE}×{MAX_MAGIC_SIZE}; this one is {size}×{size}"
        )));
    }
    json(
        &query
            .answer_until(MemoryBudget::new(MAGIC_MEMORY), halt)
            .map_err(board_error)?,
    )
}

/// Answers `POST /api/magic-board/generate`: `ply magic-board generate --size D --seed S
/// [--solvable | --unsolvable] [--any-size] --json`, up to [`MAX_MAGIC_SIZE`] squares a side; the
/// boards drawn bounded by the request's time (422 when none had the property), stopped when `halt`
/// comes.
pub fn generate(r: &GenerateRequest, halt: &Halt) -> Result<String, ApiError> {
    let query = r.validate().map_err(board_error)?;
    // The original program's rule refuses larger sizes itself, in its own words.
    if query.size > MAX_MAGIC_SIZE && query.rule == SizeRule::Any {
        return Err(ApiError::over_budget(format!(
            "the server generates boards up to {MAX_MAGIC_SIZE}×{MAX_MAGIC_SIZE}; asked for {0}×{0}",
            query.size
        )));
    }
    json(&query.answer_until(halt).map_err(board_error)?)
}
