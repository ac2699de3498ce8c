//! The book: positions proved once and kept, so that no surface proves them again — shipped inside
//! ply for the boards people play, added to by a user's own book file, grown by `ply dots book
//! build`, `ply serve --book` and `ply play --book`.
//!
//! [`store`] is the file format (SQLite, shared with Python), [`key`] the key scheme (a position up
//! to the board's symmetries and twins), [`build`] the builder, [`shipped`] the books compiled in.
//! [`Books`] is what answers consult: every source's entries of a board gathered into one index
//! ([`BoardBook`]) that the answer reads first and the search meets wherever it reaches a known
//! position.

pub mod build;
pub mod keeping;
pub mod key;
pub mod ops;
pub mod shipped;
pub mod store;
pub mod unfinished;

use crate::engine::scored::known::KnownValues;
use crate::engine::scored::twins::Twins;
use crate::engine::scored::{Contradiction, SolveError, SubsetIndexed, ValueRange};
use crate::games::dots::geometry::BuiltBoard;
use crate::games::dots::notation::format_edge;
use crate::games::dots::{Edge, EdgeSet};
use key::KeyScheme;
use rustc_hash::FxHashMap;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
pub use store::{BookEntry, BookError, BookFile};

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// What one board's books prove of one position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Known {
    /// The bounds proved (exact when equal).
    pub range: ValueRange,
    /// A best move, in the key's frame.
    pub best: Option<Edge>,
    /// The first book that holds the position (an index into [`BoardBook`]'s titles).
    source: usize,
}

/// Every book's entries of one board, met into one index: what answers read and the search meets.
#[derive(Clone)]
pub struct BoardBook {
    built: BuiltBoard,
    /// The board's twins, worked out once (every lookup keys a position with them).
    twins: Twins,
    entries: FxHashMap<u64, Known>,
    fewest_free: u32,
    /// Each book's title in messages (`the book `my.plybook``), by source.
    titles: Vec<String>,
    /// Each source's [`BookFile::data_version`] when its entries were read: the index is out of
    /// date once one differs (another process wrote into that book).
    versions: Vec<Option<i64>>,
}

impl BoardBook {
    /// An empty index of `built`'s board.
    fn new(built: &BuiltBoard) -> Self {
        BoardBook {
            built: built.clone(),
            twins: KeyScheme::new(&built.board).twins().clone(),
            entries: FxHashMap::default(),
            fewest_free: u32::MAX,
            titles: Vec::new(),
            versions: Vec::new(),
        }
    }

    /// The index of `file`'s entries of `built`'s board alone.
    pub fn of_file(file: &BookFile, built: &BuiltBoard) -> Result<Self, BookError> {
        let mut index = BoardBook::new(built);
        index.add_file(file)?;
        Ok(index)
    }

    /// Adds every entry of `file` (another source).
    fn add_file(&mut self, file: &BookFile) -> Result<(), BookError> {
        let source = self.titles.len();
        self.titles.push(file.title());
        // Asked before reading: a write landing while the entries are read is seen next time.
        self.versions.push(file.data_version());
        for entry in file.entries_of(&self.built)? {
            self.add(&entry, source);
        }
        Ok(())
    }

    /// The board whose entries these are.
    pub fn built(&self) -> &BuiltBoard {
        &self.built
    }

    /// Whether `file` (this index's only source, as [`Self::of_file`] made it) has been written by
    /// another connection since its entries were read.
    pub fn is_stale(&self, file: &BookFile) -> bool {
        let now = file.data_version();
        now.is_none() || self.versions.first() != Some(&now)
    }

    /// Adds `entry` (checked) of this index's first source: what the one writer of that book has
    /// just written into it.
    pub fn add_written(&mut self, entry: &BookEntry) {
        self.add(entry, 0);
    }

    /// Adds `entry` (checked) of the source `source`, met with what is there.
    fn add(&mut self, entry: &BookEntry, source: usize) {
        let board = &self.built.board;
        let best = entry.best.as_ref().and_then(|name| {
            (0..board.edge_count())
                .map(|e| Edge(e as u8))
                .find(|&e| entry.key >> e.0 & 1 == 0 && format_edge(board, e) == *name)
        });
        let known = self.entries.entry(entry.key).or_insert(Known {
            range: ValueRange::FULL,
            best: None,
            source,
        });
        let met = known.range.meet(entry.range());
        if met.lower > met.upper {
            // Two books disagree: neither is believed (merge and verify name the position).
            known.range = ValueRange::FULL;
            known.best = None;
            return;
        }
        if best.is_some() && (known.best.is_none() || entry.range() == met) {
            known.best = best;
        }
        known.range = met;
        self.fewest_free = self.fewest_free.min(entry.free);
    }

    /// Refuses an index whose entries contradict each other on a best move: a position proved
    /// exactly, whose best move leads to a position the books also prove exactly, is worth what
    /// that move is worth — else one of the two entries lies (a book edited or damaged), and every
    /// answer from it could be wrong. Found once, as the index is built (one lookup an entry); the
    /// one line names the book, the position and both values.
    fn check_best_moves(&self) -> Result<(), BookError> {
        let board = &self.built.board;
        let Some(rules) = board.completion() else {
            return Ok(());
        };
        for (&key, known) in &self.entries {
            let (Some(value), Some(best)) = (known.range.value(), known.best) else {
                continue;
            };
            let child = EdgeSet(key | 1 << best.0);
            let Some((after, _)) = self.lookup(child) else {
                continue;
            };
            let points = rules.points(key, best.0 as u32);
            let worth = after.after_move(points);
            if worth.value().is_some_and(|w| w != value) {
                let title = self.titles.get(known.source).map_or("the book", String::as_str);
                return Err(BookError::Contradicts(format!(
                    "{title} contradicts itself at {}: {value:+} there with best move {}, but that \
                     move is worth {} by its entry of {}; the book is damaged (ply dots book verify)",
                    store::position_named(&self.built, EdgeSet(key)),
                    format_edge(board, best),
                    ranged(worth),
                    store::position_named(&self.built, child),
                )));
            }
        }
        Ok(())
    }

    /// How many positions the index holds.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// What the books prove of the position `drawn`, with its best move in `drawn`'s own frame.
    pub fn lookup(&self, drawn: EdgeSet) -> Option<(ValueRange, Option<Edge>)> {
        let (known, scheme, keyed) = self.find(drawn)?;
        let best = known.best.and_then(|m| scheme.from_key_frame(keyed, m));
        Some((known.range, best))
    }

    /// The entry of `drawn`, with the key scheme and `drawn`'s key.
    fn find(&self, drawn: EdgeSet) -> Option<(&Known, KeyScheme<'_>, key::Keyed)> {
        if self.entries.is_empty() {
            return None;
        }
        let free = self.built.board.edge_count() as u32 - drawn.len();
        if free < self.fewest_free {
            return None;
        }
        let scheme = KeyScheme::with_twins(&self.built.board, &self.twins);
        let keyed = scheme.key(drawn);
        let known = self.entries.get(&keyed.key)?;
        Some((known, scheme, keyed))
    }

    /// `e` as a front end says it: a [`SolveError::Contradiction`] as a book fault in
    /// [`Self::contradiction`]'s words (its position named by `at`), any other error as it is.
    pub fn worded(&self, e: SolveError, at: impl Fn(EdgeSet) -> String) -> SolveError {
        match e {
            SolveError::Contradiction(c) => {
                SolveError::Book(self.contradiction(&c, &at(EdgeSet(c.state))))
            }
            other => other,
        }
    }

    /// The one line of `c`, a contradiction between these books' claim on the position `at` names
    /// and what was proved of it (by the search, or by the books' own entries of its moves): the
    /// book holding the position, both values, and that the book is damaged.
    pub fn contradiction(&self, c: &Contradiction, at: &str) -> String {
        let title = self
            .find(EdgeSet(c.state))
            .and_then(|(known, _, _)| self.titles.get(known.source))
            .map_or("the book", String::as_str);
        let (claim, proved) = (ranged(c.known), ranged(c.proved));
        let clash = if c.by_known {
            format!("contradicts itself at {at}: {claim} there, but {proved} by its entries after each move")
        } else {
            format!("contradicts the search at {at}: {claim} there, but the search proves {proved}")
        };
        format!("{title} {clash}; the book is damaged (ply dots book verify)")
    }
}

/// Bounds as messages give them: `+3` when exact, `at least +3` or `at most -1` with one side
/// open, else `-1..+3`.
pub(crate) fn ranged(r: ValueRange) -> String {
    match r.value() {
        Some(v) => format!("{v:+}"),
        None if r.upper == i32::MAX => format!("at least {:+}", r.lower),
        None if r.lower == i32::MIN => format!("at most {:+}", r.upper),
        None => format!("{:+}..{:+}", r.lower, r.upper),
    }
}

impl BoardBook {
    /// What the books' entries of `drawn`'s parents (`drawn` less one edge) prove of it: no move
    /// gains its mover more than the parent's value, so each parent's upper bound bounds what the
    /// move to `drawn` is worth — from below when the move scores nothing (the turn passes: a
    /// parent worth at most 0 leaves `drawn` worth at least 0 to the other player), from above
    /// when it scores (the mover moves again). A position two moves into a board whose first
    /// moves are proved starts its search with one side settled: a null-window test saved.
    pub fn implied_by_parents(&self, drawn: EdgeSet) -> ValueRange {
        self.parents(drawn)
            .fold(ValueRange::FULL, |range, (_, known, points)| {
                range.meet(bound_from_parent(known, points))
            })
    }

    /// `drawn`'s parents in the books: each parent's mask, its bounds, and the points the move
    /// from it to `drawn` scores (none past the books' reach).
    fn parents(&self, drawn: EdgeSet) -> impl Iterator<Item = (u64, ValueRange, u32)> + '_ {
        let board = &self.built.board;
        let free = board.edge_count() as u32 - drawn.len();
        let rules = board
            .completion()
            .filter(|_| !self.entries.is_empty() && free + 1 >= self.fewest_free);
        rules.into_iter().flat_map(move |rules| {
            (0..board.edge_count() as u32)
                .filter(move |&e| drawn.0 >> e & 1 == 1)
                .filter_map(move |e| {
                    let parent = drawn.0 & !(1 << e);
                    let (known, _) = self.lookup(EdgeSet(parent))?;
                    Some((parent, known, rules.points(parent, e)))
                })
        })
    }
}

/// The bounds a parent known to lie in `known` puts on the position its move of `points` reaches:
/// the move is worth at most the parent's upper bound to its mover.
fn bound_from_parent(known: ValueRange, points: u32) -> ValueRange {
    ValueRange {
        lower: i32::MIN,
        upper: known.upper,
    }
    .before_move(points)
}

impl KnownValues for BoardBook {
    fn range(&self, mask: u64) -> Option<ValueRange> {
        self.lookup(EdgeSet(mask)).map(|(range, _)| range)
    }

    fn fewest_free(&self) -> u32 {
        self.fewest_free
    }

    /// The entry's best move, when its value is exact.
    fn best(&self, mask: u64) -> Option<u32> {
        let (range, best) = self.lookup(EdgeSet(mask))?;
        range.value().and(best).map(|e| u32::from(e.0))
    }
}

/// A board's books with what their entries imply of the positions one move past them
/// ([`BoardBook::implied_by_parents`]): what a book's build searches with, so that a position
/// whose parents the book proves starts with one side settled. Answers read the entries alone: a
/// parent's wrong claim would settle its moves unsearched, and the search that finds a damaged
/// book would not run.
pub struct ParentBounded<'a>(pub &'a BoardBook);

impl KnownValues for ParentBounded<'_> {
    /// The position's own entry, narrowed by its parents'; an entry its parents contradict is
    /// given as it is (`verify` finds such a book damaged).
    fn range(&self, mask: u64) -> Option<ValueRange> {
        let own = self.0.range(mask);
        if own.is_some_and(|r| r.value().is_some()) {
            return own;
        }
        let implied = self.0.implied_by_parents(EdgeSet(mask));
        match own {
            Some(r) => {
                let met = r.meet(implied);
                Some(if met.lower <= met.upper { met } else { r })
            }
            None => (implied != ValueRange::FULL).then_some(implied),
        }
    }

    /// The position's own entry alone.
    fn claim(&self, mask: u64) -> Option<ValueRange> {
        self.0.range(mask)
    }

    /// A parent whose entry `proved` contradicts: the move to `mask` is worth at least what
    /// `proved` makes it to the parent's mover, more than the parent's entry allows.
    fn blame(&self, mask: u64, proved: ValueRange) -> Option<Contradiction> {
        self.0
            .parents(EdgeSet(mask))
            .find(|&(_, known, points)| {
                let met = proved.meet(bound_from_parent(known, points));
                met.lower > met.upper
            })
            .map(|(parent, known, points)| Contradiction {
                state: parent,
                known,
                proved: ValueRange {
                    lower: proved.after_move(points).lower,
                    upper: i32::MAX,
                },
                by_known: false,
            })
    }

    /// One fewer than the fewest free edges of an entry: the positions one move past the
    /// shallowest entries are bounded by them.
    fn fewest_free(&self) -> u32 {
        self.0.fewest_free.saturating_sub(1)
    }
}

/// One book a front end reads (and maybe writes).
struct Source {
    file: Mutex<BookFile>,
    /// Whether proofs are written into it.
    writable: bool,
}

/// The books a front end answers from: the shipped ones (unless turned off) and the user's, with
/// one index per board built at its first question. Proofs worth keeping are written to the user's
/// book when it was opened for writing ([`Books::keep`]).
#[derive(Default)]
pub struct Books {
    sources: Vec<Arc<Source>>,
    boards: Mutex<HashMap<String, Arc<BoardBook>>>,
}

impl Books {
    /// No books at all (`--no-book`).
    pub fn none() -> Self {
        Books::default()
    }

    /// The books shipped inside ply (read once per process, then shared).
    pub fn shipped() -> Arc<Self> {
        static SHIPPED: std::sync::OnceLock<Arc<Books>> = std::sync::OnceLock::new();
        SHIPPED
            .get_or_init(|| {
                let mut books = Books::default();
                for file in shipped::files() {
                    books.sources.push(Arc::new(Source {
                        file: Mutex::new(file),
                        writable: false,
                    }));
                }
                Arc::new(books)
            })
            .clone()
    }

    /// The shipped books (unless `shipped` is false) and the user's book at `path`, if any, into
    /// which proofs are written when `write` is set: what `--book FILE` and `--no-book` ask for.
    pub fn asked(
        shipped: bool,
        path: Option<&std::path::Path>,
        write: bool,
    ) -> Result<Arc<Self>, BookError> {
        let mut books = Books::default();
        if shipped {
            books.sources = Books::shipped().sources.clone();
        }
        match path {
            Some(path) => Ok(Arc::new(books.with_file(path, write)?)),
            None if shipped => Ok(Books::shipped()),
            None => Ok(Arc::new(books)),
        }
    }

    /// These books and the book file at `path` (made when missing if `write`), into which proofs
    /// are written when `write` is set.
    pub fn with_file(mut self, path: &std::path::Path, write: bool) -> Result<Self, BookError> {
        let file = BookFile::open(path, write, write)?;
        self.sources.push(Arc::new(Source {
            file: Mutex::new(file),
            writable: write,
        }));
        lock(&self.boards).clear();
        Ok(self)
    }

    /// Whether any book is consulted.
    pub fn is_empty(&self) -> bool {
        self.sources.is_empty()
    }

    /// Whether proofs are written somewhere.
    pub fn keeps_proofs(&self) -> bool {
        self.sources.iter().any(|s| s.writable)
    }

    /// The index of `built`'s board over every book (built at the first question, then kept).
    pub fn board(&self, built: &BuiltBoard) -> Result<Arc<BoardBook>, BookError> {
        let slug = built.geometry.slug();
        if let Some(found) = lock(&self.boards).get(&slug) {
            let versions = self.sources.iter().map(|s| lock(&s.file).data_version());
            if versions.eq(found.versions.iter().copied()) {
                return Ok(found.clone());
            }
            // Another process wrote into one of the books: read them again.
        }
        let mut index = BoardBook::new(built);
        for source in &self.sources {
            index.add_file(&lock(&source.file))?;
        }
        index.check_best_moves()?;
        let index = Arc::new(index);
        lock(&self.boards).insert(slug, index.clone());
        Ok(index)
    }

    /// Copies what the writable books' logs hold into their files ([`BookFile::checkpoint`]):
    /// the front ends that keep proofs run for long and may end any way (Ctrl-C, a kill), so after
    /// each answer's entries the book file alone holds them (a copy of it misses none).
    pub fn checkpoint(&self) {
        for source in self.sources.iter().filter(|s| s.writable) {
            lock(&source.file).checkpoint();
        }
    }

    /// Writes `entry` into every writable book, and into the index the answers read.
    pub fn keep(&self, built: &BuiltBoard, entry: &BookEntry) -> Result<(), BookError> {
        for (at, source) in self.sources.iter().enumerate().filter(|(_, s)| s.writable) {
            let merged = lock(&source.file).put(built, entry)?;
            let slug = built.geometry.slug();
            let mut boards = lock(&self.boards);
            if let Some(index) = boards.get_mut(&slug) {
                // Copied only while an answer still reads the index as it was.
                Arc::make_mut(index).add(&merged, at);
            }
        }
        Ok(())
    }
}

/// The version and method that proved an entry: `ply 0.1.0 search low-first`.
pub fn proved_by(method: &str) -> String {
    format!("ply {} {method}", env!("CARGO_PKG_VERSION"))
}
