//! What one request may cost, checked before any work starts, and the gate every solve passes:
//! a bounded number at a time (the others queue) and a time limit per request.

use crate::error::ApiError;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::Semaphore;

/// Largest request body (1 MiB); larger bodies get 413.
pub const MAX_BODY: usize = 1 << 20;
/// Most edges of a board whose whole table the server builds (2^24 states, 16 MiB, shared by all
/// requests for that board).
pub const MAX_TABLE_EDGES: u32 = 24;
/// Most free edges a memo search may start from (at most 2^20 states).
pub const MAX_MEMO_FREE: u32 = 20;
/// Most free edges plain recursion may start from: it revisits states (12 free edges, seed 004's
/// puzzle, already visit 1.3 billion), so only small positions, well under a second.
pub const MAX_RECURSION_FREE: u32 = 9;
/// Most sums in one dice-race list.
pub const MAX_PICKS: usize = 40;
/// Most lists a `best` or `equilibrium` search may go through.
pub const MAX_LISTS: u128 = 5_000;
/// Largest MagicBoard side the server solves or generates.
pub const MAX_MAGIC_SIZE: usize = 200;
/// Memory one MagicBoard solve may use.
pub const MAGIC_MEMORY: u64 = 64 << 20;
/// Time one request may take, queueing included.
pub const TIME_LIMIT: Duration = Duration::from_secs(10);

/// The limits as the page reads them (`GET /api/limits`), so it asks only for what the server does.
#[derive(serde::Serialize)]
pub struct Limits {
    /// [`MAX_BODY`].
    pub max_body: usize,
    /// [`MAX_TABLE_EDGES`].
    pub max_table_edges: u32,
    /// [`MAX_MEMO_FREE`].
    pub max_memo_free: u32,
    /// [`MAX_RECURSION_FREE`].
    pub max_recursion_free: u32,
    /// [`MAX_PICKS`].
    pub max_picks: usize,
    /// [`MAX_LISTS`].
    pub max_lists: u128,
    /// [`MAX_MAGIC_SIZE`].
    pub max_magic_size: usize,
    /// [`TIME_LIMIT`] in seconds.
    pub time_limit_seconds: u64,
}

impl Limits {
    /// The limits this server applies.
    pub fn current() -> Self {
        Limits {
            max_body: MAX_BODY,
            max_table_edges: MAX_TABLE_EDGES,
            max_memo_free: MAX_MEMO_FREE,
            max_recursion_free: MAX_RECURSION_FREE,
            max_picks: MAX_PICKS,
            max_lists: MAX_LISTS,
            max_magic_size: MAX_MAGIC_SIZE,
            time_limit_seconds: TIME_LIMIT.as_secs(),
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
            self.limit.as_secs()
        ))
    }

    /// Runs `work` on a blocking thread once a permit is free; 422 when `deadline` passes first.
    /// (A solve past the limit finishes in the background holding its permit, so the server never has
    /// more than `solvers` solves running.)
    pub async fn run<T: Send + 'static>(
        &self,
        deadline: tokio::time::Instant,
        work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
    ) -> Result<Timed<T>, ApiError> {
        let permits = self.permits.clone();
        let job = async move {
            let permit = permits
                .acquire_owned()
                .await
                .map_err(|_| ApiError::over_budget("the server is shutting down"))?;
            tokio::task::spawn_blocking(move || {
                let _permit = permit;
                let started = Instant::now();
                let value = work()?;
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
        tokio::time::timeout_at(deadline, job)
            .await
            .unwrap_or_else(|_| Err(self.too_long()))
    }
}
