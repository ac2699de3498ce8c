//! What every API request passes before its body is read: it must be JSON from the page's own
//! origin (a web page elsewhere cannot drive a local server: no "simple" cross-site POST, no DNS
//! rebinding; the headers this reads must be there once and readable, or the request is refused),
//! and its body is read whole by [`bodies`](crate::bodies) (deadlines, a least rate, its bytes
//! counted against the caps on bodies in flight until its answer is ready: past them 503 with
//! `Retry-After`), so that neither slow nor large bodies take the connections or the memory.

use crate::bodies::{BodyLimits, InFlight};
use crate::connections::Stage;
use crate::error::ApiError;
use crate::limits::MAX_BODY;
use axum::body::Body;
use axum::extract::{ConnectInfo, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode, Uri};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::net::SocketAddr;

/// The guard's state: the bodies in flight and the address served.
#[derive(Clone)]
pub struct Guard {
    bodies: InFlight,
    /// The address bound, when it is a loopback address: requests must then name a loopback host.
    loopback: Option<SocketAddr>,
}

impl Guard {
    /// A guard for a server bound to `addr` reading bodies within `limits`.
    pub fn new(addr: SocketAddr, limits: BodyLimits) -> Self {
        Guard {
            bodies: InFlight::new(limits),
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

    /// Why `headers` of a `method` request for `uri` to the API are refused, if they are. The
    /// headers the check reads must be readable: a `Host`, `Origin` or `Content-Type` that is not
    /// visible ASCII, or given twice, is refused (400) rather than read as absent or as its first
    /// copy. A request in absolute form (`POST http://host/api/…`) names its host in the URI,
    /// which HTTP says is the one to go by (RFC 9112, 3.2.2): that host is checked, whatever the
    /// `Host` header says.
    fn refusal(&self, method: &Method, uri: &Uri, headers: &HeaderMap) -> Option<ApiError> {
        self.refusal_of_read(method, uri, headers).err()
    }

    fn refusal_of_read(
        &self,
        method: &Method,
        uri: &Uri,
        headers: &HeaderMap,
    ) -> Result<(), ApiError> {
        // The Host header is read (once, visible ASCII) even when the URI names the host.
        let named = single(headers, header::HOST)?;
        let host = uri.authority().map(|a| a.as_str()).or(named);
        let origin = single(headers, header::ORIGIN)?;
        let content_type = single(headers, header::CONTENT_TYPE)?;
        let encoding = single(headers, header::CONTENT_ENCODING)?;
        if let Some(host) = host {
            if !self.is_own_host(host) {
                return Err(ApiError::status(
                    StatusCode::FORBIDDEN,
                    format!(
                        "the request names the host {}, not this server",
                        plysolve::input::quote(host)
                    ),
                ));
            }
        }
        if let Some(origin) = origin {
            let own = host.is_some_and(|host| {
                origin.strip_prefix("http://") == Some(host) && self.is_own_host(host)
            });
            if !own {
                return Err(ApiError::status(
                    StatusCode::FORBIDDEN,
                    format!(
                        "requests from the page at {} are refused: only this server's own page may ask",
                        plysolve::input::quote(origin)
                    ),
                ));
            }
        }
        if *method == Method::POST {
            let json = content_type.is_some_and(|t| {
                t.split(';')
                    .next()
                    .is_some_and(|m| m.trim().eq_ignore_ascii_case("application/json"))
            });
            if !json {
                return Err(ApiError::status(
                    StatusCode::UNSUPPORTED_MEDIA_TYPE,
                    "the body must be JSON, sent with Content-Type: application/json",
                ));
            }
            // JSON is UTF-8 (RFC 8259): a body declared in another charset would be misread.
            if let Some(charset) = content_type.and_then(charset_of).filter(|c| !is_utf8(c)) {
                return Err(ApiError::status(
                    StatusCode::UNSUPPORTED_MEDIA_TYPE,
                    format!(
                        "the body is sent in charset {}: this server reads JSON in UTF-8 only",
                        plysolve::input::quote(charset)
                    ),
                ));
            }
            // A compressed body would be read as if it were plain JSON: refused, not guessed at.
            if let Some(coding) = encoding.filter(|c| !c.trim().eq_ignore_ascii_case("identity")) {
                return Err(ApiError::status(
                    StatusCode::UNSUPPORTED_MEDIA_TYPE,
                    format!(
                        "the body is sent with Content-Encoding {}: this server reads plain JSON only",
                        plysolve::input::quote(coding)
                    ),
                ));
            }
        }
        Ok(())
    }
}

/// The `charset` parameter of a `Content-Type` value (`application/json; charset=utf-8` gives
/// `utf-8`), its quotes taken off, if it has one.
fn charset_of(content_type: &str) -> Option<&str> {
    content_type.split(';').skip(1).find_map(|parameter| {
        let (name, value) = parameter.split_once('=')?;
        name.trim()
            .eq_ignore_ascii_case("charset")
            .then(|| value.trim().trim_matches('"'))
    })
}

/// Whether a charset's name is UTF-8's (`utf-8`, `UTF8`).
fn is_utf8(charset: &str) -> bool {
    charset.eq_ignore_ascii_case("utf-8") || charset.eq_ignore_ascii_case("utf8")
}

/// The one value of the header `name` in `headers` as text, if it is there; refused (400) when it
/// is there twice or more, or is not visible ASCII: a check that read only one copy, or skipped a
/// value it cannot read, would let through what it is there to stop.
fn single(headers: &HeaderMap, name: header::HeaderName) -> Result<Option<&str>, ApiError> {
    let mut values = headers.get_all(&name).iter();
    let Some(value) = values.next() else {
        return Ok(None);
    };
    let shown = canonical(&name);
    if values.next().is_some() {
        return Err(ApiError::status(
            StatusCode::BAD_REQUEST,
            format!("the request has the {shown} header more than once; send it once"),
        ));
    }
    match value.to_str() {
        Ok(text) => Ok(Some(text)),
        Err(_) => Err(ApiError::status(
            StatusCode::BAD_REQUEST,
            format!(
                "the {shown} header {} is not visible ASCII text",
                plysolve::input::quote_bytes(value.as_bytes())
            ),
        )),
    }
}

/// A header's name as it is usually written (`Content-Type`), for messages.
fn canonical(name: &header::HeaderName) -> String {
    name.as_str()
        .split('-')
        .map(|word| {
            let mut chars = word.chars();
            chars.next().map_or(String::new(), |first| {
                first.to_ascii_uppercase().to_string() + chars.as_str()
            })
        })
        .collect::<Vec<_>>()
        .join("-")
}

/// The middleware: checks the headers, then reads the body whole ([`InFlight::read`]: its
/// deadlines, its bytes held against the caps until the answer is ready), tells the connection that
/// its body is in, and hands the request on with the body read.
pub async fn guard(State(guard): State<Guard>, request: Request, next: Next) -> Response {
    if let Some(refused) = guard.refusal(request.method(), request.uri(), request.headers()) {
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
    let client = request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|info| info.0.ip());
    let (parts, body) = request.into_parts();
    let (bytes, _held) = match guard.bodies.read(client, body).await {
        Ok(read) => read,
        Err(refused) => {
            let mut answer = refused.into_response();
            if answer.status() == StatusCode::SERVICE_UNAVAILABLE {
                answer
                    .headers_mut()
                    .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
            }
            return answer;
        }
    };
    if let Some(stage) = parts.extensions.get::<Stage>() {
        stage.body_read();
    }
    next.run(Request::from_parts(parts, Body::from(bytes)))
        .await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits() -> BodyLimits {
        crate::limits::Settings::default().body_limits()
    }

    fn headers(pairs: &[(header::HeaderName, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.insert(name.clone(), HeaderValue::from_str(value).unwrap());
        }
        map
    }

    #[test]
    fn only_json_from_the_servers_own_page() {
        let guard = Guard::new("127.0.0.1:8080".parse().unwrap(), limits());
        let api: Uri = "/api/dots".parse().unwrap();
        let json = (header::CONTENT_TYPE, "application/json; charset=utf-8");
        let host = (header::HOST, "127.0.0.1:8080");
        let ok = headers(&[json.clone(), host.clone()]);
        assert_eq!(guard.refusal(&Method::POST, &api, &ok), None);
        let page = headers(&[
            json.clone(),
            host.clone(),
            (header::ORIGIN, "http://127.0.0.1:8080"),
        ]);
        assert_eq!(guard.refusal(&Method::POST, &api, &page), None);
        let localhost = headers(&[json.clone(), (header::HOST, "localhost:8080")]);
        assert_eq!(guard.refusal(&Method::POST, &api, &localhost), None);
        let status = |h: &HeaderMap| guard.refusal(&Method::POST, &api, h).map(|e| e.status);
        // A form post, a text post: 415.
        let form = headers(&[(header::CONTENT_TYPE, "text/plain"), host.clone()]);
        assert_eq!(status(&form), Some(StatusCode::UNSUPPORTED_MEDIA_TYPE));
        assert_eq!(
            status(&headers(std::slice::from_ref(&host))),
            Some(StatusCode::UNSUPPORTED_MEDIA_TYPE)
        );
        // A compressed body: 415, whatever its coding; `identity` is plain.
        let gzip = headers(&[
            json.clone(),
            host.clone(),
            (header::CONTENT_ENCODING, "gzip"),
        ]);
        assert_eq!(status(&gzip), Some(StatusCode::UNSUPPORTED_MEDIA_TYPE));
        let message = guard.refusal(&Method::POST, &api, &gzip).unwrap().message;
        assert_eq!(
            message,
            "the body is sent with Content-Encoding `gzip`: this server reads plain JSON only"
        );
        let plain = headers(&[
            json.clone(),
            host.clone(),
            (header::CONTENT_ENCODING, "identity"),
        ]);
        assert_eq!(status(&plain), None);
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
        assert_eq!(
            guard.refusal(&Method::GET, &api, &headers(std::slice::from_ref(&host))),
            None
        );
        // What the check cannot read is refused, not skipped: a value that is not visible ASCII,
        // a header given twice (the second copy is the one a check reading the first would miss).
        let mut latin = headers(&[json.clone(), host.clone()]);
        latin.insert(
            header::ORIGIN,
            HeaderValue::from_bytes(b"http://\xe9vil").unwrap(),
        );
        let refused = guard.refusal(&Method::POST, &api, &latin).unwrap();
        assert_eq!(refused.status, StatusCode::BAD_REQUEST);
        assert_eq!(
            refused.message,
            r"the Origin header `http://\xe9vil` is not visible ASCII text"
        );
        for name in [header::HOST, header::ORIGIN, header::CONTENT_TYPE] {
            let mut twice = headers(&[json.clone(), host.clone()]);
            twice.insert(
                name.clone(),
                HeaderValue::from_static("http://127.0.0.1:8080"),
            );
            twice.append(
                name.clone(),
                HeaderValue::from_static("http://evil.example"),
            );
            let refused = guard.refusal(&Method::POST, &api, &twice).unwrap();
            assert_eq!(refused.status, StatusCode::BAD_REQUEST);
            let shown = canonical(&name);
            assert_eq!(
                refused.message,
                format!("the request has the {shown} header more than once; send it once")
            );
        }
        // A body in another charset than UTF-8: 415; UTF-8 however it is written passes.
        let utf16 = headers(&[
            (header::CONTENT_TYPE, "application/json; charset=utf-16"),
            host.clone(),
        ]);
        let refused = guard.refusal(&Method::POST, &api, &utf16).unwrap();
        assert_eq!(refused.status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
        assert_eq!(
            refused.message,
            "the body is sent in charset `utf-16`: this server reads JSON in UTF-8 only"
        );
        for written in [
            "application/json;charset=\"UTF-8\"",
            "application/json; CharSet=utf8",
        ] {
            let h = headers(&[(header::CONTENT_TYPE, written), host.clone()]);
            assert_eq!(status(&h), None, "{written}");
        }
        // A request in absolute form goes by the host its URI names, not its Host header.
        let absolute: Uri = "http://evil.example/api/dots".parse().unwrap();
        let refused = guard.refusal(&Method::POST, &absolute, &ok).unwrap();
        assert_eq!(refused.status, StatusCode::FORBIDDEN);
        assert_eq!(
            refused.message,
            "the request names the host `evil.example`, not this server"
        );
        let own: Uri = "http://127.0.0.1:8080/api/dots".parse().unwrap();
        assert_eq!(guard.refusal(&Method::POST, &own, &ok), None);
        // Bound to a public address, any host is its own.
        let public = Guard::new("0.0.0.0:8080".parse().unwrap(), limits());
        assert!(public.is_own_host("ply.example:8080"));
    }
}
