//! Reading user input: files, `-` for stdin, and memory sizes.

use crate::failure::Failure;
use ply::engine::memory::{parse_memory_size, Bytes, MemoryBudget, MemoryError};
use std::io::Read;
use std::path::Path;

/// The whole text of `path`, or of stdin when `path` is `-` or absent.
pub fn read_text(path: Option<&Path>) -> Result<String, Failure> {
    let mut text = String::new();
    match path {
        None => read_stdin(&mut text)?,
        Some(p) if p == Path::new("-") => read_stdin(&mut text)?,
        Some(p) => {
            text = std::fs::read_to_string(p)
                .map_err(|e| Failure::BadInput(format!("cannot read {}: {e}", p.display())))?;
        }
    }
    // A byte-order mark is not part of the first number.
    if let Some(rest) = text.strip_prefix('\u{feff}') {
        text = rest.to_string();
    }
    Ok(text)
}

fn read_stdin(text: &mut String) -> Result<(), Failure> {
    std::io::stdin()
        .read_to_string(text)
        .map(drop)
        .map_err(|e| Failure::BadInput(format!("cannot read standard input: {e}")))
}

/// Parses a memory size such as `8G`, `512M`, `1.5GiB` or `1000000` (bytes); K, M, G, T are binary.
pub fn parse_memory(text: &str) -> Result<u64, String> {
    parse_memory_size(text).map_err(|e| e.to_string())
}

/// The memory budget: the least of `--memory` (when given) and what the system allows now. A
/// `--memory` above the machine's physical memory is refused: it could only be over-promised.
pub fn memory_budget(given: Option<u64>) -> Result<MemoryBudget, Failure> {
    MemoryBudget::with_system(given).map_err(|e| match e {
        MemoryError::MoreThanMachine { given, physical } => Failure::BadInput(format!(
            "--memory {} is more than this machine's {} of memory",
            Bytes(given.into()),
            Bytes(physical.into())
        )),
        e => Failure::bad(e),
    })
}
