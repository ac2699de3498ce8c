//! One module per game family: rules, notation (parse and format) and text pictures.

pub mod dots;
pub mod heaps;
pub mod solitaire;
