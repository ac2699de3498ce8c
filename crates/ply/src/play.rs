//! What a perfect opponent needs beyond values: ties between equally good moves broken by a seed (so
//! games vary but replay exactly), dice rolls, and the values of lowest-heap Nim moves.
//!
//! Front ends (`ply play`, the web page) decide who moves; everything here is pure data. The perfect
//! player's choice itself is made here ([`choose_dots_move`], [`choose_heap_move`]), so the terminal
//! and the web page pick the same move from the same position and seed.

use crate::engine::impartial::Convention;
use crate::engine::Player;
use crate::games::dice_race::Dice;
use crate::games::dots::report::{DotsReport, MoveReport};
use crate::games::heaps::{analyse, Side};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::Serialize;

/// A seeded source of choices: the same seed gives the same tie-breaks and the same rolls.
pub struct Chooser {
    rng: Xoshiro256PlusPlus,
}

impl Chooser {
    /// A chooser started from `seed`.
    pub fn new(seed: u64) -> Self {
        Chooser {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
        }
    }

    /// One of the items whose `key` is greatest, uniformly among them; `None` when there are none.
    pub fn best<'a, T, K: Ord>(&mut self, items: &'a [T], key: impl Fn(&T) -> K) -> Option<&'a T> {
        let top = items.iter().map(&key).max()?;
        let best: Vec<&T> = items.iter().filter(|i| key(i) == top).collect();
        Some(best[self.rng.random_range(0..best.len())])
    }

    /// A number uniformly in `low..=high`.
    pub fn between(&mut self, low: u64, high: u64) -> u64 {
        self.rng.random_range(low..=high)
    }

    /// The sum of one throw of `dice`, each sum with its exact probability.
    pub fn roll(&mut self, dice: &Dice) -> u32 {
        let mut r = self.rng.random_range(0..dice.total());
        for sum in dice.sums() {
            let ways = dice.ways(sum);
            if r < ways {
                return sum;
            }
            r -= ways;
        }
        unreachable!("a draw below the total falls on some sum")
    }
}

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
    let left = sizes[first];
    let rest = &sizes[first + 1..];
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
            let after: Vec<u64> = (kept > 0)
                .then_some(kept)
                .into_iter()
                .chain(rest.iter().copied())
                .collect();
            let (opponent_wins, remoteness) = if after.is_empty() {
                // The mover took the last counter.
                (convention == Convention::Misere, 0)
            } else {
                let r = analyse(&after, convention);
                (r.winner == Side::First, r.remoteness)
            };
            HeapMove {
                heap: first + 1,
                take_min,
                take_max,
                wins: !opponent_wins,
                remoteness: remoteness + 1,
            }
        })
        .collect();
    moves.sort_by_key(|m| std::cmp::Reverse(m.preference()));
    moves
}

/// The perfect player's dots move among `moves` (a report's moves): one of greatest value, which is
/// also the smallest loss when every move loses; ties broken by `chooser`. `None` when no move is left.
pub fn choose_dots_move<'a>(
    moves: &'a [MoveReport],
    chooser: &mut Chooser,
) -> Option<&'a MoveReport> {
    chooser.best(moves, |m| m.value)
}

/// The perfect player's reply in a dots position, as `POST /api/play/dots` answers it: the move
/// `ply play --seed SEED` makes when it is first to choose in this position.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DotsReply {
    /// The seed that broke the ties.
    pub seed: u64,
    /// Who makes the move.
    pub player: Player,
    /// The edge drawn, `2-5`.
    #[serde(rename = "move")]
    pub mv: String,
    /// Its value for the mover: net future cells under perfect play.
    pub value: i32,
    /// Cells it completes at once (the mover then moves again).
    pub points: u32,
    /// How many moves share that value (the ties the seed chose among).
    pub equal_moves: usize,
}

/// The reply to the position `report` explains, ties broken by a chooser started from `seed`;
/// `None` when the game is over.
pub fn dots_reply(report: &DotsReport, seed: u64) -> Option<DotsReply> {
    let choice = choose_dots_move(&report.moves, &mut Chooser::new(seed))?;
    Some(DotsReply {
        seed,
        player: report.to_move,
        mv: choice.mv.clone(),
        value: choice.value,
        points: choice.points,
        equal_moves: report
            .moves
            .iter()
            .filter(|m| m.value == choice.value)
            .count(),
    })
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
    let moves = heap_moves(sizes, convention);
    let class = *chooser.best(&moves, HeapMove::preference)?;
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

    #[test]
    fn the_dots_reply_is_a_best_move_the_seed_picks_among_ties() {
        use crate::engine::scored::choose::SolveOptions;
        use crate::engine::scored::search::TieOrder;
        use crate::engine::scored::Strategy;
        use crate::engine::MemoryBudget;
        use crate::games::dots::notation::position_from_moves;
        use crate::games::dots::report::{report, Detail};
        use crate::games::dots::Geometry;
        let built = Geometry::CLASSIC_TRIANGLES.build().unwrap();
        let solve = |moves: &str| {
            let position = position_from_moves(&built.board, moves).unwrap();
            let options = SolveOptions {
                budget: MemoryBudget::new(1 << 24),
                progress: None,
                search_status: None,
                free_items: 18,
                tie_order: TieOrder::default(),
            };
            report(&built, &position, Strategy::Memo, options, Detail::Moves).unwrap()
        };
        // The empty classic board: 12 moves worth -3, 6 worth -5 (seed 004's table).
        let empty = solve("");
        let picks: Vec<String> = (0..30)
            .map(|seed| {
                let r = dots_reply(&empty, seed).unwrap();
                assert_eq!((r.value, r.points, r.equal_moves), (-3, 0, 12));
                assert_eq!((r.seed, r.player), (seed, Player::A));
                r.mv
            })
            .collect();
        let distinct: std::collections::BTreeSet<&String> = picks.iter().collect();
        assert!(distinct.len() > 3, "{picks:?}");
        // The seed's puzzle: A to move, worth +3; the reply keeps the +3.
        let puzzle = solve("2-3 4-5 5-6 7-8 8-9 9-10");
        let r = dots_reply(&puzzle, 4).unwrap();
        assert_eq!((r.player, r.value), (Player::A, 3));
        assert!(puzzle.moves.iter().all(|m| m.value <= 3));
        let all = "1-2 1-3 2-3 2-4 2-5 3-5 3-6 4-5 5-6 4-7 4-8 5-8 5-9 6-9 6-10 7-8 8-9 9-10";
        assert_eq!(dots_reply(&solve(all), 1), None);
    }

    #[test]
    fn ties_are_broken_by_the_seed_and_rolls_follow_the_dice() {
        let items = [3, 7, 7, 1, 7];
        let picks: Vec<usize> = (0..40)
            .map(|seed| {
                let p = Chooser::new(seed).best(&items, |&x| x).unwrap();
                items.iter().position(|x| std::ptr::eq(x, p)).unwrap()
            })
            .collect();
        assert!(picks.iter().all(|&i| items[i] == 7));
        // Different seeds reach every one of the three equal items.
        for i in [1, 2, 4] {
            assert!(picks.contains(&i));
        }
        assert_eq!(Chooser::new(5).best(&[] as &[u8], |&x| x), None);
        let dice = Dice::new(2, 6).unwrap();
        let mut c = Chooser::new(1);
        let mut counts = [0u32; 13];
        for _ in 0..36_000 {
            counts[c.roll(&dice) as usize] += 1;
        }
        assert_eq!(counts[0] + counts[1], 0);
        // 6/36 of the throws are 7, within a generous margin (the seed fixes the draw).
        assert!((5_500..6_500).contains(&counts[7]), "{counts:?}");
    }
}
