//! Clients that close their side after sending a request (`nc -N`, `shutdown(SHUT_WR)`) are
//! answered: hyper is told to allow half-closed connections, so the end of a client's bytes no
//! longer ends its request. But a client that has gone away looks the same from here (its bytes
//! end), and its answer, an expensive solve among them, should stop at once. So a request whose
//! body is in and whose answer is not ready [`PROBE_EVERY`] later has its socket looked at: if the
//! client's bytes have ended, the server writes an interim `HTTP/1.1 100 Continue` (which every
//! HTTP/1.1 client reads past), then again every [`PROBE_EVERY`] while the answer is not ready. A
//! client that only closed its side takes them in; a client that has gone answers with a reset,
//! the next probe fails, and the request is dropped, which stops its work (its cancel flag is
//! raised when it is dropped). An answer ready sooner (every cheap one) is written with no probe
//! and no look at the socket; an HTTP/1.0 client, which may not be sent a 1xx, is never probed (its
//! answer runs to its end, within the time limit).
//!
//! The probe is written from within the request's own future, which hyper polls while it waits for
//! the answer and before it writes any of it: a probe never lands inside an answer. The socket is
//! shared between hyper (through [`Shared`]) and the probe.

use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{ready, Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;

/// Time between two probes of a half-closed client whose answer is not ready yet.
pub const PROBE_EVERY: Duration = Duration::from_millis(500);

/// The interim answer written as a probe.
const PROBE: &[u8] = b"HTTP/1.1 100 Continue\r\n\r\n";

/// A connection's socket, shared: hyper reads and writes it through this, the probe through the
/// same `Arc`.
pub struct Shared(pub Arc<TcpStream>);

impl AsyncRead for Shared {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        loop {
            ready!(self.0.poll_read_ready(cx))?;
            match self.0.try_read(buf.initialize_unfilled()) {
                Ok(n) => {
                    buf.advance(n);
                    return Poll::Ready(Ok(()));
                }
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => continue,
                Err(e) => return Poll::Ready(Err(e)),
            }
        }
    }
}

impl AsyncWrite for Shared {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        loop {
            ready!(self.0.poll_write_ready(cx))?;
            match self.0.try_write(buf) {
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => continue,
                written => return Poll::Ready(written),
            }
        }
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        loop {
            ready!(self.0.poll_write_ready(cx))?;
            match self.0.try_write_vectored(bufs) {
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => continue,
                written => return Poll::Ready(written),
            }
        }
    }

    fn is_write_vectored(&self) -> bool {
        true
    }

    fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(())) // nothing is buffered here
    }

    fn poll_shutdown(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(socket2::SockRef::from(&*self.0).shutdown(std::net::Shutdown::Write))
    }
}

/// Completes when the client of `stream` has gone: its bytes have ended (it closed its side, or
/// left) and a probe written since failed. Looks first after [`PROBE_EVERY`] (an answer ready
/// sooner costs no look at the socket); never completes while bytes still come (a pipelined
/// request: the client is there) or for a client that takes its probes in.
pub async fn gone(stream: &TcpStream) {
    let start = tokio::time::Instant::now() + PROBE_EVERY;
    let mut every = tokio::time::interval_at(start, PROBE_EVERY);
    every.tick().await;
    let mut byte = [0u8; 1];
    match stream.peek(&mut byte).await {
        Ok(0) => {}
        Ok(_) => std::future::pending().await,
        Err(_) => return,
    }
    loop {
        if write_probe(stream).await.is_err() {
            return;
        }
        every.tick().await;
    }
}

/// Writes the whole probe on `stream`.
async fn write_probe(stream: &TcpStream) -> io::Result<()> {
    let mut written = 0;
    while written < PROBE.len() {
        stream.writable().await?;
        match stream.try_write(&PROBE[written..]) {
            Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
            Ok(n) => written += n,
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => continue,
            Err(e) => return Err(e),
        }
    }
    Ok(())
}
