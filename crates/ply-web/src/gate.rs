//! The gate expensive solves pass, so that cheap work never waits behind them: a request is costed
//! from its checked shape ([`Cost`]); cheap work is answered at once where it arrives, and only
//! expensive work takes one of a few solver permits. Expensive solves run in a pool of their own
//! that leaves one core to the cheap work (on a machine of two cores or more), so that while two
//! expensive solves run, cheap answers still come at once. Each request has a time limit; its work
//! is told the time left and a cancel flag.

use crate::error::ApiError;
use crate::limits::GRACE;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::Semaphore;

/// What a solve is expected to cost, estimated from its checked request before it runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cost {
    /// Well under a few milliseconds: answered at once where it arrives.
    Cheap,
    /// Anything more: a solver permit, in the solvers' pool.
    Expensive,
}

/// The solver permits, their pool and the time limit.
#[derive(Clone)]
pub struct Gate {
    permits: Arc<Semaphore>,
    /// Where expensive solves run, their parallel parts too.
    pool: Arc<rayon::ThreadPool>,
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
    /// A gate letting `solvers` expensive solves run at once, on a pool of one thread fewer than
    /// `cores` (at least one), each request answered within `limit`.
    pub fn new(solvers: usize, cores: usize, limit: Duration) -> Self {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(cores.saturating_sub(1).max(1))
            .thread_name(|i| format!("ply-solver-{i}"))
            .build()
            .expect("the solver threads start");
        Gate {
            permits: Arc::new(Semaphore::new(solvers.max(1))),
            pool: Arc::new(pool),
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

    /// Runs `work` in the solvers' pool once a permit is free, telling it the time left before
    /// `deadline` and `cancel`, a flag raised when nobody waits for it any more (the client left):
    /// a solve that honours them hands in what it proved in time. 422 when the deadline passes
    /// while queueing, or [`GRACE`] after it while solving.
    pub async fn run<T: Send + 'static>(
        &self,
        deadline: tokio::time::Instant,
        cancel: Arc<AtomicBool>,
        work: impl FnOnce(Duration, &Arc<AtomicBool>) -> Result<T, ApiError> + Send + 'static,
    ) -> Result<Timed<T>, ApiError> {
        let permits = self.permits.clone();
        let pool = self.pool.clone();
        let job = async move {
            let permit = permits
                .acquire_owned()
                .await
                .map_err(|_| ApiError::over_budget("the server is shutting down"))?;
            let left = deadline.saturating_duration_since(tokio::time::Instant::now());
            tokio::task::spawn_blocking(move || {
                let _permit = permit;
                let started = Instant::now();
                let value = pool.install(|| work(left, &cancel))?;
                Ok(Timed {
                    value,
                    solve: started.elapsed(),
                })
            })
            .await
            .map_err(|e| {
                ApiError::status(
                    axum::http::StatusCode::INTERNAL_SERVER_ERROR,
                    format!("the solve failed: {e}"),
                )
            })?
        };
        tokio::time::timeout_at(deadline + GRACE, job)
            .await
            .unwrap_or_else(|_| Err(self.too_long()))
    }
}
