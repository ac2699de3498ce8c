//! The perfect player of lowest-heap Nim: every move grouped in classes of equal value, the choice
//! among the best (ties drawn by a seeded [`Chooser`]), and the reply `POST /api/play/heaps` and
//! `ply play heaps` make.

use super::{heap_outcome, outcomes_from_the_back};
use crate::engine::impartial::{Convention, Outcome};
use crate::engine::util::chooser::Chooser;
use serde::Serialize;

/// A class of lowest-heap Nim moves that lead to positions of the same value: take all the lowest
/// heap, leave one counter, or leave two or more (which the closed form values alike).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct HeapMove {
    /// 1-based number of the lowest non-empty heap (the only one that may be taken from).
    pub heap: usize,
    /// Fewest counters taken by a move of this class.
    pub take_min: u64,
    /// Most counters taken by a move of this class.
    pub take_max: u64,
    /// Whether the mover wins after this move under perfect play.
    pub wins: bool,
    /// Moves until the end after this one (the winner hurries, the loser delays), counting this move.
    pub remoteness: u64,
}

impl HeapMove {
    /// How good the move is for the mover: a win beats a loss, a faster win beats a slower one, and a
    /// longer loss beats a shorter one (the loser delays).
    pub fn preference(&self) -> (bool, i128) {
        let r = self.remoteness as i128;
        (self.wins, if self.wins { -r } else { r })
    }
}

/// Every move of the position `sizes` (heaps still to play, the first non-empty), grouped in classes of
/// equal value, best first. Empty when every heap is empty.
pub fn heap_moves(sizes: &[u64], convention: Convention) -> Vec<HeapMove> {
    let Some(first) = sizes.iter().position(|&s| s > 0) else {
        return Vec::new();
    };
    let next = outcomes_from_the_back(&sizes[first + 1..], convention)[0];
    move_classes(first + 1, sizes[first], next)
}

/// The moves from heap `heap` (1-based, the lowest non-empty) holding `left` counters when the heaps
/// above it are worth `next` to whoever moves once it is empty: take all, leave one, or leave two or
/// more (which the closed form values alike), best first.
pub(super) fn move_classes(heap: usize, left: u64, next: Outcome) -> Vec<HeapMove> {
    // (fewest taken, most taken, counters left in the heap)
    let mut classes = vec![(left, left, 0)];
    if left >= 2 {
        classes.push((left - 1, left - 1, 1));
    }
    if left >= 3 {
        classes.push((1, left - 2, 2));
    }
    let mut moves: Vec<HeapMove> = classes
        .into_iter()
        .map(|(take_min, take_max, kept)| {
            // The opponent's outcome after the move.
            let after = if kept == 0 {
                next
            } else {
                heap_outcome(kept, next)
            };
            HeapMove {
                heap,
                take_min,
                take_max,
                wins: !after.wins,
                remoteness: after.remoteness + 1,
            }
        })
        .collect();
    moves.sort_by_key(|m| std::cmp::Reverse(m.preference()));
    moves
}

/// A heaps move the perfect player chose: its class of equal moves and the count taken from it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HeapChoice {
    /// The class of equally good moves it was drawn from.
    pub class: HeapMove,
    /// Counters taken, within `class.take_min..=class.take_max`.
    pub take: u64,
}

/// The perfect player's heaps move: a winning move when there is one (the fastest), else the move
/// that makes the game last longest; ties between classes and the count within a class drawn by
/// `chooser`. `None` when every heap is empty.
pub fn choose_heap_move(
    sizes: &[u64],
    convention: Convention,
    chooser: &mut Chooser,
) -> Option<HeapChoice> {
    choose_among(&heap_moves(sizes, convention), chooser)
}

/// The perfect player's choice among `moves` (a position's classes): one of the best classes, and
/// a count within it, drawn by `chooser`; `None` when there are no moves.
pub(super) fn choose_among(moves: &[HeapMove], chooser: &mut Chooser) -> Option<HeapChoice> {
    let class = *chooser.best(moves, HeapMove::preference)?;
    let take = chooser.between(class.take_min, class.take_max);
    Some(HeapChoice { class, take })
}

/// The perfect player's reply in lowest-heap Nim, as `POST /api/play/heaps` answers it: the move
/// `ply play heaps --seed SEED` makes when it is first to choose in this position.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HeapReply {
    /// The seed that broke the ties.
    pub seed: u64,
    /// 1-based number of the heap taken from (the lowest non-empty one).
    pub heap: usize,
    /// Counters taken.
    pub take: u64,
    /// Whether the mover wins after this move under perfect play.
    pub wins: bool,
    /// Moves until the end, counting this one (the winner hurries, the loser delays).
    pub remoteness: u64,
    /// The heaps after the move, emptied ones included.
    pub heaps: Vec<u64>,
}

/// The reply in the position `sizes`, ties broken by a chooser started from `seed`; `None` when every
/// heap is empty.
pub fn heap_reply(sizes: &[u64], convention: Convention, seed: u64) -> Option<HeapReply> {
    let choice = choose_heap_move(sizes, convention, &mut Chooser::new(seed))?;
    let mut heaps = sizes.to_vec();
    heaps[choice.class.heap - 1] -= choice.take;
    Some(HeapReply {
        seed,
        heap: choice.class.heap,
        take: choice.take,
        wins: choice.class.wins,
        remoteness: choice.class.remoteness,
        heaps,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::impartial::{ImpartialSolver, Outcome};
    use crate::games::heaps::LowestHeapGame;

    /// Calls `check` on every position of up to 3 heaps of up to 4 counters, under both conventions,
    /// with the engine's explicit solver for it and the position's outcome.
    fn each_small_position(
        mut check: impl FnMut(Convention, &[u64], &mut ImpartialSolver<LowestHeapGame>, Outcome),
    ) {
        for convention in [Convention::Normal, Convention::Misere] {
            for n in 1..=3u32 {
                for code in 0..4u64.pow(n) {
                    let sizes: Vec<u64> = (0..n).map(|i| code / 4u64.pow(i) % 4 + 1).collect();
                    let game = LowestHeapGame {
                        sizes: sizes.clone(),
                    };
                    let mut solver = ImpartialSolver::new(&game, convention);
                    let start = solver.outcome(&game.start());
                    check(convention, &sizes, &mut solver, start);
                }
            }
        }
    }

    #[test]
    fn heap_moves_agree_with_the_generic_solver() {
        // Every move's outcome, checked against the engine's explicit solver on all positions of up
        // to 3 heaps of up to 4 counters.
        each_small_position(|convention, sizes, solver, start| {
            let moves = heap_moves(sizes, convention);
            assert_eq!(moves[0].wins, start.wins, "{sizes:?}");
            assert_eq!(moves[0].remoteness, start.remoteness, "{sizes:?}");
            let taken: u64 = moves.iter().map(|m| m.take_max - m.take_min + 1).sum();
            assert_eq!(taken, sizes[0]);
            for m in &moves {
                for take in m.take_min..=m.take_max {
                    let child = if take < sizes[0] {
                        (0, sizes[0] - take)
                    } else {
                        (1, sizes.get(1).copied().unwrap_or(0))
                    };
                    let o = solver.outcome(&child);
                    assert_eq!(m.wins, !o.wins, "{sizes:?} take {take}");
                    assert_eq!(m.remoteness, o.remoteness + 1, "{sizes:?} take {take}");
                }
            }
        });
    }

    #[test]
    fn the_heaps_reply_is_a_best_move_checked_by_the_generic_solver() {
        // [2, 3]: take 1 (leaving [1, 3]) is the only win, three moves to the end, whatever the seed.
        for seed in 0..8 {
            let reply = heap_reply(&[2, 3], Convention::Normal, seed).unwrap();
            assert_eq!((reply.heap, reply.take, reply.wins), (1, 1, true));
            assert_eq!((reply.remoteness, reply.heaps.clone()), (3, vec![1, 3]));
        }
        assert_eq!(heap_reply(&[0, 0], Convention::Normal, 1), None);
        // Every position of up to 3 heaps of up to 4: the reply leads to a position the generic
        // solver values as the reply says, and that is the best the mover can do.
        each_small_position(|convention, sizes, solver, start| {
            for seed in 0..4 {
                let r = heap_reply(sizes, convention, seed).unwrap();
                assert_eq!((r.wins, r.remoteness), (start.wins, start.remoteness));
                let child = if r.heaps[0] > 0 {
                    (0, r.heaps[0])
                } else {
                    (1, r.heaps.get(1).copied().unwrap_or(0))
                };
                let after = solver.outcome(&child);
                assert_eq!(r.wins, !after.wins, "{sizes:?} seed {seed}");
                assert_eq!(r.remoteness, after.remoteness + 1, "{sizes:?}");
            }
        });
    }
}
