//! Simple opponents to measure the player against (`ply bench dots-player`): one that plays at
//! random, and a greedy one — it takes any cell it can, otherwise plays at random among the moves
//! that offer the opponent nothing, otherwise at random. The greedy one is what most casual players
//! do; it never declines a chain, so a player that knows the long-chain rule should beat it.

use super::answer::Hooks;
use super::board::{DotsBoard, Edge};
use super::geometry::BuiltBoard;
use super::kept::Kept;
use super::level::Level;
use super::naive::Naive;
use super::notation::edge_named;
use super::player::{think_at_level, Choice};
use super::policy::Policy;
use super::position::Position;
use super::request::{Detail, DotsQuery};
use crate::engine::scored::SolveError;
use crate::engine::util::chooser::Chooser;
use serde::Serialize;

/// An opponent's way of choosing moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Opponent {
    /// Any free edge, uniformly.
    Random,
    /// A scoring edge if there is one; else one leaving no cell one edge short; else any.
    Greedy,
    /// ply's own player at a [`Level`] (thinking as the match's policy says).
    Level(Level),
}

impl Opponent {
    /// Its name as users write it: `random`, `greedy`, `level 3`.
    pub fn name(self) -> String {
        match self {
            Opponent::Random => "random".into(),
            Opponent::Greedy => "greedy".into(),
            Opponent::Level(level) => format!("level {}", level.number()),
        }
    }

    /// Its move in `position` (not over), drawn by `chooser`; a [`Opponent::Level`] plays greedily
    /// here (its own moves come from [`think_at_level`], which needs the position's report).
    pub fn choose(self, board: &DotsBoard, position: &Position, chooser: &mut Chooser) -> Edge {
        let naive = match self {
            Opponent::Random => Naive::Random,
            Opponent::Greedy | Opponent::Level(_) => Naive::Greedy,
        };
        naive.choose(board, position, chooser)
    }
}

/// One game of ply against an opponent, as `ply bench dots-player` counts it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct MatchResult {
    /// Whether ply moved first.
    pub ply_first: bool,
    /// ply's cells minus the opponent's.
    pub margin: i64,
    /// ply's moves, and how many of them were chosen by proved values.
    pub ply_moves: u32,
    /// See `ply_moves`.
    pub exact_moves: u32,
    /// The longest ply thought about one move, in seconds.
    pub longest_think: f64,
}

/// Plays one game on `built` from the empty board: ply at `level` (thinking as `policy` says, with
/// `kept`) against `opponent`, ply first if `ply_first`; ties and the opponent's draws from `seed`.
pub fn play_match(
    built: &BuiltBoard,
    policy: &Policy,
    kept: &Kept,
    level: Level,
    opponent: Opponent,
    ply_first: bool,
    seed: u64,
) -> Result<MatchResult, SolveError> {
    let board = &built.board;
    let mut position = Position::new(board);
    let mut chooser = Chooser::new(seed);
    let ply_side = if ply_first {
        crate::engine::Player::A
    } else {
        crate::engine::Player::B
    };
    let mut result = MatchResult {
        ply_first,
        margin: 0,
        ply_moves: 0,
        exact_moves: 0,
        longest_think: 0.0,
    };
    while position.drawn() != board.full() {
        let player_move = |level: Level, chooser: &mut Chooser| {
            let query = DotsQuery::at(built, position.clone(), Detail::Moves);
            let hooks = Hooks::default();
            think_at_level(&query, policy, Some(kept), chooser, seed, hooks, level)
                .map(|p| p.expect("a game that is not over has a move").0)
        };
        let edge = if position.to_move() == ply_side {
            let played = player_move(level, &mut chooser)?;
            result.ply_moves += 1;
            result.exact_moves += (played.choice == Choice::Exact) as u32;
            result.longest_think = result.longest_think.max(played.seconds);
            edge_named(board, &played.mv).expect("the player plays an edge of the board")
        } else if let Opponent::Level(other) = opponent {
            edge_named(board, &player_move(other, &mut chooser)?.mv)
                .expect("the player plays an edge of the board")
        } else {
            opponent.choose(board, &position, &mut chooser)
        };
        position
            .play(board, edge)
            .expect("both sides play free edges");
    }
    let [a, b] = position.score();
    let margin = a as i64 - b as i64;
    result.margin = if ply_first { margin } else { -margin };
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::util::memory::MemoryBudget;
    use crate::games::dots::notation::position_from_moves;
    use crate::games::dots::Geometry;

    #[test]
    fn ply_beats_both_opponents_on_small_boards() {
        // On 2×2 boxes every position is proved at once, and the empty board is worth +2 to the
        // first player: ply never does worse than that from its seat.
        let built = Geometry::Boxes { rows: 2, cols: 2 }.build().unwrap();
        let policy = Policy::new(MemoryBudget::new(1 << 26), None);
        let kept = Kept::new(1 << 20, 1);
        for seed in 0..10 {
            let weaker = |n| Opponent::Level(Level::new(n).unwrap());
            for opponent in [Opponent::Random, Opponent::Greedy, weaker(1), weaker(5)] {
                for ply_first in [true, false] {
                    let r = play_match(
                        &built,
                        &policy,
                        &kept,
                        Level::PERFECT,
                        opponent,
                        ply_first,
                        seed,
                    )
                    .unwrap();
                    assert_eq!(r.exact_moves, r.ply_moves);
                    let value = if ply_first { 2 } else { -2 };
                    assert!(r.margin >= value, "{opponent:?} {ply_first} {seed}: {r:?}");
                }
            }
        }
    }

    #[test]
    fn greedy_takes_what_it_can_and_offers_nothing_it_can_avoid() {
        let board = Geometry::Boxes { rows: 1, cols: 2 }.build().unwrap().board;
        // Box 1 has three sides: greedy takes it, whatever the draw.
        let three = position_from_moves(&board, "1-2 1-4 4-5").unwrap();
        for seed in 0..20 {
            let e = Opponent::Greedy.choose(&board, &three, &mut Chooser::new(seed));
            assert_eq!(crate::games::dots::notation::format_edge(&board, e), "2-5");
        }
        // On the empty board every move is safe; after 1-2 and 2-3, a move on box 1 or box 2's
        // other sides that leaves one short is avoided.
        let two = position_from_moves(&board, "1-2 4-5").unwrap();
        for seed in 0..20 {
            let e = Opponent::Greedy.choose(&board, &two, &mut Chooser::new(seed));
            let name = crate::games::dots::notation::format_edge(&board, e);
            assert!(["2-3", "3-6", "5-6"].contains(&name.as_str()), "{name}");
        }
        let any = Opponent::Random.choose(&board, &two, &mut Chooser::new(1));
        assert!(!two.drawn().contains(any));
    }
}
