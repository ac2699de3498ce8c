//! `ply bench`: the original program's experiment reproduced — the same positions solved by plain recursion,
//! memoized recursion and the bottom-up table, with states visited, times and speed-ups.

use crate::failure::Failure;
use crate::input::{memory_budget, open_input};
use clap::{Args, Subcommand};
use plysolve::engine::scored::{SolveError, Strategy};
use plysolve::engine::MemoryBudget;
use plysolve::games::dots::measured::{value_by, values_by_table, StrategyRun};
use plysolve::games::dots::triangle_war::{parse_games, read_games};
use plysolve::games::dots::{Geometry, Position};
use std::fmt::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The sample input of the Triangle War problem: four games, 6 to 10 edges drawn.
const SAMPLE_GAMES: &str =
    "4\n6\n2 4\n4 5\n5 9\n3 6\n2 5\n3 5\n7\n2 4\n4 5\n5 9\n3 6\n2 5\n3 5\n7 8\n\
6\n1 2\n2 3\n1 3\n2 4\n2 5\n4 5\n10\n1 2\n2 5\n3 6\n5 8\n4 7\n6 10\n2 4\n4 5\n4 8\n7 8\n";

/// `ply bench …`
#[derive(Subcommand)]
pub enum BenchCommand {
    /// Dots and Triangles on the classic board: recursion vs memo vs table.
    Dots(BenchDotsArgs),
    /// Dots and Boxes, one position per count of free edges: memo vs free-edge table vs search.
    DotsFree(super::bench_series::BenchFreeArgs),
    /// ply's player against a random and a greedy opponent, over seeded games.
    DotsPlayer(super::bench_player::BenchPlayerArgs),
    /// The cost models: each model's estimate beside the time its work takes here.
    Costs,
}

/// Options of `ply bench dots`.
#[derive(Args)]
pub struct BenchDotsArgs {
    /// Positions to solve, in the triangle-war format (default: the contest's four sample games).
    #[arg(long, value_name = "FILE")]
    games: Option<PathBuf>,
    /// Leave plain recursion out (it takes seconds per position with 12 edges free).
    #[arg(long)]
    skip_recursion: bool,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
}

/// Runs `ply bench`.
pub fn run(command: BenchCommand) -> Result<String, Failure> {
    let args = match command {
        BenchCommand::Dots(args) => args,
        BenchCommand::DotsFree(args) => return super::bench_series::run(args),
        BenchCommand::DotsPlayer(args) => return super::bench_player::run(args),
        BenchCommand::Costs => return super::bench_costs::run(),
    };
    let built = Geometry::CLASSIC_TRIANGLES.build().map_err(Failure::bad)?;
    let budget = memory_budget(None)?;
    let positions = match &args.games {
        Some(path) => read_games(&built.board, open_input(Some(path))?, budget),
        None => parse_games(&built.board, SAMPLE_GAMES),
    }
    .map_err(Failure::bad)?;
    let mut rows: Vec<StrategyRun> = Vec::new();
    for strategy in Strategy::ORIGINAL {
        if strategy == Strategy::Recursion && args.skip_recursion {
            continue;
        }
        let (values, visited, elapsed) = time_strategy(&built.board, strategy, budget, &positions)?;
        let recursion = rows
            .iter()
            .find(|r| r.strategy == "recursion")
            .map(|r| r.seconds);
        rows.push(StrategyRun {
            strategy: strategy.name(),
            positions: positions.len(),
            states_visited: visited,
            seconds: elapsed.as_secs_f64(),
            speedup_over_recursion: recursion.map(|r| r / elapsed.as_secs_f64()),
            values,
        });
    }
    if rows.windows(2).any(|w| w[0].values != w[1].values) {
        return Err(Failure::Internal(
            "the strategies disagree; please report this".into(),
        ));
    }
    if args.json {
        return Ok(serde_json::to_string(&rows)? + "\n");
    }
    let mut out = String::new();
    let drawn: Vec<u32> = positions.iter().map(|p| p.drawn().len()).collect();
    let _ = writeln!(
        out,
        "Dots and Triangles, classic board: {} positions ({} edges drawn), values {:?}",
        positions.len(),
        drawn
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(", "),
        rows[0].values
    );
    let _ = writeln!(
        out,
        "{:<10} {:>9} {:>15} {:>12} {:>12}",
        "strategy", "positions", "states visited", "time", "speed-up"
    );
    for row in &rows {
        let speedup = row
            .speedup_over_recursion
            .map_or("-".to_string(), |s| format!("{s:.0}x"));
        let _ = writeln!(
            out,
            "{:<10} {:>9} {:>15} {:>12} {:>12}",
            row.strategy,
            row.positions,
            row.states_visited,
            format_duration(row.seconds),
            speedup
        );
    }
    Ok(out)
}

/// Solves every position with `strategy`: recursion and memo start afresh for each position (as the
/// original program did), the table is built once and answers all of them.
fn time_strategy(
    board: &plysolve::games::dots::DotsBoard,
    strategy: Strategy,
    budget: MemoryBudget,
    positions: &[Position],
) -> Result<(Vec<i32>, u64, Duration), SolveError> {
    let start = Instant::now();
    let drawn: Vec<_> = positions.iter().map(Position::drawn).collect();
    let (values, visited) = if strategy == Strategy::Table {
        values_by_table(board, budget, &drawn)?
    } else {
        let mut values = Vec::with_capacity(drawn.len());
        let mut visited = 0;
        for &p in &drawn {
            let (value, states) = value_by(board, strategy, budget, p)?;
            values.push(value);
            visited += states;
        }
        (values, visited)
    };
    Ok((values, visited, start.elapsed()))
}

fn format_duration(seconds: f64) -> String {
    if seconds >= 1.0 {
        format!("{seconds:.2} s")
    } else if seconds >= 1e-3 {
        format!("{:.2} ms", seconds * 1e3)
    } else {
        format!("{:.1} µs", seconds * 1e6)
    }
}
