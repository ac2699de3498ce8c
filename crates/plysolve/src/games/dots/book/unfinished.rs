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
//! Each keep's blocks hold its states most free first, so a reader short of memory reads the
//! first blocks. A keep whose position is settled (its entry exact, or checked for a
//! verification's) is forgotten when its proof writes the entry and, should that have failed or
//! the entry have come another way, when the next build or verification starts. A part this
//! version does not know (a later version's) is left alone. Older versions kept a row a state in
//! the tables `unfinished` and `unfinished_checks` (`board, state, lower, upper, best, root`):
//! still read, and a board's rows there are deleted at its next keep in blocks. A build's and a
//! verification's work are kept apart ([`Unfinished`]), so a second proof never starts from what a
//! first proof proved.

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
    /// version's rows of the board in the part's table are deleted. A state with a bit past the board's edges, bounds
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
            let free = edges.saturating_sub(p.state.count_ones());
            let wrong = fault(built, &scheme, p).err().or_else(|| {
                (p.free != free).then(|| format!("{} free edges said of one with {free}", p.free))
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
        self.forget(built, part, root, true)?;
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
    /// unfinished work: its proof is done, its value in its entry.
    pub fn clear_unfinished(
        &self,
        built: &BuiltBoard,
        part: Unfinished,
        root: u64,
    ) -> Result<(), BookError> {
        if !self.has_table(BLOCKS)? {
            return Ok(());
        }
        let tx = self.write_for(built)?;
        self.forget(built, part, root, false)?;
        tx.commit()
            .map_err(|e| BookError::Io(self.name.clone(), one_line(&e)))
    }

    /// Forgets the keeps of positions already settled — a build's whose entry is exact, a
    /// verification's whose entry is checked — which their proofs' own forgetting missed (the
    /// entry written by another process, or from its children, or the forgetting failed): what
    /// a build or a verification does as it starts, so no keep outlives its use.
    pub fn forget_settled(&self, built: &BuiltBoard) -> Result<(), BookError> {
        if !self.has_table(BLOCKS)? {
            return Ok(());
        }
        let io = |e: rusqlite::Error| BookError::Io(self.name.clone(), one_line(&e));
        let tx = self.write_for(built)?;
        tx.execute(
            "DELETE FROM unfinished_blocks WHERE board = ?1 AND (
                 (part = 'build' AND root IN
                     (SELECT key FROM positions WHERE board = ?1 AND lower = upper))
              OR (part = 'check' AND root IN
                     (SELECT key FROM positions WHERE board = ?1 AND checked_by IS NOT NULL)))",
            [built.geometry.slug()],
        )
        .map_err(io)?;
        tx.commit().map_err(io)
    }

    /// Deletes, within the transaction open, the blocks the proof of `root` kept as `part`, and
    /// with `old_rows` an older version's rows of the board in the part's table.
    fn forget(
        &self,
        built: &BuiltBoard,
        part: Unfinished,
        root: u64,
        old_rows: bool,
    ) -> Result<(), BookError> {
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
        if old_rows && self.has_table(part.table())? {
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

    /// The states of `built`'s board the book keeps as `part` (none when it keeps none), at most
    /// `most` of them (the first blocks of each keep first: its most free states), each checked
    /// as [`replace_unfinished`](Self::replace_unfinished) checks them — a state that cannot be
    /// right, or a block whose states are not bytes, makes the book damaged — and each once, in
    /// the order of their edges: a state two proofs kept has the bounds both proved (two that do
    /// not meet are damage).
    pub fn unfinished_of(
        &self,
        built: &BuiltBoard,
        part: Unfinished,
        most: usize,
    ) -> Result<Vec<ProvedState>, BookError> {
        let damaged = |why: String| BookError::Damaged(self.name.clone(), why);
        let scheme = KeyScheme::new(&built.board);
        let edges = built.board.edge_count() as u32;
        let mut states = self.unfinished_rows(built, part)?;
        states.truncate(most);
        if self.has_table(BLOCKS)? {
            let slug = built.geometry.slug();
            // The blocks in the order they are read (their bytes sorted would be copied whole).
            let order: Vec<(i64, i64)> = self
                .conn
                .prepare(
                    "SELECT root, block FROM unfinished_blocks
                     WHERE board = ?1 AND part = ?2 ORDER BY block, root",
                )
                .and_then(|mut statement| {
                    statement
                        .query_map(params![slug, part.name()], |r| Ok((r.get(0)?, r.get(1)?)))?
                        .collect()
                })
                .map_err(|e| damaged(damage(&e)))?;
            let mut read = self
                .conn
                .prepare(
                    "SELECT states FROM unfinished_blocks
                     WHERE board = ?1 AND part = ?2 AND root = ?3 AND block = ?4",
                )
                .map_err(|e| damaged(damage(&e)))?;
            for (root, block) in order {
                if states.len() >= most {
                    break;
                }
                let in_block = |why: String| {
                    damaged(format!(
                        "kept block {block} of position {:#x}: {why}",
                        root as u64
                    ))
                };
                let mut rows = read
                    .query(params![slug, part.name(), root, block])
                    .map_err(|e| damaged(damage(&e)))?;
                let Some(row) = rows.next().map_err(|e| damaged(damage(&e)))? else {
                    continue;
                };
                let bytes = row
                    .get_ref(0)
                    .ok()
                    .and_then(|v| v.as_blob().ok())
                    .ok_or_else(|| in_block("its states are not bytes".into()))?;
                if let Some(why) = block_fault(bytes.len()) {
                    return Err(in_block(why));
                }
                for chunk in bytes.chunks_exact(STATE_BYTES).take(most - states.len()) {
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
        let mut crossed = None;
        states.dedup_by(|later, kept| {
            if later.state != kept.state {
                return false;
            }
            let lower = kept.range.lower.max(later.range.lower);
            let upper = kept.range.upper.min(later.range.upper);
            if lower > upper && crossed.is_none() {
                crossed = Some(format!(
                    "unfinished state {:#x}: kept as {}..{} and as {}..{}",
                    kept.state, kept.range.lower, kept.range.upper, later.range.lower, later.range.upper
                ));
            }
            kept.range = ValueRange { lower, upper };
            kept.best = kept.best.or(later.best);
            true
        });
        match crossed {
            Some(why) => Err(damaged(why)),
            None => Ok(states),
        }
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
    /// board, and the bytes and length of those of a part this version knows (its states are
    /// checked when a build reads them — a keep of tens of millions is not decoded at every
    /// opening); no state of a board the book does not name.
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
        let odd: Option<(i64, i64, bool, Option<i64>)> = self
            .conn
            .query_row(
                "SELECT root, block, typeof(states) = 'blob', length(states) FROM unfinished_blocks
                 WHERE part IN ('build', 'check') AND (typeof(states) <> 'blob'
                    OR length(states) % ?1 <> 0 OR length(states) = 0 OR length(states) > ?2)
                 LIMIT 1",
                params![STATE_BYTES as i64, (BLOCK_STATES * STATE_BYTES) as i64],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
            )
            .optional()
            .map_err(|e| BookError::Damaged(self.name.clone(), damage(&e)))?;
        let Some((root, block, bytes, length)) = odd else {
            return Ok(());
        };
        let why = match (bytes, length) {
            (true, Some(length)) => block_fault(length as usize),
            _ => None,
        }
        .unwrap_or_else(|| "its states are not bytes".into());
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
