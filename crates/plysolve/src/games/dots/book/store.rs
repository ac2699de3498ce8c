//! The book file: an SQLite database of proved positions, read and written by the library and by
//! Python's `sqlite3` alike (the format is documented here and in docs/ARCHITECTURE.md).
//!
//! ```sql
//! PRAGMA application_id = 1886157154;  -- 'plyb'
//! PRAGMA user_version = 1;             -- the format; a newer one is refused
//! CREATE TABLE boards (board TEXT PRIMARY KEY, edges TEXT NOT NULL) STRICT;
//! CREATE TABLE positions (
//!     board TEXT NOT NULL,        -- 'boxes-4x4', 'triangles-5'
//!     key INTEGER NOT NULL,       -- the key (key.rs), its 64 bits as a signed integer
//!     free INTEGER NOT NULL,      -- free edges of the position
//!     lower INTEGER NOT NULL,     -- the value proved: lower <= value <= upper (equal: exact)
//!     upper INTEGER NOT NULL,
//!     best TEXT,                  -- a best move in the key's frame ('2-7'), when proved
//!     nodes INTEGER NOT NULL,     -- what the proof cost
//!     seconds REAL NOT NULL,
//!     proved_by TEXT NOT NULL,    -- 'ply 0.1.0 search low-first', 'ply 0.1.0 children'
//!     checked_by TEXT,            -- a second, independent proof of the same value
//!     PRIMARY KEY (board, key)) STRICT, WITHOUT ROWID;
//! -- What unfinished proofs kept (`unfinished_blocks`, made by the first that keeps its work):
//! -- not positions of the book; its format is in unfinished.rs.
//! ```
//!
//! `boards.edges` is the board's edge order (`1-2 1-3 2-3 …`): a key means nothing without it, so a
//! book whose order differs from this version's is refused. The file is in WAL mode with normal
//! synchronous commits: readers and writers in several processes are safe, each entry is its own
//! transaction (a merge's or an import's are one a board), and a crash of ply loses at most the
//! entry being written; the file is synced at each checkpoint rather than at each commit (a sync a
//! commit cost 3.6 ms an entry: a merge of 4 844 entries took 17.6 s), so a crash of the whole
//! system may lose the last entries written since, never the file's consistency. A file that is not SQLite, not a
//! book, of a newer format, damaged, or holding a row that cannot be right (bounds crossed or past
//! what the cells allow, a best move that is not a free edge) is refused with one line naming it.

use super::key::KeyScheme;
use super::ranged;
use crate::engine::scored::ValueRange;
use crate::games::dots::geometry::BuiltBoard;
use crate::games::dots::notation::format_edge;
use crate::games::dots::{Edge, EdgeSet};
use rusqlite::{params, Connection, OpenFlags, OptionalExtension};
use std::path::{Path, PathBuf};
use thiserror::Error;


/// SQLite's application id of a book: 'plyb'.
pub const APPLICATION_ID: i32 = 0x706c_7962;

/// The format this version reads and writes.
pub const FORMAT: i32 = 1;

const SCHEMA: &str = "
CREATE TABLE boards (board TEXT PRIMARY KEY, edges TEXT NOT NULL) STRICT;
CREATE TABLE positions (
    board TEXT NOT NULL,
    key INTEGER NOT NULL,
    free INTEGER NOT NULL,
    lower INTEGER NOT NULL,
    upper INTEGER NOT NULL,
    best TEXT,
    nodes INTEGER NOT NULL,
    seconds REAL NOT NULL,
    proved_by TEXT NOT NULL,
    checked_by TEXT,
    PRIMARY KEY (board, key)) STRICT, WITHOUT ROWID;
";

/// One proved position.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BookEntry {
    /// The board: `boxes-4x4`, `triangles-5`.
    pub board: String,
    /// The position's key ([`super::key`]).
    pub key: u64,
    /// Free edges of the position.
    pub free: u32,
    /// What is proved of its value for the player to move.
    pub lower: i32,
    /// See `lower`.
    pub upper: i32,
    /// A best move in the key's frame, when proved.
    pub best: Option<String>,
    /// Nodes the proof took.
    pub nodes: u64,
    /// Seconds the proof took.
    pub seconds: f64,
    /// What proved it: the version, the method and the tie order.
    pub proved_by: String,
    /// A second proof that agrees, if any.
    pub checked_by: Option<String>,
}

impl BookEntry {
    /// The entry of the position `drawn` of `built`'s board: `range` proved by `proved_by` in
    /// `nodes` and `seconds`, with the best move `best` (a move of `drawn`, stored in the key's
    /// frame).
    #[allow(clippy::too_many_arguments)]
    pub fn of(
        built: &BuiltBoard,
        drawn: EdgeSet,
        range: ValueRange,
        best: Option<Edge>,
        nodes: u64,
        seconds: f64,
        proved_by: String,
    ) -> Self {
        let board = &built.board;
        let scheme = KeyScheme::new(board);
        let keyed = scheme.key(drawn);
        BookEntry {
            board: built.geometry.slug(),
            key: keyed.key,
            free: board.edge_count() as u32 - drawn.len(),
            lower: range.lower,
            upper: range.upper,
            best: best.map(|e| format_edge(board, scheme.to_key_frame(keyed, e))),
            nodes,
            seconds,
            proved_by,
            checked_by: None,
        }
    }

    /// What is proved of the value.
    pub fn range(&self) -> ValueRange {
        ValueRange {
            lower: self.lower,
            upper: self.upper,
        }
    }

    /// The value, when proved.
    pub fn value(&self) -> Option<i32> {
        self.range().value()
    }
}

/// Why a book could not be read or written.
#[derive(Debug, Error)]
pub enum BookError {
    /// The file is not a ply book (or not SQLite at all).
    #[error("{0}: not a ply book{1}")]
    Foreign(String, String),
    /// A newer format than this version reads.
    #[error("{0}: a ply book of format {1}, newer than this ply reads ({FORMAT}); update ply")]
    Newer(String, i32),
    /// SQLite's integrity check failed, or a row cannot be right.
    #[error("{0}: damaged book: {1}")]
    Damaged(String, String),
    /// The book's board has another edge order than this version's.
    #[error("{0}: the book's board {1} numbers its edges otherwise than this ply")]
    OtherBoard(String, String),
    /// Two proofs of one position disagree.
    #[error(
        "{0}: position {1} ({2}) is proved {3} there and {4} here: one of the proofs is wrong"
    )]
    Conflict(String, String, String, String, String),
    /// The file could not be opened, read or written.
    #[error("{0}: {1}")]
    Io(String, String),
    /// The books' entries contradict each other (their one line names the book and the position).
    #[error("{0}")]
    Contradicts(String),
    /// SQLite may not write the file or its folder (its `SQLITE_READONLY` codes): a book to write
    /// into is refused before any work, a book to read is read as it is on disk.
    #[error("{0}: is read-only (the file or its folder): ply cannot write into it")]
    ReadOnly(String),
}

/// One book file, open.
pub struct BookFile {
    pub(super) conn: Connection,
    /// The file as messages name it.
    pub(super) name: String,
    path: Option<PathBuf>,
}

/// Whether SQLite refused `e` because it may not write the file or its folder (its
/// `SQLITE_READONLY` family of codes: the file, its WAL files, their folder).
fn is_read_only(e: &rusqlite::Error) -> bool {
    e.sqlite_error_code() == Some(rusqlite::ErrorCode::ReadOnly)
}

/// The SQLite URI that opens the file at `path` read as it is, without its WAL files
/// (`immutable=1`); `None` for a path that is not text.
fn immutable_uri(path: &Path) -> Option<String> {
    let text = std::fs::canonicalize(path).ok()?.to_str()?.to_string();
    let escaped: String = text
        .chars()
        .map(|c| match c {
            '%' => "%25".to_string(),
            '?' => "%3f".to_string(),
            '#' => "%23".to_string(),
            c => c.to_string(),
        })
        .collect();
    Some(format!("file:{escaped}?immutable=1"))
}

/// What an SQLite error reading a book says of the book, in the book's terms: pages that do not
/// hold together, a file that is no database, tables missing; another error in its own line.
pub(super) fn damage(e: &rusqlite::Error) -> String {
    use rusqlite::ErrorCode;
    match e.sqlite_error_code() {
        Some(ErrorCode::DatabaseCorrupt) => "its pages do not hold together (cut short or overwritten)".into(),
        Some(ErrorCode::NotADatabase) => "its pages are not an SQLite database's".into(),
        _ if e.to_string().starts_with("no such") => {
            "its tables are not a book's (a table or a column is missing)".into()
        }
        _ => one_line(e),
    }
}

/// An SQLite error in one line (its first), at most 100 characters.
pub(super) fn one_line(e: &rusqlite::Error) -> String {
    let text = e.to_string();
    let first = text.lines().next().unwrap_or("").trim();
    match first.char_indices().nth(100) {
        Some((cut, _)) => format!("{}…", &first[..cut]),
        None => first.to_string(),
    }
}


impl BookFile {
    /// Opens the book at `path`, making a new one when there is no file (or an empty one) and
    /// `create` is set; read-only unless `write`. Several processes may open (and make) one book at
    /// once: the first lays it out, the others find it laid out.
    ///
    /// A book opened to `write` is checked whole first ([`Self::check_all`]): nothing is written
    /// into a damaged book.
    pub fn open(path: &Path, write: bool, create: bool) -> Result<Self, BookError> {
        let name = crate::input::quote_path(path);
        let found = path.metadata();
        if let Ok(meta) = &found {
            if meta.is_dir() {
                return Err(BookError::Io(name, "is a directory".into()));
            }
            if !meta.is_file() {
                return Err(BookError::Io(name, "is not a file".into()));
            }
        }
        let exists = found.as_ref().map(|m| m.len() > 0).unwrap_or(false);
        if !exists && !create {
            return Err(match found {
                Ok(_) => BookError::Foreign(name, " (an empty file)".into()),
                Err(e) if e.kind() == std::io::ErrorKind::PermissionDenied => {
                    BookError::Io(name, "permission denied".into())
                }
                Err(_) => BookError::Io(name, "no such book".into()),
            });
        }
        let folder = path.parent().filter(|p| !p.as_os_str().is_empty());
        if let Some(folder) = folder.filter(|f| !f.is_dir()) {
            let folder = crate::input::quote_path(folder);
            return Err(BookError::Io(name, format!("the folder {folder} does not exist")));
        }
        // A book only read is still opened read-write when the file allows it (nothing is
        // written): SQLite makes its WAL files (`-wal`, `-shm`) to read a book in WAL mode, and
        // only a read-write connection, closing last, removes them — a read-only one leaves them
        // beside the book.
        let flags = if write || !exists {
            OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_CREATE
        } else if std::fs::OpenOptions::new().write(true).open(path).is_ok() {
            OpenFlags::SQLITE_OPEN_READ_WRITE
        } else {
            OpenFlags::SQLITE_OPEN_READ_ONLY
        } | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = Connection::open_with_flags(path, flags).map_err(|e| {
            // No file to open and none to make: a folder the user may not write into.
            let cannot_make = !exists
                && matches!(
                    e.sqlite_error_code(),
                    Some(rusqlite::ErrorCode::CannotOpen | rusqlite::ErrorCode::ReadOnly)
                );
            if cannot_make {
                BookError::ReadOnly(name.clone())
            } else {
                BookError::Io(name.clone(), one_line(&e))
            }
        })?;
        let book = BookFile {
            conn,
            name: name.clone(),
            path: Some(path.to_path_buf()),
        };
        let header = book.header_id();
        let prepared = book.prepare(create, header);
        if write {
            // SQLite opens a file it may not write read-only, silently: found now, not after the
            // work whose proofs were to be written.
            prepared?;
            if book.conn.is_readonly(c"main").unwrap_or(false) {
                return Err(BookError::ReadOnly(name));
            }
            book.check_all()?;
            return Ok(book);
        }
        match prepared {
            Ok(()) => Ok(book),
            // A book in WAL mode in a folder the user may not write: SQLite cannot make the files
            // it reads such a book with. Read as it is on disk (no one can be writing it there).
            Err(BookError::ReadOnly(_)) if !flags.contains(OpenFlags::SQLITE_OPEN_CREATE) => {
                drop(book);
                let Some(uri) = immutable_uri(path) else {
                    return Err(BookError::ReadOnly(name));
                };
                let conn = Connection::open_with_flags(
                    uri,
                    OpenFlags::SQLITE_OPEN_READ_ONLY
                        | OpenFlags::SQLITE_OPEN_URI
                        | OpenFlags::SQLITE_OPEN_NO_MUTEX,
                )
                .map_err(|e| BookError::Io(name.clone(), one_line(&e)))?;
                let book = BookFile {
                    conn,
                    name,
                    path: Some(path.to_path_buf()),
                };
                book.prepare(false, header)?;
                Ok(book)
            }
            Err(e) => Err(e),
        }
    }

    /// A second connection to the book at `path`, for writing beside one already open and
    /// checked in this process (a long proof's keeper writes its kept work through it while the
    /// first waits for the proof): read-write, waiting for the other writers as every connection
    /// does, and not checked again — the file is the one the first connection checked.
    pub(crate) fn open_beside(path: &Path) -> Result<Self, BookError> {
        let name = crate::input::quote_path(path);
        let io = |e: rusqlite::Error| BookError::Io(name.clone(), one_line(&e));
        let conn = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .map_err(io)?;
        conn.busy_timeout(std::time::Duration::from_secs(30))
            .map_err(io)?;
        Ok(BookFile {
            conn,
            name: name.clone(),
            path: Some(path.to_path_buf()),
        })
    }

    /// A read-only book from the bytes of a book file (the books shipped inside ply), named `name`
    /// in messages.
    pub fn from_bytes(name: &str, bytes: &[u8]) -> Result<Self, BookError> {
        let name = name.to_string();
        if bytes.is_empty() {
            return Err(BookError::Foreign(name, " (empty)".into()));
        }
        let damaged = |e: rusqlite::Error| BookError::Damaged(name.clone(), damage(&e));
        let mut bytes = bytes.to_vec();
        // A file written in WAL mode says so in its header; an image in memory has no WAL.
        if bytes.len() > 19 {
            bytes[18] = 1;
            bytes[19] = 1;
        }
        let mut conn = Connection::open_in_memory().map_err(damaged)?;
        conn.deserialize_read_exact("main", &bytes[..], bytes.len(), true)
            .map_err(damaged)?;
        let header = (bytes.len() >= 72)
            .then(|| i32::from_be_bytes([bytes[68], bytes[69], bytes[70], bytes[71]]));
        let book = BookFile {
            conn,
            name,
            path: None,
        };
        book.prepare(false, header)?;
        Ok(book)
    }

    /// The name messages give the book.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The book as messages title it: `the book `my.plybook`` (a file), `the shipped book
    /// boxes-4x4` (bytes named so).
    pub fn title(&self) -> String {
        match self.path {
            Some(_) => format!("the book {}", self.name),
            None => format!("the {}", self.name),
        }
    }

    /// The path of the file, when it is one.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// Checks an existing book (application id, format, integrity), or — when `may_lay_out` and
    /// the file holds nothing yet — lays out a new one, in one write transaction that looks again
    /// first (another process may have laid it out meanwhile). `header` is the application id the
    /// file's header states: a file whose pages cannot be read is a damaged book when it says book.
    fn prepare(&self, may_lay_out: bool, header: Option<i32>) -> Result<(), BookError> {
        let name = &self.name;
        let read_only = || BookError::ReadOnly(name.clone());
        let foreign = |e: rusqlite::Error| {
            if is_read_only(&e) {
                return read_only();
            }
            let why = match e.sqlite_error_code() {
                Some(rusqlite::ErrorCode::NotADatabase) => " (not an SQLite file)".to_string(),
                _ => format!(" ({})", one_line(&e)),
            };
            BookError::Foreign(name.clone(), why)
        };
        let io = |e: rusqlite::Error| match is_read_only(&e) {
            true => read_only(),
            false => BookError::Io(name.clone(), one_line(&e)),
        };
        self.conn
            .busy_timeout(std::time::Duration::from_secs(30))
            .map_err(io)?;
        let looks = || -> Result<(i32, i64), rusqlite::Error> {
            let id = self
                .conn
                .query_row("PRAGMA application_id", [], |r| r.get(0))?;
            let tables = self
                .conn
                .query_row("SELECT count(*) FROM sqlite_schema", [], |r| r.get(0))?;
            Ok((id, tables))
        };
        // A file another process is laying out may show its tables before its id for a moment
        // (while it turns to WAL): looked at again, for a while (bytes in memory: never).
        let mut looked = looks();
        let looks_again = if self.path.is_some() { 100 } else { 0 };
        for _ in 0..looks_again {
            match looked {
                Ok((0, tables)) if tables > 0 => {
                    std::thread::sleep(std::time::Duration::from_millis(20));
                    looked = looks();
                }
                _ => break,
            }
        }
        let (mut id, mut tables) = match looked {
            Ok(found) => found,
            // The header says book but the pages cannot be read: a damaged book.
            Err(e) if is_read_only(&e) => return Err(read_only()),
            Err(e) if header == Some(APPLICATION_ID) => {
                return Err(BookError::Damaged(name.clone(), damage(&e)))
            }
            Err(e) => return Err(foreign(e)),
        };
        if id == 0 && tables == 0 {
            if !may_lay_out || self.path.is_none() {
                return Err(BookError::Foreign(name.clone(), " (empty)".into()));
            }
            self.conn.execute_batch("BEGIN IMMEDIATE").map_err(io)?;
            match looks() {
                Ok((0, 0)) => {
                    let laid = self.conn.execute_batch(&format!(
                        "PRAGMA application_id = {APPLICATION_ID};
                         PRAGMA user_version = {FORMAT}; {SCHEMA} COMMIT;"
                    ));
                    if let Err(e) = laid {
                        let _ = self.conn.execute_batch("ROLLBACK");
                        return Err(io(e));
                    }
                }
                Ok(found) => {
                    let _ = self.conn.execute_batch("ROLLBACK");
                    (id, tables) = found;
                }
                Err(e) => {
                    let _ = self.conn.execute_batch("ROLLBACK");
                    return Err(io(e));
                }
            }
            self.use_wal().map_err(io)?;
            if (id, tables) == (0, 0) {
                return Ok(());
            }
        }
        if id != APPLICATION_ID {
            return Err(BookError::Foreign(
                name.clone(),
                format!(" (application id {id:#x})"),
            ));
        }
        let damaged = |e: rusqlite::Error| match is_read_only(&e) {
            true => read_only(),
            false => BookError::Damaged(name.clone(), damage(&e)),
        };
        let format: i32 = self
            .conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .map_err(damaged)?;
        if format > FORMAT {
            return Err(BookError::Newer(name.clone(), format));
        }
        if format < 1 {
            return Err(BookError::Foreign(
                name.clone(),
                format!(" (format {format})"),
            ));
        }
        let check: String = self
            .conn
            .query_row("PRAGMA quick_check", [], |r| r.get(0))
            .map_err(damaged)?;
        if check != "ok" {
            return Err(BookError::Damaged(
                name.clone(),
                "its pages do not hold together (SQLite's own check fails)".into(),
            ));
        }
        self.check_schema()?;
        self.check_boards()?;
        if self.path.is_some() {
            let _ = self.conn.execute_batch("PRAGMA synchronous = NORMAL;");
        }
        Ok(())
    }

    /// Puts the file in WAL mode (a property of the file, set outside any transaction, once no
    /// other connection is in the middle of a write: tried again for a while when one is) with
    /// normal synchronous commits (synced at checkpoints; see the module's docs).
    fn use_wal(&self) -> Result<(), rusqlite::Error> {
        let mut tries = 0;
        loop {
            let set = self
                .conn
                .query_row("PRAGMA journal_mode = WAL", [], |r| r.get::<_, String>(0));
            match set {
                Ok(_) => break,
                Err(e)
                    if tries < 200
                        && e.sqlite_error_code() == Some(rusqlite::ErrorCode::DatabaseBusy) =>
                {
                    tries += 1;
                    std::thread::sleep(std::time::Duration::from_millis(50));
                }
                Err(e) => return Err(e),
            }
        }
        self.conn.execute_batch("PRAGMA synchronous = NORMAL;")
    }

    /// The application id the file's header states (bytes 68–71), when it can be read.
    fn header_id(&self) -> Option<i32> {
        use std::io::Read;
        let mut header = [0u8; 72];
        std::fs::File::open(self.path.as_ref()?)
            .ok()?
            .read_exact(&mut header)
            .ok()?;
        Some(i32::from_be_bytes(header[68..72].try_into().ok()?))
    }

    /// Refuses a book whose `boards` table names a board ply does not make, or whose positions
    /// are of a board the table does not name (each board's first row found through the key's
    /// index: a few lookups, however large the book).
    fn check_boards(&self) -> Result<(), BookError> {
        let damaged = |why: String| BookError::Damaged(self.name.clone(), why);
        let boards = self.boards()?;
        for (slug, _) in &boards {
            built_of(slug)
                .map_err(|why| damaged(format!("board {}: {why}", crate::input::quote(slug))))?;
        }
        let sql = "SELECT board FROM positions WHERE ?1 IS NULL OR board > ?1 ORDER BY board LIMIT 1";
        let mut statement = self.conn.prepare(sql).map_err(|e| damaged(damage(&e)))?;
        let mut after: Option<String> = None;
        loop {
            let next: Option<rusqlite::types::Value> = statement
                .query_row([&after], |r| r.get(0))
                .optional()
                .map_err(|e| damaged(damage(&e)))?;
            let board = match next {
                None => return Ok(()),
                Some(rusqlite::types::Value::Text(board)) => board,
                Some(_) => return Err(damaged("a row's board is not a name".into())),
            };
            if !boards.iter().any(|(named, _)| *named == board) {
                return Err(damaged(format!(
                    "positions of the board {}, which its boards table does not name",
                    crate::input::quote(&board)
                )));
            }
            after = Some(board);
        }
    }

    /// Checks every entry of every board, as the readers of a whole book do: what a writer runs
    /// before writing into a book (a new or empty one passes at once).
    pub fn check_all(&self) -> Result<(), BookError> {
        let boards = self.every_board()?;
        self.check_unfinished(&boards)
    }

    /// Refuses a book whose tables are not plain tables: a view in place of one, or a trigger
    /// (which would run code of the file's own on every write), is no book ply wrote.
    fn check_schema(&self) -> Result<(), BookError> {
        let damaged = |e: rusqlite::Error| BookError::Damaged(self.name.clone(), damage(&e));
        let odd: Option<(String, String)> = self
            .conn
            .query_row(
                "SELECT type, name FROM sqlite_schema WHERE type IN ('view', 'trigger')
                 OR (name IN ('boards', 'positions', 'unfinished', 'unfinished_checks', 'unfinished_blocks')
                     AND type <> 'table') LIMIT 1",
                [],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()
            .map_err(damaged)?;
        if let Some((kind, name)) = odd {
            return Err(BookError::Damaged(
                self.name.clone(),
                format!(
                    "its tables are not a book's (a {kind} {})",
                    crate::input::quote(&name)
                ),
            ));
        }
        let tables: i64 = self
            .conn
            .query_row(
                "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name IN ('boards', 'positions')",
                [],
                |r| r.get(0),
            )
            .map_err(damaged)?;
        if tables != 2 {
            return Err(BookError::Damaged(
                self.name.clone(),
                "its tables are not a book's (a table or a column is missing)".into(),
            ));
        }
        Ok(())
    }

    /// Each board of the book with its entries, every entry checked against this version's board.
    pub fn every_board(&self) -> Result<Vec<(BuiltBoard, Vec<BookEntry>)>, BookError> {
        let mut out = Vec::new();
        for (slug, _) in self.boards()? {
            let built = built_of(&slug).map_err(|why| {
                BookError::Damaged(
                    self.name.clone(),
                    format!("board {}: {why}", crate::input::quote(&slug)),
                )
            })?;
            let entries = self.entries_of(&built)?;
            out.push((built, entries));
        }
        Ok(out)
    }

    /// Records `built`'s board in the book, or checks that its edge order is the book's.
    pub fn add_board(&self, built: &BuiltBoard) -> Result<(), BookError> {
        let board = built.geometry.slug();
        let io = |e: rusqlite::Error| BookError::Io(self.name.clone(), one_line(&e));
        // Another writer may add the board meanwhile: the row that stands is checked.
        self.conn
            .execute(
                "INSERT OR IGNORE INTO boards (board, edges) VALUES (?1, ?2)",
                params![board, edge_order(built)],
            )
            .map_err(io)?;
        match self.has_board(built)? {
            true => Ok(()),
            false => Err(BookError::OtherBoard(self.name.clone(), board)),
        }
    }

    /// Whether the book holds `built`'s board with this version's edge order (refused if another).
    pub fn has_board(&self, built: &BuiltBoard) -> Result<bool, BookError> {
        let board = built.geometry.slug();
        let io = |e: rusqlite::Error| BookError::Io(self.name.clone(), one_line(&e));
        let kept: Option<String> = self
            .conn
            .query_row("SELECT edges FROM boards WHERE board = ?1", [&board], |r| {
                r.get(0)
            })
            .optional()
            .map_err(io)?;
        match kept {
            Some(kept) if kept == edge_order(built) => Ok(true),
            Some(_) => Err(BookError::OtherBoard(self.name.clone(), board)),
            None => Ok(false),
        }
    }

    /// Every entry of `built`'s board, each checked.
    pub fn entries_of(&self, built: &BuiltBoard) -> Result<Vec<BookEntry>, BookError> {
        if !self.has_board(built)? {
            return Ok(Vec::new());
        }
        let mut entries = self.select(Some(&built.geometry.slug()))?;
        let scheme = KeyScheme::new(&built.board);
        for entry in &mut entries {
            self.check(built, &scheme, entry)?;
        }
        Ok(entries)
    }

    /// The boards the book holds, with their edge orders.
    pub fn boards(&self) -> Result<Vec<(String, String)>, BookError> {
        let io = |e: rusqlite::Error| BookError::Io(self.name.clone(), one_line(&e));
        let mut statement = self
            .conn
            .prepare("SELECT board, edges FROM boards ORDER BY board")
            .map_err(io)?;
        let rows = statement
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .map_err(io)?;
        rows.collect::<Result<_, _>>().map_err(io)
    }

    /// Every entry (of `board` only, if given), most free edges first, unchecked.
    pub fn select(&self, board: Option<&str>) -> Result<Vec<BookEntry>, BookError> {
        let name = self.name.clone();
        let io = move |e: rusqlite::Error| BookError::Damaged(name.clone(), damage(&e));
        let mut statement = self
            .conn
            .prepare(
                "SELECT board, key, free, lower, upper, best, nodes, seconds, proved_by, checked_by
                 FROM positions WHERE ?1 IS NULL OR board = ?1 ORDER BY board, free DESC, key",
            )
            .map_err(&io)?;
        let rows = statement.query_map([board], entry_of_row).map_err(&io)?;
        let mut entries = Vec::new();
        for row in rows {
            entries.push(row.map_err(&io)?.map_err(|why| BookError::Damaged(self.name.clone(), why))?);
        }
        Ok(entries)
    }

    /// [`BookError::Conflict`] when `entry` disagrees with what the book proves of its position.
    pub fn conflict(&self, built: &BuiltBoard, entry: &BookEntry) -> Result<(), BookError> {
        if let Some(old) = self.get(&entry.board, entry.key)? {
            let met = old.range().meet(entry.range());
            if met.lower > met.upper {
                return Err(BookError::Conflict(
                    self.name.clone(),
                    format!("{} {:#x}", entry.board, entry.key),
                    crate::input::quote(&position_text(built, entry.key)),
                    ranged(old.range()),
                    ranged(entry.range()),
                ));
            }
        }
        Ok(())
    }

    /// Refuses an entry that cannot be right on `built`'s board (bounds of the wrong parity
    /// tightened: [`check_entry`]).
    fn check(
        &self,
        built: &BuiltBoard,
        scheme: &KeyScheme<'_>,
        entry: &mut BookEntry,
    ) -> Result<(), BookError> {
        check_with(built, scheme, entry).map_err(|why| BookError::Damaged(self.name.clone(), why))
    }
}

impl BookFile {
    /// The entry of `key` on `board`, if any.
    pub fn get(&self, board: &str, key: u64) -> Result<Option<BookEntry>, BookError> {
        let name = self.name.clone();
        let io = move |e: rusqlite::Error| BookError::Damaged(name.clone(), damage(&e));
        self.conn
            .query_row(
                "SELECT board, key, free, lower, upper, best, nodes, seconds, proved_by, checked_by
                 FROM positions WHERE board = ?1 AND key = ?2",
                params![board, key as i64],
                entry_of_row,
            )
            .optional()
            .map_err(io)?
            .transpose()
            .map_err(|why| BookError::Damaged(self.name.clone(), why))
    }

    /// Writes `entry` (of `built`'s board), met with what the book already proves of the position:
    /// the narrower bounds kept, the best move and the second proof kept when the new entry has
    /// none. Two proofs that leave no value are a [`BookError::Conflict`] naming the position, and
    /// nothing is written. One transaction: a crash loses this entry at most.
    pub fn put(&self, built: &BuiltBoard, entry: &BookEntry) -> Result<BookEntry, BookError> {
        let mut merged = self.put_all(built, std::slice::from_ref(entry))?;
        Ok(merged.remove(0))
    }

    /// A number that changes whenever another connection (another process, or another opening of
    /// the file in this one) has committed to the book since this one last asked: SQLite's
    /// `data_version`. What this connection writes does not change it. An index read from the
    /// book is read again when it has changed, so a long-running server or build sees what
    /// others wrote. `None` when SQLite cannot say (then the index is read again every time).
    pub fn data_version(&self) -> Option<i64> {
        self.conn
            .query_row("PRAGMA data_version", [], |r| r.get(0))
            .ok()
    }

    /// Copies what the write-ahead log holds into the book file itself, without waiting for
    /// readers (SQLite's passive checkpoint): after it the `.plybook` file alone holds every entry
    /// written (a copy of it misses none), though the process keeps the book open — what a server
    /// or a game that keeps its proofs does after each one. A fault is only a later checkpoint's
    /// work: the entries are safe in the log either way.
    pub fn checkpoint(&self) {
        if self.path.is_some() {
            let _ = self
                .conn
                .query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()));
        }
    }

    /// [`put`](Self::put) for every one of `entries`, in one transaction: all are written or, on a
    /// conflict or a fault, none (a crash loses the batch at most). Gives the entries as merged.
    pub fn put_all(
        &self,
        built: &BuiltBoard,
        entries: &[BookEntry],
    ) -> Result<Vec<BookEntry>, BookError> {
        let scheme = KeyScheme::new(&built.board);
        let mut checked = entries.to_vec();
        for entry in &mut checked {
            self.check(built, &scheme, entry)?;
        }
        let io = |e: rusqlite::Error| BookError::Io(self.name.clone(), one_line(&e));
        let tx = self.write_for(built)?;
        let mut written = Vec::with_capacity(checked.len());
        for entry in &checked {
            written.push(self.merge_in(built, entry, &tx)?);
        }
        tx.commit().map_err(io)?;
        Ok(written)
    }

    /// A write transaction on `built`'s board (added to the book first if new): what every writer
    /// of entries opens (the write lock taken at once, another writer waited for up to the busy
    /// timeout).
    pub(super) fn write_for(&self, built: &BuiltBoard) -> Result<rusqlite::Transaction<'_>, BookError> {
        self.add_board(built)?;
        rusqlite::Transaction::new_unchecked(&self.conn, rusqlite::TransactionBehavior::Immediate)
            .map_err(|e| BookError::Io(self.name.clone(), one_line(&e)))
    }

    /// Writes `entry` (checked) met with the book's entry of its position, within the
    /// transaction `tx`.
    fn merge_in(
        &self,
        built: &BuiltBoard,
        entry: &BookEntry,
        tx: &rusqlite::Transaction<'_>,
    ) -> Result<BookEntry, BookError> {
        let io = |e: rusqlite::Error| BookError::Io(self.name.clone(), one_line(&e));
        self.conflict(built, entry)?;
        let merged = match self.get(&entry.board, entry.key)? {
            None => entry.clone(),
            Some(old) => {
                let met = old.range().meet(entry.range());
                let newer_best = entry.best.is_some() && entry.range() == met;
                BookEntry {
                    lower: met.lower,
                    upper: met.upper,
                    best: if newer_best || old.best.is_none() {
                        entry.best.clone()
                    } else {
                        old.best.clone()
                    },
                    nodes: if entry.range() == met {
                        entry.nodes
                    } else {
                        old.nodes
                    },
                    seconds: if entry.range() == met {
                        entry.seconds
                    } else {
                        old.seconds
                    },
                    proved_by: if old.range() == met && old.range() != entry.range() {
                        old.proved_by.clone()
                    } else {
                        entry.proved_by.clone()
                    },
                    checked_by: entry.checked_by.clone().or(old.checked_by.clone()),
                    ..entry.clone()
                }
            }
        };
        tx.execute(
            "INSERT OR REPLACE INTO positions
             (board, key, free, lower, upper, best, nodes, seconds, proved_by, checked_by)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
            params![
                merged.board,
                merged.key as i64,
                merged.free,
                merged.lower,
                merged.upper,
                merged.best,
                merged.nodes.min(i64::MAX as u64) as i64,
                merged.seconds,
                merged.proved_by,
                merged.checked_by,
            ],
        )
        .map_err(io)?;
        Ok(merged)
    }
}

/// The columns `board, key, free, lower, upper, best, nodes, seconds, proved_by, checked_by` of a
/// row of `positions` as an entry (the key's 64 bits stored as a signed integer), or why the row
/// cannot be one — in the book's terms (`position triangles-3 0x1: lower holds text, not a whole
/// number`), never SQLite's.
fn entry_of_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Result<BookEntry, String>> {
    use rusqlite::types::ValueRef;
    let column = |i: usize| r.get_ref(i);
    let what = |v: ValueRef<'_>| match v {
        ValueRef::Null => "nothing".to_string(),
        ValueRef::Integer(n) => n.to_string(),
        ValueRef::Real(x) => x.to_string(),
        ValueRef::Text(t) => format!("text {}", crate::input::quote_bytes(t)),
        ValueRef::Blob(_) => "bytes".to_string(),
    };
    let board = match column(0)? {
        ValueRef::Text(t) => String::from_utf8_lossy(t).into_owned(),
        other => return Ok(Err(format!("a row's board holds {}, not a name", what(other)))),
    };
    let key = match column(1)? {
        ValueRef::Integer(n) => n as u64,
        other => {
            return Ok(Err(format!(
                "a row of board {} has the key {}, not a whole number",
                crate::input::quote(&board),
                what(other)
            )))
        }
    };
    let at = |why: String| format!("position {board} {key:#x}: {why}");
    let whole = |i: usize, name: &str| -> rusqlite::Result<Result<i64, String>> {
        Ok(match column(i)? {
            ValueRef::Integer(n) => Ok(n),
            other => Err(at(format!("{name} holds {}, not a whole number", what(other)))),
        })
    };
    let text = |i: usize, name: &str| -> rusqlite::Result<Result<Option<String>, String>> {
        Ok(match column(i)? {
            ValueRef::Null => Ok(None),
            ValueRef::Text(t) => Ok(Some(String::from_utf8_lossy(t).into_owned())),
            other => Err(at(format!("{name} holds {}, not text", what(other)))),
        })
    };
    let in_range = |n: i64, name: &str| {
        i32::try_from(n).map_err(|_| at(format!("{name} {n} is past any board's cells")))
    };
    let free = match whole(2, "free")? {
        Ok(n) => u32::try_from(n).map_err(|_| at(format!("free edges {n} is wrong"))),
        Err(e) => Err(e),
    };
    let lower = whole(3, "lower")?.and_then(|n| in_range(n, "lower"));
    let upper = whole(4, "upper")?.and_then(|n| in_range(n, "upper"));
    let best = text(5, "best")?;
    let nodes = match whole(6, "nodes")? {
        Ok(n) => u64::try_from(n).map_err(|_| at(format!("nodes {n} is no count a proof took"))),
        Err(e) => Err(e),
    };
    let seconds = match column(7)? {
        ValueRef::Real(x) => Ok(x),
        ValueRef::Integer(n) => Ok(n as f64),
        other => Err(at(format!("seconds holds {}, not a time", what(other)))),
    };
    let proved_by = match text(8, "proved_by")? {
        Ok(Some(t)) => Ok(t),
        Ok(None) => Err(at("proved_by holds nothing".to_string())),
        Err(e) => Err(e),
    };
    let checked_by = text(9, "checked_by")?;
    Ok((|| {
        Ok(BookEntry {
            free: free?,
            lower: lower?,
            upper: upper?,
            best: best?,
            nodes: nodes?,
            seconds: seconds?,
            proved_by: proved_by?,
            checked_by: checked_by?,
            board,
            key,
        })
    })())
}

/// The board a slug (`boxes-4x4`) names, or why it names none.
pub fn built_of(slug: &str) -> Result<BuiltBoard, String> {
    crate::games::dots::Geometry::from_slug(slug)
        .ok_or_else(|| "no such board".to_string())?
        .build()
        .map_err(|e| e.to_string())
}

/// `built`'s edge order as the book records it: `1-2 1-3 …`.
pub fn edge_order(built: &BuiltBoard) -> String {
    (0..built.board.edge_count())
        .map(|e| format_edge(&built.board, Edge(e as u8)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The edges of the position `key` on `built`'s board, in edge order: `1-2 2-7` (a position the
/// key stands for; moves played in this order reach it unless one completes a cell).
pub fn position_text(built: &BuiltBoard, key: u64) -> String {
    (0..built.board.edge_count())
        .filter(|&e| key >> e & 1 == 1)
        .map(|e| format_edge(&built.board, Edge(e as u8)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The position `drawn` of `built`'s board in messages: its edges in edge order (`1-2 2-7`), or
/// `the start` when none is drawn.
pub fn position_named(built: &BuiltBoard, drawn: EdgeSet) -> String {
    match drawn.0 {
        0 => "the start".to_string(),
        key => position_text(built, key),
    }
}

/// Why `entry` cannot be right on `built`'s board, as `position BOARD KEY: why`; bounds of the
/// wrong parity are tightened. A value has the parity of the cells still open (they are split
/// between the players: the search's own rule, `ValueRange::next_test`), so an exact value of the
/// other parity is damage, while a bound of it proves the next value in.
pub fn check_entry(built: &BuiltBoard, entry: &mut BookEntry) -> Result<(), String> {
    check_with(built, &KeyScheme::new(&built.board), entry)
}

/// The longest a proof in a book may have taken: a thousand years of seconds.
pub const MOST_SECONDS: f64 = 1000.0 * 365.25 * 86_400.0;

fn check_with(
    built: &BuiltBoard,
    scheme: &KeyScheme<'_>,
    entry: &mut BookEntry,
) -> Result<(), String> {
    let board = &built.board;
    let bad = |why: String| format!("position {} {:#x}: {why}", entry.board, entry.key);
    let full = board.full().0;
    if entry.key & !full != 0 {
        return Err(bad("edges the board does not have".into()));
    }
    let drawn = EdgeSet(entry.key);
    if scheme.key(drawn).key != entry.key {
        return Err(bad("not a key (not the smallest of its class)".into()));
    }
    if entry.free != (full & !entry.key).count_ones() {
        return Err(bad(format!("free edges {} is wrong", entry.free)));
    }
    let cells = scheme.open_cells(drawn) as i32;
    let r = entry.range();
    if r.lower > r.upper {
        return Err(bad(format!(
            "bounds {}..{} are crossed (the lower above the upper)",
            r.lower, r.upper
        )));
    }
    if r.lower < -cells || r.upper > cells {
        return Err(bad(format!(
            "bounds {}..{} (at most ±{cells} here)",
            r.lower, r.upper
        )));
    }
    let odd = |v: i32| (v - cells) & 1 == 1;
    if let Some(v) = r.value().filter(|&v| odd(v)) {
        return Err(bad(format!(
            "the value {v:+} cannot be: with {cells} cells open it is {}",
            if cells & 1 == 1 { "odd" } else { "even" }
        )));
    }
    entry.lower += odd(r.lower) as i32;
    entry.upper -= odd(r.upper) as i32;
    // A time no proof took would be exported as JSON's `null`, which no import reads; one past
    // [`MOST_SECONDS`] took no proof either (and would fill a line with its digits).
    if !(entry.seconds.is_finite() && (0.0..=MOST_SECONDS).contains(&entry.seconds)) {
        let shown = if entry.seconds.abs() < 1e9 {
            entry.seconds.to_string()
        } else {
            format!("{:e}", entry.seconds)
        };
        return Err(bad(format!("{shown} seconds is no time a proof took")));
    }
    if let Some(best) = &entry.best {
        let free_edge = (0..board.edge_count())
            .map(|e| Edge(e as u8))
            .find(|&e| !drawn.contains(e) && format_edge(board, e) == *best);
        if free_edge.is_none() {
            return Err(bad(format!(
                "best move {} is no free edge",
                crate::input::quote(best)
            )));
        }
    }
    // What proved or checked an entry is shown to users: printable and short (a control
    // character there would reach their terminal).
    let notes = [("proved_by", Some(&entry.proved_by)), ("checked_by", entry.checked_by.as_ref())];
    for (name, note) in notes {
        if let Some(t) = note.filter(|t| t.chars().count() > MOST_NOTE || t.chars().any(char::is_control)) {
            return Err(bad(format!(
                "{name} holds {}, not a note of what proved it",
                crate::input::quote(t)
            )));
        }
    }
    Ok(())
}

/// The most characters of an entry's `proved_by` or `checked_by` (ply writes some 30: `ply 0.1.0
/// search high-first`).
const MOST_NOTE: usize = 120;
