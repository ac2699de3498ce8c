//! What a long proof keeps as it goes: the bounds its search has proved of the states below its
//! position, written into the book (its unfinished work, [`super::unfinished`]: a build's, or a
//! verification's second proof's apart) every few minutes while the search runs and once more when it is
//! stopped — so a proof of hours that is killed outright (SIGKILL, a machine switched off) or
//! stopped (Ctrl-C) starts again from them, not from nothing.

use super::key::KeyScheme;
use super::store::{BookError, BookFile};
use super::unfinished::Unfinished;
use crate::engine::scored::search::{ProvedState, SearchMemory};
use crate::games::dots::geometry::BuiltBoard;
use crate::engine::MemoryBudget;
use crate::games::dots::EdgeSet;
use std::sync::mpsc::{channel, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How often a long proof keeps what its search has proved so far, by default: a keep takes
/// seconds (two reads of the table, at most [`PART_PROVED_MOST`] states written in blocks) — a
/// hundredth of the time between two or less (BENCHMARKS).
pub const KEEP_EVERY: Duration = Duration::from_secs(10 * 60);

/// The shortest time between two keeps: a keep takes seconds.
pub const SHORTEST_KEEP: Duration = Duration::from_secs(1);

/// A time between two keeps as a user writes it (`10m`): a time ([`parse_time`]) of at least
/// [`SHORTEST_KEEP`], or why not in one line.
///
/// [`parse_time`]: crate::input::duration::parse_time
pub fn parse_keep_every(text: &str) -> Result<Duration, String> {
    match crate::input::duration::parse_time(text) {
        Ok(t) if t < SHORTEST_KEEP => Err(format!(
            "{} is under a second: a keep takes seconds",
            crate::input::quote(text)
        )),
        Ok(t) => Ok(t),
        Err(e) => Err(e.to_string()),
    }
}

/// How many fewer free edges than the position the states whose bounds its search proved may
/// have, to be kept: the deeper states are many and each saves little.
pub const PART_PROVED_BELOW: u32 = 20;

/// The most states one proof keeps (most free edges first): 384 MB of blocks, written in seconds;
/// read out, a gigabyte of memory (fewer states when the budget leaves less room,
/// [`states_within`]). A resumed proof saves about as much as its keep
/// held: on a 4×4 position of 76 million states stopped after 80 %, a resumed search with two
/// million kept visits 47 million, with 30 million kept 18 million (BENCHMARKS).
pub const PART_PROVED_MOST: usize = 32_000_000;

/// The bytes one state takes while a keep reads it out of the table, or a resumed proof reads it
/// back from the book.
const STATE_READ_BYTES: u64 = std::mem::size_of::<ProvedState>() as u64;

/// The most states a keep holds, and a resumed proof reads back, beside a search table of
/// `table_bytes` within `budget`: [`PART_PROVED_MOST`], or fewer when the room the table leaves
/// holds fewer of them read out — keeping never takes memory the budget does not allow.
pub fn states_within(budget: MemoryBudget, table_bytes: u64) -> usize {
    let room = budget.bytes().saturating_sub(table_bytes);
    (room / STATE_READ_BYTES).min(PART_PROVED_MOST as u64) as usize
}

/// What a long proof's keeping did, told as it happens.
#[derive(Debug, Clone, PartialEq)]
pub enum KeepEvent {
    /// The proof's work so far is in the book: so many states, written in so many seconds.
    Kept {
        /// States kept.
        states: usize,
        /// Seconds the keep took.
        seconds: f64,
    },
    /// A keep failed (why, in one line); the next is tried at the next turn.
    Failed(String),
}

/// How a long proof keeps its work as it goes.
#[derive(Clone, Copy)]
pub struct Keeping<'a> {
    /// How often ([`KEEP_EVERY`] by default).
    pub every: Duration,
    /// Told of each keep (a front end shows it between its progress lines).
    pub told: Option<&'a (dyn Fn(&KeepEvent) + Sync)>,
}

impl Keeping<'_> {
    /// Every [`KEEP_EVERY`], telling no one.
    pub fn by_default() -> Self {
        Keeping {
            every: KEEP_EVERY,
            told: None,
        }
    }
}

/// A proof in progress: the position `drawn` of `built`'s board, searched in `memory`, its work
/// kept as the book's `part` of unfinished work, as the proof of `root` (the position's key).
#[derive(Clone, Copy)]
pub(super) struct ProofWork<'a> {
    /// The board.
    pub built: &'a BuiltBoard,
    /// The search's memory (its table).
    pub memory: &'a SearchMemory,
    /// The position under proof.
    pub drawn: EdgeSet,
    /// Which part of the book's unfinished work its work is.
    pub part: Unfinished,
    /// The most states a keep holds ([`states_within`] the proof's budget).
    pub most: usize,
}

impl ProofWork<'_> {
    /// The key of the position: what its proof's keep is kept under.
    fn root(&self) -> u64 {
        KeyScheme::new(&self.built.board).key(self.drawn).key
    }
}

/// A proof in progress whose search's work is kept in `book`.
pub(super) struct Keeper<'a> {
    /// The book the proof is written into.
    pub book: &'a BookFile,
    /// The proof.
    pub work: ProofWork<'a>,
}

impl Keeper<'_> {
    /// Keeps what the search has proved of the position: the bounds its table holds of states
    /// with at most [`PART_PROVED_BELOW`] fewer free edges (at most `work.most` of them,
    /// most free first), in place of what this position's proof kept before, in one transaction.
    /// Every one is proved (a search stores a state's bounds once its subtree is searched; a
    /// halted one stores nothing more); the next build (or verification) stores them into its
    /// table before it searches. Bounds as wide as the cells left are not kept. Gives how many
    /// were kept.
    pub fn keep(&self) -> Result<usize, BookError> {
        keep_part_proved(self.book, self.work)
    }

    /// Runs `proof` (the search of the position) and, while it runs, on a thread of its own with
    /// a connection of its own to the book, keeps its work every `keeping.every` (`None`: never),
    /// telling `keeping.told` of each keep. A keep that fails is told and tried again at the next
    /// turn; the proof goes on whatever the keeps do (its own writes meet the book's faults). A
    /// book with no file (made from bytes) keeps nothing. A proof that ends while a keep is being
    /// written waits for it.
    pub fn keeping<T>(&self, keeping: Option<Keeping<'_>>, proof: impl FnOnce() -> T) -> T {
        let (Some(keeping), Some(path)) = (keeping, self.book.path()) else {
            return proof();
        };
        let (done, finished) = channel::<()>();
        let work = self.work;
        std::thread::scope(|scope| {
            scope.spawn(move || {
                let mut own: Option<BookFile> = None;
                while let Err(RecvTimeoutError::Timeout) = finished.recv_timeout(keeping.every) {
                    let started = Instant::now();
                    let kept = match &own {
                        Some(book) => keep_part_proved(book, work),
                        None => BookFile::open_beside(path).and_then(|book| {
                            let kept = keep_part_proved(&book, work);
                            own = Some(book);
                            kept
                        }),
                    };
                    let event = match kept {
                        Ok(states) => KeepEvent::Kept {
                            states,
                            seconds: started.elapsed().as_secs_f64(),
                        },
                        Err(e) => KeepEvent::Failed(e.to_string()),
                    };
                    if let Some(told) = keeping.told {
                        told(&event);
                    }
                }
            });
            let found = proof();
            drop(done);
            found
        })
    }
}

/// [`Keeper::keep`] of `work` into `book` (the keeper's own, or another connection to its file).
fn keep_part_proved(book: &BookFile, work: ProofWork<'_>) -> Result<usize, BookError> {
    let built = work.built;
    let board = &built.board;
    let edges = board.edge_count() as u32;
    let scheme = KeyScheme::new(board);
    let free = edges - work.drawn.len();
    let states: Vec<ProvedState> = work
        .memory
        .proved(edges, free.saturating_sub(PART_PROVED_BELOW), work.most)
        .into_iter()
        .filter(|p| {
            let open = scheme.open_cells(EdgeSet(p.state)) as i32;
            p.range.lower > -open || p.range.upper < open
        })
        .collect();
    book.replace_unfinished(built, work.part, work.root(), &states)?;
    Ok(states.len())
}
