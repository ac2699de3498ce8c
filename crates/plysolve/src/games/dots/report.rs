//! A position explained, as data for front ends: the value, every move's value, the best line — or,
//! when the time given ran out first, what was proved: bounds on the value, the moves proved with
//! their values, bounds on the others, and the best move found.

use super::board::DotsBoard;
use super::board::Edge;
use super::geometry::BuiltBoard;
use super::notation::format_edge;
use super::position::Position;
use super::request::Detail;
use super::theory::learned::{self, move_estimate, Reading};
use crate::engine::scored::analysis::{
    analyse, analyse_value, line_from, sort_best_first, Analysis, MoveValue,
};
use crate::engine::scored::symmetry::symmetric_to_earlier;
use crate::engine::scored::{Contradiction, SolveError, Solver, Strategy, ValueRange};
use crate::engine::util::halt::Halted;
use crate::engine::{final_margin_a, Player, Winner};
use serde::{Serialize, Serializer};

/// Cells won so far by each player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Score {
    /// Cells won by `A`.
    #[serde(rename = "A")]
    pub a: u32,
    /// Cells won by `B`.
    #[serde(rename = "B")]
    pub b: u32,
}

/// One legal move and what is proved of its value for the player making it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MoveReport {
    /// The edge, `2-5`.
    #[serde(rename = "move")]
    pub mv: String,
    /// Net future cells for the mover after this move under perfect play; `null` when not proved.
    pub value: Option<i32>,
    /// Bounds on that value when it is not proved (left out of the JSON when it is).
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub bounds: Option<ValueRange>,
    /// Cells this move completes at once.
    pub points: u32,
    /// An earlier listed move that is the same up to a symmetry of the board that keeps the position
    /// (so it has the same value), if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub symmetric_to: Option<String>,
}

impl MoveReport {
    /// What is proved of the move's value.
    pub fn range(&self) -> ValueRange {
        self.bounds
            .unwrap_or_else(|| ValueRange::exact(self.value.unwrap_or(0)))
    }
}

/// What the learned estimate ([`super::theory::learned`]) makes of a position whose value is not
/// proved: the value of the best move it found, looking `depth` turns ahead.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Estimated {
    /// The estimated value for the player to move, in cells as `value` is (within the bounds
    /// proved).
    pub value: i32,
    /// The estimate's mean error, in cells, measured on held-out positions of this board with about
    /// as many free edges (`null` on a board it was not measured on).
    pub error: Option<f64>,
    /// Turns the estimate looked ahead.
    pub depth: u32,
}

/// One of the top moves of a position with its line (`--lines K`): an engine's multi-line view.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TopLine {
    /// The edge, `2-5`.
    #[serde(rename = "move")]
    pub mv: String,
    /// Net future cells for the mover after this move under perfect play; `null` when not proved.
    pub value: Option<i32>,
    /// Bounds on that value when it is not proved (left out of the JSON when it is).
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub bounds: Option<ValueRange>,
    /// When the value is not proved: the learned estimate of it, within its bounds (left out of
    /// the JSON otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub estimate: Option<i32>,
    /// The move and perfect play after it, to the end of the game or as far as it was proved
    /// (the move alone when its value is not proved).
    pub line: Vec<String>,
}

impl DotsReport {
    /// Puts the best move found (`best`, not proved) first among the top lines, with the search's
    /// `estimate` of it — the value the report gives — so that the lines and the best move agree.
    /// A move not among the lines takes the last one's place. Nothing changes without lines, or
    /// when `best` is proved (the lines rank proved values first already).
    pub fn lead_lines_with(&mut self, best: &str, estimate: Option<i32>) {
        let Some(moved) = self.moves.iter().find(|m| m.mv == best) else {
            return;
        };
        if self.lines.is_empty() || moved.value.is_some() {
            return;
        }
        let line = match self.lines.iter().position(|l| l.mv == best) {
            Some(i) => self.lines.remove(i),
            None => {
                self.lines.pop();
                TopLine {
                    mv: best.to_string(),
                    value: None,
                    bounds: moved.bounds,
                    estimate: None,
                    line: vec![best.to_string()],
                }
            }
        };
        self.lines.insert(
            0,
            TopLine {
                estimate: estimate.or(line.estimate),
                ..line
            },
        );
    }
}

/// One step of the best line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LineStepReport {
    /// The edge, `2-5`.
    #[serde(rename = "move")]
    pub mv: String,
    /// Who draws it.
    pub player: Player,
    /// Cells it completes (the same player then moves again).
    pub points: u32,
}

/// Everything `ply dots` shows about a position. Serialises to the JSON documented in the README.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DotsReport {
    /// The board: `"game"` and its size fields.
    #[serde(flatten)]
    pub geometry: super::Geometry,
    /// The moves played so far, as given.
    pub played: Vec<String>,
    /// Whose turn it is.
    pub to_move: Player,
    /// Cells won so far.
    pub score: Score,
    /// The owner of each cell (in the board's cell order), `null` while it is open.
    pub owners: Vec<Option<Player>>,
    /// Whether every edge is drawn.
    pub over: bool,
    /// Whether the value is proved (false when the time ran out first).
    pub exact: bool,
    /// Net future cells for the player to move under perfect play; `null` when not proved.
    pub value: Option<i32>,
    /// Bounds on the value when it is not proved (left out of the JSON when it is).
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub bounds: Option<ValueRange>,
    /// A's final margin (A's cells minus B's) under perfect play from here, when proved.
    pub final_margin_a: Option<i64>,
    /// Who wins under perfect play, when proved.
    pub winner: Option<Winner>,
    /// The final score under perfect play from here, when proved.
    pub final_score: Option<Score>,
    /// Every legal move with its value (or bounds), best first.
    pub moves: Vec<MoveReport>,
    /// A best move: proved when every move is, or when one is proved to keep the position's exact
    /// value (a book's best move: then the first of `moves`); otherwise the best found — the estimate's choice
    /// among the moves the proof allows (see `estimate`). `null` when the game is over or only the
    /// value was asked for.
    pub best_move: Option<String>,
    /// When `best_move` was not proved: what the estimate made of it (left out of the JSON
    /// otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub estimate: Option<Estimated>,
    /// A best line of play (empty unless asked for): to the end, or as far as it was proved.
    pub line: Vec<String>,
    /// The same line with who plays each move and what it scores.
    pub line_steps: Vec<LineStepReport>,
    /// The top moves with their lines, when more than one was asked for (`--lines K`; left out of
    /// the JSON otherwise): the `K` best moves by value, or by estimate where not proved, each
    /// followed by perfect play as far as it is proved.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub lines: Vec<TopLine>,
    /// The strategy that computed the values.
    #[serde(serialize_with = "strategy_name")]
    pub strategy: Strategy,
    /// States the strategy evaluated (for a table: all of them).
    pub states_visited: u64,
    /// The board as text art.
    pub picture: String,
    /// Whether the value alone was asked for ([`Detail::Value`]): `moves` and `line` are then empty
    /// although the game goes on. Left out of the JSON when false.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub value_only: bool,
    /// Why the answer is not exact (the time limit, a cancel); left out of the JSON when it is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

impl DotsReport {
    /// What is proved of the position's value.
    pub fn range(&self) -> ValueRange {
        self.bounds
            .unwrap_or_else(|| ValueRange::exact(self.value.unwrap_or(0)))
    }

    /// Cells still open (owned by no one).
    pub fn cells_left(&self) -> u32 {
        self.owners.iter().filter(|o| o.is_none()).count() as u32
    }

    /// Whether nothing is proved of the position's value: its bounds are all the cells left allow
    /// ([`open_range`]), which is no result to show.
    pub fn proves_nothing(&self) -> bool {
        unproved_within(self.range(), open_range(self.cells_left()))
    }

    /// Whether nothing is proved of `m`'s value (a move of this position): its bounds are all the
    /// cells left allow a move scoring what it scores ([`open_move_range`]).
    pub fn proves_nothing_of(&self, m: &MoveReport) -> bool {
        unproved_within(m.range(), open_move_range(self.cells_left(), m.points))
    }
}

/// The bounds of the value of a position with `left` cells open of which nothing is proved: every
/// cell left to either player, `-left..+left`.
pub fn open_range(left: u32) -> ValueRange {
    let left = left as i32;
    ValueRange {
        lower: -left,
        upper: left,
    }
}

/// The bounds of the value of a move scoring `points` in a position with `left` cells open, of
/// which nothing is proved: [`open_range`] of the cells left after it, as the move's value
/// ([`ValueRange::after_move`]).
pub fn open_move_range(left: u32, points: u32) -> ValueRange {
    open_range(left.saturating_sub(points)).after_move(points)
}

/// Whether `range` is no narrower than `open` (what the cells allow, [`open_range`] or
/// [`open_move_range`]): nothing proved.
pub fn unproved_within(range: ValueRange, open: ValueRange) -> bool {
    range.lower <= open.lower && range.upper >= open.upper && range.lower < range.upper
}

/// The moves as reported, each marked with the first earlier move equivalent to it: a symmetry of the
/// board maps the position onto itself and one move onto the other.
fn move_reports(
    board: &DotsBoard,
    position: &Position,
    moves: &[MoveValue<Edge>],
) -> Vec<MoveReport> {
    let listed: Vec<Edge> = moves.iter().map(|m| m.mv).collect();
    let earlier = symmetric_to_earlier(board, &position.drawn(), &listed);
    let names: Vec<String> = listed.iter().map(|&e| format_edge(board, e)).collect();
    moves
        .iter()
        .zip(&names)
        .zip(earlier)
        .map(|((m, name), earlier)| MoveReport {
            mv: name.clone(),
            value: m.value(),
            bounds: m.value().is_none().then_some(m.range),
            points: m.points,
            symmetric_to: earlier.map(|j| names[j].clone()),
        })
        .collect()
}

/// Final cells of each player when all `cells` are won and A leads by `margin_a`; `None` when no
/// final score has that margin.
fn final_score(cells: i64, margin_a: i64) -> Option<Score> {
    Some(Score {
        a: u32::try_from((cells + margin_a) / 2).ok()?,
        b: u32::try_from((cells - margin_a) / 2).ok()?,
    })
}

fn strategy_name<S: Serializer>(strategy: &Strategy, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(strategy.name())
}

/// Explains `position` as far as `detail` asks with `solver` (built with `strategy`), the value
/// asked about in `window` ([`ValueRange::FULL`]: exactly): exact when the solver finished, what it
/// proved when its halt came first or a bound decided the window (`reason` says which).
pub fn report_from(
    built: &BuiltBoard,
    position: &Position,
    solver: &mut dyn Solver<DotsBoard>,
    strategy: Strategy,
    detail: Detail,
    window: ValueRange,
    lines: u32,
) -> Result<DotsReport, SolveError> {
    let board = &built.board;
    let analysed = match detail {
        Detail::Value => analyse_value(solver, &position.drawn(), window),
        Detail::Moves | Detail::Line => {
            analyse(board, solver, &position.drawn(), detail == Detail::Line)
        }
    };
    let (mut analysis, halted) = match analysed {
        Ok(analysis) => (analysis, solver.halted()),
        // A solver that cannot give bounds: nothing proved but what the cells left allow.
        Err(SolveError::Halted(why)) => (unproved(built, position, detail), Some(why)),
        Err(e) => return Err(e),
    };
    // A position a book holds keeps its value though its moves were not all proved in time, and
    // no move is worth more than the position; a book whose claim leaves no value with its moves'
    // is wrong (a contradiction, never a report of crossed bounds).
    let mut answered_by = solver.answered_by().unwrap_or(strategy);
    let drawn = position.drawn();
    if let Some(known) = solver.known(&drawn) {
        if analysis.range.value().is_none() && known.value().is_some() {
            answered_by = Strategy::Book;
        }
        let moves_known = !analysis.moves.is_empty()
            && analysis.moves.iter().all(|m| {
                solver
                    .known(&drawn.with(m.mv))
                    .is_some_and(|r| r.value().is_some())
            });
        analysis.range = analysis
            .range
            .meet_known(known, drawn.0, moves_known)?;
        for m in &mut analysis.moves {
            m.range.upper = m.range.upper.min(analysis.range.upper);
        }
        // The books' best move of a position they value exactly keeps that value (the build
        // proved it): worth exactly the value, first among the moves, though not searched here.
        let best = solver.known_best(&drawn).map(|e| Edge(e as u8));
        if let (Some(v), Some(best)) = (analysis.range.value(), best) {
            if let Some(m) = analysis.moves.iter_mut().find(|m| m.mv == best) {
                let by_book = ValueRange::exact(v);
                let met = m.range.meet(by_book);
                if met.lower > met.upper {
                    return Err(SolveError::Contradiction(Contradiction {
                        state: drawn.0,
                        known: by_book,
                        proved: m.range,
                        by_known: false,
                    }));
                }
                m.range = met;
                sort_best_first(&mut analysis.moves);
            }
        }
    }
    let reason = analysis.range.value().is_none().then(|| match halted {
        Some(why) => why.to_string(),
        None if analysis.range.next_test(window, 0).is_none() => format!(
            "the value lies outside the window asked ({}, {})",
            window.lower, window.upper
        ),
        None => Halted::Cancelled.to_string(),
    });
    let top = if detail == Detail::Line && lines > 1 {
        top_lines(built, position, solver, &analysis.moves, lines as usize)
    } else {
        Vec::new()
    };
    let mut report = explain(
        built,
        position,
        analysis,
        solver.states_visited(),
        answered_by,
        detail,
        reason,
    )?;
    report.lines = top;
    Ok(report)
}

/// The `k` best of `moves` of `position` — by value where proved, else by the learned estimate of
/// the move (within its bounds, so a move proved worse than another never ranks above it) — each
/// with its line: perfect play after it as far as `solver` proves it, or the move alone when its
/// value is not proved.
fn top_lines(
    built: &BuiltBoard,
    position: &Position,
    solver: &mut dyn Solver<DotsBoard>,
    moves: &[MoveValue<Edge>],
    k: usize,
) -> Vec<TopLine> {
    let board = &built.board;
    let drawn = position.drawn();
    let mut ranked: Vec<(&MoveValue<Edge>, Option<i32>)> = moves
        .iter()
        .map(|m| {
            let estimate = m
                .range
                .value()
                .is_none()
                .then(|| {
                    let mv = m.mv.0 as u32;
                    move_estimate(board, drawn.0, mv, m.points, m.range, Reading::Shown)
                });
            (m, estimate)
        })
        .collect();
    // Stable: equal moves keep the order of `moves`.
    ranked.sort_by_key(|&(m, estimate)| {
        let key = m.range.value().or(estimate).unwrap_or(m.range.lower);
        std::cmp::Reverse((key, m.range.lower))
    });
    // A static estimate is shown only where the model's error was measured (the ranking uses it
    // anyway: it is the best guess there is).
    let after = board.edge_count() as u32 - drawn.len() - 1;
    let measured =
        learned::model().is_some_and(|m| m.error(&built.geometry.slug(), after).is_some());
    ranked
        .into_iter()
        .take(k)
        .map(|(m, estimate)| {
            let estimate = estimate.filter(|_| measured);
            let value = m.range.value();
            let steps = match value {
                // A solver stopped by its halt proves no more of the line: the move alone.
                Some(_) => line_from(board, solver, &drawn, m.mv).unwrap_or_default(),
                None => Vec::new(),
            };
            let mut line: Vec<String> = steps.iter().map(|s| format_edge(board, s.mv)).collect();
            if line.is_empty() {
                line.push(format_edge(board, m.mv));
            }
            TopLine {
                mv: format_edge(board, m.mv),
                value,
                bounds: value.is_none().then_some(m.range),
                estimate,
                line,
            }
        })
        .collect()
}

/// The report of `position` when the solver stopped (`why`) before proving anything: the bounds the
/// cells left allow, for the position and every move.
pub fn report_unproved(
    built: &BuiltBoard,
    position: &Position,
    strategy: Strategy,
    detail: Detail,
    why: Halted,
) -> DotsReport {
    let analysis = unproved(built, position, detail);
    explain(
        built,
        position,
        analysis,
        0,
        strategy,
        detail,
        Some(why.to_string()),
    )
    .expect("the bounds of the cells left are possible")
}

/// The analysis of a position of which nothing was proved: every move between the bounds the cells
/// left allow.
fn unproved(built: &BuiltBoard, position: &Position, detail: Detail) -> Analysis<Edge> {
    let board = &built.board;
    let [a, b] = position.score();
    let left = board.cell_count() as u32 - a - b;
    let range = open_range(left);
    let moves = match detail {
        Detail::Value => Vec::new(),
        Detail::Moves | Detail::Line => crate::engine::scored::children(board, &position.drawn())
            .into_iter()
            .map(|(mv, _, points)| MoveValue {
                mv,
                points,
                range: open_move_range(left, points),
            })
            .collect(),
    };
    Analysis {
        range: if moves.is_empty() && detail != Detail::Value {
            ValueRange::exact(0)
        } else {
            range
        },
        moves,
        line: Vec::new(),
    }
}

/// The report of `analysis` of `position`.
fn explain(
    built: &BuiltBoard,
    position: &Position,
    analysis: Analysis<Edge>,
    states_visited: u64,
    strategy: Strategy,
    detail: Detail,
    reason: Option<String>,
) -> Result<DotsReport, SolveError> {
    let board = &built.board;
    let to_move = position.to_move();
    let line_steps: Vec<LineStepReport> = analysis
        .line
        .iter()
        .map(|step| LineStepReport {
            mv: format_edge(board, step.mv),
            player: if step.by_opponent {
                to_move.other()
            } else {
                to_move
            },
            points: step.points,
        })
        .collect();
    // Checked, so that a value from a forged table cannot make scores wrap.
    let [a, b] = position.score();
    let cells = board.cell_count() as u64;
    let left = cells.saturating_sub(u64::from(a) + u64::from(b));
    let range = analysis.range;
    let impossible = |value: i32| SolveError::ImpossibleValue {
        value,
        left: u32::try_from(left).unwrap_or(u32::MAX),
    };
    for bound in [range.lower, range.upper] {
        if u64::from(bound.unsigned_abs()) > left {
            return Err(impossible(bound));
        }
    }
    let value = range.value();
    let margin = value.map(|v| final_margin_a(position.score(), to_move, v));
    let final_score = match margin {
        Some(margin) => {
            Some(final_score(cells as i64, margin).ok_or_else(|| impossible(range.lower))?)
        }
        None => None,
    };
    let moves = move_reports(board, position, &analysis.moves);
    Ok(DotsReport {
        geometry: built.geometry,
        played: position
            .history()
            .iter()
            .map(|&e| format_edge(board, e))
            .collect(),
        to_move,
        score: Score { a, b },
        owners: position.owners().to_vec(),
        over: position.drawn() == board.full(),
        exact: value.is_some(),
        value,
        bounds: value.is_none().then_some(range),
        final_margin_a: margin,
        winner: margin.map(Winner::from_margin_a),
        final_score,
        best_move: moves.first().map(|m| m.mv.clone()),
        estimate: None,
        moves,
        line: line_steps.iter().map(|s| s.mv.clone()).collect(),
        line_steps,
        lines: Vec::new(),
        strategy,
        states_visited,
        picture: built
            .canvas
            .draw(board, position.drawn(), position.owners()),
        value_only: detail == Detail::Value,
        reason,
    })
}
