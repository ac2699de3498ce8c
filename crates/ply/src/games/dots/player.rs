//! The dots player: it plays exactly where its time proves the position, and the strongest move it
//! finds otherwise — the player of `ply play`, of the page (`POST /api/play/dots`) and of the
//! benchmarks alike.
//!
//! Each move, the player asks for every move's value under the policy, its time to think as the
//! answer's time ([`super::answer::answer_planned`]). When every move is proved, it plays a best one
//! (ties drawn by its seeded [`Chooser`]). Otherwise it plays the answer's best move found: the
//! choice of an iterative-deepening search with the dots [`estimate`](super::theory::estimate) among
//! the moves the proof allows — when the position is proved not lost (its lower bound at least 0),
//! only moves keeping that bound, so a proved win or draw is never given away; else every move not
//! proved worse than another. The move says which way it was chosen.

use super::answer::{answer, Hooks};
use super::kept::Kept;
use super::policy::Policy;
use super::report::{DotsReport, Estimated};
use super::request::{Detail, Query};
use crate::engine::scored::{SolveError, ValueRange};
use crate::engine::util::chooser::Chooser;
use crate::engine::Player;
use serde::Serialize;
use std::time::Instant;

/// How the move was chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Choice {
    /// Among the moves proved best.
    Exact,
    /// By the estimate, among the moves the proof allows.
    Estimated,
}

/// The move the player makes and what it knew of it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlayerMove {
    /// The seed of the chooser that broke ties.
    pub seed: u64,
    /// Who makes the move.
    pub player: Player,
    /// The edge drawn, `2-5`.
    #[serde(rename = "move")]
    pub mv: String,
    /// How it was chosen.
    pub choice: Choice,
    /// Its proved value for the mover (net future cells under perfect play), when proved.
    pub value: Option<i32>,
    /// Bounds on that value when it is not proved.
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub bounds: Option<ValueRange>,
    /// The estimate's score for it and how many turns it looked ahead, when estimated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub estimate: Option<Estimated>,
    /// Cells it completes at once (the mover then moves again).
    pub points: u32,
    /// How many moves shared the best proved value (the ties the seed chose among); 1 when
    /// estimated.
    pub equal_moves: usize,
    /// Seconds the choice took.
    pub seconds: f64,
}

/// The player's move in `query`'s position (asked with every move's value) under `policy`, whose
/// time is the time to think (`None`: prove everything), with what `kept` holds; ties broken by
/// `chooser` (whose `seed` is reported). Also the report the choice was made from. `None` when the
/// game is over.
pub fn think(
    query: &Query,
    policy: &Policy,
    kept: Option<&Kept>,
    chooser: &mut Chooser,
    seed: u64,
    hooks: Hooks<'_>,
) -> Result<Option<(PlayerMove, DotsReport)>, SolveError> {
    let started = Instant::now();
    let mut asked = query.clone();
    asked.detail = Detail::Moves;
    let report = answer(&asked, policy, kept, hooks)?;
    if report.moves.is_empty() {
        return Ok(None);
    }
    let (m, choice, equal_moves) = match (
        report.moves.iter().all(|m| m.value.is_some()),
        &report.best_move,
    ) {
        (false, Some(best)) => {
            let m = report
                .moves
                .iter()
                .find(|m| m.mv == *best)
                .expect("the best move is a move");
            (m, Choice::Estimated, 1)
        }
        _ => {
            let best = chooser
                .best(&report.moves, |m| m.value)
                .expect("a game that is not over has a move");
            let ties = report
                .moves
                .iter()
                .filter(|m| m.value == best.value)
                .count();
            (best, Choice::Exact, ties)
        }
    };
    let played = PlayerMove {
        seed,
        player: report.to_move,
        mv: m.mv.clone(),
        choice,
        value: m.value,
        bounds: m.bounds,
        estimate: report.estimate.filter(|_| choice == Choice::Estimated),
        points: m.points,
        equal_moves,
        seconds: started.elapsed().as_secs_f64(),
    };
    Ok(Some((played, report)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::util::memory::MemoryBudget;
    use crate::games::dots::request::DotsRequest;
    use crate::games::dots::Geometry;

    fn query(geometry: Geometry, moves: &str) -> Query {
        DotsRequest::new(geometry, moves).validate().unwrap()
    }

    #[test]
    fn the_exact_reply_is_a_best_move_the_seed_picks_among_ties() {
        let policy = Policy::new(MemoryBudget::new(1 << 28), None);
        let classic = Geometry::CLASSIC_TRIANGLES;
        // The empty classic board: 12 moves worth -3, 6 worth -5 (the original program's table).
        let empty = query(classic, "");
        let picks: Vec<String> = (0..30)
            .map(|seed| {
                let (m, _) = think(
                    &empty,
                    &policy,
                    None,
                    &mut Chooser::new(seed),
                    seed,
                    Hooks::default(),
                )
                .unwrap()
                .unwrap();
                assert_eq!((m.value, m.points, m.equal_moves), (Some(-3), 0, 12));
                assert_eq!(
                    (m.seed, m.player, m.choice),
                    (seed, Player::A, Choice::Exact)
                );
                m.mv
            })
            .collect();
        let distinct: std::collections::BTreeSet<&String> = picks.iter().collect();
        assert!(distinct.len() > 3, "{picks:?}");
        // The puzzle: A to move, worth +3; the reply keeps the +3.
        let puzzle = query(classic, "2-3 4-5 5-6 7-8 8-9 9-10");
        let (m, report) = think(
            &puzzle,
            &policy,
            None,
            &mut Chooser::new(4),
            4,
            Hooks::default(),
        )
        .unwrap()
        .unwrap();
        assert_eq!((m.player, m.value), (Player::A, Some(3)));
        assert!(report.moves.iter().all(|r| r.value <= Some(3)));
        let all = "1-2 1-3 2-3 2-4 2-5 3-5 3-6 4-5 5-6 4-7 4-8 5-8 5-9 6-9 6-10 7-8 8-9 9-10";
        let over = think(
            &query(classic, all),
            &policy,
            None,
            &mut Chooser::new(1),
            1,
            Hooks::default(),
        );
        assert_eq!(over.unwrap(), None);
    }
}
