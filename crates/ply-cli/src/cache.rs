//! Where solved tables are kept between runs: `$XDG_CACHE_HOME/ply`, or `~/.cache/ply`. Tables are
//! written whole or not at all ([`crate::saving`]); every use first clears the directory of partial
//! files that killed processes left behind. Every table file the CLI reads, cached or given with
//! `--table`, is read here ([`load`]): whole, into memory within the budget.

use crate::saving;
use plysolve::engine::scored::table::SubsetTable;
use plysolve::engine::scored::table_file::TableFileError;
use plysolve::engine::scored::ScoredGame;
use plysolve::engine::util::progress::Progress;
use plysolve::engine::MemoryBudget;
use plysolve::games::dots::geometry::BuiltBoard;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

/// Test hook (undocumented for users): when this variable is set, reading a table stops after its
/// first chunk of values, says so on stderr and waits for a line on stdin — so tests can change the
/// file in the middle of the read without depending on timing.
const PAUSE_HOOK: &str = "PLY_TEST_PAUSE_TABLE";

/// The cache file of `built`'s table, if the system has a cache directory.
pub fn table_path(built: &BuiltBoard) -> Option<PathBuf> {
    Some(dirs::cache_dir()?.join("ply").join(built.table_file_name()))
}

/// The cached table of `built`, if there is a valid one that fits `budget`. A file that is not valid
/// is left alone and reported on stderr; the caller solves anew. One over the budget is passed over
/// in silence: solving anew needs as much, and its refusal says so.
pub fn cached_table(built: &BuiltBoard, budget: MemoryBudget) -> Option<SubsetTable> {
    let path = table_path(built)?;
    saving::remove_stale_partial_files(path.parent()?);
    if !path.exists() {
        return None;
    }
    match load(&path, built, budget) {
        Ok(table) => Some(table),
        Err(TableFileError::Memory(_)) => None,
        Err(e) => {
            crate::progress::say(&format!("ply: ignoring the cached table: {e}"));
            None
        }
    }
}

/// The table of `built` saved at `path`, checked against the board (identity and value range) and
/// read whole into memory within `budget` (see [`SubsetTable::load`]).
pub fn load(
    path: &Path,
    built: &BuiltBoard,
    budget: MemoryBudget,
) -> Result<SubsetTable, TableFileError> {
    let paused = AtomicBool::new(false);
    let pause = |read: u64| {
        if !paused.swap(true, Ordering::Relaxed) {
            crate::progress::say(&format!(
                "ply: test hook: reading paused after {read} bytes of {}",
                path.display()
            ));
            let _ = std::io::stdin().lines().next();
        }
    };
    let progress: Option<Progress> = std::env::var_os(PAUSE_HOOK).is_some().then_some(&pause);
    SubsetTable::load(
        path,
        &built.identity(),
        built.board.edge_count() as u32,
        built.board.max_points(),
        budget,
        progress,
    )
}

/// Keeps `table` in the cache (creating the directory); a failure is reported on stderr only.
pub fn keep(built: &BuiltBoard, table: &SubsetTable) {
    let Some(path) = table_path(built) else {
        return;
    };
    let dir = path.parent().expect("a cache file has a directory");
    let saved = std::fs::create_dir_all(dir).and_then(|()| {
        saving::remove_stale_partial_files(dir);
        saving::write_whole(&path, |out| table.write_to(out, &built.identity()))
    });
    if let Err(e) = saved {
        crate::progress::say(&format!(
            "ply: could not keep the table in the cache as {}: {e}",
            path.display()
        ));
    }
}
