//! When a solve must stop before its answer: a deadline (a per-request time limit, a player's time
//! to think) or a flag raised from outside (a client that left, a user who gave up).
//!
//! The library never watches a clock on its own: a front end passes a [`Halt`] in, and every long
//! solver checks it now and then (the search every few thousand nodes, the memo and the recursion
//! every few thousand states, the tables between blocks). A solver that halts gives what it proved
//! so far, or [`Halted`] — never a wrong value. The same checks let a front end make a solve
//! [`GiveWay`] to its other work for a while.

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

/// A front end's wish that a solve give way to its other work for now: a server whose cheap
/// requests want every core while an expensive solve runs. A solve whose [`Halt`] carries one
/// sleeps at each check, a millisecond at a time, while the front end wants the cores (the
/// deadline and the flag still checked), so it takes no core the front end needs, yet all it can
/// get when the front end is idle; unlike a lower OS priority, it gives way to nothing else on the
/// machine.
#[derive(Clone)]
pub struct GiveWay(Arc<dyn Fn() -> bool + Send + Sync>);

impl GiveWay {
    /// Gives way while `wanted` says the front end wants the cores (asked at every check: it must
    /// be cheap).
    pub fn new(wanted: impl Fn() -> bool + Send + Sync + 'static) -> Self {
        GiveWay(Arc::new(wanted))
    }
}

impl std::fmt::Debug for GiveWay {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("GiveWay")
    }
}

/// How long a solve giving way sleeps before it asks again.
const NAP: Duration = Duration::from_millis(1);

/// A deadline and a cancel flag, and when to give way; checking it is cheap (a clock read and an
/// atomic load, and the give-way's question).
#[derive(Debug, Clone, Default)]
pub struct Halt {
    /// When to stop, and the time that was given (for the message).
    deadline: Option<(Instant, Duration)>,
    /// Raised from outside to stop at once.
    flag: Option<Arc<AtomicBool>>,
    /// When to pause for the front end's other work.
    give_way: Option<GiveWay>,
}

/// A halt that never comes: solves run to their answer.
pub static NEVER: Halt = Halt::never();

impl Halt {
    /// No deadline and no flag.
    pub const fn never() -> Self {
        Halt {
            deadline: None,
            flag: None,
            give_way: None,
        }
    }

    /// A halt `time` from now.
    pub fn after(time: Duration) -> Self {
        Halt {
            deadline: Some((Instant::now() + time, time)),
            ..Halt::never()
        }
    }

    /// A halt `time` from now for a part of the work that was given `whole` in all: when it comes,
    /// it names `whole` (the limit the user knows).
    pub fn after_part(time: Duration, whole: Duration) -> Self {
        Halt {
            deadline: Some((Instant::now() + time, whole)),
            ..Halt::never()
        }
    }

    /// This halt, also raised when `flag` is set.
    pub fn with_flag(mut self, flag: Arc<AtomicBool>) -> Self {
        self.flag = Some(flag);
        self
    }

    /// This halt, also giving way as `give_way` says.
    pub fn with_give_way(mut self, give_way: GiveWay) -> Self {
        self.give_way = Some(give_way);
        self
    }

    /// A halt for one phase of this one: at most `time` from now, never later than this one,
    /// raised by the same flag and giving way alike. (The message names the shorter time.)
    pub fn within(&self, time: Duration) -> Self {
        let mine = (Instant::now() + time, time);
        let deadline = match self.deadline {
            Some(outer) if outer.0 <= mine.0 => outer,
            _ => mine,
        };
        Halt {
            deadline: Some(deadline),
            flag: self.flag.clone(),
            give_way: self.give_way.clone(),
        }
    }

    /// Why to stop now, or `None` to go on (after giving way as long as the front end asks).
    pub fn check(&self) -> Option<Halted> {
        if let Some(GiveWay(wanted)) = &self.give_way {
            while wanted() {
                if let Some(why) = self.due() {
                    return Some(why);
                }
                std::thread::sleep(NAP);
            }
        }
        self.due()
    }

    /// Why to stop now: the flag raised or the deadline passed.
    fn due(&self) -> Option<Halted> {
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

    /// Whether a deadline, a flag or a give-way is set at all (a solve that can neither halt nor
    /// give way may skip its checks).
    pub fn can_halt(&self) -> bool {
        self.deadline.is_some() || self.flag.is_some() || self.give_way.is_some()
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
    fn a_check_waits_while_the_front_end_wants_the_cores() {
        use std::sync::atomic::AtomicUsize;
        // The front end wants the cores for the first three questions.
        let asked = Arc::new(AtomicUsize::new(0));
        let counted = asked.clone();
        let give_way = GiveWay::new(move || counted.fetch_add(1, Ordering::Relaxed) < 3);
        let halt = Halt::never().with_give_way(give_way);
        assert!(halt.can_halt());
        assert_eq!(halt.check(), None);
        assert_eq!(asked.load(Ordering::Relaxed), 4);
        // A phase gives way alike; while it waits, its flag still stops it.
        let flag = Arc::new(AtomicBool::new(true));
        let always = GiveWay::new(|| true);
        let waiting = Halt::never().with_give_way(always).with_flag(flag);
        assert_eq!(
            waiting.within(Duration::from_secs(60)).check(),
            Some(Halted::Cancelled)
        );
        // And its deadline.
        let timed = Halt::after(Duration::from_millis(5)).with_give_way(GiveWay::new(|| true));
        assert_eq!(timed.check(), Some(Halted::TimeLimit { millis: 5 }));
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
