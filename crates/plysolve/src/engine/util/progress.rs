//! Progress reports from long solves, and the halt they obey: the library never prints and never
//! watches a clock on its own — it calls back, and checks the [`Halt`] it was given.

use super::halt::{Halt, Halted, NEVER};

/// A callback told, now and then, how many states a solver has visited so far.
///
/// Front ends turn it into a progress line on stderr; tests and library users may ignore it.
pub type Progress<'a> = &'a (dyn Fn(u64) + Sync);

/// How many visited states pass between two calls of a [`Progress`] callback.
pub const PROGRESS_EVERY: u64 = 1 << 20;

/// How many visited states pass between two checks of the halt (a clock read): a few milliseconds
/// of work at most.
pub const CHECK_EVERY: u64 = 1 << 12;

/// What a long solve reports and obeys as it goes: progress out, a halt in.
#[derive(Clone, Copy)]
pub struct Watch<'a> {
    /// Told the states visited every [`PROGRESS_EVERY`] states.
    pub progress: Option<Progress<'a>>,
    /// Checked every [`CHECK_EVERY`] states.
    pub halt: &'a Halt,
}

impl Default for Watch<'_> {
    /// No progress, no halt.
    fn default() -> Self {
        Watch {
            progress: None,
            halt: &NEVER,
        }
    }
}

impl Watch<'_> {
    /// Called once per state visited, with the count so far: tells progress and checks the halt when
    /// their turn comes.
    #[inline]
    pub fn tick(&self, visited: u64) -> Result<(), Halted> {
        if visited % PROGRESS_EVERY == 0 {
            if let Some(progress) = self.progress {
                progress(visited);
            }
        }
        if visited % CHECK_EVERY == 0 {
            if let Some(why) = self.halt.check() {
                return Err(why);
            }
        }
        Ok(())
    }
}
