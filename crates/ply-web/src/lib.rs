//! `ply serve`: one web page (embedded in the binary, nothing to build) and a JSON API whose answers
//! are the `ply` command's `--json` outputs, produced by the same library calls.
//!
//! Under hostile or careless use every part is bounded: connections (a cap, a header and idle
//! timeout, small headers: [`connections`]), bodies (1 MiB each, a timeout between their pieces, a
//! cap on all bodies in flight, JSON from the server's own page only: [`guard`]), and work: every
//! solve passes the [`gate::Gate`] in the lane of its estimated cost, with a time limit, and is told
//! to stop when its client leaves (expensive ones also give way while cheap ones want every core);
//! a solve that finishes is kept in [`answers::Answers`] all the same, so a retry is free. The
//! server reads no file: the page is compiled in ([`page`]) and no request names a path on the
//! server. Every refusal is `{"error": …}`, hyper's own answers to requests it cannot read too
//! ([`http_errors`]).

pub mod answers;
pub mod api;
pub mod connections;
pub mod costs;
pub mod dots;
pub mod error;
pub mod gate;
pub mod guard;
pub mod http_errors;
pub mod limits;
pub mod live;
pub mod page;

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
use gate::{Control, Cost, Gate, Timed};
use guard::Guard;
use limits::{Settings, MAX_BODY};
use plysolve::engine::util::halt::Halt;
use plysolve::engine::MemoryBudget;
use plysolve::games::dots::book::Books;
use plysolve::games::dots::kept::Kept;
use plysolve::games::dots::policy::Policy;
use plysolve::input::json::JsonFault;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tower_http::trace::TraceLayer;

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
    /// (two answers at once); the dots search memories kept between requests take at most the
    /// other half, [`SEARCH_MEMORY`](limits::SEARCH_MEMORY) for each of two boards.
    pub fn new(settings: Settings) -> Self {
        Self::with_books(settings, Books::shipped())
    }

    /// A server set up as `settings` say, answering dots positions from `books` first (and writing
    /// its proofs into the one `ply serve --book FILE` names, so a restart answers them at once).
    pub fn with_books(settings: Settings, books: Arc<Books>) -> Self {
        let quarter = settings.memory / 4;
        let policy = Policy::new(MemoryBudget::new(quarter), Some(settings.time_limit));
        let kept = Kept::new(quarter.min(limits::SEARCH_MEMORY), 2).with_books(books);
        AppState {
            gate: Gate::new(settings.solvers, settings.cores, settings.time_limit),
            dots: Arc::new(DotsService::new(policy, settings.think, kept)),
            answers: Arc::new(Answers::default()),
            settings,
            policy,
        }
    }
}

/// A request body as an endpoint reads it: a game's request by the library's JSON reader
/// ([`plysolve::input::json::read`]), its faults in the API's terms.
pub trait Body: Sized {
    /// The request `json` states.
    fn read(json: &[u8]) -> Result<Self, JsonFault>;
}

impl<T: serde::de::DeserializeOwned> Body for T {
    fn read(json: &[u8]) -> Result<Self, JsonFault> {
        plysolve::input::json::read(json)
    }
}

/// Raises its flag when dropped: the request it belongs to has ended, answered or not (its client
/// may have left).
pub(crate) struct RaiseOnDrop(Arc<AtomicBool>);

impl Drop for RaiseOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
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

/// Answers `body` on `path`: from the answers kept if it was asked before, else by parsing it,
/// estimating its cost and running `work` under a [`Control`] (the time left, a cancel flag). Cheap
/// work runs at once on this thread (it takes less than a thread hand-off would); expensive work
/// runs on its own through the gate, giving way to cheap work when it wants every core: if the
/// client leaves, it is told to stop (its flag is raised), and whatever it finishes is kept all the
/// same for the next identical request.
async fn handle<R: Body + Send + 'static>(
    state: &AppState,
    path: &'static str,
    body: Result<Bytes, BytesRejection>,
    cost: impl FnOnce(&R) -> Cost + Send + 'static,
    work: impl FnOnce(R, &Control) -> Result<Served, ApiError> + Send + 'static,
) -> Response {
    let body = match take_body(state, body) {
        Ok(b) => b,
        Err(refused) => return refused.into_response(),
    };
    if let Some(answer) = state.answers.get(path, &body) {
        return report_response(&answer, true);
    }
    let request = match R::read(&body) {
        Ok(r) => r,
        Err(e) => return ApiError::unreadable(&e).into_response(),
    };
    let cancel = Arc::new(AtomicBool::new(false));
    let _raise = RaiseOnDrop(cancel.clone());
    let deadline = state.gate.deadline();
    if cost(&request) == Cost::Cheap {
        let control = Control {
            left: state.settings.time_limit,
            cancel,
            give_way: None,
        };
        let job = async move {
            let started = Instant::now();
            let value = work(request, &control)?;
            Ok(Timed {
                value,
                solve: started.elapsed(),
            })
        };
        return settle(state, path, body, deadline, job).await;
    }
    let (answered, answer) = tokio::sync::oneshot::channel();
    let state = state.clone();
    tokio::spawn(async move {
        let job = state
            .gate
            .run(deadline, cancel, move |control| work(request, control));
        let _ = answered.send(settle(&state, path, body, deadline, job).await);
    });
    answer.await.unwrap_or_else(|_| {
        ApiError::status(StatusCode::INTERNAL_SERVER_ERROR, "the solve was lost").into_response()
    })
}

/// A request's body as it came, or the refusal of one that did not: too large, or stalled (then
/// naming the server's timeout).
fn take_body(state: &AppState, body: Result<Bytes, BytesRejection>) -> Result<Bytes, ApiError> {
    body.map_err(|rejection| {
        let status = rejection.status();
        let text = rejection.body_text();
        if status == StatusCode::PAYLOAD_TOO_LARGE {
            return ApiError::body_too_large();
        }
        let (status, message) = if text.contains("timeout") {
            let timeout = state.settings.body_timeout.as_millis() as u64;
            let stalled = format!(
                "the request body stopped coming: nothing for {}",
                plysolve::engine::util::halt::millis_text(timeout)
            );
            (StatusCode::REQUEST_TIMEOUT, stalled)
        } else {
            (status, text)
        };
        ApiError::status(status, message)
    })
}

/// Runs `job` for `body` on `path` unless an identical request in flight gives its answer first
/// (then this one waits for it, within `deadline`), and keeps its answer when it may be kept.
async fn settle(
    state: &AppState,
    path: &'static str,
    body: Bytes,
    deadline: tokio::time::Instant,
    job: impl std::future::Future<Output = Result<Timed<Served>, ApiError>>,
) -> Response {
    let pending =
        match tokio::time::timeout_at(deadline, state.answers.get_or_pending(path, &body)).await {
            Err(_) => return state.gate.too_long().into_response(),
            Ok(Ok(answer)) => return report_response(&answer, true),
            Ok(Err(pending)) => pending,
        };
    match job.await {
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
) -> impl FnOnce(R, &Control) -> Result<Served, ApiError> + Send + 'static {
    move |r, _| f(&r).map(|text| Served { text, keep: true })
}

/// Wraps an endpoint function that obeys a halt: the time left (named, when it comes, as the
/// server's time limit `whole`), the cancel flag raised when the client leaves and the give-way,
/// so that work past the time is refused up front by the game's cost model, abandoned work stops
/// and expensive work pauses for cheap work.
fn halted<R: 'static>(
    f: fn(&R, &Halt) -> Result<String, ApiError>,
    whole: Duration,
) -> impl FnOnce(R, &Control) -> Result<Served, ApiError> + Send + 'static {
    move |r, control| f(&r, &control.halt(whole)).map(|text| Served { text, keep: true })
}

/// Routes `POST $path` to an endpoint function taking its request and a [`Halt`], its cost
/// estimated by `$cost`.
macro_rules! halted_endpoint {
    ($router:expr, $path:literal, $f:path, $cost:expr) => {
        $router.route(
            $path,
            post(
                |State(s): State<AppState>, body: Result<Bytes, BytesRejection>| async move {
                    let work = halted($f, s.settings.time_limit);
                    handle(&s, $path, body, $cost, work).await
                },
            ),
        )
    };
}

/// Routes `POST $path` to an endpoint function that needs nothing but its request, its cost
/// estimated by `$cost`.
macro_rules! endpoint {
    ($router:expr, $path:literal, $f:path, $cost:expr) => {
        $router.route(
            $path,
            post(
                |State(s): State<AppState>, body: Result<Bytes, BytesRejection>| async move {
                    handle(&s, $path, body, $cost, plain($f)).await
                },
            ),
        )
    };
}

/// Routes `POST $path` to a method of the dots service taking the request and its [`Control`], its
/// cost estimated by the service.
macro_rules! dots_endpoint {
    ($router:expr, $path:literal, $method:ident) => {
        $router.route(
            $path,
            post(
                |State(s): State<AppState>, body: Result<Bytes, BytesRejection>| async move {
                    let service = s.dots.clone();
                    let estimate = s.dots.clone();
                    handle(
                        &s,
                        $path,
                        body,
                        move |r| estimate.cost(stringify!($method), dots::DotsBody::dots(r)),
                        move |r, control| service.$method(&r, control),
                    )
                    .await
                },
            ),
        )
    };
}

async fn not_found() -> Response {
    ApiError::status(StatusCode::NOT_FOUND, "no such page").into_response()
}

async fn wrong_method() -> Response {
    ApiError::status(
        StatusCode::METHOD_NOT_ALLOWED,
        "this path answers another method (the API takes POST with a JSON body; the page, GET)",
    )
    .into_response()
}

/// The whole application: the page and the API, the API behind its [`guard`] (checking every
/// request for a server bound to `addr`); every request logged when `state`'s settings say so.
pub fn app(state: AppState, addr: SocketAddr) -> Router {
    let guard = Guard::new(addr, state.settings.body_bytes);
    let api = Router::new()
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
                    handle(
                        &s,
                        "/api/dots/board",
                        body,
                        |_: &_| Cost::Cheap,
                        move |r, _| service.board(&r),
                    )
                    .await
                },
            ),
        );
    let api = dots_endpoint!(api, "/api/dots", answer);
    let api = dots_endpoint!(api, "/api/play/dots", reply);
    let api = dots_endpoint!(api, "/api/dots/review", review);
    let api = api.route(
        "/api/dots/analyse",
        post(
            |State(s): State<AppState>, body: Result<Bytes, BytesRejection>| async move {
                live::analyse(s, body).await
            },
        ),
    );
    let api = halted_endpoint!(api, "/api/solitaire", api::solitaire, costs::solitaire);
    let api = endpoint!(api, "/api/heaps", api::heaps, |_: &_| Cost::Cheap);
    let api = endpoint!(api, "/api/play/heaps", api::play_heaps, |_: &_| Cost::Cheap);
    let api = endpoint!(api, "/api/heaps/game", api::heaps_game, |_: &_| Cost::Cheap);
    let api = halted_endpoint!(api, "/api/dice-race/compare", api::compare, costs::compare);
    let api = halted_endpoint!(api, "/api/dice-race/best", api::best_list, costs::best);
    let api = halted_endpoint!(
        api,
        "/api/dice-race/equilibrium",
        api::equilibrium_of,
        costs::equilibrium
    );
    let api = endpoint!(api, "/api/dice-race/sums", api::sums, |_: &_| Cost::Cheap);
    let api = halted_endpoint!(api, "/api/dice-race/game", api::race_game, |_: &_| {
        Cost::Cheap
    });
    let api = halted_endpoint!(
        api,
        "/api/magic-board",
        api::magic_board,
        costs::magic_board
    );
    let api = halted_endpoint!(
        api,
        "/api/magic-board/generate",
        api::generate,
        costs::generate
    );
    let api = api
        .method_not_allowed_fallback(wrong_method)
        .layer(axum::middleware::from_fn_with_state(guard, guard::guard))
        .layer(tower_http::timeout::RequestBodyTimeoutLayer::new(
            state.settings.body_timeout,
        ));
    let log = state.settings.log;
    let app = page::routes(Router::new())
        .method_not_allowed_fallback(wrong_method)
        .merge(api)
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(state);
    if !log {
        return app;
    }
    // The request log (`ply serve` without `--quiet`): each request's method and path, then on one
    // line the status and the time to the answer's head (for `/api/dots/analyse`, its first event:
    // the stream goes on after it), as an event at INFO level that `serve` writes to stderr.
    app.layer(
        TraceLayer::new_for_http()
            .make_span_with(|request: &axum::http::Request<axum::body::Body>| {
                tracing::info_span!(
                    "request",
                    method = %request.method(),
                    path = %request.uri().path()
                )
            })
            .on_request(())
            .on_response(|response: &Response, took: Duration, _: &tracing::Span| {
                let ms = took.as_secs_f64() * 1000.0;
                tracing::info!("{} in {ms:.1} ms", response.status().as_u16());
            })
            .on_failure(()),
    )
}

/// Serves on `addr` as `settings` say until Ctrl-C, answering dots positions from `books` first;
/// `ready` is told the address actually bound (port 0 picks a free one). With `settings.log`, each
/// request is a line on stderr ([`app`]'s request log).
pub fn serve(
    addr: SocketAddr,
    settings: Settings,
    books: Arc<Books>,
    ready: impl FnOnce(SocketAddr),
) -> std::io::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    if settings.log {
        // Only the request log's events: lines of their own, on stderr, never coloured. (A second
        // server in the process keeps the first one's writer: set once.)
        let _ = tracing_subscriber::fmt()
            .with_writer(std::io::stderr)
            .with_max_level(tracing::Level::INFO)
            .with_target(false)
            .with_ansi(false)
            .try_init();
    }
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(addr).await?;
        let bound = listener.local_addr()?;
        let state = AppState::with_books(settings, books);
        ready(bound);
        let limits = connections::ConnectionLimits {
            max_connections: settings.max_connections,
            header_timeout: settings.header_timeout,
        };
        let shutdown = async {
            let _ = tokio::signal::ctrl_c().await;
        };
        connections::serve(listener, app(state, bound), limits, shutdown).await;
        Ok(())
    })
}
