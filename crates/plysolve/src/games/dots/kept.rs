//! What a front end keeps between answers about dots positions: the books it answers from first
//! (the shipped ones unless turned off, a user's own), the whole tables of small boards (built
//! once, shared by every later question about the board) and the search's memory of larger ones (a
//! server's requests, a player's moves: nothing proved is proved twice). Bounded: a memory per
//! board of a fixed size, for at most a fixed number of boards, the least recently used dropped
//! first.

use super::book::{BoardBook, BookError, Books};
use super::geometry::BuiltBoard;
use super::request::{Detail, DotsQuery};
use super::tables::{BoardTable, CROSSOVERS};
use crate::engine::scored::search::SearchMemory;
use crate::engine::scored::table::SubsetTable;
use crate::engine::scored::SolveError;
use crate::engine::util::memory::{MemoryBudget, MemoryError};
use crate::engine::util::progress::Watch;
use crate::engine::util::fingerprint::fnv1a;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

/// Books, tables and search memories kept for later answers, shared by threads.
pub struct Kept {
    /// The books answers are read from first.
    books: Arc<Books>,
    /// Whether the whole tables of small boards are built and kept (a front end that answers many
    /// questions); a table given is kept either way.
    keeps_tables: bool,
    /// Whole tables, by board identity.
    tables: Mutex<HashMap<String, Arc<SubsetTable>>>,
    /// Bytes of each board's search memory (0: none kept).
    memory_bytes: u64,
    /// Most boards whose search memory is kept.
    boards: usize,
    /// Search memories, least recently used first.
    memories: Mutex<Vec<(String, Arc<SearchMemory>)>>,
    /// The name under which the search memories' tables are shared by the processes of this host
    /// ([`Kept::on_host`]); `None`: each process has its own.
    host: Option<String>,
}

impl Default for Kept {
    /// Nothing kept but the shipped books.
    fn default() -> Self {
        Kept {
            books: Books::shipped(),
            keeps_tables: true,
            tables: Mutex::default(),
            memory_bytes: 0,
            boards: 0,
            memories: Mutex::default(),
            host: None,
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Kept {
    /// Keeps the whole tables of small boards (up to [`CROSSOVERS`]' `small_items` edges) and a search memory
    /// of `memory_bytes` for each of at most `boards` boards.
    pub fn new(memory_bytes: u64, boards: usize) -> Self {
        Kept {
            memory_bytes,
            boards,
            ..Kept::default()
        }
    }

    /// Keeps the search memories' tables in the host's shared memory under names made from `name`
    /// and the board ([`SearchMemory::on_host`]): every process of this machine whose `Kept` names
    /// the same searches each board in one table, as the threads of one process do (the workers of
    /// a distributed solve on one machine). `name` must be a plain name (letters, digits, `.`,
    /// `_`, `-`; checked when a memory is made).
    pub fn on_host(mut self, name: &str) -> Self {
        self.host = Some(name.to_string());
        self
    }

    /// Removes the tables [`Kept::on_host`] named `name` kept in this host's shared memory, once
    /// the processes holding them are gone, waiting at most `wait` for them (a distributed run's
    /// driver, its workers killed); how many are still held then (removed by the next opening of
    /// a host table on this machine).
    pub fn remove_host_tables(name: &str, wait: std::time::Duration) -> usize {
        crate::engine::util::memory::remove_host_tables(name, wait)
    }

    /// The name under which the search memories' tables are shared on this host, if they are.
    pub fn host(&self) -> Option<&str> {
        self.host.as_deref()
    }

    /// Keeps nothing but `books` (and a table given by [`Self::with_table`]): a front end that
    /// answers one question (`ply dots`).
    pub fn books_only(books: Arc<Books>) -> Self {
        Kept {
            keeps_tables: false,
            ..Kept::default().with_books(books)
        }
    }

    /// Whether the whole tables of small boards are built and kept for later answers.
    pub fn keeps_tables(&self) -> bool {
        self.keeps_tables
    }

    /// Answers from `books` first instead of the shipped ones (`Books::none()`: no book at all).
    pub fn with_books(mut self, books: Arc<Books>) -> Self {
        self.books = books;
        self
    }

    /// The books answers are read from first.
    pub fn books(&self) -> &Arc<Books> {
        &self.books
    }

    /// The books' index of `built`'s board.
    pub fn book(&self, built: &BuiltBoard) -> Result<Arc<BoardBook>, BookError> {
        self.books.board(built)
    }

    /// Whether the books alone answer `query` exactly: its value, or (when the moves are asked
    /// for) every move's. A book that cannot be read answers nothing.
    pub fn book_answers(&self, query: &DotsQuery) -> bool {
        if self.books.is_empty() {
            return false;
        }
        let Ok(book) = self.book(&query.built) else {
            return false;
        };
        let drawn = query.position.drawn();
        let exact = |set| book.lookup(set).is_some_and(|(r, _)| r.value().is_some());
        match query.detail {
            Detail::Value => exact(drawn),
            Detail::Moves | Detail::Line => {
                let board = &query.built.board;
                let free: Vec<_> = (0..board.edge_count())
                    .map(|e| super::Edge(e as u8))
                    .filter(|&e| !drawn.contains(e))
                    .collect();
                !free.is_empty() && free.iter().all(|&e| exact(drawn.with(e)))
            }
        }
    }

    /// Also keeps `table`, the whole table of its board (read from a file, say): every answer
    /// about that board comes from it.
    pub fn with_table(self, table: BoardTable) -> Self {
        let identity = table.identity().to_string();
        lock(&self.tables).insert(identity, Arc::new(table.into_values()));
        self
    }

    /// Whether a whole table of `built`'s board is kept now.
    pub fn has_table(&self, built: &BuiltBoard) -> bool {
        lock(&self.tables).contains_key(&built.identity())
    }

    /// Bytes of each board's search memory (0: none kept).
    pub fn memory_bytes(&self) -> u64 {
        self.memory_bytes
    }

    /// Whether search memories are kept at all.
    pub fn keeps_search_memories(&self) -> bool {
        self.memory_bytes > 0 && self.boards > 0
    }

    /// The whole table of `built`'s board: the kept one, or one built now within `budget` (kept
    /// for later when the board is small). A build stopped by `watch`'s halt keeps nothing.
    pub fn table(
        &self,
        built: &BuiltBoard,
        budget: MemoryBudget,
        watch: Watch<'_>,
    ) -> Result<Arc<SubsetTable>, SolveError> {
        let identity = built.identity();
        if let Some(table) = lock(&self.tables).get(&identity) {
            return Ok(table.clone());
        }
        let table = Arc::new(SubsetTable::build(&built.board, budget, watch)?);
        if self.keeps_tables && built.board.edge_count() as u32 <= CROSSOVERS.small_items {
            lock(&self.tables).entry(identity).or_insert(table.clone());
        }
        Ok(table)
    }

    /// The search memory of `built`'s board, made now (refused over `budget`) if it has none; `None`
    /// when no memories are kept.
    pub fn search_memory(
        &self,
        built: &BuiltBoard,
        budget: MemoryBudget,
    ) -> Result<Option<Arc<SearchMemory>>, MemoryError> {
        if !self.keeps_search_memories() {
            return Ok(None);
        }
        let identity = built.identity();
        let mut memories = lock(&self.memories);
        if let Some(i) = memories.iter().position(|(id, _)| *id == identity) {
            let entry = memories.remove(i);
            let memory = entry.1.clone();
            memories.push(entry);
            return Ok(Some(memory));
        }
        if memories.len() >= self.boards {
            memories.remove(0);
        }
        let memory = Arc::new(match &self.host {
            // The board named by a hash of its identity: names are plain and short, boards many.
            Some(host) => SearchMemory::on_host(
                &format!("{host}-{:016x}", fnv1a(identity.as_bytes())),
                self.memory_bytes,
                budget,
            )?,
            None => SearchMemory::new(self.memory_bytes, budget)?,
        });
        memories.push((identity, memory.clone()));
        Ok(Some(memory))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::dots::Geometry;

    #[test]
    fn small_tables_and_memories_are_kept_boundedly() {
        let kept = Kept::new(1 << 16, 2);
        let budget = MemoryBudget::new(1 << 30);
        let classic = Geometry::CLASSIC_TRIANGLES.build().unwrap();
        assert!(!kept.has_table(&classic));
        let table = kept.table(&classic, budget, Watch::default()).unwrap();
        assert!(kept.has_table(&classic));
        assert!(Arc::ptr_eq(
            &table,
            &kept.table(&classic, budget, Watch::default()).unwrap()
        ));
        let boards: Vec<BuiltBoard> = [(3, 3), (4, 4), (5, 5)]
            .map(|(rows, cols)| Geometry::Boxes { rows, cols }.build().unwrap())
            .into();
        let first = kept.search_memory(&boards[0], budget).unwrap().unwrap();
        let again = kept.search_memory(&boards[0], budget).unwrap().unwrap();
        assert!(Arc::ptr_eq(&first, &again));
        kept.search_memory(&boards[1], budget).unwrap();
        // A third board drops the least recently used (3×3): it comes back new.
        kept.search_memory(&boards[2], budget).unwrap();
        let back = kept.search_memory(&boards[0], budget).unwrap().unwrap();
        assert!(!Arc::ptr_eq(&first, &back));
        assert!(Kept::default()
            .search_memory(&boards[0], budget)
            .unwrap()
            .is_none());
    }
}
