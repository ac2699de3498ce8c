//! Where solved tables are kept between runs: `$XDG_CACHE_HOME/ply`, or `~/.cache/ply`. Tables are
//! written whole or not at all ([`crate::saving`]); every use first clears the directory of partial
//! files that killed processes left behind.

use crate::saving;
use ply::engine::scored::table::SubsetTable;
use ply::engine::scored::ScoredGame;
use ply::games::dots::geometry::BuiltBoard;
use std::path::PathBuf;

/// The cache file of `built`'s table, if the system has a cache directory.
pub fn table_path(built: &BuiltBoard) -> Option<PathBuf> {
    Some(dirs::cache_dir()?.join("ply").join(built.table_file_name()))
}

/// The cached table of `built`, if there is a valid one. A file that is not valid is left alone and
/// reported on stderr; the caller solves anew.
pub fn cached_table(built: &BuiltBoard) -> Option<SubsetTable> {
    let path = table_path(built)?;
    saving::remove_stale_partial_files(path.parent()?);
    if !path.exists() {
        return None;
    }
    match load(&path, built) {
        Ok(table) => Some(table),
        Err(e) => {
            eprintln!("ply: ignoring the cached table: {e}");
            None
        }
    }
}

/// The table of `built` saved at `path`, checked against the board (identity and value range).
pub fn load(
    path: &std::path::Path,
    built: &BuiltBoard,
) -> Result<SubsetTable, ply::engine::scored::table_file::TableFileError> {
    SubsetTable::load(
        path,
        &built.identity(),
        built.board.edge_count() as u32,
        built.board.max_points(),
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
        eprintln!(
            "ply: could not keep the table in the cache as {}: {e}",
            path.display()
        );
    }
}
