//! Solved tables on disk: a round trip, every kind of bad file refused, a file that changes while
//! it is read refused, and a table read once unaffected by what is done to its file later.

use plysolve::engine::scored::table::SubsetTable;
use plysolve::engine::scored::table_file::TableFileError;
use plysolve::engine::scored::ScoredGame;
use plysolve::engine::util::progress::Watch;
use plysolve::engine::MemoryBudget;
use plysolve::games::dots::Geometry;
use std::path::{Path, PathBuf};

/// Loads the table at `path` for the game `identity` of 9 elements and 4 points, within 1 MiB.
fn load(path: &Path, identity: &str) -> Result<SubsetTable, TableFileError> {
    SubsetTable::load(path, identity, 9, 4, MemoryBudget::new(1 << 20), None)
}

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("ply-table-test-{}-{name}", std::process::id()))
}

/// The bytes of the saved table of the size-2 triangle board (9 edges, 4 cells).
fn size_two_bytes() -> (SubsetTable, Vec<u8>) {
    let board = Geometry::Triangles { size: 2 }.build().unwrap().board;
    assert_eq!(board.max_points(), 4);
    let table = SubsetTable::build(&board, MemoryBudget::new(1 << 20), Watch::default()).unwrap();
    let mut bytes = Vec::new();
    table.write_to(&mut bytes, "triangles 2").unwrap();
    (table, bytes)
}

/// `bytes` with every value replaced by `value` and the checksum made valid again: a forgery that
/// only the range check can catch.
fn forged(bytes: &[u8], value: i8) -> Vec<u8> {
    let mut forged = bytes.to_vec();
    let body = forged.len() - 8;
    let values = body - (1 << 9);
    forged[values..body].fill(value as u8);
    let digest = xxhash_rust::xxh3::xxh3_64(&forged[..body]);
    forged[body..].copy_from_slice(&digest.to_le_bytes());
    forged
}

#[test]
fn round_trip_and_refusals() {
    let (table, bytes) = size_two_bytes();
    let path = temp("size2");
    std::fs::write(&path, &bytes).unwrap();
    let loaded = load(&path, "triangles 2").unwrap();
    assert!((0..1u64 << 9).all(|m| loaded.value_of_mask(m) == table.value_of_mask(m)));
    assert_eq!(
        loaded.value_of_mask(0),
        -2,
        "the known value of the size-2 board"
    );
    assert!(matches!(
        load(&path, "boxes 1x1"),
        Err(TableFileError::OtherGame { .. })
    ));
    // Corrupt one value byte.
    let mut bytes = bytes;
    let at = bytes.len() - 20;
    bytes[at] ^= 1;
    std::fs::write(&path, &bytes).unwrap();
    assert!(matches!(
        load(&path, "triangles 2"),
        Err(TableFileError::Corrupt(_))
    ));
    // Truncate.
    std::fs::write(&path, &bytes[..bytes.len() - 100]).unwrap();
    assert!(matches!(
        load(&path, "triangles 2"),
        Err(TableFileError::Length { .. })
    ));
    // Another version.
    bytes[8] = 9;
    std::fs::write(&path, &bytes).unwrap();
    assert!(matches!(
        load(&path, "triangles 2"),
        Err(TableFileError::Version { found: 9, .. })
    ));
    std::fs::write(&path, b"hello").unwrap();
    assert!(matches!(
        load(&path, "triangles 2"),
        Err(TableFileError::NotATable(_))
    ));
    let _ = std::fs::remove_file(&path);
}

#[test]
fn values_no_position_can_have_are_refused() {
    let (_, bytes) = size_two_bytes();
    let path = temp("forged");
    // A body of 0x7f bytes with a valid checksum: 127 points on a board of 4 cells.
    std::fs::write(&path, forged(&bytes, 0x7f)).unwrap();
    let refused = load(&path, "triangles 2").err().unwrap();
    assert!(matches!(
        refused,
        TableFileError::Impossible {
            value: 127,
            max_points: 4,
            ..
        }
    ));
    assert_eq!(
        refused.to_string(),
        format!(
            "{} holds the value 127, which no position of this board can have (at most 4 either way)",
            path.display()
        )
    );
    // The bound is exact on both sides, and the most negative byte is no exception.
    for (value, accepted) in [
        (4, true),
        (-4, true),
        (5, false),
        (-5, false),
        (i8::MIN, false),
    ] {
        std::fs::write(&path, forged(&bytes, value)).unwrap();
        match load(&path, "triangles 2") {
            Ok(table) => {
                assert!(accepted, "{value} was accepted");
                assert_eq!(table.value_of_mask(0), i32::from(value));
            }
            Err(TableFileError::Impossible { value: found, .. }) => {
                assert!(!accepted, "{value} was refused");
                assert_eq!(found, value);
            }
            Err(e) => panic!("{value}: {e}"),
        }
    }
    let _ = std::fs::remove_file(&path);
}

#[test]
fn a_directory_is_named_as_one() {
    let dir = temp("a-directory");
    std::fs::create_dir_all(&dir).unwrap();
    let refused = load(&dir, "triangles 2").err().unwrap();
    assert!(matches!(refused, TableFileError::Directory(_)));
    assert_eq!(
        refused.to_string(),
        format!("{} is a directory, not a table file", dir.display())
    );
    let _ = std::fs::remove_dir(&dir);
}

#[test]
fn a_header_of_another_size_is_refused_before_any_value_is_read() {
    // The fuzzer's find: the board's identity with `"items":3` and 8 values, checksum valid, used to
    // load and then index past its end.
    let header = br#"{"identity":"triangles 2","encoding":"one signed byte per state: net points for the player to move; layered blocks","items":3,"low_bits":3}"#;
    let mut bytes = b"PLYTABLE".to_vec();
    bytes.extend_from_slice(&1u32.to_le_bytes());
    bytes.extend_from_slice(&(header.len() as u32).to_le_bytes());
    bytes.extend_from_slice(header);
    bytes.extend_from_slice(&[0; 8]);
    let digest = xxhash_rust::xxh3::xxh3_64(&bytes);
    bytes.extend_from_slice(&digest.to_le_bytes());
    let path = temp("fewer-items");
    std::fs::write(&path, &bytes).unwrap();
    let refused = load(&path, "triangles 2").err().unwrap();
    assert_eq!(
        refused.to_string(),
        format!(
            "{} holds a table over 3 elements, but this board has 9",
            path.display()
        )
    );
    let _ = std::fs::remove_file(&path);
}

/// Loads `path` (the size-2 table) while `meddle` does something to the file after the values were
/// read and before the checksum is.
fn load_while(path: &Path, meddle: impl Fn(&Path) + Sync) -> Result<SubsetTable, TableFileError> {
    let calls = std::sync::atomic::AtomicUsize::new(0);
    let progress = |read: u64| {
        assert_eq!(read, 1 << 9, "one chunk holds the 512 values");
        calls.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        meddle(path);
    };
    let loaded = SubsetTable::load(
        path,
        "triangles 2",
        9,
        4,
        MemoryBudget::new(1 << 20),
        Some(&progress),
    );
    assert_eq!(calls.into_inner(), 1);
    loaded
}

#[test]
fn a_file_that_changes_while_it_is_read_is_refused() {
    let (table, bytes) = size_two_bytes();
    let path = temp("changing");
    let message = format!(
        "the table file {} changed while it was read; replace a table by renaming a new file over \
         it, never by writing into it",
        path.display()
    );
    // Truncated (to nothing, or by its checksum): the read ends early.
    for keep in [0, bytes.len() - 8] {
        std::fs::write(&path, &bytes).unwrap();
        let refused = load_while(&path, |p| {
            std::fs::OpenOptions::new()
                .write(true)
                .open(p)
                .unwrap()
                .set_len(keep as u64)
                .unwrap()
        })
        .err()
        .unwrap();
        assert!(matches!(refused, TableFileError::Changed(_)), "{refused}");
        assert_eq!(refused.to_string(), message);
    }
    // Written over in place with the same bytes (what `cp` does: truncate, then write): every byte
    // read is right, but they might not have been, so the file is refused all the same. The pause
    // puts the write on another tick of the file system's clock.
    std::fs::write(&path, &bytes).unwrap();
    let refused = load_while(&path, |p| {
        std::thread::sleep(std::time::Duration::from_millis(30));
        std::fs::write(p, &bytes).unwrap();
    })
    .err()
    .unwrap();
    assert_eq!(refused.to_string(), message);
    // Replaced by renaming a new file over it, as ply's own saves do: the open file is the old one,
    // whole, and it is read to its end.
    let other = temp("changing-new");
    let loaded = load_while(&path, |p| {
        std::fs::write(&other, b"a new file").unwrap();
        std::fs::rename(&other, p).unwrap();
    })
    .unwrap();
    assert!((0..1u64 << 9).all(|m| loaded.value_of_mask(m) == table.value_of_mask(m)));
    assert_eq!(std::fs::read(&path).unwrap(), b"a new file");
    let _ = std::fs::remove_file(&path);
}

#[test]
fn a_table_read_is_the_process_own() {
    let (table, bytes) = size_two_bytes();
    let path = temp("own");
    std::fs::write(&path, &bytes).unwrap();
    let loaded = load(&path, "triangles 2").unwrap();
    // Truncated, then written over with other values: the table read stays as it was read.
    let file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
    file.set_len(0).unwrap();
    assert!((0..1u64 << 9).all(|m| loaded.value_of_mask(m) == table.value_of_mask(m)));
    std::fs::write(&path, forged(&bytes, 3)).unwrap();
    assert!((0..1u64 << 9).all(|m| loaded.value_of_mask(m) == table.value_of_mask(m)));
    let _ = std::fs::remove_file(&path);
}

#[test]
fn a_table_over_the_budget_is_refused_before_it_is_read() {
    let (_, bytes) = size_two_bytes();
    let path = temp("budget");
    std::fs::write(&path, &bytes).unwrap();
    let refused = SubsetTable::load(&path, "triangles 2", 9, 4, MemoryBudget::new(511), None)
        .err()
        .unwrap();
    assert!(matches!(&refused, TableFileError::Memory(m) if m.caller_limited()));
    assert_eq!(
        refused.to_string(),
        format!(
            "the table in `{}` (2^9 states, one byte each) needs 512 B but the memory budget is 511 B",
            path.display()
        )
    );
    assert!(SubsetTable::load(&path, "triangles 2", 9, 4, MemoryBudget::new(512), None).is_ok());
    let _ = std::fs::remove_file(&path);
}
