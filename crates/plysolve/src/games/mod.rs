//! One module per game family: rules, notation (parse and format) and text pictures.

pub mod dice_race;
pub mod dots;
pub mod heaps;
pub mod magic_board;
pub mod solitaire;
