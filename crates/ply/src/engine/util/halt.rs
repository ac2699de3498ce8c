//! When a solve must stop before its answer: a deadline (a per-request time limit, a player's time
//! to think) or a flag raised from outside (a client that left, a user who gave up).
//!
//! The library never watches a clock on its own: a front end passes a [`Halt`] in, and every long
//! solver checks it now and then (the search every few thousand nodes, the memo and the recursion
//! every few thousand states, the tables between blocks). A solver that halts gives what it proved
//! so far, or [`Halted`] — never a wrong value.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use thiserror::Error;

/// Why a solve stopped before its answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum Halted {
    /// The time it was given ran out.
    #[error("the time limit of {} was reached", millis_text(*.millis))]
    TimeLimit {
        /// The time it was given, in milliseconds.
        millis: u64,
    },
    /// Whoever asked gave up (a closed connection, Ctrl-C).
    #[error("the solve was cancelled")]
    Cancelled,
}

/// `10 s`, `2.5 s`, `0.25 s`: a time of `millis` milliseconds in seconds, to two significant
/// digits (a limit of 1 s whose solve started a millisecond late still reads `1 s`).
pub fn millis_text(millis: u64) -> String {
    let seconds = millis as f64 / 1000.0;
    if seconds == 0.0 {
        return "0 s".to_string();
    }
    let digits = (1 - seconds.log10().floor() as i32).max(0) as usize;
    let text = format!("{seconds:.digits$}");
    let text = if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.')
    } else {
        &text
    };
    format!("{text} s")
}

/// A deadline and a cancel flag; checking it is cheap (a clock read and an atomic load).
#[derive(Debug, Clone, Default)]
pub struct Halt {
    /// When to stop, and the time that was given (for the message).
    deadline: Option<(Instant, Duration)>,
    /// Raised from outside to stop at once.
    flag: Option<Arc<AtomicBool>>,
}

/// A halt that never comes: solves run to their answer.
pub static NEVER: Halt = Halt::never();

impl Halt {
    /// No deadline and no flag.
    pub const fn never() -> Self {
        Halt {
            deadline: None,
            flag: None,
        }
    }

    /// A halt `time` from now.
    pub fn after(time: Duration) -> Self {
        Halt {
            deadline: Some((Instant::now() + time, time)),
            flag: None,
        }
    }

    /// A halt `time` from now for a part of the work that was given `whole` in all: when it comes,
    /// it names `whole` (the limit the user knows).
    pub fn after_part(time: Duration, whole: Duration) -> Self {
        Halt {
            deadline: Some((Instant::now() + time, whole)),
            flag: None,
        }
    }

    /// This halt, also raised when `flag` is set.
    pub fn with_flag(mut self, flag: Arc<AtomicBool>) -> Self {
        self.flag = Some(flag);
        self
    }

    /// A halt for one phase of this one: at most `time` from now, never later than this one, and
    /// raised by the same flag. (The message names the shorter time.)
    pub fn within(&self, time: Duration) -> Self {
        let mine = (Instant::now() + time, time);
        let deadline = match self.deadline {
            Some(outer) if outer.0 <= mine.0 => outer,
            _ => mine,
        };
        Halt {
            deadline: Some(deadline),
            flag: self.flag.clone(),
        }
    }

    /// Why to stop now, or `None` to go on.
    pub fn check(&self) -> Option<Halted> {
        if self
            .flag
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed))
        {
            return Some(Halted::Cancelled);
        }
        match self.deadline {
            Some((at, given)) if Instant::now() >= at => Some(Halted::TimeLimit {
                millis: given.as_millis().min(u64::MAX as u128) as u64,
            }),
            _ => None,
        }
    }

    /// Whether a deadline or a flag is set at all (a solve that cannot halt may skip its checks).
    pub fn can_halt(&self) -> bool {
        self.deadline.is_some() || self.flag.is_some()
    }

    /// Time left before the deadline (`None` without one; zero once it has passed).
    pub fn remaining(&self) -> Option<Duration> {
        self.deadline
            .map(|(at, _)| at.saturating_duration_since(Instant::now()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_halt_comes_at_its_deadline_or_its_flag() {
        assert_eq!(NEVER.check(), None);
        assert!(!NEVER.can_halt());
        let past = Halt::after(Duration::ZERO);
        assert_eq!(past.check(), Some(Halted::TimeLimit { millis: 0 }));
        let later = Halt::after(Duration::from_secs(3600));
        assert_eq!(later.check(), None);
        let flag = Arc::new(AtomicBool::new(false));
        let flagged = later.clone().with_flag(flag.clone());
        assert_eq!(flagged.check(), None);
        flag.store(true, Ordering::Relaxed);
        assert_eq!(flagged.check(), Some(Halted::Cancelled));
        // A phase ends at the sooner deadline and shares the flag.
        let phase = flagged.within(Duration::from_millis(1));
        assert_eq!(phase.check(), Some(Halted::Cancelled));
        assert!(later.within(Duration::ZERO).check().is_some());
        assert!(Halt::after(Duration::ZERO)
            .within(Duration::from_secs(60))
            .check()
            .is_some());
    }

    #[test]
    fn messages_name_the_time_given() {
        let e = Halted::TimeLimit { millis: 10_000 };
        assert_eq!(e.to_string(), "the time limit of 10 s was reached");
        let e = Halted::TimeLimit { millis: 250 };
        assert_eq!(e.to_string(), "the time limit of 0.25 s was reached");
        assert_eq!(millis_text(9_999), "10 s");
        assert_eq!(millis_text(999), "1 s");
        assert_eq!(millis_text(2_460), "2.5 s");
        assert_eq!(millis_text(123_456), "123 s");
        assert_eq!(millis_text(0), "0 s");
        let part = Halt::after_part(Duration::ZERO, Duration::from_secs(10));
        assert_eq!(part.check(), Some(Halted::TimeLimit { millis: 10_000 }));
        assert_eq!(Halted::Cancelled.to_string(), "the solve was cancelled");
    }
}
