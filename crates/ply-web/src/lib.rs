//! `ply serve`: one web page (embedded in the binary, nothing to build) and a JSON API whose answers
//! are the `ply` command's `--json` outputs, produced by the same library calls.
//!
//! Every solve passes a [`limits::Gate`]: a bounded number run at once (the rest queue) and each
//! request has a time limit; sizes are checked before any work (422). Bodies over 1 MiB get 413. The
//! server reads no file: the page is compiled in and no request names a path on the server. A request
//! asked before is answered from [`answers::Answers`] without solving again.

pub mod answers;
pub mod api;
pub mod dots;
pub mod error;
pub mod limits;

use answers::{Answer, Answers};
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use error::ApiError;
use limits::{Gate, MAX_BODY, TIME_LIMIT};
use serde::de::DeserializeOwned;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

/// What every request shares: the solve gate, the tables built so far and the answers given.
#[derive(Clone)]
pub struct AppState {
    gate: Gate,
    tables: Arc<dots::Tables>,
    answers: Arc<Answers>,
}

impl AppState {
    /// A state allowing `solvers` concurrent solves.
    pub fn new(solvers: usize) -> Self {
        AppState {
            gate: Gate::new(solvers, TIME_LIMIT),
            tables: Arc::new(dots::Tables::default()),
            answers: Arc::new(Answers::default()),
        }
    }
}

/// At most 40 characters of user input, control characters escaped, for quoting in a message.
pub fn quote(text: &str) -> String {
    let mut out: String = text.chars().take(40).flat_map(char::escape_debug).collect();
    if text.chars().count() > 40 {
        out.push('…');
    }
    out
}

/// A report answered as the CLI prints it, with `Server-Timing` saying what the solve took (and,
/// when a shared table answered, what that table once took to build; `cache` when the answer was
/// kept from an identical request).
fn report_response(answer: &Answer, cached: bool) -> Response {
    let mut timing = format!("solve;dur={:.3}", answer.solve.as_secs_f64() * 1000.0);
    if let Some(build) = answer.table_build {
        timing.push_str(&format!(", table;dur={:.3}", build.as_secs_f64() * 1000.0));
    }
    if cached {
        timing.push_str(", cache;desc=hit");
    }
    (
        [
            (header::CONTENT_TYPE, "application/json"),
            (header::HeaderName::from_static("server-timing"), &timing),
        ],
        answer.text.clone(),
    )
        .into_response()
}

/// Answers `body` on `path`: from the answers kept if it was asked before, else by parsing it and
/// running `work` through the gate (and keeping a successful answer).
async fn handle<R: DeserializeOwned + Send + 'static>(
    state: &AppState,
    path: &'static str,
    body: Result<Bytes, BytesRejection>,
    work: impl FnOnce(R) -> Result<(String, Option<Duration>), ApiError> + Send + 'static,
) -> Response {
    let body = match body {
        Ok(b) => b,
        Err(rejection) => {
            let status = rejection.status();
            let message = if status == StatusCode::PAYLOAD_TOO_LARGE {
                format!(
                    "the request body is over {} bytes, the server's limit",
                    MAX_BODY
                )
            } else {
                rejection.body_text()
            };
            return ApiError { status, message }.into_response();
        }
    };
    let deadline = state.gate.deadline();
    let pending =
        match tokio::time::timeout_at(deadline, state.answers.get_or_pending(path, &body)).await {
            Err(_) => return state.gate.too_long().into_response(),
            Ok(Ok(answer)) => return report_response(&answer, true),
            Ok(Err(pending)) => pending,
        };
    let request: R = match serde_json::from_slice(&body) {
        Ok(r) => r,
        Err(e) => return ApiError::bad(format!("the request is not valid: {e}")).into_response(),
    };
    match state.gate.run(deadline, move || work(request)).await {
        Ok(timed) => {
            let (text, table_build) = timed.value;
            let answer = Arc::new(Answer {
                text,
                solve: timed.solve,
                table_build,
            });
            pending.keep(answer.clone());
            report_response(&answer, false)
        }
        Err(e) => e.into_response(),
    }
}

/// Wraps an endpoint function that needs nothing but its request.
fn plain<R: 'static>(
    f: fn(&R) -> Result<String, ApiError>,
) -> impl FnOnce(R) -> Result<(String, Option<Duration>), ApiError> + Send + 'static {
    move |r| f(&r).map(|a| (a, None))
}

/// Routes `POST $path` to an endpoint function that needs nothing but its request.
macro_rules! endpoint {
    ($router:expr, $path:literal, $f:path) => {
        $router.route(
            $path,
            post(
                |State(s): State<AppState>, body: Result<Bytes, BytesRejection>| async move {
                    handle(&s, $path, body, plain($f)).await
                },
            ),
        )
    };
}

async fn dots_endpoint(State(s): State<AppState>, body: Result<Bytes, BytesRejection>) -> Response {
    let tables = s.tables.clone();
    handle(&s, "/api/dots", body, move |r: dots::DotsRequest| {
        let answer = dots::answer(&r, &tables)?;
        let text = serde_json::to_string(&answer.report)
            .map_err(|e| ApiError::bad(format!("cannot write JSON: {e}")))?;
        Ok((text + "\n", answer.table_build))
    })
    .await
}

async fn play_dots_endpoint(
    State(s): State<AppState>,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let tables = s.tables.clone();
    handle(
        &s,
        "/api/play/dots",
        body,
        move |r: dots::PlayDotsRequest| {
            let (reply, answer) = dots::reply(&r, &tables)?;
            Ok((api::json(&reply)?, answer.table_build))
        },
    )
    .await
}

fn static_file(content_type: &'static str, body: &'static str) -> Response {
    ([(header::CONTENT_TYPE, content_type)], body).into_response()
}

async fn not_found() -> Response {
    ApiError {
        status: StatusCode::NOT_FOUND,
        message: "no such page".into(),
    }
    .into_response()
}

/// The whole application: the page, its script and style, and the API.
pub fn app(state: AppState) -> Router {
    let router = Router::new()
        .route(
            "/",
            get(|| async {
                static_file(
                    "text/html; charset=utf-8",
                    include_str!("../static/index.html"),
                )
            }),
        )
        .route(
            "/app.js",
            get(|| async {
                static_file(
                    "text/javascript; charset=utf-8",
                    include_str!("../static/app.js"),
                )
            }),
        )
        .route(
            "/style.css",
            get(|| async {
                static_file(
                    "text/css; charset=utf-8",
                    include_str!("../static/style.css"),
                )
            }),
        )
        .route(
            "/api/limits",
            get(|| async { axum::Json(limits::Limits::current()) }),
        )
        .route("/api/dots", post(dots_endpoint))
        .route("/api/play/dots", post(play_dots_endpoint));
    let router = endpoint!(router, "/api/solitaire", api::solitaire);
    let router = endpoint!(router, "/api/heaps", api::heaps);
    let router = endpoint!(router, "/api/play/heaps", api::play_heaps);
    let router = endpoint!(router, "/api/dice-race/compare", api::compare);
    let router = endpoint!(router, "/api/dice-race/best", api::best_list);
    let router = endpoint!(router, "/api/dice-race/equilibrium", api::equilibrium_of);
    let router = endpoint!(router, "/api/dice-race/sums", api::sums);
    let router = endpoint!(router, "/api/magic-board", api::magic_board);
    let router = endpoint!(router, "/api/magic-board/generate", api::generate);
    router
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(state)
}

/// Serves on `addr` until Ctrl-C; `ready` is told the address actually bound (port 0 picks a free
/// one). The classic triangles table is built before the first request.
pub fn serve(addr: SocketAddr, ready: impl FnOnce(SocketAddr)) -> std::io::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(addr).await?;
        let solvers = std::thread::available_parallelism().map_or(2, |n| n.get());
        let state = AppState::new(solvers);
        let classic = ply::games::dots::Geometry::CLASSIC_TRIANGLES
            .build()
            .expect("the classic board builds");
        let _ = state.tables.get(&classic);
        ready(listener.local_addr()?);
        axum::serve(listener, app(state))
            .with_graceful_shutdown(async {
                let _ = tokio::signal::ctrl_c().await;
            })
            .await
    })
}
