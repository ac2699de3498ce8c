//! ply — exact solvers for small games.
//!
//! The crate never prints and never exits the process:
//! - [`engine`]: generic game shapes (traits), values, solvers and tables. It knows no game and uses
//!   nothing from [`input`].
//! - [`games`]: one module per game family: its rules, its notation (parse/format) and its text pictures.
//! - [`input`] reads numbers, lines and memory sizes from untrusted input; [`play`] and
//!   [`option_hints`] serve the front ends (the perfect player's choices; faults worded with the
//!   option that asked for them).
//!
//! Front ends (the `ply` command line, the web page) turn the structs returned here into text or JSON.

#![warn(missing_docs)]
#![deny(unsafe_code)]

pub mod engine;
pub mod games;
pub mod input;
pub mod option_hints;
pub mod play;
