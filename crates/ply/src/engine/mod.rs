//! The generic engine: what a game must state, and the solvers that compute values from it.
//!
//! Nothing in here knows a particular game; games live in [`crate::games`].

pub mod absorbing;
pub mod capabilities;
pub mod chance;
pub mod conformance;
pub mod estimate;
pub mod impartial;
pub mod matrix_game;
pub mod memory;
pub mod player;
pub mod progress;
pub mod reach;
pub mod scored;
pub mod util;
pub mod window_path;

pub use capabilities::Capabilities;
pub use memory::{MemoryBudget, MemoryError};
pub use player::{final_margin_a, Player, Winner};
pub use progress::Progress;
