//! What a piece of work costs before it starts, and how it is refused: every request whose size
//! the user sets is costed by a model of its own (the quantities that really drive its time, in a
//! unit of the model's choosing), and refused with its estimate when that passes the front end's
//! [`WorkLimit`]. The same check serves the command line and the server, which differ only in the
//! limit they pass ([`WorkLimit::DEFAULT`], or less: [`WorkLimit::within`] a request's halt).
//!
//! A [`Meter`] is the other half: while the work runs it checks the [`Halt`] every so many units, so
//! that a deadline or a cancel flag stops it within a few milliseconds whatever its size.

use super::halt::{Halt, Halted};
use std::borrow::Cow;
use std::time::Duration;
use thiserror::Error;

/// A cost model's unit and its speed: how many units this machine class does in a second (measured
/// on the hardest shapes found, release build, a busy 2-core machine), so that an estimate can be
/// told in time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rate {
    /// Units done in a second.
    pub per_second: u64,
}

impl Rate {
    /// A model doing `per_second` units a second.
    pub const fn per_second(per_second: u64) -> Self {
        Rate { per_second }
    }

    /// The time `units` take at this rate.
    pub fn seconds(&self, units: u128) -> f64 {
        units as f64 / self.per_second.max(1) as f64
    }

    /// The units this rate does in `time`.
    pub fn units_in(&self, time: Duration) -> u128 {
        (time.as_secs_f64() * self.per_second as f64) as u128
    }
}

/// The most work a front end lets one request do, as the time it may take here: every model turns it
/// into its own units through its [`Rate`]. Data, not a constant of the models: the command line
/// passes [`WorkLimit::DEFAULT`], a server what its time limit allows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WorkLimit {
    time: Duration,
}

impl WorkLimit {
    /// About a minute of work on this machine class: what `ply` does without asking.
    pub const DEFAULT: WorkLimit = WorkLimit {
        time: Duration::from_secs(60),
    };

    /// A limit of `time` of work.
    pub const fn of(time: Duration) -> Self {
        WorkLimit { time }
    }

    /// This limit, or less: no more than the time `halt` leaves (a request's deadline), so that work
    /// that cannot finish in time is refused at once with its estimate instead of being stopped.
    pub fn within(self, halt: &Halt) -> Self {
        match halt.remaining() {
            Some(left) if left < self.time => WorkLimit { time: left },
            _ => self,
        }
    }

    /// The time this limit allows.
    pub fn time(&self) -> Duration {
        self.time
    }

    /// This limit in the units of a model doing `rate`.
    pub fn units(&self, rate: Rate) -> u128 {
        rate.units_in(self.time)
    }

    /// Checks the `work` of a model doing `rate` against this limit; `what` names the work for the
    /// refusal (`comparing these lists exactly`, or a text made only when refused).
    pub fn check<W: Into<Cow<'static, str>>>(
        &self,
        what: impl FnOnce() -> W,
        work: u128,
        rate: Rate,
    ) -> Result<u128, OverLimit> {
        let limit = self.units(rate);
        if work > limit {
            return Err(OverLimit {
                what: what().into(),
                work,
                limit,
                rate,
            });
        }
        Ok(work)
    }
}

/// Work refused before it starts: its estimate over the limit, both in units and in time here.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error(
    "{what} would take {} here ({} units of work; the limit is {}, {})",
    duration_text(rate.seconds(*.work)),
    units_text(*.work),
    units_text(*.limit),
    duration_text(rate.seconds(*.limit))
)]
pub struct OverLimit {
    /// What would have been done (`comparing these lists exactly`).
    pub what: Cow<'static, str>,
    /// Its estimate, in the model's units.
    pub work: u128,
    /// The limit, in the same units.
    pub limit: u128,
    /// The model's speed.
    pub rate: Rate,
}

/// A count of units for messages: exact up to 9 999, then two significant digits (`4.2·10^9`,
/// `3·10^7`).
pub fn units_text(units: u128) -> String {
    if units < 10_000 {
        return units.to_string();
    }
    let exponent = (units as f64).log10().floor() as i32;
    let mut mantissa = units as f64 / 10f64.powi(exponent);
    let mut exponent = exponent;
    // Rounding to one decimal may reach 10.0: 9.96·10^9 is written 1·10^10.
    if (mantissa * 10.0).round() >= 100.0 {
        mantissa /= 10.0;
        exponent += 1;
    }
    let text = format!("{mantissa:.1}");
    let text = text.strip_suffix(".0").unwrap_or(&text);
    format!("{text}·10^{exponent}")
}

/// A rough time for messages: `about 40 s`, `about 12 minutes`, `about 3 hours`, `about 5 days`,
/// `over a century`; `under a second` below half a second.
pub fn duration_text(seconds: f64) -> String {
    match seconds {
        s if s < 0.5 => "under a second".into(),
        s if s < 120.0 => format!("about {s:.0} s"),
        s if s < 7200.0 => format!("about {:.0} minutes", s / 60.0),
        s if s < 172_800.0 => format!("about {:.0} hours", s / 3600.0),
        s if s < 3_153_600_000.0 => format!("about {:.0} days", s / 86_400.0),
        _ => "over a century".into(),
    }
}

/// Checks a [`Halt`] as work is done: told the units of each step, it checks the halt once every
/// `every` units (a clock read and an atomic load), so that the checks cost nothing next to the work
/// and still come every few milliseconds.
#[derive(Debug)]
pub struct Meter<'a> {
    halt: &'a Halt,
    done: u64,
    next: u64,
    every: u64,
}

impl<'a> Meter<'a> {
    /// A meter checking `halt` every `every` units (at least 1), the first time after `every`.
    pub fn new(halt: &'a Halt, every: u64) -> Self {
        let every = every.max(1);
        Meter {
            halt,
            done: 0,
            next: every,
            every,
        }
    }

    /// Counts `units` more work; `Err` with the reason when the halt has come.
    #[inline]
    pub fn spend(&mut self, units: u64) -> Result<(), Halted> {
        self.done = self.done.saturating_add(units);
        if self.done < self.next {
            return Ok(());
        }
        self.next = self.done.saturating_add(self.every);
        self.check()
    }

    /// Checks the halt now, whatever the work counted.
    pub fn check(&self) -> Result<(), Halted> {
        match self.halt.check() {
            Some(why) => Err(why),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::util::halt::NEVER;

    #[test]
    fn units_and_times_are_written_short() {
        assert_eq!(units_text(0), "0");
        assert_eq!(units_text(9_999), "9999");
        assert_eq!(units_text(10_000), "1·10^4");
        assert_eq!(units_text(4_200_000_000), "4.2·10^9");
        assert_eq!(units_text(30_000_000), "3·10^7");
        assert_eq!(units_text(9_960_000_000), "1·10^10");
        assert_eq!(units_text(u128::MAX), "3.4·10^38");
        assert_eq!(duration_text(0.1), "under a second");
        assert_eq!(duration_text(59.6), "about 60 s");
        assert_eq!(duration_text(180.0), "about 3 minutes");
        assert_eq!(duration_text(43_200.0), "about 12 hours");
        assert_eq!(duration_text(1e12), "over a century");
    }

    #[test]
    fn work_over_the_limit_is_refused_with_its_estimate() {
        let rate = Rate::per_second(1_000_000);
        let limit = WorkLimit::DEFAULT;
        assert_eq!(limit.units(rate), 60_000_000);
        assert_eq!(limit.check(|| "racing", 60_000_000, rate), Ok(60_000_000));
        let e = limit.check(|| "racing", 180_000_000, rate).unwrap_err();
        assert_eq!(
            e.to_string(),
            "racing would take about 3 minutes here (1.8·10^8 units of work; the limit is 6·10^7, \
             about 60 s)"
        );
        // A deadline lowers the limit; no deadline leaves it.
        assert_eq!(limit.within(&NEVER), limit);
        let soon = Halt::after(Duration::from_secs(10));
        assert!(limit.within(&soon).time() <= Duration::from_secs(10));
        let later = Halt::after(Duration::from_secs(3600));
        assert_eq!(limit.within(&later), limit);
    }

    #[test]
    fn a_meter_checks_its_halt_every_so_many_units() {
        let mut meter = Meter::new(&NEVER, 10);
        for _ in 0..100 {
            assert_eq!(meter.spend(7), Ok(()));
        }
        let past = Halt::after(Duration::ZERO);
        let mut meter = Meter::new(&past, 10);
        assert_eq!(meter.spend(9), Ok(()));
        assert_eq!(
            meter.spend(1),
            Err(Halted::TimeLimit { millis: 0 }),
            "checked at 10 units"
        );
        assert!(meter.check().is_err());
    }
}
