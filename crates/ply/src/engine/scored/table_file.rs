//! Solved tables on disk: written once, then answered from by mapping the file into memory.
//!
//! Layout: the magic `PLYTABLE`, a format version (u32, little-endian), the length of a JSON header
//! (u32) and the header — the game's identity (its rules and element numbering, as the game states
//! them), the value encoding, the number of elements and the block layout — then one byte per state,
//! then an xxh3-64 checksum of everything before it. A file for another game, another version or
//! encoding, a truncated or a corrupt file, or one holding a value the game cannot have (checked in
//! the checksum's pass over every byte) is refused; its bytes are never read as values.

use super::table::{Layout, SubsetTable, TableBytes};
use serde::{Deserialize, Serialize};
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use thiserror::Error;
use xxhash_rust::xxh3::Xxh3;

/// The first bytes of every table file.
pub const MAGIC: &[u8; 8] = b"PLYTABLE";
/// The format version this build writes and reads.
pub const VERSION: u32 = 1;
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
    #[error("{}: {source}", .path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What happened.
        source: std::io::Error,
    },
    /// Not a ply table.
    #[error("{} is not a ply table file", .0.display())]
    NotATable(PathBuf),
    /// Written by another format version.
    #[error("{} is a table of format version {found}; this ply reads version {VERSION}", .path.display())]
    Version {
        /// The file.
        path: PathBuf,
        /// Its version.
        found: u32,
    },
    /// A table for another game or board (the messages name the games up to their first `;`).
    #[error("{} is the table of {}, not of {}", .path.display(), short(found), short(expected))]
    OtherGame {
        /// The file.
        path: PathBuf,
        /// The game it was solved for.
        found: String,
        /// The game asked about.
        expected: String,
    },
    /// Another value encoding or layout.
    #[error("{} stores values in another encoding ({found})", .path.display())]
    Encoding {
        /// The file.
        path: PathBuf,
        /// Its encoding.
        found: String,
    },
    /// A header that names the game but another number of elements (only a forged file does).
    #[error("{} holds a table over {found} elements, but this board has {expected}", .path.display())]
    Size {
        /// The file.
        path: PathBuf,
        /// Elements the header states.
        found: u32,
        /// Elements of the game asked about.
        expected: u32,
    },
    /// Shorter or longer than its header says.
    #[error("{} is truncated or padded: {found} bytes where {expected} were expected", .path.display())]
    Length {
        /// The file.
        path: PathBuf,
        /// Bytes expected.
        expected: u64,
        /// Bytes found.
        found: u64,
    },
    /// A value no position of the game can have (a forged or foreign body with a valid checksum).
    #[error("{} holds the value {value}, which no position of this board can have (at most {max_points} either way)", .path.display())]
    Impossible {
        /// The file.
        path: PathBuf,
        /// The first such value.
        value: i8,
        /// The game's largest possible value.
        max_points: u32,
    },
    /// A directory was given.
    #[error("{} is a directory, not a table file", .0.display())]
    Directory(PathBuf),
    /// The checksum does not match.
    #[error("{} is corrupt: its checksum does not match", .0.display())]
    Corrupt(PathBuf),
}

/// The xxh3-64 digest of `bytes` and, in the same pass, the first value (a byte from `values_from`
/// on) whose magnitude exceeds `max_points`, if any.
fn digest_and_range(bytes: &[u8], values_from: usize, max_points: u32) -> (u64, Option<i8>) {
    const CHUNK: usize = 1 << 16;
    let (head, values) = bytes.split_at(values_from);
    let mut hash = Xxh3::new();
    hash.update(head);
    let mut out_of_range = None;
    for chunk in values.chunks(CHUNK) {
        hash.update(chunk);
        let largest = chunk
            .iter()
            .fold(0u8, |m, &b| m.max((b as i8).unsigned_abs()));
        if out_of_range.is_none() && u32::from(largest) > max_points {
            out_of_range = chunk
                .iter()
                .map(|&b| b as i8)
                .find(|v| u32::from(v.unsigned_abs()) > max_points);
        }
    }
    (hash.digest(), out_of_range)
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
        put(self.values.as_slice())?;
        out.write_all(&hash.digest().to_le_bytes())?;
        out.flush()
    }

    /// Maps the table at `path`, checking that it is a whole, uncorrupted table of this format for the
    /// game described by `identity`, of `items` elements, whose values all lie within `±max_points`
    /// (the game's [`ScoredGame::max_points`](super::ScoredGame::max_points)): a table of another
    /// size would be indexed out of its bounds, and a value no position can have would reach score
    /// arithmetic.
    pub fn load(
        path: &Path,
        identity: &str,
        items: u32,
        max_points: u32,
    ) -> Result<SubsetTable, TableFileError> {
        let owned = || path.to_path_buf();
        let io = |source| TableFileError::Io {
            path: owned(),
            source,
        };
        if path.is_dir() {
            return Err(TableFileError::Directory(owned()));
        }
        let file = File::open(path).map_err(io)?;
        // Only a regular file can be a table (and be mapped): a device, a pipe or an empty file is
        // refused by name before any mapping is tried.
        let regular = file.metadata().map_err(io)?;
        if !regular.is_file() || regular.len() < 16 {
            return Err(TableFileError::NotATable(owned()));
        }
        // SAFETY: a map is unsound only if the file changes while mapped. ply never rewrites a
        // table in place: a table is written to a fresh temporary file that is renamed over the
        // old name, which leaves the inode mapped here untouched. The map is read-only.
        #[allow(unsafe_code)]
        let map = unsafe { memmap2::Mmap::map(&file) }.map_err(io)?;
        let bytes: &[u8] = &map;
        if bytes.len() < 16 || &bytes[..8] != MAGIC {
            return Err(TableFileError::NotATable(owned()));
        }
        let word =
            |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("four bytes"));
        let version = word(8);
        if version != VERSION {
            return Err(TableFileError::Version {
                path: owned(),
                found: version,
            });
        }
        let header_end = 16 + word(12) as usize;
        let header: Header = bytes
            .get(16..header_end)
            .and_then(|h| serde_json::from_slice(h).ok())
            .ok_or_else(|| TableFileError::NotATable(owned()))?;
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
        if bytes.len() as u128 != expected {
            return Err(TableFileError::Length {
                path: owned(),
                expected: expected.min(u64::MAX as u128) as u64,
                found: bytes.len() as u64,
            });
        }
        let len = 1usize << header.items;
        let body = header_end + len;
        let stored = u64::from_le_bytes(bytes[body..].try_into().expect("eight bytes"));
        let (digest, out_of_range) = digest_and_range(&bytes[..body], header_end, max_points);
        if digest != stored {
            return Err(TableFileError::Corrupt(owned()));
        }
        if let Some(value) = out_of_range {
            return Err(TableFileError::Impossible {
                path: owned(),
                value,
                max_points,
            });
        }
        Ok(SubsetTable {
            layout,
            values: TableBytes::Mapped {
                map,
                offset: header_end,
                len,
            },
        })
    }
}
