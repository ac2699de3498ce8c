//! Memory sizes (`--memory 8G`).
//!
//! The CLI's `--memory` reader is the library's `parse_memory_size`; this check runs it.

use crate::text;
use plysolve::input::memory_size::{parse_memory_size, MemorySizeError};

/// Parses a size as `ply --memory` does.
fn parse_memory(text: &str) -> Result<u64, MemorySizeError> {
    parse_memory_size(text)
}

/// Checks a memory size: a size that parses is read back the same written in bytes, and in the
/// largest binary unit (K, M, G, T) it is a whole number of.
pub fn check_memory_size(data: &[u8]) {
    let bytes = match parse_memory(&text(data)) {
        Ok(bytes) => bytes,
        Err(fault) => return drop(fault.to_string()),
    };
    assert_eq!(
        parse_memory(&bytes.to_string()),
        Ok(bytes),
        "written in bytes"
    );
    let unit = ["T", "G", "M", "K"]
        .into_iter()
        .zip([40, 30, 20, 10])
        .find(|&(_, shift)| bytes != 0 && bytes.trailing_zeros() >= shift);
    if let Some((unit, shift)) = unit {
        let written = format!("{}{unit}", bytes >> shift);
        assert_eq!(parse_memory(&written), Ok(bytes), "written as {written}");
    }
}
