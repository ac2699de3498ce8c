//! `ply dots`: a dots position explained — board, score, value, every move's value, the best line;
//! `ply dots solve` ([`solve`]): the whole table of a board.

use crate::args::MemoryArg;
use crate::cache;
use crate::failure::Failure;
use crate::input::read_text;
use crate::progress::StatesProgress;
use clap::{Args, Subcommand, ValueEnum};
use ply::engine::scored::choose::SolveOptions;
use ply::engine::scored::search::TieOrder;
use ply::engine::scored::search_status::SearchStatus;
use ply::engine::scored::Strategy;
use ply::engine::Winner;
use ply::games::dots::notation::{format_edge, max_moves_text, position_from_moves};
use ply::games::dots::report::{report, report_from, Detail, DotsReport};
use ply::games::dots::{DotsBoard, Edge, Geometry};
use std::fmt::Write;
use std::path::PathBuf;

pub mod solve;

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
}

/// The size of a triangle board.
#[derive(Args, Clone, Copy)]
pub struct TrianglesSize {
    /// Rows of triangles, 1 to 6.
    #[arg(long, default_value_t = 3)]
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
    /// How values are computed; auto = the whole table for boards of up to 24 edges (or an empty
    /// board whose table fits, up to 4 GiB), else the table of the position's free edges if it fits
    /// (up to 256 MiB: 28 free edges), else the search.
    #[arg(long, value_enum, default_value_t = StrategyArg::Auto)]
    strategy: StrategyArg,
    /// Also show a best line of play to the end of the game.
    #[arg(long, conflicts_with = "value_only")]
    line: bool,
    /// Give the position's value alone, without valuing every move: for the largest positions, where
    /// the search proves one value on every core instead of one per move.
    #[arg(long)]
    value_only: bool,
    /// Which of two moves of equal priority the search tries first: the value is the same either
    /// way, but a run in the other order searches another tree, a cross-check of a long result.
    #[arg(long, value_enum, default_value_t = TieOrderArg::LowFirst)]
    tie_order: TieOrderArg,
    /// Print one JSON object instead of text (see the README for the schema).
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    memory: MemoryArg,
    /// Answer from a table saved by `ply dots solve --save FILE` (memory-mapped, nothing solved).
    #[arg(long, value_name = "FILE")]
    table: Option<PathBuf>,
    /// Do not use a table kept in the cache directory by `ply dots solve`.
    #[arg(long)]
    no_cache: bool,
}

/// The strategies as users name them.
#[derive(Clone, Copy, ValueEnum)]
pub enum StrategyArg {
    /// The fastest that fits: whole table, free-edge table or search.
    Auto,
    /// Plain negamax (the seed's first program).
    Recursion,
    /// Negamax with a transposition store (the seed's second).
    Memo,
    /// Bottom-up table over every state (the seed's third), in parallel.
    Table,
    /// Bottom-up table over the position's free edges only (2^free bytes), in parallel.
    FreeTable,
    /// Alpha-beta search with a table of bounds, for positions too large for any table.
    Search,
}

/// [`TieOrder`] as users name it.
#[derive(Clone, Copy, ValueEnum)]
pub enum TieOrderArg {
    /// The lower-numbered edge first.
    LowFirst,
    /// The higher-numbered edge first.
    HighFirst,
}

/// Runs `ply dots`.
pub fn run(args: DotsArgs) -> Result<String, Failure> {
    let (geometry, position) = match args.board {
        BoardCommand::Triangles { shape, position } => (shape.geometry(), position),
        BoardCommand::Boxes { shape, position } => (shape.geometry(), position),
        BoardCommand::Solve(args) => return solve::run(args),
    };
    let built = geometry.build().map_err(Failure::bad)?;
    let text = match (&position.moves, &position.moves_file) {
        (Some(moves), _) => moves.clone(),
        (None, Some(path)) => read_text(Some(path), max_moves_text(&built.board))?,
        (None, None) => String::new(),
    };
    let game = position_from_moves(&built.board, &text).map_err(Failure::bad)?;
    let budget = position.memory.budget()?;
    let free = (built.board.edge_count() as u32) - game.drawn().len();
    let strategy = match position.strategy {
        StrategyArg::Auto => Strategy::auto(&built.board, free, budget),
        StrategyArg::Recursion => Strategy::Recursion,
        StrategyArg::Memo => Strategy::Memo,
        StrategyArg::Table => Strategy::Table,
        StrategyArg::FreeTable => Strategy::FreeTable,
        StrategyArg::Search => Strategy::Search,
    };
    let progress = StatesProgress::new(match strategy {
        Strategy::Table | Strategy::FreeTable => "filled",
        Strategy::Search => "searched",
        _ => "visited",
    });
    let update = |states| progress.update(states);
    let status = |s: &SearchStatus| search_progress(&progress, &built.board, s);
    let options = SolveOptions {
        budget,
        progress: Some(&update),
        search_status: Some(&status),
        free_items: free,
        tie_order: match position.tie_order {
            TieOrderArg::LowFirst => TieOrder::LowFirst,
            TieOrderArg::HighFirst => TieOrder::HighFirst,
        },
    };
    let detail = if position.value_only {
        Detail::Value
    } else if position.line || position.json {
        Detail::Line
    } else {
        Detail::Moves
    };
    let saved = match &position.table {
        Some(path) => Some(cache::load(path, &built).map_err(Failure::bad)?),
        None if strategy == Strategy::Table && !position.no_cache => cache::cached_table(&built),
        None => None,
    };
    let report = match &saved {
        Some(table) => report_from(
            &built,
            &game,
            &mut table.solver(&built.board),
            Strategy::Table,
            detail,
        ),
        None => report(&built, &game, strategy, options, detail),
    }
    .map_err(|e| Failure::solve(e, strategy))?;
    drop(progress);
    if position.json {
        Ok(serde_json::to_string(&report)? + "\n")
    } else {
        Ok(render(&report, built.board.cell_count(), position.line))
    }
}

/// A search's status as progress: the bounds and moves proved after the count, and a line of its
/// own for each move's value as it is proved (moves proved together, whose children are one state
/// of the table, get a line each).
fn search_progress(progress: &StatesProgress, board: &DotsBoard, s: &SearchStatus) {
    let mut detail = format!("table {:.1}% full", s.table_fill * 100.0);
    if let Some((lower, upper)) = s.root {
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
    for &(edge, value) in &s.proved {
        progress.event(&format!(
            "move {} = {} ({} nodes, {detail})",
            format_edge(board, Edge(edge as u8)),
            signed(value.into()),
            s.nodes
        ));
    }
}

fn signed(v: i64) -> String {
    if v > 0 {
        format!("+{v}")
    } else {
        v.to_string()
    }
}

/// The text form of a report.
fn render(r: &DotsReport, cells: usize, with_line: bool) -> String {
    let mut out = String::new();
    let (one, many) = r.geometry.cell_names();
    let noun = if cells == 1 { one } else { many };
    let _ = writeln!(out, "{} ({cells} {noun})", r.geometry.title());
    if !r.played.is_empty() {
        let _ = writeln!(out, "Played: {}", r.played.join(" "));
    }
    let _ = writeln!(out);
    out.push_str(&r.picture);
    let _ = writeln!(out);
    let over = r.moves.is_empty() && !r.value_only;
    let _ = writeln!(
        out,
        "Score: A {}, B {}. {}",
        r.score.a,
        r.score.b,
        if over {
            "Game over.".to_string()
        } else {
            format!("{} to move.", r.to_move)
        }
    );
    if !over {
        let _ = writeln!(
            out,
            "Value: {} for {} (net {many} still to gain under perfect play, by {})",
            signed(r.value as i64),
            r.to_move,
            r.strategy.name()
        );
    }
    let verdict = match r.winner {
        Winner::A => format!("A wins by {}", r.final_margin_a),
        Winner::B => format!("B wins by {}", -r.final_margin_a),
        Winner::Tie => "a tie".to_string(),
    };
    let _ = writeln!(
        out,
        "Result with perfect play: {verdict}, {}-{} (final margin for A: {})",
        r.final_score.a,
        r.final_score.b,
        signed(r.final_margin_a)
    );
    if r.value_only {
        let _ = writeln!(out, "\n(The moves were not valued: --value-only.)");
    } else if !over {
        let _ = writeln!(out, "\nMoves for {}, best first:", r.to_move);
        for m in &r.moves {
            let same = m
                .symmetric_to
                .as_ref()
                .map_or(String::new(), |other| format!("  (symmetric to {other})"));
            let scores = if m.points > 0 {
                format!("  (scores {})", m.points)
            } else {
                String::new()
            };
            let _ = writeln!(
                out,
                "  {:>6}  {:>4}{scores}{same}",
                m.mv,
                signed(m.value as i64)
            );
        }
    }
    if with_line && !r.line_steps.is_empty() {
        let steps: Vec<String> = r
            .line_steps
            .iter()
            .map(|s| {
                let who = s.player;
                if s.points > 0 {
                    format!("{who} {} (+{})", s.mv, s.points)
                } else {
                    format!("{who} {}", s.mv)
                }
            })
            .collect();
        let _ = writeln!(out, "\nBest line: {}", steps.join(", "));
    }
    out
}
