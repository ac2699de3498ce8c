//! Request bodies, read whole by the [`guard`](crate::guard) before any handler sees them, within
//! three limits that bound how long a body may hold its connection, and counted against two caps
//! that bound the memory bodies take:
//!
//! - the **piece timeout** (`--body-timeout`): nothing for that long ends the body;
//! - the **least rate** (`--body-rate`): the body's n-th byte must have come within
//!   [`RATE_GRACE`] + n / rate of its start, so a body trickled in a byte at a time is cut after
//!   about the grace, however often its bytes come;
//! - the **deadline** (`--body-deadline`): the whole body within that long of its start.
//!
//! Each piece is awaited under a tokio timeout at the earliest of the three; the one that fires is
//! named in the 408. The bytes a body holds are counted as they arrive (a KiB at a time), not as its
//! `Content-Length` declares, against the cap on all bodies in flight (`--body-bytes`) and the cap
//! on one client address's (`--body-bytes-per-client`), and held until the answer is ready: slow
//! clients hold only what they sent, and one address cannot take the whole cap. A body that finds
//! no room gives back what it held at once, is read to its end and dropped (so that its client is
//! done sending and sees the answer), then refused with 503 and `Retry-After`.

use crate::error::ApiError;
use crate::limits::MAX_BODY;
use axum::body::{Body, Bytes};
use axum::http::StatusCode;
use http_body_util::BodyExt;
use plysolve::engine::util::halt::millis_text;
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::time::Instant;

/// The time a body's first byte may take at the least rate: the rate is counted from this long
/// after the body's start, so that a small body sent a moment after its headers is never cut.
pub const RATE_GRACE: Duration = Duration::from_secs(1);

/// How bodies are read (`ply serve` options).
#[derive(Debug, Clone, Copy)]
pub struct BodyLimits {
    /// Longest wait for the next piece.
    pub piece_timeout: Duration,
    /// Least bytes a second, counted from [`RATE_GRACE`] after the body's start.
    pub rate: u64,
    /// Time for the whole body.
    pub deadline: Duration,
    /// Bytes of all bodies in flight at once.
    pub total_bytes: u64,
    /// Bytes of one client address's bodies in flight at once.
    pub client_bytes: u64,
}

/// Permits (KiB) that `bytes` take.
fn kib(bytes: u64) -> u32 {
    bytes.div_ceil(1024).min(u32::MAX as u64) as u32
}

/// The bytes of bodies in flight: one permit a KiB in all, and a count of KiB for each client
/// address.
#[derive(Clone)]
pub struct InFlight {
    limits: BodyLimits,
    total: Arc<Semaphore>,
    total_kib: u32,
    clients: Arc<Mutex<HashMap<IpAddr, u32>>>,
    client_kib: u32,
}

impl InFlight {
    /// Bodies read within `limits` (each cap at least one body of the largest size).
    pub fn new(limits: BodyLimits) -> Self {
        let total_kib = kib(limits.total_bytes).max(kib(MAX_BODY as u64));
        let client_kib = kib(limits.client_bytes).clamp(kib(MAX_BODY as u64), total_kib);
        InFlight {
            limits,
            total: Arc::new(Semaphore::new(total_kib as usize)),
            total_kib,
            clients: Arc::new(Mutex::new(HashMap::new())),
            client_kib,
        }
    }

    fn clients(&self) -> MutexGuard<'_, HashMap<IpAddr, u32>> {
        self.clients.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The 503 of a body that found no room: `whose` cap (`None` for the total) was full.
    fn busy(&self, whose: Option<IpAddr>) -> ApiError {
        let text = match whose {
            None => format!(
                "the server is reading {} KiB of request bodies, its limit; try again in a second",
                self.total_kib
            ),
            Some(ip) => format!(
                "the server is reading {} KiB of request bodies from {ip}, its limit for one client; try again in a second",
                self.client_kib
            ),
        };
        ApiError::status(StatusCode::SERVICE_UNAVAILABLE, text)
    }

    /// Reads `body`, sent by `client`, whole within the limits; its bytes and what they hold
    /// against the caps until dropped, or the refusal to answer.
    pub async fn read(
        &self,
        client: Option<IpAddr>,
        body: Body,
    ) -> Result<(Bytes, Held), ApiError> {
        let mut held = Held {
            permits: None,
            kib: 0,
            client,
            in_flight: self.clone(),
        };
        let mut body = body;
        let start = Instant::now();
        let mut last = start;
        let mut received = 0u64;
        let mut kept = Vec::new();
        let mut refused = None;
        loop {
            let (due, late) = self.due(start, last, received);
            let frame = match tokio::time::timeout_at(due, body.frame()).await {
                Err(_) => return Err(late),
                Ok(None) => break,
                Ok(Some(Err(e))) => {
                    return Err(ApiError::status(
                        StatusCode::BAD_REQUEST,
                        format!("the request body could not be read: {e}"),
                    ))
                }
                Ok(Some(Ok(frame))) => frame,
            };
            let Ok(piece) = frame.into_data() else {
                continue; // trailers: nothing to keep
            };
            received += piece.len() as u64;
            last = Instant::now();
            if received > MAX_BODY as u64 {
                return Err(ApiError::body_too_large());
            }
            if refused.is_none() {
                match held.grow(received) {
                    Ok(()) => kept.extend_from_slice(&piece),
                    Err(busy) => {
                        // Nothing more is kept: what it held goes back at once, not after the
                        // rest of it has been read and dropped.
                        refused = Some(busy);
                        kept = Vec::new();
                        held.release();
                    }
                }
            }
        }
        match refused {
            Some(busy) => Err(busy),
            None => Ok((Bytes::from(kept), held)),
        }
    }

    /// When the next piece of a body that started at `start`, had its last piece at `last` and
    /// `received` bytes so far is due at the latest, and the refusal if it has not come by then.
    fn due(&self, start: Instant, last: Instant, received: u64) -> (Instant, ApiError) {
        let limits = &self.limits;
        let ms = |d: Duration| millis_text(d.as_millis() as u64);
        let late = |text: String| ApiError::status(StatusCode::REQUEST_TIMEOUT, text);
        let by_rate = Duration::from_secs_f64((received + 1) as f64 / limits.rate.max(1) as f64);
        let candidates = [
            (
                last + limits.piece_timeout,
                format!(
                    "the request body stopped coming: nothing for {}",
                    ms(limits.piece_timeout)
                ),
            ),
            (
                start + RATE_GRACE.saturating_add(by_rate),
                format!(
                    "the request body came slower than {} bytes a second, the server's least",
                    limits.rate
                ),
            ),
            (
                start + limits.deadline,
                format!(
                    "the request body took over {}, the server's limit",
                    ms(limits.deadline)
                ),
            ),
        ];
        let (due, text) = candidates
            .into_iter()
            .min_by_key(|(due, _)| *due)
            .expect("three candidates");
        (due, late(text))
    }
}

/// What one request's body holds against the caps: released when dropped (after the answer).
pub struct Held {
    permits: Option<OwnedSemaphorePermit>,
    kib: u32,
    client: Option<IpAddr>,
    in_flight: InFlight,
}

impl Held {
    /// Holds room for `bytes` in all (more than held so far), or the refusal when either cap is full.
    fn grow(&mut self, bytes: u64) -> Result<(), ApiError> {
        let more = kib(bytes).saturating_sub(self.kib);
        if more == 0 {
            return Ok(());
        }
        let in_flight = &self.in_flight;
        if let Some(ip) = self.client {
            let mut clients = in_flight.clients();
            let count = clients.entry(ip).or_default();
            if *count + more > in_flight.client_kib {
                return Err(in_flight.busy(Some(ip)));
            }
            *count += more;
        }
        let Ok(permits) = in_flight.total.clone().try_acquire_many_owned(more) else {
            self.release_client(more);
            return Err(in_flight.busy(None));
        };
        match &mut self.permits {
            Some(held) => held.merge(permits),
            None => self.permits = Some(permits),
        }
        self.kib += more;
        Ok(())
    }

    /// Gives back everything held.
    fn release(&mut self) {
        self.permits = None;
        self.release_client(self.kib);
        self.kib = 0;
    }

    /// Gives back `kib` of the client's count.
    fn release_client(&self, kib: u32) {
        let Some(ip) = self.client else { return };
        let mut clients = self.in_flight.clients();
        if let Some(count) = clients.get_mut(&ip) {
            *count = count.saturating_sub(kib);
            if *count == 0 {
                clients.remove(&ip);
            }
        }
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        self.release_client(self.kib);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(total: u64, client: u64) -> BodyLimits {
        BodyLimits {
            piece_timeout: Duration::from_secs(10),
            rate: 1024,
            deadline: Duration::from_secs(20),
            total_bytes: total,
            client_bytes: client,
        }
    }

    #[tokio::test]
    async fn bytes_are_held_as_they_come_per_client_and_in_all() {
        let in_flight = InFlight::new(limits(3 << 20, 2 << 20));
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let b: IpAddr = "10.0.0.2".parse().unwrap();
        let mib = vec![b'x'; 1 << 20];
        let (bytes, first) = in_flight
            .read(Some(a), Body::from(mib.clone()))
            .await
            .unwrap();
        assert_eq!(bytes.len(), 1 << 20);
        let (_, second) = in_flight
            .read(Some(a), Body::from(mib.clone()))
            .await
            .unwrap();
        // Client a holds its 2 MiB: a third of its bodies is refused, naming its cap.
        let refused = in_flight.read(Some(a), Body::from(mib.clone())).await;
        let error = refused.err().unwrap();
        assert_eq!(error.status, StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(error.message, "the server is reading 2048 KiB of request bodies from 10.0.0.1, its limit for one client; try again in a second");
        // Another client gets the last MiB of the total, then finds it full.
        let (_, third) = in_flight
            .read(Some(b), Body::from(mib.clone()))
            .await
            .unwrap();
        let error = in_flight
            .read(Some(b), Body::from("{}"))
            .await
            .err()
            .unwrap();
        assert_eq!(
            error.message,
            "the server is reading 3072 KiB of request bodies, its limit; try again in a second"
        );
        // An empty body holds nothing, and is read even with every cap full.
        let (empty, _) = in_flight.read(Some(b), Body::empty()).await.unwrap();
        assert!(empty.is_empty());
        drop((first, second, third));
        assert!(in_flight.clients().is_empty());
        assert_eq!(in_flight.total.available_permits(), 3072);
        // A body over the limit is refused as too large.
        let over = vec![b'x'; (1 << 20) + 1];
        let error = in_flight
            .read(Some(a), Body::from(over))
            .await
            .err()
            .unwrap();
        assert_eq!(error.status, StatusCode::PAYLOAD_TOO_LARGE);
    }

    #[test]
    fn the_earliest_limit_names_the_refusal() {
        let in_flight = InFlight::new(limits(1 << 20, 1 << 20));
        let start = Instant::now();
        // Nothing yet: the rate wants the first byte within the grace and a 1024th of a second.
        let (due, late) = in_flight.due(start, start, 0);
        assert_eq!(due - start, RATE_GRACE + Duration::from_nanos(976_562));
        assert_eq!(
            late.message,
            "the request body came slower than 1024 bytes a second, the server's least"
        );
        // 100 KiB in: the rate allows 100 s more, the piece timeout 10 s from the last piece.
        let (due, late) = in_flight.due(start, start, 100 << 10);
        assert_eq!(due - start, Duration::from_secs(10));
        assert_eq!(
            late.message,
            "the request body stopped coming: nothing for 10 s"
        );
        // Pieces keep coming, late in the body's time: the deadline.
        let last = start + Duration::from_secs(15);
        let (due, late) = in_flight.due(start, last, 100 << 10);
        assert_eq!(due - start, Duration::from_secs(20));
        assert_eq!(
            late.message,
            "the request body took over 20 s, the server's limit"
        );
        assert_eq!(late.status, StatusCode::REQUEST_TIMEOUT);
    }
}
