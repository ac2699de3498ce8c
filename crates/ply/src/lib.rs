//! ply — exact solvers for small games.
//!
//! The crate is split in two halves that never print and never exit the process:
//! - [`engine`]: generic game shapes (traits), values, solvers and tables. It knows no game.
//! - [`games`]: one module per game family: its rules, its notation (parse/format) and its text pictures.
//!
//! Front ends (the `ply` command line, later a web page) turn the structs returned here into text or JSON.

#![warn(missing_docs)]
#![deny(unsafe_code)]

pub mod engine;
pub mod games;
pub mod input;
pub mod play;
