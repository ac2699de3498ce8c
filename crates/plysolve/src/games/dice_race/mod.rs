//! The dice race (the original program 003): two players each pick M sums of N K-sided dice; the dice
//! are rolled, and each player crosses off one occurrence of the rolled sum if it is on their list;
//! the first to cross off everything wins, both finishing on the same roll is a tie.
//!
//! The original program estimated who wins by simulation and searched for the best list greedily.
//! Here the race is an absorbing chain ([`crate::engine::absorbing`]) solved exactly, the best list is
//! found by an exhaustive search, and the pick game's equilibrium by linear programming. [`request`]
//! holds the questions as every front end asks them; [`rules`] states the race's rules once, and
//! [`play`] plays a race roll by roll by them (`ply play dice-race`, the page's replay).

pub mod cost;
pub mod dice;
pub mod door;
pub mod lists;
pub mod play;
pub mod race;
pub mod report;
pub mod request;
pub mod rules;
pub mod search;
pub mod simulate;

pub use dice::{Dice, DiceError};
pub use race::{
    compare, compare_fast, compare_within, parse_sums, Comparison, ExactComparison, PickList,
    RaceError,
};
