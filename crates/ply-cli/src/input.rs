//! Reading user input: files, `-` for stdin, and memory sizes.

use crate::failure::Failure;
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
    parse_size::Config::new()
        .with_binary()
        .parse_size(text)
        .map_err(|e| format!("`{text}` is not a memory size like 8G or 512M ({e})"))
}
