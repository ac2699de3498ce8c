//! Reading user input: files, `-` for stdin, and memory sizes.
//!
//! Inputs are streamed: every reader of a whole input stops at its first impossible line or byte
//! (see `ply::input`), so nothing here reads a file whole without a bound.

use crate::failure::Failure;
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
            let cannot =
                |why: String| Failure::BadInput(format!("cannot read {}: {why}", p.display()));
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
    ply::input::read_bounded(open_input(path)?, limit).map_err(Failure::bad)
}

/// Parses a memory size such as `8G`, `512M`, `1.5GiB` or `1000000` (bytes); K, M, G, T are binary.
pub fn parse_memory(text: &str) -> Result<u64, String> {
    parse_size::Config::new()
        .with_binary()
        .parse_size(text)
        .map_err(|e| format!("`{text}` is not a memory size like 8G or 512M ({e})"))
}
