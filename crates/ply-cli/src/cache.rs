//! Where solved tables are kept between runs: `$XDG_CACHE_HOME/ply`, or `~/.cache/ply`. Tables are
//! written whole or not at all ([`crate::saving`]); every use first clears the directory of partial
//! files that killed processes left behind. Every table file the CLI reads, cached or given with
//! `--table`, is read here ([`load`]): whole, into memory within the budget.

use crate::failure::Failure;
use crate::saving;
use plysolve::engine::MemoryBudget;
use plysolve::games::dots::geometry::BuiltBoard;
use plysolve::games::dots::tables::{load_fault, BoardTable};
use plysolve::input::surface::Surface;
use plysolve::input::Lines;
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

/// The cached table of `built`, if there is a valid one that fits `budget` ([`BoardTable::cached`]).
/// A file that is not valid is left alone and reported on stderr; the caller solves anew.
pub fn cached_table(built: &BuiltBoard, budget: MemoryBudget) -> Option<BoardTable> {
    let path = table_path(built)?;
    saving::remove_stale_partial_files(path.parent()?);
    let pause = pause_hook(&path);
    match BoardTable::cached(&path, built, budget, pause.as_ref().map(|p| p as _)) {
        Ok(table) => table,
        Err(e) => {
            crate::progress::say(&format!("ply: ignoring the cached table: {e}"));
            None
        }
    }
}

/// The table of `built` saved at `path` (`--table FILE`), read whole into memory within `budget`
/// ([`BoardTable::load`]); a fault is the user's, worded with the option that helps.
pub fn load(path: &Path, built: &BuiltBoard, budget: MemoryBudget) -> Result<BoardTable, Failure> {
    let pause = pause_hook(path);
    BoardTable::load(path, built, budget, pause.as_ref().map(|p| p as _))
        .map_err(|e| Failure::BadInput(load_fault(&e, Surface::Cli)))
}

/// The test hook's pause of a read of `path`, when [`PAUSE_HOOK`] is set: after the first chunk, says
/// so and waits for a line on stdin.
fn pause_hook(path: &Path) -> Option<impl Fn(u64) + Sync + '_> {
    std::env::var_os(PAUSE_HOOK)?;
    let paused = AtomicBool::new(false);
    Some(move |read: u64| {
        if !paused.swap(true, Ordering::Relaxed) {
            crate::progress::say(&format!(
                "ply: test hook: reading paused after {read} bytes of {}",
                path.display()
            ));
            let _ = Lines::new(std::io::stdin().lock()).next_line(1 << 10);
        }
    })
}

/// Keeps `table` in the cache (creating the directory); a failure is reported on stderr only.
pub fn keep(built: &BuiltBoard, table: &BoardTable) {
    let Some(path) = table_path(built) else {
        return;
    };
    let dir = path.parent().expect("a cache file has a directory");
    let saved = std::fs::create_dir_all(dir)
        .map_err(saving::SaveError::Write)
        .and_then(|()| {
            saving::remove_stale_partial_files(dir);
            saving::write_whole(&path, |out| table.write_to(out))
        });
    if let Err(e) = saved {
        crate::progress::say(&format!(
            "ply: could not keep the table in the cache: {}",
            e.about(&path)
        ));
    }
}
