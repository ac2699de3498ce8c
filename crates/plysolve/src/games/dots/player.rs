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
use super::level::Level;
use super::policy::Policy;
use super::report::{DotsReport, Estimated};
use super::request::{Detail, DotsQuery};
use crate::engine::scored::{SolveError, ValueRange};
use crate::engine::util::chooser::Chooser;
use crate::engine::Player;
use serde::Serialize;
use std::time::{Duration, Instant};

/// How the move was chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Choice {
    /// Among the moves proved best.
    Exact,
    /// By the estimate, among the moves the proof allows.
    Estimated,
    /// As a level below the perfect one plays ([`Level::choose`]): at random, greedily, or by
    /// values with noise.
    Level,
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
    /// The level it played at, below the perfect one (left out of the JSON at level 8).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub level: Option<u8>,
}

impl PlayerMove {
    /// What is proved of the move's value for its mover.
    pub fn range(&self) -> ValueRange {
        self.bounds
            .unwrap_or_else(|| ValueRange::exact(self.value.unwrap_or(0)))
    }

    /// What is proved of the value of the position after the move, for whoever moves there (the
    /// mover again after a capture, the other player otherwise): the inverse of Wilson's rule
    /// ([`ValueRange::before_move`]). Known at no cost once the move is made, it bounds the grade of
    /// the next move ([`super::review::Grade::of_known`]).
    pub fn after(&self) -> ValueRange {
        self.range().before_move(self.points)
    }
}

/// The share of a turn's time (the time to think) that the grade of the user's move may still
/// take once the move is made; the player's reply has the rest. The grade's analysis started when
/// the user was given the move (pondering), so a user who thinks longer than this share gets a
/// grade made in the whole time to think and the player's reply gets the whole turn. Half: the
/// grade and the reply each prove a position of about the same size (the reply's one move deeper),
/// and what the grade proves stays in the kept search memory, where the reply finds it.
pub const GRADE_SHARE: f64 = 0.5;

/// The least time a further move of the player within one turn gets (after a capture it moves
/// again), as a share of the time to think, when the turn's time is spent: enough for the estimate
/// to choose among the moves, at most two such moves within a turn's slack of 10 %.
pub const FURTHER_MOVE_SHARE: f64 = 0.05;

/// The time of one turn of a game against the player — from the user's move to the player's reply
/// (every move of it, when it captures and moves again) — so that the turn, the grade of the user's
/// move included, takes no more than the time to think.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TurnClock {
    /// When the user's move came.
    pub started: Instant,
    /// The time to think: the whole turn's.
    pub think: Duration,
}

impl TurnClock {
    /// The turn of a user's move made at `started`, the player thinking `think` a move.
    pub fn new(started: Instant, think: Duration) -> Self {
        TurnClock { started, think }
    }

    /// When the grade of the user's move must be ready, its analysis having started at
    /// `pondering_since` (when the user was given the move) and running at most the time to think:
    /// at the end of its own time or after [`GRADE_SHARE`] of the turn, whichever comes first
    /// (never before the turn starts).
    pub fn grade_until(&self, pondering_since: Instant) -> Instant {
        let own_end = pondering_since + self.think;
        let share_end = self.started + self.think.mul_f64(GRADE_SHARE);
        own_end.min(share_end).max(self.started)
    }

    /// The time the player's next move of the turn may take, asked at `now`: what is left of the
    /// turn, at least [`FURTHER_MOVE_SHARE`] of the time to think.
    pub fn think_time(&self, now: Instant) -> Duration {
        (self.started + self.think)
            .saturating_duration_since(now)
            .max(self.think.mul_f64(FURTHER_MOVE_SHARE))
    }
}

/// The player's move in `query`'s position (asked with every move's value) under `policy`, whose
/// time is the time to think (`None`: prove everything), with what `kept` holds; ties broken by
/// `chooser` (whose `seed` is reported). Also the report the choice was made from. `None` when the
/// game is over.
pub fn think(
    query: &DotsQuery,
    policy: &Policy,
    kept: Option<&Kept>,
    chooser: &mut Chooser,
    seed: u64,
    hooks: Hooks<'_>,
) -> Result<Option<(PlayerMove, DotsReport)>, SolveError> {
    think_at_level(query, policy, kept, chooser, seed, hooks, Level::PERFECT)
}

/// [`think`] as a player of `level` plays: below the perfect level, the move [`Level::choose`]
/// picks from the same report.
pub fn think_at_level(
    query: &DotsQuery,
    policy: &Policy,
    kept: Option<&Kept>,
    chooser: &mut Chooser,
    seed: u64,
    hooks: Hooks<'_>,
    level: Level,
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
    let weakened = level
        .choose(&query.built.board, &query.position, &report, chooser)
        .and_then(|mv| report.moves.iter().find(|m| m.mv == mv));
    let (m, choice, equal_moves) = match weakened {
        Some(m) => (m, Choice::Level, 1),
        None => (m, choice, equal_moves),
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
        level: (!level.is_perfect()).then_some(level.number()),
    };
    Ok(Some((played, report)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::util::memory::MemoryBudget;
    use crate::games::dots::request::DotsRequest;
    use crate::games::dots::Geometry;

    fn query(geometry: Geometry, moves: &str) -> DotsQuery {
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

    #[test]
    fn what_a_move_proves_of_the_position_after_it() {
        let mv = |value: Option<i32>, bounds: Option<ValueRange>, points: u32| PlayerMove {
            seed: 1,
            player: Player::A,
            mv: "1-2".into(),
            choice: Choice::Exact,
            value,
            bounds,
            estimate: None,
            points,
            equal_moves: 1,
            seconds: 0.0,
            level: None,
        };
        // The turn passes: the other player's value is the mover's, negated.
        assert_eq!(mv(Some(-3), None, 0).after(), ValueRange::exact(3));
        let bounds = ValueRange {
            lower: -5,
            upper: 1,
        };
        assert_eq!(
            mv(None, Some(bounds), 0).after(),
            ValueRange {
                lower: -1,
                upper: 5
            }
        );
        // A capture: the mover moves again, its value less the points.
        assert_eq!(mv(Some(4), None, 1).after(), ValueRange::exact(3));
    }

    #[test]
    fn a_turn_grades_and_replies_within_the_time_to_think() {
        let think = Duration::from_secs(3);
        let t0 = Instant::now();
        let at = |ms: u64| t0 + Duration::from_millis(ms);
        // The user moved at once (a pipe): the grade gets half the turn, the reply the rest.
        let turn = TurnClock::new(at(10), think);
        assert_eq!(turn.grade_until(at(0)), at(1510));
        assert_eq!(turn.think_time(at(1510)), Duration::from_millis(1500));
        // A grade proved early leaves the reply more.
        assert_eq!(turn.think_time(at(400)), Duration::from_millis(2610));
        // The user thought 2 s: the grade's analysis ends with its own time, 1 s into the turn.
        let turn = TurnClock::new(at(2000), think);
        assert_eq!(turn.grade_until(at(0)), at(3000));
        assert_eq!(turn.think_time(at(3000)), Duration::from_secs(2));
        // The user thought longer than the time to think: no wait, the reply gets the whole turn.
        let turn = TurnClock::new(at(5000), think);
        assert_eq!(turn.grade_until(at(0)), at(5000));
        assert_eq!(turn.think_time(at(5000)), think);
        // The turn spent, a further move (after a capture) gets 5 % of the time to think.
        assert_eq!(turn.think_time(at(9000)), Duration::from_millis(150));
    }
}
