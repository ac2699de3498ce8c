//! Answering a dots query: the one path from a checked request to a report that `ply dots`, the
//! server and `ply play` all take — the policy picks the solver, the kept tables and memories are
//! used, the time limit and a cancel flag become the solver's halt, and a halted solve still gives
//! what it proved.

use super::book::key::KeyScheme;
use super::book::{proved_by, BookEntry, BookError};
use super::kept::Kept;
use super::notation::{edge_named, format_edge};
use super::policy::{Plan, Policy};
use super::report::{report_from, report_unproved, DotsReport, Estimated, MoveReport};
use super::request::{tie_name, Detail, DotsQuery};
use super::theory::learned;
use super::{Edge, EdgeSet};
use crate::engine::scored::choose::{with_solver, SolveOptions};
use crate::engine::scored::heuristic::best_estimate;
use crate::engine::scored::known::{Informed, KnownValues, NothingKnown};
pub use crate::engine::scored::search::status::{SearchStatus, StatusHook};
use crate::engine::scored::shared::SharedBounds;
use crate::engine::scored::ValueRange;
use crate::engine::scored::{SolveError, Strategy};
use crate::engine::util::halt::{GiveWay, Halt};
use crate::engine::util::progress::{Progress, Watch};
use crate::input::surface::{Surface, Value};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The share of an answer's time given to proving values; when the moves are not all proved by
/// then, the rest goes to estimating the best of them.
pub const EXACT_SHARE: f64 = 0.6;

/// What a front end watches and controls while an answer is computed.
#[derive(Clone, Copy, Default)]
pub struct Hooks<'a> {
    /// Told the states visited (or filled) now and then.
    pub progress: Option<Progress<'a>>,
    /// Told the search's state now and then (bounds, moves proved), when the search answers.
    pub status: Option<StatusHook<'a>>,
    /// Raised to stop at once (a client that left): the answer then says what was proved.
    pub cancel: Option<&'a Arc<AtomicBool>>,
    /// When the solve gives way to the front end's other work (a server's cheap requests).
    pub give_way: Option<&'a GiveWay>,
    /// The front end's deadline (a server request's, which may have waited for a solver): no part
    /// of the answer runs past it, while a halt's message still names the limit the user set.
    pub until: Option<Instant>,
    /// Bounds shared with searches in other processes (the workers of a distributed solve): the
    /// search meets them and adds what it proves of positions with many free edges.
    pub shared: Option<&'a SharedBounds>,
    /// Nodes past which the search gives up, its answer saying what it proved
    /// ([`SolveOptions::node_limit`]): a distributed solve's job grown too large to be one.
    pub node_limit: Option<u64>,
}

/// A solve error with a hint at what could still work, naming the options as `surface` names them:
/// a memory refusal of the whole table suggests memo (which only visits reachable states), of the
/// free-edge table the search (whose table has a fixed size); a larger budget only when it was the
/// asker's own limit and the asker sets it (the command line's `--memory`, Python's `memory`; a
/// server's memory is its own, not the request's).
pub fn fault(e: &SolveError, strategy: Strategy, surface: Surface) -> String {
    let memory = match e {
        SolveError::Memory(m) if surface != Surface::Api && m.caller_limited() => {
            Some(surface.name("memory"))
        }
        _ => None,
    };
    let larger = memory
        .as_ref()
        .map_or(String::new(), |m| format!(", or a larger {m}"));
    let try_strategy = |word| {
        let setting = surface.setting("strategy", Value::Word(word));
        format!("; try {setting}{larger}")
    };
    let hint = match (e, strategy, &memory) {
        (SolveError::Memory(_), Strategy::Table, _) => try_strategy("memo"),
        (SolveError::Memory(_), Strategy::FreeTable, _) => try_strategy("search"),
        (SolveError::Memory(_), _, Some(memory)) => format!("; try a larger {memory}"),
        _ => String::new(),
    };
    format!("{e}{hint}")
}

/// The halt of a part of an answer that may take `time` (of `whole`, which its message names),
/// never past the hooks' deadline, raised early by their cancel flag, giving way as they say.
pub fn halt_for(time: Option<Duration>, whole: Option<Duration>, hooks: Hooks<'_>) -> Halt {
    let time = match hooks.until {
        Some(until) => {
            let left = until.saturating_duration_since(Instant::now());
            Some(time.map_or(left, |t| t.min(left)))
        }
        None => time,
    };
    let halt = match (time, whole) {
        (Some(time), Some(whole)) => Halt::after_part(time, whole),
        (Some(time), None) => Halt::after(time),
        (None, _) => Halt::never(),
    };
    let halt = match hooks.cancel {
        Some(flag) => halt.with_flag(flag.clone()),
        None => halt,
    };
    match hooks.give_way {
        Some(give_way) => halt.with_give_way(give_way.clone()),
        None => halt,
    }
}

/// Answers `query` under `policy`, with what `kept` holds.
pub fn answer(
    query: &DotsQuery,
    policy: &Policy,
    kept: Option<&Kept>,
    hooks: Hooks<'_>,
) -> Result<DotsReport, SolveError> {
    answer_planned(query, &policy.plan(query, kept), policy, kept, hooks)
}

/// Answers `query` as `plan` (from [`Policy::plan`], announced by the front end) says: every move's
/// value proved in [`EXACT_SHARE`] of the time, or — when the moves are not all proved by then —
/// the rest of the time spent on an estimate of the best move the proof allows (its `best_move`).
pub fn answer_planned(
    query: &DotsQuery,
    plan: &Plan,
    policy: &Policy,
    kept: Option<&Kept>,
    hooks: Hooks<'_>,
) -> Result<DotsReport, SolveError> {
    let started = Instant::now();
    let proving = match query.detail {
        Detail::Value => plan.time,
        Detail::Moves | Detail::Line => plan.time.map(|t| t.mul_f64(EXACT_SHARE)),
    };
    let mut report = prove(query, plan, proving, policy, kept, hooks)?;
    if report.strategy == Strategy::Book && query.detail == Detail::Line {
        carry_lines_past_books(query, &mut report, policy, kept, hooks)?;
    }
    if let Some(kept) = kept {
        keep_proofs(query, &report, kept, started.elapsed())?;
    }
    // A best move proved (the books' of a position they value) needs no estimate.
    let best_proved = report.value.is_some() && report.moves.first().is_some_and(|m| m.value == report.value);
    if !best_proved && report.moves.iter().any(|m| m.value.is_none()) {
        let left = plan
            .time
            .map_or(Duration::ZERO, |t| t.saturating_sub(started.elapsed()));
        let halt = halt_for(Some(left.max(Duration::from_millis(1))), plan.time, hooks);
        let (best, estimate) = estimated(query, &report, &halt);
        report.lead_lines_with(&best, estimate.as_ref().map(|e| e.value));
        report.best_move = Some(best);
        report.estimate = estimate;
    }
    Ok(report)
}

/// Free edges up to which a line read from the books is carried on past the last position they
/// hold by the solver (well under a second on the boards with books up to 30 free edges); a line
/// the books leave with more free edges than that (4×4 boxes two moves in: 38) ends where they do.
pub const LINE_PAST_BOOK_FREE: u32 = 30;

/// Carries `report`'s lines (its best line and each top line), read from the books, on to the end
/// of the game when the position where the books leave them has at most [`LINE_PAST_BOOK_FREE`]
/// free edges: by the answer to that position under the same policy and books.
fn carry_lines_past_books(
    query: &DotsQuery,
    report: &mut DotsReport,
    policy: &Policy,
    kept: Option<&Kept>,
    hooks: Hooks<'_>,
) -> Result<(), SolveError> {
    let line: Vec<String> = report.line.clone();
    let rest = line_after(query, &line, policy, kept, hooks)?;
    report.line.extend(rest.iter().map(|s| s.mv.clone()));
    report.line_steps.extend(rest);
    for top in &mut report.lines {
        let rest = line_after(query, &top.line, policy, kept, hooks)?;
        top.line.extend(rest.into_iter().map(|s| s.mv));
    }
    Ok(())
}

/// The best line from the position `line` leads to after `query`'s, when it has at least one and at
/// most [`LINE_PAST_BOOK_FREE`] free edges (empty otherwise, or when a move of `line` is not one of
/// the board's).
fn line_after(
    query: &DotsQuery,
    line: &[String],
    policy: &Policy,
    kept: Option<&Kept>,
    hooks: Hooks<'_>,
) -> Result<Vec<super::report::LineStepReport>, SolveError> {
    let board = &query.built.board;
    let mut position = query.position.clone();
    for mv in line {
        let Some(edge) = edge_named(board, mv) else {
            return Ok(Vec::new());
        };
        if position.play(board, edge).is_err() {
            return Ok(Vec::new());
        }
    }
    let free = board.edge_count() as u32 - position.drawn().len();
    if free == 0 || free > LINE_PAST_BOOK_FREE {
        return Ok(Vec::new());
    }
    let asked = DotsQuery {
        position,
        detail: Detail::Line,
        window: ValueRange::FULL,
        lines: 1,
        ..query.clone()
    };
    let plan = policy.plan(&asked, kept);
    // Its progress and status are not the asked position's: the front end hears none of them.
    let quiet = Hooks {
        progress: None,
        status: None,
        ..hooks
    };
    Ok(prove(&asked, &plan, plan.time, policy, kept, quiet)?.line_steps)
}

/// What is proved of every move of `query`'s position (its detail is taken as [`Detail::Moves`])
/// under `policy`, the whole of its time spent proving and none on an estimate: the analysis a
/// grade is made from (a move is graded by what is proved of it and of the best move; an estimate
/// grades nothing), and what `ply play` ponders while the user thinks.
pub fn prove_moves(
    query: &DotsQuery,
    policy: &Policy,
    kept: Option<&Kept>,
    hooks: Hooks<'_>,
) -> Result<DotsReport, SolveError> {
    let mut asked = query.clone();
    asked.detail = Detail::Moves;
    let plan = policy.plan(&asked, kept);
    prove(&asked, &plan, plan.time, policy, kept, hooks)
}

/// The report of what the solver proves of `query` within `time`.
fn prove(
    query: &DotsQuery,
    plan: &Plan,
    time: Option<Duration>,
    policy: &Policy,
    kept: Option<&Kept>,
    hooks: Hooks<'_>,
) -> Result<DotsReport, SolveError> {
    let halt = halt_for(time, plan.time, hooks);
    let built = &query.built;
    let position = &query.position;
    let strategy = plan.strategy;
    let watch = Watch {
        progress: hooks.progress,
        halt: &halt,
    };
    // The books are read first: a position they hold is answered at once, and the search meets
    // their entries wherever it reaches one.
    let book = match kept {
        Some(kept) if !kept.books().is_empty() => Some(kept.book(built).map_err(book_fault)?),
        _ => None,
    };
    let known: &dyn KnownValues = match &book {
        Some(book) => book.as_ref(),
        None => &NothingKnown,
    };
    let report = |solver: &mut dyn crate::engine::scored::Solver<_>| {
        let mut informed = Informed::new(&built.board, known, Some(solver));
        report_from(
            built,
            position,
            &mut informed,
            strategy,
            query.detail,
            query.window,
            query.lines,
        )
    };
    let answered = match (strategy, kept) {
        (Strategy::Book, _) => report_from(
            built,
            position,
            &mut Informed::new(&built.board, known, None),
            strategy,
            query.detail,
            query.window,
            query.lines,
        ),
        (Strategy::Table, Some(kept)) => kept
            .table(built, policy.budget, watch)
            .and_then(|table| report(&mut table.solver(&built.board))),
        _ => {
            let memory = match (strategy, kept) {
                (Strategy::Search, Some(kept)) => kept.search_memory(built, policy.budget)?,
                _ => None,
            };
            let options = SolveOptions {
                progress: hooks.progress,
                search_status: hooks.status,
                tie_order: query.tie_order,
                halt: &halt,
                search_memory: memory.as_ref(),
                search_table_bytes: Some(policy.search_table_bytes(query)),
                search_gives_way: query.strategy == Strategy::Auto,
                known: book.as_deref().map(|b| b as &dyn KnownValues),
                shared_bounds: hooks.shared,
                node_limit: hooks.node_limit,
                ..SolveOptions::new(policy.budget)
            };
            with_solver(&built.board, strategy, options, &position.drawn(), report)
        }
    };
    // A book whose claims contradict each other or the search: one line naming it and the position.
    let answered = match &book {
        Some(book) => answered.map_err(|e| book.worded(e, |set| named(query, set))),
        None => answered,
    };
    match answered {
        // A table or a store stopped before it was whole: nothing proved.
        Err(SolveError::Halted(why)) => Ok(report_unproved(
            built,
            position,
            strategy,
            query.detail,
            why,
        )),
        other => other,
    }
}

/// The position `set` (the query's or one after it) in the asker's frame: the moves played, then
/// any other edge of `set` in edge order (`1-2 3-4`), or `the start`.
fn named(query: &DotsQuery, set: EdgeSet) -> String {
    let board = &query.built.board;
    let played = query.position.history();
    let drawn = query.position.drawn();
    let extra = (0..board.edge_count())
        .map(|e| Edge(e as u8))
        .filter(|&e| set.contains(e) && !drawn.contains(e));
    let moves: Vec<String> = played
        .iter()
        .copied()
        .chain(extra)
        .map(|e| format_edge(board, e))
        .collect();
    match moves.is_empty() {
        true => "the start".to_string(),
        false => moves.join(" "),
    }
}

/// Positions with fewer free edges are not written into a book: the free-edge table and the search
/// answer them in well under a second.
pub const KEEP_FREE: u32 = 24;

/// Writes what `report` proved into the books that keep proofs (`ply serve --book`, `ply play
/// --book`): the position (its bounds, or its value with a best move when every move was valued)
/// and the child of every move whose value is exact — when the position has at least
/// [`KEEP_FREE`] free edges and was not answered from the book.
fn keep_proofs(
    query: &DotsQuery,
    report: &DotsReport,
    kept: &Kept,
    took: Duration,
) -> Result<(), SolveError> {
    let books = kept.books();
    let built = &query.built;
    let board = &built.board;
    let drawn = query.position.drawn();
    let free = board.edge_count() as u32 - drawn.len();
    if !books.keeps_proofs() || report.strategy == Strategy::Book || free < KEEP_FREE {
        return Ok(());
    }
    let scheme = KeyScheme::new(board);
    let method = proved_by(&match report.strategy {
        Strategy::Search => format!("search {}", tie_name(query.tie_order)),
        other => other.name().to_string(),
    });
    let entry = |set: EdgeSet, range: ValueRange, best: Option<Edge>, nodes, seconds| {
        BookEntry::of(built, set, range, best, nodes, seconds, method.clone())
    };
    let every_move = !report.moves.is_empty() && report.moves.iter().all(|m| m.value.is_some());
    let best = report
        .best_move
        .as_deref()
        .filter(|_| every_move && report.exact)
        .and_then(|name| free_edge_named(board, drawn, name));
    let range = report.range();
    let full = ValueRange {
        lower: -(scheme.open_cells(drawn) as i32),
        upper: scheme.open_cells(drawn) as i32,
    };
    if range != full {
        let root = entry(
            drawn,
            range,
            best,
            report.states_visited,
            took.as_secs_f64(),
        );
        books.keep(built, &root).map_err(book_fault)?;
    }
    for m in &report.moves {
        let (Some(_), Some(edge)) = (m.value, free_edge_named(board, drawn, &m.mv)) else {
            continue;
        };
        let child = drawn.with(edge);
        let child_range = m.range().before_move(m.points);
        books
            .keep(built, &entry(child, child_range, None, 0, 0.0))
            .map_err(book_fault)?;
    }
    books.checkpoint();
    Ok(())
}

/// The free edge of `drawn` named `name`.
fn free_edge_named(board: &super::DotsBoard, drawn: EdgeSet, name: &str) -> Option<Edge> {
    super::notation::edge_named(board, name).filter(|&e| !drawn.contains(e))
}

/// A book that cannot be read, as a solve error (its one line).
fn book_fault(e: BookError) -> SolveError {
    SolveError::Book(e.to_string())
}

/// The moves of `report` the proof allows: when the best lower bound proved of a move is not a
/// loss, the moves keeping it; otherwise those not proved worse than it. (The bound is the moves'
/// own, not the position's: a book may know the position's value while its moves are unproved.)
pub fn allowed(report: &DotsReport) -> Vec<&MoveReport> {
    let floor = report
        .moves
        .iter()
        .map(|m| m.range().lower)
        .max()
        .unwrap_or(report.range().lower);
    report
        .moves
        .iter()
        .filter(|m| {
            let range = m.range();
            if floor >= 0 {
                range.lower >= floor
            } else {
                range.upper >= floor
            }
        })
        .collect()
}

/// The allowed move the estimate likes best, with its score and depth (none when only one move is
/// allowed, or the board has no theory: then the best bounds decide).
fn estimated(query: &DotsQuery, report: &DotsReport, halt: &Halt) -> (String, Option<Estimated>) {
    let board = &query.built.board;
    let moves = allowed(report);
    // The report's first move when none is allowed (only crossed bounds, which a report never
    // holds, could leave none).
    let by_bounds = || {
        moves
            .iter()
            .copied()
            .max_by_key(|m| (m.range().lower, m.range().upper))
            .or(report.moves.first())
            .map_or_else(String::new, |m| m.mv.clone())
    };
    if moves.len() == 1 {
        return (by_bounds(), None);
    }
    let drawn = query.position.drawn().0;
    let mut candidates = 0u64;
    for e in 0..board.edge_count() {
        let name = format_edge(board, super::Edge(e as u8));
        if moves.iter().any(|m| m.mv == name) {
            candidates |= 1 << e;
        }
    }
    let free = board.edge_count() as u32 - query.position.drawn().len();
    match best_estimate(board, drawn, candidates, halt, free) {
        Some(found) => (
            format_edge(board, super::Edge(found.element as u8)),
            Some(Estimated {
                // On the values the open cells allow, within the bounds proved (`max` then
                // `min`: never a panic on crossed ones).
                value: learned::shown_search_estimate(board, drawn, found.score)
                    .max(report.range().lower)
                    .min(report.range().upper),
                error: learned::model().and_then(|m| m.error(&query.built.geometry.slug(), free)),
                depth: found.depth,
            }),
        ),
        None => (by_bounds(), None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::util::memory::MemoryBudget;

    #[test]
    fn a_fault_names_what_could_still_work_in_the_callers_terms() {
        let refused = |budget: MemoryBudget| {
            SolveError::Memory(budget.check(1 << 30, || "a table".to_string()).unwrap_err())
        };
        let given = refused(MemoryBudget::new(1 << 20));
        let faults = [Surface::Cli, Surface::Api, Surface::Python]
            .map(|s| fault(&given, Strategy::Table, s));
        let e = "a table needs 1.0 GiB (1073741824 bytes) but the memory budget is 1.0 MiB (1048576 bytes)";
        assert_eq!(
            faults,
            [
                format!("{e}; try --strategy memo, or a larger --memory"),
                // A server's memory is its own: no larger budget is the request's to ask.
                format!("{e}; try \"strategy\": \"memo\""),
                format!("{e}; try strategy=\"memo\", or a larger memory"),
            ]
        );
        assert_eq!(
            fault(&given, Strategy::Memo, Surface::Python),
            format!("{e}; try a larger memory")
        );
        assert_eq!(
            fault(&given, Strategy::FreeTable, Surface::Api),
            format!("{e}; try \"strategy\": \"search\"")
        );
    }

    #[test]
    fn a_search_past_its_node_limit_gives_up_saying_what_it_proved() {
        use crate::games::dots::request::{Detail, DotsRequest};
        use crate::games::dots::Geometry;
        // A 4×4 position of 26 free edges (its value 4, a search of some 10^5 nodes).
        let moves = "17-18 8-13 2-3 14-19 18-19 9-14 12-17 16-21 3-8 9-10 1-6 20-25 4-5 11-16";
        let query = DotsRequest {
            detail: Detail::Value,
            ..DotsRequest::new(Geometry::Boxes { rows: 4, cols: 4 }, moves)
        }
        .validate()
        .unwrap();
        let policy = Policy::new(MemoryBudget::new(1 << 26), None);
        let whole = answer(&query, &policy, None, Hooks::default()).unwrap();
        assert_eq!(whole.value, Some(4));
        assert!(whole.states_visited > 1_000);
        let limited = Hooks {
            node_limit: Some(1_000),
            ..Hooks::default()
        };
        let stopped = answer(&query, &policy, None, limited).unwrap();
        assert_eq!(stopped.value, None);
        assert!((1_000..whole.states_visited).contains(&stopped.states_visited));
    }
}
