//! Where solved tables are kept between runs: `$XDG_CACHE_HOME/ply`, or `~/.cache/ply`.

use ply::engine::scored::table::SubsetTable;
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
    if !path.exists() {
        return None;
    }
    match SubsetTable::load(&path, &built.identity()) {
        Ok(table) => Some(table),
        Err(e) => {
            eprintln!("ply: ignoring the cached table: {e}");
            None
        }
    }
}

/// Keeps `table` in the cache (creating the directory); a failure is reported on stderr only.
pub fn keep(built: &BuiltBoard, table: &SubsetTable) {
    let Some(path) = table_path(built) else {
        return;
    };
    let saved = std::fs::create_dir_all(path.parent().expect("a cache file has a directory"))
        .map_err(|e| e.to_string())
        .and_then(|()| {
            table
                .save(&path, &built.identity())
                .map_err(|e| e.to_string())
        });
    if let Err(e) = saved {
        eprintln!("ply: could not keep the table in the cache: {e}");
    }
}
