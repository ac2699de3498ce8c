//! Saved table files (`ply dots --table FILE`, and the cache).

use plysolve::engine::scored::table::SubsetTable;
use plysolve::engine::scored::{ScoredGame, SubsetIndexed};
use plysolve::engine::MemoryBudget;
use plysolve::games::dots::geometry::BuiltBoard;
use plysolve::games::dots::Geometry;
use std::sync::OnceLock;
use xxhash_rust::xxh3::xxh3_64;

/// The board the tables are loaded for: triangles of size 2 (9 edges, 512 states, 4 cells).
fn board() -> &'static (BuiltBoard, String) {
    static BOARD: OnceLock<(BuiltBoard, String)> = OnceLock::new();
    BOARD.get_or_init(|| {
        let built = Geometry::Triangles { size: 2 }
            .build()
            .expect("size 2 builds");
        let identity = built.identity();
        (built, identity)
    })
}

/// Room for the board's table (512 bytes) and more: a fuzzed file is refused for what it holds,
/// not for its size.
fn budget() -> MemoryBudget {
    MemoryBudget::new(1 << 20)
}

/// Checks a table file made of `data` followed by its own xxh3 checksum (so that a forged body
/// reaches the checks after the checksum): loading never panics, a loaded table is one of the board's
/// (as many elements) holding only values a game on it can have (at most its number of cells either
/// way), and saved again it loads to the same values.
pub fn check_table_file(data: &[u8]) {
    let (built, identity) = board();
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("fuzzed.plytable");
    let mut bytes = data.to_vec();
    bytes.extend_from_slice(&xxh3_64(data).to_le_bytes());
    std::fs::write(&path, &bytes).expect("the temporary file is written");
    let board = &built.board;
    let items = board.items();
    let table = match SubsetTable::load(&path, identity, items, board.max_points(), budget(), None)
    {
        Ok(table) => table,
        Err(fault) => return drop(fault.to_string()),
    };
    assert_eq!(
        table.items(),
        board.items(),
        "a table of another size loaded"
    );
    let cells = board.cell_count() as i32;
    let values: Vec<i32> = (0..1u64 << board.items())
        .map(|mask| table.value_of_mask(mask))
        .collect();
    if let Some(mask) = values.iter().position(|v| v.abs() > cells) {
        panic!(
            "a forged value loaded: {} at state {mask}, on a board of {cells} cells",
            values[mask]
        );
    }
    let copy = dir.path().join("copy.plytable");
    let mut saved = Vec::new();
    table
        .write_to(&mut saved, identity)
        .expect("a loaded table writes");
    std::fs::write(&copy, &saved).expect("the copy is written");
    let again = SubsetTable::load(&copy, identity, items, board.max_points(), budget(), None)
        .expect("a saved table loads");
    let reloaded: Vec<i32> = (0..1u64 << board.items())
        .map(|mask| again.value_of_mask(mask))
        .collect();
    assert_eq!(reloaded, values, "load → save → load changed the values");
}
