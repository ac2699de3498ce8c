//! Solved tables on disk: written once, then read whole into memory to be answered from.
//!
//! Layout: the magic `PLYTABLE`, a format version (u32, little-endian), the length of a JSON header
//! (u32) and the header — the game's identity (its rules and element numbering, as the game states
//! them), the value encoding, the number of elements and the block layout — then one byte per state,
//! then an xxh3-64 checksum of everything before it. A file for another game, another version or
//! encoding, a truncated or a corrupt file, or one holding a value the game cannot have (checked in
//! the checksum's pass over every byte) is refused; its bytes are never read as values.
//!
//! A table is read into memory of its own, never mapped: a mapped file that is truncated under its
//! reader kills the process with SIGBUS, and one written over in place (`cp`) changes values the
//! checksum was already checked on. A copy is checked once and stays as checked; a file that changes
//! while it is being read is noticed (its length and modification time) and refused as
//! [`TableFileError::Changed`]. Writers replace a table by renaming a new file over it
//! (`saving::write_whole` in the CLI), which leaves a reader's open file whole.

use super::table::{Layout, SubsetTable};
use crate::engine::util::excerpt::path_excerpt;
use crate::engine::util::memory::{MemoryBudget, MemoryError};
use crate::engine::util::progress::Progress;
use serde::{Deserialize, Serialize};
use std::fs::{File, Metadata};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::SystemTime;
use thiserror::Error;
use xxhash_rust::xxh3::Xxh3;

/// A file's path as messages show it ([`path_excerpt`]): a path is input like any other.
fn shown(path: &Path) -> String {
    path_excerpt(path)
}

/// The first bytes of every table file.
pub const MAGIC: &[u8; 8] = b"PLYTABLE";
/// The format version this build writes and reads.
pub const VERSION: u32 = 1;
/// Bytes of values read from a file at a time (and between two calls of a load's progress).
pub const READ_CHUNK: usize = 1 << 20;
/// The longest header read: a header states a game's identity and a few numbers, and a longer one
/// is no table of this format (its length is read before it, so it is never allocated).
const MAX_HEADER: usize = 1 << 20;
/// How values are stored.
const ENCODING: &str =
    "one signed byte per state: net points for the player to move; layered blocks";

#[derive(Debug, Serialize, Deserialize)]
struct Header {
    identity: String,
    encoding: String,
    items: u32,
    low_bits: u32,
}

/// Why a table file was not written or not used.
#[derive(Debug, Error)]
pub enum TableFileError {
    /// The file system refused.
    #[error("{}: {source}", shown(.path))]
    Io {
        /// The file.
        path: PathBuf,
        /// What happened.
        source: std::io::Error,
    },
    /// Not a ply table.
    #[error("{} is not a ply table file", shown(.0))]
    NotATable(PathBuf),
    /// Written by another format version.
    #[error("{} is a table of format version {found}; this ply reads version {VERSION}", shown(.path))]
    Version {
        /// The file.
        path: PathBuf,
        /// Its version.
        found: u32,
    },
    /// A table for another game or board (the messages name the games up to their first `;`).
    #[error("{} is the table of {}, not of {}", shown(.path), short(found), short(expected))]
    OtherGame {
        /// The file.
        path: PathBuf,
        /// The game it was solved for.
        found: String,
        /// The game asked about.
        expected: String,
    },
    /// Another value encoding or layout.
    #[error("{} stores values in another encoding ({found})", shown(.path))]
    Encoding {
        /// The file.
        path: PathBuf,
        /// Its encoding.
        found: String,
    },
    /// A header that names the game but another number of elements (only a forged file does).
    #[error("{} holds a table over {found} elements, but this board has {expected}", shown(.path))]
    Size {
        /// The file.
        path: PathBuf,
        /// Elements the header states.
        found: u32,
        /// Elements of the game asked about.
        expected: u32,
    },
    /// Shorter or longer than its header says.
    #[error("{} is truncated or padded: {found} bytes where {expected} were expected", shown(.path))]
    Length {
        /// The file.
        path: PathBuf,
        /// Bytes expected.
        expected: u64,
        /// Bytes found.
        found: u64,
    },
    /// A value no position of the game can have (a forged or foreign body with a valid checksum).
    #[error("{} holds the value {value}, which no position of this board can have (at most {max_points} either way)", shown(.path))]
    Impossible {
        /// The file.
        path: PathBuf,
        /// The first such value.
        value: i8,
        /// The game's largest possible value.
        max_points: u32,
    },
    /// A directory was given.
    #[error("{} is a directory, not a table file", shown(.0))]
    Directory(PathBuf),
    /// The checksum does not match.
    #[error("{} is corrupt: its checksum does not match", shown(.0))]
    Corrupt(PathBuf),
    /// The file was truncated or written to while it was read: what was read may be parts of two
    /// tables, so none of it is used.
    #[error("the table file {} changed while it was read; replace a table by renaming a new file over it, never by writing into it", shown(.0))]
    Changed(PathBuf),
    /// The table does not fit the memory budget (or the system refused its memory): nothing was read.
    #[error("{0}")]
    Memory(MemoryError),
}

/// The first value in `values` whose magnitude exceeds `max_points`, if any.
fn first_beyond(values: &[u8], max_points: u32) -> Option<i8> {
    let largest = values
        .iter()
        .fold(0u8, |m, &b| m.max((b as i8).unsigned_abs()));
    if u32::from(largest) <= max_points {
        return None;
    }
    values
        .iter()
        .map(|&b| b as i8)
        .find(|v| u32::from(v.unsigned_abs()) > max_points)
}

/// What tells whether an open file was written to or truncated: its length and its modification
/// time, which every write and truncation moves. (Not its status-change time: that moves too when
/// the file is renamed over or removed, which leaves its contents whole.) Two looks at one open file
/// compare equal unless it changed between them — or changed within one tick of the file system's
/// clock, which leaves a mix of two tables to the checksum.
#[derive(Debug, PartialEq, Eq)]
struct Stamp {
    len: u64,
    modified: Option<SystemTime>,
}

impl Stamp {
    fn of(meta: &Metadata) -> Self {
        Stamp {
            len: meta.len(),
            modified: meta.modified().ok(),
        }
    }
}

/// Fills `buf` from `file`: `Ok(false)` when the file ends first, which a file of the length seen at
/// the start only does when it was truncated since.
fn fill(file: &mut File, buf: &mut [u8]) -> std::io::Result<bool> {
    match file.read_exact(buf) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => Ok(false),
        Err(e) => Err(e),
    }
}

/// A game's identity up to its first `;` (the name, without the numbering), for messages.
fn short(identity: &str) -> &str {
    identity.split(';').next().unwrap_or(identity)
}

impl SubsetTable {
    /// Writes the table, in this format, for the game described by `identity`. Writing the file
    /// safely (a temporary file beside the target, renamed into place; nothing left on failure) is the
    /// caller's part.
    pub fn write_to(&self, mut out: impl Write, identity: &str) -> std::io::Result<()> {
        let header = serde_json::to_vec(&Header {
            identity: identity.to_string(),
            encoding: ENCODING.to_string(),
            items: self.layout.items,
            low_bits: self.layout.low_bits,
        })
        .expect("a header serialises");
        let mut hash = Xxh3::new();
        let mut put = |bytes: &[u8]| -> std::io::Result<()> {
            hash.update(bytes);
            out.write_all(bytes)
        };
        put(MAGIC)?;
        put(&VERSION.to_le_bytes())?;
        put(&(header.len() as u32).to_le_bytes())?;
        put(&header)?;
        put(&self.values)?;
        out.write_all(&hash.digest().to_le_bytes())?;
        out.flush()
    }

    /// Reads the table at `path` into memory of its own (refused, before anything is allocated, when
    /// its `2^items` bytes exceed `budget`), checking that it is a whole, uncorrupted table of this
    /// format for the game described by `identity`, of `items` elements, whose values all lie within
    /// `±max_points` (the game's [`ScoredGame::max_points`](super::ScoredGame::max_points)): a table
    /// of another size would be indexed out of its bounds, and a value no position can have would
    /// reach score arithmetic. A file truncated or written to while it is read is refused
    /// ([`TableFileError::Changed`]); once read, nothing done to the file reaches the table.
    /// `progress`, if given, is told the values read so far after each chunk of
    /// [`READ_CHUNK`] bytes.
    pub fn load(
        path: &Path,
        identity: &str,
        items: u32,
        max_points: u32,
        budget: MemoryBudget,
        progress: Option<Progress<'_>>,
    ) -> Result<SubsetTable, TableFileError> {
        let owned = || path.to_path_buf();
        let io = |source| TableFileError::Io {
            path: owned(),
            source,
        };
        let changed = || TableFileError::Changed(owned());
        if path.is_dir() {
            return Err(TableFileError::Directory(owned()));
        }
        let mut file = File::open(path).map_err(io)?;
        // Only a regular file can be a table: a device, a pipe or an empty file is refused by name
        // before anything is read.
        let regular = file.metadata().map_err(io)?;
        if !regular.is_file() || regular.len() < 16 {
            return Err(TableFileError::NotATable(owned()));
        }
        let start = Stamp::of(&regular);
        let mut head = [0u8; 16];
        if !fill(&mut file, &mut head).map_err(io)? {
            return Err(changed());
        }
        if &head[..8] != MAGIC {
            return Err(TableFileError::NotATable(owned()));
        }
        let word = |at: usize| u32::from_le_bytes(head[at..at + 4].try_into().expect("four bytes"));
        let version = word(8);
        if version != VERSION {
            return Err(TableFileError::Version {
                path: owned(),
                found: version,
            });
        }
        let header_len = word(12) as usize;
        let header_end = 16 + header_len;
        if header_end as u64 > start.len || header_len > MAX_HEADER {
            return Err(TableFileError::NotATable(owned()));
        }
        let mut header_bytes = vec![0u8; header_len];
        if !fill(&mut file, &mut header_bytes).map_err(io)? {
            return Err(changed());
        }
        let header: Header = serde_json::from_slice(&header_bytes)
            .map_err(|_| TableFileError::NotATable(owned()))?;
        if header.identity != identity {
            return Err(TableFileError::OtherGame {
                path: owned(),
                found: header.identity,
                expected: identity.to_string(),
            });
        }
        let layout = Layout::new(header.items.min(63));
        if header.items != items {
            return Err(TableFileError::Size {
                path: owned(),
                found: header.items,
                expected: items,
            });
        }
        if header.encoding != ENCODING || header.items > 63 || layout.low_bits != header.low_bits {
            return Err(TableFileError::Encoding {
                path: owned(),
                found: header.encoding,
            });
        }
        let expected = header_end as u128 + (1u128 << header.items) + 8;
        if start.len as u128 != expected {
            return Err(TableFileError::Length {
                path: owned(),
                expected: expected.min(u64::MAX as u128) as u64,
                found: start.len,
            });
        }
        let mut values = budget
            .zeroed_bytes(SubsetTable::bytes_needed(items), || {
                format!(
                    "the table in {} (2^{items} states, one byte each)",
                    crate::engine::util::excerpt::quote_path(path)
                )
            })
            .map_err(TableFileError::Memory)?;
        let mut hash = Xxh3::new();
        hash.update(&head);
        hash.update(&header_bytes);
        let mut out_of_range = None;
        let mut read = 0u64;
        for chunk in values.chunks_mut(READ_CHUNK) {
            if !fill(&mut file, chunk).map_err(io)? {
                return Err(changed());
            }
            // The checksum and the range in one pass, a piece that stays in cache at a time.
            for piece in chunk.chunks(1 << 16) {
                hash.update(piece);
                if out_of_range.is_none() {
                    out_of_range = first_beyond(piece, max_points);
                }
            }
            read += chunk.len() as u64;
            if let Some(progress) = progress {
                progress(read);
            }
        }
        let mut stored = [0u8; 8];
        if !fill(&mut file, &mut stored).map_err(io)? {
            return Err(changed());
        }
        // Every byte was read once, into this table; but if the file changed meanwhile, those bytes
        // may be half of one table and half of another (or of nothing).
        if Stamp::of(&file.metadata().map_err(io)?) != start {
            return Err(changed());
        }
        if hash.digest() != u64::from_le_bytes(stored) {
            return Err(TableFileError::Corrupt(owned()));
        }
        if let Some(value) = out_of_range {
            return Err(TableFileError::Impossible {
                path: owned(),
                value,
                max_points,
            });
        }
        Ok(SubsetTable { layout, values })
    }
}
