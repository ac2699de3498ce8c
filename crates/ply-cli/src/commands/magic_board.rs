//! `ply magic-board`: MagicBoard — verdicts and shortest paths from the corners, random boards, and
//! statistics of solvability.

use crate::args::{MemoryArg, SizeRuleArg};
use crate::failure::Failure;
use crate::input::open_input;
use crate::progress::StatesProgress;
use clap::{Args, Subcommand};
use plysolve::engine::util::cost::WorkLimit;
use plysolve::games::magic_board::request::{
    GenerateRequest, MagicBoardRequest, StatsRequest, DEFAULT_SEED,
};
use plysolve::games::magic_board::{draw, Board, BoardReport, MAX_DRAWN};
use plysolve::input::number::{parse_unsigned, IntFault};
use plysolve::input::quote;
use std::fmt::Write;
use std::path::PathBuf;

/// `ply magic-board [FILE] | generate | stats`
#[derive(Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct MagicBoardArgs {
    #[command(subcommand)]
    command: Option<MagicCommand>,
    /// The board: d lines of d integers (stdin when absent or `-`).
    file: Option<PathBuf>,
    /// Ask about one corner only, as ROW,COL (zero-based).
    #[arg(long, value_name = "ROW,COL", value_parser = parse_square, allow_hyphen_values = true)]
    start: Option<(usize, usize)>,
    /// Draw the board with each shortest path marked (step numbers on the visited squares).
    #[arg(long)]
    draw: bool,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    size_rule: SizeRuleArg,
    #[command(flatten)]
    memory: MemoryArg,
}

#[derive(Subcommand)]
enum MagicCommand {
    /// Writes a random legal board, reproducible from the seed.
    Generate {
        /// The size d.
        #[arg(long)]
        size: usize,
        /// Seed of the random generator.
        #[arg(long, default_value_t = DEFAULT_SEED)]
        seed: u64,
        /// Only a board solvable from every corner that is not the goal.
        #[arg(long, conflicts_with = "unsolvable")]
        solvable: bool,
        /// Only a board solvable from no corner.
        #[arg(long)]
        unsolvable: bool,
        #[command(flatten)]
        size_rule: SizeRuleArg,
        /// Print one JSON object (size, seed, goal, rows and the text) instead of the board.
        #[arg(long)]
        json: bool,
    },
    /// Estimates how many random legal boards are solvable, per corner and from at least one corner.
    Stats {
        /// One size.
        #[arg(long, conflicts_with = "sizes", required_unless_present = "sizes")]
        size: Option<usize>,
        /// A range of sizes, e.g. 5..20.
        #[arg(long, value_parser = parse_sizes)]
        sizes: Option<(usize, usize)>,
        /// Boards per size.
        #[arg(long, default_value_t = 100_000)]
        boards: u64,
        /// Seed of the random generator.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        size_rule: SizeRuleArg,
    },
}

/// A size or an index written by the user (white space around it allowed), or `fault`.
fn index(text: &str, fault: impl Fn() -> String) -> Result<usize, String> {
    parse_unsigned(text.trim_ascii())
        .ok()
        .and_then(|n| usize::try_from(n).ok())
        .ok_or_else(fault)
}

fn parse_square(text: &str) -> Result<(usize, usize), String> {
    let fault = || format!("{} is not ROW,COL", quote(text));
    let (r, c) = text.split_once(',').ok_or_else(fault)?;
    let number = |t: &str| match parse_unsigned(t.trim_ascii()) {
        Err(IntFault::OutOfRange) => Err(too_big(t)),
        Ok(n) => usize::try_from(n).map_err(|_| too_big(t)),
        Err(IntFault::NotANumber) => Err(fault()),
    };
    Ok((number(r)?, number(c)?))
}

/// The refusal of a row or column past any board.
fn too_big(number: &str) -> String {
    format!("{} is too big for a row or column", quote(number.trim_ascii()))
}

fn parse_sizes(text: &str) -> Result<(usize, usize), String> {
    let fault = || format!("{} is not a range like 5..20", quote(text));
    let (a, b) = text.split_once("..").ok_or_else(fault)?;
    let number = |t: &str| index(t, fault);
    let (a, b) = (number(a)?, number(b.trim_start_matches('='))?);
    if a > b {
        return Err(format!("{} is an empty range", quote(text)));
    }
    Ok((a, b))
}

/// Runs `ply magic-board`.
pub fn run(args: MagicBoardArgs) -> Result<String, Failure> {
    match args.command {
        Some(MagicCommand::Generate {
            size,
            seed,
            solvable,
            unsolvable,
            size_rule,
            json,
        }) => {
            let request = GenerateRequest {
                size,
                seed,
                solvable,
                unsolvable,
                any_size: size_rule.any_size,
            };
            let board = request.answer().map_err(Failure::bad)?;
            if json {
                return Ok(serde_json::to_string(&board)? + "\n");
            }
            Ok(board.text)
        }
        Some(MagicCommand::Stats {
            size,
            sizes,
            boards,
            seed,
            json,
            size_rule,
        }) => run_stats(size, sizes, boards, seed, json, size_rule.any_size),
        None => run_solve(&args),
    }
}

/// `ply magic-board FILE`: arguments → the request `POST /api/magic-board` takes (the board read
/// from the file) → report → text.
fn run_solve(args: &MagicBoardArgs) -> Result<String, Failure> {
    let request = MagicBoardRequest {
        board: String::new(),
        start: args.start.map(|(row, col)| [row, col]),
        any_size: args.size_rule.any_size,
    };
    let input = open_input(args.file.as_deref())?;
    let query = request.validate_from(input).map_err(Failure::bad)?;
    let board = &query.board;
    if args.draw && board.size() > MAX_DRAWN {
        return Err(Failure::BadInput(format!(
            "--draw is for boards up to {MAX_DRAWN}×{MAX_DRAWN}; this one is {0}×{0}",
            board.size()
        )));
    }
    let budget = args.memory.budget()?;
    let report = query.answer(budget).map_err(Failure::bad)?;
    if args.json {
        return Ok(serde_json::to_string(&report)? + "\n");
    }
    Ok(render(board, &report, args.draw))
}

fn render(board: &Board, r: &BoardReport, with_drawing: bool) -> String {
    let mut out = format!(
        "{0}×{0} board, goal at ({1},{2})\n",
        r.d, r.goal[0], r.goal[1]
    );
    for c in &r.corners {
        let start = format!("({},{})", c.start[0], c.start[1]);
        match (&c.path, c.is_goal) {
            (_, true) => {
                let _ = writeln!(out, "{start}: is the goal");
            }
            (None, false) => {
                let _ = writeln!(out, "{start}: not solvable");
            }
            (Some(path), false) => {
                let squares: Vec<String> = path.iter().map(|[r, c]| format!("({r},{c})")).collect();
                let moves = c.moves.unwrap_or(0);
                let plural = if moves == 1 { "move" } else { "moves" };
                let _ = writeln!(
                    out,
                    "{start}: solvable in {moves} {plural}: {}",
                    squares.join(" ")
                );
                if with_drawing {
                    out.push_str(&draw(board, path));
                    out.push('\n');
                }
            }
        }
    }
    out
}

/// `ply magic-board stats`: arguments → the request `POST /api/magic-board/stats` takes → report
/// → text.
fn run_stats(
    size: Option<usize>,
    sizes: Option<(usize, usize)>,
    boards: u64,
    seed: u64,
    json: bool,
    any_size: bool,
) -> Result<String, Failure> {
    let request = StatsRequest {
        size,
        sizes: sizes.map(|(low, high)| [low, high]),
        boards,
        seed,
        any_size,
    };
    let query = request.validate().map_err(Failure::bad)?;
    let [low, high] = query.sizes;
    let progress = StatesProgress::with_total(
        "boards solved",
        boards.saturating_mul((high - low + 1) as u64),
    );
    let update = |done: u64| progress.update(done);
    let report = query
        .answer_within(WorkLimit::DEFAULT, Some(&update))
        .map_err(Failure::bad)?;
    drop(progress);
    if json {
        return Ok(serde_json::to_string(&report)? + "\n");
    }
    let total = boards * report.sizes.len() as u64;
    let mut out = format!(
        "{total} random legal boards ({boards} per size, seed {seed}) in {:.2} s: {:.0} boards/s\n",
        report.seconds, report.boards_per_second
    );
    out.push_str("fraction solvable, with 95 % intervals\n");
    let _ = writeln!(
        out,
        "{:>5}  {:>24}  {:>24}  {:>24}  {:>24}  {:>24}",
        "size", "from (0,0)", "from (0,d-1)", "from (d-1,0)", "from (d-1,d-1)", "from some corner"
    );
    for s in &report.sizes {
        let cell = |e: &plysolve::engine::util::estimate::Estimate| {
            format!("{:.4} [{:.4},{:.4}]", e.p, e.low, e.high)
        };
        let _ = writeln!(
            out,
            "{:>5}  {:>24}  {:>24}  {:>24}  {:>24}  {:>24}",
            s.d,
            cell(&s.corners[0].estimate),
            cell(&s.corners[1].estimate),
            cell(&s.corners[2].estimate),
            cell(&s.corners[3].estimate),
            cell(&s.any_corner.estimate)
        );
    }
    Ok(out)
}
