//! Utilities every shape and game may use: nothing here is a game shape or a solver.

pub mod fraction;
