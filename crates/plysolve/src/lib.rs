//! ply — exact solvers for small games.
//!
//! The crate never prints and never exits the process:
//! - [`engine`]: generic game shapes (traits), values, solvers and tables. It knows no game and uses
//!   nothing from [`input`].
//! - [`games`]: one module per game family: its rules, its notation (parse/format) and its text pictures.
//! - [`input`] reads numbers, lines, memory sizes and times from untrusted input, numbers as a
//!   request states them (one text or a JSON list), and requests from JSON.
//!
//! Each game has one home in [`games`]: its rules, its requests and reports, its policy and its
//! player (for dots: `games::dots::{request, policy, answer, player}`), which every front end uses.
//! A request's keys are the `ply` command's long option names: the command builds it from its
//! arguments, the web API and the Python package read it from JSON ([`input::json`]), and its faults
//! name the option that asked for what is refused in the caller's own terms ([`input::surface`]:
//! `--explain` on the command line, `"explain": true` in the API, `explain=True` in Python).
//!
//! Front ends (the `ply` command line, the web page) turn the structs returned here into text or JSON.

#![warn(missing_docs)]
#![deny(unsafe_code)]

pub mod engine;
pub mod games;
pub mod input;
