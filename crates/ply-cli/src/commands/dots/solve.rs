//! `ply dots solve`: the whole table of a board, built in parallel layer by layer, with a progress bar,
//! the value of the empty board, the time, the speed and the peak memory.

use super::{BoxesSize, TrianglesSize};
use crate::args::MemoryArg;
use crate::cache;
use crate::failure::Failure;
use crate::progress::StatesProgress;
use crate::saving;
use clap::{Args, Subcommand};
use plysolve::engine::util::memory::{Bytes, MemoryError};
use plysolve::engine::scored::SolveError;
use plysolve::games::dots::measured::TableReport;
use plysolve::games::dots::tables::{worth_caching, BoardTable, TABLE_FILE_MAGIC};
use std::time::Instant;

/// `ply dots solve <board>`
#[derive(Args)]
pub struct SolveArgs {
    #[command(subcommand)]
    shape: Shape,
    /// Print one JSON object.
    #[arg(long, global = true)]
    json: bool,
    #[command(flatten)]
    memory: MemoryArg<true>,
    /// Also write the solved table to FILE (answer later queries with `--table FILE`).
    #[arg(long, value_name = "FILE", global = true)]
    save: Option<std::path::PathBuf>,
    /// Neither read nor keep the table in the cache directory.
    #[arg(long, global = true)]
    no_cache: bool,
}

#[derive(Subcommand)]
enum Shape {
    /// A triangle board of --size rows.
    Triangles(TrianglesSize),
    /// A board of --rows × --cols boxes.
    Boxes(BoxesSize),
}

/// The process's peak resident memory (Linux `VmHWM`), if it can be read.
fn peak_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// The failure of `--save path`: `` --save: `t.plytable` is not a regular file ``.
fn cannot_save(path: &std::path::Path, e: saving::SaveError) -> Failure {
    Failure::BadInput(format!("--save: {}", e.about(path)))
}

/// A table that could not be built, on one short line: what it needs (the figure), the budget's
/// own, and what answers the board's positions instead.
fn too_big(e: SolveError) -> Failure {
    let cause = match &e {
        SolveError::Memory(MemoryError::OverBudget {
            what,
            needed,
            budget,
            limit,
        }) => format!(
            "{what} needs {:#}, over the memory budget of {:#}{}",
            Bytes(*needed),
            Bytes(u128::from(*budget)),
            limit.explanation()
        ),
        _ => e.to_string(),
    };
    Failure::BadInput(format!(
        "{cause}; `ply dots --strategy memo` asks its positions one at a time"
    ))
}

/// Runs `ply dots solve`.
pub fn run(args: SolveArgs) -> Result<String, Failure> {
    let geometry = match args.shape {
        Shape::Triangles(t) => t.geometry(),
        Shape::Boxes(b) => b.geometry(),
    };
    let built = geometry.build().map_err(Failure::bad)?;
    let board = &built.board;
    let budget = args.memory.budget()?;
    let states = 1u64 << board.edge_count();
    if let Some(path) = &args.save {
        saving::check_target(path)
            .and_then(|()| saving::check_replaces_only(path, TABLE_FILE_MAGIC, "a ply table"))
            .map_err(|e| cannot_save(path, e))?;
    }
    let progress = StatesProgress::with_total("states filled", states);
    let update = |filled: u64| progress.update(filled);
    let start = Instant::now();
    let use_cache = !args.no_cache && worth_caching(&built);
    let cached = if use_cache {
        cache::cached_table(&built, budget)
    } else {
        None
    };
    let from_cache = cached.is_some();
    let table = match cached {
        Some(table) => table,
        None => BoardTable::build(&built, budget, Some(&update)).map_err(too_big)?,
    };
    let seconds = start.elapsed().as_secs_f64();
    drop(progress);
    if let Some(path) = &args.save {
        saving::write_whole(path, |out| table.write_to(out)).map_err(|e| cannot_save(path, e))?;
    }
    if use_cache && !from_cache {
        cache::keep(&built, &table);
    }
    let solved = TableReport::new(
        table.empty_board_value(),
        states,
        seconds,
        peak_bytes(),
        from_cache,
    );
    if args.json {
        return Ok(serde_json::to_string(&solved)? + "\n");
    }
    let peak = solved.peak_bytes.map_or("unknown".to_string(), |b| {
        format!("{:.1} MiB", b as f64 / (1 << 20) as f64)
    });
    let how = if from_cache {
        "read from the cache"
    } else {
        "solved"
    };
    Ok(format!(
        "{}: value of the empty board {:+} for A\n{} states {how} in {:.3} s ({:.0} states/s), peak memory {peak}\n",
        geometry.title(),
        solved.value,
        states,
        seconds,
        solved.states_per_second
    ))
}
