//! Pondering: while the user thinks, `ply play` proves what it can of every move of the user's
//! position ([`prove_moves`], in a thread of its own, with the search memory kept for the game), so
//! that the grade of the user's move is mostly made before the move comes. The analysis runs at
//! most the time to think; once the move comes it may take only the grade's share of the turn
//! ([`plysolve::games::dots::player::TurnClock::grade_until`]) and is then cut short with what it
//! proved. A hint shows the same analysis, waiting for its end.

use crate::progress::StatesProgress;
use plysolve::engine::scored::SolveError;
use plysolve::games::dots::answer::{prove_moves, Hooks};
use plysolve::games::dots::kept::Kept;
use plysolve::games::dots::policy::Policy;
use plysolve::games::dots::report::DotsReport;
use plysolve::games::dots::request::{Detail, DotsQuery};
use plysolve::games::dots::Position;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How often a wait for the analysis updates its spinner.
const SPIN_EVERY: Duration = Duration::from_millis(100);

/// The analysis of the user's position, running or done.
pub struct Ponder {
    /// The position analysed.
    position: Position,
    /// When the analysis started.
    pub started: Instant,
    /// Raised to cut the analysis short.
    cancel: Arc<AtomicBool>,
    /// Nodes searched so far, for a spinner.
    nodes: Arc<AtomicU64>,
    /// Where the analysis sends its report.
    result: Receiver<Result<DotsReport, SolveError>>,
    /// The report, once received.
    done: Option<Result<DotsReport, SolveError>>,
    /// The analysis's thread, joined when this is dropped: it holds the game's books, which
    /// close (and remove SQLite's `-wal` and `-shm` files beside a user's book) only after it.
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Ponder {
    /// Starts proving every move of `position` on `query`'s board under `policy` (its time: the
    /// time to think), with what `kept` holds.
    pub fn start(query: DotsQuery, policy: Policy, kept: Arc<Kept>) -> Self {
        let position = query.position.clone();
        let cancel = Arc::new(AtomicBool::new(false));
        let nodes = Arc::new(AtomicU64::new(0));
        let (send, result) = channel();
        let (flag, count) = (cancel.clone(), nodes.clone());
        let thread = std::thread::spawn(move || {
            let mut query = query;
            query.detail = Detail::Moves;
            let update = |n| count.store(n, Ordering::Relaxed);
            let hooks = Hooks {
                progress: Some(&update),
                cancel: Some(&flag),
                ..Hooks::default()
            };
            // The game may have gone on without it (undo, quit): then no one listens.
            let _ = send.send(prove_moves(&query, &policy, Some(&kept), hooks));
        });
        Ponder {
            position,
            started: Instant::now(),
            cancel,
            nodes,
            result,
            done: None,
            thread: Some(thread),
        }
    }

    /// Whether this is the analysis of `position`.
    pub fn is_of(&self, position: &Position) -> bool {
        self.position == *position
    }

    /// The report: at once when the analysis is done, else as soon as it is, but cut short at
    /// `until` (with what it proved by then); a spinner saying `why` meanwhile.
    pub fn report_by(
        &mut self,
        until: Instant,
        why: &'static str,
    ) -> Result<DotsReport, SolveError> {
        if self.done.is_none() {
            let progress = StatesProgress::new(why);
            let received = loop {
                let left = until.saturating_duration_since(Instant::now());
                match self.result.recv_timeout(left.min(SPIN_EVERY)) {
                    Ok(report) => break report,
                    Err(RecvTimeoutError::Timeout) if left > SPIN_EVERY => {
                        progress.update(self.nodes.load(Ordering::Relaxed));
                    }
                    Err(RecvTimeoutError::Timeout) => {
                        // Cut short: the analysis stops at once with what it proved.
                        self.cancel.store(true, Ordering::Relaxed);
                        break self.result.recv().expect("the analysis always reports");
                    }
                    Err(RecvTimeoutError::Disconnected) => {
                        unreachable!("the analysis reports before it ends")
                    }
                }
            };
            self.done = Some(received);
        }
        self.done.clone().expect("received above")
    }

    /// Stops the analysis and waits until it has stopped (so that it takes no time from the next).
    pub fn stop(self) {
        drop(self);
    }
}

impl Drop for Ponder {
    /// Stops the analysis and waits for its thread to end (at once: it checks its cancel flag
    /// every few thousand nodes), so nothing it holds outlives the game.
    fn drop(&mut self) {
        self.cancel.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}
