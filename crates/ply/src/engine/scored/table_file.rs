//! Solved tables on disk: written once, then answered from by mapping the file into memory.
//!
//! Layout: the magic `PLYTABLE`, a format version (u32, little-endian), the length of a JSON header
//! (u32) and the header — the game's identity (its rules and element numbering, as the game states
//! them), the value encoding, the number of elements and the block layout — then one byte per state,
//! then an xxh3-64 checksum of everything before it. A file for another game, another version or
//! encoding, a truncated or a corrupt file is refused; its bytes are never read as values.

use super::table::{Layout, SubsetTable, TableBytes};
use serde::{Deserialize, Serialize};
use std::fs::File;
use std::io::{BufWriter, Write};
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
    /// The checksum does not match.
    #[error("{} is corrupt: its checksum does not match", .0.display())]
    Corrupt(PathBuf),
}

/// A game's identity up to its first `;` (the name, without the numbering), for messages.
fn short(identity: &str) -> &str {
    identity.split(';').next().unwrap_or(identity)
}

impl SubsetTable {
    /// Writes the table to `path` for the game described by `identity`. The file is written beside
    /// its final name and renamed into place, so a crash never leaves half a table under that name.
    pub fn save(&self, path: &Path, identity: &str) -> Result<(), TableFileError> {
        let io = |source| TableFileError::Io {
            path: path.to_path_buf(),
            source,
        };
        let header = serde_json::to_vec(&Header {
            identity: identity.to_string(),
            encoding: ENCODING.to_string(),
            items: self.layout.items,
            low_bits: self.layout.low_bits,
        })
        .expect("a header serialises");
        let partial = path.with_extension("partial");
        let mut out = BufWriter::with_capacity(1 << 20, File::create(&partial).map_err(io)?);
        let mut hash = Xxh3::new();
        let mut put = |bytes: &[u8]| -> Result<(), TableFileError> {
            hash.update(bytes);
            out.write_all(bytes).map_err(io)
        };
        put(MAGIC)?;
        put(&VERSION.to_le_bytes())?;
        put(&(header.len() as u32).to_le_bytes())?;
        put(&header)?;
        put(self.values.as_slice())?;
        out.write_all(&hash.digest().to_le_bytes()).map_err(io)?;
        out.into_inner()
            .map_err(|e| io(e.into_error()))?
            .sync_all()
            .map_err(io)?;
        std::fs::rename(&partial, path).map_err(io)
    }

    /// Maps the table at `path`, checking that it is a whole, uncorrupted table of this format for the
    /// game described by `identity`.
    pub fn load(path: &Path, identity: &str) -> Result<SubsetTable, TableFileError> {
        let owned = || path.to_path_buf();
        let io = |source| TableFileError::Io {
            path: owned(),
            source,
        };
        let file = File::open(path).map_err(io)?;
        // SAFETY: the map is read-only; the file is ply's own, and a change to it while mapped is
        // the same hazard as any program's data file being rewritten under it.
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
        if header.encoding != ENCODING || header.items > 63 || layout.low_bits != header.low_bits {
            return Err(TableFileError::Encoding {
                path: owned(),
                found: header.encoding,
            });
        }
        let len = 1usize << header.items;
        let expected = (header_end + len + 8) as u64;
        if bytes.len() as u64 != expected {
            return Err(TableFileError::Length {
                path: owned(),
                expected,
                found: bytes.len() as u64,
            });
        }
        let body = header_end + len;
        let stored = u64::from_le_bytes(bytes[body..].try_into().expect("eight bytes"));
        if xxhash_rust::xxh3::xxh3_64(&bytes[..body]) != stored {
            return Err(TableFileError::Corrupt(owned()));
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
