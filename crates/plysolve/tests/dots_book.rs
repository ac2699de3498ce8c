//! The book of proved positions (`games::dots::book`) against whole tables: every entry a build
//! writes (every position up to two moves on small boards, every position of the smallest boards)
//! is exact and equal to the whole table's value of the position its key stands for, and every
//! best move it records is a best move by the table (Wilson's rule: a move scoring `k > 0` is worth
//! `k + v(child)`, any other `-v(child)`); the key scheme against an independent implementation of
//! its documented definition (the smallest twin normal form over the board's symmetries) and moves
//! taken to the key's frame and back; the file's refusals (empty, garbage, another application's
//! SQLite, a newer format, a damaged file, rows that cannot be right, another edge order), each one
//! line naming the file and the fault; `put` meeting bounds and refusing a conflict; two writers on
//! one file (WAL); a build under a tiny time per position leaving bounds that hold, and resuming;
//! `verify` against forged entries; answers and searches with a book against the same without one
//! and against the tables.

use plysolve::engine::scored::search::{SearchOptions, SearchSolver, TieOrder};
use plysolve::engine::scored::table::SubsetTable;
use plysolve::engine::scored::{SolveError, Solver, Strategy, SubsetIndexed, ValueRange};
use plysolve::engine::util::halt::{Halt, NEVER};
use plysolve::engine::util::progress::Watch;
use plysolve::engine::MemoryBudget;
use plysolve::games::dots::answer::{answer, Hooks};
use plysolve::games::dots::book::build::{
    build, leaves, verify, BuildError, BuildOptions, Plan, Verified, VerifyOptions, POSITION_BYTES,
};
use plysolve::games::dots::book::key::KeyScheme;
use plysolve::games::dots::book::ops;
use plysolve::games::dots::book::store::{position_text, APPLICATION_ID, FORMAT};
use plysolve::games::dots::book::{BoardBook, BookEntry, BookError, BookFile, Books};
use plysolve::games::dots::geometry::BuiltBoard;
use plysolve::games::dots::kept::Kept;
use plysolve::games::dots::notation::format_edge;
use plysolve::games::dots::policy::Policy;
use plysolve::games::dots::request::DotsRequest;
use plysolve::games::dots::{DotsBoard, Edge, EdgeSet, Geometry};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

const TRIANGLES_2: Geometry = Geometry::Triangles { size: 2 };
const TRIANGLES_3: Geometry = Geometry::Triangles { size: 3 };
const BOXES_2X2: Geometry = Geometry::Boxes { rows: 2, cols: 2 };
const BOXES_2X3: Geometry = Geometry::Boxes { rows: 2, cols: 3 };
const BOXES_3X3: Geometry = Geometry::Boxes { rows: 3, cols: 3 };
/// Distinct positions (up to symmetry and twins) after 1 and 2 moves on 3×3 boxes.
const LEAVES_3X3_1: usize = 4;
const LEAVES_3X3_2: usize = 32;

fn budget() -> MemoryBudget {
    MemoryBudget::new(1 << 30)
}

/// A build of `depth` moves, no time limit, the low-first tie order, stopped by `halt`.
/// The number of positions a build of `depth` moves from `starts` lists ([`Plan`]).
fn count(built: &BuiltBoard, starts: &[EdgeSet], depth: u32, budget: MemoryBudget) -> usize {
    Plan::list(built, starts, depth, budget, &Halt::never(), None)
        .unwrap()
        .len()
}

pub(crate) fn build_options(depth: u32, halt: &Halt) -> BuildOptions<'_> {
    BuildOptions {
        depth,
        time_per_position: None,
        tie_order: TieOrder::LowFirst,
        budget: budget(),
        halt,
        progress: None,
        keep: None,
    }
}

/// A verification within `time` an entry, resuming one stopped if `resume`.
pub(crate) fn verify_options(time: Option<Duration>, resume: bool) -> VerifyOptions<'static> {
    VerifyOptions {
        time,
        budget: budget(),
        resume,
        halt: &NEVER,
        progress: None,
        starting: None,
        keep: None,
    }
}

/// What a verification of `entries` (no time limit, resuming if `resume`) found, told nothing.
fn verify_all(
    book: &BookFile,
    built: &BuiltBoard,
    entries: &[BookEntry],
    resume: bool,
) -> Verified {
    verify(
        book,
        built,
        entries,
        verify_options(None, resume),
        &mut |_, _| {},
    )
    .unwrap()
}

/// Who checked the entry of `key` on `board` in `file` (it must hold one).
fn checked_by(file: &BookFile, board: &str, key: u64) -> Option<String> {
    file.get(board, key).unwrap().unwrap().checked_by
}

/// A directory of its own in the temp directory (short, so messages quote paths whole), removed
/// when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new() -> Self {
        static COUNT: AtomicUsize = AtomicUsize::new(0);
        let n = COUNT.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("plyb-{}-{n}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// How messages name the file at `path` (whole: the test paths are short).
fn named(path: &Path) -> String {
    let quoted = plysolve::input::quote(&path.display().to_string());
    assert!(!quoted.contains('…'), "{quoted} is cut: use a shorter path");
    quoted
}

fn built(geometry: Geometry) -> BuiltBoard {
    geometry.build().unwrap()
}

/// The board's whole table: the reference every book entry is checked against.
fn whole_table(board: &DotsBoard) -> SubsetTable {
    SubsetTable::build(board, budget(), Watch::default()).unwrap()
}

fn free_edges(board: &DotsBoard, drawn: EdgeSet) -> Vec<Edge> {
    (0..board.edge_count())
        .map(|e| Edge(e as u8))
        .filter(|&e| !drawn.contains(e))
        .collect()
}

/// Cells that drawing `e` completes in `drawn`, from the cells' edges.
fn points(board: &DotsBoard, drawn: EdgeSet, e: Edge) -> u32 {
    (0..board.cell_count())
        .filter(|&c| {
            let edges = board.cell_edges(c);
            edges.contains(&e) && edges.iter().all(|&f| f == e || drawn.contains(f))
        })
        .count() as u32
}

/// Wilson's rule: the value of drawing `e` in `drawn` by the whole table.
fn move_worth(table: &SubsetTable, board: &DotsBoard, drawn: EdgeSet, e: Edge) -> i32 {
    let k = points(board, drawn, e) as i32;
    let child = table.value_of_mask(drawn.with(e).0);
    if k > 0 {
        k + child
    } else {
        -child
    }
}

/// The free edge of `drawn` named `name`.
fn edge_named(board: &DotsBoard, drawn: EdgeSet, name: &str) -> Edge {
    free_edges(board, drawn)
        .into_iter()
        .find(|&e| format_edge(board, e) == name)
        .unwrap_or_else(|| panic!("{name} is no free edge of {drawn:?}"))
}

fn build_into(
    book: &BookFile,
    built: &BuiltBoard,
    depth: u32,
    time: Option<Duration>,
    tie_order: TieOrder,
) -> Vec<BookEntry> {
    let halt = Halt::never();
    let options = BuildOptions {
        depth,
        time_per_position: time,
        tie_order,
        budget: budget(),
        halt: &halt,
        progress: None,
        keep: None,
    };
    build(book, built, &[EdgeSet(0)], options, &mut |_| {}).unwrap()
}

/// A book of every position up to `depth` moves on `geometry`'s board, at `path`.
fn built_book(path: &Path, geometry: Geometry, depth: u32) -> Vec<BookEntry> {
    let book = BookFile::open(path, true, true).unwrap();
    build_into(&book, &built(geometry), depth, None, TieOrder::LowFirst)
}

/// Every set of at most `depth` of the board's `edges` edges.
fn positions_up_to(edges: u32, depth: u32) -> Vec<EdgeSet> {
    let mut found = vec![EdgeSet(0)];
    let mut level = vec![EdgeSet(0)];
    for _ in 0..depth {
        let mut next = HashSet::new();
        for drawn in &level {
            for e in 0..edges {
                if drawn.0 >> e & 1 == 0 {
                    next.insert(EdgeSet(drawn.0 | 1 << e));
                }
            }
        }
        level = next.into_iter().collect();
        level.sort_by_key(|s| s.0);
        found.extend(&level);
    }
    found
}

/// A random position of `drawn` edges.
fn random_position(rng: &mut Xoshiro256PlusPlus, board: &DotsBoard, drawn: usize) -> EdgeSet {
    let mut order: Vec<u32> = (0..board.edge_count() as u32).collect();
    order.shuffle(rng);
    EdgeSet(order[..drawn].iter().fold(0, |m, &e| m | 1 << e))
}

/// The documented key, implemented apart: twins are edges lying in the same cells; the twin
/// normal form draws the lowest of each group; the key is the smallest normal form among the
/// position's images under the board's symmetries, the identity included.
fn documented_key(board: &DotsBoard, drawn: u64) -> u64 {
    let cells_of = |e: usize| -> Vec<usize> {
        (0..board.cell_count())
            .filter(|&c| board.cell_edges(c).contains(&Edge(e as u8)))
            .collect()
    };
    let mut groups: Vec<u64> = Vec::new();
    for e in 0..board.edge_count() {
        let group = (0..board.edge_count())
            .filter(|&f| cells_of(f) == cells_of(e))
            .fold(0u64, |g, f| g | 1 << f);
        if group.count_ones() >= 2 && !groups.contains(&group) {
            groups.push(group);
        }
    }
    let normal = |mut m: u64| {
        for &g in &groups {
            let n = (m & g).count_ones();
            m &= !g;
            let mut rest = g;
            for _ in 0..n {
                m |= rest & rest.wrapping_neg();
                rest &= rest - 1;
            }
        }
        m
    };
    let mut best = normal(drawn);
    if let Some(s) = board.symmetries() {
        for i in 0..s.order() - 1 {
            best = best.min(normal(s.image(i, drawn)));
        }
    }
    best
}

/// Checks a book of every position up to `depth` moves of `geometry`'s board against its whole
/// table: each position's key has an exact entry of the table's value, with a best move that is
/// one by the table, in the key's frame and (looked up) in the position's own; no other entries.
fn check_book(geometry: Geometry, depth: u32, empty_value: i32) {
    let scratch = Scratch::new();
    let path = scratch.path("b.book");
    let built = built(geometry);
    let board = &built.board;
    let table = whole_table(board);
    assert_eq!(table.value_of_mask(0), empty_value, "{geometry:?}");
    let written = built_book(&path, geometry, depth);
    let book = BookFile::open(&path, false, false).unwrap();
    let entries = book.entries_of(&built).unwrap();
    assert_eq!(written.len(), entries.len());
    assert_eq!(entries.len(), count(&built, &[EdgeSet(0)], depth, budget()));
    let by_key: HashMap<u64, &BookEntry> = entries.iter().map(|e| (e.key, e)).collect();
    assert_eq!(by_key.len(), entries.len(), "one entry per key");
    let edges = board.edge_count() as u32;
    // Each entry: exact, the table's value of its key's position, a best move that is one.
    for entry in &entries {
        assert_eq!(entry.board, geometry.slug());
        let drawn = EdgeSet(entry.key);
        let value = table.value_of_mask(entry.key);
        assert_eq!(entry.value(), Some(value), "{geometry:?} {:#x}", entry.key);
        assert_eq!(entry.free, edges - drawn.len());
        assert!(entry.proved_by.starts_with("ply "), "{}", entry.proved_by);
        match &entry.best {
            Some(best) => {
                let e = edge_named(board, drawn, best);
                assert_eq!(
                    move_worth(&table, board, drawn, e),
                    value,
                    "{geometry:?} {:#x}: {best} is not best",
                    entry.key
                );
            }
            None => assert_eq!(entry.free, 0, "{geometry:?} {:#x}: no best", entry.key),
        }
    }
    // Every position up to `depth` moves: its key's entry holds its value, and the best move the
    // index gives (in the position's frame) is a best move of the position itself.
    let index = Books::asked(false, Some(&path), false)
        .unwrap()
        .board(&built)
        .unwrap();
    assert_eq!(index.len(), entries.len());
    let scheme = KeyScheme::new(board);
    let mut keys = HashSet::new();
    for drawn in positions_up_to(edges, depth) {
        let value = table.value_of_mask(drawn.0);
        let key = scheme.key(drawn).key;
        keys.insert(key);
        let entry = by_key
            .get(&key)
            .unwrap_or_else(|| panic!("{geometry:?}: {drawn:?} (key {key:#x}) not in the book"));
        assert_eq!(entry.value(), Some(value), "{geometry:?} {drawn:?}");
        assert_eq!(entry.free, edges - drawn.len());
        let (range, best) = index.lookup(drawn).unwrap();
        assert_eq!(range, ValueRange::exact(value));
        if drawn.len() < edges {
            let best = best.unwrap();
            assert!(!drawn.contains(best));
            assert_eq!(
                move_worth(&table, board, drawn, best),
                value,
                "{geometry:?} {drawn:?}: {} is not best",
                format_edge(board, best)
            );
        }
    }
    assert_eq!(keys.len(), entries.len(), "no entry but the positions'");
}

#[test]
fn whole_games_of_the_smallest_boards_are_exact_with_best_moves() {
    check_book(TRIANGLES_2, 9, -2);
    check_book(BOXES_2X2, 12, 2);
}

#[test]
fn every_position_up_to_two_moves_is_exact_with_best_moves() {
    check_book(TRIANGLES_3, 2, -3);
    check_book(BOXES_2X3, 2, -2);
    check_book(BOXES_3X3, 2, -3);
}

/// The position `moves` (as [`leaves`] lists them) reach after `start`.
fn played(board: &DotsBoard, start: EdgeSet, moves: &[String]) -> EdgeSet {
    moves.iter().fold(start, |drawn, name| {
        let e = edge_named(board, drawn, name);
        EdgeSet(drawn.0 | 1 << e.0)
    })
}

#[test]
fn a_builds_leaves_are_its_deepest_positions_each_once_with_moves_reaching_them() {
    let built = built(BOXES_3X3);
    let board = &built.board;
    let scheme = KeyScheme::new(board);
    let start = EdgeSet(0);
    // Positions up to symmetry and twins after 1 and 2 moves, as the build counts them.
    for (depth, distinct) in [(1, LEAVES_3X3_1), (2, LEAVES_3X3_2)] {
        let listed = leaves(&built, start, depth, budget()).unwrap();
        assert_eq!(listed.len(), distinct, "depth {depth}");
        assert_eq!(
            listed.len(),
            count(&built, &[start], depth, budget()) - count(&built, &[start], depth - 1, budget())
        );
        let keys: HashSet<u64> = listed.iter().map(|l| l.key).collect();
        assert_eq!(keys.len(), listed.len(), "each position once");
        let every: HashSet<u64> = positions_up_to(24, depth)
            .into_iter()
            .filter(|drawn| drawn.len() == depth)
            .map(|drawn| scheme.key(drawn).key)
            .collect();
        assert_eq!(
            keys, every,
            "depth {depth}: every position {depth} moves on"
        );
        for leaf in &listed {
            assert_eq!((leaf.board.as_str(), leaf.free), ("boxes-3x3", 24 - depth));
            assert_eq!(leaf.moves.len(), depth as usize);
            assert_eq!(scheme.key(played(board, start, &leaf.moves)).key, leaf.key);
        }
    }
    // From a start with moves: the moves are those after it; a game over before the depth is a
    // leaf too (the 2×2 board with one edge left: one leaf, the full board, at any depth).
    let small = self::built(BOXES_2X2);
    let last = Edge(5);
    let start = EdgeSet(((1u64 << 12) - 1) & !(1 << last.0));
    for depth in [1, 3] {
        let listed = leaves(&small, start, depth, budget()).unwrap();
        assert_eq!(listed.len(), 1);
        assert_eq!(listed[0].moves, vec![format_edge(&small.board, last)]);
        assert_eq!((listed[0].free, listed[0].key), (0, (1 << 12) - 1));
    }
    assert_eq!(
        leaves(&small, start, 0, budget()).unwrap()[0].moves,
        Vec::<String>::new()
    );
}

/// A build whose positions are more than half its memory holds is refused as its list reaches
/// that many — before it proves or writes anything — and says how many the memory allows; the
/// same build within a larger budget lists them all (3×3 boxes, 4 moves: 938 positions).
#[test]
fn a_build_too_big_for_its_memory_is_refused_before_it_writes_anything() {
    let scratch = Scratch::new();
    let built = built(BOXES_3X3);
    let book = BookFile::open(&scratch.path("small.book"), true, true).unwrap();
    let halt = Halt::never();
    let small = MemoryBudget::new(500 * POSITION_BYTES * 2);
    let options = BuildOptions {
        budget: small,
        ..build_options(4, &halt)
    };
    let refused = build(&book, &built, &[EdgeSet(0)], options, &mut |_| {}).unwrap_err();
    assert!(
        matches!(
            refused,
            BuildError::TooManyPositions {
                depth: 4,
                most: 500,
                ..
            }
        ),
        "{refused}"
    );
    assert_eq!(
        refused.to_string(),
        "a build of 4 moves lists more than 500 positions here (over 156.2 KiB (160000 bytes)), \
         more than half the memory budget of 312.5 KiB (320000 bytes) allows: build fewer moves, \
         or allow more memory"
    );
    assert!(ops::stats(&book).unwrap().is_empty());
    assert!(matches!(
        Plan::list(&built, &[EdgeSet(0)], 4, small, &Halt::never(), None),
        Err(BuildError::TooManyPositions { most: 500, .. })
    ));
    assert!(leaves(&built, EdgeSet(0), 4, small).is_err());
    assert_eq!(count(&built, &[EdgeSet(0)], 4, budget()), 938);
}

/// A listing of many positions tells its count as it grows and stops at its halt.
#[test]
fn a_plan_tells_its_listing_and_stops_at_its_halt() {
    let built = built(BOXES_3X3);
    let told = std::sync::Mutex::new(Vec::new());
    let tell = |n: u64| told.lock().unwrap().push(n);
    let plan = Plan::list(
        &built,
        &[EdgeSet(0)],
        7,
        budget(),
        &Halt::never(),
        Some(&tell),
    )
    .unwrap();
    let told = told.into_inner().unwrap();
    assert!(plan.len() > 1 << 14, "{}", plan.len());
    assert_eq!(told.len(), plan.len() >> 14);
    assert!(
        told.iter().zip(1u64..).all(|(&n, i)| n == i << 14),
        "{told:?}"
    );
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let halted = Plan::list(
        &built,
        &[EdgeSet(0)],
        7,
        budget(),
        &Halt::never().with_flag(stop),
        None,
    );
    assert!(matches!(halted, Err(BuildError::Listing(_))));
    assert_eq!(
        halted.err().unwrap().to_string(),
        "stopped while listing the positions (the solve was cancelled): nothing was proved or written"
    );
}

#[test]
fn a_build_over_its_leaves_proved_apart_equals_the_build_and_searches_nothing() {
    let scratch = Scratch::new();
    let built = built(BOXES_3X3);
    let whole = BookFile::open(&scratch.path("whole.book"), true, true).unwrap();
    let expected = build_into(&whole, &built, 2, None, TieOrder::LowFirst);
    // Each leaf proved by a build of depth 0 of its own, in a book of its own, merged in.
    let apart = BookFile::open(&scratch.path("apart.book"), true, true).unwrap();
    let listed = leaves(&built, EdgeSet(0), 2, budget()).unwrap();
    for (i, leaf) in listed.iter().enumerate() {
        let own = BookFile::open(&scratch.path(&format!("leaf{i}.book")), true, true).unwrap();
        let drawn = played(&built.board, EdgeSet(0), &leaf.moves);
        let halt = Halt::never();
        let options = build_options(0, &halt);
        let proved = build(&own, &built, &[drawn], options, &mut |_| {}).unwrap();
        assert_eq!(proved.len(), 1);
        assert_eq!(proved[0].key, leaf.key);
        ops::merge(&apart, &own).unwrap();
    }
    let (mut found, mut searched) = (0, 0);
    let halt = Halt::never();
    let options = build_options(2, &halt);
    let got = build(&apart, &built, &[EdgeSet(0)], options, &mut |event| {
        found += usize::from(event.found);
        searched += usize::from(!event.found && event.entry.nodes > 0);
    })
    .unwrap();
    assert_eq!((found, searched), (listed.len(), 0));
    let same = |entries: &[BookEntry]| -> Vec<(u64, i32, i32, Option<String>)> {
        let mut v: Vec<_> = entries
            .iter()
            .map(|e| (e.key, e.lower, e.upper, e.best.clone()))
            .collect();
        v.sort();
        v
    };
    assert_eq!(same(&got), same(&expected));
    assert_eq!(got.len(), count(&built, &[EdgeSet(0)], 2, budget()));
}

#[test]
fn keys_are_the_documented_scheme_and_moves_go_to_the_keys_frame_and_back() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(30);
    for geometry in [
        TRIANGLES_3,
        BOXES_2X3,
        BOXES_3X3,
        Geometry::Boxes { rows: 4, cols: 4 },
    ] {
        let built = built(geometry);
        let board = &built.board;
        let scheme = KeyScheme::new(board);
        let symmetries = board.symmetries().unwrap();
        for round in 0..300 {
            let drawn = random_position(&mut rng, board, round % board.edge_count());
            let keyed = scheme.key(drawn);
            assert_eq!(keyed.key, documented_key(board, drawn.0), "{geometry:?}");
            // Its images share its key.
            for i in 0..symmetries.order() - 1 {
                assert_eq!(
                    scheme.key(EdgeSet(symmetries.image(i, drawn.0))).key,
                    keyed.key
                );
            }
            // A move to the key's frame is free there, scores the same and reaches the child's
            // class; back from the frame, a free move of the position reaching it too.
            let at_key = EdgeSet(keyed.key);
            assert_eq!(at_key.len(), drawn.len());
            for m in free_edges(board, drawn) {
                let child = scheme.key(drawn.with(m)).key;
                let framed = scheme.to_key_frame(keyed, m);
                assert!(!at_key.contains(framed), "{geometry:?}");
                assert_eq!(points(board, at_key, framed), points(board, drawn, m));
                assert_eq!(scheme.key(at_key.with(framed)).key, child, "{geometry:?}");
                let back = scheme.from_key_frame(keyed, framed).unwrap();
                assert!(!drawn.contains(back));
                assert_eq!(scheme.key(drawn.with(back)).key, child, "{geometry:?}");
            }
            // A drawn edge of the key's position, or no edge of the board, is no move.
            for e in 0..board.edge_count() as u8 {
                if at_key.contains(Edge(e)) {
                    assert_eq!(scheme.from_key_frame(keyed, Edge(e)), None);
                }
            }
            assert_eq!(scheme.from_key_frame(keyed, Edge(63)), None);
        }
    }
    // Named examples on 3×3 boxes: a corner box's outer edges (twins) and their mirror images
    // share a key; an edge in the middle of a side does not.
    let built = built(BOXES_3X3);
    let board = &built.board;
    let scheme = KeyScheme::new(board);
    let one = |a: u32, b: u32| {
        let e = board.edge_between(a - 1, b - 1).unwrap();
        scheme.key(EdgeSet(0).with(e)).key
    };
    assert_eq!(one(1, 2), one(1, 5));
    assert_eq!(one(1, 2), one(3, 4));
    assert_eq!(one(1, 2), one(13, 14));
    assert_ne!(one(1, 2), one(2, 3));
    assert_eq!(one(2, 3), one(14, 15));
    assert_eq!(scheme.key(EdgeSet(0)).key, 0);
}

/// The one-line message of opening `path` for reading, which must fail.
fn refusal(path: &Path) -> String {
    let message = match BookFile::open(path, false, false) {
        Ok(_) => panic!("{} was opened", path.display()),
        Err(e) => e.to_string(),
    };
    assert!(!message.contains('\n'), "{message}");
    message
}

/// Runs `sql` on the SQLite file at `path`, as another program would.
fn raw_sql(path: &Path, sql: &str) {
    let conn = rusqlite::Connection::open(path).unwrap();
    conn.execute_batch(sql).unwrap();
}

/// A book at `path` with `entries` of the 3×3 boxes board (one transaction each), closed.
fn small_book(path: &Path) -> Vec<BookEntry> {
    built_book(path, BOXES_3X3, 1)
}

#[test]
fn files_that_are_no_books_are_refused_in_one_line() {
    let scratch = Scratch::new();
    // No file, an empty file (read, not made), a directory.
    let missing = scratch.path("none.book");
    assert_eq!(
        refusal(&missing),
        format!("{}: no such book", named(&missing))
    );
    assert!(!missing.exists(), "reading made no file");
    let empty = scratch.path("empty.book");
    std::fs::write(&empty, b"").unwrap();
    assert_eq!(
        refusal(&empty),
        format!("{}: not a ply book (an empty file)", named(&empty))
    );
    let dir = scratch.path("dir.book");
    std::fs::create_dir(&dir).unwrap();
    assert_eq!(refusal(&dir), format!("{}: is a directory", named(&dir)));
    assert_eq!(
        BookFile::open(&dir, true, true).err().unwrap().to_string(),
        format!("{}: is a directory", named(&dir))
    );
    // Garbage, short and long: not SQLite.
    for (name, bytes) in [
        ("short.book", b"not a book\n".to_vec()),
        ("long.book", b"garbage, not a book at all\n".repeat(300)),
    ] {
        let path = scratch.path(name);
        std::fs::write(&path, &bytes).unwrap();
        assert_eq!(
            refusal(&path),
            format!("{}: not a ply book (not an SQLite file)", named(&path))
        );
        // Nor is it taken over for writing: the bytes are left as they were.
        let written = BookFile::open(&path, true, true).err().unwrap().to_string();
        assert_eq!(
            written,
            format!("{}: not a ply book (not an SQLite file)", named(&path))
        );
        assert_eq!(std::fs::read(&path).unwrap(), bytes);
    }
    // Another application's SQLite file, and one of no application with a table.
    let other = scratch.path("other.db");
    raw_sql(
        &other,
        "PRAGMA application_id = 305419896; CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1);",
    );
    assert_eq!(
        refusal(&other),
        format!(
            "{}: not a ply book (application id 0x12345678)",
            named(&other)
        )
    );
    assert!(matches!(
        BookFile::open(&other, true, true),
        Err(BookError::Foreign(..))
    ));
    let plain = scratch.path("plain.db");
    raw_sql(&plain, "CREATE TABLE t (x INTEGER);");
    assert_eq!(
        refusal(&plain),
        format!("{}: not a ply book (application id 0x0)", named(&plain))
    );
    // A book of a newer format, and of none.
    let newer = scratch.path("newer.book");
    small_book(&newer);
    raw_sql(&newer, "PRAGMA user_version = 2;");
    assert_eq!(
        refusal(&newer),
        format!(
            "{}: a ply book of format 2, newer than this ply reads (1); update ply",
            named(&newer)
        )
    );
    assert!(matches!(
        BookFile::open(&newer, true, true),
        Err(BookError::Newer(_, 2))
    ));
    let formatless = scratch.path("zero.book");
    small_book(&formatless);
    raw_sql(&formatless, "PRAGMA user_version = 0;");
    assert_eq!(
        refusal(&formatless),
        format!("{}: not a ply book (format 0)", named(&formatless))
    );
    // The constants the format documents.
    assert_eq!(APPLICATION_ID, 0x706c_7962);
    assert_eq!(FORMAT, 1);
    let fresh = scratch.path("fresh.book");
    small_book(&fresh);
    let conn = rusqlite::Connection::open(&fresh).unwrap();
    let pragma = |name: &str| -> i64 {
        conn.query_row(&format!("PRAGMA {name}"), [], |r| r.get(0))
            .unwrap()
    };
    assert_eq!(pragma("application_id"), 0x706c_7962);
    assert_eq!(pragma("user_version"), 1);
    let mode: String = conn
        .query_row("PRAGMA journal_mode", [], |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "wal");
}

#[test]
fn damaged_books_are_refused_in_one_line() {
    let scratch = Scratch::new();
    // Bytes overwritten past the header: SQLite's check fails, and its first line is quoted.
    let whole = scratch.path("whole.book");
    small_book(&whole);
    let bytes = std::fs::read(&whole).unwrap();
    assert!(bytes.len() >= 4 * 4096, "{} bytes", bytes.len());
    let scribbled = scratch.path("bad.book");
    let mut bad = bytes.clone();
    for b in &mut bad[4096 + 8..4096 + 200] {
        *b = 0xee;
    }
    std::fs::write(&scribbled, &bad).unwrap();
    // SQLite's own words stay out of the message.
    assert_eq!(
        refusal(&scribbled),
        format!(
            "{}: damaged book: its pages do not hold together (SQLite's own check fails)",
            named(&scribbled)
        )
    );
    // Cut in half: refused, one line naming the file and SQLite's fault (see also
    // `a_cut_book_is_called_damaged_not_foreign`).
    let cut = scratch.path("cut.book");
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
    let message = refusal(&cut);
    assert!(
        message.starts_with(&format!("{}: ", named(&cut)))
            && message.ends_with("its pages do not hold together (cut short or overwritten)"),
        "{message}"
    );
    // The bytes of a book, as the shipped ones are read: the same entries; no bytes, refused.
    let built = built(BOXES_3X3);
    let file = BookFile::open(&whole, false, false).unwrap();
    let image = BookFile::from_bytes("shipped.book", &bytes).unwrap();
    assert_eq!(image.name(), "shipped.book");
    assert_eq!(image.path(), None);
    assert_eq!(
        image.entries_of(&built).unwrap(),
        file.entries_of(&built).unwrap()
    );
    let tables_dropped = scratch.path("dropped.db");
    raw_sql(&tables_dropped, "CREATE TABLE t (x INTEGER); DROP TABLE t;");
    let image = std::fs::read(&tables_dropped).unwrap();
    assert_eq!(
        BookFile::from_bytes("shipped.book", &image)
            .err()
            .unwrap()
            .to_string(),
        "shipped.book: not a ply book (empty)"
    );
    assert_eq!(
        BookFile::from_bytes("shipped.book", &b"garbage".repeat(200))
            .err()
            .unwrap()
            .to_string(),
        "shipped.book: not a ply book (not an SQLite file)"
    );
    let message = BookFile::from_bytes("cut.book", &bytes[..bytes.len() / 2])
        .err()
        .unwrap()
        .to_string();
    assert!(
        message.starts_with("cut.book: ")
            && message.ends_with("its pages do not hold together (cut short or overwritten)"),
        "{message}"
    );
    // No bytes at all: refused (see `no_bytes_are_an_empty_image_not_a_failed_malloc`).
    let message = BookFile::from_bytes("shipped.book", b"")
        .err()
        .unwrap()
        .to_string();
    assert!(message.starts_with("shipped.book: ") && !message.contains('\n'));
}

/// A view or a trigger in a book's file, a time no proof took and crossed bounds: each refused in
/// one line naming what is wrong, by readers and writers alike.
#[test]
fn views_triggers_and_impossible_rows_are_refused() {
    let scratch = Scratch::new();
    let whole = scratch.path("whole.book");
    small_book(&whole);
    for (name, sql, why) in [
        (
            "trigger.book",
            "CREATE TRIGGER t AFTER INSERT ON positions BEGIN SELECT 1; END;",
            "its tables are not a book's (a trigger `t`)",
        ),
        (
            "view.book",
            "ALTER TABLE positions RENAME TO p; CREATE VIEW positions AS SELECT * FROM p;",
            "its tables are not a book's (a view `positions`)",
        ),
        (
            "seconds.book",
            "UPDATE positions SET seconds = 1e300 WHERE key = 0",
            "position boxes-3x3 0x0: 1e300 seconds is no time a proof took",
        ),
        (
            "crossed.book",
            "UPDATE positions SET lower = 5, upper = -5 WHERE key = 0",
            "position boxes-3x3 0x0: bounds 5..-5 are crossed (the lower above the upper)",
        ),
    ] {
        let path = scratch.path(name);
        std::fs::copy(&whole, &path).unwrap();
        raw_sql(&path, sql);
        let wanted = format!("{}: damaged book: {why}", named(&path));
        for write in [false, true] {
            let refused = match BookFile::open(&path, write, false) {
                Ok(file) => ops::stats(&file).err().unwrap().to_string(),
                Err(e) => e.to_string(),
            };
            assert_eq!(refused, wanted, "{name}, write {write}");
        }
    }
}

#[test]
fn a_cut_book_is_called_damaged_not_foreign() {
    let scratch = Scratch::new();
    let whole = scratch.path("whole.book");
    small_book(&whole);
    let bytes = std::fs::read(&whole).unwrap();
    let cut = scratch.path("cut.book");
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
    assert_eq!(
        refusal(&cut),
        format!(
            "{}: damaged book: its pages do not hold together (cut short or overwritten)",
            named(&cut)
        )
    );
}

#[test]
fn no_bytes_are_an_empty_image_not_a_failed_malloc() {
    assert_eq!(
        BookFile::from_bytes("shipped.book", b"")
            .err()
            .unwrap()
            .to_string(),
        "shipped.book: not a ply book (empty)"
    );
}

/// A new book at `path` holding `built`'s board and no position.
fn board_only_book(path: &Path, built: &BuiltBoard) {
    BookFile::open(path, true, true)
        .unwrap()
        .add_board(built)
        .unwrap();
}

/// Writes a row straight into the book at `path`, as a faulty program could.
fn forge_row(
    path: &Path,
    board: &str,
    key: u64,
    free: u32,
    bounds: (i32, i32),
    best: Option<&str>,
) {
    let conn = rusqlite::Connection::open(path).unwrap();
    conn.execute(
        "INSERT OR REPLACE INTO positions
         (board, key, free, lower, upper, best, nodes, seconds, proved_by, checked_by)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, 0, 0.0, 'forged', NULL)",
        rusqlite::params![board, key as i64, free, bounds.0, bounds.1, best],
    )
    .unwrap();
}

#[test]
fn rows_that_cannot_be_right_are_refused_naming_the_position() {
    let scratch = Scratch::new();
    let built = built(BOXES_2X2);
    let board = &built.board;
    let scheme = KeyScheme::new(board);
    let slug = "boxes-2x2";
    // A single edge whose own set is not its key, and a key of one edge with that edge's name.
    let (raw, keyed) = (0..board.edge_count() as u8)
        .map(|e| (1u64 << e, scheme.key(EdgeSet(1 << e)).key))
        .find(|&(raw, key)| raw != key)
        .unwrap();
    let drawn_name = format_edge(board, Edge(keyed.trailing_zeros() as u8));
    type Forged<'a> = (u64, u32, (i32, i32), Option<&'a str>, String);
    let cases: Vec<Forged> = vec![
        (
            0,
            12,
            (3, 1),
            None,
            "bounds 3..1 are crossed (the lower above the upper)".into(),
        ),
        (
            0,
            12,
            (-5, 0),
            None,
            "bounds -5..0 (at most ±4 here)".into(),
        ),
        (0, 12, (0, 5), None, "bounds 0..5 (at most ±4 here)".into()),
        (
            raw,
            11,
            (0, 0),
            None,
            "not a key (not the smallest of its class)".into(),
        ),
        (
            keyed,
            11,
            (0, 0),
            Some(&drawn_name),
            format!("best move `{drawn_name}` is no free edge"),
        ),
        (
            0,
            12,
            (2, 2),
            Some("9-9"),
            "best move `9-9` is no free edge".into(),
        ),
        (0, 11, (2, 2), None, "free edges 11 is wrong".into()),
        (
            1 << 40,
            11,
            (0, 0),
            None,
            "edges the board does not have".into(),
        ),
    ];
    for (i, (key, free, bounds, best, fault)) in cases.into_iter().enumerate() {
        let path = scratch.path(&format!("{i}.book"));
        board_only_book(&path, &built);
        forge_row(&path, slug, key, free, bounds, best);
        let expected = format!(
            "{}: damaged book: position {slug} {key:#x}: {fault}",
            named(&path)
        );
        // Opened, but its entries are refused: by the file, by the books every answer reads, and
        // by an answer itself.
        let file = BookFile::open(&path, false, false).unwrap();
        assert_eq!(file.entries_of(&built).err().unwrap().to_string(), expected);
        let books = Books::asked(false, Some(&path), false).unwrap();
        assert_eq!(books.board(&built).err().unwrap().to_string(), expected);
        let query = DotsRequest::new(BOXES_2X2, "").validate().unwrap();
        let kept = Kept::books_only(books);
        let policy = Policy::new(budget(), None);
        let failed = answer(&query, &policy, Some(&kept), Hooks::default()).unwrap_err();
        assert_eq!(failed.to_string(), expected);
        // `put` refuses such an entry too, and writes nothing.
        let entry = BookEntry {
            board: slug.into(),
            key,
            free,
            lower: bounds.0,
            upper: bounds.1,
            best: best.map(str::to_string),
            nodes: 0,
            seconds: 0.0,
            proved_by: "test".into(),
            checked_by: None,
        };
        let other = scratch.path(&format!("{i}-put.book"));
        let writer = BookFile::open(&other, true, true).unwrap();
        let refused = writer.put(&built, &entry).unwrap_err().to_string();
        assert_eq!(
            refused,
            format!(
                "{}: damaged book: position {slug} {key:#x}: {fault}",
                named(&other)
            )
        );
        assert!(writer.select(None).unwrap().is_empty());
    }
    // Another edge order for the board: the book's keys mean other positions.
    let path = scratch.path("order.book");
    built_book(&path, BOXES_2X2, 1);
    raw_sql(
        &path,
        "UPDATE boards SET edges = '1-4 1-2 2-3' WHERE board = 'boxes-2x2';",
    );
    let file = BookFile::open(&path, false, false).unwrap();
    let expected = format!(
        "{}: the book's board boxes-2x2 numbers its edges otherwise than this ply",
        named(&path)
    );
    assert_eq!(file.entries_of(&built).err().unwrap().to_string(), expected);
    assert!(matches!(
        file.has_board(&built),
        Err(BookError::OtherBoard(..))
    ));
    assert_eq!(
        file.boards().unwrap(),
        [("boxes-2x2".to_string(), "1-4 1-2 2-3".to_string())]
    );
    // Nothing is written into it: a writer is refused at once.
    assert_eq!(
        BookFile::open(&path, true, false)
            .err()
            .unwrap()
            .to_string(),
        expected
    );
    assert_eq!(
        Books::asked(false, Some(&path), false)
            .unwrap()
            .board(&built)
            .err()
            .unwrap()
            .to_string(),
        expected
    );
}

/// An entry of `key` on `built`'s board with `bounds`.
fn entry_of(built: &BuiltBoard, key: u64, bounds: (i32, i32), best: Option<&str>) -> BookEntry {
    BookEntry {
        board: built.geometry.slug(),
        key,
        free: built.board.edge_count() as u32 - key.count_ones(),
        lower: bounds.0,
        upper: bounds.1,
        best: best.map(str::to_string),
        nodes: 10,
        seconds: 0.5,
        proved_by: "test".into(),
        checked_by: None,
    }
}

#[test]
fn put_meets_bounds_and_refuses_a_conflict_naming_the_position() {
    let scratch = Scratch::new();
    let path = scratch.path("put.book");
    let built = built(BOXES_3X3);
    let board = &built.board;
    let book = BookFile::open(&path, true, true).unwrap();
    // The empty board: bounds met, then narrowed to a value.
    let met = book
        .put(&built, &entry_of(&built, 0, (-3, 5), None))
        .unwrap();
    assert_eq!((met.lower, met.upper), (-3, 5));
    let met = book
        .put(&built, &entry_of(&built, 0, (-1, 7), None))
        .unwrap();
    assert_eq!((met.lower, met.upper), (-1, 5));
    let kept = book.get("boxes-3x3", 0).unwrap().unwrap();
    assert_eq!((kept.lower, kept.upper), (-1, 5));
    assert_eq!(kept.free, 24);
    let exact = book
        .put(&built, &entry_of(&built, 0, (1, 1), Some("1-2")))
        .unwrap();
    assert_eq!((exact.lower, exact.upper, exact.value()), (1, 1, Some(1)));
    assert_eq!(exact.best.as_deref(), Some("1-2"));
    // A wider proof of the same position keeps the value and its best move.
    let wider = book
        .put(&built, &entry_of(&built, 0, (-2, 3), None))
        .unwrap();
    assert_eq!((wider.lower, wider.upper), (1, 1));
    assert_eq!(wider.best.as_deref(), Some("1-2"));
    // A value outside what is proved: a conflict naming the position, nothing written.
    let before = book.select(None).unwrap();
    match book.put(&built, &entry_of(&built, 0, (-3, -3), None)) {
        Err(e @ BookError::Conflict(..)) => assert_eq!(
            e.to_string(),
            format!(
                "{}: position boxes-3x3 0x0 (``) is proved +1 there and -3 here: one of the \
                 proofs is wrong",
                named(&path)
            )
        ),
        other => panic!("{other:?}"),
    }
    // A one-edge position: exact, then another exact value.
    let e = board.edge_between(0, 1).unwrap();
    let key = KeyScheme::new(board).key(EdgeSet(0).with(e)).key;
    let position = position_text(&built, key);
    book.put(&built, &entry_of(&built, key, (3, 3), None))
        .unwrap();
    let before_one = book.select(None).unwrap();
    let refused = book
        .put(&built, &entry_of(&built, key, (5, 5), None))
        .unwrap_err();
    assert_eq!(
        refused.to_string(),
        format!(
            "{}: position boxes-3x3 {key:#x} (`{position}`) is proved +3 there and +5 here: one \
             of the proofs is wrong",
            named(&path)
        )
    );
    assert!(!position.is_empty());
    let refused = book
        .put(&built, &entry_of(&built, key, (-5, 1), None))
        .unwrap_err();
    assert!(
        refused
            .to_string()
            .contains("is proved +3 there and -5..+1 here"),
        "{refused}"
    );
    assert_eq!(book.select(None).unwrap(), before_one);
    assert_eq!(before_one.len(), before.len() + 1);
    // Read again from the file: what was written, and nothing else.
    drop(book);
    let again = BookFile::open(&path, false, false).unwrap();
    assert_eq!(again.select(None).unwrap(), before_one);
    assert_eq!(again.entries_of(&built).unwrap(), before_one);
}

#[test]
fn two_writers_on_one_file_see_each_others_entries() {
    let scratch = Scratch::new();
    let path = scratch.path("wal.book");
    let built = built(BOXES_3X3);
    let board = &built.board;
    let scheme = KeyScheme::new(board);
    let first = BookFile::open(&path, true, true).unwrap();
    let second = BookFile::open(&path, true, true).unwrap();
    let reader = BookFile::open(&path, false, false).unwrap();
    let keys: Vec<u64> = {
        let mut keys: Vec<u64> = free_edges(board, EdgeSet(0))
            .into_iter()
            .map(|e| scheme.key(EdgeSet(0).with(e)).key)
            .collect();
        keys.sort_unstable();
        keys.dedup();
        keys
    };
    assert!(keys.len() >= 4, "{keys:?}");
    for (i, &key) in keys.iter().enumerate() {
        let (writer, other) = if i % 2 == 0 {
            (&first, &second)
        } else {
            (&second, &first)
        };
        // Nine cells open: every value is odd.
        let v = 2 * i as i32 - 3;
        writer
            .put(&built, &entry_of(&built, key, (v, v), None))
            .unwrap();
        let seen = other.get("boxes-3x3", key).unwrap().unwrap();
        assert_eq!(seen.value(), Some(v));
        assert_eq!(
            reader.get("boxes-3x3", key).unwrap().unwrap().value(),
            Some(v)
        );
        // The other writer meets what it sees: a narrower proof of the same value is welcome, a
        // conflicting one is refused.
        other
            .put(&built, &entry_of(&built, key, (v - 1, v + 1), None))
            .unwrap();
        assert!(matches!(
            other.put(&built, &entry_of(&built, key, (v + 2, v + 2), None)),
            Err(BookError::Conflict(..))
        ));
    }
    let all = first.entries_of(&built).unwrap();
    assert_eq!(all.len(), keys.len());
    assert_eq!(second.entries_of(&built).unwrap(), all);
    assert_eq!(reader.entries_of(&built).unwrap(), all);
    drop((first, second, reader));
    assert_eq!(
        BookFile::open(&path, false, false)
            .unwrap()
            .entries_of(&built)
            .unwrap(),
        all
    );
}

#[test]
fn an_index_read_from_a_book_sees_what_another_process_writes_after() {
    let scratch = Scratch::new();
    let path = scratch.path("live.book");
    let built = built(BOXES_3X3);
    let scheme = KeyScheme::new(&built.board);
    let first = scheme.key(EdgeSet(0).with(Edge(0))).key;
    let second = (1..built.board.edge_count() as u8)
        .map(|e| scheme.key(EdgeSet(0).with(Edge(e))).key)
        .find(|&k| k != first)
        .unwrap();
    let other = BookFile::open(&path, true, true).unwrap();
    other
        .put(&built, &entry_of(&built, first, (1, 1), None))
        .unwrap();
    // A server's books (reading the file, keeping its own proofs in it) and a build's index.
    let books = Books::asked(false, Some(&path), true).unwrap();
    let reading = BookFile::open(&path, true, false).unwrap();
    let index = BoardBook::of_file(&reading, &built).unwrap();
    assert_eq!(books.board(&built).unwrap().len(), 1);
    assert!(!index.is_stale(&reading));
    // What this connection writes itself keeps the index current (it adds what it writes).
    let mut kept = index.clone();
    reading
        .put(&built, &entry_of(&built, second, (-1, -1), None))
        .unwrap();
    kept.add_written(&entry_of(&built, second, (-1, -1), None));
    assert!(!kept.is_stale(&reading));
    assert_eq!(kept.len(), 2);
    // Another process's entry: the books see it at the next question, the index knows it is out
    // of date.
    let third = scheme.key(EdgeSet(0).with(Edge(0)).with(Edge(1))).key;
    other
        .put(&built, &entry_of(&built, third, (3, 3), None))
        .unwrap();
    assert!(kept.is_stale(&reading));
    let seen = books.board(&built).unwrap();
    assert_eq!(seen.len(), 3);
    assert_eq!(
        seen.lookup(EdgeSet(0).with(Edge(0)).with(Edge(1)))
            .map(|(r, _)| r),
        Some(ValueRange::exact(3))
    );
    // Asked again with nothing new: the same index, not read again.
    assert!(Arc::ptr_eq(&seen, &books.board(&built).unwrap()));
}

#[test]
fn a_build_out_of_time_keeps_bounds_that_hold_and_resumes_to_the_values() {
    let scratch = Scratch::new();
    let path = scratch.path("timed.book");
    let built = built(BOXES_3X3);
    let board = &built.board;
    let table = whole_table(board);
    let scheme = KeyScheme::new(board);
    let book = BookFile::open(&path, true, true).unwrap();
    let rushed = build_into(
        &book,
        &built,
        1,
        Some(Duration::from_micros(1)),
        TieOrder::LowFirst,
    );
    // Positions of which nothing was proved (bounds as wide as the cells left) are not written.
    assert!(rushed.len() <= count(&built, &[EdgeSet(0)], 1, budget()));
    for entry in &rushed {
        let cells = scheme.open_cells(EdgeSet(entry.key)) as i32;
        assert!(
            entry.lower > -cells || entry.upper < cells,
            "{:#x}",
            entry.key
        );
    }
    let mut open = 0;
    for entry in &rushed {
        let value = table.value_of_mask(entry.key);
        let cells = scheme.open_cells(EdgeSet(entry.key)) as i32;
        assert!(
            -cells <= entry.lower && entry.lower <= value && value <= entry.upper,
            "{:#x}: {}..{} against {value}",
            entry.key,
            entry.lower,
            entry.upper
        );
        assert!(entry.upper <= cells);
        open += usize::from(entry.value().is_none());
    }
    assert_eq!(
        open, 0,
        "only exact positions are written: a microsecond proves no bound"
    );
    // Resumed without a limit: what was exact with a best move is found, the rest proved.
    let mut found = 0;
    let halt = Halt::never();
    let options = build_options(1, &halt);
    let resumed = build(&book, &built, &[EdgeSet(0)], options, &mut |event| {
        found += usize::from(event.found);
        assert!(event.done <= event.total);
    })
    .unwrap();
    let settled = rushed
        .iter()
        .filter(|e| e.value().is_some() && e.best.is_some())
        .count();
    assert_eq!(found, settled);
    assert_eq!(resumed.len(), count(&built, &[EdgeSet(0)], 1, budget()));
    for entry in book.entries_of(&built).unwrap() {
        assert_eq!(entry.value(), Some(table.value_of_mask(entry.key)));
        assert!(entry.best.is_some());
    }
}

#[test]
fn an_entry_the_search_proved_is_checked_from_its_checked_children() {
    let scratch = Scratch::new();
    let path = scratch.path("searched.book");
    let built = built(TRIANGLES_3);
    let table = whole_table(&built.board);
    let entries = built_book(&path, TRIANGLES_3, 2);
    let book = BookFile::open(&path, true, false).unwrap();
    // The first moves' entries as the search proved them (as the 4×4 book's are).
    let version = env!("CARGO_PKG_VERSION");
    let first_moves: Vec<BookEntry> = entries
        .iter()
        .filter(|e| e.key != 0 && e.proved_by.ends_with("children"))
        .map(|e| BookEntry {
            proved_by: format!("ply {version} search low-first"),
            ..e.clone()
        })
        .collect();
    assert_eq!(
        first_moves.len(),
        count(&built, &[EdgeSet(0)], 1, budget()) - 1
    );
    for entry in &first_moves {
        book.put(&built, entry).unwrap();
    }
    let entries = book.entries_of(&built).unwrap();
    let verified = verify_all(&book, &built, &entries, false);
    // Every two-move position by the search; the first moves and the empty board from them.
    assert_eq!(
        (
            verified.agreed,
            verified.from_children,
            verified.disagreements.len()
        ),
        (entries.len(), first_moves.len() + 1, 0)
    );
    for entry in &first_moves {
        assert_eq!(
            checked_by(&book, "triangles-3", entry.key),
            Some(format!("ply {version} children"))
        );
        assert_eq!(
            book.get("triangles-3", entry.key).unwrap().unwrap().value(),
            Some(table.value_of_mask(entry.key))
        );
    }
}

#[test]
fn verify_marks_agreeing_entries_and_reports_forged_ones() {
    let scratch = Scratch::new();
    let path = scratch.path("verify.book");
    let built = built(TRIANGLES_3);
    let board = &built.board;
    let table = whole_table(board);
    let entries = built_book(&path, TRIANGLES_3, 2);
    let book = BookFile::open(&path, true, false).unwrap();
    let mut seen = 0;
    let verified = verify(
        &book,
        &built,
        &entries,
        verify_options(None, false),
        &mut |_, found| {
            seen += 1;
            assert!(found.is_some_and(|r| r.value().is_some()));
        },
    )
    .unwrap();
    assert_eq!(seen, entries.len());
    // The positions of depth 0 and 1 were proved from their children: checked from theirs.
    let by_children = entries
        .iter()
        .filter(|e| e.proved_by.ends_with("children"))
        .count();
    assert_eq!(by_children, count(&built, &[EdgeSet(0)], 1, budget()));
    assert_eq!(
        (
            verified.agreed,
            verified.from_children,
            verified.already,
            verified.unsettled,
            verified.disagreements.len()
        ),
        (entries.len(), by_children, 0, 0, 0)
    );
    let version = env!("CARGO_PKG_VERSION");
    for entry in book.entries_of(&built).unwrap() {
        let checked = if entry.proved_by.ends_with("children") {
            format!("ply {version} children")
        } else {
            format!("ply {version} search high-first")
        };
        assert_eq!(entry.checked_by.as_deref(), Some(checked.as_str()));
    }
    // Resumed, a verification proves nothing again: every entry was checked.
    let mut proved = 0;
    let verified = verify(
        &book,
        &built,
        &entries,
        verify_options(None, true),
        &mut |_, found| proved += usize::from(found.is_some()),
    )
    .unwrap();
    assert_eq!(
        (verified.already, verified.agreed, proved),
        (entries.len(), 0, 0)
    );
    // The empty board with its children unchecked is proved by the search.
    let fresh = scratch.path("fresh.book");
    let fresh_entries = built_book(&fresh, TRIANGLES_3, 1);
    let empty: Vec<BookEntry> = fresh_entries
        .iter()
        .filter(|e| e.key == 0)
        .cloned()
        .collect();
    assert!(empty[0].proved_by.ends_with("children"));
    let fresh_file = BookFile::open(&fresh, true, false).unwrap();
    let verified = verify_all(&fresh_file, &built, &empty, false);
    assert_eq!((verified.agreed, verified.from_children), (1, 0));
    assert_eq!(
        checked_by(&fresh_file, "triangles-3", 0),
        Some(format!("ply {version} search high-first"))
    );
    // Its children checked by one verification, a resumed one checks it from them.
    let other = scratch.path("other.book");
    let other_entries = built_book(&other, TRIANGLES_3, 1);
    let other_file = BookFile::open(&other, true, false).unwrap();
    let children: Vec<BookEntry> = other_entries
        .iter()
        .filter(|e| e.key != 0)
        .cloned()
        .collect();
    let first = verify_all(&other_file, &built, &children, false);
    assert_eq!(first.agreed, children.len());
    let resumed = verify_all(&other_file, &built, &other_entries, true);
    assert_eq!(
        (resumed.already, resumed.agreed, resumed.from_children),
        (children.len(), 1, 1)
    );
    assert_eq!(
        checked_by(&other_file, "triangles-3", 0),
        Some(format!("ply {version} children"))
    );
    // Entries proved by the high-first search are checked low-first.
    let high = scratch.path("high.book");
    let high_entries = {
        let file = BookFile::open(&high, true, true).unwrap();
        build_into(&file, &built, 0, None, TieOrder::HighFirst)
    };
    assert!(high_entries[0].proved_by.ends_with("search high-first"));
    let high_file = BookFile::open(&high, true, false).unwrap();
    let verified = verify_all(&high_file, &built, &high_entries, false);
    assert_eq!(verified.agreed, 1);
    assert_eq!(
        checked_by(&high_file, "triangles-3", 0),
        Some(format!(
            "ply {} search low-first",
            env!("CARGO_PKG_VERSION")
        ))
    );
    // A resumed verification counts on a check only if a verification could have written it: by
    // another method than the entry's proof. A check naming the proof itself, or text no
    // verification writes (a book edited by hand), is proved again.
    let proved = high_file.get("triangles-3", 0).unwrap().unwrap();
    for forged in [
        format!("ply {version} search high-first"),
        "trust me".to_string(),
        format!("ply {version} table"),
    ] {
        high_file
            .put(
                &built,
                &BookEntry {
                    checked_by: Some(forged.clone()),
                    ..proved.clone()
                },
            )
            .unwrap();
        let resumed = verify_all(&high_file, &built, &high_entries, true);
        assert_eq!((resumed.already, resumed.agreed), (0, 1), "{forged}");
        assert_eq!(
            checked_by(&high_file, "triangles-3", 0),
            Some(format!("ply {version} search low-first")),
            "{forged}"
        );
    }
    // The genuine check is counted on.
    let resumed = verify_all(&high_file, &built, &high_entries, true);
    assert_eq!((resumed.already, resumed.agreed), (1, 0));
    // Two forged values: the empty board (-3) said to be +1, a one-edge position said otherwise;
    // proved again, the one-edge position from its children, the empty board by the search (one
    // of its children is found wrong).
    drop(book);
    let one = entries.iter().find(|e| e.free == 17).unwrap();
    let truth = table.value_of_mask(one.key);
    let forged = if truth > 0 { truth - 2 } else { truth + 2 };
    raw_sql(
        &path,
        &format!(
            "UPDATE positions SET lower = 1, upper = 1 WHERE key = 0;
             UPDATE positions SET lower = {forged}, upper = {forged} WHERE key = {};",
            one.key as i64
        ),
    );
    let book = BookFile::open(&path, true, false).unwrap();
    let entries = book.entries_of(&built).unwrap();
    let verified = verify_all(&book, &built, &entries, false);
    assert_eq!(verified.agreed, entries.len() - 2);
    let mut disagreements = verified.disagreements.clone();
    disagreements.sort_by_key(|d| d.key);
    assert_eq!(disagreements.len(), 2);
    assert_eq!(disagreements[0].key, 0);
    assert_eq!(disagreements[0].position, "");
    assert_eq!(disagreements[0].book, ValueRange::exact(1));
    assert_eq!(disagreements[0].found, ValueRange::exact(-3));
    assert_eq!(disagreements[1].key, one.key);
    assert_eq!(disagreements[1].position, position_text(&built, one.key));
    assert_eq!(disagreements[1].book, ValueRange::exact(forged));
    assert_eq!(disagreements[1].found, ValueRange::exact(truth));
    // A second proof cut short settles nothing and disagrees with nothing.
    let honest = scratch.path("honest.book");
    let entries = built_book(&honest, BOXES_3X3, 1);
    let file = BookFile::open(&honest, true, false).unwrap();
    let verified = verify(
        &file,
        &built_boxes_3x3(),
        &entries,
        verify_options(Some(Duration::from_micros(1)), false),
        &mut |_, _| {},
    )
    .unwrap();
    assert!(verified.disagreements.is_empty());
    assert_eq!(verified.agreed + verified.unsettled, entries.len());
}

fn built_boxes_3x3() -> BuiltBoard {
    built(BOXES_3X3)
}

/// The values of a report's moves, by name.
fn move_values(report: &plysolve::games::dots::report::DotsReport) -> Vec<(String, Option<i32>)> {
    let mut values: Vec<(String, Option<i32>)> = report
        .moves
        .iter()
        .map(|m| (m.mv.clone(), m.value))
        .collect();
    values.sort();
    values
}

#[test]
fn answers_from_a_book_equal_answers_without_and_the_table() {
    let scratch = Scratch::new();
    let path = scratch.path("answers.book");
    let built = built(TRIANGLES_3);
    let board = &built.board;
    let table = whole_table(board);
    built_book(&path, TRIANGLES_3, 2);
    let with = Kept::books_only(Books::asked(false, Some(&path), false).unwrap());
    let without = Kept::books_only(Arc::new(Books::none()));
    let policy = Policy::new(budget(), None);
    let names: Vec<String> = free_edges(board, EdgeSet(0))
        .into_iter()
        .map(|e| format_edge(board, e))
        .collect();
    let mut lines = vec![String::new()];
    lines.extend(names.iter().cloned());
    lines.extend(["1-2 2-3", "2-4 5-6", "1-3 4-7"].map(str::to_string));
    for moves in &lines {
        let query = DotsRequest::new(TRIANGLES_3, moves).validate().unwrap();
        let drawn = query.position.drawn();
        let booked = answer(&query, &policy, Some(&with), Hooks::default()).unwrap();
        let searched = answer(&query, &policy, Some(&without), Hooks::default()).unwrap();
        let value = table.value_of_mask(drawn.0);
        assert_eq!(booked.value, Some(value), "{moves:?}");
        assert_eq!(searched.value, Some(value), "{moves:?}");
        assert!(booked.exact && searched.exact);
        assert_eq!(move_values(&booked), move_values(&searched), "{moves:?}");
        for m in &booked.moves {
            let e = edge_named(board, drawn, &m.mv);
            assert_eq!(m.value, Some(move_worth(&table, board, drawn, e)));
        }
        let best = edge_named(board, drawn, booked.best_move.as_deref().unwrap());
        assert_eq!(move_worth(&table, board, drawn, best), value);
        // The book holds every move's position up to one move in: it answers those alone.
        let in_book = drawn.len() <= 1;
        assert_eq!(booked.strategy == Strategy::Book, in_book, "{moves:?}");
        assert_ne!(searched.strategy, Strategy::Book);
        if in_book {
            assert_eq!(booked.states_visited, 0);
        }
    }
}

#[test]
fn a_books_best_move_is_worth_the_positions_value_though_its_child_is_not_in_the_book() {
    let scratch = Scratch::new();
    let path = scratch.path("best.book");
    let built = built(BOXES_3X3);
    let board = &built.board;
    let table = whole_table(board);
    // Every position up to two moves: the two-move ones are the book's deepest, their moves' positions
    // are in no book.
    built_book(&path, BOXES_3X3, 2);
    let books = Kept::books_only(Books::asked(false, Some(&path), false).unwrap());
    let policy = Policy::new(budget(), None);
    for moves in ["1-2 2-3", "1-2 5-6", "2-3 6-7", "1-5 2-6"] {
        let mut request = DotsRequest::new(BOXES_3X3, moves);
        request.strategy = Strategy::Book;
        let query = request.validate().unwrap();
        let drawn = query.position.drawn();
        let report = answer(&query, &policy, Some(&books), Hooks::default()).unwrap();
        let value = table.value_of_mask(drawn.0);
        assert_eq!(
            (report.value, report.states_visited),
            (Some(value), 0),
            "{moves}"
        );
        // The book's best move, first and exact, worth the value by the table; no estimate.
        let first = &report.moves[0];
        assert_eq!(first.value, Some(value), "{moves}");
        assert_eq!(report.best_move.as_deref(), Some(first.mv.as_str()));
        let best = edge_named(board, drawn, &first.mv);
        assert_eq!(move_worth(&table, board, drawn, best), value, "{moves}");
        assert!(report.estimate.is_none(), "{moves}");
        // The other moves' bounds hold their values; none is exact (their positions are in no book).
        for m in &report.moves[1..] {
            let e = edge_named(board, drawn, &m.mv);
            let worth = move_worth(&table, board, drawn, e);
            let r = m
                .bounds
                .unwrap_or_else(|| panic!("{moves} {}: {:?}", m.mv, m.value));
            assert!(r.lower <= worth && worth <= r.upper, "{moves} {}", m.mv);
        }
    }
}

#[test]
fn a_build_gives_an_exact_entry_without_a_best_move_its_childrens() {
    let scratch = Scratch::new();
    let path = scratch.path("nobest.book");
    let built = built(BOXES_3X3);
    let board = &built.board;
    let table = whole_table(board);
    small_book(&path);
    // An older build's entries: exact, no best move.
    raw_sql(&path, "UPDATE positions SET best = NULL WHERE free >= 23");
    let book = BookFile::open(&path, true, false).unwrap();
    let stripped = book.entries_of(&built).unwrap();
    assert!(stripped
        .iter()
        .filter(|e| e.free >= 23)
        .all(|e| e.best.is_none()));
    let again = build_into(&book, &built, 1, None, TieOrder::LowFirst);
    // The start's best move from its children (all in the book); the one-move positions' are
    // leaves, proved before: found, left as they are.
    let start = again.iter().find(|e| e.key == 0).unwrap();
    let best = start.best.as_deref().unwrap();
    let value = table.value_of_mask(0);
    assert_eq!(start.value(), Some(value));
    assert_eq!(
        move_worth(
            &table,
            board,
            EdgeSet(0),
            edge_named(board, EdgeSet(0), best)
        ),
        value
    );
    assert_eq!(
        book.get("boxes-3x3", 0).unwrap().unwrap().best.as_deref(),
        Some(best)
    );
    assert!(again
        .iter()
        .filter(|e| e.free == 23)
        .all(|e| e.best.is_none()));
}

#[test]
fn proofs_of_positions_with_enough_free_edges_are_kept_in_a_writable_book() {
    let scratch = Scratch::new();
    let path = scratch.path("kept.book");
    let built = built(BOXES_3X3);
    let board = &built.board;
    assert_eq!(
        board.edge_count() as u32,
        plysolve::games::dots::answer::KEEP_FREE
    );
    let table = whole_table(board);
    let scheme = KeyScheme::new(board);
    let kept = Kept::books_only(Books::asked(false, Some(&path), true).unwrap());
    let policy = Policy::new(budget(), None);
    let empty = DotsRequest::new(BOXES_3X3, "").validate().unwrap();
    let first = answer(&empty, &policy, Some(&kept), Hooks::default()).unwrap();
    assert_eq!(first.value, Some(-3));
    assert_ne!(first.strategy, Strategy::Book);
    // The empty board with a best move, and every move's child, exact.
    let file = BookFile::open(&path, false, false).unwrap();
    let entries = file.entries_of(&built).unwrap();
    let children: HashSet<u64> = free_edges(board, EdgeSet(0))
        .into_iter()
        .map(|e| scheme.key(EdgeSet(0).with(e)).key)
        .collect();
    assert_eq!(entries.len(), 1 + children.len());
    for entry in &entries {
        assert_eq!(entry.value(), Some(table.value_of_mask(entry.key)));
        assert!(entry.key == 0 || children.contains(&entry.key));
    }
    let root = entries.iter().find(|e| e.key == 0).unwrap();
    assert_eq!(root.free, 24);
    let best = edge_named(board, EdgeSet(0), root.best.as_deref().unwrap());
    assert_eq!(move_worth(&table, board, EdgeSet(0), best), -3);
    // Asked again: answered from the book, the same.
    let again = answer(&empty, &policy, Some(&kept), Hooks::default()).unwrap();
    assert_eq!(again.strategy, Strategy::Book);
    assert_eq!(again.value, Some(-3));
    assert_eq!(move_values(&again), move_values(&first));
    // A position with 23 free edges is not kept.
    let one = DotsRequest::new(BOXES_3X3, "5-6").validate().unwrap();
    let answered = answer(&one, &policy, Some(&kept), Hooks::default()).unwrap();
    assert_eq!(
        answered.value,
        Some(table.value_of_mask(one.position.drawn().0))
    );
    assert_eq!(file.entries_of(&built).unwrap().len(), entries.len());
    // A read-only book keeps nothing.
    let other = scratch.path("read.book");
    board_only_book(&other, &built);
    let reading = Kept::books_only(Books::asked(false, Some(&other), false).unwrap());
    answer(&empty, &policy, Some(&reading), Hooks::default()).unwrap();
    assert!(BookFile::open(&other, false, false)
        .unwrap()
        .select(None)
        .unwrap()
        .is_empty());
}

/// A search of `board` meeting `known`, with a table of its own.
fn search<'a>(
    board: &'a DotsBoard,
    known: Option<&'a BoardBook>,
    tie_order: TieOrder,
) -> SearchSolver<'a, DotsBoard> {
    SearchSolver::new(
        board,
        SearchOptions {
            tie_order,
            known: known.map(|k| k as &dyn plysolve::engine::scored::known::KnownValues),
            ..SearchOptions::plain(4 << 20, budget(), &NEVER)
        },
    )
    .unwrap()
}

#[test]
fn searches_meeting_a_book_give_the_tables_values() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(31);
    for (geometry, depth) in [(TRIANGLES_3, 2), (BOXES_3X3, 1)] {
        let scratch = Scratch::new();
        let built = built(geometry);
        let board = &built.board;
        let table = whole_table(board);
        // An exact book, and one of bounds only (a build out of time).
        let exact = scratch.path("exact.book");
        built_book(&exact, geometry, depth);
        // Bounds only: each exact entry widened by two on either side (within the open cells).
        let bounds = scratch.path("bounds.book");
        let widened = BookFile::open(&bounds, true, true).unwrap();
        let scheme = KeyScheme::new(board);
        for entry in BookFile::open(&exact, false, false)
            .unwrap()
            .entries_of(&built)
            .unwrap()
        {
            let cells = scheme.open_cells(EdgeSet(entry.key)) as i32;
            let v = entry.value().unwrap();
            widened
                .put(
                    &built,
                    &BookEntry {
                        lower: (v - 2).max(-cells),
                        upper: (v + 2).min(cells),
                        best: None,
                        ..entry
                    },
                )
                .unwrap();
        }
        assert!(widened
            .entries_of(&built)
            .unwrap()
            .iter()
            .any(|e| e.value().is_none()));
        let exact = Books::asked(false, Some(&exact), false)
            .unwrap()
            .board(&built)
            .unwrap();
        let bounds = Books::asked(false, Some(&bounds), false)
            .unwrap()
            .board(&built)
            .unwrap();
        let mut positions = positions_up_to(board.edge_count() as u32, depth);
        for _ in 0..40 {
            let drawn = rng.random_range(0..board.edge_count());
            positions.push(random_position(&mut rng, board, drawn));
        }
        for tie_order in [TieOrder::LowFirst, TieOrder::HighFirst] {
            let mut plain = search(board, None, tie_order);
            let mut with_exact = search(board, Some(&exact), tie_order);
            let mut with_bounds = search(board, Some(&bounds), tie_order);
            for &drawn in &positions {
                let value = table.value_of_mask(drawn.0);
                assert_eq!(plain.value(&drawn).unwrap(), value);
                assert_eq!(with_exact.value(&drawn).unwrap(), value, "{drawn:?}");
                assert_eq!(with_bounds.value(&drawn).unwrap(), value, "{drawn:?}");
                let range = with_exact.range(&drawn).unwrap();
                assert_eq!(range, ValueRange::exact(value));
            }
        }
        // The book is met: fresh searches of the empty board, one meeting the exact book, the
        // other not, and the first visits fewer states.
        let mut fresh_plain = search(board, None, TieOrder::LowFirst);
        let mut fresh_booked = search(board, Some(&exact), TieOrder::LowFirst);
        assert_eq!(
            fresh_plain.value(&EdgeSet(0)).unwrap(),
            table.value_of_mask(0)
        );
        assert_eq!(
            fresh_booked.value(&EdgeSet(0)).unwrap(),
            table.value_of_mask(0)
        );
        assert!(
            fresh_booked.states_visited() < fresh_plain.states_visited(),
            "{geometry:?}: {} states with the book, {} without",
            fresh_booked.states_visited(),
            fresh_plain.states_visited()
        );
        // The book alone: its positions exact, any other within its cells, no value.
        let mut alone = plysolve::engine::scored::known::Informed::new(board, exact.as_ref(), None);
        assert_eq!(
            alone.range(&EdgeSet(0)).unwrap(),
            ValueRange::exact(table.value_of_mask(0))
        );
        assert_eq!(alone.answered_by(), Some(Strategy::Book));
        let deep = random_position(&mut rng, board, depth as usize + 3);
        let cells = KeyScheme::new(board).open_cells(deep) as i32;
        let r = alone.range(&deep).unwrap();
        assert!(
            r.lower >= -cells && r.upper <= cells && r.value().is_none(),
            "{r:?}"
        );
        assert!(alone.value(&deep).is_err());
    }
}

/// A book's bound of the position searched spares the null-window tests it settles: on 24
/// positions of 3×3 boxes after three moves, a fresh search from the bound "at most the value"
/// (what a proved parent says of a child) gives the table's value, and in all visits at least a
/// fifth fewer states than fresh searches knowing nothing (0.73× when written: the tests proving
/// the value no higher are the costly ones).
#[test]
fn a_known_bound_of_the_position_searched_spares_its_tests() {
    let scratch = Scratch::new();
    let built = built(BOXES_3X3);
    let board = &built.board;
    let table = whole_table(board);
    let scheme = KeyScheme::new(board);
    let path = scratch.path("at-most.book");
    let book = BookFile::open(&path, true, true).unwrap();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    let positions: Vec<EdgeSet> = (0..24)
        .map(|_| random_position(&mut rng, board, 3))
        .collect();
    let mut bounded = Vec::new();
    for &drawn in &positions {
        let v = table.value_of_mask(drawn.0);
        let cells = scheme.open_cells(drawn) as i32;
        if v < cells {
            let entry = BookEntry::of(
                &built,
                drawn,
                ValueRange {
                    lower: -cells,
                    upper: v,
                },
                None,
                0,
                0.0,
                "a test".into(),
            );
            book.put(&built, &entry).unwrap();
            bounded.push(drawn);
        }
    }
    assert!(bounded.len() > 16, "{} positions", bounded.len());
    let known = Books::asked(false, Some(&path), false)
        .unwrap()
        .board(&built)
        .unwrap();
    let (mut plain, mut informed) = (0, 0);
    for &drawn in &bounded {
        let value = table.value_of_mask(drawn.0);
        let mut without = search(board, None, TieOrder::LowFirst);
        let mut with = search(board, Some(&known), TieOrder::LowFirst);
        assert_eq!(without.range(&drawn).unwrap(), ValueRange::exact(value));
        assert_eq!(with.range(&drawn).unwrap(), ValueRange::exact(value));
        plain += without.states_visited();
        informed += with.states_visited();
    }
    assert!(
        informed * 5 < plain * 4,
        "{informed} states knowing the bound, {plain} without"
    );
}

#[test]
fn writers_making_one_new_book_at_once_all_succeed() {
    let built = built(BOXES_2X2);
    let mut failures = Vec::new();
    for round in 0..10 {
        let scratch = Scratch::new();
        let path = scratch.path("new.book");
        let barrier = std::sync::Barrier::new(4);
        std::thread::scope(|s| {
            let writers: Vec<_> = (0..4)
                .map(|i| {
                    let (path, barrier, built) = (&path, &barrier, &built);
                    s.spawn(move || {
                        barrier.wait();
                        let book = BookFile::open(path, true, true)?;
                        // Four cells open: bounds of even values.
                        book.put(built, &entry_of(built, 0, (-4 + 2 * i, 4), None))
                    })
                })
                .collect();
            for writer in writers {
                if let Err(e) = writer.join().unwrap() {
                    failures.push(format!("round {round}: {e}"));
                }
            }
        });
        if failures.is_empty() {
            // Every writer's bounds met.
            let book = BookFile::open(&path, false, false).unwrap();
            let entry = book.get("boxes-2x2", 0).unwrap().unwrap();
            assert_eq!((entry.lower, entry.upper), (2, 4));
        }
    }
    assert!(
        failures.iter().all(|f| !f.contains('\n')),
        "messages of more than one line: {failures:#?}"
    );
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn a_blank_sqlite_file_read_is_refused_as_no_book() {
    let scratch = Scratch::new();
    let path = scratch.path("blank.db");
    raw_sql(&path, "CREATE TABLE t (x INTEGER); DROP TABLE t;");
    assert!(std::fs::metadata(&path).unwrap().len() > 0);
    assert_eq!(
        refusal(&path),
        format!("{}: not a ply book (empty)", named(&path))
    );
}

/// The probe's book (issue 30): the size-3 triangles book of one move with 1-2 (+3) claimed +1.
/// Asked at the start (its moves' entries say -1 there, it says -3) and at 1-2 (the search proves
/// +3), every answer is a book fault naming the book and the position — never a panic, never
/// crossed bounds.
#[test]
fn a_book_that_contradicts_itself_or_the_search_is_a_fault_naming_it() {
    let scratch = Scratch::new();
    let path = scratch.path("w.book");
    let geometry = Geometry::Triangles { size: 3 };
    built_book(&path, geometry, 1);
    // The position after 1-2 said to be +1 (it is +3), the start's best move (1-2) forgotten.
    raw_sql(
        &path,
        "UPDATE positions SET lower = 1, upper = 1 WHERE key = 1;
         UPDATE positions SET best = NULL WHERE key = 0",
    );
    let name = named(&path);
    let damaged = "; the book is damaged (ply dots book verify)";
    let refusal_of = |moves: &str| {
        let books = Books::asked(false, Some(&path), false).unwrap();
        let kept = Kept::books_only(books);
        let request = format!(r#"{{"game":"triangles","size":3,"moves":"{moves}"}}"#);
        let query = plysolve::input::json::read::<DotsRequest>(request.as_bytes())
            .unwrap()
            .validate()
            .unwrap();
        let policy = Policy::new(budget(), None);
        answer(&query, &policy, Some(&kept), Hooks::default()).unwrap_err()
    };
    for (moves, fault) in [
        ("", format!("the book {name} contradicts itself at the start: -3 there, but -1 by its entries after each move{damaged}")),
        ("1-2", format!("the book {name} contradicts the search at 1-2: +1 there, but the search proves +3{damaged}")),
    ] {
        assert_eq!(refusal_of(moves), SolveError::Book(fault), "{moves:?}");
    }
    // With the start's best move in the book, the two entries contradict each other there (found
    // as the book is read, whatever the question: a value alone from the book could be the lie).
    raw_sql(&path, "UPDATE positions SET best = '1-2' WHERE key = 0");
    for moves in ["", "1-2", "2-3 4-5"] {
        assert_eq!(
            refusal_of(moves),
            SolveError::Book(format!("the book {name} contradicts itself at the start: -3 there with best move 1-2, but that move is worth -1 by its entry of 1-2{damaged}")),
            "{moves:?}"
        );
    }
    raw_sql(
        &path,
        "UPDATE positions SET lower = 3, upper = 3 WHERE key = 1",
    );
    // Bounds of the wrong parity are tightened as they are read: 2..4 with 9 cells open is 3.
    raw_sql(
        &path,
        "UPDATE positions SET lower = 2, upper = 4 WHERE key = 1",
    );
    let file = BookFile::open(&path, false, false).unwrap();
    let entry = file
        .entries_of(&built(geometry))
        .unwrap()
        .into_iter()
        .find(|e| e.key == 1)
        .unwrap();
    assert_eq!((entry.lower, entry.upper), (3, 3));
}

/// A build searches a position with the bounds its parents' entries put on it: on size-4
/// triangles, `1-2 1-3 2-3` (each of its parents worth 0, each last move closing the triangle
/// 1-2-3) is at most -1 before it is searched — it is worth -1, proved in fewer nodes than in a book
/// without its parents. A parent's wrong entry is a fault naming the parent.
#[test]
fn a_build_meets_the_bounds_its_parents_put_on_a_position() {
    let scratch = Scratch::new();
    let built = built(Geometry::Triangles { size: 4 });
    let position =
        plysolve::games::dots::notation::position_from_moves(&built.board, "1-2 1-3 2-3")
            .unwrap()
            .drawn();
    let halt = Halt::never();
    let options = BuildOptions {
        depth: 0,
        time_per_position: None,
        tie_order: TieOrder::LowFirst,
        budget: budget(),
        halt: &halt,
        progress: None,
        keep: None,
    };
    // (The fault as its line: a closure giving the whole error is too large for clippy.)
    let prove = |book: &BookFile| {
        build(book, &built, &[position], options, &mut |_| {}).map_err(|e| e.to_string())
    };
    let with_path = scratch.path("with.book");
    let with = BookFile::open(&with_path, true, true).unwrap();
    build_into(&with, &built, 2, None, TieOrder::LowFirst);
    let without = BookFile::open(&scratch.path("without.book"), true, true).unwrap();
    let (bounded, alone) = (prove(&with).unwrap(), prove(&without).unwrap());
    assert_eq!((bounded[0].lower, bounded[0].upper), (-1, -1));
    assert_eq!((alone[0].lower, alone[0].upper), (-1, -1));
    assert!(
        bounded[0].nodes < alone[0].nodes,
        "{} nodes with the parents, {} without",
        bounded[0].nodes,
        alone[0].nodes
    );
    // `1-2 1-3` (0) claimed -2: a build trusts its book's parents as it trusts its children, so
    // the search of `1-2 1-3 2-3` starts at most -3. It either proves past that bound (a fault
    // naming the parent) or settles on it; never a panic or crossed bounds, and `verify` finds the
    // wrong entry either way.
    let scheme = KeyScheme::new(&built.board);
    let parent = EdgeSet(position.0 & !(1 << edge_named(&built.board, EdgeSet(0), "2-3").0));
    let path = scratch.path("wrong.book");
    let entries = built_book(&path, Geometry::Triangles { size: 4 }, 2);
    raw_sql(
        &path,
        &format!(
            "UPDATE positions SET lower = -2, upper = -2 WHERE key = {}",
            scheme.key(parent).key
        ),
    );
    let wrong = BookFile::open(&path, true, false).unwrap();
    match prove(&wrong) {
        Ok(entries) => assert!(entries[0].lower <= entries[0].upper && entries[0].upper <= -3),
        Err(fault) => {
            assert!(
                fault.starts_with(&format!(
                    "the book {} contradicts the search at 1-2 1-3: -2 there, but the search \
                     proves at least ",
                    named(&path)
                )) && fault.ends_with("; the book is damaged (ply dots book verify)"),
                "{fault}"
            );
        }
    }
    let verified = verify(
        &wrong,
        &built,
        &entries,
        verify_options(None, false),
        &mut |_, _| {},
    )
    .unwrap();
    let found: Vec<(&str, ValueRange, ValueRange)> = verified
        .disagreements
        .iter()
        .map(|d| (d.position.as_str(), d.book, d.found))
        .collect();
    assert!(
        found.contains(&("1-2 1-3", ValueRange::exact(-2), ValueRange::exact(0))),
        "{found:?}"
    );
}
