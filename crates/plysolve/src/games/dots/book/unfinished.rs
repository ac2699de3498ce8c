//! What unfinished proofs keep in a book: the bounds a long proof's search has proved of states
//! below its position, written as it runs and when it is stopped ([`keeping`](super::keeping)),
//! which the next build (or verification) of the book starts from. Not positions of the book: no
//! answer, export, merge or count of entries reads them.
//!
//! ```sql
//! -- Made by the first proof that keeps its work.
//! CREATE TABLE unfinished_blocks (
//!     board TEXT NOT NULL,
//!     part TEXT NOT NULL,         -- 'build': a build's proofs; 'check': a verification's
//!     root INTEGER NOT NULL,      -- the key of the position whose proof kept them
//!     block INTEGER NOT NULL,     -- 0, 1, …: one keep's blocks
//!     states BLOB NOT NULL,       -- 1 to 2^20 states of 12 bytes each: the drawn edges (u64,
//!                                 -- little-endian, bit i the board's edge i: not a key), lower
//!                                 -- and upper (i8), a best move's edge (u8; 255: none found),
//!                                 -- the free edges (u8)
//!     PRIMARY KEY (board, part, root, block)) STRICT;
//! ```
//!
//! Blocks, not a row a state: a proof of hours keeps tens of millions of states (what it saves
//! grows with them, BENCHMARKS), written as rows at about a million a second — half a minute a
//! keep, with the book's write lock held — and as blocks in a few seconds, a third of the size.
//! Older versions kept a row a state in the tables `unfinished` and `unfinished_checks` (`board,
//! state, lower, upper, best, root`): still read, and a board's rows there are dropped at its first
//! keep in blocks. A build's and a verification's work are kept apart ([`Unfinished`]), so a second
//! proof never starts from what a first proof proved.

use super::key::KeyScheme;
use super::store::{damage, one_line, BookEntry, BookError, BookFile};
use crate::engine::scored::search::ProvedState;
use crate::engine::scored::ValueRange;
use crate::games::dots::geometry::BuiltBoard;
use crate::games::dots::EdgeSet;
use rusqlite::{params, OptionalExtension};

/// The table of blocks.
const BLOCKS: &str = "unfinished_blocks";

/// The table of blocks, made when first needed (a book without it is the same format).
const BLOCKS_SCHEMA: &str = "CREATE TABLE IF NOT EXISTS unfinished_blocks (
    board TEXT NOT NULL,
    part TEXT NOT NULL,
    root INTEGER NOT NULL,
    block INTEGER NOT NULL,
    states BLOB NOT NULL,
    PRIMARY KEY (board, part, root, block)) STRICT;";

/// Bytes of one state in a block.
pub const STATE_BYTES: usize = 12;

/// The most states in one block (12 MiB): SQLite keeps a value whole in memory as it writes or
/// reads it, so a keep of millions of states is cut into blocks of this size.
pub const BLOCK_STATES: usize = 1 << 20;

/// The best-move byte of a state with none.
const NO_BEST: u8 = 0xFF;

/// Which proofs' unfinished work: a build's and a verification's are kept apart, so that a second
/// proof never starts from what the first proof's search proved (it would check nothing where it
/// took those bounds on trust).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unfinished {
    /// A build's proofs (`part` 'build'; an older version's table `unfinished`).
    Build,
    /// A verification's second proofs (`part` 'check'; an older version's `unfinished_checks`).
    Check,
}

impl Unfinished {
    /// The part's name in the table of blocks.
    pub fn name(self) -> &'static str {
        match self {
            Unfinished::Build => "build",
            Unfinished::Check => "check",
        }
    }

    /// The table an older version kept the part's states in, a row a state.
    pub fn table(self) -> &'static str {
        match self {
            Unfinished::Build => "unfinished",
            Unfinished::Check => "unfinished_checks",
        }
    }
}

/// `states` as a block's bytes.
fn encode(states: &[ProvedState]) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(states.len() * STATE_BYTES);
    for p in states {
        bytes.extend_from_slice(&p.state.to_le_bytes());
        bytes.push(p.range.lower as i8 as u8);
        bytes.push(p.range.upper as i8 as u8);
        bytes.push(p.best.map_or(NO_BEST, |b| b as u8));
        bytes.push(p.free as u8);
    }
    bytes
}

/// The state `bytes` (one state's [`STATE_BYTES`]) hold, and the free edges they say it has.
fn decode(bytes: &[u8]) -> (ProvedState, u32) {
    let state = u64::from_le_bytes(bytes[..8].try_into().expect("eight bytes"));
    let best = (bytes[10] != NO_BEST).then_some(bytes[10] as u32);
    let p = ProvedState {
        state,
        range: ValueRange {
            lower: bytes[8] as i8 as i32,
            upper: bytes[9] as i8 as i32,
        },
        best,
        free: 0,
    };
    (p, bytes[11] as u32)
}

/// What is wrong with a proved state of `built`'s board, if anything: a bit past its edges, bounds
/// crossed or past its open cells, a best move that is not one of its free edges.
fn fault(built: &BuiltBoard, scheme: &KeyScheme, p: &ProvedState) -> Result<(), String> {
    let edges = built.board.edge_count() as u32;
    if edges < 64 && p.state >> edges != 0 {
        return Err("edges past the board's".into());
    }
    let open = scheme.open_cells(EdgeSet(p.state)) as i32;
    if p.range.lower > p.range.upper || p.range.lower < -open || p.range.upper > open {
        return Err(format!(
            "bounds {}..{} with {open} cells open",
            p.range.lower, p.range.upper
        ));
    }
    if p.best.is_some_and(|b| b >= edges || p.state >> b & 1 == 1) {
        return Err("a best move that is not a free edge".into());
    }
    Ok(())
}

impl BookFile {
    /// Keeps `states` — bounds a search proved of states of `built`'s board below the position
    /// keyed `root`, which it is proving or was stopped in the middle of — as the `part` of the
    /// book's unfinished work, in place of what the proof of the same position kept before, in
    /// one transaction: what the next build (or verification) of the book starts from
    /// ([`unfinished_of`](Self::unfinished_of)). Another position's proof keeps its own; an older
    /// version's rows of the board are dropped. A state with a bit past the board's edges, bounds
    /// crossed or past its cells, or a best move that is not one of its free edges is refused
    /// before anything is written.
    pub fn replace_unfinished(
        &self,
        built: &BuiltBoard,
        part: Unfinished,
        root: u64,
        states: &[ProvedState],
    ) -> Result<(), BookError> {
        let scheme = KeyScheme::new(&built.board);
        let edges = built.board.edge_count() as u32;
        for p in states {
            let wrong = fault(built, &scheme, p).err().or_else(|| {
                (p.free != edges.saturating_sub(p.state.count_ones()))
                    .then(|| format!("{} free edges said of one with {edges}", p.free))
            });
            if let Some(why) = wrong {
                return Err(BookError::Io(
                    self.name.clone(),
                    format!("unfinished state {:#x}: {why}", p.state),
                ));
            }
        }
        let io = |e: rusqlite::Error| BookError::Io(self.name.clone(), one_line(&e));
        let tx = self.write_for(built)?;
        tx.execute_batch(BLOCKS_SCHEMA).map_err(io)?;
        self.forget(built, part, root)?;
        {
            let mut insert = tx
                .prepare(
                    "INSERT INTO unfinished_blocks (board, part, root, block, states)
                     VALUES (?1, ?2, ?3, ?4, ?5)",
                )
                .map_err(io)?;
            for (block, chunk) in states.chunks(BLOCK_STATES).enumerate() {
                insert
                    .execute(params![
                        built.geometry.slug(),
                        part.name(),
                        root as i64,
                        block as i64,
                        encode(chunk)
                    ])
                    .map_err(io)?;
            }
        }
        tx.commit().map_err(io)
    }

    /// Forgets what the proof of the position keyed `root` kept as the `part` of the book's
    /// unfinished work (and an older version's rows of the board): its proof is done, its value in
    /// its entry.
    pub fn clear_unfinished(
        &self,
        built: &BuiltBoard,
        part: Unfinished,
        root: u64,
    ) -> Result<(), BookError> {
        if !self.has_table(BLOCKS)? && !self.has_table(part.table())? {
            return Ok(());
        }
        let tx = self.write_for(built)?;
        self.forget(built, part, root)?;
        tx.commit()
            .map_err(|e| BookError::Io(self.name.clone(), one_line(&e)))
    }

    /// Deletes, within the transaction open, the blocks the proof of `root` kept as `part`, and an
    /// older version's rows of the board in the part's table.
    fn forget(&self, built: &BuiltBoard, part: Unfinished, root: u64) -> Result<(), BookError> {
        let io = |e: rusqlite::Error| BookError::Io(self.name.clone(), one_line(&e));
        let slug = built.geometry.slug();
        if self.has_table(BLOCKS)? {
            self.conn
                .execute(
                    "DELETE FROM unfinished_blocks WHERE board = ?1 AND part = ?2 AND root = ?3",
                    params![slug, part.name(), root as i64],
                )
                .map_err(io)?;
        }
        if self.has_table(part.table())? {
            self.conn
                .execute(
                    &format!("DELETE FROM {} WHERE board = ?1", part.table()),
                    [slug],
                )
                .map_err(io)?;
        }
        Ok(())
    }

    /// How many states of the board `slug` the book keeps as `part` (0 when it keeps none):
    /// counted from the blocks' lengths, not read, so a summary of a book with millions of kept
    /// states is quick.
    pub fn unfinished_count(&self, slug: &str, part: Unfinished) -> Result<u64, BookError> {
        let damaged = |e: rusqlite::Error| BookError::Damaged(self.name.clone(), damage(&e));
        let mut count = 0i64;
        if self.has_table(BLOCKS)? {
            let bytes: i64 = self
                .conn
                .query_row(
                    "SELECT coalesce(sum(length(states)), 0) FROM unfinished_blocks
                     WHERE board = ?1 AND part = ?2",
                    params![slug, part.name()],
                    |r| r.get(0),
                )
                .map_err(damaged)?;
            count += bytes / STATE_BYTES as i64;
        }
        if self.has_table(part.table())? {
            let rows: i64 = self
                .conn
                .query_row(
                    &format!("SELECT count(*) FROM {} WHERE board = ?1", part.table()),
                    [slug],
                    |r| r.get(0),
                )
                .map_err(damaged)?;
            count += rows;
        }
        Ok(count as u64)
    }

    /// The states of `built`'s board the book keeps as `part` (none when it keeps none), each
    /// checked as [`replace_unfinished`](Self::replace_unfinished) checks them — a state that
    /// cannot be right makes the book damaged — and each once, in the order of their edges: a
    /// state two proofs kept has the bounds both proved (two that do not meet are damage).
    pub fn unfinished_of(
        &self,
        built: &BuiltBoard,
        part: Unfinished,
    ) -> Result<Vec<ProvedState>, BookError> {
        let damaged = |why: String| BookError::Damaged(self.name.clone(), why);
        let scheme = KeyScheme::new(&built.board);
        let edges = built.board.edge_count() as u32;
        let mut states = self.unfinished_rows(built, part)?;
        if self.has_table(BLOCKS)? {
            let mut statement = self
                .conn
                .prepare(
                    "SELECT root, block, states FROM unfinished_blocks
                     WHERE board = ?1 AND part = ?2",
                )
                .map_err(|e| damaged(damage(&e)))?;
            let mut rows = statement
                .query(params![built.geometry.slug(), part.name()])
                .map_err(|e| damaged(damage(&e)))?;
            while let Some(row) = rows.next().map_err(|e| damaged(damage(&e)))? {
                let (root, block): (i64, i64) = (
                    row.get(0).map_err(|e| damaged(damage(&e)))?,
                    row.get(1).map_err(|e| damaged(damage(&e)))?,
                );
                let bytes = row
                    .get_ref(2)
                    .and_then(|v| Ok(v.as_blob()?))
                    .map_err(|e| damaged(damage(&e)))?;
                if let Some(why) = block_fault(bytes.len()) {
                    return Err(damaged(format!(
                        "kept block {block} of position {:#x}: {why}",
                        root as u64
                    )));
                }
                for chunk in bytes.chunks_exact(STATE_BYTES) {
                    let (mut p, free) = decode(chunk);
                    p.free = edges.saturating_sub(p.state.count_ones());
                    fault(built, &scheme, &p)
                        .and_then(|()| match free == p.free {
                            true => Ok(()),
                            false => Err(format!("{free} free edges said of one with {}", p.free)),
                        })
                        .map_err(|why| damaged(format!("unfinished state {:#x}: {why}", p.state)))?;
                    states.push(p);
                }
            }
        }
        states.sort_unstable_by_key(|p| p.state);
        let mut met: Vec<ProvedState> = Vec::with_capacity(states.len());
        for p in states {
            match met.last_mut() {
                Some(q) if q.state == p.state => {
                    let both = ValueRange {
                        lower: q.range.lower.max(p.range.lower),
                        upper: q.range.upper.min(p.range.upper),
                    };
                    if both.lower > both.upper {
                        return Err(damaged(format!(
                            "unfinished state {:#x}: kept as {}..{} and as {}..{}",
                            p.state, q.range.lower, q.range.upper, p.range.lower, p.range.upper
                        )));
                    }
                    q.range = both;
                    q.best = q.best.or(p.best);
                }
                _ => met.push(p),
            }
        }
        Ok(met)
    }

    /// The states of `built`'s board an older version kept as `part`, a row a state (none when
    /// the book has no such table), each checked.
    fn unfinished_rows(
        &self,
        built: &BuiltBoard,
        part: Unfinished,
    ) -> Result<Vec<ProvedState>, BookError> {
        let damaged = |why: String| BookError::Damaged(self.name.clone(), why);
        if !self.has_table(part.table())? {
            return Ok(Vec::new());
        }
        let edges = built.board.edge_count() as u32;
        let scheme = KeyScheme::new(&built.board);
        let mut statement = self
            .conn
            .prepare(&format!(
                "SELECT state, lower, upper, best FROM {} WHERE board = ?1",
                part.table()
            ))
            .map_err(|e| damaged(damage(&e)))?;
        let rows = statement
            .query_map([built.geometry.slug()], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, i32>(1)?,
                    r.get::<_, i32>(2)?,
                    r.get::<_, Option<i64>>(3)?,
                ))
            })
            .map_err(|e| damaged(damage(&e)))?;
        let mut states = Vec::new();
        for row in rows {
            let (state, lower, upper, best) = row.map_err(|e| damaged(damage(&e)))?;
            let state = state as u64;
            let best = match best.map(u32::try_from) {
                None => None,
                Some(Ok(best)) => Some(best),
                Some(Err(_)) => {
                    return Err(damaged(format!(
                        "unfinished state {state:#x}: its best move {} is no edge",
                        best.unwrap_or_default()
                    )))
                }
            };
            let p = ProvedState {
                state,
                range: ValueRange { lower, upper },
                best,
                free: edges.saturating_sub(state.count_ones()),
            };
            fault(built, &scheme, &p)
                .map_err(|why| damaged(format!("unfinished state {state:#x}: {why}")))?;
            states.push(p);
        }
        Ok(states)
    }

    /// Checks the book's unfinished work as a writer does before it writes (`boards`: the book's
    /// boards, their entries read): an older version's rows whole, state by state; each block's
    /// board, part and length (its states are checked when a build reads them — a keep of tens
    /// of millions is not read at every opening); no state of a board the book does not name.
    pub(super) fn check_unfinished(
        &self,
        boards: &[(BuiltBoard, Vec<BookEntry>)],
    ) -> Result<(), BookError> {
        for part in [Unfinished::Build, Unfinished::Check] {
            for (built, _) in boards {
                self.unfinished_rows(built, part)?;
            }
            if self.has_table(part.table())? {
                self.boards_named(part.table())?;
            }
        }
        if !self.has_table(BLOCKS)? {
            return Ok(());
        }
        self.boards_named(BLOCKS)?;
        let odd: Option<(i64, i64, String, i64)> = self
            .conn
            .query_row(
                "SELECT root, block, part, length(states) FROM unfinished_blocks
                 WHERE part NOT IN ('build', 'check') OR length(states) % ?1 <> 0
                    OR length(states) = 0 OR length(states) > ?2 LIMIT 1",
                params![STATE_BYTES as i64, (BLOCK_STATES * STATE_BYTES) as i64],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
            )
            .optional()
            .map_err(|e| BookError::Damaged(self.name.clone(), damage(&e)))?;
        let Some((root, block, part, length)) = odd else {
            return Ok(());
        };
        let why = block_fault(length as usize).unwrap_or_else(|| {
            format!(
                "its part {} is neither build nor check",
                crate::input::quote(&part)
            )
        });
        Err(BookError::Damaged(
            self.name.clone(),
            format!("kept block {block} of position {:#x}: {why}", root as u64),
        ))
    }

    /// Refuses a table of unfinished work holding states of a board the `boards` table does not
    /// name (no build would ever read them: a book edited or damaged).
    fn boards_named(&self, table: &str) -> Result<(), BookError> {
        let damaged = |e: rusqlite::Error| BookError::Damaged(self.name.clone(), damage(&e));
        let stray: Option<rusqlite::types::Value> = self
            .conn
            .query_row(
                &format!(
                    "SELECT board FROM {table} WHERE board NOT IN (SELECT board FROM boards) LIMIT 1"
                ),
                [],
                |r| r.get(0),
            )
            .optional()
            .map_err(damaged)?;
        match stray {
            None => Ok(()),
            Some(rusqlite::types::Value::Text(board)) => Err(BookError::Damaged(
                self.name.clone(),
                format!(
                    "unfinished states of the board {}, which its boards table does not name",
                    crate::input::quote(&board)
                ),
            )),
            Some(_) => Err(BookError::Damaged(
                self.name.clone(),
                "an unfinished state's board is not a name".into(),
            )),
        }
    }

    /// Whether the book has the table `name` (the tables of unfinished work are made by the first
    /// proof that keeps its work).
    fn has_table(&self, name: &str) -> Result<bool, BookError> {
        let made: i64 = self
            .conn
            .query_row(
                "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = ?1",
                [name],
                |r| r.get(0),
            )
            .map_err(|e| BookError::Damaged(self.name.clone(), damage(&e)))?;
        Ok(made > 0)
    }
}

/// What is wrong with a block of `length` bytes, if anything: no states, more than
/// [`BLOCK_STATES`], or not a whole number of them.
fn block_fault(length: usize) -> Option<String> {
    if length == 0 || length % STATE_BYTES != 0 {
        Some(format!("{length} bytes, not a whole number of states"))
    } else if length > BLOCK_STATES * STATE_BYTES {
        Some(format!("{} states, more than a block holds", length / STATE_BYTES))
    } else {
        None
    }
}
