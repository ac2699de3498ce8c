//! The generic engine: what a game must state, and the solvers that compute values from it.
//!
//! Nothing in here knows a particular game; games live in [`crate::games`]. Each module at this level
//! is a game shape (its trait and its solvers) or what every shape shares ([`capabilities`],
//! [`conformance`]); [`util`] holds what is no shape at all: memory budgets, progress callbacks,
//! estimates, players, fractions.

pub mod absorbing;
pub mod capabilities;
pub mod chance;
pub mod conformance;
pub mod impartial;
pub mod matrix_game;
pub mod reach;
pub mod scored;
pub mod util;
pub mod window_path;

pub use capabilities::Capabilities;
pub use util::memory::{MemoryBudget, MemoryError};
pub use util::player::{final_margin_a, Player, Winner};
pub use util::progress::Progress;
