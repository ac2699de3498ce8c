//! A book build stopped in the middle of a proof keeps what its search proved (the book's
//! unfinished work) and the next build starts from it: the states kept hold the exact values
//! (checked against the whole table of a board), a resumed build gives the value a fresh one gives
//! with fewer states searched, and states that cannot be right are refused.

use plysolve::engine::scored::search::{
    ProvedState, SearchMemory, SearchOptions, SearchSolver, TieOrder,
};
use plysolve::engine::scored::table::SubsetTable;
use plysolve::engine::scored::{Solver, SubsetIndexed, ValueRange};
use plysolve::engine::util::halt::Halt;
use plysolve::engine::util::progress::Watch;
use plysolve::engine::MemoryBudget;
use plysolve::games::dots::book::build::{build, BuildOptions};
use plysolve::games::dots::book::build::{verify, KeepEvent, VerifyOptions, PART_PROVED_BELOW};
use plysolve::games::dots::book::keeping::Keeping;
use plysolve::games::dots::book::unfinished::Unfinished;
use plysolve::games::dots::book::unfinished::BLOCK_STATES;
use plysolve::games::dots::book::{BookEntry, BookError, BookFile};
use plysolve::games::dots::geometry::BuiltBoard;
use plysolve::games::dots::notation::position_from_moves;
use plysolve::games::dots::{EdgeSet, Geometry};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

fn budget() -> MemoryBudget {
    MemoryBudget::new(1 << 30)
}

/// Searches the empty board of `built` in `memory`, giving up after `node_limit` nodes (`None`:
/// to the end): what is proved of its value, and whether the search gave up.
fn search_in(
    built: &BuiltBoard,
    memory: &Arc<SearchMemory>,
    node_limit: Option<u64>,
) -> (Option<ValueRange>, bool) {
    let halt = Halt::never();
    let options = SearchOptions {
        node_limit,
        ..SearchOptions::plain(16 << 20, budget(), &halt)
    };
    let mut solver = SearchSolver::with_memory(&built.board, options, memory.clone()).unwrap();
    let found = solver.range(&EdgeSet(0)).ok();
    (found, solver.gave_up())
}

/// Every state a search of the empty 3×3 board proved — run to the end, and given up part way —
/// holds its exact value, by the board's whole table: what a stopped build keeps is never a guess.
#[test]
fn the_states_a_search_proved_hold_the_exact_values() {
    let built = Geometry::Boxes { rows: 3, cols: 3 }.build().unwrap();
    let board = &built.board;
    let table = SubsetTable::build(board, budget(), Watch::default()).unwrap();
    for node_limit in [Some(20_000), None] {
        let memory = Arc::new(SearchMemory::new(16 << 20, budget()).unwrap());
        let (found, gave_up) = search_in(&built, &memory, node_limit);
        match node_limit {
            Some(_) => assert!(gave_up && found.and_then(|r| r.value()).is_none()),
            None => assert_eq!(found.unwrap().value(), Some(table.value_of_mask(0))),
        }
        let proved = memory.proved(board.items(), 0, usize::MAX);
        let wrong: Vec<&ProvedState> = proved
            .iter()
            .filter(|p| {
                let v = table.value_of_mask(p.state);
                v < p.range.lower || v > p.range.upper
            })
            .collect();
        assert!(proved.len() > 1_000, "{node_limit:?}: {}", proved.len());
        assert_eq!(wrong, Vec::<&ProvedState>::new(), "{node_limit:?}");
        // Most free first, each with its own free edges.
        assert!(proved.windows(2).all(|w| w[0].free >= w[1].free));
        assert!(proved
            .iter()
            .all(|p| p.free == 24 - p.state.count_ones() && p.free >= 1));
        let deep = memory.proved(board.items(), 16, usize::MAX);
        assert!(!deep.is_empty() && deep.iter().all(|p| p.free >= 16));
        // At most 500: every state of the fewest free edges read and of more, none of fewer.
        let few = memory.proved(board.items(), 0, 500);
        let cut = few.last().unwrap().free;
        assert!(few.len() <= 500 && cut > 1, "{} states to {cut}", few.len());
        assert_eq!(few.len(), proved.iter().filter(|p| p.free >= cut).count());
    }
}

/// A 4×4 position of 31 free edges (−2, 3.5 million states), stopped after its first million
/// states: the stop keeps proved states, the build resumed from them gives the fresh build's value
/// and best move, with fewer states searched.
#[test]
fn a_stopped_build_resumes_from_what_its_search_proved() {
    let built = Geometry::Boxes { rows: 4, cols: 4 }.build().unwrap();
    let start = position_from_moves(
        &built.board,
        "17-18 8-13 2-3 14-19 18-19 9-14 12-17 16-21 3-8",
    )
    .unwrap()
    .drawn();
    let dir = tempfile::tempdir().unwrap();
    let run = |book: &BookFile, stop_early: bool| {
        let flag = Arc::new(AtomicBool::new(false));
        let halt = Halt::never().with_flag(flag.clone());
        let stop = |_states: u64| {
            if stop_early {
                flag.store(true, Ordering::SeqCst);
            }
        };
        let options = BuildOptions {
            depth: 0,
            time_per_position: None,
            tie_order: TieOrder::LowFirst,
            budget: budget(),
            halt: &halt,
            progress: Some(&stop),
            keep: None,
        };
        let mut seen = Vec::new();
        build(book, &built, &[start], options, &mut |e| {
            seen.push(e.entry.clone())
        })
        .unwrap();
        seen.pop().unwrap()
    };
    let fresh_book = BookFile::open(&dir.path().join("fresh.plybook"), true, true).unwrap();
    let fresh = run(&fresh_book, false);
    assert_eq!(fresh.value(), Some(-2));
    assert!(fresh_book
        .unfinished_of(&built, Unfinished::Build, usize::MAX)
        .unwrap()
        .is_empty());

    let book = BookFile::open(&dir.path().join("stopped.plybook"), true, true).unwrap();
    let stopped = run(&book, true);
    assert_eq!(stopped.value(), None);
    let kept = book
        .unfinished_of(&built, Unfinished::Build, usize::MAX)
        .unwrap();
    assert!(kept.len() > 1_000, "{} states kept", kept.len());
    assert!(kept
        .iter()
        .all(|p| p.free >= 31 - PART_PROVED_BELOW && p.free < 31));
    // A new process: the book opened again.
    drop(book);
    let book = BookFile::open(&dir.path().join("stopped.plybook"), true, true).unwrap();
    let resumed = run(&book, false);
    assert_eq!(resumed.value(), Some(-2));
    assert_eq!(resumed.best, fresh.best);
    assert!(
        resumed.nodes < fresh.nodes * 95 / 100,
        "resumed {} states, fresh {}",
        resumed.nodes,
        fresh.nodes
    );
}

/// Kept states are checked: a state past the board's edges, bounds crossed or past its cells, a
/// best move on a drawn edge — refused before anything is written, and refused as damage naming
/// the state when a block holding one is read; a block of no whole number of states, of a part
/// that is neither a build's nor a verification's, or of a board the book does not name makes a
/// writer refuse the book; a state two proofs kept has the bounds both proved.
#[test]
fn kept_states_that_cannot_be_right_are_refused() {
    let built = Geometry::Boxes { rows: 2, cols: 2 }.build().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("b.plybook");
    let good = ProvedState {
        state: 0b11,
        range: ValueRange {
            lower: -2,
            upper: 2,
        },
        best: Some(5),
        free: 10,
    };
    let book = BookFile::open(&path, true, true).unwrap();
    book.replace_unfinished(&built, Unfinished::Build, 1, &[good])
        .unwrap();
    // Kept by another proof too, narrower: met.
    let narrower = ProvedState {
        range: ValueRange { lower: 0, upper: 4 },
        best: None,
        ..good
    };
    book.replace_unfinished(&built, Unfinished::Build, 2, &[narrower])
        .unwrap();
    let read = book
        .unfinished_of(&built, Unfinished::Build, usize::MAX)
        .unwrap();
    assert_eq!(read.len(), 1);
    assert_eq!(
        (read[0].range, read[0].best, read[0].free),
        (ValueRange { lower: 0, upper: 2 }, Some(5), 10)
    );
    let bad = [
        ProvedState {
            state: 1 << 12,
            ..good
        },
        ProvedState {
            range: ValueRange { lower: 2, upper: 0 },
            ..good
        },
        ProvedState {
            range: ValueRange {
                lower: -6,
                upper: 0,
            },
            ..good
        },
        ProvedState {
            best: Some(1),
            ..good
        },
        ProvedState { free: 9, ..good },
    ];
    for (p, why) in bad.into_iter().zip([
        "unfinished state 0x1000: edges past the board's",
        "unfinished state 0x3: bounds 2..0 with 4 cells open",
        "unfinished state 0x3: bounds -6..0 with 4 cells open",
        "unfinished state 0x3: a best move that is not a free edge",
        "unfinished state 0x3: 9 free edges said of one with 10",
    ]) {
        match book.replace_unfinished(&built, Unfinished::Build, 3, &[good, p]) {
            Err(BookError::Io(_, found)) => assert_eq!(found, why),
            other => panic!("{p:?}: {other:?}"),
        }
    }
    assert_eq!(
        book.unfinished_count("boxes-2x2", Unfinished::Build)
            .unwrap(),
        2
    );
    drop(book);
    // A block's bytes: the state, lower, upper 2, best, free.
    let block_of = |state: u64, lower: i8, best: u8, free: u8| {
        let mut bytes = state.to_le_bytes().to_vec();
        bytes.extend([lower as u8, 2, best, free]);
        bytes
    };
    let block = |lower, best, free| block_of(0b11, lower, best, free);
    let with = |name: &str, sql: &str, value: Vec<u8>| {
        let copy = dir.path().join(format!("{name}.plybook"));
        std::fs::copy(&path, &copy).unwrap();
        let conn = rusqlite::Connection::open(&copy).unwrap();
        conn.execute(sql, [value]).unwrap();
        copy
    };
    let set = "UPDATE unfinished_blocks SET states = ?1 WHERE root = 1";
    for (name, bytes, why) in [
        (
            "lower",
            block(3, 5, 10),
            "unfinished state 0x3: bounds 3..2 with 4 cells open",
        ),
        (
            "best",
            block(0, 0, 10),
            "unfinished state 0x3: a best move that is not a free edge",
        ),
        (
            "free",
            block(0, 5, 11),
            "unfinished state 0x3: 11 free edges said of one with 10",
        ),
        (
            "past",
            block_of(1 << 12, 0, 255, 11),
            "unfinished state 0x1000: edges past the board's",
        ),
        (
            "cells",
            block(-6, 5, 10),
            "unfinished state 0x3: bounds -6..2 with 4 cells open",
        ),
    ] {
        let copy = with(name, set, bytes);
        // Opened to write (its blocks' states are read when a build reads them).
        let book = BookFile::open(&copy, true, false).unwrap();
        match book.unfinished_of(&built, Unfinished::Build, usize::MAX) {
            Err(BookError::Damaged(_, found)) => assert_eq!(found, why),
            other => panic!("{name}: {other:?}"),
        }
    }
    let mut long = block(0, 5, 10);
    long.push(0);
    for (name, sql, value, why) in [
        (
            "length",
            set,
            long,
            "kept block 0 of position 0x1: 13 bytes, not a whole number of states",
        ),
        (
            "stray",
            "UPDATE unfinished_blocks SET board = 'boxes-9x9' || ?1 WHERE root = 2",
            vec![],
            "unfinished states of the board `boxes-9x9`, which its boards table does not name",
        ),
    ] {
        let copy = with(name, sql, value);
        assert_eq!(
            BookFile::open(&copy, true, false)
                .err()
                .unwrap()
                .to_string(),
            format!("`{}`: damaged book: {why}", copy.display()),
            "{name}"
        );
    }
    // Text in place of a block's bytes, in a table made without STRICT (which would refuse it).
    let text = dir.path().join("text.plybook");
    std::fs::copy(&path, &text).unwrap();
    rusqlite::Connection::open(&text)
        .unwrap()
        .execute_batch(
            "ALTER TABLE unfinished_blocks RENAME TO strict_blocks;
             CREATE TABLE unfinished_blocks (board TEXT NOT NULL, part TEXT NOT NULL,
                 root INTEGER NOT NULL, block INTEGER NOT NULL, states BLOB NOT NULL,
                 PRIMARY KEY (board, part, root, block));
             INSERT INTO unfinished_blocks SELECT * FROM strict_blocks;
             DROP TABLE strict_blocks;
             UPDATE unfinished_blocks SET states = 'not bytes' WHERE root = 1;",
        )
        .unwrap();
    assert_eq!(
        BookFile::open(&text, true, false)
            .err()
            .unwrap()
            .to_string(),
        format!(
            "`{}`: damaged book: kept block 0 of position 0x1: its states are not bytes",
            text.display()
        )
    );
    // A part this version does not know (a later version's) is left alone: not read, not
    // counted, not refused.
    let later = with(
        "later",
        "UPDATE unfinished_blocks SET part = 'later' || ?1 WHERE root = 1",
        vec![],
    );
    let book = BookFile::open(&later, true, false).unwrap();
    assert_eq!(
        book.unfinished_count("boxes-2x2", Unfinished::Build)
            .unwrap(),
        1
    );
    let read = book
        .unfinished_of(&built, Unfinished::Build, usize::MAX)
        .unwrap();
    assert_eq!(
        read.iter().map(|p| (p.state, p.range)).collect::<Vec<_>>(),
        vec![(0b11, ValueRange { lower: 0, upper: 4 })]
    );
}

/// An older version's rows (a table `unfinished` of a row a state) are read, checked whole when a
/// writer opens the book, left by a clear (they may be another proof's) and deleted at the
/// board's next keep in blocks.
#[test]
fn an_older_versions_kept_rows_are_read() {
    let built = Geometry::Boxes { rows: 2, cols: 2 }.build().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("b.plybook");
    drop(BookFile::open(&path, true, true).unwrap());
    let old = |path: &std::path::Path, lower: i32, best: &str| {
        rusqlite::Connection::open(path)
            .unwrap()
            .execute_batch(&format!(
                "INSERT INTO boards VALUES ('boxes-2x2', '{}');
                 CREATE TABLE unfinished (board TEXT NOT NULL, state INTEGER NOT NULL,
                 lower INTEGER NOT NULL, upper INTEGER NOT NULL, best INTEGER, root INTEGER,
                 PRIMARY KEY (board, state)) STRICT, WITHOUT ROWID;
                 INSERT INTO unfinished VALUES ('boxes-2x2', 64, {lower}, 2, {best}, 5);",
                plysolve::games::dots::book::store::edge_order(&built)
            ))
            .unwrap()
    };
    old(&path, -2, "NULL");
    let book = BookFile::open(&path, true, false).unwrap();
    let read = book
        .unfinished_of(&built, Unfinished::Build, usize::MAX)
        .unwrap();
    assert_eq!(
        read.iter()
            .map(|p| (p.state, p.range, p.free))
            .collect::<Vec<_>>(),
        vec![(
            64,
            ValueRange {
                lower: -2,
                upper: 2
            },
            11
        )]
    );
    assert_eq!(
        book.unfinished_count("boxes-2x2", Unfinished::Build)
            .unwrap(),
        1
    );
    book.clear_unfinished(&built, Unfinished::Build, 77)
        .unwrap();
    assert_eq!(rows_of(&path, "unfinished"), 1);
    let state = ProvedState {
        state: 0b11,
        range: ValueRange { lower: 0, upper: 0 },
        best: None,
        free: 10,
    };
    book.replace_unfinished(&built, Unfinished::Build, 7, &[state])
        .unwrap();
    assert_eq!(
        book.unfinished_of(&built, Unfinished::Build, usize::MAX)
            .unwrap(),
        vec![state]
    );
    assert_eq!(rows_of(&path, "unfinished"), 0);
    drop(book);
    for (name, lower, best, why) in [
        (
            "bounds",
            3,
            "NULL",
            "unfinished state 0x40: bounds 3..2 with 4 cells open",
        ),
        (
            "best",
            -2,
            "1000000000000",
            "unfinished state 0x40: its best move 1000000000000 is no edge",
        ),
    ] {
        let bad = dir.path().join(format!("{name}.plybook"));
        drop(BookFile::open(&bad, true, true).unwrap());
        old(&bad, lower, best);
        assert_eq!(
            BookFile::open(&bad, true, false).err().unwrap().to_string(),
            format!("`{}`: damaged book: {why}", bad.display())
        );
    }
}

/// A keep of more states than a block holds is cut into blocks and read back whole.
#[test]
fn a_keep_of_many_states_is_read_back_whole() {
    let built = Geometry::Boxes { rows: 4, cols: 4 }.build().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("b.plybook");
    let book = BookFile::open(&path, true, true).unwrap();
    let states: Vec<ProvedState> = (0..BLOCK_STATES as u64 + 5)
        .map(|i| ProvedState {
            state: i << 3,
            range: ValueRange { lower: 0, upper: 0 },
            best: (i % 3 == 0).then_some(0),
            free: 40 - i.count_ones(),
        })
        .collect();
    book.replace_unfinished(&built, Unfinished::Check, 9, &states)
        .unwrap();
    assert_eq!(
        book.unfinished_count("boxes-4x4", Unfinished::Check)
            .unwrap(),
        BLOCK_STATES as u64 + 5
    );
    assert_eq!(
        book.unfinished_count("boxes-4x4", Unfinished::Build)
            .unwrap(),
        0
    );
    assert!(
        book.unfinished_of(&built, Unfinished::Check, usize::MAX)
            .unwrap()
            == states
    );
    assert_eq!(kept_of(&path, "check"), BLOCK_STATES as i64 + 5);
}

/// The 4×4 position of 31 free edges above (−2, 3.5 million states), proved into a new book at
/// `path` (a build of no depth), its work kept as `keep` says.
fn build_kept(path: &std::path::Path, keep: Option<Keeping<'_>>) -> BookEntry {
    let built = Geometry::Boxes { rows: 4, cols: 4 }.build().unwrap();
    let start = position_from_moves(
        &built.board,
        "17-18 8-13 2-3 14-19 18-19 9-14 12-17 16-21 3-8",
    )
    .unwrap()
    .drawn();
    let halt = Halt::never();
    let options = BuildOptions {
        budget: MemoryBudget::new(256 << 20),
        keep,
        ..crate::dots_book::build_options(0, &halt)
    };
    let book = BookFile::open(path, true, true).unwrap();
    let mut seen = Vec::new();
    build(&book, &built, &[start], options, &mut |e| {
        seen.push(e.entry.clone())
    })
    .unwrap();
    seen.pop().unwrap()
}

/// The rows of `table` in the book at `path` (none when it has no such table).
fn rows_of(path: &std::path::Path, table: &str) -> i64 {
    rusqlite::Connection::open(path)
        .unwrap()
        .query_row(&format!("SELECT count(*) FROM {table}"), [], |r| r.get(0))
        .unwrap_or(0)
}

/// The states the book at `path` keeps as the part `part` (`build`, `check`), by its blocks'
/// lengths (none when it has no blocks).
fn kept_of(path: &std::path::Path, part: &str) -> i64 {
    rusqlite::Connection::open(path)
        .unwrap()
        .query_row(
            "SELECT coalesce(sum(length(states)), 0) / 12 FROM unfinished_blocks WHERE part = ?1",
            [part],
            |r| r.get(0),
        )
        .unwrap_or(0)
}

/// Keeping every 50 ms, told of each keep: the states kept as each keep is told, read from the
/// book (while the proof goes on), and what was told.
struct Told {
    path: std::path::PathBuf,
    part: &'static str,
    seen: std::sync::Mutex<Vec<(KeepEvent, i64)>>,
}

impl Told {
    fn new(path: &std::path::Path, part: &'static str) -> Self {
        Told {
            path: path.to_path_buf(),
            part,
            seen: std::sync::Mutex::new(Vec::new()),
        }
    }

    fn tell(&self, event: &KeepEvent) {
        let rows = kept_of(&self.path, self.part);
        // As a build reads them: each state once.
        let built = Geometry::Boxes { rows: 4, cols: 4 }.build().unwrap();
        let part = match self.part {
            "build" => Unfinished::Build,
            _ => Unfinished::Check,
        };
        let read = BookFile::open(&self.path, false, false)
            .unwrap()
            .unfinished_of(&built, part, usize::MAX)
            .unwrap()
            .len() as i64;
        assert_eq!(read, rows, "a state kept twice");
        self.seen.lock().unwrap().push((event.clone(), rows));
    }

    /// Checks what was told: at least one keep, every one succeeded, all its states in the book
    /// as it was told (each state once: a state held twice in the table is read once), one of
    /// over a thousand states (the first, on a slow machine, may come before the search has
    /// proved anything).
    fn check_kept(&self) {
        let kept: Vec<(usize, i64)> = self
            .seen
            .lock()
            .unwrap()
            .iter()
            .map(|(e, rows)| match e {
                KeepEvent::Kept { states, .. } => (*states, *rows),
                KeepEvent::Failed(why) => panic!("a keep failed: {why}"),
            })
            .collect();
        assert!(
            kept.iter().all(|&(states, rows)| rows == states as i64),
            "{kept:?}"
        );
        assert!(kept.iter().any(|&(states, _)| states > 1_000), "{kept:?}");
    }
}

/// A verification of no time limit in 256 MiB, resuming if `resume`, keeping as `keep` says.
fn verify_options(resume: bool, keep: Option<Keeping<'_>>) -> VerifyOptions<'_> {
    VerifyOptions {
        budget: MemoryBudget::new(256 << 20),
        keep,
        ..crate::dots_book::verify_options(None, resume)
    }
}

/// A long proof keeps what its search has proved every `keep.every` while it runs, not only when
/// stopped: each keep puts in the book, in place of the last, the states it tells of (what a build
/// killed outright leaves), each below the position; once the position is proved and written,
/// what its proof kept is forgotten. A build not asked to keep keeps nothing.
#[test]
fn a_long_proof_keeps_its_work_as_it_goes() {
    let built = Geometry::Boxes { rows: 4, cols: 4 }.build().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("kept.plybook");
    let told = Told::new(&path, "build");
    let tell = |e: &KeepEvent| told.tell(e);
    let keep = Keeping {
        every: std::time::Duration::from_millis(50),
        told: Some(&tell),
    };
    let entry = build_kept(&path, Some(keep));
    assert_eq!(entry.value(), Some(-2));
    told.check_kept();
    let book = BookFile::open(&path, false, false).unwrap();
    assert_eq!(
        book.unfinished_of(&built, Unfinished::Build, usize::MAX)
            .unwrap(),
        vec![]
    );
    assert_eq!(kept_of(&path, "check"), 0);
    let plain = dir.path().join("plain.plybook");
    assert_eq!(build_kept(&plain, None).value(), Some(-2));
    assert_eq!(kept_of(&plain, "build"), 0);
}

/// The same of a verification's second proof: kept as it goes, in `unfinished_checks` only.
#[test]
fn a_long_second_proof_keeps_its_work_as_it_goes() {
    let built = Geometry::Boxes { rows: 4, cols: 4 }.build().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("b.plybook");
    assert_eq!(build_kept(&path, None).value(), Some(-2));
    let told = Told::new(&path, "check");
    let tell = |e: &KeepEvent| told.tell(e);
    let book = BookFile::open(&path, true, false).unwrap();
    let keep = Keeping {
        every: std::time::Duration::from_millis(50),
        told: Some(&tell),
    };
    let entries = book.entries_of(&built).unwrap();
    let found = verify(
        &book,
        &built,
        &entries,
        verify_options(false, Some(keep)),
        &mut |_, _| {},
    )
    .unwrap();
    assert_eq!(found.agreed, 1);
    told.check_kept();
    assert_eq!(kept_of(&path, "check"), 0);
    assert_eq!(kept_of(&path, "build"), 0);
}

/// A verification starts from its own kind's kept work only: bounds kept by second proofs
/// (`unfinished_checks`) are met by a resumed one — a false bound of the position there makes its
/// second proof disagree — while what a build kept (`unfinished`) is never read by a second proof,
/// which then proves the value on its own; without `resume` neither is read.
#[test]
fn a_second_proof_starts_only_from_second_proofs() {
    let built = Geometry::Boxes { rows: 4, cols: 4 }.build().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let proved = dir.path().join("proved.plybook");
    let entry = build_kept(&proved, None);
    assert_eq!(entry.value(), Some(-2));
    // The position's own state, claimed to be +2.
    let root = entry.key;
    let false_bound = ProvedState {
        state: root,
        range: ValueRange { lower: 2, upper: 2 },
        best: None,
        free: 31,
    };
    let verified = |part: Unfinished, resume: bool| {
        let path = dir.path().join(format!("{part:?}{resume}.plybook"));
        std::fs::copy(&proved, &path).unwrap();
        let book = BookFile::open(&path, true, false).unwrap();
        book.replace_unfinished(&built, part, root, &[false_bound])
            .unwrap();
        let entries = book.entries_of(&built).unwrap();
        let found = verify(
            &book,
            &built,
            &entries,
            verify_options(resume, None),
            &mut |_, _| {},
        )
        .unwrap();
        (found.agreed, found.disagreements.len())
    };
    assert_eq!(verified(Unfinished::Check, true), (0, 1));
    assert_eq!(verified(Unfinished::Build, true), (1, 0));
    assert_eq!(verified(Unfinished::Check, false), (1, 0));
}

/// Each proof keeps its own: a keep replaces what the proof of the same position kept, never
/// another position's — two builds of one board into one book keep both; a proof done forgets its
/// own; a verification's are apart.
#[test]
fn each_proof_replaces_only_what_it_kept() {
    let built = Geometry::Boxes { rows: 2, cols: 2 }.build().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("b.plybook");
    let state = |bits: u64| ProvedState {
        state: bits,
        range: ValueRange {
            lower: -2,
            upper: 2,
        },
        best: None,
        free: 12 - bits.count_ones(),
    };
    let book = BookFile::open(&path, true, true).unwrap();
    let held = |book: &BookFile, part| {
        book.unfinished_of(&built, part, usize::MAX)
            .unwrap()
            .iter()
            .map(|p| p.state)
            .collect::<Vec<u64>>()
    };
    let (a, b) = (1u64, 2u64);
    book.replace_unfinished(&built, Unfinished::Build, a, &[state(0b11), state(0b111)])
        .unwrap();
    book.replace_unfinished(&built, Unfinished::Build, b, &[state(0b1010)])
        .unwrap();
    assert_eq!(held(&book, Unfinished::Build), vec![0b11, 0b111, 0b1010]);
    book.replace_unfinished(&built, Unfinished::Build, a, &[state(0b1100)])
        .unwrap();
    assert_eq!(held(&book, Unfinished::Build), vec![0b1010, 0b1100]);
    book.replace_unfinished(&built, Unfinished::Check, a, &[state(0b1)])
        .unwrap();
    book.clear_unfinished(&built, Unfinished::Build, b).unwrap();
    assert_eq!(held(&book, Unfinished::Build), vec![0b1100]);
    assert_eq!(held(&book, Unfinished::Check), vec![0b1]);
    book.clear_unfinished(&built, Unfinished::Check, a).unwrap();
    assert_eq!(held(&book, Unfinished::Check), Vec::<u64>::new());
    assert_eq!(held(&book, Unfinished::Build), vec![0b1100]);
    // A clear of a book that keeps nothing makes no table.
    let empty = dir.path().join("empty.plybook");
    let book = BookFile::open(&empty, true, true).unwrap();
    book.clear_unfinished(&built, Unfinished::Check, a).unwrap();
    assert_eq!(
        rows_of(&empty, "sqlite_schema WHERE name = 'unfinished_blocks'"),
        0
    );
}

/// A keep whose position is settled — a build's whose entry is exact, a verification's whose entry
/// is checked — is forgotten as a build or a verification starts, whoever settled it; the others
/// stay. A reader asked for fewer states than a book keeps reads that many, each keep's first
/// blocks first.
#[test]
fn keeps_of_settled_positions_are_forgotten() {
    let built = Geometry::Boxes { rows: 2, cols: 2 }.build().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let book = BookFile::open(&dir.path().join("b.plybook"), true, true).unwrap();
    let halt = Halt::never();
    let mut entries = Vec::new();
    build(
        &book,
        &built,
        &[EdgeSet(0)],
        crate::dots_book::build_options(0, &halt),
        &mut |e| entries.push(e.entry.clone()),
    )
    .unwrap();
    // The empty board, exact and not checked; another position, not in the book.
    let (settled, open) = (entries[0].key, 0b1);
    let state = |bits: u64| ProvedState {
        state: bits,
        range: ValueRange {
            lower: -4,
            upper: 4,
        },
        best: None,
        free: 12 - bits.count_ones(),
    };
    for part in [Unfinished::Build, Unfinished::Check] {
        book.replace_unfinished(&built, part, settled, &[state(0b11)])
            .unwrap();
        book.replace_unfinished(&built, part, open, &[state(0b101), state(0b110)])
            .unwrap();
    }
    book.forget_settled(&built).unwrap();
    let count = |part| book.unfinished_count("boxes-2x2", part).unwrap();
    assert_eq!((count(Unfinished::Build), count(Unfinished::Check)), (2, 3));
    // Told of the entry as its second proof starts.
    let started = std::cell::RefCell::new(Vec::new());
    let starting = |e: &BookEntry| started.borrow_mut().push(e.key);
    let options = VerifyOptions {
        starting: Some(&starting),
        ..verify_options(false, None)
    };
    let found = verify(&book, &built, &entries, options, &mut |_, _| {}).unwrap();
    assert_eq!(found.agreed, 1);
    assert_eq!(started.into_inner(), vec![settled]);
    book.forget_settled(&built).unwrap();
    assert_eq!((count(Unfinished::Build), count(Unfinished::Check)), (2, 2));
    // One state asked for: the first of the first block.
    assert_eq!(
        book.unfinished_of(&built, Unfinished::Check, 1).unwrap(),
        vec![state(0b101)]
    );
}
