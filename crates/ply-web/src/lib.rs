//! `ply serve`: one web page (embedded in the binary, nothing to build) and a JSON API whose answers
//! are the `ply` command's `--json` outputs, produced by the same library calls.
//!
//! The API is built from the library's registry ([`plysolve::games::registry`]): every question of
//! every game is a `POST` route at its path, its body checked once by the game's home, costed by
//! the home's model, gated by that cost and answered through the home's door
//! ([`plysolve::games::door`]); `GET /api/games` lists the registry, from which the page builds its
//! game menu. Nothing here knows a game's rules, requests or costs.
//!
//! Under hostile or careless use every part is bounded: connections (a cap where idle and
//! trickling ones make room, a header and idle timeout, small headers: [`connections`]), bodies
//! (1 MiB each, a timeout between their pieces, a least rate and a deadline for the whole, caps on
//! the bytes in flight in all and from one client address: [`bodies`]; JSON from the server's own
//! page only: [`guard`]), and work: every
//! solve passes the [`gate::Gate`] in the lane of its estimated cost, with a time limit, and is told
//! to stop when its client leaves (expensive ones also give way while cheap ones want every core);
//! a solve that finishes is kept in [`answers::Answers`] all the same, so a retry is free. The
//! server reads no file: the page is compiled in ([`page`]) and no request names a path on the
//! server. Every refusal is `{"error": …}`, hyper's own answers to requests it cannot read too
//! ([`http_errors`]).

pub mod answers;
pub mod bodies;
pub mod connections;
pub mod error;
pub mod gate;
pub mod guard;
pub mod half_close;
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
use error::ApiError;
use gate::{Control, Gate, Timed};
use guard::Guard;
use limits::{Settings, MAX_BODY};
use plysolve::engine::MemoryBudget;
use plysolve::games::door::{self, Checked, Cost, Grants, Question};
use plysolve::games::dots::book::Books;
use plysolve::games::dots::kept::Kept;
use plysolve::games::dots::policy::Policy;
use plysolve::games::registry;
use plysolve::input::surface::Surface;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tower_http::trace::TraceLayer;

/// What every request shares: the solve gate, what the server grants every answer (its memory,
/// time limit, player's time, the dots tables it keeps), the answers given and the settings.
#[derive(Clone)]
pub struct AppState {
    gate: Gate,
    grants: Grants,
    answers: Arc<Answers>,
    settings: Settings,
}

impl AppState {
    /// A server set up as `settings` say, granting what [`grants`] says.
    pub fn new(settings: Settings) -> Self {
        Self::with_books(settings, Books::shipped())
    }

    /// A server set up as `settings` say, answering dots positions from `books` first (and writing
    /// its proofs into the one `ply serve --book FILE` names, so a restart answers them at once).
    pub fn with_books(settings: Settings, books: Arc<Books>) -> Self {
        AppState {
            gate: Gate::new(settings.solvers, settings.cores, settings.time_limit),
            grants: grants(&settings, books),
            answers: Arc::new(Answers::default()),
            settings,
        }
    }

    /// The dots policy of the server's grants: what `GET /api/limits` promises.
    fn policy(&self) -> Policy {
        Policy::new(self.grants.memory, self.grants.limit)
    }

    /// The context of an answer starting now under `control`.
    pub(crate) fn context(&self, control: &Control) -> door::Context<'static> {
        door::Context {
            cancel: Some(control.cancel.clone()),
            give_way: control.give_way.clone(),
            ..door::Context::new(self.grants.clone(), Some(control.left))
        }
    }
}

/// What a server set up as `settings` say grants every answer: a quarter of its memory for each
/// answer's tables (two answers at once), its time limit, its player's time to think, and the dots
/// search memories it keeps between requests (at most the other half,
/// [`SEARCH_MEMORY`](limits::SEARCH_MEMORY) for each of two boards), answering from `books` first;
/// answers for others on a shared machine.
pub fn grants(settings: &Settings, books: Arc<Books>) -> Grants {
    let quarter = settings.memory / 4;
    let kept = Kept::new(quarter.min(limits::SEARCH_MEMORY), 2).with_books(books);
    Grants {
        memory: MemoryBudget::new(quarter),
        limit: Some(settings.time_limit),
        think: settings.think,
        kept: Some(Arc::new(kept)),
        shared: true,
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

/// A request's body checked by `question`, its lane by the home's cost model, and a cancel flag
/// raised when the request ends; or the refusal of a body that is not a request it answers.
pub(crate) struct Admitted {
    /// The checked request.
    pub checked: Box<dyn Checked>,
    /// Its lane.
    pub cost: Cost,
    /// Raised when the request ends.
    pub cancel: Arc<AtomicBool>,
}

/// Checks `body` once by `question` and costs it under the server's grants.
pub(crate) fn admit(
    state: &AppState,
    question: &dyn Question,
    body: &[u8],
) -> Result<Admitted, ApiError> {
    let checked = question.check_json(body, Surface::Api)?;
    let cost = checked.cost(&state.grants);
    Ok(Admitted {
        checked,
        cost,
        cancel: Arc::new(AtomicBool::new(false)),
    })
}

/// Runs `work` under a [`Control`] in its lane: cheap work at once on this thread (it takes less
/// than a thread hand-off would), expensive work through the gate (its solvers' pool, giving way
/// to cheap work when it wants every core), within `deadline`.
pub(crate) async fn run_in_lane<T: Send + 'static>(
    state: &AppState,
    cost: Cost,
    cancel: Arc<AtomicBool>,
    deadline: tokio::time::Instant,
    work: impl FnOnce(&Control) -> Result<T, ApiError> + Send + 'static,
) -> Result<Timed<T>, ApiError> {
    if cost == Cost::Cheap {
        let control = Control {
            left: state.settings.time_limit,
            cancel,
            give_way: None,
        };
        let started = Instant::now();
        let value = work(&control)?;
        return Ok(Timed {
            value,
            solve: started.elapsed(),
        });
    }
    state.gate.run(deadline, cancel, work).await
}

/// Answers `body` to `question`: from the answers kept if it was asked before, else by checking
/// it once, costing it by its home's model and answering it in its lane. If the client leaves,
/// the answer is told to stop (its flag is raised), and whatever it finishes is kept all the same
/// for the next identical request.
async fn handle(
    state: &AppState,
    question: &'static dyn Question,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let path = question.about().path;
    let body = match take_body(body) {
        Ok(b) => b,
        Err(refused) => return refused.into_response(),
    };
    if let Some(answer) = state.answers.get(path, &body) {
        return report_response(&answer, true);
    }
    let Admitted {
        checked,
        cost,
        cancel,
    } = match admit(state, question, &body) {
        Ok(admitted) => admitted,
        Err(refused) => return refused.into_response(),
    };
    let _raise = RaiseOnDrop(cancel.clone());
    let deadline = state.gate.deadline();
    let work = {
        let state = state.clone();
        move |control: &Control| Ok(checked.answer(&state.context(control))?)
    };
    if cost == Cost::Cheap {
        let job = run_in_lane(state, cost, cancel, deadline, work);
        return settle(state, path, body, deadline, job).await;
    }
    let (answered, answer) = tokio::sync::oneshot::channel();
    let state = state.clone();
    tokio::spawn(async move {
        let job = run_in_lane(&state, cost, cancel, deadline, work);
        let _ = answered.send(settle(&state, path, body, deadline, job).await);
    });
    answer.await.unwrap_or_else(|_| {
        ApiError::status(StatusCode::INTERNAL_SERVER_ERROR, "the solve was lost").into_response()
    })
}

/// A request's body as the guard read it (whole, within its deadlines: [`bodies`]), or the
/// refusal of one that could not be taken.
fn take_body(body: Result<Bytes, BytesRejection>) -> Result<Bytes, ApiError> {
    body.map_err(|rejection| match rejection.status() {
        StatusCode::PAYLOAD_TOO_LARGE => ApiError::body_too_large(),
        status => ApiError::status(status, rejection.body_text()),
    })
}

/// Runs `job` for `body` on `path` unless an identical request in flight gives its answer first
/// (then this one waits for it, within `deadline`), and keeps its answer when it may be kept.
async fn settle(
    state: &AppState,
    path: &'static str,
    body: Bytes,
    deadline: tokio::time::Instant,
    job: impl std::future::Future<Output = Result<Timed<door::Answer>, ApiError>>,
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

/// `POST` routes for every question of every game in the registry: each answered by [`handle`],
/// or streamed by [`live::stream`] when it streams.
fn questions(mut api: Router<AppState>) -> Router<AppState> {
    for question in registry::questions() {
        let about = question.about();
        let route = if about.streams {
            post(
                move |State(s): State<AppState>, body: Result<Bytes, BytesRejection>| async move {
                    live::stream(s, question, body).await
                },
            )
        } else {
            post(
                move |State(s): State<AppState>, body: Result<Bytes, BytesRejection>| async move {
                    handle(&s, question, body).await
                },
            )
        };
        api = api.route(about.path, route);
    }
    api
}

/// The whole application: the page and the API, the API behind its [`guard`] (checking every
/// request for a server bound to `addr`); every request logged when `state`'s settings say so.
pub fn app(state: AppState, addr: SocketAddr) -> Router {
    let guard = Guard::new(addr, state.settings.body_limits());
    let api = Router::new()
        .route(
            "/api/limits",
            get(|State(s): State<AppState>| async move {
                axum::Json(limits::Limits::of(&s.settings, &s.policy()))
            }),
        )
        .route(
            "/api/games",
            get(|| async {
                let games: Vec<_> = registry::games().iter().map(|g| g.listing()).collect();
                axum::Json(games)
            }),
        );
    let api = questions(api);
    let api = api
        .method_not_allowed_fallback(wrong_method)
        .layer(axum::middleware::from_fn_with_state(guard, guard::guard));
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
        let listener = connections::listen(addr)?;
        let bound = listener.local_addr()?;
        let state = AppState::with_books(settings, books);
        ready(bound);
        let limits = settings.connection_limits();
        let shutdown = async {
            let _ = tokio::signal::ctrl_c().await;
        };
        connections::serve(listener, app(state, bound), limits, shutdown).await;
        Ok(())
    })
}
