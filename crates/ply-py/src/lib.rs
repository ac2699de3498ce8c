//! `plysolve._ply`: the native half of the Python package, a front end like the command line and
//! the server. Every question of the library's registry (`plysolve::games::registry`) is asked
//! through `ask` by its Python name, with the JSON body `POST` to its path takes (keys = the
//! command line's long options), and answered as the server answers it; `questions` lists them.
//! The dots functions that take more than a request — a progress callback, a book, the cores, a
//! distributed job's `stop` — and the books' own functions take their home's request as JSON and
//! their own arguments as JSON (`Args`), make the same library call the CLI makes, and return the
//! report as JSON text — exactly what `ply … --json` prints. Every fault is a ValueError worded
//! in Python's terms (`strategy="memo"`, `rows must be a whole number, not "x"`). The Python half
//! (`plysolve/__init__.py`) builds the request from keyword arguments and parses the answer;
//! nothing here knows a rule.
//!
//! Solves run on a thread of their own, the GIL released; the calling thread waits with the GIL
//! released, and every 50 ms takes it to check Python's signals (Ctrl-C raises the solve's cancel
//! flag, waits for it to stop, and raises `KeyboardInterrupt`), to tell a progress callback the
//! latest count (an exception from the callback stops the solve the same way) and, for a job of
//! the distributed search, to ask its `stop` callable whether the job is still wanted (when not,
//! the solve stops and reports what it proved).
//!
//! `DotsGame` (module `dots_game`) is a game in progress played by the library's rules, for Python
//! code that keeps its own game state (OpenSpiel's Dots and Triangles).

mod dots_game;

use plysolve::engine::scored::shared::{SharedBounds, SharedEntry};
use plysolve::engine::scored::ValueRange;
use plysolve::engine::util::chooser::Chooser;
use plysolve::engine::util::halt::Halt;
use plysolve::engine::util::memory::{Bytes, MemoryBudget, MemoryError};
use plysolve::games::door::{About, Context, FaultKind, Grants};
use plysolve::games::dots::answer::{answer, fault, Hooks};
use plysolve::games::dots::board::MAX_CELLS;
use plysolve::games::dots::book::build::{
    build_in, leaves, verify, BuildEvent, BuildOptions, VerifyOptions,
};
use plysolve::games::dots::book::keeping::{parse_keep_every, Keeping};
use plysolve::games::dots::book::{ops, BookFile, Books};
use plysolve::games::dots::jobs::{combine, expand};
use plysolve::games::dots::kept::Kept;
use plysolve::games::dots::level::Level;
use plysolve::games::dots::player::think_at_level;
use plysolve::games::dots::policy::Policy;
use plysolve::games::dots::request::TieOrder;
use plysolve::games::dots::request::{DotsQuery, DotsRequest};
use plysolve::games::dots::theory::Leaf;
use plysolve::games::registry;
use plysolve::input::memory_size::parse_memory_size;
use plysolve::input::quote;
use plysolve::input::surface::{Surface, Worded};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use rayon::prelude::*;
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde::Serialize;
use std::fmt::Display;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, OnceLock};
use std::time::Duration;

/// How often the waiting thread looks at Python's signals and the progress count.
const POLL: Duration = Duration::from_millis(50);

/// The search memory [`kept`] holds per board (as a server does).
const KEPT_MEMORY: u64 = 256 << 20;

/// The most boards [`kept`] holds a search memory of.
const KEPT_BOARDS: usize = 2;

/// Whole tables of small boards, kept for every later answer of the process (what `ply dots` reads
/// from its cache): the values, strategy and states reported are the same as a new table's.
fn tables() -> &'static Kept {
    static KEPT: OnceLock<Kept> = OnceLock::new();
    KEPT.get_or_init(Kept::default)
}

/// What the player ([`dots_move`]) and the registry's questions ([`ask`]) keep between calls, as
/// a server keeps it: small tables, search memories of [`KEPT_MEMORY`] for [`KEPT_BOARDS`]
/// boards, and the shipped books (a position they hold answered at once, as `ply serve` and
/// `ply play` answer it).
fn kept() -> &'static Arc<Kept> {
    static KEPT: OnceLock<Arc<Kept>> = OnceLock::new();
    KEPT.get_or_init(|| Arc::new(Kept::new(KEPT_MEMORY, KEPT_BOARDS).with_books(Books::shipped())))
}

/// What the jobs of this process keep between them ([`job_kept`]).
static JOB_KEPT: Mutex<Option<Arc<Kept>>> = Mutex::new(None);

/// Removes the search tables a distributed run named `name` kept in this host's shared memory
/// (`dots_job`'s `host_table`), waiting at most `seconds` for the processes that hold them (the
/// run's workers, killed) to be gone; the tables still held then are left (the next opening of a
/// host table removes them once free). Returns how many were left. A name that cannot be a
/// table's raises ValueError.
#[pyfunction]
fn remove_host_tables(py: Python<'_>, name: &str, seconds: f64) -> PyResult<usize> {
    if !plysolve::engine::util::memory::valid_host_table_name(name) {
        let shown = plysolve::engine::util::excerpt::excerpt(name.as_bytes());
        return Err(bad(format!("`{shown}`: not a host table's name")));
    }
    let wait = Duration::try_from_secs_f64(seconds).map_err(|e| bad(format!("seconds: {e}")))?;
    Ok(py.allow_threads(|| Kept::remove_host_tables(name, wait)))
}

/// What the jobs a process runs (the distributed solve's, and book builds that keep their table)
/// keep between them: small tables, and one board's search memory, at least the size `policy`
/// gives `query`'s search (a larger one replaces a smaller: what it held is searched again) — in
/// the host's shared memory under the name `host` if given, one table for every worker of this
/// machine that names it, sized for the board within what the machine allows with `memory`
/// given ([`Policy::host_table_bytes`]: the same size for every job, whatever is free when it
/// asks).
fn job_kept(
    policy: &Policy,
    query: &DotsQuery,
    host: Option<&str>,
    memory: Option<&str>,
) -> PyResult<Arc<Kept>> {
    let bytes = match host {
        Some(_) => Policy::host_table_bytes(query, machine_budget(memory)?),
        None => policy.search_table_bytes(query),
    };
    let mut kept = JOB_KEPT.lock().unwrap_or_else(|e| e.into_inner());
    match &*kept {
        Some(k) if k.memory_bytes() >= bytes && k.host() == host => Ok(k.clone()),
        _ => {
            let new = Kept::new(bytes, 1);
            let new = match host {
                Some(name) => new.on_host(name),
                None => new,
            };
            Ok(kept.insert(Arc::new(new)).clone())
        }
    }
}

fn bad(e: impl Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// A fault that names the request's options, in Python's terms (`strategy="memo"`, `any_size=True`).
fn worded(e: &impl Worded) -> PyErr {
    PyValueError::new_err(e.worded(Surface::Python))
}

/// `json` — a game's request, or a function's own arguments ([`Args`]) — read as the server reads
/// a body (unknown keys and wrong types refused), its faults in Python's terms: `rows must be a
/// whole number, not "x"`, `rows=99999999999999999999 is too large (at most 4294967295)`.
fn request<T: DeserializeOwned>(json: &str) -> PyResult<T> {
    plysolve::input::json::read(json.as_bytes()).map_err(|e| worded(&e))
}

/// A function's arguments beside its request (the command line's own options: `--memory`,
/// `--book`, `--seed`, …), as the Python half passes them, as JSON: each read and refused as a
/// request's are. A function reads those it takes; the Python half passes no other.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct Args {
    /// The most memory to take (`"4G"`); none: what the system allows.
    memory: Option<String>,
    /// A book to answer from and write into (a path).
    book: Option<String>,
    /// Answer from no book at all.
    #[serde(default)]
    no_book: bool,
    /// The seed of the player's ties.
    seed: Option<u64>,
    /// The player's level.
    level: Option<Level>,
    /// The estimate at the leaves of the player's anytime search (`"learned"`, `"hand-made"`).
    estimate: Option<Leaf>,
    /// A book's path.
    path: Option<String>,
    /// The book a merge reads.
    source: Option<String>,
    /// Moves to build a book to.
    depth: Option<u32>,
    /// A time per position (`"10m"`).
    time: Option<String>,
    /// The search's order among equal moves.
    tie_order: Option<TieOrder>,
    /// A book build's search table kept for the process's later builds (a worker of the book on
    /// Ray, proving one position after another, as the jobs of the distributed solve keep theirs).
    #[serde(default)]
    keep_table: bool,
    /// The name of the search table shared by this host's workers (with `keep_table`): one table
    /// in the host's shared memory for every worker of this machine that names it.
    host_table: Option<String>,
    /// A verification resuming: entries an earlier one checked are not proved again.
    #[serde(default)]
    resume: bool,
    /// How often a long proof keeps its work in the book as it goes (`"10m"`); none: only when
    /// stopped (a worker's scratch book, deleted after its job, keeps nothing).
    keep_every: Option<String>,
}

impl Args {
    /// The arguments in `json`.
    fn read(json: &str) -> PyResult<Args> {
        request(json)
    }

    /// The book's path, which the function takes.
    fn path(&self) -> PyResult<&str> {
        self.path
            .as_deref()
            .ok_or_else(|| bad("path is missing: give the book's path"))
    }

    /// The time per position, if one is given.
    fn time(&self) -> PyResult<Option<Duration>> {
        self.time
            .as_deref()
            .map(plysolve::input::duration::parse_time)
            .transpose()
            .map_err(|e| bad(format!("time: {e}")))
    }

    /// How a long proof keeps its work as it goes (`keep_every`), telling no one.
    fn keeping(&self) -> PyResult<Option<Keeping<'static>>> {
        let every = self
            .keep_every
            .as_deref()
            .map(parse_keep_every)
            .transpose()
            .map_err(|e| bad(format!("keep_every: {e}")))?;
        Ok(every.map(|every| Keeping { every, told: None }))
    }
}

fn to_json(value: &impl Serialize) -> PyResult<String> {
    serde_json::to_string(value)
        .map_err(|e| PyRuntimeError::new_err(format!("cannot write JSON: {e}")))
}

/// The memory budget `memory` asks for (`"4G"`, `"512M"`; `None`: what the system allows), as
/// `--memory` sets it.
fn budget(memory: Option<&str>) -> PyResult<MemoryBudget> {
    budget_by(memory, MemoryBudget::with_system)
}

/// What this machine allows whatever runs on it now, within `memory` (`"4G"`) if given
/// ([`MemoryBudget::of_machine`]): the figure the workers of a machine size the table they share
/// by, the same in each of them.
fn machine_budget(memory: Option<&str>) -> PyResult<MemoryBudget> {
    budget_by(memory, MemoryBudget::of_machine)
}

/// `memory` (`"4G"`) if given, read and bounded by `system`.
fn budget_by(
    memory: Option<&str>,
    system: fn(Option<u64>) -> Result<MemoryBudget, MemoryError>,
) -> PyResult<MemoryBudget> {
    let given = memory.map(parse_memory_size).transpose().map_err(bad)?;
    system(given).map_err(|e| match e {
        MemoryError::MoreThanMachine { given, physical } => bad(format!(
            "memory {} is more than this machine's {} of memory",
            Bytes(given.into()),
            Bytes(physical.into())
        )),
        e => bad(e),
    })
}

/// A halt raised by `cancel` alone (Ctrl-C in Python, through [`run`]).
fn cancelled_by(cancel: &Arc<AtomicBool>) -> Halt {
    Halt::never().with_flag(cancel.clone())
}

/// What watches a solve run by [`run`]: a progress callback, a `stop` callable (see the module's
/// docs), the cores to solve on (`None`: the global pool's).
#[derive(Default)]
struct Watch {
    progress: Option<PyObject>,
    stop: Option<PyObject>,
    threads: Option<usize>,
}

/// `threads` as the cores a solve runs on, checked: 1 to this machine's cores (more would only
/// take memory and time to start, and a huge number would not start at all).
fn cores(threads: usize) -> PyResult<usize> {
    let most = std::thread::available_parallelism().map_or(1, |n| n.get());
    match threads {
        0 => Err(bad("threads=0: a solve needs at least 1 thread")),
        n if n > most => Err(bad(format!(
            "threads={n} is more than this machine's {most} cores"
        ))),
        n => Ok(n),
    }
}

/// Runs `work` on a thread of its own (in a pool of `watch.threads` threads when given, else on
/// the global pool's cores) while this thread, the GIL released, waits; see the module's docs for
/// signals, progress and `stop`.
fn run<T: Send>(
    py: Python<'_>,
    watch: Watch,
    work: impl FnOnce(&Arc<AtomicBool>, Option<&(dyn Fn(u64) + Sync)>) -> T + Send,
) -> PyResult<T> {
    let cancel = Arc::new(AtomicBool::new(false));
    let latest = AtomicU64::new(u64::MAX);
    let done: (Mutex<Option<T>>, Condvar) = (Mutex::new(None), Condvar::new());
    let Watch {
        progress,
        stop,
        threads,
    } = watch;
    let pool = match threads {
        Some(n) => Some(
            rayon::ThreadPoolBuilder::new()
                .num_threads(cores(n)?)
                .build()
                .map_err(|e| PyRuntimeError::new_err(e.to_string()))?,
        ),
        None => None,
    };
    let wants_progress = progress.is_some();
    std::thread::scope(|scope| {
        let solving = scope.spawn(|| {
            let tell = |n: u64| latest.store(n, Ordering::Relaxed);
            let hook: Option<&(dyn Fn(u64) + Sync)> = wants_progress.then_some(&tell);
            let result = match &pool {
                Some(pool) => pool.install(|| work(&cancel, hook)),
                None => work(&cancel, hook),
            };
            *done.0.lock().unwrap_or_else(|e| e.into_inner()) = Some(result);
            done.1.notify_all();
        });
        let mut failure: Option<PyErr> = None;
        let mut told = u64::MAX;
        loop {
            // Looked at before the result: a thread that had ended by now stored its result by
            // now, unless it panicked (looked at after, a result stored between the two looks
            // would pass for a panic).
            let ended = solving.is_finished();
            let finished = py.allow_threads(|| {
                let guard = done.0.lock().unwrap_or_else(|e| e.into_inner());
                let (mut guard, _) = done
                    .1
                    .wait_timeout_while(guard, POLL, |r| r.is_none())
                    .unwrap_or_else(|e| e.into_inner());
                guard.take()
            });
            if let Some(result) = finished {
                if let Some(e) = failure {
                    return Err(e);
                }
                // The last count, which may have come after the last look.
                let n = latest.load(Ordering::Relaxed);
                if let (Some(callback), true) = (&progress, n != u64::MAX && n != told) {
                    callback.call1(py, (n,))?;
                }
                return Ok(result);
            }
            if ended {
                // The solve's thread ended without a result: it panicked.
                return Err(PyRuntimeError::new_err("the solve failed (a panic in ply)"));
            }
            if failure.is_some() {
                continue;
            }
            if let Err(e) = py.check_signals() {
                cancel.store(true, Ordering::Relaxed);
                failure = Some(e);
                continue;
            }
            if let Some(stop) = &stop {
                match stop.call0(py).and_then(|s| s.is_truthy(py)) {
                    Ok(false) => {}
                    // No longer wanted: the solve stops and says what it proved.
                    Ok(true) => cancel.store(true, Ordering::Relaxed),
                    Err(e) => {
                        cancel.store(true, Ordering::Relaxed);
                        failure = Some(e);
                        continue;
                    }
                }
            }
            if let Some(callback) = &progress {
                let n = latest.load(Ordering::Relaxed);
                if n != u64::MAX && n != told {
                    told = n;
                    if let Err(e) = callback.call1(py, (n,)) {
                        cancel.store(true, Ordering::Relaxed);
                        failure = Some(e);
                    }
                }
            }
        }
    })
}

/// `ply dots boxes|triangles … --json`: the report of a position (a JSON `DotsRequest`).
/// `args`: `memory`, `book`, `no_book` ([`Args`]); `threads`: the cores to solve on (none: every
/// core).
#[pyfunction]
#[pyo3(signature = (request, args="{}", progress=None, threads=None))]
fn dots(
    py: Python<'_>,
    request: &str,
    args: &str,
    progress: Option<PyObject>,
    threads: Option<usize>,
) -> PyResult<String> {
    let query = dots_query(request)?;
    let args = Args::read(args)?;
    let policy = Policy::new(budget(args.memory.as_deref())?, None);
    let watch = Watch {
        progress,
        stop: None,
        threads,
    };
    match (&args.book, args.no_book) {
        (None, false) => answer_json(py, &query, &policy, tables(), watch, None, None),
        (book, no_book) => answer_json(
            py,
            &query,
            &policy,
            kept_with(book.as_deref(), no_book)?.as_ref(),
            watch,
            None,
            None,
        ),
    }
}

/// The query of a JSON `DotsRequest`, checked, its faults in Python's terms.
fn dots_query(request: &str) -> PyResult<DotsQuery> {
    query_of(request).map_err(bad)
}

/// [`dots_query`]'s query, its fault as the message of the ValueError it raises (for a caller that
/// says where the request came from: [`dots_batch`]'s `positions[3]: …`).
fn query_of(request: &str) -> Result<DotsQuery, String> {
    plysolve::input::json::read::<DotsRequest>(request.as_bytes())
        .map_err(|e| e.worded(Surface::Python))?
        .validate()
        .map_err(|e| e.worded(Surface::Python))
}

/// What answers with a user's book (written into as proofs come) or with none keep: tables of small
/// boards and the books, one per (book, no_book) asked, for the process's later calls.
fn kept_with(book: Option<&str>, no_book: bool) -> PyResult<Arc<Kept>> {
    if book.is_some() && no_book {
        return Err(bad(
            "book and no_book=True contradict each other: a book is read, or none is",
        ));
    }
    /// What was kept, by (book, no_book).
    type ByBooks = Vec<((Option<String>, bool), Arc<Kept>)>;
    static KEPT: Mutex<ByBooks> = Mutex::new(Vec::new());
    let asked = (book.map(str::to_string), no_book);
    let mut kept = KEPT.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, k)) = kept.iter().find(|(a, _)| *a == asked) {
        return Ok(k.clone());
    }
    let books = Books::asked(!no_book, book.map(std::path::Path::new), true).map_err(bad)?;
    let made = Arc::new(Kept::default().with_books(books));
    kept.push((asked, made.clone()));
    Ok(made)
}

/// The book at `path`, opened for reading or for `write`, and made if missing only when `create`:
/// a function that only reads or checks a book (stats, export, verify) refuses a missing one
/// (`` `x.plybook`: no such book ``, as the command line does) rather than leave an empty book
/// behind.
fn book_file(path: &str, write: bool, create: bool) -> PyResult<BookFile> {
    BookFile::open(std::path::Path::new(path), write, create).map_err(bad)
}

/// Builds a book (`ply dots book build`): every position up to `depth` moves after the position of
/// the JSON `DotsRequest` (its board and moves), proved into the book at `path`; the entries as a
/// JSON list, shallowest first. `args`: `path`, `depth`, `time`, `tie_order`, `memory`,
/// `keep_table` ([`Args`]). `progress` is told the positions settled. `shared`: bounds the
/// searches meet and add to, shared with other workers' (as a distributed solve's job's).
#[pyfunction]
#[pyo3(signature = (request, args, progress=None, shared=None))]
fn book_build(
    py: Python<'_>,
    request: &str,
    args: &str,
    progress: Option<PyObject>,
    shared: Option<PyRef<'_, SharedTable>>,
) -> PyResult<String> {
    let query = dots_query(request)?;
    let args = Args::read(args)?;
    let time = args.time()?;
    let tie_order = args.tie_order.unwrap_or_default();
    let budget = budget(args.memory.as_deref())?;
    let keep = args.keeping()?;
    let file = book_file(args.path()?, true, true)?;
    let depth = args.depth.unwrap_or(0);
    let kept = if args.keep_table {
        let policy = Policy::new(budget, None);
        job_kept(
            &policy,
            &query,
            args.host_table.as_deref(),
            args.memory.as_deref(),
        )?
        .search_memory(&query.built, budget)
        .map_err(bad)?
    } else {
        None
    };
    let shared = shared.map(|s| s.bounds.clone());
    let watch = Watch {
        progress,
        ..Watch::default()
    };
    let built = run(py, watch, move |cancel, progress| {
        let halt = cancelled_by(cancel);
        let options = BuildOptions {
            depth,
            time_per_position: time,
            tie_order,
            budget,
            halt: &halt,
            progress: None,
            keep,
        };
        let mut tell = |e: &BuildEvent| {
            if let Some(tell) = progress {
                tell(e.done as u64);
            }
        };
        build_in(
            &file,
            &query.built,
            &[query.position.drawn()],
            options,
            kept.as_ref(),
            shared.as_deref(),
            &mut tell,
        )
        .map_err(|e| e.to_string())
    })?
    .map_err(bad)?;
    to_json(&built)
}

/// The positions a book build of `depth` moves after the position of the JSON `DotsRequest` proves
/// by the search (`build::leaves`): `[{"board", "key", "free", "moves"}]` as JSON, `moves` those
/// after the request's. `args`: `depth`, `memory` ([`Args`]; the list refused past half of it, as
/// a build's). What a build spread over machines hands out
/// (`plysolve.distributed book`).
#[pyfunction]
fn book_positions(request: &str, args: &str) -> PyResult<String> {
    let query = dots_query(request)?;
    let args = Args::read(args)?;
    let depth = args.depth.unwrap_or(0);
    let budget = budget(args.memory.as_deref())?;
    to_json(&leaves(&query.built, query.position.drawn(), depth, budget).map_err(bad)?)
}

/// Every board of the book at `args`' `path` summed up (`ply dots book stats --json`).
#[pyfunction]
fn book_stats(args: &str) -> PyResult<String> {
    let args = Args::read(args)?;
    to_json(&ops::stats(&book_file(args.path()?, false, false)?).map_err(bad)?)
}

/// Every entry of the book at `args`' `path` with its position's edges (`ply dots book export`).
#[pyfunction]
fn book_export(args: &str) -> PyResult<String> {
    let args = Args::read(args)?;
    to_json(&ops::export(&book_file(args.path()?, false, false)?).map_err(bad)?)
}

/// Writes every entry of the book `source` into the book at `path` (`ply dots book merge`); gives
/// how many. Two proofs that disagree raise ValueError naming the position.
#[pyfunction]
fn book_merge(args: &str) -> PyResult<usize> {
    let args = Args::read(args)?;
    let source = args
        .source
        .as_deref()
        .ok_or_else(|| bad("source is missing: give the book to merge"))?;
    let (into, from) = ops::open_merge(Path::new(args.path()?), Path::new(source)).map_err(bad)?;
    ops::merge(&into, &from).map_err(bad)
}

/// Writes the entries of `lines` (JSON lines, as `export` gives them) into the book at `args`'
/// `path`.
#[pyfunction]
fn book_import(args: &str, lines: &str) -> PyResult<usize> {
    let args = Args::read(args)?;
    let parsed = ops::parse_lines(lines).map_err(bad)?;
    ops::import(&book_file(args.path()?, true, true)?, &parsed).map_err(bad)
}

/// Proves the exact entries of the book at `args`' `path` again (`ply dots book verify`; `args`:
/// `time`, `memory`, `resume` too): `{"board": {"agreed", "from_children", "already", "unsettled",
/// "disagreements": [...]}}` as JSON.
#[pyfunction]
fn book_verify(py: Python<'_>, args: &str) -> PyResult<String> {
    let args = Args::read(args)?;
    let time = args.time()?;
    let budget = budget(args.memory.as_deref())?;
    let resume = args.resume;
    let keep = args.keeping()?;
    // Written into (entries marked checked), never made: there is nothing to verify in a new book.
    let file = book_file(args.path()?, true, false)?;
    let boards = ops::boards_of(&file).map_err(bad)?;
    let found = run(py, Watch::default(), move |cancel, _| {
        let halt = cancelled_by(cancel);
        let mut out = serde_json::Map::new();
        for (built, entries) in &boards {
            let exact: Vec<_> = entries
                .iter()
                .filter(|e| e.value().is_some())
                .cloned()
                .collect();
            let options = VerifyOptions {
                time,
                budget,
                resume,
                halt: &halt,
                progress: None,
                starting: None,
                keep,
            };
            let v =
                verify(&file, built, &exact, options, &mut |_, _| {}).map_err(|e| e.to_string())?;
            let disagreements: Vec<_> = v
                .disagreements
                .iter()
                .map(|d| {
                    serde_json::json!({
                        "position": d.position, "key": d.key,
                        "book": [d.book.lower, d.book.upper],
                        "found": [d.found.lower, d.found.upper],
                    })
                })
                .collect();
            out.insert(
                built.geometry.slug(),
                serde_json::json!({
                    "agreed": v.agreed, "from_children": v.from_children, "already": v.already,
                    "unsettled": v.unsettled, "disagreements": disagreements,
                }),
            );
        }
        Ok::<_, String>(out)
    })?
    .map_err(bad)?;
    to_json(&found)
}

/// The report of `query` under `policy` with what `kept` holds, as JSON, solved by [`run`]; its
/// search gives up past `node_limit` nodes (`None`: never).
fn answer_json(
    py: Python<'_>,
    query: &DotsQuery,
    policy: &Policy,
    kept: &Kept,
    watch: Watch,
    shared: Option<&SharedBounds>,
    node_limit: Option<u64>,
) -> PyResult<String> {
    let strategy = policy.strategy(query, Some(kept));
    let report = run(py, watch, |cancel, progress| {
        let hooks = Hooks {
            progress,
            status: None,
            cancel: Some(cancel),
            shared,
            node_limit,
            ..Hooks::default()
        };
        answer(query, policy, Some(kept), hooks)
    })?;
    to_json(&report.map_err(|e| bad(fault(&e, strategy, Surface::Python)))?)
}

/// Reports of many positions (JSON `DotsRequest`s), as [`dots`] gives each: positions of up to
/// 28 free edges in parallel (each small: a table up to 24, a search of milliseconds above; labels
/// of random 4×4 states at 25 free come 1.24× faster than one position at a time on every core),
/// the others one after the other, each on every core. A fault of a request names it by its index
/// (`positions[3]: game is missing`), as the Python half names the positions it was given.
/// `args`: `memory` ([`Args`]).
#[pyfunction]
#[pyo3(signature = (requests, args="{}", progress=None))]
fn dots_batch(
    py: Python<'_>,
    requests: Vec<String>,
    args: &str,
    progress: Option<PyObject>,
) -> PyResult<Vec<String>> {
    let queries = requests
        .iter()
        .enumerate()
        .map(|(i, r)| query_of(r).map_err(|e| bad(format!("positions[{i}]: {e}"))))
        .collect::<PyResult<Vec<_>>>()?;
    let args = Args::read(args)?;
    let policy = Policy::new(budget(args.memory.as_deref())?, None);
    let watch = Watch {
        progress,
        ..Watch::default()
    };
    let reports = run(py, watch, |cancel, progress| {
        let done = AtomicU64::new(0);
        let one = |query: &DotsQuery| {
            let hooks = Hooks {
                cancel: Some(cancel),
                ..Hooks::default()
            };
            let report = answer(query, &policy, Some(tables()), hooks)
                .map_err(|e| fault(&e, policy.strategy(query, Some(tables())), Surface::Python));
            let n = done.fetch_add(1, Ordering::Relaxed) + 1;
            if let Some(tell) = progress {
                tell(n);
            }
            report
        };
        let small = |q: &DotsQuery| q.free() <= 28;
        let mut found: Vec<Option<Result<_, String>>> = vec![None; queries.len()];
        let parallel: Vec<(usize, Result<_, String>)> = queries
            .par_iter()
            .enumerate()
            .filter(|(_, q)| small(q))
            .map(|(i, q)| (i, one(q)))
            .collect();
        for (i, r) in parallel {
            found[i] = Some(r);
        }
        for (i, q) in queries.iter().enumerate().filter(|(_, q)| !small(q)) {
            found[i] = Some(one(q));
        }
        found
    })?;
    reports
        .into_iter()
        .map(|r| to_json(&r.expect("every position answered").map_err(bad)?))
        .collect()
}

/// The player's move (`POST /api/play/dots`, `ply play`'s reply): a JSON `DotsRequest` whose
/// `time` is the time to think (none: prove everything); `args`: `seed` (ties; default 1), `level`
/// (1 to 8, `--level`; default 8: the perfect player), `estimate` (the leaves' [`Leaf`]; default
/// the learned one), `memory` ([`Args`]).
#[pyfunction]
#[pyo3(signature = (request, args="{}"))]
fn dots_move(py: Python<'_>, request: &str, args: &str) -> PyResult<String> {
    let mut query = dots_query(request)?;
    let args = Args::read(args)?;
    if let Some(leaf) = args.estimate {
        query.built.board = query.built.board.clone().with_leaf(leaf);
    }
    let seed = args.seed.unwrap_or(1);
    let level = args.level.unwrap_or(Level::PERFECT);
    let policy = Policy::new(budget(args.memory.as_deref())?, None);
    let kept = kept().as_ref();
    let strategy = policy.strategy(&query, Some(kept));
    let played = run(py, Watch::default(), |cancel, _| {
        let hooks = Hooks {
            cancel: Some(cancel),
            ..Hooks::default()
        };
        think_at_level(
            &query,
            &policy,
            Some(kept),
            &mut Chooser::new(seed),
            seed,
            hooks,
            level,
        )
    })?
    .map_err(|e| bad(fault(&e, strategy, Surface::Python)))?;
    let (played, _) = played
        .ok_or_else(|| bad("the game is over: every edge is drawn, there is no move to make"))?;
    to_json(&played)
}

/// One job of a split search (`ply.distributed`): the report of a JSON `DotsRequest` (its value,
/// in its `window`) as [`dots`] gives it, on `threads` cores, except that the search's memory of
/// the board is kept for the process's later jobs (sized for the largest position asked so far),
/// so a job starts from what earlier jobs here proved — as one search shares its table between
/// the moves of its root. `stop`, called every 50 ms, returns true when the job is no longer
/// wanted: the search then stops and the report says what it proved. `shared`: bounds shared
/// with the other workers' jobs ([`SharedTable`]), which the search meets and adds to.
/// `host_table`: the name of a search table in the host's shared memory that the workers of this
/// machine naming it all search, as the threads of one process share theirs (letters, digits,
/// `.`, `_`, `-`; a table of that name of another size raises ValueError). `node_limit`: the search
/// gives up past that many nodes, saying what it proved (a job grown too large, which the driver
/// splits).
#[pyfunction]
#[pyo3(signature = (request, memory=None, threads=None, stop=None, shared=None, host_table=None,
                    node_limit=None))]
#[allow(clippy::too_many_arguments)]
fn dots_job(
    py: Python<'_>,
    request: &str,
    memory: Option<&str>,
    threads: Option<usize>,
    stop: Option<PyObject>,
    shared: Option<PyRef<'_, SharedTable>>,
    host_table: Option<&str>,
    node_limit: Option<u64>,
) -> PyResult<String> {
    let query = dots_query(request)?;
    let policy = Policy::new(budget(memory)?, None);
    let kept = job_kept(&policy, &query, host_table, memory)?;
    let watch = Watch {
        progress: None,
        stop,
        threads,
    };
    let shared = shared.map(|s| s.bounds.clone());
    answer_json(
        py,
        &query,
        &policy,
        &kept,
        watch,
        shared.as_deref(),
        node_limit,
    )
}

/// Bounds shared by the jobs of a distributed solve's workers (`plysolve.distributed`), one store
/// per worker process (`plysolve::engine::scored::shared::SharedBounds`): each job's search meets
/// its entries at positions of at least `from_free` free edges and adds what it proves of them;
/// `drain` gives the entries new since the last drain, to send to the other workers, and `absorb`
/// takes theirs. A stale or missing entry costs time, never a wrong value. The store takes
/// `memory` (`"64M"`) whatever it holds, and serves one board: a job of another board raises
/// ValueError.
#[pyclass(module = "plysolve._ply", frozen)]
struct SharedTable {
    bounds: Arc<SharedBounds>,
}

#[pymethods]
impl SharedTable {
    #[new]
    #[pyo3(signature = (from_free, memory="64M"))]
    fn new(from_free: u32, memory: &str) -> PyResult<Self> {
        let bytes = memory_bytes(memory)?;
        let bounds = SharedBounds::new(bytes, from_free, budget(Some(memory))?).map_err(bad)?;
        Ok(SharedTable {
            bounds: Arc::new(bounds),
        })
    }

    /// The fewest free edges of a position whose bounds are shared.
    #[getter(from_free)]
    fn fewest_free(&self) -> u32 {
        self.bounds.from_free()
    }

    /// The entries proved here since the last drain: (key, lower, upper, best move or None)
    /// each.
    fn drain(&self) -> Vec<(u64, i32, i32, Option<u32>)> {
        self.bounds
            .drain()
            .into_iter()
            .map(|e| (e.key, e.range.lower, e.range.upper, e.best))
            .collect()
    }

    /// Entries (key, lower, upper, best move or None) drained from other workers' stores, met
    /// into this one; bounds no search proves (beyond the most cells, crossed, of mixed parity)
    /// and a best move past the most edges of a board raise ValueError, and none of the entries
    /// is taken.
    fn absorb(&self, entries: Vec<(u64, i32, i32, Option<u32>)>) -> PyResult<()> {
        let checked = entries
            .into_iter()
            .map(|(key, lower, upper, best)| {
                if let Some(m) = best.filter(|&m| m >= MOST_EDGES) {
                    return Err(bad(format!(
                        "shared best move {m} is no edge of any board (edges are 0 to {})",
                        MOST_EDGES - 1
                    )));
                }
                Ok(SharedEntry {
                    key,
                    range: bounds("shared bounds", (lower, upper))?,
                    best,
                })
            })
            .collect::<PyResult<Vec<_>>>()?;
        self.bounds.absorb(&checked);
        Ok(())
    }

    /// What the store counted: `offered` (bounds the searches here proved that narrowed it),
    /// `drained`, `absorbed`, `dropped` (offers a full outbox lost), `contradictions` (bounds
    /// disjoint from what it held: a bug, the newer kept).
    fn counts(&self) -> std::collections::HashMap<&'static str, u64> {
        let c = self.bounds.counts();
        [
            ("offered", c.offered),
            ("drained", c.drained),
            ("absorbed", c.absorbed),
            ("dropped", c.dropped),
            ("contradictions", c.contradictions),
        ]
        .into_iter()
        .collect()
    }
}

/// The most edges of a board (elements of a state's bitmask).
const MOST_EDGES: u32 = 64;

/// The most a value, a bound or a move's points of a dots position can be (its open cells at most).
const MOST_CELLS: i32 = MAX_CELLS as i32;

/// `range` (lower, upper) as proved bounds on a value, checked: whole numbers within ±
/// [`MOST_CELLS`], the lower at most the upper, both of one parity (a value has the parity of the
/// cells left open, and so has every bound the search proves). `what` names it in the fault.
fn bounds(what: &str, range: (i32, i32)) -> PyResult<ValueRange> {
    let (lower, upper) = range;
    if lower.unsigned_abs() > MOST_CELLS as u32 || upper.unsigned_abs() > MOST_CELLS as u32 {
        return Err(bad(format!(
            "{what} ({lower}, {upper}) lies beyond ±{MOST_CELLS}, the most any position is worth"
        )));
    }
    if lower > upper {
        return Err(bad(format!(
            "{what} ({lower}, {upper}): its lower bound is above its upper bound"
        )));
    }
    if (upper - lower) % 2 != 0 {
        return Err(bad(format!(
            "{what} ({lower}, {upper}): bounds of one value have one parity (that of the cells left open)"
        )));
    }
    Ok(ValueRange { lower, upper })
}

/// `window` (lower, upper) as a window a value is asked about in, checked: the lower end below
/// the upper.
fn window(window: (i32, i32)) -> PyResult<ValueRange> {
    let (lower, upper) = window;
    if lower >= upper {
        return Err(bad(format!(
            "window ({lower}, {upper}): its lower end must be below its upper end"
        )));
    }
    Ok(ValueRange { lower, upper })
}

/// `n`, the `what` of a position (its open cells, a move's points), checked: 0 to
/// [`MOST_CELLS`]. Taken as an `i64` so that a negative count is refused here, naming it, rather
/// than by the conversion to `u32` (an `OverflowError` naming nothing).
fn cells(what: &str, n: i64) -> PyResult<u32> {
    match u32::try_from(n) {
        Ok(n) if n <= MOST_CELLS as u32 => Ok(n),
        _ if n < 0 => Err(bad(format!(
            "{what} {n} is negative: a count of cells is at least 0"
        ))),
        _ => Err(bad(format!(
            "{what} {n} is more than {MOST_CELLS}, the most cells a board has"
        ))),
    }
}

/// The next null-window test to make on a value proved to lie in `range` (lower, upper), asked
/// about in `window` (`None`: exactly), `guess` brought into what is still asked
/// (`ValueRange::next_test`): the value to test "does it reach this?", or `None` when nothing is
/// left to ask. Bounds that no search proves (beyond the most cells, crossed, of mixed parity)
/// and an empty window raise ValueError.
#[pyfunction]
#[pyo3(signature = (range, window, guess))]
fn dots_next_test(
    range: (i32, i32),
    window: Option<(i32, i32)>,
    guess: i32,
) -> PyResult<Option<i32>> {
    let asked = window.map_or(Ok(ValueRange::FULL), self::window)?;
    Ok(bounds("range", range)?.next_test(asked, guess))
}

/// The window (lower, upper) a child's value is asked about in when its parent's is asked about
/// in `window` and the move to it scores `points` (`ValueRange::before_move`, Wilson's rule).
#[pyfunction]
fn dots_child_window(points: i64, window: (i32, i32)) -> PyResult<(i32, i32)> {
    let child = self::window(window)?.before_move(cells("points", points)?);
    Ok((child.lower, child.upper))
}

/// The position of a JSON `DotsRequest` as a split search sees it: its key, free edges, open
/// cells and distinct children (`plysolve::games::dots::jobs::expand`).
#[pyfunction]
fn dots_expand(request: &str) -> PyResult<String> {
    let query = dots_query(request)?;
    to_json(&expand(&query))
}

/// What is proved of a position with `cells` open cells from its distinct children's (points,
/// (lower, upper) or `None`): `plysolve::games::dots::jobs::combine`. Cells, points or bounds no
/// position has raise ValueError.
#[pyfunction]
fn dots_combine(cells: i64, children: Vec<(i64, Option<(i32, i32)>)>) -> PyResult<(i32, i32)> {
    let cells = self::cells("cells", cells)?;
    let children = children
        .into_iter()
        .map(|(points, range)| {
            let range = range.map(|r| bounds("a child's range", r)).transpose()?;
            Ok((self::cells("points", points)?, range))
        })
        .collect::<PyResult<Vec<(u32, Option<ValueRange>)>>>()?;
    let r = combine(cells, &children);
    Ok((r.lower, r.upper))
}

/// The bytes of `memory` (`"4G"`), checked as a job's `--memory` is before any job runs: a size,
/// more than nothing, not more than this machine has.
#[pyfunction]
fn memory_bytes(memory: &str) -> PyResult<u64> {
    let bytes = parse_memory_size(memory).map_err(|e| bad(format!("memory {e}")))?;
    if bytes == 0 {
        return Err(bad(format!(
            "memory {} is no memory at all: give a size like 1G",
            quote(memory)
        )));
    }
    budget(Some(memory))?;
    Ok(bytes)
}

/// Every question of the registry (`plysolve::games::registry`), as a JSON list of what each is
/// (`About`): its game, name, server path, Python name, summary, example body and whether the
/// server streams it. The Python half defines a function for each one it does not write by hand.
#[pyfunction]
fn questions() -> PyResult<String> {
    let about: Vec<About> = registry::questions().map(|q| *q.about()).collect();
    to_json(&about)
}

/// Asks the registry's question called `name` (its Python name, `dice_race_sums`) with
/// `request`, the JSON body `POST` to its path takes, and returns its answer as JSON text: what
/// the server answers (a streamed question's last report). `args`: `memory` ([`Args`]), the
/// memory each answer may take. Solved by [`run`] under the grants of a user's own front end (no
/// time limit; the small tables and search memories [`kept`] holds, the shipped books), Ctrl-C
/// raising the context's cancel flag; a fault is a ValueError worded in Python's terms.
#[pyfunction]
#[pyo3(signature = (name, request, args="{}"))]
fn ask(py: Python<'_>, name: &str, request: &str, args: &str) -> PyResult<String> {
    let args = Args::read(args)?;
    let grants = Grants {
        kept: Some(kept().clone()),
        ..Grants::new(budget(args.memory.as_deref())?)
    };
    let answer = run(py, Watch::default(), |cancel, _| {
        let context = Context {
            cancel: Some(cancel.clone()),
            ..Context::new(grants, None)
        };
        registry::ask(name, request.as_bytes(), Surface::Python, &context)
    })?
    .map_err(|fault| match fault.kind {
        FaultKind::Internal => PyRuntimeError::new_err(fault.message),
        _ => bad(fault.message),
    })?;
    Ok(answer.text.trim_end().to_string())
}

/// The native module.
#[pymodule]
fn _ply(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(dots, m)?)?;
    m.add_function(wrap_pyfunction!(dots_batch, m)?)?;
    m.add_function(wrap_pyfunction!(book_build, m)?)?;
    m.add_function(wrap_pyfunction!(book_positions, m)?)?;
    m.add_function(wrap_pyfunction!(book_stats, m)?)?;
    m.add_function(wrap_pyfunction!(book_export, m)?)?;
    m.add_function(wrap_pyfunction!(book_merge, m)?)?;
    m.add_function(wrap_pyfunction!(book_import, m)?)?;
    m.add_function(wrap_pyfunction!(book_verify, m)?)?;
    m.add_function(wrap_pyfunction!(dots_move, m)?)?;
    m.add_function(wrap_pyfunction!(dots_job, m)?)?;
    m.add_function(wrap_pyfunction!(remove_host_tables, m)?)?;
    m.add_class::<SharedTable>()?;
    m.add_class::<dots_game::DotsGame>()?;
    m.add_function(wrap_pyfunction!(dots_expand, m)?)?;
    m.add_function(wrap_pyfunction!(dots_combine, m)?)?;
    m.add_function(wrap_pyfunction!(dots_next_test, m)?)?;
    m.add_function(wrap_pyfunction!(dots_child_window, m)?)?;
    m.add_function(wrap_pyfunction!(memory_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(questions, m)?)?;
    m.add_function(wrap_pyfunction!(ask, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
