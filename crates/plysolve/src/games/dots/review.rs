//! How good each move was: a move graded against what is proved of its position ("best", "mistake:
//! −5, best was −3"), and a whole game reviewed move by move — what `ply play` says after each move
//! and at game over, and what the page's move list and value chart show (`POST /api/dots/review`).

use super::answer::{answer, Hooks};
use super::kept::Kept;
use super::policy::Policy;
use super::report::{open_move_range, open_range, unproved_within, DotsReport};
use super::request::{Detail, DotsQuery};
use super::theory::learned::shown_estimate_drawn;
use crate::engine::scored::{SolveError, ValueRange};
use crate::engine::{final_margin_a, Player};
use serde::Serialize;
use std::time::{Duration, Instant};

/// What is proved of a move's quality.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// Proved to keep the position's value.
    Best,
    /// Proved to lose 2 (the least a move can lose: every move's value has the parity of the
    /// cells left).
    Mistake,
    /// Proved to lose 4 or more.
    Blunder,
    /// Not proved either way in the time given.
    Unknown,
}

/// One move graded against its position.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Grade {
    /// The edge, `2-5`.
    #[serde(rename = "move")]
    pub mv: String,
    /// Who drew it.
    pub player: Player,
    /// Cells it completed.
    pub points: u32,
    /// What is proved of its value for its mover.
    pub value: ValueRange,
    /// What is proved of the best move's value (the position's).
    pub best: ValueRange,
    /// A best move, when one is proved (the first, best first).
    pub best_move: Option<String>,
    /// What it cost against the best move, when both are proved.
    pub loss: Option<i32>,
    /// The least it is proved to cost (0 when nothing is proved against it).
    pub loss_at_least: i32,
    /// The verdict.
    pub verdict: Verdict,
    /// Cells open before the move (not in the JSON: a page counts them from the moves' points).
    #[serde(skip)]
    pub cells_left: u32,
}

impl Grade {
    /// The grade of playing `mv` in the position `before` explains (with every move's value or
    /// bounds); `None` if `mv` is not one of its moves.
    pub fn of(before: &DotsReport, mv: &str) -> Option<Grade> {
        Self::of_known(before, mv, before.range())
    }

    /// The grade of playing `mv` in the position `before` explains, `known` being what else is proved
    /// of that position's value (by an earlier answer: the player's move before it, say, whose value
    /// bounds it, [`super::player::PlayerMove::after`]). Both are proved, so the value lies where they
    /// meet; `None` if `mv` is not one of the position's moves.
    pub fn of_known(before: &DotsReport, mv: &str, known: ValueRange) -> Option<Grade> {
        let played = before.moves.iter().find(|m| m.mv == mv)?;
        let value = played.range();
        let met = before.range().meet(known);
        // Two proofs cannot disagree; were they to, the answer at hand is kept.
        let best = if met.lower <= met.upper {
            met
        } else {
            before.range()
        };
        let loss = best.value().zip(value.value()).map(|(b, v)| b - v);
        let loss_at_least = (best.lower - value.upper).max(0);
        let verdict = match (loss, loss_at_least) {
            (Some(0), _) => Verdict::Best,
            (_, 0) if value.lower >= best.upper => Verdict::Best,
            (_, 0) => Verdict::Unknown,
            (_, 1..=2) => Verdict::Mistake,
            _ => Verdict::Blunder,
        };
        let best_move = before
            .moves
            .first()
            .filter(|m| m.value.is_some() && m.value == best.value())
            .map(|m| m.mv.clone());
        Some(Grade {
            mv: mv.to_string(),
            player: before.to_move,
            points: played.points,
            value,
            best,
            best_move,
            loss,
            loss_at_least,
            verdict,
            cells_left: before.cells_left(),
        })
    }

    /// Whether nothing is proved of the move's value (its bounds are all the cells left allow).
    pub fn value_unproved(&self) -> bool {
        unproved_within(self.value, open_move_range(self.cells_left, self.points))
    }

    /// Whether nothing is proved of the best move's value (the position's).
    pub fn best_unproved(&self) -> bool {
        unproved_within(self.best, open_range(self.cells_left))
    }

    /// The grade in words: `best (+3)`, `mistake: -5 loses 2, best was -3 (2-5)`, `not proved yet:
    /// -5..+3, best is -3..+3` ([`Self::describe_with`] "not proved yet").
    pub fn describe(&self) -> String {
        self.describe_with("not proved yet")
    }

    /// The grade in words, `unknown` the words for a move proved neither best nor worse (`not
    /// graded: not proved in the time to think`, from `ply play`). Bounds as wide as the cells left
    /// prove nothing and are not shown: `not proved yet; best is 0`, or `unknown` alone.
    pub fn describe_with(&self, unknown: &str) -> String {
        let text = |r: ValueRange| match r.value() {
            Some(v) => signed(v),
            None => format!("{}..{}", signed(r.lower), signed(r.upper)),
        };
        let best = match &self.best_move {
            Some(m) => format!("best was {} ({m})", text(self.best)),
            None => format!("best is {}", text(self.best)),
        };
        match self.verdict {
            Verdict::Best => format!("best ({})", text(self.value)),
            Verdict::Mistake | Verdict::Blunder => {
                let word = if self.verdict == Verdict::Mistake {
                    "mistake"
                } else {
                    "blunder"
                };
                match self.loss {
                    Some(loss) => format!("{word}: {} loses {loss}, {best}", text(self.value)),
                    None => format!(
                        "{word}: {} loses at least {}, {best}",
                        text(self.value),
                        self.loss_at_least
                    ),
                }
            }
            // Nothing tells the move from the best: no figures worth showing.
            Verdict::Unknown if self.value == self.best => unknown.to_string(),
            Verdict::Unknown => match (self.value_unproved(), self.best_unproved()) {
                (true, true) => unknown.to_string(),
                (true, false) => format!("{unknown}; {best}"),
                (false, true) => format!("{unknown}: {}", text(self.value)),
                (false, false) => format!("{unknown}: {}, {best}", text(self.value)),
            },
        }
    }
}

/// `+3`, `0`, `-2`.
fn signed(v: i32) -> String {
    if v > 0 {
        format!("+{v}")
    } else {
        v.to_string()
    }
}

/// A game reviewed: each move graded, and A's final margin under perfect play before every move
/// and after the last (where proved) — the value chart.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Review {
    /// Each move of the game, graded.
    pub moves: Vec<Grade>,
    /// A's final margin under perfect play in the position before move `i` (the last: after the
    /// last move); `null` where not proved.
    pub margins: Vec<Option<i64>>,
    /// Where `margins` is `null` (not proved): A's final margin by the estimate — the report's
    /// learned estimate where the position's answer made one, else the learned estimate without
    /// search — within the bounds proved; `null` where the margin is proved. A chart draws these
    /// apart from the proved ones.
    pub estimates: Vec<Option<i64>>,
    /// Whether every position was proved.
    pub exact: bool,
}

/// Reviews the game `query` states (its moves, from the empty board) under `policy`, whose time is
/// shared by the positions; the last positions (the quickest) first, so that a review cut short
/// lacks the early ones. The positions the policy promises exact ([`Policy::exact_free`] free
/// edges or fewer) share the whole time first ([`review_promising`]). Each position is answered
/// with `hooks`: their cancel flag stops the review early (what was proved stands).
pub fn review(
    query: &DotsQuery,
    policy: &Policy,
    kept: Option<&Kept>,
    hooks: Hooks<'_>,
) -> Result<Review, SolveError> {
    review_promising(query, policy, policy.exact_free(), kept, hooks)
}

/// [`review`], the positions of `exact_free` free edges or fewer being the ones promised exact (a
/// server's promise is made with its own time limit, a review's time may be shorter): answered
/// first (the last positions first), they share the whole time — each gets what is left over the
/// promised positions still to answer, so what the quick ones leave goes to the harder — and the
/// earlier positions share what they leave. The page's note "exact from N free edges on" is then
/// true of the review it runs.
pub fn review_promising(
    query: &DotsQuery,
    policy: &Policy,
    exact_free: u32,
    kept: Option<&Kept>,
    hooks: Hooks<'_>,
) -> Result<Review, SolveError> {
    let history = query.position.history().to_vec();
    let board = &query.built.board;
    let edges = board.edge_count() as u32;
    // Positions 0..first_promised are not promised: position k has `edges - k` free edges.
    let first_promised = (edges.saturating_sub(exact_free) as usize).min(history.len() + 1);
    let started = Instant::now();
    let mut reports: Vec<Option<DotsReport>> = vec![None; history.len() + 1];
    let mut positions = vec![None; history.len() + 1];
    for k in (0..=history.len()).rev() {
        let sharing = sharing(k, first_promised);
        let time = policy.time_for(query).map(|total| {
            let left = total.saturating_sub(started.elapsed());
            (left / sharing as u32).max(Duration::from_millis(1))
        });
        let mut position = super::position::Position::new(board);
        for &e in &history[..k] {
            position
                .play(board, e)
                .expect("the moves of a checked query play");
        }
        positions[k] = Some(position.clone());
        let prefix = DotsQuery {
            position,
            detail: if k == history.len() {
                Detail::Value
            } else {
                Detail::Moves
            },
            time,
            ..query.clone()
        };
        let limited = Policy { time, ..*policy };
        reports[k] = Some(answer(&prefix, &limited, kept, hooks)?);
    }
    let reports: Vec<DotsReport> = reports.into_iter().flatten().collect();
    let names: Vec<String> = history
        .iter()
        .map(|&e| super::notation::format_edge(board, e))
        .collect();
    let moves = names
        .iter()
        .zip(&reports)
        .map(|(mv, before)| Grade::of(before, mv).expect("a played move was legal"))
        .collect();
    let estimates = reports
        .iter()
        .zip(positions.into_iter().flatten())
        .map(|(r, position)| {
            if r.final_margin_a.is_some() {
                return None;
            }
            let range = r.range();
            let value = match r.estimate {
                Some(e) => e.value,
                None => shown_estimate_drawn(board, position.drawn().0)?,
            };
            let value = value.clamp(range.lower, range.upper);
            Some(final_margin_a(position.score(), position.to_move(), value))
        })
        .collect();
    Ok(Review {
        moves,
        margins: reports.iter().map(|r| r.final_margin_a).collect(),
        estimates,
        exact: reports.iter().all(|r| r.exact),
    })
}

/// How many positions share the time left when position `k` (after `k` moves) is answered, itself
/// included: the promised ones still to answer (`first_promised..=k`, answered first), or, once they
/// are done, every earlier one (`0..=k`).
fn sharing(k: usize, first_promised: usize) -> usize {
    if k >= first_promised {
        k - first_promised + 1
    } else {
        k + 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::util::memory::MemoryBudget;
    use crate::games::dots::request::DotsRequest;
    use crate::games::dots::Geometry;

    #[test]
    fn bounds_as_wide_as_the_cells_left_grade_nothing() {
        // The empty 4×4 board in a millisecond: nothing proved of any move (-16..+16).
        let query = DotsRequest::new(Geometry::Boxes { rows: 4, cols: 4 }, "")
            .validate()
            .unwrap();
        let policy = Policy::new(MemoryBudget::new(1 << 26), Some(Duration::from_millis(1)));
        let report = answer(&query, &policy, None, Hooks::default()).unwrap();
        assert!(report.proves_nothing());
        assert!(report.moves.iter().all(|m| report.proves_nothing_of(m)));
        let grade = Grade::of(&report, "1-2").unwrap();
        assert_eq!(grade.verdict, Verdict::Unknown);
        assert_eq!(
            grade.value,
            ValueRange {
                lower: -16,
                upper: 16
            }
        );
        assert!(grade.value_unproved() && grade.best_unproved());
        assert_eq!(grade.describe(), "not proved yet");
        // What an earlier answer proved of the position (the empty 4×4 board is a tie) narrows
        // the best; the move itself stays unproved, and its bounds are not shown.
        let known = Grade::of_known(&report, "1-2", ValueRange::exact(0)).unwrap();
        assert_eq!(known.best, ValueRange::exact(0));
        assert_eq!(
            (known.verdict, known.value_unproved(), known.best_unproved()),
            (Verdict::Unknown, true, false)
        );
        assert_eq!(
            known.describe_with("not graded"),
            "not graded; best is 0".to_string()
        );
        // A narrower bound on the move is shown.
        let narrower = Grade {
            value: ValueRange {
                lower: -4,
                upper: 2,
            },
            ..known
        };
        assert_eq!(narrower.describe(), "not proved yet: -4..+2, best is 0");
    }

    #[test]
    fn the_positions_promised_exact_share_the_time_first() {
        // A 4×4 game of 15 moves, exact from 28 free edges on (after move 12): positions 15, 14,
        // 13 and 12 share the whole time, each the time left over those still to answer; then
        // positions 11 to 0 share what they left.
        let shares: Vec<usize> = (0..=15).rev().map(|k| sharing(k, 12)).collect();
        assert_eq!(shares, [4, 3, 2, 1, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
        // Every position promised (a short game of a small board): the old sharing, last first.
        assert_eq!(sharing(3, 0), 4);
    }

    #[test]
    fn positions_not_proved_get_an_estimate_and_proved_ones_none() {
        // Two moves into 5×5 boxes with a millisecond to share: nothing is proved early on (no
        // book, no table), so each position has an estimate of A's margin instead, within what
        // its cells allow.
        let query = DotsRequest::new(Geometry::Boxes { rows: 5, cols: 5 }, "1-2 7-8")
            .validate()
            .unwrap();
        let policy = Policy::new(MemoryBudget::new(1 << 26), Some(Duration::from_millis(1)));
        let books = std::sync::Arc::new(crate::games::dots::book::Books::none());
        let kept = Kept::new(1 << 26, 1).with_books(books);
        let r = review(&query, &policy, Some(&kept), Hooks::default()).unwrap();
        assert_eq!(r.margins, vec![None, None, None]);
        assert_eq!(r.estimates.len(), 3);
        for e in &r.estimates {
            let e = e.expect("an estimate where the margin is not proved");
            assert!(e.abs() <= 25, "{e}");
        }
        // On a proved game no estimate is given.
        let query = DotsRequest::new(Geometry::CLASSIC_TRIANGLES, "2-3 1-2")
            .validate()
            .unwrap();
        let r = review(
            &query,
            &Policy::new(MemoryBudget::new(1 << 26), None),
            None,
            Hooks::default(),
        )
        .unwrap();
        assert_eq!(r.estimates, vec![None, None, None]);
    }

    #[test]
    fn a_game_of_the_classic_board_graded() {
        let query = DotsRequest::new(Geometry::CLASSIC_TRIANGLES, "2-3 1-2 4-5")
            .validate()
            .unwrap();
        let policy = Policy::new(MemoryBudget::new(1 << 26), None);
        let r = review(&query, &policy, None, Hooks::default()).unwrap();
        assert!(r.exact);
        // The empty board is worth -3 for A: B wins by 3.
        assert_eq!(r.margins[0], Some(-3));
        // 2-3 is one of the six moves worth -5: a mistake, 2 lost.
        let first = &r.moves[0];
        assert_eq!(
            (first.player, first.verdict, first.loss),
            (Player::A, Verdict::Mistake, Some(2))
        );
        assert_eq!(first.value, ValueRange::exact(-5));
        assert_eq!(r.margins[1], Some(-5));
        assert_eq!(
            first.describe(),
            format!(
                "mistake: -5 loses 2, best was -3 ({})",
                first.best_move.clone().unwrap()
            )
        );
        assert_eq!(r.margins.len(), 4);
        assert_eq!(r.moves.len(), 3);
        // Each move's loss is the change of its mover's margin.
        for (i, g) in r.moves.iter().enumerate() {
            let (before, after) = (r.margins[i].unwrap(), r.margins[i + 1].unwrap());
            let change = if g.player == Player::A {
                before - after
            } else {
                after - before
            };
            assert_eq!(Some(change as i32), g.loss, "move {i}");
        }
    }
}
