//! `ply ask`: any question of any game in the registry, asked with its JSON request (as the server's
//! API and Python's functions take it) and answered with its `--json` line. The command line's door
//! to every question, including those without a command of their own (a dots game's review, a
//! heaps game replayed): built from the registry, so a game's new question is here with no edit.

use crate::args::MemoryArg;
use crate::failure::Failure;
use crate::input::check_parsing;
use clap::Args;
use plysolve::games::door::{Context, FaultKind, Grants, Question};
use plysolve::games::dots::kept::Kept;
use plysolve::games::registry;
use plysolve::input::surface::Surface;
use std::fmt::Write as _;
use std::io::Read;
use std::sync::Arc;
use std::time::Duration;

/// The longest request read from stdin: far above any board a question answers, and bounded so
/// that an endless stream is refused rather than read into memory.
pub const MAX_REQUEST: u64 = 16 << 20;

/// The most memory reading a request may take for each of its bytes (BENCHMARKS: a 16 MiB list of
/// eight million heaps peaks at 1.0 GB while it is read, 60×): a long request is checked against the
/// memory budget with it before it is parsed.
pub const READ_BYTES_PER_BYTE: u128 = 64;

/// The search memory kept for one answer's dots positions (as a Python process keeps).
const KEPT_MEMORY: u64 = 256 << 20;

/// `ply ask [GAME QUESTION [REQUEST]]`
#[derive(Args)]
pub struct AskArgs {
    /// The game (`dots`, `heaps`, …), or a question as the API names it (`triangle-war`,
    /// `/api/triangle-war`), then its request; without it, every question is listed with an example.
    game: Option<String>,
    /// The question within the game (`review`, `best`, …; `ply ask GAME` lists them).
    question: Option<String>,
    /// The request as JSON, e.g. '{"heaps": [3, 4, 5]}'; `-` or none: read from stdin.
    request: Option<String>,
    #[command(flatten)]
    memory: MemoryArg,
    /// The longest the answer may take, e.g. 10s or 2m: a dots report then gives what it proved in
    /// that time, other questions stop with the limit named (default: no limit).
    #[arg(long, value_name = "TIME", value_parser = crate::input::parse_time)]
    time: Option<Duration>,
    /// The dots books answered from (the shipped ones unless --no-book).
    #[command(flatten)]
    book: crate::commands::dots::BookArg,
}

/// Runs `ply ask`: the answer's JSON line, or the list of questions.
pub fn run(args: AskArgs) -> Result<String, Failure> {
    let Some(game) = args.game else {
        return Ok(listing(None));
    };
    let (question, request) = if registry::games().iter().any(|g| g.name == game) {
        let Some(name) = args.question else {
            return Ok(listing(Some(&game)));
        };
        (find(&game, &name)?, args.request)
    } else {
        // A question named as the API names it (`triangle-war`, `/api/triangle-war`): its request
        // comes next.
        match by_api_name(&game) {
            Some(question) if args.request.is_none() => (question, args.question),
            Some(_) => {
                return Err(Failure::BadInput(format!(
                    "{} takes one request after it, not two",
                    plysolve::input::quote(&game)
                )))
            }
            None => {
                return Err(Failure::BadInput(format!(
                    "no game is called {} (the games: {})",
                    plysolve::input::quote(&game),
                    names(registry::games().iter().map(|g| g.name))
                )))
            }
        }
    };
    let request = match request.as_deref() {
        None | Some("-") => read_stdin()?,
        Some(text) => text.as_bytes().to_vec(),
    };
    let memory = args.memory.budget()?;
    check_parsing(memory, request.len(), READ_BYTES_PER_BYTE, |n| {
        format!("reading a request of {n} bytes")
    })?;
    let grants = Grants {
        kept: Some(Arc::new(
            Kept::new(KEPT_MEMORY.min(memory.bytes() / 2), 1).with_books(args.book.books()?),
        )),
        limit: args.time,
        ..Grants::new(memory)
    };
    let checked = question
        .check_json(&request, Surface::Api)
        .map_err(failure)?;
    let answer = checked
        .answer(&Context::new(grants, None))
        .map_err(failure)?;
    Ok(answer.text)
}

/// The question the server answers at `name` (`/api/triangle-war`, or `triangle-war` for it).
fn by_api_name(name: &str) -> Option<&'static dyn Question> {
    match name.starts_with("/api/") {
        true => registry::question(name),
        false => registry::question(&format!("/api/{name}")),
    }
}

/// The question `name` of `game`.
fn find(game: &str, name: &str) -> Result<&'static dyn Question, Failure> {
    let of_game = || registry::questions().filter(move |q| q.about().game == game);
    of_game().find(|q| q.about().name == name).ok_or_else(|| {
        Failure::BadInput(format!(
            "{game} has no question {} (its questions: {})",
            plysolve::input::quote(name),
            names(of_game().map(|q| q.about().name))
        ))
    })
}

/// A fault of the question as the command's failure: the request's fault is the user's (exit 2).
fn failure(fault: plysolve::games::door::Fault) -> Failure {
    match fault.kind {
        FaultKind::Internal => Failure::Internal(fault.message),
        _ => Failure::BadInput(fault.message),
    }
}

/// Names joined with commas.
fn names<'a>(names: impl Iterator<Item = &'a str>) -> String {
    names.collect::<Vec<_>>().join(", ")
}

/// The request on stdin, at most [`MAX_REQUEST`] bytes.
fn read_stdin() -> Result<Vec<u8>, Failure> {
    let mut request = Vec::new();
    std::io::stdin()
        .lock()
        .take(MAX_REQUEST + 1)
        .read_to_end(&mut request)
        .map_err(|e| Failure::BadInput(format!("cannot read the request from stdin: {e}")))?;
    if request.len() as u64 > MAX_REQUEST {
        return Err(Failure::BadInput(format!(
            "the request on stdin is over {} MiB",
            MAX_REQUEST >> 20
        )));
    }
    Ok(request)
}

/// Every question (of `game`, or of every game): its command, what it answers and an example.
fn listing(game: Option<&str>) -> String {
    let mut out = String::new();
    for question in registry::questions() {
        let about = question.about();
        if game.is_some_and(|g| g != about.game) {
            continue;
        }
        let _ = writeln!(
            out,
            "ply ask {} {}\n    {}\n    e.g. '{}'",
            about.game,
            about.name,
            about.summary,
            about.example.replace('\n', "\\n")
        );
    }
    out
}
