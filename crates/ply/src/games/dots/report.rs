//! A position explained, as data for front ends: the value, every move's value, the best line.

use super::board::DotsBoard;
use super::board::Edge;
use super::geometry::BuiltBoard;
use super::notation::format_edge;
use super::position::Position;
use crate::engine::scored::analysis::{analyse, Analysis, MoveValue};
use crate::engine::scored::choose::{with_solver_at, SolveOptions};
use crate::engine::scored::symmetry::symmetric_to_earlier;
use crate::engine::scored::{SolveError, Solver, Strategy};
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

/// One legal move and its value for the player making it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MoveReport {
    /// The edge, `2-5`.
    #[serde(rename = "move")]
    pub mv: String,
    /// Net future cells for the mover after this move under perfect play.
    pub value: i32,
    /// Cells this move completes at once.
    pub points: u32,
    /// An earlier listed move that is the same up to a symmetry of the board that keeps the position
    /// (so it has the same value), if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub symmetric_to: Option<String>,
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

/// How much of a position to explain.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Detail {
    /// The value alone, no move valued: one proof for the position (on every core, for the search)
    /// instead of one exact value per move, which is what makes the largest positions reachable.
    Value,
    /// The value and every move's value.
    Moves,
    /// Every move's value and a best line of play to the end.
    Line,
}

/// Everything `ply dots` shows about a position. Serialises to the JSON documented in the README.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
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
    /// Net future cells for the player to move under perfect play.
    pub value: i32,
    /// A's final margin (A's cells minus B's) under perfect play from here.
    pub final_margin_a: i64,
    /// Who wins under perfect play.
    pub winner: Winner,
    /// The final score under perfect play from here.
    pub final_score: Score,
    /// Every legal move with its value, best first.
    pub moves: Vec<MoveReport>,
    /// A best line of play to the end (empty unless asked for).
    pub line: Vec<String>,
    /// The same line with who plays each move and what it scores.
    pub line_steps: Vec<LineStepReport>,
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
            value: m.value,
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

/// Solves `position` on `built` with `strategy` and explains it as far as `detail` asks.
pub fn report(
    built: &BuiltBoard,
    position: &Position,
    strategy: Strategy,
    options: SolveOptions<'_>,
    detail: Detail,
) -> Result<DotsReport, SolveError> {
    with_solver_at(
        &built.board,
        strategy,
        options,
        &position.drawn(),
        |solver| report_from(built, position, solver, strategy, detail),
    )
}

/// Explains `position` with a solver already at hand (e.g. a table read from a file).
pub fn report_from(
    built: &BuiltBoard,
    position: &Position,
    solver: &mut dyn Solver<DotsBoard>,
    strategy: Strategy,
    detail: Detail,
) -> Result<DotsReport, SolveError> {
    let board = &built.board;
    let analysis = match detail {
        Detail::Value => Analysis {
            value: solver.value(&position.drawn())?,
            moves: Vec::new(),
            line: Vec::new(),
        },
        Detail::Moves | Detail::Line => {
            analyse(board, solver, &position.drawn(), detail == Detail::Line)?
        }
    };
    let states_visited = solver.states_visited();
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
    let impossible = || SolveError::ImpossibleValue {
        value: analysis.value,
        left: u32::try_from(left).unwrap_or(u32::MAX),
    };
    if u64::from(analysis.value.unsigned_abs()) > left {
        return Err(impossible());
    }
    let margin = final_margin_a(position.score(), position.to_move(), analysis.value);
    let final_score = final_score(cells as i64, margin).ok_or_else(impossible)?;
    Ok(DotsReport {
        geometry: built.geometry,
        played: position
            .history()
            .iter()
            .map(|&e| format_edge(board, e))
            .collect(),
        to_move: position.to_move(),
        score: Score {
            a: position.score()[0],
            b: position.score()[1],
        },
        value: analysis.value,
        final_margin_a: margin,
        winner: Winner::from_margin_a(margin),
        final_score,
        moves: move_reports(board, position, &analysis.moves),
        line: line_steps.iter().map(|s| s.mv.clone()).collect(),
        line_steps,
        strategy,
        states_visited,
        picture: built
            .canvas
            .draw(board, position.drawn(), position.owners()),
        value_only: detail == Detail::Value,
    })
}
