//! `ply dots`: a dots position explained — board, score, value, every move's value, the best line;
//! `ply dots solve` ([`solve`]): the whole table of a board.

use crate::args::{number_in, MemoryArg};
use crate::cache;
use crate::failure::Failure;
use crate::input::read_text;
use crate::progress::StatesProgress;
use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::{Args, Subcommand, ValueEnum};
use plysolve::engine::scored::ValueRange;
use plysolve::engine::util::memory::{Bytes, SystemMemory};
use plysolve::games::dots::answer::{answer_planned, Hooks, SearchStatus};
use plysolve::games::dots::book::Books;
use plysolve::games::dots::kept::Kept;
use plysolve::games::dots::live::LiveStatus;
use plysolve::games::dots::notation::max_moves_text;
use plysolve::games::dots::policy::{Plan, Policy};
use plysolve::games::dots::geometry::TRIANGLE_SIZES;
use plysolve::games::dots::request::{
    Detail, DotsRequest, MoveList, Strategy, TieOrder, TimeText, MAX_LINES,
};
use plysolve::games::dots::{DotsBoard, Geometry};
use render::signed;
use std::fmt::Write;
use std::path::PathBuf;

pub mod book;
pub mod render;
pub mod solve;

/// Checks a `--time` value as the request will read it.
fn parse_time_arg(text: &str) -> Result<String, String> {
    plysolve::input::duration::parse_time(text)
        .map(|_| text.to_string())
        .map_err(|e| e.to_string())
}

/// `ply dots <board> …`
#[derive(Args)]
pub struct DotsArgs {
    #[command(subcommand)]
    board: BoardCommand,
}

#[derive(Subcommand)]
enum BoardCommand {
    /// Dots and Triangles on a triangle of --size rows (3 = the classic 10-dot board).
    Triangles {
        #[command(flatten)]
        shape: TrianglesSize,
        #[command(flatten)]
        position: PositionArgs,
    },
    /// Dots and Boxes on --rows × --cols boxes ((rows+1)(cols+1) dots, numbered row by row from 1).
    Boxes {
        #[command(flatten)]
        shape: BoxesSize,
        #[command(flatten)]
        position: PositionArgs,
    },
    /// Solves every position of a board at once (the whole table, in parallel) and reports the speed.
    Solve(solve::SolveArgs),
    /// A book of proved positions: build, show, stats, verify, merge, export, import.
    Book(book::BookArgs),
}

/// The size of a triangle board.
#[derive(Args, Clone, Copy)]
pub struct TrianglesSize {
    /// Rows of triangles, 1 to 6.
    #[arg(long, default_value_t = 3, value_parser = number_in(TRIANGLE_SIZES))]
    size: u32,
}

/// The size of a box board.
#[derive(Args, Clone, Copy)]
pub struct BoxesSize {
    /// Rows of boxes.
    #[arg(long, default_value_t = 3)]
    rows: u32,
    /// Columns of boxes.
    #[arg(long, default_value_t = 3)]
    cols: u32,
}

impl TrianglesSize {
    /// The geometry asked for.
    pub fn geometry(self) -> Geometry {
        Geometry::Triangles { size: self.size }
    }
}

impl BoxesSize {
    /// The geometry asked for.
    pub fn geometry(self) -> Geometry {
        Geometry::Boxes {
            rows: self.rows,
            cols: self.cols,
        }
    }
}

/// How to read and solve a position: shared by every board shape.
#[derive(Args)]
struct PositionArgs {
    /// Moves played so far, A first: `2-4 4-5`, `2 4, 4 5` … (dots numbered from 1).
    #[arg(long, conflicts_with = "moves_file")]
    moves: Option<String>,
    /// Read the moves from a file (`-` for stdin), in the same notation.
    #[arg(long, value_name = "FILE")]
    moves_file: Option<PathBuf>,
    /// How values are computed; auto = a table kept in the cache for the board, else the table
    /// of the position's free edges up to 18 of them (any number on boards of up to 24 edges),
    /// else the search.
    #[arg(long, default_value = "auto", value_parser = strategy_parser())]
    strategy: Strategy,
    /// Also show a best line of play to the end of the game.
    #[arg(long, conflicts_with = "value_only")]
    line: bool,
    /// Show the K best moves, each with its value (or bounds and estimate) and its line of perfect
    /// play: an engine's multi-line view (1 to 64; implies --line).
    #[arg(long, value_name = "K", conflicts_with = "value_only", value_parser = number_in(1..=MAX_LINES))]
    lines: Option<u32>,
    /// Give the position's value alone, without valuing every move: for the largest positions, where
    /// the search proves one value on every core instead of one per move.
    #[arg(long)]
    value_only: bool,
    /// Which of two moves of equal priority the search tries first: the value is the same either
    /// way, but a run in the other order searches another tree, a cross-check of a long result.
    #[arg(long, value_enum, default_value_t = TieOrderArg::LowFirst)]
    tie_order: TieOrderArg,
    /// The most time to take, e.g. 30s or 2m: past it, the answer says what was proved (bounds on
    /// the value, the moves proved, the best move found) instead of the exact values.
    #[arg(long, value_name = "TIME", value_parser = parse_time_arg)]
    time: Option<String>,
    /// Print one JSON object instead of text (see the README for the schema).
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    memory: MemoryArg,
    /// Answer from a table saved by `ply dots solve --save FILE` (read into memory, nothing solved).
    #[arg(long, value_name = "FILE")]
    table: Option<PathBuf>,
    /// Do not use a table kept in the cache directory by `ply dots solve`.
    #[arg(long)]
    no_cache: bool,
    #[command(flatten)]
    book: BookArg,
}

/// `--book FILE` and `--no-book`: the books answers are read from first (`ply dots`, `ply play`,
/// `ply serve`).
#[derive(Args, Clone)]
pub struct BookArg {
    /// Also answer from this book of proved positions, and write into it what is proved (positions
    /// of at least 24 free edges); made if missing.
    #[arg(long, value_name = "FILE")]
    pub book: Option<PathBuf>,
    /// Answer from no book, not even the ones shipped inside ply (benchmarks of the search).
    #[arg(long, conflicts_with = "book")]
    pub no_book: bool,
}

impl BookArg {
    /// The books asked for.
    pub fn books(&self) -> Result<std::sync::Arc<Books>, Failure> {
        Books::asked(!self.no_book, self.book.as_deref(), true).map_err(Failure::bad)
    }
}

/// `--strategy`: the strategies a user may ask for ([`Strategy::is_askable`]), by their names, each
/// with its help line.
fn strategy_parser() -> impl TypedValueParser<Value = Strategy> {
    let asked = Strategy::ALL.into_iter().filter(|s| s.is_askable());
    PossibleValuesParser::new(asked.map(|s| PossibleValue::new(s.name()).help(s.about()))).map(
        |name| {
            Strategy::ALL
                .into_iter()
                .find(|s| s.name() == name)
                .expect("a name the parser accepted")
        },
    )
}

/// [`TieOrder`] as users name it.
#[derive(Clone, Copy, ValueEnum)]
pub enum TieOrderArg {
    /// The lower-numbered edge first.
    LowFirst,
    /// The higher-numbered edge first.
    HighFirst,
}

/// The request the arguments state: the same [`DotsRequest`] the web API deserialises.
fn request(geometry: Geometry, position: &PositionArgs, moves: String) -> DotsRequest {
    DotsRequest {
        moves: MoveList::Text(moves),
        detail: if position.value_only {
            Detail::Value
        } else if position.line || position.json || position.lines.is_some() {
            Detail::Line
        } else {
            Detail::Moves
        },
        strategy: position.strategy,
        tie_order: match position.tie_order {
            TieOrderArg::LowFirst => TieOrder::LowFirst,
            TieOrderArg::HighFirst => TieOrder::HighFirst,
        },
        time: position.time.clone().map(TimeText::Text),
        lines: position.lines,
        ..DotsRequest::new(geometry, "")
    }
}

/// Runs `ply dots`: arguments → request → report → text.
pub fn run(args: DotsArgs) -> Result<String, Failure> {
    let (geometry, position) = match args.board {
        BoardCommand::Triangles { shape, position } => (shape.geometry(), position),
        BoardCommand::Boxes { shape, position } => (shape.geometry(), position),
        BoardCommand::Solve(args) => return solve::run(args),
        BoardCommand::Book(args) => return book::run(args),
    };
    let built = geometry.build().map_err(Failure::bad)?;
    let moves = match (&position.moves, &position.moves_file) {
        (Some(moves), _) => moves.clone(),
        (None, Some(path)) => read_text(Some(path), max_moves_text(&built.board))?,
        (None, None) => String::new(),
    };
    let query = request(geometry, &position, moves)
        .validate()
        .map_err(Failure::bad)?;
    let budget = position.memory.budget()?;
    // A table from a file, or one solved before and kept in the cache (unless another strategy is
    // asked for): it answers every position of the board at once.
    let table_asked = matches!(position.strategy, Strategy::Auto | Strategy::Table);
    let table = match &position.table {
        Some(path) => Some(cache::load(path, &built, budget)?),
        None if table_asked && !position.no_cache => cache::cached_table(&built, budget),
        None => None,
    };
    // A table read takes its part of the budget; the answer has the rest.
    let read = table.as_ref().map_or(0, |t| t.bytes());
    let policy = Policy::new(budget.share(budget.bytes().saturating_sub(read)), None);
    let kept = Kept::books_only(position.book.books()?);
    let kept = Some(match table {
        Some(table) => kept.with_table(table),
        None => kept,
    });
    let plan = policy.plan(&query, kept.as_ref());
    let progress = StatesProgress::new(match plan.strategy {
        Strategy::Table | Strategy::FreeTable => "filled",
        Strategy::Search => "searched",
        _ => "visited",
    });
    announce(&progress, &plan, &policy);
    let update = |states| progress.update(states);
    let status = |s: &SearchStatus| search_progress(&progress, &built.board, s);
    let hooks = Hooks {
        progress: Some(&update),
        status: Some(&status),
        ..Hooks::default()
    };
    let report = answer_planned(&query, &plan, &policy, kept.as_ref(), hooks)
        .map_err(|e| Failure::solve(e, plan.strategy))?;
    drop(progress);
    if position.json {
        Ok(serde_json::to_string(&report)? + "\n")
    } else {
        Ok(render::report(
            &report,
            built.board.cell_count(),
            position.line,
        ))
    }
}

/// Says at once what the solve is about to do (the first progress line), and — always, progress or
/// not — when it is about to take more than a quarter of the machine's memory (and may: more than
/// the budget is refused before anything is taken).
fn announce(progress: &StatesProgress, plan: &Plan, policy: &Policy) {
    progress.event(&plan.describe());
    let machine = SystemMemory::read().physical.unwrap_or(u64::MAX);
    if plan.new_bytes > machine / 4 && plan.new_bytes <= policy.budget.bytes() {
        progress.notice(&format!(
            "this takes {} of this machine's {} of memory (--memory sets the most it may take)",
            Bytes(plan.new_bytes.into()),
            Bytes(machine.into())
        ));
    }
}

/// A search's status as progress: the bounds and moves proved after the count, and a line of its
/// own for each move's value as it is proved (moves proved together, whose children are one state
/// of the table, get a line each).
fn search_progress(progress: &StatesProgress, board: &DotsBoard, s: &SearchStatus) {
    let s = LiveStatus::of(board, s);
    let mut detail = format!("table {:.1}% full", s.table_fill * 100.0);
    if let Some(ValueRange { lower, upper }) = s.bounds {
        let (lower, upper) = (signed(lower.into()), signed(upper.into()));
        write!(detail, ", value {lower}..{upper}").expect("writing to a String");
        write!(detail, ", {}/{} moves proved", s.moves_proved, s.moves).expect("to a String");
        // Moves bounded at most the lower bound, once there are any (before, the count says nothing).
        if s.moves_proved < s.moves && s.moves_at_most_lower > 0 {
            let at_most = s.moves_at_most_lower;
            write!(detail, ", {at_most}/{} at most {lower}", s.moves).expect("to a String");
        }
    }
    if s.proved.is_empty() {
        progress.update_with(s.nodes, Some(&detail));
    }
    for proved in &s.proved {
        progress.event(&format!(
            "move {} = {} ({} nodes, {detail})",
            proved.mv,
            signed(proved.value.into()),
            s.nodes
        ));
    }
}
