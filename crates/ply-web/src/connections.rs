//! Connections, counted and bounded: the accept loop serves each connection with hyper's HTTP/1
//! (a timeout on reading a request's headers, which also closes a kept-alive connection idle that
//! long; headers of at most [`MAX_HEADER_BYTES`]) and keeps a register of the open ones. At the cap,
//! a new connection takes the place of the oldest idle one (no request in progress: never sent one,
//! or between two), so that thousands of idle or half-sent connections never keep a real request
//! out. When the system has no file descriptor left, the oldest idle connection is closed and the
//! loop waits a moment instead of spinning. hyper's own answers to requests it cannot read are given
//! a JSON body on their way out ([`JsonErrors`]).

use crate::http_errors::JsonErrors;
use crate::limits::MAX_HEADER_BYTES;
use axum::extract::Request;
use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::Notify;
use tower::Service;

/// How the connection layer is set up (`ply serve` options).
#[derive(Debug, Clone, Copy)]
pub struct ConnectionLimits {
    /// Most connections open at once.
    pub max_connections: usize,
    /// Time to send a request's headers, counted from the connection's opening or from the end of
    /// the previous answer (so also the idle keep-alive timeout).
    pub header_timeout: Duration,
}

/// One open connection, as the register sees it.
struct Open {
    /// Requests in progress on it.
    busy: AtomicUsize,
    /// Told to close.
    close: Notify,
}

/// The open connections, oldest first.
#[derive(Default)]
struct Register {
    open: Mutex<BTreeMap<u64, Arc<Open>>>,
    next: AtomicUsize,
}

impl Register {
    fn lock(&self) -> MutexGuard<'_, BTreeMap<u64, Arc<Open>>> {
        self.open.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Tells the oldest idle connection to close and forgets it; false when none is idle.
    fn close_oldest_idle(open: &mut BTreeMap<u64, Arc<Open>>) -> bool {
        let idle = open
            .iter()
            .find(|(_, c)| c.busy.load(Ordering::Relaxed) == 0)
            .map(|(&id, _)| id);
        match idle.and_then(|id| open.remove(&id)) {
            Some(connection) => {
                connection.close.notify_one();
                true
            }
            None => false,
        }
    }

    /// Registers a new connection within `cap` (making room by closing the oldest idle one); `None`
    /// when every open connection is busy.
    fn admit(&self, cap: usize) -> Option<(u64, Arc<Open>)> {
        let mut open = self.lock();
        if open.len() >= cap && !Self::close_oldest_idle(&mut open) {
            return None;
        }
        let id = self.next.fetch_add(1, Ordering::Relaxed) as u64;
        let connection = Arc::new(Open {
            busy: AtomicUsize::new(0),
            close: Notify::new(),
        });
        open.insert(id, connection.clone());
        Some((id, connection))
    }

    fn leave(&self, id: u64) {
        self.lock().remove(&id);
    }
}

/// Serves `router` on `listener` within `limits` until `shutdown` completes.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    limits: ConnectionLimits,
    shutdown: impl std::future::Future<Output = ()>,
) {
    let register = Arc::new(Register::default());
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .max_buf_size(MAX_HEADER_BYTES)
        .keep_alive(true);
    tokio::pin!(shutdown);
    loop {
        let accepted = tokio::select! {
            () = &mut shutdown => return,
            accepted = listener.accept() => accepted,
        };
        let stream = match accepted {
            Ok((stream, _)) => stream,
            Err(e) => {
                // Out of file descriptors (or another passing fault): make room, and breathe.
                Register::close_oldest_idle(&mut register.lock());
                if matches!(e.raw_os_error(), Some(libc::EMFILE | libc::ENFILE)) {
                    tokio::time::sleep(Duration::from_millis(10)).await;
                }
                continue;
            }
        };
        let Some((id, connection)) = register.admit(limits.max_connections) else {
            continue; // every connection busy: this one is closed unanswered
        };
        let router = router.clone();
        let http = http.clone();
        let register = register.clone();
        tokio::spawn(async move {
            let counted = connection.clone();
            let service = hyper::service::service_fn(move |request: Request<Incoming>| {
                let mut router = router.clone();
                let counted = counted.clone();
                counted.busy.fetch_add(1, Ordering::Relaxed);
                async move {
                    let answer = router.call(request).await;
                    counted.busy.fetch_sub(1, Ordering::Relaxed);
                    answer
                }
            });
            let served = http.serve_connection(TokioIo::new(JsonErrors::new(stream)), service);
            tokio::pin!(served);
            tokio::select! {
                _ = served.as_mut() => {}
                () = connection.close.notified() => {
                    served.as_mut().graceful_shutdown();
                    let _ = served.await;
                }
            }
            register.leave(id);
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn at_the_cap_the_oldest_idle_connection_makes_room() {
        let register = Register::default();
        let (first, a) = register.admit(2).unwrap();
        let (_, b) = register.admit(2).unwrap();
        b.busy.fetch_add(1, Ordering::Relaxed);
        // At the cap: the idle first one goes, the busy second one stays.
        let (third, _) = register.admit(2).unwrap();
        assert!(register.lock().contains_key(&third));
        assert!(!register.lock().contains_key(&first));
        assert_eq!(register.lock().len(), 2);
        drop(a);
        // Now the third is idle and the second busy: the third makes room next.
        assert!(register.admit(2).is_some());
        assert!(!register.lock().contains_key(&third));
        // All busy: a new one is refused.
        for c in register.lock().values() {
            c.busy.fetch_add(1, Ordering::Relaxed);
        }
        assert!(register.admit(2).is_none());
    }
}
