//! Growing a book: every position up to a number of moves from one or more start positions, proved
//! deepest first — the deepest by the search (its table shared by all of them, the book's entries
//! met wherever it reaches one), each shallower one from its children by Wilson's rule when they
//! are all proved (no search at all), by the search otherwise. Each entry is written as soon as it
//! is proved, so a build stopped anywhere resumes where it stopped; a position past its time limit
//! keeps the bounds proved. A second proof in the other tie order checks entries ([`verify`]).

use super::key::KeyScheme;
use super::keeping::{states_within, Keeper, Keeping, ProofWork};
pub use super::keeping::{KeepEvent, KEEP_EVERY, PART_PROVED_BELOW, PART_PROVED_MOST};
use super::store::{position_named, position_text, BookEntry, BookError, BookFile};
use super::unfinished::Unfinished;
use super::{proved_by, BoardBook, ParentBounded};
use crate::engine::scored::choose::{with_solver, SolveOptions};
use crate::engine::scored::known::Informed;
use crate::engine::scored::shared::SharedBounds;
use crate::engine::scored::search::{
    move_order, ProvedState, SearchMemory, SearchOptions, TieOrder,
};
use crate::engine::scored::{Completion, Solver, SubsetIndexed};
use crate::engine::scored::{SolveError, Strategy, ValueRange};
use crate::engine::util::halt::{Halt, Halted};
use crate::engine::util::memory::{Bytes, Limit, MemoryBudget, MemoryError};
use crate::engine::util::progress::Progress;
use crate::games::dots::geometry::BuiltBoard;
use crate::games::dots::jobs::combine;
use crate::games::dots::notation::format_edge;
use crate::games::dots::{Edge, EdgeSet};
use std::cell::Cell;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};
use thiserror::Error;

/// How a build runs.
#[derive(Clone, Copy)]
pub struct BuildOptions<'a> {
    /// Moves from each start position: every position up to this many edges later is proved.
    pub depth: u32,
    /// The most time one position's search may take: past it, its bounds are kept.
    pub time_per_position: Option<Duration>,
    /// The search's tie order (recorded in each entry).
    pub tie_order: TieOrder,
    /// Memory the search's table may take.
    pub budget: MemoryBudget,
    /// Stops the build (Ctrl-C): the position in progress keeps its bounds.
    pub halt: &'a Halt,
    /// Told the states a search has visited while it proves one position (a build's position can
    /// take hours: a front end shows this between the positions' own lines).
    pub progress: Option<Progress<'a>>,
    /// How a long proof keeps what its search has proved so far in the book as it goes (`None`:
    /// only when stopped), so that a build killed outright starts again from it.
    pub keep: Option<Keeping<'a>>,
}

/// What a build reports as it goes: one line per position proved or skipped.
#[derive(Debug, Clone)]
pub struct BuildEvent {
    /// Positions settled so far (proved now, or found in the book).
    pub done: usize,
    /// Positions in all.
    pub total: usize,
    /// The entry written (or found).
    pub entry: BookEntry,
    /// Whether it was in the book already.
    pub found: bool,
    /// The time the positions still to search should take, at this build's pace so far.
    pub eta: Option<Duration>,
}

/// A build's or a verification's fault.
#[derive(Debug, Error)]
pub enum BuildError {
    /// The book's.
    #[error(transparent)]
    Book(#[from] BookError),
    /// The solver's (memory refused up front, say).
    #[error(transparent)]
    Solve(#[from] SolveError),
    /// The search's table refused before it was allocated.
    #[error(transparent)]
    Memory(#[from] MemoryError),
    /// A position was proved (or checked again) but its entry could not be written: the book's
    /// fault, with what the proof found, so that it is not lost with the entry.
    #[error("{error}; {position} was {what} {} but is not in the book", range_words(*.range))]
    NotWritten {
        /// The book's fault.
        error: Box<BookError>,
        /// The position (its moves, or "the empty board").
        position: String,
        /// "proved", or "checked again (agreeing)".
        what: &'static str,
        /// What the proof found.
        range: ValueRange,
    },
    /// The listing of a build's positions was stopped (Ctrl-C) before it was whole: nothing was
    /// proved or written.
    #[error("stopped while listing the positions ({0}): nothing was proved or written")]
    Listing(Halted),
    /// The build's list of positions would take more than its part of the memory budget: refused
    /// as the list reached it, before any position was proved or anything written.
    #[error(
        "a build of {depth} moves lists more than {most} positions here (over {}), more than half \
         the memory budget of {}{} allows: build fewer moves, or allow more memory",
        Bytes(*most as u128 * POSITION_BYTES as u128),
        Bytes(*budget as u128),
        limit.explanation()
    )]
    TooManyPositions {
        /// The moves asked for.
        depth: u32,
        /// The most positions the budget allows.
        most: u64,
        /// The budget's bytes.
        budget: u64,
        /// Which limit set the budget.
        limit: Limit,
    },
}

/// What listing one position of a build takes: its key in a level and in the expansion's frontier,
/// its node in the map and its children's keys, and the map's room to grow (peak resident memory
/// measured: some 210 bytes a position over 6.2 million positions eight moves into 4×4 boxes, 290
/// over 2.1 million of the 21-dot triangles board; rounded up).
pub const POSITION_BYTES: u64 = 320;

/// The positions up to `depth` moves a build may list within `budget`: half of it (the other half
/// for the search's table).
fn most_positions(budget: MemoryBudget) -> u64 {
    budget.bytes() / 2 / POSITION_BYTES
}

/// A position of the build and its distinct children.
struct Node {
    drawn: EdgeSet,
    cells: u32,
    /// (the child's key, points the move scores, the move)
    children: Vec<(u64, u32, Edge)>,
}

fn rules(built: &BuiltBoard) -> Completion<'_> {
    built
        .board
        .completion()
        .expect("dots boards state completion rules")
}

/// How many positions are listed between two reports of a [`Plan`]'s listing (and checks of its
/// halt): a few milliseconds of work.
const LISTED_EVERY: usize = 1 << 14;

/// The positions a build proves, listed once: every distinct position (up to the board's
/// symmetries and twins) up to a number of moves after each start, in levels (level `d` holds the
/// positions `d` edges after a start), each with its distinct children. Listed before the book is
/// touched, so a front end can say how many positions a build covers, and a build too big for its
/// memory is refused having written nothing; [`build_planned`] then proves them.
pub struct Plan {
    levels: Vec<Vec<u64>>,
    nodes: HashMap<u64, Node>,
}

impl Plan {
    /// Lists every distinct position up to `depth` edges after each of `starts`; refused
    /// ([`BuildError::TooManyPositions`]) as soon as they are more than half of `budget` holds.
    /// A listing of millions of positions takes seconds: `listed` is told the positions listed so
    /// far every few thousand, and `halt` is checked as often ([`BuildError::Listing`]).
    pub fn list(
        built: &BuiltBoard,
        starts: &[EdgeSet],
        depth: u32,
        budget: MemoryBudget,
        halt: &Halt,
        listed: Option<Progress<'_>>,
    ) -> Result<Plan, BuildError> {
        let (levels, nodes) = levels(built, starts, depth, budget, halt, listed)?;
        Ok(Plan { levels, nodes })
    }

    /// The number of distinct positions listed.
    pub fn len(&self) -> usize {
        self.levels.iter().map(Vec::len).sum()
    }

    /// Whether no position is listed (never, for a plan with a start).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The positions of a build and their expansion: levels of keys and each position's node by key.
type Levels = (Vec<Vec<u64>>, HashMap<u64, Node>);

/// [`Plan::list`]'s listing.
fn levels(
    built: &BuiltBoard,
    starts: &[EdgeSet],
    depth: u32,
    budget: MemoryBudget,
    halt: &Halt,
    on_listed: Option<Progress<'_>>,
) -> Result<Levels, BuildError> {
    let most = most_positions(budget);
    let too_many = || BuildError::TooManyPositions {
        depth,
        most,
        budget: budget.bytes(),
        limit: budget.limit(),
    };
    let board = &built.board;
    let scheme = KeyScheme::new(board);
    let rules = rules(built);
    let mut nodes: HashMap<u64, Node> = HashMap::new();
    let mut levels: Vec<Vec<u64>> = vec![Vec::new()];
    let mut frontier: Vec<EdgeSet> = Vec::new();
    for &start in starts {
        let key = scheme.key(start).key;
        if let std::collections::hash_map::Entry::Vacant(slot) = nodes.entry(key) {
            slot.insert(Node {
                drawn: start,
                cells: scheme.open_cells(start),
                children: Vec::new(),
            });
            levels[0].push(key);
            frontier.push(start);
        }
    }
    for _ in 0..depth {
        // Past the last edge nothing is left to expand (a depth of 2^32 - 1 ends here at once).
        if frontier.is_empty() {
            break;
        }
        let mut next = Vec::new();
        let mut level = Vec::new();
        for drawn in frontier {
            let key = scheme.key(drawn).key;
            let mut children = Vec::new();
            for e in 0..board.edge_count() as u32 {
                if drawn.0 >> e & 1 == 1 {
                    continue;
                }
                let child = EdgeSet(drawn.0 | 1 << e);
                let child_key = scheme.key(child).key;
                if children.iter().any(|&(k, _, _)| k == child_key) {
                    continue;
                }
                children.push((child_key, rules.points(drawn.0, e), Edge(e as u8)));
                // The map holds every position listed so far, in every level.
                let listed = nodes.len() as u64;
                if let std::collections::hash_map::Entry::Vacant(slot) = nodes.entry(child_key) {
                    if listed >= most {
                        return Err(too_many());
                    }
                    slot.insert(Node {
                        drawn: child,
                        cells: scheme.open_cells(child),
                        children: Vec::new(),
                    });
                    level.push(child_key);
                    next.push(child);
                    if nodes.len() % LISTED_EVERY == 0 {
                        if let Some(halted) = halt.check() {
                            return Err(BuildError::Listing(halted));
                        }
                        if let Some(tell) = on_listed {
                            tell(nodes.len() as u64);
                        }
                    }
                }
            }
            nodes
                .get_mut(&key)
                .expect("every expanded node is kept")
                .children = children;
        }
        levels.push(level);
        frontier = next;
    }
    Ok((levels, nodes))
}

/// A position a build proves by the search ([`leaves`]), with what proving it apart takes.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Leaf {
    /// The board's slug (`boxes-4x4`): the book entry's `board`.
    pub board: String,
    /// Its key: the book entry's `key`.
    pub key: u64,
    /// Its free edges.
    pub free: u32,
    /// The edges drawn after the start, in edge order (`2-7`): played after the start's moves
    /// they reach the very position the build searches (not only one of the same key), so a
    /// build of depth 0 from there proves the entry the whole build would write.
    pub moves: Vec<String>,
}

/// The positions a build of `depth` moves from `start` proves by the search: every distinct
/// position (up to the board's symmetries and twins) `depth` moves after `start`, and any game
/// over before, each once, in the build's order — its levels' leaves, not a second enumeration.
/// Each can be proved apart (on other machines: `python -m plysolve.distributed book`) into the
/// book, where the build finds them and proves every shallower position from its children.
///
/// Refused, as a build would be, when the positions are more than half of `budget` holds.
pub fn leaves(
    built: &BuiltBoard,
    start: EdgeSet,
    depth: u32,
    budget: MemoryBudget,
) -> Result<Vec<Leaf>, BuildError> {
    let board = &built.board;
    let (levels, nodes) = levels(built, &[start], depth, budget, &Halt::never(), None)?;
    Ok(levels
        .iter()
        .flatten()
        .map(|key| (key, &nodes[key]))
        .filter(|(_, node)| node.children.is_empty())
        .map(|(&key, node)| Leaf {
            board: built.geometry.slug(),
            key,
            free: board.edge_count() as u32 - node.drawn.len(),
            moves: (0..board.edge_count() as u8)
                .map(Edge)
                .filter(|&e| node.drawn.contains(e) && !start.contains(e))
                .map(|e| format_edge(board, e))
                .collect(),
        })
        .collect())
}

/// Proves every position up to `options.depth` edges after each of `starts` into `book`, telling
/// `on_event` each one settled; gives the entries written or found, shallowest first. A position the
/// book already holds exactly is found, not proved again (with its best move, if it has one).
pub fn build(
    book: &BookFile,
    built: &BuiltBoard,
    starts: &[EdgeSet],
    options: BuildOptions<'_>,
    on_event: &mut dyn FnMut(&BuildEvent),
) -> Result<Vec<BookEntry>, BuildError> {
    build_in(book, built, starts, options, None, None, on_event)
}

/// [`build`], its searches in `memory` when given: a search memory kept between builds, whose
/// table's bounds (of positions of the board, whatever the root they were met under) the searches
/// meet — so a worker proving one position after another (`python -m plysolve.distributed book`)
/// keeps its table as one build keeps it across its positions (`None`: a memory of its own); and
/// meeting and adding to `shared`, bounds shared with the builds of other workers, when given.
pub fn build_in(
    book: &BookFile,
    built: &BuiltBoard,
    starts: &[EdgeSet],
    options: BuildOptions<'_>,
    memory: Option<&Arc<SearchMemory>>,
    shared: Option<&SharedBounds>,
    on_event: &mut dyn FnMut(&BuildEvent),
) -> Result<Vec<BookEntry>, BuildError> {
    // Listed before the book is touched: a build refused for its size writes nothing.
    let plan = Plan::list(
        built,
        starts,
        options.depth,
        options.budget,
        options.halt,
        None,
    )?;
    build_planned(book, built, &plan, options, memory, shared, on_event)
}

/// [`build_in`] of the positions `plan` lists (its depth, not `options.depth`): for a front end
/// that listed them first, to say how many there are before the book is opened.
pub fn build_planned(
    book: &BookFile,
    built: &BuiltBoard,
    plan: &Plan,
    options: BuildOptions<'_>,
    memory: Option<&Arc<SearchMemory>>,
    shared: Option<&SharedBounds>,
    on_event: &mut dyn FnMut(&BuildEvent),
) -> Result<Vec<BookEntry>, BuildError> {
    let Plan { levels, nodes } = plan;
    book.add_board(built)?;
    let board = &built.board;
    let slug = built.geometry.slug();
    let total: usize = levels.iter().map(Vec::len).sum();
    // The search's table in what the list leaves of the budget.
    let listed = total as u64 * POSITION_BYTES;
    let table_budget = options
        .budget
        .share(options.budget.bytes().saturating_sub(listed));
    let most_free = levels
        .iter()
        .flatten()
        .map(|k| board.edge_count() as u32 - nodes[k].drawn.len())
        .max()
        .unwrap_or(0);
    let memory = match memory {
        Some(kept) => kept.clone(),
        None => Arc::new(SearchMemory::new(
            SearchOptions::table_bytes_for(most_free, table_budget),
            table_budget,
        )?),
    };
    // What stopped builds kept: their settled positions' forgotten, the rest read (as much as
    // the budget leaves room for beside the table) into the table before the first search.
    let most_kept = states_within(table_budget, memory.table_bytes());
    book.forget_settled(built)?;
    let mut unfinished = Some(book.unfinished_of(built, Unfinished::Build, most_kept)?);
    // The book's entries, read once and added to as they are written (read again only when
    // another process has written into the book meanwhile).
    let mut index = BoardBook::of_file(book, built)?;
    let mut done = 0;
    let mut searched = (0usize, Duration::ZERO);
    let mut to_search = levels
        .iter()
        .flatten()
        .filter(|k| nodes[k].children.is_empty())
        .count();
    let mut written = Vec::new();
    for level in levels.iter().rev() {
        for &key in level {
            let node = &nodes[&key];
            let leaf = node.children.is_empty();
            let kept = book.get(&slug, key)?;
            let mut entry = match kept {
                Some(mut entry) if entry.value().is_some() => {
                    // An entry proved without its best move (by an older build, or found by a
                    // search that ran out of time for it) gets its children's, once they are all
                    // in the book.
                    if entry.best.is_none() && !leaf {
                        let best = from_children(book, built, key, node)?
                            .filter(|c| c.value() == entry.value())
                            .and_then(|c| c.best);
                        if let Some(best) = best {
                            entry = book.put(built, &BookEntry {
                                best: Some(best),
                                ..entry
                            })?;
                            index.add_written(&entry);
                        }
                    }
                    done += 1;
                    to_search -= usize::from(leaf);
                    on_event(&BuildEvent {
                        done,
                        total,
                        entry: entry.clone(),
                        found: true,
                        eta: None,
                    });
                    written.push(entry);
                    continue;
                }
                _ => None,
            };
            if !leaf {
                entry = from_children(book, built, key, node)?;
            }
            // Whether the search proved it (and may have kept work as it went).
            let by_search = entry.is_none();
            let entry = match entry {
                Some(entry) => entry,
                None => {
                    let started = Instant::now();
                    // What a stopped build kept, into the table before its first search (the
                    // table keeps it for the positions after).
                    let resume = Resume {
                        seed: &Cell::new(unfinished.take().unwrap_or_default()),
                        most_kept,
                    };
                    if index.is_stale(book) {
                        index = BoardBook::of_file(book, built)?;
                    }
                    let entry =
                        prove(book, &index, node.drawn, &memory, shared, resume, options)?;
                    searched = (searched.0 + 1, searched.1 + started.elapsed());
                    to_search = to_search.saturating_sub(usize::from(leaf));
                    entry
                }
            };
            // Bounds as wide as the cells left prove nothing: not written (nor given back).
            let open = node.cells as i32;
            let proved = open == 0 || entry.lower > -open || entry.upper < open;
            let merged = if proved {
                let merged = book.put(built, &entry).map_err(|error| BuildError::NotWritten {
                    error: Box::new(error),
                    position: named(built, key),
                    what: "proved",
                    range: entry.range(),
                })?;
                index.add_written(&merged);
                if by_search && merged.value().is_some() {
                    // What its proof kept as it went is done with (housekeeping: a keep left
                    // by a failure here is forgotten as the next build starts, forget_settled).
                    let _ = book.clear_unfinished(built, Unfinished::Build, key);
                }
                merged
            } else {
                entry
            };
            done += 1;
            let eta = (searched.0 > 0).then(|| searched.1 / searched.0 as u32 * to_search as u32);
            on_event(&BuildEvent {
                done,
                total,
                entry: merged.clone(),
                found: false,
                eta,
            });
            if proved {
                written.push(merged);
            }
            if options.halt.check().is_some() {
                return Ok(written);
            }
        }
    }
    written.reverse();
    Ok(written)
}

/// The entry of an interior position from its children's entries, when they leave one value.
fn from_children(
    book: &BookFile,
    built: &BuiltBoard,
    key: u64,
    node: &Node,
) -> Result<Option<BookEntry>, BookError> {
    let slug = built.geometry.slug();
    let scheme = KeyScheme::new(&built.board);
    let mut children = Vec::new();
    for &(child, points, _) in &node.children {
        let entry = book.get(&slug, child)?;
        children.push((points, entry.map(|e| e.range())));
    }
    let range = combine(node.cells, &children);
    let Some(value) = range.value() else {
        return Ok(None);
    };
    let best = node
        .children
        .iter()
        .zip(&children)
        .find(|(_, (points, r))| r.is_some_and(|r| r.after_move(*points).lower >= value))
        .map(|(&(_, _, e), _)| e);
    let keyed = scheme.key(node.drawn);
    Ok(Some(BookEntry {
        board: slug,
        key,
        free: built.board.edge_count() as u32 - node.drawn.len(),
        lower: value,
        upper: value,
        best: best.map(|e| format_edge(&built.board, scheme.to_key_frame(keyed, e))),
        // The children's proofs carry the compute; this one took none.
        nodes: 0,
        seconds: 0.0,
        proved_by: proved_by("children"),
        checked_by: None,
    }))
}

/// What a build's proof starts from and keeps: the states stopped builds kept (taken as the
/// search's table is seeded with them) and the most states a keep of its own holds.
#[derive(Clone, Copy)]
struct Resume<'a> {
    seed: &'a Cell<Vec<ProvedState>>,
    most_kept: usize,
}

/// Proves the position `drawn` by the search (within the time per position; in `memory`, meeting
/// `index`, the book's entries, and `shared`), and a best move when its value is proved: the first
/// move, in the search's order, proved to keep it.
fn prove(
    book: &BookFile,
    index: &BoardBook,
    drawn: EdgeSet,
    memory: &Arc<SearchMemory>,
    shared: Option<&SharedBounds>,
    resume: Resume<'_>,
    options: BuildOptions<'_>,
) -> Result<BookEntry, BuildError> {
    let built = index.built();
    let board = &built.board;
    // The book's parents of the position bound it: a position two moves in, its first moves
    // proved, starts with one side settled (0.93× the nodes over eight 3×4 positions three moves
    // in, BENCHMARKS).
    let bounded = ParentBounded(index);
    let started = Instant::now();
    let halt = match options.time_per_position {
        Some(t) => options.halt.within(t),
        None => options.halt.clone(),
    };
    let solve = SolveOptions {
        tie_order: options.tie_order,
        halt: &halt,
        search_memory: Some(memory),
        known: Some(&bounded),
        shared_bounds: shared,
        seed: Some(resume.seed),
        progress: options.progress,
        ..SolveOptions::new(options.budget)
    };
    let keeper = Keeper {
        book,
        work: ProofWork {
            built,
            memory,
            drawn,
            part: Unfinished::Build,
            most: resume.most_kept,
        },
    };
    let proof = keeper.keeping(options.keep, || {
        with_solver(board, Strategy::Search, solve, &drawn, |inner| {
        // The book's own entry of the position (bounds, say) and of its children count too.
        let mut solver = Informed::new(board, &bounded, Some(inner));
        let range = solver.range(&drawn)?;
        let mut best = None;
        if let Some(v) = range.value() {
            let rules = rules(built);
            for e in move_order(board, &drawn, options.tie_order)? {
                let points = rules.points(drawn.0, e);
                let window = ValueRange {
                    lower: v - 1,
                    upper: v,
                }
                .before_move(points);
                let child = EdgeSet(drawn.0 | 1 << e);
                let found = solver.range_within(&child, window)?.after_move(points);
                if found.lower >= v {
                    best = Some(Edge(e as u8));
                    break;
                }
                if solver.halted().is_some() {
                    break;
                }
            }
        }
        Ok((range, solver.states_visited(), best))
        })
    });
    let (range, nodes, best) = proof.map_err(|e| index.worded(e, |set| position_named(built, set)))?;
    let tie = crate::games::dots::request::tie_name(options.tie_order);
    if range.value().is_none() && options.halt.check().is_some() {
        keeper.keep()?;
    }
    Ok(BookEntry::of(
        built,
        drawn,
        range,
        best,
        nodes,
        started.elapsed().as_secs_f64(),
        proved_by(&format!("search {tie}")),
    ))
}

/// A position whose second proof disagrees with its entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Disagreement {
    /// The position's edges (`position_text`).
    pub position: String,
    /// Its key.
    pub key: u64,
    /// What the book says.
    pub book: ValueRange,
    /// What the second proof found.
    pub found: ValueRange,
}

/// What a verification found.
#[derive(Debug, Clone, Default)]
pub struct Verified {
    /// Entries proved again and found right (now marked checked).
    pub agreed: usize,
    /// Of those, entries proved from their children that were checked from their children's
    /// checked entries (no search).
    pub from_children: usize,
    /// Entries checked by an earlier verification, not proved again (when resuming).
    pub already: usize,
    /// Entries whose second proof ran out of time.
    pub unsettled: usize,
    /// Entries proved otherwise.
    pub disagreements: Vec<Disagreement>,
}

/// How a verification runs.
#[derive(Clone, Copy)]
pub struct VerifyOptions<'a> {
    /// The most time one entry's second proof may take (`None`: as long as it needs).
    pub time: Option<Duration>,
    /// Memory the search's table may take.
    pub budget: MemoryBudget,
    /// Resumes a verification stopped part way: entries an earlier one checked are counted as
    /// `already` and not proved again, and count as checked children, and the second proofs start
    /// from what an earlier one's search kept (the book's unfinished work, part `check`). Otherwise every
    /// entry is proved again from nothing and only what this verification confirms is trusted.
    pub resume: bool,
    /// Stops the verification between entries and within a proof (what was checked stays marked;
    /// what the proof under way had proved is kept).
    pub halt: &'a Halt,
    /// Told the states the search has visited while it proves one entry again.
    pub progress: Option<Progress<'a>>,
    /// Told of each entry as its second proof by the search starts (not of one checked from its
    /// children, or before): what a long verification's progress names, with the first proof's
    /// nodes as the measure of what is to come.
    pub starting: Option<&'a dyn Fn(&BookEntry)>,
    /// How a long second proof keeps what its search has proved so far in the book (part
    /// `check` of its unfinished work) as it goes (`None`: only when stopped), for a resumed verification to
    /// start from.
    pub keep: Option<Keeping<'a>>,
}

/// Proves `entries` (exact ones of `built`'s board) again, fewest free edges first, and marks those
/// that agree as checked in `book`: an entry whose children are all in the book, exact and
/// confirmed (earlier in this verification, or by an earlier one when resuming), from their
/// entries (Wilson's rule, no search) whatever proved it — so the empty board and the first moves
/// of a book whose two-move positions are checked are checked at once; any other by the search
/// in the other tie order than the one its proof names (high-first for one proved from its
/// children), with no book and a table of its own, within `options.time` each. Each entry is taken as the book holds it when
/// its turn comes. `on_entry` hears of each entry: what its second proof found, `None` for one
/// checked before.
pub fn verify(
    book: &BookFile,
    built: &BuiltBoard,
    entries: &[BookEntry],
    options: VerifyOptions<'_>,
    on_entry: &mut dyn FnMut(&BookEntry, Option<ValueRange>),
) -> Result<Verified, BuildError> {
    let board = &built.board;
    let mut verified = Verified::default();
    let mut entries: Vec<&BookEntry> = entries.iter().filter(|e| e.value().is_some()).collect();
    entries.sort_by_key(|e| (e.free, e.key));
    let most_free = entries.iter().map(|e| e.free).max().unwrap_or(0);
    let memory = Arc::new(SearchMemory::new(
        SearchOptions::table_bytes_for(most_free, options.budget),
        options.budget,
    )?);
    // What an earlier verification's second proofs kept: their checked positions' forgotten, the
    // rest into the table before the first search.
    let most_kept = states_within(options.budget, memory.table_bytes());
    book.forget_settled(built)?;
    let mut unfinished = if options.resume {
        Some(book.unfinished_of(built, Unfinished::Check, most_kept)?)
    } else {
        None
    };
    // Entries this verification confirmed: parents are checked from them.
    let mut confirmed = std::collections::HashSet::new();
    let slug = built.geometry.slug();
    for asked in entries {
        // As the book holds it now (checked since the list was read, say).
        let entry = &book.get(&slug, asked.key)?.unwrap_or_else(|| asked.clone());
        let Some(value) = entry.value() else {
            continue;
        };
        if options.resume && checked_independently(entry) {
            verified.already += 1;
            on_entry(entry, None);
            continue;
        }
        let drawn = EdgeSet(entry.key);
        // Whatever proved the entry, its children checked by second proofs give its value by
        // Wilson's rule with no search: a check independent of the entry's own proof (for one
        // proved from its children, the children are now checked ones).
        let trusted = |child: u64, e: &BookEntry| {
            confirmed.contains(&child) || (options.resume && checked_independently(e))
        };
        let from_children = from_checked_children(book, built, drawn, &trusted)?;
        let (found, how) = match from_children {
            Some(found) => (found, "children".to_string()),
            None => {
                let tie_order = if entry.proved_by.ends_with("high-first") {
                    TieOrder::LowFirst
                } else {
                    TieOrder::HighFirst
                };
                let halt = match options.time {
                    Some(t) => options.halt.within(t),
                    None => options.halt.clone(),
                };
                if let Some(starting) = options.starting {
                    starting(entry);
                }
                let seed = Cell::new(unfinished.take().unwrap_or_default());
                let solve = SolveOptions {
                    tie_order,
                    halt: &halt,
                    search_memory: Some(&memory),
                    progress: options.progress,
                    seed: Some(&seed),
                    ..SolveOptions::new(options.budget)
                };
                let keeper = Keeper {
                    book,
                    work: ProofWork {
                        built,
                        memory: &memory,
                        drawn,
                        part: Unfinished::Check,
                        most: most_kept,
                    },
                };
                let found = keeper.keeping(options.keep, || {
                    with_solver(board, Strategy::Search, solve, &drawn, |s| s.range(&drawn))
                })?;
                if found.value().is_none() && options.halt.check().is_some() {
                    keeper.keep()?;
                }
                let tie = crate::games::dots::request::tie_name(tie_order);
                (found, format!("search {tie}"))
            }
        };
        // A second proof stopped part way found nothing to tell: its work is kept, the
        // verification ends.
        if found.value().is_none() && options.halt.check().is_some() {
            break;
        }
        on_entry(entry, Some(found));
        match found.value() {
            Some(v) if v == value => {
                verified.agreed += 1;
                verified.from_children += usize::from(from_children.is_some());
                confirmed.insert(entry.key);
                book.put(
                    built,
                    &BookEntry {
                        checked_by: Some(proved_by(&how)),
                        ..entry.clone()
                    },
                )
                .map_err(|error| BuildError::NotWritten {
                    error: Box::new(error),
                    position: named(built, entry.key),
                    what: "checked again, agreeing,",
                    range: found,
                })?;
                if from_children.is_none() {
                    // Housekeeping, as a build's (see there).
                    let _ = book.clear_unfinished(built, Unfinished::Check, entry.key);
                }
            }
            _ if found.lower <= value && value <= found.upper => verified.unsettled += 1,
            _ => verified.disagreements.push(Disagreement {
                position: position_text(built, entry.key),
                key: entry.key,
                book: entry.range(),
                found,
            }),
        }
        if options.halt.check().is_some() {
            break;
        }
    }
    Ok(verified)
}

/// A position by its key, as messages name it: its edges, or "the empty board".
fn named(built: &BuiltBoard, key: u64) -> String {
    match position_text(built, key) {
        text if text.is_empty() => "the empty board".to_string(),
        text => text,
    }
}

/// A value or bounds in words: `-2`, `-2..+1`.
fn range_words(range: ValueRange) -> String {
    match range.value() {
        Some(v) => format!("{v:+}"),
        None => format!("{:+}..{:+}", range.lower, range.upper),
    }
}

/// Whether `entry`'s check is one a resumed verification may count on: what a verification
/// writes, `ply VERSION METHOD`, by another method than the entry's own proof (the search in a
/// tie order its proof did not use, or its children's entries, themselves checked) — not a check
/// that names the very proof it checks, nor text no verification writes (a book edited by hand).
fn checked_independently(entry: &BookEntry) -> bool {
    let method = |by: &str| {
        by.strip_prefix("ply ")
            .and_then(|rest| rest.split_once(' '))
            .map(|(_, method)| method.to_string())
    };
    let Some(checked) = entry.checked_by.as_deref().and_then(method) else {
        return false;
    };
    match checked.as_str() {
        "children" => true,
        "search low-first" | "search high-first" => method(&entry.proved_by) != Some(checked),
        _ => false,
    }
}

/// What the entries of the children of `drawn` say of it (Wilson's rule), when every child is in
/// `book` exactly and `trusted` (by its key and entry); `None` otherwise.
fn from_checked_children(
    book: &BookFile,
    built: &BuiltBoard,
    drawn: EdgeSet,
    trusted: &dyn Fn(u64, &BookEntry) -> bool,
) -> Result<Option<ValueRange>, BookError> {
    // One position's children: a few dozen at most, whatever the budget.
    let (levels, nodes) = levels(built, &[drawn], 1, MemoryBudget::new(u64::MAX), &Halt::never(), None)
        .expect("no budget refuses one position's children");
    let node = &nodes[&levels[0][0]];
    if node.children.is_empty() {
        return Ok(None);
    }
    let slug = built.geometry.slug();
    let mut children = Vec::new();
    for &(child, points, _) in &node.children {
        match book.get(&slug, child)? {
            Some(e) if e.value().is_some() && trusted(child, &e) => {
                children.push((points, Some(e.range())));
            }
            _ => return Ok(None),
        }
    }
    Ok(Some(combine(node.cells, &children)))
}
