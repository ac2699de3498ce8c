//! What every API request passes before its body is read: it must be JSON from the page's own
//! origin (a web page elsewhere cannot drive a local server: no "simple" cross-site POST, no DNS
//! rebinding), and its body is counted against a cap on the bytes of all bodies in flight, held
//! until its answer is sent (past the cap: 503 with `Retry-After`), so that many large bodies at
//! once cannot take the memory.

use crate::error::ApiError;
use crate::limits::MAX_BODY;
use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use futures_util::StreamExt;
use std::net::SocketAddr;
use std::sync::Arc;
use tokio::sync::Semaphore;

/// The guard's state: the bytes of bodies in flight (one permit a KiB) and the address served.
#[derive(Clone)]
pub struct Guard {
    bodies: Arc<Semaphore>,
    cap_kib: u32,
    /// The address bound, when it is a loopback address: requests must then name a loopback host.
    loopback: Option<SocketAddr>,
}

/// Permits (KiB) a body of `bytes` takes: at least one, so that empty bodies count too.
fn kib(bytes: u64) -> u32 {
    bytes.div_ceil(1024).clamp(1, u32::MAX as u64) as u32
}

impl Guard {
    /// A guard for a server bound to `addr` letting `bytes` of bodies be in flight at once.
    pub fn new(addr: SocketAddr, bytes: u64) -> Self {
        let cap_kib = kib(bytes).max(kib(MAX_BODY as u64));
        Guard {
            bodies: Arc::new(Semaphore::new(cap_kib as usize)),
            cap_kib,
            loopback: addr.ip().is_loopback().then_some(addr),
        }
    }

    /// Whether `host` (a `Host` header, or the authority of an `Origin`) names this server: any
    /// host when it is bound to a public address; a loopback name with its port when it is bound to
    /// loopback.
    fn is_own_host(&self, host: &str) -> bool {
        let Some(addr) = self.loopback else {
            return true;
        };
        let (name, port) = match host.rsplit_once(':') {
            Some((name, port)) if !port.contains(']') => (name, port.parse::<u16>().ok()),
            _ => (host, None),
        };
        let local = matches!(
            name.to_ascii_lowercase().as_str(),
            "localhost" | "127.0.0.1" | "[::1]"
        ) || name
            .parse::<std::net::Ipv4Addr>()
            .is_ok_and(|ip| ip.is_loopback());
        local && port.is_none_or(|p| p == addr.port())
    }

    /// Why `headers` of a `method` request to the API are refused, if they are.
    fn refusal(&self, method: &Method, headers: &HeaderMap) -> Option<ApiError> {
        let text = |name| {
            headers
                .get(name)
                .and_then(|v: &HeaderValue| v.to_str().ok())
        };
        if let Some(host) = text(header::HOST) {
            if !self.is_own_host(host) {
                return Some(ApiError::status(
                    StatusCode::FORBIDDEN,
                    format!(
                        "the request names the host {}, not this server",
                        plysolve::input::quote(host)
                    ),
                ));
            }
        }
        if let Some(origin) = text(header::ORIGIN) {
            let own = text(header::HOST).is_some_and(|host| {
                origin.strip_prefix("http://") == Some(host) && self.is_own_host(host)
            });
            if !own {
                return Some(ApiError::status(
                    StatusCode::FORBIDDEN,
                    format!(
                        "requests from the page at {} are refused: only this server's own page may ask",
                        plysolve::input::quote(origin)
                    ),
                ));
            }
        }
        if *method == Method::POST {
            let json = text(header::CONTENT_TYPE).is_some_and(|t| {
                t.split(';')
                    .next()
                    .is_some_and(|m| m.trim().eq_ignore_ascii_case("application/json"))
            });
            if !json {
                return Some(ApiError::status(
                    StatusCode::UNSUPPORTED_MEDIA_TYPE,
                    "the body must be JSON, sent with Content-Type: application/json",
                ));
            }
        }
        None
    }
}

/// The middleware: checks the headers, then holds the body's bytes against the cap until the
/// answer is ready.
pub async fn guard(State(guard): State<Guard>, request: Request, next: Next) -> Response {
    if let Some(refused) = guard.refusal(request.method(), request.headers()) {
        return refused.into_response();
    }
    let declared = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
    // A body declared over the limit is refused before a byte of it is read.
    if declared.is_some_and(|n| n > MAX_BODY as u64) {
        return ApiError::body_too_large().into_response();
    }
    // A body over the limit is read up to it and refused by the body limit (413); one that stops
    // coming, by the body timeout.
    let bytes = match declared {
        Some(n) => n.min(MAX_BODY as u64),
        // No length declared (chunked): the most a body may be.
        None if request.method() == Method::POST => MAX_BODY as u64,
        None => 0,
    };
    let Ok(_held) = guard.bodies.clone().try_acquire_many_owned(kib(bytes)) else {
        // Read the body and drop it piece by piece (nothing kept; the body timeout and the body
        // limit still apply), so that the client is done sending and sees the answer.
        let mut body = request.into_body().into_data_stream();
        let mut read = 0usize;
        while let Some(Ok(piece)) = body.next().await {
            read += piece.len();
            if read > MAX_BODY {
                break;
            }
        }
        let mut busy = ApiError::status(
            StatusCode::SERVICE_UNAVAILABLE,
            format!(
                "the server is reading {} KiB of request bodies, its limit; try again in a second",
                guard.cap_kib
            ),
        )
        .into_response();
        busy.headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
        return busy;
    };
    next.run(request).await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(header::HeaderName, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.insert(name.clone(), HeaderValue::from_str(value).unwrap());
        }
        map
    }

    #[test]
    fn only_json_from_the_servers_own_page() {
        let guard = Guard::new("127.0.0.1:8080".parse().unwrap(), 1 << 20);
        let json = (header::CONTENT_TYPE, "application/json; charset=utf-8");
        let host = (header::HOST, "127.0.0.1:8080");
        let ok = headers(&[json.clone(), host.clone()]);
        assert_eq!(guard.refusal(&Method::POST, &ok), None);
        let page = headers(&[
            json.clone(),
            host.clone(),
            (header::ORIGIN, "http://127.0.0.1:8080"),
        ]);
        assert_eq!(guard.refusal(&Method::POST, &page), None);
        let localhost = headers(&[json.clone(), (header::HOST, "localhost:8080")]);
        assert_eq!(guard.refusal(&Method::POST, &localhost), None);
        let status = |h: &HeaderMap| guard.refusal(&Method::POST, h).map(|e| e.status);
        // A form post, a text post: 415.
        let form = headers(&[(header::CONTENT_TYPE, "text/plain"), host.clone()]);
        assert_eq!(status(&form), Some(StatusCode::UNSUPPORTED_MEDIA_TYPE));
        assert_eq!(
            status(&headers(std::slice::from_ref(&host))),
            Some(StatusCode::UNSUPPORTED_MEDIA_TYPE)
        );
        // Another page, another host (DNS rebinding), another port: 403.
        let other = headers(&[
            json.clone(),
            host.clone(),
            (header::ORIGIN, "http://evil.example"),
        ]);
        assert_eq!(status(&other), Some(StatusCode::FORBIDDEN));
        let rebound = headers(&[json.clone(), (header::HOST, "evil.example:8080")]);
        assert_eq!(status(&rebound), Some(StatusCode::FORBIDDEN));
        let port = headers(&[json.clone(), (header::HOST, "127.0.0.1:9999")]);
        assert_eq!(status(&port), Some(StatusCode::FORBIDDEN));
        // A GET needs no JSON.
        assert_eq!(guard.refusal(&Method::GET, &headers(&[host])), None);
        // Bound to a public address, any host is its own.
        let public = Guard::new("0.0.0.0:8080".parse().unwrap(), 1 << 20);
        assert!(public.is_own_host("ply.example:8080"));
    }
}
