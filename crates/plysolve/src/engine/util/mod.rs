//! Utilities every shape and game may use: nothing here is a game shape or a solver.

pub mod chooser;
pub mod cost;
pub mod estimate;
pub mod excerpt;
pub mod fingerprint;
pub mod fraction;
pub mod halt;
pub mod memory;
pub mod player;
pub mod progress;
