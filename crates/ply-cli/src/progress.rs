//! Progress on stderr for long solves: a live line on a terminal, a line every few seconds otherwise.

use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// A progress reporter for the engine's [`ply::engine::Progress`] callbacks.
pub struct StatesProgress {
    bar: Option<ProgressBar>,
    plain: Mutex<Instant>,
    what: &'static str,
    /// Whether the bar counts toward a known total (then it shows an ETA).
    counted: bool,
}

/// How often the plain (non-terminal) report is written.
const PLAIN_EVERY: Duration = Duration::from_secs(10);

impl StatesProgress {
    /// A reporter counting states `what` (e.g. "visited").
    pub fn new(what: &'static str) -> Self {
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = ProgressBar::new_spinner();
            bar.set_style(
                ProgressStyle::with_template("{spinner} {elapsed_precise} {msg}")
                    .expect("a valid template"),
            );
            bar.enable_steady_tick(Duration::from_millis(200));
            bar
        });
        StatesProgress {
            bar,
            plain: Mutex::new(Instant::now()),
            what,
            counted: false,
        }
    }

    /// A reporter of `total` units of work (`what`, e.g. "games simulated"): on a terminal a bar with
    /// the count and an ETA, elsewhere nothing.
    pub fn with_total(what: &'static str, total: u64) -> Self {
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = ProgressBar::new(total);
            bar.set_style(
                ProgressStyle::with_template(
                    "{elapsed_precise} [{bar:30}] {human_pos}/{human_len} {msg}, ETA {eta}",
                )
                .expect("a valid template"),
            );
            bar.set_message(what);
            bar.enable_steady_tick(Duration::from_millis(200));
            bar
        });
        StatesProgress {
            bar,
            plain: Mutex::new(Instant::now()),
            what,
            counted: true,
        }
    }

    /// Reports that `states` states have been handled.
    pub fn update(&self, states: u64) {
        if self.counted {
            if let Some(bar) = &self.bar {
                bar.set_position(states);
            }
            return;
        }
        let message = format!("{states} states {}", self.what);
        match &self.bar {
            Some(bar) => bar.set_message(message),
            None => {
                let mut last = self.plain.lock().unwrap_or_else(|e| e.into_inner());
                if last.elapsed() >= PLAIN_EVERY {
                    eprintln!("ply: {message}");
                    *last = Instant::now();
                }
            }
        }
    }
}

impl Drop for StatesProgress {
    fn drop(&mut self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
