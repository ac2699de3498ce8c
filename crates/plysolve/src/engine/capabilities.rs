//! Declared capabilities: what kind of game a rule set is, so that a solver can refuse what it cannot do.

use serde::Serialize;

/// What a game declares about itself (after OpenSpiel's `GameType`), only as far as a solver reads it.
///
/// Solvers check these flags and refuse, with a clear error, a game they would otherwise answer wrongly
/// (for example a plain negamax on a game whose positions can repeat).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Capabilities {
    /// Outcomes of some moves are decided by chance (dice), not by a player.
    pub chance: bool,
    /// A position may repeat, so the game graph has cycles.
    pub cycles: bool,
}
