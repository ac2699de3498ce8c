//! One module per game family: rules, notation (parse and format) and text pictures; each home's
//! `door` states what it offers ([`door`]), and [`registry`] lists the games once.

pub mod dice_race;
pub mod door;
pub mod dots;
pub mod heaps;
pub mod magic_board;
pub mod registry;
pub mod solitaire;
