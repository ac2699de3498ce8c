//! Reading user input: files, `-` for stdin, and memory sizes.
//!
//! Inputs are streamed: every reader of a whole input stops at its first impossible line or byte
//! (see `plysolve::input`), so nothing here reads a file whole without a bound.

use crate::failure::Failure;
use plysolve::engine::util::memory::{Bytes, MemoryBudget, MemoryError};
use plysolve::input::memory_size::parse_memory_size;
use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::Path;

/// The input `path` names, buffered: stdin when `path` is `-` or absent. A directory or a file that
/// cannot be opened is refused with its name.
pub fn open_input(path: Option<&Path>) -> Result<Box<dyn BufRead>, Failure> {
    match path {
        None => Ok(Box::new(std::io::stdin().lock())),
        Some(p) if p == Path::new("-") => Ok(Box::new(std::io::stdin().lock())),
        Some(p) => {
            let cannot = |why: String| {
                Failure::BadInput(format!(
                    "cannot read {}: {why}",
                    plysolve::input::path_excerpt(p)
                ))
            };
            let file = File::open(p).map_err(|e| cannot(e.to_string()))?;
            if file.metadata().is_ok_and(|m| m.is_dir()) {
                return Err(cannot("is a directory".into()));
            }
            Ok(Box::new(BufReader::new(file)))
        }
    }
}

/// The whole text of `path` (stdin when `-` or absent), lines joined by `\n`, refused at its first
/// byte that no text holds or once past `limit` bytes (the most a valid input can hold).
pub fn read_text(path: Option<&Path>, limit: usize) -> Result<String, Failure> {
    plysolve::input::read_bounded(open_input(path)?, limit).map_err(Failure::bad)
}

/// Parses a time such as `3s`, `500ms` or `2m` (`--time`, `--think`, `--time-limit`).
pub fn parse_time(text: &str) -> Result<std::time::Duration, String> {
    plysolve::input::duration::parse_time(text).map_err(|e| e.to_string())
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

/// Input up to this long is parsed without asking the budget: small change, which the budget's
/// margin for the rest of the process covers.
pub const SMALL_INPUT: usize = 64 << 10;

/// Refuses, before it is parsed, input of `bytes` bytes that would take more than `budget` at
/// `per_byte` bytes of memory a byte (`what(bytes)` names the work: "reading a request of 17 bytes");
/// input of [`SMALL_INPUT`] or less passes.
pub fn check_parsing(
    budget: MemoryBudget,
    bytes: usize,
    per_byte: u128,
    what: impl FnOnce(usize) -> String,
) -> Result<(), Failure> {
    if bytes <= SMALL_INPUT {
        return Ok(());
    }
    budget
        .check(bytes as u128 * per_byte, || what(bytes))
        .map_err(Failure::bad)
}
