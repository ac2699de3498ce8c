//! `POST /api/dots`: the same report as `ply dots … --json --line`. Whole tables of small boards are
//! built once, on first use, and shared by every request for that board.

use crate::error::ApiError;
use crate::limits::{MAX_MEMO_FREE, MAX_RECURSION_FREE, MAX_TABLE_EDGES};
use ply::engine::scored::choose::SolveOptions;
use ply::engine::scored::search::TieOrder;
use ply::engine::scored::table::SubsetTable;
use ply::engine::scored::{SolveError, Strategy};
use ply::engine::MemoryBudget;
use ply::games::dots::geometry::BuiltBoard;
use ply::games::dots::notation::position_from_moves;
use ply::games::dots::report::{report, report_from, Detail, DotsReport};
use ply::games::dots::Geometry;
use ply::play::{dots_reply, DotsReply};
use serde::Deserialize;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// The request: the keys are `ply dots`'s long option names.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DotsRequest {
    /// `"triangles"` or `"boxes"`.
    game: String,
    /// Rows of triangles (default 3).
    size: Option<u32>,
    /// Rows of boxes (default 3).
    rows: Option<u32>,
    /// Columns of boxes (default 3).
    cols: Option<u32>,
    /// The moves played, as `ply dots --moves` takes them.
    #[serde(default)]
    moves: String,
    /// `auto` (default), `recursion`, `memo` or `table`.
    strategy: Option<String>,
}

/// `POST /api/play/dots`: a position as for `/api/dots` and the seed that breaks ties between equal
/// moves (default 1), as `ply play … --seed SEED` takes it. Unknown keys are refused, as for
/// `/api/dots`.
pub struct PlayDotsRequest {
    position: DotsRequest,
    seed: u64,
}

impl<'de> Deserialize<'de> for PlayDotsRequest {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let mut keys = serde_json::Map::deserialize(d)?;
        let seed = match keys.remove("seed") {
            None => 1,
            Some(seed) => serde_json::from_value(seed).map_err(D::Error::custom)?,
        };
        let position =
            DotsRequest::deserialize(serde_json::Value::Object(keys)).map_err(D::Error::custom)?;
        Ok(PlayDotsRequest { position, seed })
    }
}

/// A board with its whole table, and how long the table took to build.
pub struct Solved {
    built: BuiltBoard,
    table: SubsetTable,
    /// Time the table took, once.
    pub build_time: Duration,
}

/// One board's table: built by the first request that asks for it, shared by the rest.
type OnceTable = Arc<OnceLock<Result<Arc<Solved>, SolveError>>>;

/// The tables built so far, one per board, each built once even when asked for concurrently.
#[derive(Default)]
pub struct Tables {
    boards: Mutex<HashMap<String, OnceTable>>,
}

impl Tables {
    /// The solved table of `built`'s board (at most [`MAX_TABLE_EDGES`] edges), built on first use.
    pub fn get(&self, built: &BuiltBoard) -> Result<Arc<Solved>, SolveError> {
        let cell = self
            .boards
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .entry(built.identity())
            .or_default()
            .clone();
        cell.get_or_init(|| {
            let started = Instant::now();
            let budget = MemoryBudget::new(SubsetTable::bytes_needed(MAX_TABLE_EDGES) as u64);
            let table = SubsetTable::build(&built.board, budget, None)?;
            Ok(Arc::new(Solved {
                built: built.clone(),
                table,
                build_time: started.elapsed(),
            }))
        })
        .clone()
    }
}

/// The answer and, when a shared table answered, how long that table once took to build.
pub struct DotsAnswer {
    /// The report, as the CLI prints it.
    pub report: DotsReport,
    /// The table's build time, if a table answered.
    pub table_build: Option<Duration>,
}

fn geometry(request: &DotsRequest) -> Result<Geometry, ApiError> {
    match request.game.as_str() {
        "triangles" => Ok(Geometry::Triangles {
            size: request.size.unwrap_or(3),
        }),
        "boxes" => Ok(Geometry::Boxes {
            rows: request.rows.unwrap_or(3),
            cols: request.cols.unwrap_or(3),
        }),
        other => Err(ApiError::bad(format!(
            "unrecognized game '{}' (the games are triangles and boxes)",
            crate::quote(other)
        ))),
    }
}

fn strategy_named(name: Option<&str>) -> Result<Option<Strategy>, ApiError> {
    match name.unwrap_or("auto") {
        "auto" => Ok(None),
        "recursion" => Ok(Some(Strategy::Recursion)),
        "memo" => Ok(Some(Strategy::Memo)),
        "table" => Ok(Some(Strategy::Table)),
        other => Err(ApiError::bad(format!(
            "invalid value '{}' for '--strategy <STRATEGY>' [possible values: auto, recursion, memo, table]",
            crate::quote(other)
        ))),
    }
}

/// Answers a dots request, refusing before any work what is over the server's limits.
pub fn answer(request: &DotsRequest, tables: &Tables) -> Result<DotsAnswer, ApiError> {
    let built = geometry(request)?.build().map_err(ApiError::bad)?;
    let position = position_from_moves(&built.board, &request.moves).map_err(ApiError::bad)?;
    let edges = built.board.edge_count() as u32;
    let free = edges - position.drawn().len();
    let budget = MemoryBudget::new(SubsetTable::bytes_needed(MAX_TABLE_EDGES) as u64);
    let strategy = match strategy_named(request.strategy.as_deref())? {
        Some(s) => s,
        // What `ply dots` picks: the table up to 24 edges, memo for positions with few free edges.
        None if edges <= MAX_TABLE_EDGES => Strategy::Table,
        None => Strategy::Memo,
    };
    let name = built.geometry.title();
    match strategy {
        Strategy::Table if edges > MAX_TABLE_EDGES => {
            return Err(ApiError::over_budget(format!(
                "the server builds tables of boards up to {MAX_TABLE_EDGES} edges; {name} has {edges} (run `ply dots` on your machine)"
            )))
        }
        Strategy::Memo if free > MAX_MEMO_FREE => {
            return Err(ApiError::over_budget(format!(
                "the server searches positions with up to {MAX_MEMO_FREE} free edges; this one has {free} (play a few moves, or run `ply dots` on your machine)"
            )))
        }
        Strategy::Recursion if free > MAX_RECURSION_FREE => {
            return Err(ApiError::over_budget(format!(
                "plain recursion runs on positions with up to {MAX_RECURSION_FREE} free edges here; this one has {free}"
            )))
        }
        _ => {}
    }
    let solve_error = |e: SolveError| match e {
        SolveError::Memory(_) => ApiError::over_budget(e),
        _ => ApiError::bad(e),
    };
    if strategy == Strategy::Table {
        let solved = tables.get(&built).map_err(solve_error)?;
        let report = report_from(
            &solved.built,
            &position,
            &mut solved.table.solver(&solved.built.board),
            Strategy::Table,
            Detail::Line,
        )
        .map_err(solve_error)?;
        return Ok(DotsAnswer {
            report,
            table_build: Some(solved.build_time),
        });
    }
    let options = SolveOptions {
        budget,
        progress: None,
        search_status: None,
        free_items: free,
        tie_order: TieOrder::default(),
    };
    let report = report(&built, &position, strategy, options, Detail::Line).map_err(solve_error)?;
    Ok(DotsAnswer {
        report,
        table_build: None,
    })
}

/// Answers `POST /api/play/dots`: the perfect player's move, or 400 when the game is over.
pub fn reply(
    request: &PlayDotsRequest,
    tables: &Tables,
) -> Result<(DotsReply, DotsAnswer), ApiError> {
    let answer = answer(&request.position, tables)?;
    let reply = dots_reply(&answer.report, request.seed).ok_or_else(|| {
        ApiError::bad("the game is over: every edge is drawn, there is no move to make")
    })?;
    Ok((reply, answer))
}
