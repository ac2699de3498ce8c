//! The gate expensive solves pass, so that cheap work never waits behind them: a request is costed
//! from its checked shape (the home's [`Cost`](plysolve::games::door::Cost)); cheap work is answered at once where it arrives, and only
//! expensive work takes one of a few solver permits. Expensive solves run in a pool of their own
//! that leaves one core to the cheap work (on a machine of two cores or more), and give way while
//! every worker of the server's runtime is busy ([`GiveWay`]): then the cheap work wants every
//! core, and the solves pause at their next check (a millisecond or so) until the workers have not
//! all been busy for 10 ms, so that while two expensive solves run, cheap answers still come at
//! once. Each request has a time limit; its work is told the time left and a cancel flag
//! ([`Control`]).

use crate::error::ApiError;
use crate::limits::GRACE;
use plysolve::engine::util::halt::{GiveWay, Halt};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::runtime::Handle;
use tokio::sync::Semaphore;

/// The solver permits, their pool and the time limit.
#[derive(Clone)]
pub struct Gate {
    permits: Arc<Semaphore>,
    /// Where expensive solves run, their parallel parts too.
    pool: Arc<rayon::ThreadPool>,
    limit: Duration,
    /// When expensive solves pause: every worker of the runtime the gate was made in is busy, or
    /// was 10 ms ago (`None` outside a runtime).
    give_way: Option<GiveWay>,
}

/// What a solve is told as it starts: the time it has left, the flag raised when nobody waits for
/// its answer any more (the client left), and, in the expensive lane, when to give way to the
/// cheap requests.
pub struct Control {
    /// Time left before the request's deadline.
    pub left: Duration,
    /// Raised when the request has ended.
    pub cancel: Arc<AtomicBool>,
    /// When to pause (expensive solves only: cheap work never waits).
    pub give_way: Option<GiveWay>,
}

impl Control {
    /// The halt of a solve under this control: the time left (named, when it comes, as `whole`,
    /// the limit the user knows), the cancel flag and the give-way.
    pub fn halt(&self, whole: Duration) -> Halt {
        let halt = Halt::after_part(self.left, whole).with_flag(self.cancel.clone());
        match &self.give_way {
            Some(give_way) => halt.with_give_way(give_way.clone()),
            None => halt,
        }
    }
}

/// Whether every worker of `runtime` is running tasks now (tokio counts each worker's parks and
/// unparks: an even count is a worker at work). The workers are as many as the cores, so then the
/// cheap requests want every core.
fn all_busy(runtime: &Handle) -> bool {
    let metrics = runtime.metrics();
    (0..metrics.num_workers()).all(|w| metrics.worker_park_unpark_count(w) % 2 == 0)
}

/// How long solves go on giving way once the workers were last seen all busy, in microseconds: in
/// a burst of cheap requests a worker is idle for moments (waiting for the next bytes), which must
/// not let the solves back onto the cores in the middle of it.
const LINGER_MICROS: u64 = 10_000;

/// When expensive solves give way: while the runtime's workers are all busy, and [`LINGER_MICROS`]
/// after they were last seen so.
struct Saturation {
    runtime: Handle,
    /// What the times below count from.
    epoch: Instant,
    /// When the workers were last seen all busy, in microseconds from `epoch` (0: never).
    last_busy: AtomicU64,
}

impl Saturation {
    /// Whether solves give way now.
    fn wanted(&self) -> bool {
        self.wanted_at(self.epoch.elapsed().as_micros() as u64 + 1)
    }

    /// Whether solves give way at `now` microseconds from the epoch (never 0).
    fn wanted_at(&self, now: u64) -> bool {
        if all_busy(&self.runtime) {
            self.last_busy.store(now, Ordering::Relaxed);
            return true;
        }
        let last = self.last_busy.load(Ordering::Relaxed);
        last > 0 && now.saturating_sub(last) < LINGER_MICROS
    }
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
    /// `cores` (at least one), each request answered within `limit`; made in a runtime, its solves
    /// give way while all the runtime's workers are busy.
    pub fn new(solvers: usize, cores: usize, limit: Duration) -> Self {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(cores.saturating_sub(1).max(1))
            .thread_name(|i| format!("ply-solver-{i}"))
            .build()
            .expect("the solver threads start");
        let give_way = Handle::try_current().ok().map(|runtime| {
            let saturation = Saturation {
                runtime,
                epoch: Instant::now(),
                last_busy: AtomicU64::new(0),
            };
            GiveWay::new(move || saturation.wanted())
        });
        Gate {
            permits: Arc::new(Semaphore::new(solvers.max(1))),
            pool: Arc::new(pool),
            limit,
            give_way,
        }
    }

    /// The moment a request arriving now must be answered by.
    pub fn deadline(&self) -> tokio::time::Instant {
        tokio::time::Instant::now() + self.limit
    }

    /// The answer when a request's `deadline` passed: 422, naming the limit.
    pub fn too_long(&self) -> ApiError {
        too_long_after(self.limit)
    }

    /// Runs `work` in the solvers' pool once a permit is free, under a [`Control`]: the time left
    /// before `deadline` when it starts there (the pool may have fewer threads than permits),
    /// `cancel` (a flag raised when nobody waits for it any more: the client left) and the gate's
    /// give-way. A solve that honours them hands in what it proved in time. 422 when the deadline
    /// passes while queueing, or [`GRACE`] after it while solving.
    pub async fn run<T: Send + 'static>(
        &self,
        deadline: tokio::time::Instant,
        cancel: Arc<AtomicBool>,
        work: impl FnOnce(&Control) -> Result<T, ApiError> + Send + 'static,
    ) -> Result<Timed<T>, ApiError> {
        let permits = self.permits.clone();
        let pool = self.pool.clone();
        let give_way = self.give_way.clone();
        let limit = self.limit;
        let job = async move {
            let permit = permits
                .acquire_owned()
                .await
                .map_err(|_| ApiError::over_budget("the server is shutting down"))?;
            let deadline = deadline.into_std();
            tokio::task::spawn_blocking(move || {
                let _permit = permit;
                // Counted from the solve's start in the pool, where it may have waited for another.
                pool.install(|| {
                    let started = Instant::now();
                    // Its whole time spent waiting: refused as any request out of time is, not
                    // by the work's own estimate against no time at all.
                    if started >= deadline {
                        return Err(too_long_after(limit));
                    }
                    let control = Control {
                        left: deadline.saturating_duration_since(started),
                        cancel,
                        give_way,
                    };
                    let value = work(&control)?;
                    Ok(Timed {
                        value,
                        solve: started.elapsed(),
                    })
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

/// The answer to a request that took longer than `limit`: 422, naming the limit.
fn too_long_after(limit: Duration) -> ApiError {
    ApiError::over_budget(format!(
        "the request took over {} s, the server's limit for one request",
        limit.as_secs_f64()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solves_give_way_while_every_worker_is_busy() {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .build()
            .unwrap();
        // A task on the only worker: that worker is busy.
        let busy = runtime.block_on(async {
            tokio::spawn(async { all_busy(&Handle::current()) })
                .await
                .unwrap()
        });
        assert!(busy);
        // With nothing to do the worker parks, and solves go on.
        let handle = runtime.handle().clone();
        let idle = (0..2000).any(|_| {
            std::thread::sleep(Duration::from_millis(5));
            !all_busy(&handle)
        });
        assert!(idle);
        // But only some time after the workers were last seen all busy.
        let saturation = Saturation {
            runtime: handle,
            epoch: Instant::now(),
            last_busy: AtomicU64::new(0),
        };
        assert!(!saturation.wanted_at(1));
        saturation.last_busy.store(1_000, Ordering::Relaxed);
        assert!(saturation.wanted_at(1_000 + LINGER_MICROS - 1));
        assert!(!saturation.wanted_at(1_000 + LINGER_MICROS));
        // A gate made in the runtime gives way; one made outside any runtime never does.
        let gate = runtime.block_on(async { Gate::new(1, 2, Duration::from_secs(1)) });
        assert!(gate.give_way.is_some());
        assert!(Gate::new(1, 2, Duration::from_secs(1)).give_way.is_none());
    }

    #[test]
    fn a_request_whose_time_ran_out_in_the_queue_is_refused_as_out_of_time() {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_time()
            .build()
            .unwrap();
        let (first, second) = runtime.block_on(async {
            let gate = Arc::new(Gate::new(1, 2, Duration::from_millis(300)));
            // The only permit held past the second request's deadline (but not past its grace).
            let holder = gate.clone();
            let first = tokio::spawn(async move {
                let deadline = holder.deadline();
                holder
                    .run(deadline, Arc::new(AtomicBool::new(false)), |_| {
                        std::thread::sleep(Duration::from_millis(400));
                        Ok(1)
                    })
                    .await
            });
            tokio::time::sleep(Duration::from_millis(50)).await;
            let deadline = tokio::time::Instant::now() + Duration::from_millis(100);
            let second = gate
                .run(deadline, Arc::new(AtomicBool::new(false)), |control| {
                    // The work's own refusal, which would name a limit of no time at all.
                    Err::<u32, _>(ApiError::over_budget(format!("left {:?}", control.left)))
                })
                .await;
            (first.await.unwrap(), second)
        });
        assert_eq!(first.unwrap().value, 1);
        let refused = second.err().unwrap();
        assert_eq!(refused.status, axum::http::StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(
            refused.message,
            "the request took over 0.3 s, the server's limit for one request"
        );
    }
}
