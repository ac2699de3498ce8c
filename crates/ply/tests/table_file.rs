//! Solved tables on disk: a round trip, and every kind of bad file refused.

use ply::engine::scored::table::SubsetTable;
use ply::engine::scored::table_file::TableFileError;
use ply::engine::MemoryBudget;
use ply::games::dots::Geometry;
use std::path::PathBuf;

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("ply-table-test-{}-{name}", std::process::id()))
}

#[test]
fn round_trip_and_refusals() {
    let board = Geometry::Triangles { size: 2 }.build().unwrap().board;
    let table = SubsetTable::build(&board, MemoryBudget::new(1 << 20), None).unwrap();
    let path = temp("size2");
    table.save(&path, "triangles 2").unwrap();
    let loaded = SubsetTable::load(&path, "triangles 2").unwrap();
    assert!((0..1u64 << 9).all(|m| loaded.value_of_mask(m) == table.value_of_mask(m)));
    assert!(matches!(
        SubsetTable::load(&path, "boxes 1x1"),
        Err(TableFileError::OtherGame { .. })
    ));
    // Corrupt one value byte.
    let mut bytes = std::fs::read(&path).unwrap();
    let at = bytes.len() - 20;
    bytes[at] ^= 1;
    std::fs::write(&path, &bytes).unwrap();
    assert!(matches!(
        SubsetTable::load(&path, "triangles 2"),
        Err(TableFileError::Corrupt(_))
    ));
    // Truncate.
    std::fs::write(&path, &bytes[..bytes.len() - 100]).unwrap();
    assert!(matches!(
        SubsetTable::load(&path, "triangles 2"),
        Err(TableFileError::Length { .. })
    ));
    // Another version.
    bytes[8] = 9;
    std::fs::write(&path, &bytes).unwrap();
    assert!(matches!(
        SubsetTable::load(&path, "triangles 2"),
        Err(TableFileError::Version { found: 9, .. })
    ));
    std::fs::write(&path, b"hello").unwrap();
    assert!(matches!(
        SubsetTable::load(&path, "triangles 2"),
        Err(TableFileError::NotATable(_))
    ));
    let _ = std::fs::remove_file(&path);
}
