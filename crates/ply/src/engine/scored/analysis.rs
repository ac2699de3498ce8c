//! From values to explanations: the value of every move, best first, and the best line of play.

use super::{children, keeps_turn, move_value, ScoredGame, SolveError, Solver};

/// One legal move and what it is worth to the player making it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveValue<M> {
    /// The move.
    pub mv: M,
    /// Points the move scores at once (the mover then moves again if this is above 0).
    pub points: u32,
    /// Net future points for the mover if they make this move and both sides then play perfectly.
    pub value: i32,
}

/// One step of a line of play.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineStep<M> {
    /// The move.
    pub mv: M,
    /// Points it scores; above 0 the same player moves next.
    pub points: u32,
    /// Whether the opponent of the player to move in the analysed state makes this move (so a
    /// front end never re-derives the turn from the points).
    pub by_opponent: bool,
}

/// A position explained: its value, every move's value, and (if asked) a best line to the end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Analysis<M> {
    /// Net future points for the player to move under perfect play.
    pub value: i32,
    /// Every legal move with its value, best first; equal values keep the game's move order.
    pub moves: Vec<MoveValue<M>>,
    /// A line of perfect play to the end of the game (empty unless asked for).
    pub line: Vec<LineStep<M>>,
}

/// Values every move of `state` with `solver`; with `with_line`, also follows a best move at every
/// step (the first one in move order among equals) to the end of the game.
pub fn analyse<G: ScoredGame, S: Solver<G> + ?Sized>(
    game: &G,
    solver: &mut S,
    state: &G::State,
    with_line: bool,
) -> Result<Analysis<G::Move>, SolveError> {
    let mut moves = move_values(game, solver, state)?;
    moves.sort_by_key(|m| std::cmp::Reverse(m.value));
    let value = moves.first().map_or(0, |m| m.value);
    let mut line = Vec::new();
    if with_line {
        // The first step is the first of the sorted moves (the sort is stable); the rest are searched.
        let mut step = moves.first().map(|m| (*state, m.mv));
        let mut by_opponent = false;
        while let Some((current, mv)) = step {
            let (child, points) = game
                .play(&current, mv)
                .expect("a move listed by the game is legal");
            line.push(LineStep {
                mv,
                points,
                by_opponent,
            });
            by_opponent ^= !keeps_turn(points);
            step = best_move(game, solver, &child)?.map(|best| (child, best.mv));
        }
    }
    Ok(Analysis { value, moves, line })
}

/// Every move of `state` with its value, in the game's move order.
fn move_values<G: ScoredGame, S: Solver<G> + ?Sized>(
    game: &G,
    solver: &mut S,
    state: &G::State,
) -> Result<Vec<MoveValue<G::Move>>, SolveError> {
    let listed = children(game, state);
    let states: Vec<G::State> = listed.iter().map(|&(_, child, _)| child).collect();
    let values = solver.values(&states)?;
    Ok(listed
        .into_iter()
        .zip(values)
        .map(|((mv, _, points), value)| MoveValue {
            mv,
            points,
            value: move_value(points as i32, value),
        })
        .collect())
}

/// The first move (in move order) of greatest value, or `None` when the game is over.
fn best_move<G: ScoredGame, S: Solver<G> + ?Sized>(
    game: &G,
    solver: &mut S,
    state: &G::State,
) -> Result<Option<MoveValue<G::Move>>, SolveError> {
    let mut best: Option<MoveValue<G::Move>> = None;
    for candidate in move_values(game, solver, state)? {
        if best.as_ref().is_none_or(|b| candidate.value > b.value) {
            best = Some(candidate);
        }
    }
    Ok(best)
}
