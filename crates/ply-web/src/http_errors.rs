//! hyper's own answers, given a JSON body. A request hyper cannot read is answered by hyper itself,
//! before any of the server's code sees it: 400 for a malformed request line or header (a bad
//! method, URI, version or header), 431 for a request line and headers over the buffer
//! ([`MAX_HEADER_BYTES`]; a long URI too), 414 for a URI over 64 KiB (which that buffer leaves no
//! room for) — a status line and `content-length: 0`, no body. hyper has no hook to word them, so
//! the connection layer hands it the socket through [`JsonErrors`], which recognises such an answer
//! on its way out and writes the same status with `{"error": …}` instead, like every other refusal
//! of the server.
//!
//! The answer is recognised by its shape, read with `httparse`: a head with an error status (4xx,
//! 5xx), `content-length: 0` and no content type, ending the bytes written. Every error the
//! application itself answers has a JSON body ([`ApiError`]), so only hyper's own answers have this
//! shape; hyper writes one only when it has nothing else to write (nothing is written after it: it
//! closes the connection), so it ends the bytes of a write.

use crate::error::ApiError;
use crate::limits::MAX_HEADER_BYTES;
use axum::http::StatusCode;
use std::io::{self, IoSlice};
use std::pin::Pin;
use std::task::{ready, Context, Poll};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// A connection's socket as hyper writes to it: its own error answers are written with a JSON body.
pub struct JsonErrors<S> {
    inner: S,
    /// The answer written in place of hyper's, and how much of it is written.
    answer: Vec<u8>,
    written: usize,
}

impl<S> JsonErrors<S> {
    /// `inner`, its bodiless error answers worded.
    pub fn new(inner: S) -> Self {
        JsonErrors {
            inner,
            answer: Vec::new(),
            written: 0,
        }
    }
}

/// The most bytes at the end of a write that are searched for hyper's answer (its status line,
/// `content-length: 0`, `connection: close` and `date: …` take about 130).
const TAIL: usize = 256;

/// What went wrong, in one line, for hyper's answer of `status`.
fn message(status: StatusCode) -> String {
    match status {
        StatusCode::BAD_REQUEST => "the request line or a header is not valid HTTP/1.1".into(),
        StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE => format!(
            "the request line and headers are over {MAX_HEADER_BYTES} bytes, the server's limit"
        ),
        _ => format!("the server cannot read this request ({status})"),
    }
}

/// Where hyper's own error answer starts in `bytes`, and the answer to write in its place (the
/// same status line and headers, a JSON content type and length, the body); `None` when `bytes`
/// do not end with one.
fn worded(bytes: &[u8]) -> Option<(usize, Vec<u8>)> {
    if !bytes.ends_with(b"\r\n\r\n") {
        return None;
    }
    let tail = bytes.len().saturating_sub(TAIL);
    let start = tail + bytes[tail..].windows(7).rposition(|w| w == b"HTTP/1.")?;
    let head = &bytes[start..];
    let mut headers = [httparse::EMPTY_HEADER; 8];
    let mut response = httparse::Response::new(&mut headers);
    if response.parse(head).ok()? != httparse::Status::Complete(head.len()) {
        return None;
    }
    let value = |name: &str| {
        response
            .headers
            .iter()
            .find(|h| h.name.eq_ignore_ascii_case(name))
            .map(|h| h.value)
    };
    let status = StatusCode::from_u16(response.code?).ok()?;
    let bare = value("content-length") == Some(b"0") && value("content-type").is_none();
    if !bare || !(status.is_client_error() || status.is_server_error()) {
        return None;
    }
    let body = ApiError::status(status, message(status)).body();
    let status_line = &head[..head.windows(2).position(|w| w == b"\r\n")? + 2];
    let mut answer = status_line.to_vec();
    answer.extend_from_slice(b"content-type: application/json\r\n");
    answer.extend_from_slice(format!("content-length: {}\r\n", body.len()).as_bytes());
    for header in response.headers.iter() {
        if !header.name.eq_ignore_ascii_case("content-length") {
            answer.extend_from_slice(header.name.as_bytes());
            answer.extend_from_slice(b": ");
            answer.extend_from_slice(header.value);
            answer.extend_from_slice(b"\r\n");
        }
    }
    answer.extend_from_slice(b"\r\n");
    answer.extend_from_slice(body.as_bytes());
    Some((start, answer))
}

impl<S: AsyncWrite + Unpin> JsonErrors<S> {
    /// Writes what is left of an answer put in place of hyper's.
    fn poll_answer(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while self.written < self.answer.len() {
            let rest = &self.answer[self.written..];
            let n = ready!(Pin::new(&mut self.inner).poll_write(cx, rest))?;
            if n == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            self.written += n;
        }
        Poll::Ready(Ok(()))
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for JsonErrors<S> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_read(cx, buf)
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for JsonErrors<S> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        self.poll_write_vectored(cx, &[IoSlice::new(buf)])
    }

    /// Writes `bufs`, except hyper's own error answer at their end: what comes before it is written
    /// first (hyper hands the rest again), then the answer is taken whole and the worded one
    /// written in its place, on this write and the next flush.
    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        ready!(this.poll_answer(cx))?;
        let found = bufs
            .iter()
            .rposition(|b| !b.is_empty())
            .and_then(|last| Some((last, worded(&bufs[last])?)));
        let Some((last, (start, answer))) = found else {
            return Pin::new(&mut this.inner).poll_write_vectored(cx, bufs);
        };
        if start > 0 || bufs[..last].iter().any(|b| !b.is_empty()) {
            let mut before = bufs[..last].to_vec();
            before.push(IoSlice::new(&bufs[last][..start]));
            return Pin::new(&mut this.inner).poll_write_vectored(cx, &before);
        }
        this.answer = answer;
        this.written = 0;
        if let Poll::Ready(Err(e)) = this.poll_answer(cx) {
            return Poll::Ready(Err(e));
        }
        Poll::Ready(Ok(bufs[last].len()))
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        ready!(this.poll_answer(cx))?;
        Pin::new(&mut this.inner).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        ready!(this.poll_answer(cx))?;
        Pin::new(&mut this.inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The headers of hyper's answer after its length.
    const REST: &str = "connection: close\r\ndate: Thu, 26 Nov 2026 00:44:38 GMT\r\n";

    /// hyper's own answer of `status`, as it writes it.
    fn canned(status: &str) -> String {
        format!("HTTP/1.1 {status}\r\ncontent-length: 0\r\n{REST}\r\n")
    }

    #[test]
    fn hypers_bodiless_errors_are_worded() {
        let (start, answer) = worded(canned("400 Bad Request").as_bytes()).unwrap();
        assert_eq!(start, 0);
        let body = r#"{"error":"the request line or a header is not valid HTTP/1.1"}"#;
        assert_eq!(
            String::from_utf8(answer).unwrap(),
            format!(
                "HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\ncontent-length: {}\r\n{REST}\r\n{body}",
                body.len()
            )
        );
        let (_, answer) = worded(canned("414 URI Too Long").as_bytes()).unwrap();
        assert!(String::from_utf8(answer)
            .unwrap()
            .ends_with(r#"{"error":"the server cannot read this request (414 URI Too Long)"}"#));
        // After the end of an answer written before: found where it starts.
        let after = format!(
            "HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{{}}{}",
            canned("431 Request Header Fields Too Large")
        );
        let (start, answer) = worded(after.as_bytes()).unwrap();
        assert_eq!(start, after.find("HTTP/1.1 431").unwrap());
        assert!(String::from_utf8(answer).unwrap().ends_with(
            r#"{"error":"the request line and headers are over 16384 bytes, the server's limit"}"#
        ));
    }

    #[test]
    fn every_other_write_is_left_as_it_is() {
        let json = format!("HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\ncontent-length: 0\r\n{REST}\r\n");
        for bytes in [
            canned("200 OK"),
            canned("100 Continue"),
            json,
            format!("{}{{}}", canned("400 Bad Request")),
            "HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n".into(),
            "\r\n\r\n".into(),
            String::new(),
        ] {
            assert_eq!(worded(bytes.as_bytes()), None, "{bytes:?}");
        }
    }

    #[tokio::test]
    async fn the_worded_answer_is_written_in_place_of_hypers() {
        use tokio::io::AsyncWriteExt;
        let mut socket = JsonErrors::new(Vec::new());
        let before = b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}";
        let canned = canned("400 Bad Request");
        socket
            .write_all(&[&before[..], canned.as_bytes()].concat())
            .await
            .unwrap();
        socket.shutdown().await.unwrap();
        let written = String::from_utf8(socket.inner).unwrap();
        assert!(written.starts_with("HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\n"), "{written}");
        assert!(
            written.ends_with(r#"{"error":"the request line or a header is not valid HTTP/1.1"}"#)
        );
    }
}
