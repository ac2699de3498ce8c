//! `ply dots book`: a book of proved positions — build it (every position up to N moves from a start,
//! or a list of positions; resumable), show a position's entry, sum it up, verify a sample by a second
//! proof in the other tie order, merge two books, export or import JSON lines. The book itself (its
//! format, keys and builder) lives in the dots home (`plysolve::games::dots::book`).

use super::{BoxesSize, TieOrderArg, TrianglesSize};
use crate::args::MemoryArg;
use crate::failure::Failure;
use crate::input::{check_parsing, memory_budget, read_text};
use crate::progress::StatesProgress;
use clap::{Args, Subcommand};
use plysolve::engine::util::halt::Halt;
use plysolve::games::dots::book::build::{
    build_planned, verify, BuildError, BuildEvent, BuildOptions, KeepEvent, Plan, VerifyOptions,
};
use plysolve::games::dots::book::keeping::{parse_keep_every, Keeping};
use plysolve::games::dots::book::key::KeyScheme;
use plysolve::games::dots::book::store::{position_text, BookEntry, BookFile};
use plysolve::games::dots::book::{ops, Books};
use plysolve::games::dots::geometry::BuiltBoard;
use plysolve::games::dots::notation::{max_moves_text, position_from_moves};
use plysolve::games::dots::request::TieOrder;
use std::fmt::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// `ply dots book …`
#[derive(Args)]
pub struct BookArgs {
    #[command(subcommand)]
    command: BookCommand,
}

#[derive(Subcommand)]
enum BookCommand {
    /// Proves every position up to --depth moves after the start (--moves, or each line of
    /// --positions) into FILE, deepest first; resumes where a stopped build stopped.
    Build(BuildArgs),
    /// What FILE (and the shipped books) prove of a position and of each of its moves.
    Show(ShowArgs),
    /// FILE summed up per board: positions, exact, checked, free edges, the compute they took.
    Stats(FileArgs),
    /// Proves entries of FILE again in the other tie order, with no book, and reports any
    /// disagreement (exit 1); entries that agree are marked checked.
    Verify(VerifyArgs),
    /// Adds every entry of FROM to INTO; two proofs that disagree are an error naming the position.
    Merge(MergeArgs),
    /// Every entry of FILE as JSON lines on stdout (with the position's edges).
    Export(FileArgs),
    /// Adds the entries of JSON lines (as `export` writes them) from LINES (`-` for stdin) to FILE.
    Import(ImportArgs),
}

/// A board named on the command line.
#[derive(Subcommand, Clone, Copy)]
enum Shape {
    /// A triangle board of --size rows.
    Triangles(TrianglesSize),
    /// A board of --rows × --cols boxes.
    Boxes(BoxesSize),
}

impl Shape {
    fn built(self) -> Result<BuiltBoard, Failure> {
        match self {
            Shape::Triangles(t) => t.geometry(),
            Shape::Boxes(b) => b.geometry(),
        }
        .build()
        .map_err(Failure::bad)
    }
}

#[derive(Args)]
struct BuildArgs {
    /// The book file (made if missing).
    file: PathBuf,
    #[command(subcommand)]
    shape: Shape,
    /// The start position's moves (default: the empty board).
    #[arg(long, global = true, conflicts_with = "positions")]
    moves: Option<String>,
    /// A file of start positions, one move list a line (`-` for stdin).
    #[arg(long, global = true, value_name = "FILE")]
    positions: Option<PathBuf>,
    /// Every position up to this many moves after each start.
    #[arg(long, global = true, default_value_t = 0)]
    depth: u32,
    /// The most time one position's search may take (e.g. 10m): past it, its bounds are kept.
    #[arg(long, global = true, value_name = "TIME", value_parser = super::parse_time_arg)]
    time: Option<String>,
    /// Which of two moves of equal priority the search tries first.
    #[arg(long, global = true, value_enum, default_value_t = TieOrderArg::LowFirst)]
    tie_order: TieOrderArg,
    /// How often a long proof keeps what it has proved so far in FILE, at least 1s (a build
    /// killed outright starts again from its last keep).
    #[arg(long, global = true, value_name = "TIME", default_value = "10m", value_parser = parse_keep_arg)]
    keep_every: String,
    #[command(flatten)]
    memory: MemoryArg<true>,
}

#[derive(Args)]
struct ShowArgs {
    /// The book file.
    file: PathBuf,
    #[command(subcommand)]
    shape: Shape,
    /// The position's moves (default: the empty board).
    #[arg(long, global = true)]
    moves: Option<String>,
}

#[derive(Args)]
struct FileArgs {
    /// The book file.
    file: PathBuf,
    /// Print JSON (stats: one object).
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
struct VerifyArgs {
    /// The book file.
    file: PathBuf,
    /// Verify this many exact entries, drawn with --seed (default: every one).
    #[arg(long)]
    sample: Option<usize>,
    /// The seed of the sample.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The most time one position's second proof may take.
    #[arg(long, value_name = "TIME", value_parser = super::parse_time_arg)]
    time: Option<String>,
    /// Resume a verify stopped part way: entries an earlier one checked are not proved again (and
    /// count as checked children), and a second proof stopped part way starts from what it had
    /// proved. Without it every entry is proved again from nothing.
    #[arg(long)]
    resume: bool,
    /// How often a long second proof keeps what it has proved so far in FILE, at least 1s (for
    /// --resume).
    #[arg(long, value_name = "TIME", default_value = "10m", value_parser = parse_keep_arg)]
    keep_every: String,
    #[command(flatten)]
    memory: MemoryArg,
}

#[derive(Args)]
struct MergeArgs {
    /// The book written into (made if missing).
    into: PathBuf,
    /// The book read.
    from: PathBuf,
}

#[derive(Args)]
struct ImportArgs {
    /// The book written into (made if missing).
    file: PathBuf,
    /// JSON lines, one entry each (`-` for stdin).
    lines: PathBuf,
}

/// Runs `ply dots book …`.
pub fn run(args: BookArgs) -> Result<String, Failure> {
    match args.command {
        BookCommand::Build(a) => run_build(a),
        BookCommand::Show(a) => run_show(a),
        BookCommand::Stats(a) => run_stats(a),
        BookCommand::Verify(a) => run_verify(a),
        BookCommand::Merge(a) => run_merge(a),
        BookCommand::Export(a) => run_export(a),
        BookCommand::Import(a) => run_import(a),
    }
}

/// What a long proof's keeping tells: each keep a line with the progress, a keep that failed a line
/// whether progress is shown or not (the proof goes on, but a kill would now lose more).
fn keep_told(progress: &StatesProgress, every: Duration) -> impl Fn(&KeepEvent) + Sync + '_ {
    move |event: &KeepEvent| match event {
        KeepEvent::Kept { states, seconds } => progress.event(&format!(
            "kept {} of the proof under way ({seconds:.1} s)",
            entries_named(*states, "state")
        )),
        KeepEvent::Failed(why) => progress.notice(&format!(
            "could not keep the proof's work ({why}); trying again in {}",
            plysolve::engine::util::halt::millis_text(every.as_millis() as u64)
        )),
    }
}

/// `1 entry`, `5 entries`.
fn entries(n: usize) -> String {
    if n == 1 {
        "1 entry".to_string()
    } else {
        format!("{n} entries")
    }
}

/// `n` of `what` in words: `1 position`, `2 positions`.
fn entries_named(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

/// `--keep-every`: a time of at least a second ([`parse_keep_every`]).
fn parse_keep_arg(text: &str) -> Result<String, String> {
    parse_keep_every(text).map(|_| text.to_string())
}

/// The time `--keep-every` gives (checked by [`parse_keep_arg`]).
fn keep_arg(text: &str) -> Result<Duration, Failure> {
    parse_keep_every(text).map_err(Failure::BadInput)
}

fn time_arg(text: &Option<String>) -> Result<Option<Duration>, Failure> {
    text.as_deref()
        .map(plysolve::input::duration::parse_time)
        .transpose()
        .map_err(Failure::bad)
}

/// A value or bounds as the book shows them: `+2`, `-1..+3`.
fn range_text(lower: i32, upper: i32) -> String {
    if lower == upper {
        format!("{lower:+}")
    } else {
        format!("{lower:+}..{upper:+}")
    }
}

fn run_build(a: BuildArgs) -> Result<String, Failure> {
    let built = a.shape.built()?;
    let board = &built.board;
    let texts: Vec<String> = match (&a.moves, &a.positions) {
        (Some(moves), _) => vec![moves.clone()],
        (None, Some(path)) => {
            let text = read_text(Some(path), 1 << 24)?;
            text.lines()
                .filter(|l| !l.trim().is_empty())
                .map(str::to_string)
                .collect()
        }
        (None, None) => vec![String::new()],
    };
    let mut starts = Vec::new();
    for (i, text) in texts.iter().enumerate() {
        if text.len() > max_moves_text(board) {
            return Err(Failure::BadInput(format!("line {}: too long", i + 1)));
        }
        let position = position_from_moves(board, text).map_err(|e| match a.positions {
            Some(_) => Failure::BadInput(format!("line {}: {e}", i + 1)),
            None => Failure::bad(e),
        })?;
        starts.push(position.drawn());
    }
    let budget = a.memory.budget()?;
    let time = time_arg(&a.time)?;
    // An interrupt stops the listing, or the build at its next check, keeping the proved part of
    // the position under proof; a second one ends it at once.
    let stop = crate::saving::stop_cleanly_on_interrupt();
    let halt = Halt::never().with_flag(stop.clone());
    // Listed before the book is opened: a build too big for the memory leaves no file behind.
    let plan = {
        let listing = StatesProgress::counting("positions listed");
        let listed = |n: u64| listing.update(n);
        Plan::list(&built, &starts, a.depth, budget, &halt, Some(&listed)).map_err(|e| match e {
            BuildError::Listing(_) => Failure::Interrupted(format!(
                "interrupted while listing the positions: {} untouched",
                plysolve::input::quote_path(&a.file)
            )),
            e => Failure::bad(e),
        })?
    };
    let total = plan.len();
    let book = BookFile::open(&a.file, true, true).map_err(Failure::bad)?;
    let progress = StatesProgress::with_total("positions", total as u64);
    progress.event(&format!(
        "{total} positions up to {} on {}",
        match a.depth {
            1 => "1 move".to_string(),
            d => format!("{d} moves"),
        },
        built.geometry.title()
    ));
    // Between the positions' lines, the search under way (a position can take hours).
    let done = AtomicU64::new(0);
    let searching = |states: u64| progress.update_with(done.load(Ordering::Relaxed), Some(&in_proof(states)));
    let keep_every = keep_arg(&a.keep_every)?;
    let told = keep_told(&progress, keep_every);
    progress.update(0);
    let options = BuildOptions {
        depth: a.depth,
        time_per_position: time,
        tie_order: match a.tie_order {
            TieOrderArg::LowFirst => TieOrder::LowFirst,
            TieOrderArg::HighFirst => TieOrder::HighFirst,
        },
        budget,
        halt: &halt,
        progress: Some(&searching),
        keep: Some(Keeping {
            every: keep_every,
            told: Some(&told),
        }),
    };
    let mut on_event = |e: &BuildEvent| {
        done.store(e.done as u64, Ordering::Relaxed);
        progress.update(e.done as u64);
        let what = if e.found { "in the book" } else { "proved" };
        let eta = e
            .eta
            .map(|t| {
                format!(
                    ", about {} to go",
                    plysolve::engine::util::halt::millis_text(t.as_millis() as u64)
                )
            })
            .unwrap_or_default();
        progress.event(&format!(
            "[{}/{}] {} ({} free): {} {what} ({} nodes, {:.1} s){eta}",
            e.done,
            e.total,
            shown_position(&built, e.entry.key),
            e.entry.free,
            range_text(e.entry.lower, e.entry.upper),
            e.entry.nodes,
            e.entry.seconds
        ));
    };
    let entries = build_planned(&book, &built, &plan, options, None, None, &mut on_event)
        .map_err(Failure::bad)?;
    drop(told);
    drop(progress);
    if stop.load(Ordering::SeqCst) {
        // Settled: valued exactly (the one under proof may have bounds by now, not its value).
        let settled = entries.iter().filter(|e| e.value().is_some()).count();
        return Err(Failure::Interrupted(format!(
            "interrupted: {settled} of {total} positions settled in {}, with what the search \
             proved of the one it was proving; the same command resumes",
            book.name()
        )));
    }
    let exact = entries.iter().filter(|e| e.value().is_some()).count();
    let mut out = format!(
        "{}: {} positions of {} in {} ({exact} exact)\n",
        book.name(),
        entries.len(),
        total,
        built.geometry.title()
    );
    if let Some(first) = entries
        .iter()
        .find(|e| e.free as usize == board.edge_count() - starts[0].len() as usize)
    {
        writeln!(
            out,
            "Start: {}{}",
            range_text(first.lower, first.upper),
            first
                .best
                .as_ref()
                .map(|b| format!(", best move {b} (in the key's frame)"))
                .unwrap_or_default()
        )
        .expect("to a String");
    }
    Ok(out)
}

/// A progress line's word on the proof under way: the states its search has visited.
fn in_proof(states: u64) -> String {
    format!("{states} states searched in the position under proof")
}

/// The position a key stands for, for a progress line: its edges, or `the empty board`.
fn shown_position(built: &BuiltBoard, key: u64) -> String {
    match position_text(built, key) {
        text if text.is_empty() => "the empty board".to_string(),
        text => text,
    }
}

fn run_show(a: ShowArgs) -> Result<String, Failure> {
    let built = a.shape.built()?;
    let board = &built.board;
    let position =
        position_from_moves(board, a.moves.as_deref().unwrap_or("")).map_err(Failure::bad)?;
    let books = Books::asked(true, Some(&a.file), false).map_err(Failure::bad)?;
    let book = books.board(&built).map_err(Failure::bad)?;
    let drawn = position.drawn();
    let file = BookFile::open(&a.file, false, false).map_err(Failure::bad)?;
    let scheme = KeyScheme::new(board);
    let key = scheme.key(drawn).key;
    let mut out = format!("{}, key {key:#x}\n", built.geometry.title());
    match book.lookup(drawn) {
        Some((range, best)) => {
            write!(out, "Value: {}", range_text(range.lower, range.upper)).expect("to a String");
            if let Some(best) = best {
                write!(
                    out,
                    ", best move {}",
                    plysolve::games::dots::notation::format_edge(board, best)
                )
                .expect("to a String");
            }
            out.push('\n');
        }
        None => out.push_str("Not in the books.\n"),
    }
    if let Some(entry) = file
        .get(&built.geometry.slug(), key)
        .map_err(Failure::bad)?
    {
        writeln!(
            out,
            "In {}: proved by {} ({} nodes, {:.1} s){}",
            file.name(),
            entry.proved_by,
            entry.nodes,
            entry.seconds,
            entry
                .checked_by
                .map(|c| format!("; checked by {c}"))
                .unwrap_or_default()
        )
        .expect("to a String");
    }
    let mut known = 0;
    let mut listed = String::new();
    for e in 0..board.edge_count() {
        let edge = plysolve::games::dots::Edge(e as u8);
        if drawn.contains(edge) {
            continue;
        }
        let name = plysolve::games::dots::notation::format_edge(board, edge);
        if let Some((range, _)) = book.lookup(drawn.with(edge)) {
            known += 1;
            writeln!(
                listed,
                "  {name:>7}  child {}",
                range_text(range.lower, range.upper)
            )
            .expect("to a String");
        }
    }
    writeln!(
        out,
        "Moves whose position is in the books: {known} of {}",
        board.edge_count() - drawn.len() as usize
    )
    .expect("to a String");
    out.push_str(&listed);
    Ok(out)
}

/// Each board of `file` with its entries, checked against this version's boards.
fn boards_of(file: &BookFile) -> Result<Vec<(BuiltBoard, Vec<BookEntry>)>, Failure> {
    ops::boards_of(file).map_err(Failure::bad)
}

fn run_stats(a: FileArgs) -> Result<String, Failure> {
    let file = BookFile::open(&a.file, false, false).map_err(Failure::bad)?;
    let boards = ops::stats(&file).map_err(Failure::bad)?;
    if a.json {
        return Ok(serde_json::to_string(&serde_json::json!({ "boards": boards }))? + "\n");
    }
    let mut out = String::new();
    for b in &boards {
        // What unfinished proofs kept, when they kept anything.
        let kept = [(b.kept, "a build"), (b.kept_checks, "a verify --resume")]
            .iter()
            .filter(|(n, _)| *n > 0)
            .map(|(n, starts)| format!("{} for {starts} to start from", entries_named(*n as usize, "state")))
            .collect::<Vec<_>>();
        let kept = if kept.is_empty() {
            String::new()
        } else {
            format!("; unfinished proofs kept {}", kept.join(", "))
        };
        if b.positions == 0 {
            // A board recorded (a build stopped before its first entry): nothing to count.
            writeln!(out, "{}: no positions yet{kept}", b.board).expect("to a String");
            continue;
        }
        writeln!(
            out,
            "{}: {} ({} exact, {} checked by a second proof), {}–{} free edges, {} nodes, {:.1} s{kept}",
            b.board,
            entries_named(b.positions, "position"),
            b.exact,
            b.checked,
            b.fewest_free,
            b.most_free,
            b.nodes,
            b.seconds
        )
        .expect("to a String");
    }
    if out.is_empty() {
        out = format!("{}: no positions\n", file.name());
    }
    Ok(out)
}

fn run_verify(a: VerifyArgs) -> Result<String, Failure> {
    let file = BookFile::open(&a.file, true, false).map_err(Failure::bad)?;
    let budget = a.memory.budget()?;
    let time = time_arg(&a.time)?;
    let keep_every = keep_arg(&a.keep_every)?;
    // An interrupt stops the verification at its next check, keeping what the second proof under
    // way had proved; a second one ends it at once.
    let stop = crate::saving::stop_cleanly_on_interrupt();
    let halt = Halt::never().with_flag(stop.clone());
    let mut out = String::new();
    let mut disagreements = 0;
    let mut agreed = 0;
    for (built, entries) in boards_of(&file)? {
        let mut exact: Vec<BookEntry> = entries
            .into_iter()
            .filter(|e| e.value().is_some())
            .collect();
        if let Some(k) = a.sample {
            let mut chooser = plysolve::engine::util::chooser::Chooser::new(a.seed);
            while exact.len() > k {
                let i = chooser.below(exact.len() as u128) as usize;
                exact.swap_remove(i);
            }
        }
        let progress = StatesProgress::with_total("positions verified", exact.len() as u64);
        let seen = AtomicU64::new(0);
        // The entry under proof, as the progress names it.
        let under_proof = std::sync::Mutex::new(String::new());
        let starting = |e: &BookEntry| {
            *under_proof.lock().unwrap_or_else(|p| p.into_inner()) = format!(
                "{} ({} free; its first proof took {} nodes)",
                shown_position(&built, e.key),
                e.free,
                e.nodes
            );
        };
        let searching = |states: u64| {
            let what = under_proof.lock().unwrap_or_else(|p| p.into_inner()).clone();
            let detail = format!("{states} states searched in {what}");
            progress.update_with(seen.load(Ordering::Relaxed), Some(&detail));
        };
        let told = keep_told(&progress, keep_every);
        progress.update(0);
        let mut on_entry = |e: &BookEntry, found: Option<plysolve::engine::scored::ValueRange>| {
            // An entry checked before (`--resume`) costs nothing: out of the count and the pace.
            if found.is_none() {
                progress.skip();
            }
            let now = seen.fetch_add(u64::from(found.is_some()), Ordering::Relaxed)
                + u64::from(found.is_some());
            progress.update(now);
            if let Some(f) = found {
                progress.event(&format!(
                    "{} ({} free): book {}, again {}",
                    shown_position(&built, e.key),
                    e.free,
                    range_text(e.lower, e.upper),
                    range_text(f.lower, f.upper)
                ));
            }
        };
        let options = VerifyOptions {
            time,
            budget,
            resume: a.resume,
            halt: &halt,
            progress: Some(&searching),
            starting: Some(&starting),
            keep: Some(Keeping {
                every: keep_every,
                told: Some(&told),
            }),
        };
        let verified =
            verify(&file, &built, &exact, options, &mut on_entry).map_err(Failure::bad)?;
        drop(told);
        drop(progress);
        writeln!(
            out,
            "{}: {} verified, {} agree ({} from their checked children), {} checked before, {} not settled in the time, {} disagree",
            built.geometry.slug(),
            exact.len(),
            verified.agreed,
            verified.from_children,
            verified.already,
            verified.unsettled,
            verified.disagreements.len()
        )
        .expect("to a String");
        for d in &verified.disagreements {
            writeln!(
                out,
                "  disagreement: {} (key {:#x}): book {}, second proof {}",
                if d.position.is_empty() {
                    "the empty board"
                } else {
                    &d.position
                },
                d.key,
                range_text(d.book.lower, d.book.upper),
                range_text(d.found.lower, d.found.upper)
            )
            .expect("to a String");
        }
        disagreements += verified.disagreements.len();
        agreed += verified.agreed;
        if stop.load(Ordering::SeqCst) {
            break;
        }
    }
    if disagreements == 0 && stop.load(Ordering::SeqCst) {
        return Err(Failure::Interrupted(format!(
            "interrupted: {} checked in {}, with what the second proof under way had proved; \
             the same command with --resume goes on",
            entries(agreed),
            file.name()
        )));
    }
    if disagreements > 0 {
        print!("{out}");
        let what = if disagreements == 1 {
            "disagrees with its second proof"
        } else {
            "disagree with their second proofs"
        };
        return Err(Failure::Internal(format!(
            "{} {what}",
            entries(disagreements)
        )));
    }
    Ok(out)
}

fn run_merge(a: MergeArgs) -> Result<String, Failure> {
    let (into, from) = ops::open_merge(&a.into, &a.from).map_err(Failure::bad)?;
    let added = ops::merge(&into, &from).map_err(Failure::bad)?;
    Ok(format!(
        "{}: {} merged from {}\n",
        into.name(),
        entries(added),
        from.name()
    ))
}

fn run_export(a: FileArgs) -> Result<String, Failure> {
    let file = BookFile::open(&a.file, false, false).map_err(Failure::bad)?;
    let mut out = String::new();
    for line in ops::export(&file).map_err(Failure::bad)? {
        out.push_str(&serde_json::to_string(&line)?);
        out.push('\n');
    }
    Ok(out)
}

/// The most JSON lines `import` reads: 256 MiB, some 1.4 million entries (each a few hundred bytes
/// once read): a file past it is refused before it is read, not after memory ran out.
const IMPORT_MOST_BYTES: usize = 256 << 20;

/// The most memory reading JSON lines may take for each of their bytes, text included (BENCHMARKS:
/// 200 000 lines of 37 MB peaked at 242 MB, 6.5×): lines past 64 KiB are checked against the memory
/// budget with it before they are parsed and before the book is opened or made, so that a machine
/// short of memory refuses them rather than aborting with a new, empty book left behind.
const IMPORT_BYTES_PER_BYTE: u128 = 8;

fn run_import(a: ImportArgs) -> Result<String, Failure> {
    let text = read_text(Some(&a.lines), IMPORT_MOST_BYTES)?;
    check_parsing(
        memory_budget(None)?,
        text.len(),
        IMPORT_BYTES_PER_BYTE,
        |n| format!("importing {n} bytes of lines"),
    )?;
    let parsed = ops::parse_lines(&text).map_err(Failure::bad)?;
    let file = BookFile::open(&a.file, true, true).map_err(Failure::bad)?;
    let count = ops::import(&file, &parsed).map_err(Failure::bad)?;
    Ok(format!("{}: {} imported\n", file.name(), entries(count)))
}
