//! What one request may cost, checked before any work starts, and the gate every solve passes:
//! a bounded number at a time (the others queue) and a time limit per request.

use crate::error::ApiError;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::Semaphore;

/// Largest request body (1 MiB); larger bodies get 413.
pub const MAX_BODY: usize = 1 << 20;
/// Most sums in one dice-race list.
pub const MAX_PICKS: usize = 40;
/// Most lists a `best` or `equilibrium` search may go through.
pub const MAX_LISTS: u128 = 5_000;
/// Largest MagicBoard side the server solves or generates.
pub const MAX_MAGIC_SIZE: usize = 200;
/// Memory one MagicBoard solve may use.
pub const MAGIC_MEMORY: u64 = 64 << 20;
/// Time one request may take, queueing included (the default of `ply serve --time-limit`).
pub const TIME_LIMIT: Duration = Duration::from_secs(10);
/// Time the player thinks per move unless a request says less (the default of `ply serve --think`).
pub const THINK: Duration = Duration::from_secs(3);
/// Memory the server's solvers may take in all (the default of `ply serve --memory`, or what the
/// system allows if less).
pub const MEMORY: u64 = 2 << 30;
/// Time a solve that stops at its deadline is given to hand in what it proved.
pub const GRACE: Duration = Duration::from_secs(2);

/// How a server is set up: what `ply serve`'s options say.
#[derive(Debug, Clone, Copy)]
pub struct Settings {
    /// Memory the solvers may take in all: a quarter for each answer's tables (two at once), half
    /// for the search memories kept between requests.
    pub memory: u64,
    /// Time one request may take, queueing included.
    pub time_limit: Duration,
    /// Time the player thinks per move by default.
    pub think: Duration,
    /// Solves run at once.
    pub solvers: usize,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            memory: MEMORY,
            time_limit: TIME_LIMIT,
            think: THINK,
            solvers: 2,
        }
    }
}

/// The limits as the page reads them (`GET /api/limits`), so it asks only for what the server does.
#[derive(serde::Serialize)]
pub struct Limits {
    /// [`MAX_BODY`].
    pub max_body: usize,
    /// The memory the solvers may take in all, in bytes.
    pub memory_bytes: u64,
    /// Free edges up to which every dots position is answered exactly within the time limit (by a
    /// table); most positions of a few more are proved by the search.
    pub dots_exact_free: u32,
    /// [`MAX_PICKS`].
    pub max_picks: usize,
    /// [`MAX_LISTS`].
    pub max_lists: u128,
    /// [`MAX_MAGIC_SIZE`].
    pub max_magic_size: usize,
    /// The time limit of one request, in seconds.
    pub time_limit_seconds: f64,
    /// The player's time to think per move, in seconds.
    pub think_seconds: f64,
}

impl Limits {
    /// The limits a server with `settings` applies, answering dots with `policy`.
    pub fn of(settings: &Settings, policy: &ply::games::dots::policy::Policy) -> Self {
        Limits {
            max_body: MAX_BODY,
            memory_bytes: settings.memory,
            dots_exact_free: policy.exact_free(),
            max_picks: MAX_PICKS,
            max_lists: MAX_LISTS,
            max_magic_size: MAX_MAGIC_SIZE,
            time_limit_seconds: settings.time_limit.as_secs_f64(),
            think_seconds: settings.think.as_secs_f64(),
        }
    }
}

/// Bounds concurrent solves and times them out.
#[derive(Clone)]
pub struct Gate {
    permits: Arc<Semaphore>,
    limit: Duration,
}

/// What a solve took, for the `Server-Timing` header.
pub struct Timed<T> {
    /// The answer.
    pub value: T,
    /// Time spent solving (not queueing).
    pub solve: Duration,
}

impl Gate {
    /// A gate letting `solvers` solves run at once, each request answered within `limit`.
    pub fn new(solvers: usize, limit: Duration) -> Self {
        Gate {
            permits: Arc::new(Semaphore::new(solvers.max(1))),
            limit,
        }
    }

    /// The moment a request arriving now must be answered by.
    pub fn deadline(&self) -> tokio::time::Instant {
        tokio::time::Instant::now() + self.limit
    }

    /// The answer when a request's `deadline` passed: 422, naming the limit.
    pub fn too_long(&self) -> ApiError {
        ApiError::over_budget(format!(
            "the request took over {} s, the server's limit for one request",
            self.limit.as_secs_f64()
        ))
    }

    /// Runs `work` on a blocking thread once a permit is free, telling it the time left before
    /// `deadline` and a flag raised when nobody waits for it any more (the client left, or the
    /// deadline passed): a solve that honours them hands in what it proved in time. 422 when the
    /// deadline passes while queueing, or [`GRACE`] after it while solving.
    pub async fn run<T: Send + 'static>(
        &self,
        deadline: tokio::time::Instant,
        work: impl FnOnce(Duration, &Arc<AtomicBool>) -> Result<T, ApiError> + Send + 'static,
    ) -> Result<Timed<T>, ApiError> {
        let permits = self.permits.clone();
        let cancel = Arc::new(AtomicBool::new(false));
        let _raise = RaiseOnDrop(cancel.clone());
        let job = async move {
            let permit = permits
                .acquire_owned()
                .await
                .map_err(|_| ApiError::over_budget("the server is shutting down"))?;
            let left = deadline.saturating_duration_since(tokio::time::Instant::now());
            tokio::task::spawn_blocking(move || {
                let _permit = permit;
                let started = Instant::now();
                let value = work(left, &cancel)?;
                Ok(Timed {
                    value,
                    solve: started.elapsed(),
                })
            })
            .await
            .map_err(|e| ApiError {
                status: axum::http::StatusCode::INTERNAL_SERVER_ERROR,
                message: format!("the solve failed: {e}"),
            })?
        };
        tokio::time::timeout_at(deadline + GRACE, job)
            .await
            .unwrap_or_else(|_| Err(self.too_long()))
    }
}

/// Raises its flag when dropped: the request it belongs to has ended, answered or not.
struct RaiseOnDrop(Arc<AtomicBool>);

impl Drop for RaiseOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}
