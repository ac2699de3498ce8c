//! What a front end asks of a whole book — its boards and entries, a summary, a merge, JSON lines
//! out and in — as reports the CLI (`ply dots book`) and Python (`ply.book_*`) both render.

use super::store::{position_text, BookEntry, BookError, BookFile};
use super::unfinished::Unfinished;
use crate::games::dots::geometry::BuiltBoard;
use crate::input::surface::{Surface, Worded};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

/// Each board of `file` with its entries, every entry checked against this version's board.
pub fn boards_of(file: &BookFile) -> Result<Vec<(BuiltBoard, Vec<BookEntry>)>, BookError> {
    file.every_board()
}

pub use super::store::built_of;

/// One board of a book summed up.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BoardStats {
    /// The board's slug.
    pub board: String,
    /// Positions held.
    pub positions: usize,
    /// Of which exact.
    pub exact: usize,
    /// Of which checked by a second proof.
    pub checked: usize,
    /// The fewest free edges of a position held.
    pub fewest_free: u32,
    /// The most.
    pub most_free: u32,
    /// Nodes the proofs took.
    pub nodes: u64,
    /// Seconds they took.
    pub seconds: f64,
    /// States the searches of unfinished proofs kept, a build's (part `build`): what the next
    /// build starts from.
    pub kept: u64,
    /// The same of unfinished second proofs (part `check`): what `verify --resume` starts
    /// from.
    pub kept_checks: u64,
}

/// Every board of `file` summed up.
pub fn stats(file: &BookFile) -> Result<Vec<BoardStats>, BookError> {
    boards_of(file)?
        .into_iter()
        .map(|(built, entries)| {
            let board = built.geometry.slug();
            Ok(BoardStats {
                positions: entries.len(),
                exact: entries.iter().filter(|e| e.value().is_some()).count(),
                checked: entries.iter().filter(|e| e.checked_by.is_some()).count(),
                fewest_free: entries.iter().map(|e| e.free).min().unwrap_or(0),
                most_free: entries.iter().map(|e| e.free).max().unwrap_or(0),
                nodes: entries.iter().map(|e| e.nodes).sum(),
                seconds: entries.iter().map(|e| e.seconds).sum(),
                kept: file.unfinished_count(&board, Unfinished::Build)?,
                kept_checks: file.unfinished_count(&board, Unfinished::Check)?,
                board,
            })
        })
        .collect()
}

/// The books a merge reads and writes: `from` opened and checked whole first (so that a refused
/// merge leaves no new `into` behind), then `into` (made if missing, checked whole before anything
/// is written into it). One book named twice — by the same path or another, a link — is refused.
pub fn open_merge(into: &Path, from: &Path) -> Result<(BookFile, BookFile), BookError> {
    let source = BookFile::open(from, false, false)?;
    source.check_all()?;
    if same_file(into, from) {
        return Err(BookError::Io(
            crate::input::quote_path(into),
            format!(
                "the same book as {}: a book is not merged into itself",
                source.name()
            ),
        ));
    }
    Ok((BookFile::open(into, true, true)?, source))
}

/// Whether `a` and `b` name one file: the same path once links are followed, or (on Unix) the
/// same device and inode — a hard link to the file under another name.
fn same_file(a: &Path, b: &Path) -> bool {
    if let (Ok(a), Ok(b)) = (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        if a == b {
            return true;
        }
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if let (Ok(a), Ok(b)) = (std::fs::metadata(a), std::fs::metadata(b)) {
            return (a.dev(), a.ino()) == (b.dev(), b.ino());
        }
    }
    false
}

/// Writes every entry of `from` into `into`; gives how many. Two proofs that disagree are
/// [`BookError::Conflict`] naming the position, and nothing is written.
pub fn merge(into: &BookFile, from: &BookFile) -> Result<usize, BookError> {
    let boards = boards_of(from)?;
    // Every conflict is found before anything is written.
    for (built, entries) in &boards {
        for entry in entries {
            into.conflict(built, entry)?;
        }
    }
    let mut added = 0;
    for (built, entries) in boards {
        // One transaction a board: one sync of the file, not one an entry.
        added += into.put_all(&built, &entries)?.len();
    }
    Ok(added)
}

/// One entry as a JSON line: the entry and the edges of the position its key stands for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExportLine {
    /// The entry.
    #[serde(flatten)]
    pub entry: BookEntry,
    /// The position's edges in edge order: `1-2 2-7` (empty: the empty board).
    pub position: String,
}

/// The key an export line has beside its entry's: the position, which must be the one the key
/// stands for (a line edited by hand says what it means twice; the two must agree).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PositionOf {
    position: String,
}

/// Every entry of `file` as export lines.
pub fn export(file: &BookFile) -> Result<Vec<ExportLine>, BookError> {
    let mut out = Vec::new();
    for (built, entries) in boards_of(file)? {
        for entry in entries {
            let position = position_text(&built, entry.key);
            out.push(ExportLine { entry, position });
        }
    }
    Ok(out)
}

/// Why a line of JSON lines could not be imported.
#[derive(Debug, thiserror::Error)]
#[error("line {line}: {why}")]
pub struct ImportError {
    /// The line (from 1).
    pub line: usize,
    /// Why.
    pub why: String,
}

/// The most characters of serde_json's message an import fault shows.
const MESSAGE_CHARS: usize = 160;

/// Import lines as [`parse_lines`] gives them: each entry with its line and board (one board
/// built per name, shared by its entries: a board's tables weigh tens of kilobytes, an entry a
/// few hundred bytes).
pub type ParsedLines = Vec<(usize, Arc<BuiltBoard>, BookEntry)>;

/// The entries of `text` (JSON lines as [`export`] gives them; blank lines skipped), each with its
/// line and board, every one checked as an entry of its board, its `position` the one its key
/// stands for.
pub fn parse_lines(text: &str) -> Result<ParsedLines, ImportError> {
    let mut parsed = Vec::new();
    let mut boards: HashMap<String, Arc<BuiltBoard>> = HashMap::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let fault = |why: String| ImportError { line: i + 1, why };
        // Read as a request is: the fault names the key and what was written, in JSON's terms.
        let read = crate::input::json::read_beside::<BookEntry, PositionOf>(
            line.as_bytes(),
            &["position"],
        );
        let (entry, position) = read.map_err(|e| {
            let message = crate::input::excerpt_within(
                // A line, not a request, is what the caller gave.
                e.worded(Surface::Api).replacen("the request", "the line", 1).as_bytes(),
                MESSAGE_CHARS,
            );
            fault(format!("not a book entry: {message}"))
        })?;
        let built = match boards.get(&entry.board) {
            Some(built) => built.clone(),
            None => {
                let built = Arc::new(built_of(&entry.board).map_err(|why| {
                    fault(format!(
                        "board {}: {why}",
                        crate::input::quote(&entry.board)
                    ))
                })?);
                boards.insert(entry.board.clone(), built.clone());
                built
            }
        };
        let mut entry = entry;
        super::store::check_entry(&built, &mut entry).map_err(fault)?;
        let stands_for = position_text(&built, entry.key);
        if position.position != stands_for {
            return Err(fault(format!(
                "position {} is not the one key {} stands for ({})",
                crate::input::quote(&position.position),
                entry.key,
                crate::input::quote(&stands_for)
            )));
        }
        parsed.push((i + 1, built, entry));
    }
    Ok(parsed)
}

/// Writes `parsed` entries (from [`parse_lines`]) into `file`, none if one conflicts with the
/// book's own entries; gives how many. Each board's entries are written in one transaction (one
/// sync of the file, not one an entry).
pub fn import(file: &BookFile, parsed: &[(usize, Arc<BuiltBoard>, BookEntry)]) -> Result<usize, ImportError> {
    for (line, built, entry) in parsed {
        file.conflict(built, entry).map_err(|e| ImportError {
            line: *line,
            why: e.to_string(),
        })?;
    }
    let mut boards: Vec<(usize, &BuiltBoard, Vec<BookEntry>)> = Vec::new();
    for (line, built, entry) in parsed {
        match boards.iter_mut().find(|(_, b, _)| b.geometry.slug() == built.geometry.slug()) {
            Some((_, _, entries)) => entries.push(entry.clone()),
            None => boards.push((*line, built, vec![entry.clone()])),
        }
    }
    for (line, built, entries) in boards {
        file.put_all(built, &entries).map_err(|e| ImportError {
            line,
            why: e.to_string(),
        })?;
    }
    Ok(parsed.len())
}
