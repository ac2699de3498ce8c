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

/// The dots boards' theory: the capture rules and the simple loony endgames.
#[derive(Debug, Clone, Copy, Default)]
pub struct DotsTheory;

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
        learned::learned_estimate(rules, drawn, free)
    }
}
