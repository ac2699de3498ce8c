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
use dots::{DotsService, Served};
use error::ApiError;
use limits::{Gate, Settings, MAX_BODY};
use ply::engine::MemoryBudget;
use ply::games::dots::kept::Kept;
use ply::games::dots::policy::Policy;
use serde::de::DeserializeOwned;
use std::net::SocketAddr;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// What every request shares: the solve gate, the dots service (its policy and what it keeps), the
/// answers given and the settings.
#[derive(Clone)]
pub struct AppState {
    gate: Gate,
    dots: Arc<DotsService>,
    answers: Arc<Answers>,
    settings: Settings,
    policy: Policy,
}

impl AppState {
    /// A server set up as `settings` say. Each answer's tables may take a quarter of its memory
    /// (two answers at once); the dots search memories kept between requests take the other half,
    /// a quarter for each of two boards.
    pub fn new(settings: Settings) -> Self {
        let quarter = settings.memory / 4;
        let policy = Policy::new(MemoryBudget::new(quarter), Some(settings.time_limit));
        let kept = Kept::new(quarter, 2);
        AppState {
            gate: Gate::new(settings.solvers, settings.time_limit),
            dots: Arc::new(DotsService::new(policy, settings.think, kept)),
            answers: Arc::new(Answers::default()),
            settings,
            policy,
        }
    }
}

/// A report answered as the CLI prints it, with `Server-Timing` saying what the solve took (`cache`
/// when the answer was kept from an identical request).
fn report_response(answer: &Answer, cached: bool) -> Response {
    let mut timing = format!("solve;dur={:.3}", answer.solve.as_secs_f64() * 1000.0);
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
/// running `work` through the gate with the time left and the cancel flag (and keeping a successful
/// answer that may be kept).
async fn handle<R: DeserializeOwned + Send + 'static>(
    state: &AppState,
    path: &'static str,
    body: Result<Bytes, BytesRejection>,
    work: impl FnOnce(R, Duration, &Arc<AtomicBool>) -> Result<Served, ApiError> + Send + 'static,
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
    match state
        .gate
        .run(deadline, move |left, cancel| work(request, left, cancel))
        .await
    {
        Ok(timed) => {
            let answer = Arc::new(Answer {
                text: timed.value.text,
                solve: timed.solve,
            });
            if timed.value.keep {
                pending.keep(answer.clone());
            }
            report_response(&answer, false)
        }
        Err(e) => e.into_response(),
    }
}

/// Wraps an endpoint function that needs nothing but its request (it is quick, or bounded by its
/// own checks).
fn plain<R: 'static>(
    f: fn(&R) -> Result<String, ApiError>,
) -> impl FnOnce(R, Duration, &Arc<AtomicBool>) -> Result<Served, ApiError> + Send + 'static {
    move |r, _, _| f(&r).map(|text| Served { text, keep: true })
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

/// Routes `POST $path` to a method of the dots service taking the request, the time left and the
/// cancel flag.
macro_rules! dots_endpoint {
    ($router:expr, $path:literal, $method:ident) => {
        $router.route(
            $path,
            post(
                |State(s): State<AppState>, body: Result<Bytes, BytesRejection>| async move {
                    let service = s.dots.clone();
                    handle(&s, $path, body, move |r, left, cancel| {
                        service.$method(&r, left, cancel)
                    })
                    .await
                },
            ),
        )
    };
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
            "/common.js",
            get(|| async {
                static_file(
                    "text/javascript; charset=utf-8",
                    include_str!("../static/common.js"),
                )
            }),
        )
        .route(
            "/dots-draw.js",
            get(|| async {
                static_file(
                    "text/javascript; charset=utf-8",
                    include_str!("../static/dots-draw.js"),
                )
            }),
        )
        .route(
            "/dots-layout.js",
            get(|| async {
                static_file(
                    "text/javascript; charset=utf-8",
                    include_str!("../static/dots-layout.js"),
                )
            }),
        )
        .route(
            "/dots.js",
            get(|| async {
                static_file(
                    "text/javascript; charset=utf-8",
                    include_str!("../static/dots.js"),
                )
            }),
        )
        .route(
            "/solitaire.js",
            get(|| async {
                static_file(
                    "text/javascript; charset=utf-8",
                    include_str!("../static/solitaire.js"),
                )
            }),
        )
        .route(
            "/dice-race.js",
            get(|| async {
                static_file(
                    "text/javascript; charset=utf-8",
                    include_str!("../static/dice-race.js"),
                )
            }),
        )
        .route(
            "/magic-board.js",
            get(|| async {
                static_file(
                    "text/javascript; charset=utf-8",
                    include_str!("../static/magic-board.js"),
                )
            }),
        )
        .route(
            "/heaps.js",
            get(|| async {
                static_file(
                    "text/javascript; charset=utf-8",
                    include_str!("../static/heaps.js"),
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
            get(|State(s): State<AppState>| async move {
                axum::Json(limits::Limits::of(&s.settings, &s.policy))
            }),
        )
        .route(
            "/api/dots/board",
            post(
                |State(s): State<AppState>, body: Result<Bytes, BytesRejection>| async move {
                    let service = s.dots.clone();
                    handle(&s, "/api/dots/board", body, move |r, _, _| {
                        service.board(&r)
                    })
                    .await
                },
            ),
        );
    let router = dots_endpoint!(router, "/api/dots", answer);
    let router = dots_endpoint!(router, "/api/play/dots", reply);
    let router = dots_endpoint!(router, "/api/dots/review", review);
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

/// Serves on `addr` as `settings` say until Ctrl-C; `ready` is told the address actually bound (port
/// 0 picks a free one).
pub fn serve(
    addr: SocketAddr,
    settings: Settings,
    ready: impl FnOnce(SocketAddr),
) -> std::io::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(addr).await?;
        let state = AppState::new(settings);
        ready(listener.local_addr()?);
        axum::serve(listener, app(state))
            .with_graceful_shutdown(async {
                let _ = tokio::signal::ctrl_c().await;
            })
            .await
    })
}
