//! Whole tables of dots boards as front ends use them: the table of a board built within a budget
//! (with progress), read whole into memory from a file (one the user names, or the front end's
//! cache), written out, and asked for the value of a position. A front end says only where files
//! live and how a file is written whole (`ply dots solve --save`, the cache directory); what a
//! table is, when one is worth building or caching and how a fault is worded are the dots home's.

use super::geometry::BuiltBoard;
use crate::engine::scored::choose::Crossovers;
use crate::engine::scored::table::SubsetTable;
use crate::engine::scored::table_file::TableFileError;
use crate::engine::scored::{ScoredGame, SolveError};
use crate::engine::util::memory::MemoryBudget;
use crate::engine::util::progress::{Progress, Watch};
use crate::input::surface::Surface;
use std::path::Path;

/// The first bytes of a saved table file: what a front end looks for before it replaces a file
/// with a table (`--save` replaces a table, never a user's other file).
pub const TABLE_FILE_MAGIC: &[u8; 8] = crate::engine::scored::table_file::MAGIC;

/// Where the automatic choice crosses from one strategy to the next on dots boards, measured with
/// `ply bench dots-free` (BENCHMARKS.md):
/// - `small_items` 24: a board of at most 24 edges is small — its whole table is 16 MiB, well under
///   a second, and its free-edge table never larger (3×3 boxes at 12 free edges: 4 ms against the
///   whole table's 130 ms); a front end that keeps tables builds the whole one once.
/// - `free_table_free` 18: the free-edge table up to 18 free edges (256 KiB, a millisecond); from
///   there up the search, with its table sized to the position, is faster: 5× at 22 free edges on
///   4×4 boxes, 30× at 26, 20× at 30 — and even on an empty board whose whole table would fit (the
///   empty 3×4 board: the search 4.7 s, the table 11 s; size-4 triangles: 1.0 s against 5.5 s).
/// - `table_limit` 2^32 bytes (4 GiB): the rule for games without completion rules, which dots
///   boards never are; stated for completeness.
pub const CROSSOVERS: Crossovers = Crossovers {
    small_items: 24,
    free_table_free: 18,
    table_limit: 1 << 32,
};

/// Boards of fewer edges are solved faster than their table is read: their tables are not cached.
pub const CACHE_FROM_EDGES: u32 = 25;

/// Bytes of a table over `edges` edges (a whole board's, or a position's free edges'): one byte for
/// each of its `2^edges` positions.
pub fn bytes_needed(edges: u32) -> u128 {
    SubsetTable::bytes_needed(edges)
}

/// Whether a front end keeps `built`'s table in its cache after building it: from
/// [`CACHE_FROM_EDGES`] edges up.
pub fn worth_caching(built: &BuiltBoard) -> bool {
    built.board.edge_count() as u32 >= CACHE_FROM_EDGES
}

/// The whole table of one board: the value of every position, with the board it belongs to.
#[derive(Debug)]
pub struct BoardTable {
    /// The values.
    table: SubsetTable,
    /// The board's identity ([`BuiltBoard::identity`]): what a file of it says it is.
    identity: String,
}

impl BoardTable {
    /// Builds `built`'s table on every core, refused before anything is allocated over `budget`;
    /// `progress` is told the positions filled after each layer.
    pub fn build(
        built: &BuiltBoard,
        budget: MemoryBudget,
        progress: Option<Progress<'_>>,
    ) -> Result<Self, SolveError> {
        let watch = Watch {
            progress,
            ..Watch::default()
        };
        Ok(BoardTable {
            table: SubsetTable::build(&built.board, budget, watch)?,
            identity: built.identity(),
        })
    }

    /// Reads the table of `built` saved at `path`, whole into memory within `budget`, checked
    /// against the board (its identity, its size, every value within the points it can score)
    /// before a value is used; `progress` is told the bytes read after each chunk.
    pub fn load(
        path: &Path,
        built: &BuiltBoard,
        budget: MemoryBudget,
        progress: Option<Progress<'_>>,
    ) -> Result<Self, TableFileError> {
        let identity = built.identity();
        let table = SubsetTable::load(
            path,
            &identity,
            built.board.edge_count() as u32,
            built.board.max_points(),
            budget,
            progress,
        )?;
        Ok(BoardTable { table, identity })
    }

    /// The table a front end's cache holds for `built` at `path`, if it holds one that fits
    /// `budget`: `None` when there is no file, or when it is over the budget (passed over in
    /// silence: building anew needs as much, and that refusal says so). A file that is not a valid
    /// table of the board is the error, for the front end to say it ignores it.
    pub fn cached(
        path: &Path,
        built: &BuiltBoard,
        budget: MemoryBudget,
        progress: Option<Progress<'_>>,
    ) -> Result<Option<Self>, TableFileError> {
        if !path.exists() {
            return Ok(None);
        }
        match BoardTable::load(path, built, budget, progress) {
            Ok(table) => Ok(Some(table)),
            Err(TableFileError::Memory(_)) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// Writes the table in ply's table format to `out`. Writing a file safely (whole or not at
    /// all) is the front end's part.
    pub fn write_to(&self, out: impl std::io::Write) -> std::io::Result<()> {
        self.table.write_to(out, &self.identity)
    }

    /// The identity of the board the table belongs to.
    pub fn identity(&self) -> &str {
        &self.identity
    }

    /// Bytes the table takes in memory.
    pub fn bytes(&self) -> u64 {
        self.table.len() as u64
    }

    /// The value of the empty board for the player to move (A).
    pub fn empty_board_value(&self) -> i32 {
        self.table.value_of_mask(0)
    }

    /// The values, for the dots home's solvers.
    pub(super) fn into_values(self) -> SubsetTable {
        self.table
    }
}

/// A table file's fault in the caller's terms: with the option that helps when the memory it needs
/// was the caller's own limit (`--memory` on the command line), the fault alone otherwise.
pub fn load_fault(e: &TableFileError, surface: Surface) -> String {
    match e {
        TableFileError::Memory(m) if m.caller_limited() => {
            format!("{e}; try a larger {}", surface.name("memory"))
        }
        _ => e.to_string(),
    }
}
