//! How a command fails: bad input (exit 2), a fault of ply itself (exit 1) or an interrupt it
//! stopped cleanly at (exit 130, as the shell reports a process Ctrl-C ended), always one line.

use plysolve::engine::scored::{SolveError, Strategy};
use plysolve::input::surface::Surface;

/// A command's failure.
#[derive(Debug)]
pub enum Failure {
    /// The input or the request is at fault (including work refused as too big): exit status 2.
    BadInput(String),
    /// Something went wrong that the user could not cause: exit status 1.
    Internal(String),
    /// Stopped by an interrupt, cleanly (what was done is kept, and said): exit status 130.
    Interrupted(String),
}

impl Failure {
    /// The one line shown on stderr.
    pub fn message(&self) -> String {
        let text = match self {
            Failure::BadInput(m) | Failure::Internal(m) | Failure::Interrupted(m) => m,
        };
        text.replace('\n', " ")
    }

    /// The process exit status.
    pub fn exit_code(&self) -> u8 {
        match self {
            Failure::BadInput(_) => 2,
            Failure::Internal(_) => 1,
            Failure::Interrupted(_) => 130,
        }
    }

    /// Bad input described by any error.
    pub fn bad(e: impl std::fmt::Display) -> Self {
        Failure::BadInput(e.to_string())
    }
}

impl From<SolveError> for Failure {
    /// Every solve error comes from the request (too big, unsupported), so it is the user's to fix.
    fn from(e: SolveError) -> Self {
        Failure::BadInput(e.to_string())
    }
}

impl Failure {
    /// A dots solve error, with the dots home's hint at what could still work.
    pub fn solve(e: SolveError, strategy: Strategy) -> Self {
        Failure::BadInput(plysolve::games::dots::answer::fault(
            &e,
            strategy,
            Surface::Cli,
        ))
    }
}

impl From<serde_json::Error> for Failure {
    fn from(e: serde_json::Error) -> Self {
        Failure::Internal(format!("cannot write JSON: {e}"))
    }
}
