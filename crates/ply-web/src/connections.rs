//! Connections, counted and bounded: the accept loop (on a listener with a deep backlog:
//! [`listen`]) serves each connection with hyper's HTTP/1 (a timeout on reading a request's
//! headers, which also closes a kept-alive connection idle that long; headers of at most
//! [`MAX_HEADER_BYTES`]; half-closed clients answered: [`half_close`]) and keeps a register of the
//! open ones, each with its client's address and its stage (idle, receiving a body, answering). At
//! the cap, a new connection takes the place of one that is not answering: of the client address
//! that holds the most connections, an idle one before one still receiving its body, the oldest
//! first. So thousands of idle, half-sent or trickling connections never keep a real request out,
//! and a flood from one address makes room from its own connections, not from others'; there is no
//! cap per address (behind a proxy every client is one address, and a burst of a thousand from one
//! machine is served whole). When the system has no file descriptor left, one connection is closed
//! the same way and the loop waits a moment instead of spinning. hyper's own answers to requests it
//! cannot read are given a JSON body on their way out ([`JsonErrors`]).

use crate::half_close::{self, Shared};
use crate::http_errors::JsonErrors;
use crate::limits::{BACKLOG, MAX_HEADER_BYTES};
use axum::extract::{ConnectInfo, Request};
use axum::http::{StatusCode, Version};
use axum::response::IntoResponse;
use axum::Router;
use hyper::body::{Body as _, Incoming};
use hyper_util::rt::{TokioIo, TokioTimer};
use std::collections::{BTreeMap, HashMap};
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use tokio::net::{TcpListener, TcpStream};
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

/// No request in progress: never sent one, or between two.
const IDLE: u8 = 0;
/// A request in, its body still coming.
const RECEIVING: u8 = 1;
/// A request in whole, its answer being made.
const ANSWERING: u8 = 2;

/// One open connection, as the register sees it.
struct Open {
    /// Its client's address.
    client: IpAddr,
    /// [`IDLE`], [`RECEIVING`] or [`ANSWERING`].
    stage: AtomicU8,
    /// Told when its request's body is in.
    answering: Notify,
    /// Told to close.
    close: Notify,
}

/// A request's handle on its connection, in the request's extensions: the guard says through it
/// when the body is in, so that a connection still receiving a body can make room at the cap and a
/// half-closed one is probed only once its body is read.
#[derive(Clone)]
pub struct Stage(Arc<Open>);

impl Stage {
    /// The request's body is in: its answer is being made.
    pub fn body_read(&self) {
        self.0.stage.store(ANSWERING, Ordering::Relaxed);
        self.0.answering.notify_one();
    }

    /// Waits until the request's body is in.
    async fn answering(&self) {
        if self.0.stage.load(Ordering::Relaxed) != ANSWERING {
            self.0.answering.notified().await;
        }
    }
}

/// The open connections, oldest first, and how many each client address holds.
#[derive(Default)]
struct Register {
    open: Mutex<Connections>,
    next: AtomicUsize,
}

#[derive(Default)]
struct Connections {
    by_age: BTreeMap<u64, Arc<Open>>,
    per_client: HashMap<IpAddr, usize>,
}

impl Connections {
    fn insert(&mut self, id: u64, connection: Arc<Open>) {
        *self.per_client.entry(connection.client).or_default() += 1;
        self.by_age.insert(id, connection);
    }

    fn remove(&mut self, id: u64) -> Option<Arc<Open>> {
        let connection = self.by_age.remove(&id)?;
        if let Some(count) = self.per_client.get_mut(&connection.client) {
            *count -= 1;
            if *count == 0 {
                self.per_client.remove(&connection.client);
            }
        }
        Some(connection)
    }

    /// The connection to close to make room: of the client address holding the most connections
    /// (a flood from one address makes room from its own), idle before receiving a body, oldest
    /// first; never one whose answer is being made. `None` when every connection is answering.
    fn victim(&self) -> Option<u64> {
        self.by_age
            .iter()
            .filter_map(|(&id, c)| {
                let stage = c.stage.load(Ordering::Relaxed);
                let held = self.per_client.get(&c.client).copied().unwrap_or(0);
                (stage != ANSWERING).then_some((std::cmp::Reverse(held), stage, id))
            })
            .min()
            .map(|(_, _, id)| id)
    }

    /// Tells the connection [`victim`](Self::victim) names to close and forgets it; false when
    /// every connection is answering.
    fn close_one(&mut self) -> bool {
        match self.victim().and_then(|id| self.remove(id)) {
            Some(connection) => {
                connection.close.notify_one();
                true
            }
            None => false,
        }
    }
}

impl Register {
    fn lock(&self) -> MutexGuard<'_, Connections> {
        self.open.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Registers a new connection from `client` within `cap` (making room by closing one, as
    /// [`Connections::victim`] picks it); `None` when every open connection is answering.
    fn admit(&self, cap: usize, client: IpAddr) -> Option<(u64, Arc<Open>)> {
        let mut open = self.lock();
        if open.by_age.len() >= cap && !open.close_one() {
            return None;
        }
        let id = self.next.fetch_add(1, Ordering::Relaxed) as u64;
        let connection = Arc::new(Open {
            client,
            stage: AtomicU8::new(IDLE),
            answering: Notify::new(),
            close: Notify::new(),
        });
        open.insert(id, connection.clone());
        Some((id, connection))
    }

    fn leave(&self, id: u64) {
        self.lock().remove(id);
    }
}

/// A listener on `addr` with a listen backlog of [`BACKLOG`] (the kernel caps it at
/// `net.core.somaxconn`), so that a burst of new connections waits in the kernel's queue for the
/// accept loop rather than being dropped and retried by its clients a second later.
pub fn listen(addr: SocketAddr) -> std::io::Result<TcpListener> {
    let socket = socket2::Socket::new(
        socket2::Domain::for_address(addr),
        socket2::Type::STREAM,
        Some(socket2::Protocol::TCP),
    )?;
    socket.set_reuse_address(true)?;
    socket.set_nonblocking(true)?;
    socket.bind(&addr.into())?;
    socket.listen(BACKLOG.min(i32::MAX as u32) as i32)?;
    TcpListener::from_std(socket.into())
}

/// Answers `request` from `client` on `connection` with `router`: the request carries its client's
/// address and its [`Stage`]; the connection's stage follows it; a client whose bytes end while its
/// answer is made is probed, and its request dropped when it has gone ([`half_close`]).
async fn answer(
    mut router: Router,
    stream: Arc<TcpStream>,
    connection: Arc<Open>,
    client: SocketAddr,
    mut request: Request<Incoming>,
) -> Result<axum::response::Response, std::convert::Infallible> {
    let stage = Stage(connection.clone());
    let first = if request.body().is_end_stream() {
        ANSWERING
    } else {
        RECEIVING
    };
    connection.stage.store(first, Ordering::Relaxed);
    let probed = request.version() == Version::HTTP_11;
    request.extensions_mut().insert(ConnectInfo(client));
    request.extensions_mut().insert(stage.clone());
    let gone = async {
        stage.answering().await;
        if !probed {
            std::future::pending::<()>().await;
        }
        half_close::gone(&stream).await;
    };
    let answer = tokio::select! {
        biased;
        answer = router.call(request) => answer,
        () = gone => Ok(StatusCode::REQUEST_TIMEOUT.into_response()),
    };
    connection.stage.store(IDLE, Ordering::Relaxed);
    answer
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
        .half_close(true)
        .keep_alive(true);
    tokio::pin!(shutdown);
    loop {
        let accepted = tokio::select! {
            () = &mut shutdown => return,
            accepted = listener.accept() => accepted,
        };
        let (stream, client) = match accepted {
            Ok(accepted) => accepted,
            Err(e) => {
                // Out of file descriptors (or another passing fault): make room, and breathe.
                register.lock().close_one();
                if matches!(e.raw_os_error(), Some(libc::EMFILE | libc::ENFILE)) {
                    tokio::time::sleep(Duration::from_millis(10)).await;
                }
                continue;
            }
        };
        let Some((id, connection)) = register.admit(limits.max_connections, client.ip()) else {
            continue; // every connection answering: this one is closed unanswered
        };
        let router = router.clone();
        let http = http.clone();
        let register = register.clone();
        tokio::spawn(async move {
            let stream = Arc::new(stream);
            let service = {
                let (stream, connection) = (stream.clone(), connection.clone());
                hyper::service::service_fn(move |request: Request<Incoming>| {
                    answer(
                        router.clone(),
                        stream.clone(),
                        connection.clone(),
                        client,
                        request,
                    )
                })
            };
            let io = TokioIo::new(JsonErrors::new(Shared(stream)));
            let served = http.serve_connection(io, service);
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

    fn stage(register: &Register, id: u64, stage: u8) {
        register.lock().by_age[&id]
            .stage
            .store(stage, Ordering::Relaxed);
    }

    #[test]
    fn at_the_cap_an_idle_or_receiving_connection_makes_room() {
        let register = Register::default();
        let here: IpAddr = "10.0.0.1".parse().unwrap();
        let (first, _) = register.admit(2, here).unwrap();
        let (second, _) = register.admit(2, here).unwrap();
        stage(&register, second, ANSWERING);
        // At the cap: the idle first one goes, the answering second one stays.
        let (third, _) = register.admit(2, here).unwrap();
        assert!(register.lock().by_age.contains_key(&third));
        assert!(!register.lock().by_age.contains_key(&first));
        assert_eq!(register.lock().by_age.len(), 2);
        // A connection still receiving its body makes room too, after idle ones.
        stage(&register, third, RECEIVING);
        let (fourth, _) = register.admit(2, here).unwrap();
        assert!(!register.lock().by_age.contains_key(&third));
        stage(&register, fourth, RECEIVING);
        let (fifth, _) = register.admit(3, here).unwrap();
        let (sixth, _) = register.admit(3, here).unwrap();
        assert!(register.lock().by_age.contains_key(&fourth));
        assert!(
            !register.lock().by_age.contains_key(&fifth),
            "idle goes first"
        );
        // All answering: a new one is refused.
        for id in [second, fourth, sixth] {
            stage(&register, id, ANSWERING);
        }
        assert!(register.admit(3, here).is_none());
        assert_eq!(register.lock().per_client[&here], 3);
    }

    #[test]
    fn the_client_holding_the_most_connections_makes_room_from_its_own() {
        let register = Register::default();
        let light: IpAddr = "10.0.0.1".parse().unwrap();
        let heavy: IpAddr = "10.0.0.2".parse().unwrap();
        let (oldest, _) = register.admit(4, light).unwrap();
        let heavies: Vec<u64> = (0..3)
            .map(|_| register.admit(4, heavy).unwrap().0)
            .collect();
        for &id in &heavies {
            stage(&register, id, RECEIVING);
        }
        // The light client's idle connection is older and idle, but the heavy client makes room.
        register.admit(4, light).unwrap();
        assert!(register.lock().by_age.contains_key(&oldest));
        assert!(!register.lock().by_age.contains_key(&heavies[0]));
        assert_eq!(register.lock().per_client[&heavy], 2);
        assert_eq!(register.lock().per_client[&light], 2);
        for id in heavies {
            register.leave(id);
        }
        assert!(!register.lock().per_client.contains_key(&heavy));
    }
}
