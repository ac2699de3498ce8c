//! `ply serve`: one web page (embedded in the binary, nothing to build) and a JSON API whose answers
//! are the `ply` command's `--json` outputs, produced by the same library calls.
//!
//! Every solve passes a [`limits::Gate`]: a bounded number run at once (the rest queue) and each
//! request has a time limit; sizes are checked before any work (422). Bodies over 1 MiB get 413. The
//! server reads no file: the page is compiled in and no request names a path on the server.

pub mod api;
pub mod dots;
pub mod error;
pub mod limits;

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

/// What every request shares: the solve gate and the tables built so far.
#[derive(Clone)]
pub struct AppState {
    gate: Gate,
    tables: Arc<dots::Tables>,
}

impl AppState {
    /// A state allowing `solvers` concurrent solves.
    pub fn new(solvers: usize) -> Self {
        AppState {
            gate: Gate::new(solvers, TIME_LIMIT),
            tables: Arc::new(dots::Tables::default()),
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
/// when a shared table answered, what that table once took to build).
fn report_response(answer: String, solve: Duration, table_build: Option<Duration>) -> Response {
    let mut timing = format!("solve;dur={:.3}", solve.as_secs_f64() * 1000.0);
    if let Some(build) = table_build {
        timing.push_str(&format!(", table;dur={:.3}", build.as_secs_f64() * 1000.0));
    }
    (
        [
            (header::CONTENT_TYPE, "application/json"),
            (header::HeaderName::from_static("server-timing"), &timing),
        ],
        answer,
    )
        .into_response()
}

/// Parses the body and runs `work` through the gate.
async fn handle<R: DeserializeOwned + Send + 'static>(
    state: &AppState,
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
    let request: R = match serde_json::from_slice(&body) {
        Ok(r) => r,
        Err(e) => return ApiError::bad(format!("the request is not valid: {e}")).into_response(),
    };
    match state.gate.run(move || work(request)).await {
        Ok(timed) => {
            let (answer, table) = timed.value;
            report_response(answer, timed.solve, table)
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

macro_rules! endpoint {
    ($f:path) => {
        post(
            |State(s): State<AppState>, body: Result<Bytes, BytesRejection>| async move {
                handle(&s, body, plain($f)).await
            },
        )
    };
}

async fn dots_endpoint(State(s): State<AppState>, body: Result<Bytes, BytesRejection>) -> Response {
    let tables = s.tables.clone();
    handle(&s, body, move |r: dots::DotsRequest| {
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
    handle(&s, body, move |r: dots::PlayDotsRequest| {
        let (reply, answer) = dots::reply(&r, &tables)?;
        Ok((api::json(&reply)?, answer.table_build))
    })
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
    Router::new()
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
        .route("/api/solitaire", endpoint!(api::solitaire))
        .route("/api/heaps", endpoint!(api::heaps))
        .route("/api/play/dots", post(play_dots_endpoint))
        .route("/api/play/heaps", endpoint!(api::play_heaps))
        .route("/api/dice-race/compare", endpoint!(api::compare))
        .route("/api/dice-race/best", endpoint!(api::best_list))
        .route("/api/dice-race/equilibrium", endpoint!(api::equilibrium_of))
        .route("/api/dice-race/sums", endpoint!(api::sums))
        .route("/api/magic-board", endpoint!(api::magic_board))
        .route("/api/magic-board/generate", endpoint!(api::generate))
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
