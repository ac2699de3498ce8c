//! Conformance checkers, one per game shape (after GamesmanOne's `test.c` and OpenSpiel's
//! `basic_tests`): given a game and sample states, they check that what the game states about itself
//! holds — the promises the solvers rely on without checking, such as "children come later in the
//! index". Every game runs its shape's checker in its tests.
//!
//! Each checker returns the first broken promise as a [`Violation`] naming the state.

use super::absorbing::AbsorbingDag;
use super::impartial::ImpartialGame;
use super::reach::{Predecessors, Puzzle};
use super::scored::{children, negamax_step, ScoredGame, SolveError, Solver, SubsetIndexed};
use std::collections::{BTreeSet, HashMap};
use std::fmt::Debug;

/// Why a check failed: a promise the game broke (what, and at which state), or the solver used to
/// compare values failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Violation {
    /// A broken promise.
    #[error("{0}")]
    Broken(String),
    /// The solver failed.
    #[error(transparent)]
    Solve(#[from] SolveError),
}

fn check(holds: bool, what: impl FnOnce() -> String) -> Result<(), Violation> {
    if holds {
        Ok(())
    } else {
        Err(Violation::Broken(what()))
    }
}

/// The scored shape's core: at each sample state, `play` gives exactly the listed child and points
/// of every listed move, moves are not listed twice, and no move scores more than
/// [`ScoredGame::max_points`].
pub fn scored<G: ScoredGame>(game: &G, samples: &[G::State]) -> Result<(), Violation> {
    for state in samples {
        let listed = children(game, state);
        for (i, &(mv, child, points)) in listed.iter().enumerate() {
            check(game.play(state, mv) == Some((child, points)), || {
                format!("at {state:?}, play({mv:?}) disagrees with the move list's ({child:?}, {points})")
            })?;
            check(listed[..i].iter().all(|&(m, ..)| m != mv), || {
                format!("at {state:?}, the move {mv:?} is listed twice")
            })?;
            check(points <= game.max_points(), || {
                format!("at {state:?}, the move {mv:?} scores {points} > max_points")
            })?;
        }
    }
    Ok(())
}

/// The moves of a state as (child mask, points), sorted: what symmetries and completion must match.
fn moves_by_mask<G: SubsetIndexed>(game: &G, state: &G::State) -> Vec<(u64, u32)> {
    let mut out: Vec<(u64, u32)> = children(game, state)
        .into_iter()
        .map(|(_, child, points)| (game.mask(&child), points))
        .collect();
    out.sort_unstable();
    out
}

/// The subset-indexed shape, with its accelerators when present, at each sample mask: the core
/// ([`scored`]); index ↔ state round-trips; every child is a strict superset of its parent (so later
/// in the index); [`SubsetIndexed::completion`], if given, lists exactly the moves and points of
/// [`ScoredGame::for_each_move`]; each of [`SubsetIndexed::symmetries`], if given, maps the moves of
/// a state onto the moves of its image and keeps the value `solver` gives. The value of each sample
/// is also checked to be the negamax step over its children's values.
pub fn subset_indexed<G: SubsetIndexed>(
    game: &G,
    samples: &[u64],
    solver: &mut dyn Solver<G>,
) -> Result<(), Violation> {
    let states: Vec<G::State> = samples.iter().map(|&m| game.state(m)).collect();
    scored(game, &states)?;
    let full = if game.items() == 64 {
        u64::MAX
    } else {
        (1u64 << game.items()) - 1
    };
    for (&mask, state) in samples.iter().zip(&states) {
        check(game.mask(state) == mask, || {
            format!(
                "the state of mask {mask:#x} has mask {:#x}",
                game.mask(state)
            )
        })?;
        let moves = moves_by_mask(game, state);
        for &(child, _) in &moves {
            check(
                child & mask == mask && child != mask && child & !full == 0,
                || format!("from mask {mask:#x}, the child {child:#x} does not add elements"),
            )?;
        }
        if let Some(rules) = game.completion() {
            let mut stated: Vec<(u64, u32)> = (0..game.items())
                .filter(|e| mask >> e & 1 == 0)
                .map(|e| (mask | 1 << e, rules.points(mask, e)))
                .collect();
            stated.sort_unstable();
            check(stated == moves, || {
                format!("at mask {mask:#x}, completion() states other moves than for_each_move")
            })?;
        }
        let value = solver.value(state)?;
        let step = negamax_step(game, state, |child| solver.value(child))?;
        check(value == step, || {
            format!("at mask {mask:#x}, the value {value} is not the best move's {step}")
        })?;
        if let Some(symmetries) = game.symmetries() {
            for i in 0..symmetries.order() - 1 {
                let image = symmetries.image(i, mask);
                let mut mapped: Vec<(u64, u32)> = moves
                    .iter()
                    .map(|&(child, points)| (symmetries.image(i, child), points))
                    .collect();
                mapped.sort_unstable();
                check(mapped == moves_by_mask(game, &game.state(image)), || {
                    format!(
                        "symmetry {i} maps the moves of {mask:#x} onto others than {image:#x}'s"
                    )
                })?;
                let image_value = solver.value(&game.state(image))?;
                check(image_value == value, || {
                    format!("symmetry {i} maps {mask:#x} (value {value}) to {image:#x} (value {image_value})")
                })?;
            }
        }
    }
    Ok(())
}

/// The puzzle shape: every successor of every state is a state.
pub fn puzzle<P: Puzzle>(puzzle: &P) -> Result<(), Violation> {
    let n = puzzle.states();
    for s in 0..n {
        let mut bad = None;
        puzzle.successors(s, |t| {
            if t >= n {
                bad = Some(t)
            }
        });
        check(bad.is_none(), || {
            format!("state {s} has the successor {bad:?} beyond {n} states")
        })?;
    }
    Ok(())
}

/// The predecessors accelerator: [`puzzle`], and at every state the predecessors listed are exactly
/// the states that list it among their successors.
pub fn predecessors<P: Predecessors>(puzzle: &P) -> Result<(), Violation> {
    self::puzzle(puzzle)?;
    let n = puzzle.states();
    let mut inverse = vec![BTreeSet::new(); n];
    for s in 0..n {
        puzzle.successors(s, |t| {
            inverse[t].insert(s);
        });
    }
    for (t, expected) in inverse.iter().enumerate() {
        let mut listed = BTreeSet::new();
        puzzle.predecessors(t, |s| {
            listed.insert(s);
        });
        check(&listed == expected, || {
            format!("state {t} lists predecessors {listed:?}, its successors say {expected:?}")
        })?;
    }
    Ok(())
}

/// The impartial shape: from each sample state, play ends — no position repeats along any line
/// (memoized recursion would loop), visiting at most `limit` distinct states.
pub fn impartial<G: ImpartialGame>(
    game: &G,
    samples: &[G::State],
    limit: usize,
) -> Result<(), Violation>
where
    G::State: Debug,
{
    // false while a state is on the current line, true once everything after it is finished.
    let mut finished: HashMap<G::State, bool> = HashMap::new();
    for start in samples {
        let mut stack = vec![(start.clone(), None::<Vec<G::State>>)];
        while let Some((state, pending)) = stack.pop() {
            let Some(mut pending) = pending else {
                match finished.get(&state) {
                    Some(true) => continue,
                    Some(false) => {
                        return Err(Violation::Broken(format!("{state:?} repeats on a line")))
                    }
                    None => {}
                }
                check(finished.len() < limit, || {
                    format!("more than {limit} states follow {start:?}")
                })?;
                finished.insert(state.clone(), false);
                let mut out = Vec::new();
                game.moves(&state, &mut out);
                stack.push((state, Some(out.into_iter().map(|(_, s)| s).collect())));
                continue;
            };
            match pending.pop() {
                Some(child) => {
                    if finished.get(&child) == Some(&false) {
                        return Err(Violation::Broken(format!("{child:?} repeats on a line")));
                    }
                    stack.push((state, Some(pending)));
                    stack.push((child, None));
                }
                None => {
                    finished.insert(state, true);
                }
            }
        }
    }
    Ok(())
}

/// The absorbing-chain shape, at every node: absorbed nodes name a class; live nodes move on, only
/// to later nodes, with weights that are positive and sum to at most [`AbsorbingDag::total`] (the
/// rest of the outcomes leave the node where it is).
pub fn absorbing<D: AbsorbingDag>(dag: &D) -> Result<(), Violation> {
    for node in 0..dag.nodes() {
        if let Some(class) = dag.absorbed(node) {
            check(class < dag.classes(), || {
                format!("node {node} ends in class {class} of {}", dag.classes())
            })?;
            continue;
        }
        let (mut moving, mut fault) = (0u128, None);
        dag.for_each_move(node, |child, weight| {
            moving += weight;
            if child <= node || child >= dag.nodes() || weight == 0 {
                fault.get_or_insert((child, weight));
            }
        });
        check(fault.is_none(), || {
            format!("node {node} moves to {fault:?} (not a later node, or no weight)")
        })?;
        check(0 < moving && moving <= dag.total(), || {
            format!("node {node} moves with weight {moving} of {}", dag.total())
        })?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Capabilities;
    use std::ops::ControlFlow;

    /// 0→1→2, with predecessors that forget 0.
    struct Forgetful;

    impl Puzzle for Forgetful {
        fn states(&self) -> usize {
            3
        }
        fn successors(&self, s: usize, mut visit: impl FnMut(usize)) {
            if s < 2 {
                visit(s + 1)
            }
        }
    }

    impl Predecessors for Forgetful {
        fn predecessors(&self, s: usize, mut visit: impl FnMut(usize)) {
            if s == 2 {
                visit(1)
            }
        }
    }

    #[test]
    fn predecessors_that_do_not_invert_are_caught() {
        let found = predecessors(&Forgetful);
        let expected = "state 1 lists predecessors {}, its successors say {0}";
        assert_eq!(found, Err(Violation::Broken(expected.into())));
    }

    /// Moves from `n` to `n - 1` and to `n + 1` (a cycle) below 3; `play` always says one point.
    struct Pacing;

    impl ScoredGame for Pacing {
        type State = u8;
        type Move = bool;
        fn capabilities(&self) -> Capabilities {
            Capabilities {
                chance: false,
                cycles: false,
            }
        }
        fn max_points(&self) -> u32 {
            1
        }
        fn for_each_move<B, F>(&self, state: &u8, mut visit: F) -> ControlFlow<B>
        where
            F: FnMut(bool, u8, u32) -> ControlFlow<B>,
        {
            if *state < 3 {
                visit(true, state + 1, 0)?;
            }
            ControlFlow::Continue(())
        }
        fn play(&self, state: &u8, _: bool) -> Option<(u8, u32)> {
            Some((state + 1, 1))
        }
    }

    impl ImpartialGame for Pacing {
        type State = u8;
        type Move = ();
        fn moves(&self, state: &u8, out: &mut Vec<((), u8)>) {
            if *state < 3 {
                out.push(((), state + 1));
                out.push(((), state.saturating_sub(1)));
            }
        }
    }

    #[test]
    fn a_play_that_disagrees_and_a_repeating_line_are_caught() {
        let expected = "at 1, play(true) disagrees with the move list's (2, 0)";
        assert_eq!(
            scored(&Pacing, &[1]),
            Err(Violation::Broken(expected.into()))
        );
        assert_eq!(scored(&Pacing, &[3]), Ok(()));
        let found = impartial(&Pacing, &[0], 100);
        assert_eq!(found, Err(Violation::Broken("0 repeats on a line".into())));
    }

    /// Node 0 moves to 1 and node 1 back to 0.
    struct Backward;

    impl AbsorbingDag for Backward {
        fn nodes(&self) -> usize {
            2
        }
        fn classes(&self) -> usize {
            1
        }
        fn absorbed(&self, _: usize) -> Option<usize> {
            None
        }
        fn for_each_move(&self, node: usize, mut visit: impl FnMut(usize, u128)) {
            visit(1 - node, 1)
        }
        fn total(&self) -> u128 {
            1
        }
    }

    #[test]
    fn a_chain_moving_backward_is_caught() {
        let expected = "node 1 moves to Some((0, 1)) (not a later node, or no weight)";
        assert_eq!(
            absorbing(&Backward),
            Err(Violation::Broken(expected.into()))
        );
    }
}
