//! `POST /api/dots/analyse`: the answer `/api/dots` gives, streamed as server-sent events on the
//! same request, so that a long analysis (the page's "Analyse longer") shows its bounds tightening
//! and its moves proved as they come. Events, each one JSON line of `data`:
//!
//! - `status` — what the search has proved so far ([`LiveStatus`]): nodes, the bounds of the value
//!   for the player to move, moves proved, and the moves proved since the last status with their
//!   values. At most [`STATUS_EVERY`] apart, except those naming moves just proved, which all come.
//! - `report` — the last event: the report `/api/dots` gives for the same body.
//! - `error` — the last event instead, when the solve fails: `{"error": …}`.
//!
//! A body that cannot be read or checked is refused as on every endpoint (one line, 400) before
//! any event. The solve runs in the gate's lane of its cost, within the server's time limit; when
//! the client leaves (the page moves on), its stream is dropped and the solve told to stop. What it
//! proved stays in the server's search memory, and in its book when `ply serve --book FILE` names
//! one.

use crate::dots::DotsBody;
use crate::error::ApiError;
use crate::gate::{Control, Cost};
use crate::{take_body, AppState, RaiseOnDrop};
use axum::body::{Body, Bytes};
use axum::extract::rejection::BytesRejection;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use plysolve::games::dots::live::LiveStatus;
use plysolve::games::dots::request::DotsRequest;
use std::convert::Infallible;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::mpsc::{unbounded_channel, UnboundedSender};

/// The least time between two `status` events that name no move just proved.
pub const STATUS_EVERY: Duration = Duration::from_millis(250);

/// One server-sent event: its name and its data, a line of JSON.
fn event(name: &str, json: &str) -> Bytes {
    Bytes::from(format!("event: {name}\ndata: {json}\n\n"))
}

/// Sends status events down a stream: every one naming moves just proved, the others at most
/// [`STATUS_EVERY`] apart.
struct StatusEvents {
    events: UnboundedSender<Bytes>,
    last: Mutex<Option<Instant>>,
}

impl StatusEvents {
    fn tell(&self, status: LiveStatus) {
        let mut last = self.last.lock().unwrap_or_else(|e| e.into_inner());
        let due = last.is_none_or(|at| at.elapsed() >= STATUS_EVERY);
        if !due && status.proved.is_empty() {
            return;
        }
        *last = Some(Instant::now());
        if let Ok(json) = serde_json::to_string(&status) {
            // A client that left has dropped the stream; the solve is told so by its cancel flag.
            let _ = self.events.send(event("status", &json));
        }
    }
}

/// Answers `POST /api/dots/analyse` (see the module's documentation).
pub async fn analyse(state: AppState, body: Result<Bytes, BytesRejection>) -> Response {
    let body = match take_body(&state, body) {
        Ok(b) => b,
        Err(refused) => return refused.into_response(),
    };
    let request: DotsRequest = match plysolve::input::json::read(&body) {
        Ok(r) => r,
        Err(e) => return ApiError::unreadable(&e).into_response(),
    };
    if let Err(e) = request.dots().validate() {
        return ApiError::worded(&e, false).into_response();
    }
    let (events, received) = unbounded_channel::<Bytes>();
    let cancel = Arc::new(AtomicBool::new(false));
    let raise = RaiseOnDrop(cancel.clone());
    let cheap = state.dots.cost("answer", &request) == Cost::Cheap;
    let deadline = state.gate.deadline();
    tokio::spawn(async move {
        let status = StatusEvents {
            events: events.clone(),
            last: Mutex::new(None),
        };
        let service = state.dots.clone();
        let work = move |control: &Control| service.analyse(&request, control, &|s| status.tell(s));
        let done = if cheap {
            let control = Control {
                left: state.settings.time_limit,
                cancel,
                give_way: None,
            };
            work(&control)
        } else {
            state
                .gate
                .run(deadline, cancel, work)
                .await
                .map(|t| t.value)
        };
        let last = match done {
            Ok(served) => event("report", &served.text),
            Err(e) => event("error", &e.body()),
        };
        let _ = events.send(last);
    });
    // The stream ends with the solve's last event; dropped early (the client left), it raises the
    // solve's cancel flag.
    let stream = futures_util::stream::unfold((received, raise), |(mut received, raise)| async {
        let next = received.recv().await?;
        Some((Ok::<_, Infallible>(next), (received, raise)))
    });
    (
        [
            (header::CONTENT_TYPE, "text/event-stream"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        Body::from_stream(stream),
    )
        .into_response()
}
