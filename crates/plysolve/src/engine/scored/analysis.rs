//! From values to explanations: the value of every move, best first, and the best line of play — or,
//! when the solve was halted part way, what it proved of each.

use super::{children, keeps_turn, ScoredGame, SolveError, Solver, ValueRange};

/// One legal move and what is proved of its worth to the player making it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveValue<M> {
    /// The move.
    pub mv: M,
    /// Points the move scores at once (the mover then moves again if this is above 0).
    pub points: u32,
    /// Net future points for the mover if they make this move and both sides then play perfectly:
    /// exact, or the bounds proved before the halt.
    pub range: ValueRange,
}

impl<M> MoveValue<M> {
    /// The move's value, when it is proved exactly.
    pub fn value(&self) -> Option<i32> {
        self.range.value()
    }
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
    /// Net future points for the player to move under perfect play: exact, or the bounds the moves'
    /// bounds give (the best lower bound to the best upper bound).
    pub range: ValueRange,
    /// Every legal move with what is proved of its value, best first (greater lower bound, then
    /// greater upper bound); equal ones keep the game's move order. Empty when only the value was
    /// asked for.
    pub moves: Vec<MoveValue<M>>,
    /// A line of perfect play (empty unless asked for): to the end of the game, or as far as values
    /// were proved before the halt.
    pub line: Vec<LineStep<M>>,
}

/// Orders `moves` best first, as [`Analysis::moves`] lists them: greater lower bound, then greater
/// upper bound; the sort is stable, so equal moves keep the game's move order. One home for the
/// order, so a report that learns more of a move (a book's best move) re-ranks them the same way.
pub fn sort_best_first<M>(moves: &mut [MoveValue<M>]) {
    moves.sort_by_key(|m| std::cmp::Reverse((m.range.lower, m.range.upper)));
}

/// What `solver` proves of `state`'s value alone, no move valued, asked about in `window`
/// ([`Solver::range_within`]; [`ValueRange::FULL`]: the exact value).
pub fn analyse_value<G: ScoredGame, S: Solver<G> + ?Sized>(
    solver: &mut S,
    state: &G::State,
    window: ValueRange,
) -> Result<Analysis<G::Move>, SolveError> {
    Ok(Analysis {
        range: solver.range_within(state, window)?,
        moves: Vec::new(),
        line: Vec::new(),
    })
}

/// Values every move of `state` with `solver`; with `with_line`, also follows a best move at every
/// step (the first one in move order among equals) to the end of the game, or until a step's best
/// move is no longer proved (the solver's halt came).
pub fn analyse<G: ScoredGame, S: Solver<G> + ?Sized>(
    game: &G,
    solver: &mut S,
    state: &G::State,
    with_line: bool,
) -> Result<Analysis<G::Move>, SolveError> {
    let mut moves = move_values(game, solver, state)?;
    sort_best_first(&mut moves);
    let range = position_range(&moves);
    let line = match moves.first() {
        // The first step is the first of the sorted moves (the sort is stable); the rest are searched.
        Some(first) if with_line && range.value().is_some() => {
            line_from(game, solver, state, first.mv)?
        }
        _ => Vec::new(),
    };
    Ok(Analysis { range, moves, line })
}

/// The line that starts with `first` in `state` and follows a best move at every step after it (the
/// first in move order among equals) to the end of the game, or until a step's best move is not
/// proved: the line of one of the top moves, as an engine's multi-line view shows it.
pub fn line_from<G: ScoredGame, S: Solver<G> + ?Sized>(
    game: &G,
    solver: &mut S,
    state: &G::State,
    first: G::Move,
) -> Result<Vec<LineStep<G::Move>>, SolveError> {
    let mut line = Vec::new();
    let mut step = Some((*state, first));
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
        step = proved_best_move(game, solver, &child)?.map(|best| (child, best));
    }
    Ok(line)
}

/// The range of a position's value from its moves' ranges: at least the best lower bound, at most the
/// best upper bound; exactly 0 when there are no moves (the game is over).
pub fn position_range<M>(moves: &[MoveValue<M>]) -> ValueRange {
    moves
        .iter()
        .map(|m| m.range)
        .reduce(|a, b| ValueRange {
            lower: a.lower.max(b.lower),
            upper: a.upper.max(b.upper),
        })
        .unwrap_or(ValueRange::exact(0))
}

/// Every move of `state` with what is proved of its value, in the game's move order.
fn move_values<G: ScoredGame, S: Solver<G> + ?Sized>(
    game: &G,
    solver: &mut S,
    state: &G::State,
) -> Result<Vec<MoveValue<G::Move>>, SolveError> {
    let listed = children(game, state);
    let states: Vec<G::State> = listed.iter().map(|&(_, child, _)| child).collect();
    let ranges = solver.ranges(&states)?;
    Ok(listed
        .into_iter()
        .zip(ranges)
        .map(|((mv, _, points), range)| MoveValue {
            mv,
            points,
            range: range.after_move(points),
        })
        .collect())
}

/// The first move (in move order) of greatest value; `None` when the game is over, or when the
/// solver's halt left the best move unproved.
fn proved_best_move<G: ScoredGame, S: Solver<G> + ?Sized>(
    game: &G,
    solver: &mut S,
    state: &G::State,
) -> Result<Option<G::Move>, SolveError> {
    let moves = match move_values(game, solver, state) {
        Ok(moves) => moves,
        Err(SolveError::Halted(_)) => return Ok(None),
        Err(e) => return Err(e),
    };
    let mut best: Option<(G::Move, i32)> = None;
    for candidate in moves {
        let Some(value) = candidate.value() else {
            return Ok(None);
        };
        if best.is_none_or(|(_, b)| value > b) {
            best = Some((candidate.mv, value));
        }
    }
    Ok(best.map(|(mv, _)| mv))
}
