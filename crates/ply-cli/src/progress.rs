//! Progress on stderr for long work: a live spinner or bar on a terminal; elsewhere (a log, a pipe, a
//! test) plain lines, the first at once and then one every few seconds, but only when asked for with `--progress` or
//! `PLY_PROGRESS=1` — unasked, nothing, so stderr stays empty whatever the machine's speed.

use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Whether plain progress lines were asked for (`--progress`, or `PLY_PROGRESS=1` through clap).
static PLAIN_ASKED: AtomicBool = AtomicBool::new(false);

/// Asks for plain progress lines when stderr is not a terminal (set once, from the command line).
pub fn ask_for_plain_lines(asked: bool) {
    PLAIN_ASKED.store(asked, Ordering::Relaxed);
}

/// How often the plain (non-terminal) report is written.
const PLAIN_EVERY: Duration = Duration::from_secs(10);

/// How the reporter shows itself.
enum Display {
    /// A live spinner or bar on the terminal.
    Live(ProgressBar),
    /// Plain lines to a stderr that is no terminal: the first at once, then one every [`PLAIN_EVERY`];
    /// holds the time of the last line.
    Plain(Mutex<Option<Instant>>),
    /// Nothing: stderr is no terminal and no progress was asked for.
    Silent,
}

/// A progress reporter for long work: the engine's [`plysolve::engine::Progress`] callbacks, or any loop
/// that counts what it has done.
pub struct StatesProgress {
    display: Display,
    /// What is counted, before `what` in a count without a total: `states `, or nothing.
    noun: &'static str,
    what: &'static str,
    /// The units of work to do (none: unknown); [`Self::skip`] takes from it.
    total: Option<AtomicU64>,
    start: Instant,
}

impl StatesProgress {
    /// A reporter counting states `what` (e.g. "visited"), with no known total: a spinner.
    pub fn new(what: &'static str) -> Self {
        Self::with_style("states ", what, None, "{spinner} {elapsed_precise} {msg}")
    }

    /// A reporter counting other things than states, with no known total: `what` says what they
    /// are (`positions listed` gives `1048576 positions listed`).
    pub fn counting(what: &'static str) -> Self {
        Self::with_style("", what, None, "{spinner} {elapsed_precise} {msg}")
    }

    /// A reporter of `total` units of work described by `what` (e.g. "games played"): a bar with
    /// the time left on a terminal; plain lines with the time left when asked for.
    pub fn with_total(what: &'static str, total: u64) -> Self {
        Self::with_style(
            "",
            what,
            Some(total),
            "{bar:40} {human_pos}/{human_len} {msg}, {percent}%, ETA {eta}",
        )
    }

    fn with_style(
        noun: &'static str,
        what: &'static str,
        total: Option<u64>,
        template: &str,
    ) -> Self {
        let display = if std::io::stderr().is_terminal() {
            let bar = match total {
                Some(total) => ProgressBar::new(total),
                None => ProgressBar::new_spinner(),
            };
            bar.set_style(ProgressStyle::with_template(template).expect("a valid template"));
            if total.is_some() {
                bar.set_message(what);
            }
            bar.enable_steady_tick(Duration::from_millis(200));
            Display::Live(bar)
        } else if PLAIN_ASKED.load(Ordering::Relaxed) {
            Display::Plain(Mutex::new(None))
        } else {
            Display::Silent
        };
        StatesProgress {
            display,
            noun,
            what,
            total: total.map(AtomicU64::new),
            start: Instant::now(),
        }
    }

    /// Takes a unit the work needed no time for (an entry checked before, skipped) out of the
    /// total, so that the time left is reckoned from the pace of the work done, not lowered by
    /// what cost nothing.
    pub fn skip(&self) {
        let Some(total) = &self.total else {
            return;
        };
        let before = total
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |t| {
                Some(t.saturating_sub(1))
            })
            .unwrap_or_default();
        let left = before.saturating_sub(1);
        if let Display::Live(bar) = &self.display {
            bar.set_length(left);
        }
    }

    /// The units of work to do, if known.
    fn total(&self) -> Option<u64> {
        self.total.as_ref().map(|t| t.load(Ordering::Relaxed))
    }

    /// Reports that `done` states (or units of work) have been handled.
    pub fn update(&self, done: u64) {
        self.update_with(done, None);
    }

    /// Like [`Self::update`], with more about the work after the count (e.g. a search's bounds).
    pub fn update_with(&self, done: u64, detail: Option<&str>) {
        let detail = detail.map_or(String::new(), |d| format!(", {d}"));
        match &self.display {
            Display::Live(bar) => match self.total() {
                Some(_) => {
                    bar.set_position(done);
                    if !detail.is_empty() {
                        bar.set_message(format!("{}{detail}", self.what));
                    }
                }
                None => bar.set_message(format!("{done} {}{}{detail}", self.noun, self.what)),
            },
            Display::Plain(last) => {
                let mut last = last.lock().unwrap_or_else(|e| e.into_inner());
                if last.is_none_or(|at| at.elapsed() >= PLAIN_EVERY) {
                    say(&format!(
                        "ply: {}{detail}",
                        plain_line(
                            self.noun,
                            self.what,
                            done,
                            self.total(),
                            self.start.elapsed()
                        )
                    ));
                    *last = Some(Instant::now());
                }
            }
            Display::Silent => {}
        }
    }

    /// Says something the user must hear whether progress is shown or not (a large share of the
    /// machine's memory about to be taken): above the live display, or a plain line.
    pub fn notice(&self, line: &str) {
        match &self.display {
            Display::Live(bar) => bar.println(format!("ply: {line}")),
            Display::Plain(_) | Display::Silent => say(&format!("ply: {line}")),
        }
    }

    /// Reports an event worth a line of its own whenever progress is shown (e.g. a move's value
    /// proved), above the live display or as a plain line at once.
    pub fn event(&self, line: &str) {
        match &self.display {
            Display::Live(bar) => bar.println(format!("ply: {line}")),
            Display::Plain(_) => say(&format!("ply: {line}")),
            Display::Silent => {}
        }
    }
}

/// Writes `line` to stderr, or nothing when stderr cannot take it: `eprintln!` panics when stderr
/// is a closed pipe (`ply … 2>&1 | head -1`), which would end ply with exit 101 mid-work or, in a
/// solver's thread, kill that thread. Every message to stderr goes through here.
pub fn say(line: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{line}");
}

/// The plain progress line: `N states visited`, or with a total `N/T games played (P%), about S s
/// left` (the time left assumes the rest goes at the pace so far).
fn plain_line(noun: &str, what: &str, done: u64, total: Option<u64>, elapsed: Duration) -> String {
    let Some(total) = total else {
        return format!("{done} {noun}{what}");
    };
    let percent = if total == 0 {
        100
    } else {
        (u128::from(done.min(total)) * 100 / u128::from(total)) as u64
    };
    let left = match done {
        0 => "time left unknown".to_string(),
        _ => {
            let rest = total.saturating_sub(done) as f64;
            format!(
                "about {:.0} s left",
                elapsed.as_secs_f64() * rest / done as f64
            )
        }
    };
    format!("{done}/{total} {what} ({percent}%), {left}")
}

impl Drop for StatesProgress {
    fn drop(&mut self) {
        if let Display::Live(bar) = &self.display {
            bar.finish_and_clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Work skipped (an entry checked before) leaves the total, so the pace is the work's.
    #[test]
    fn skipped_work_leaves_the_total() {
        let progress = StatesProgress::with_total("positions verified", 4);
        progress.skip();
        progress.skip();
        assert_eq!(progress.total(), Some(2));
        assert_eq!(
            plain_line(
                "",
                "positions verified",
                1,
                progress.total(),
                Duration::from_secs(60)
            ),
            "1/2 positions verified (50%), about 60 s left"
        );
        let none_left = StatesProgress::with_total("positions verified", 0);
        none_left.skip();
        assert_eq!(none_left.total(), Some(0));
        let counting = StatesProgress::counting("positions listed");
        counting.skip();
        assert_eq!(counting.total(), None);
    }

    #[test]
    fn plain_lines_count_and_estimate_the_time_left() {
        assert_eq!(
            plain_line("states ", "visited", 1234, None, Duration::from_secs(10)),
            "1234 states visited"
        );
        // A quarter done in 10 s: 30 s to go at that pace.
        assert_eq!(
            plain_line("", "games played", 250, Some(1000), Duration::from_secs(10)),
            "250/1000 games played (25%), about 30 s left"
        );
        assert_eq!(
            plain_line("", "games played", 0, Some(1000), Duration::from_secs(10)),
            "0/1000 games played (0%), time left unknown"
        );
        assert_eq!(
            plain_line(
                "",
                "games played",
                u64::MAX,
                Some(u64::MAX),
                Duration::from_secs(1)
            ),
            format!("{0}/{0} games played (100%), about 0 s left", u64::MAX)
        );
        // A count of other things than states names them alone.
        assert_eq!(
            plain_line("", "positions listed", 16384, None, Duration::from_secs(1)),
            "16384 positions listed"
        );
    }
}
