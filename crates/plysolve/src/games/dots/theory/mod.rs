//! What is known about dots games beyond their rules, stated for the search as the boards'
//! [`Theory`]: the capture rules ([`captures`]) and the values of simple loony endgames ([`loony`]).
//! Every rule is a theorem of dots play (Berlekamp; Barker and Korf), and the crate's tests check
//! each against the whole table on every state of every dots board of up to 2^24 states. Beside
//! them, an estimate of positions past exact reach, for the anytime player — a guess, used only
//! where nothing is proved: the [`learned`] one, fitted to exact values over the [`features`] of
//! dots theory, which include the hand-made [`estimate`].

pub mod captures;
pub mod estimate;
pub mod features;
pub mod learned;
pub mod loony;

use crate::engine::scored::{Completion, Theory};
use serde::Deserialize;

/// Which estimate values the leaves of the anytime search: the [`learned`] one (every front end's),
/// or the hand-made [`estimate`] it replaced, kept so that the two can be played against each other
/// (`plysolve.openspiel.PlyBot(estimate="hand-made")`, `tools/strength/ab_match.py`): an A/B of the
/// estimate alone, everything else in the player the same.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Leaf {
    /// The learned estimate ([`learned::learned_estimate`]).
    #[default]
    Learned,
    /// The hand-made estimate ([`estimate::estimate`]).
    HandMade,
}

/// The dots boards' theory: the capture rules, the simple loony endgames, and the estimate its
/// [`Leaf`] names.
#[derive(Debug, Clone, Copy, Default)]
pub struct DotsTheory {
    /// The estimate at the anytime search's leaves.
    pub leaf: Leaf,
}

impl DotsTheory {
    /// The theory whose leaves are valued by `leaf`'s estimate.
    pub fn of(leaf: Leaf) -> &'static DotsTheory {
        const LEARNED: DotsTheory = DotsTheory {
            leaf: Leaf::Learned,
        };
        const HAND_MADE: DotsTheory = DotsTheory {
            leaf: Leaf::HandMade,
        };
        match leaf {
            Leaf::Learned => &LEARNED,
            Leaf::HandMade => &HAND_MADE,
        }
    }
}

impl Theory for DotsTheory {
    #[inline]
    fn candidates(&self, rules: Completion<'_>, drawn: u64, free: u64) -> Option<u64> {
        captures::candidates(rules, drawn, free)
    }

    #[inline]
    fn endgame_value(&self, rules: Completion<'_>, drawn: u64, free: u64) -> Option<i32> {
        loony::simple_endgame_value(rules, drawn, free)
    }

    fn estimate(&self, rules: Completion<'_>, drawn: u64, free: u64) -> i32 {
        match self.leaf {
            Leaf::Learned => learned::learned_estimate(rules, drawn, free),
            Leaf::HandMade => estimate::estimate(rules, drawn, free),
        }
    }
}
