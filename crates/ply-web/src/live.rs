//! The questions that stream ([`About::streams`](plysolve::games::door::About::streams)): their answer, with the live reports that come
//! before it as server-sent events on the same request. `POST /api/dots/analyse` is the answer
//! `/api/dots` gives, so that a long analysis (the page's "Analyse longer") shows its bounds
//! tightening and its moves proved as they come. Events, each one JSON line of `data`:
//!
//! - `status` — what the search has proved so far (the dots home's `LiveStatus`): nodes, the bounds of the value
//!   for the player to move, moves proved, and the moves proved since the last status with their
//!   values. At most [`STATUS_EVERY`] apart, except those naming moves just proved, which all come.
//! - `report` — the last event: the report `/api/dots` gives for the same body.
//! - `error` — the last event instead, when the solve fails: `{"error": …}`.
//!
//! A body that cannot be read or checked is refused as on every endpoint (one line, 400) before
//! any event; so is a question refused before its first event within [`FIRST_EVENT_WAIT`] (a
//! table over the memory budget: 422, as `/api/dots` answers it). The solve runs in the gate's lane of its cost, within the server's time limit; when
//! the client leaves (the page moves on), its stream is dropped and the solve told to stop. What it
//! proved stays in the server's search memory, and in its book when `ply serve --book FILE` names
//! one.

use crate::gate::Control;
use crate::{admit, run_in_lane, take_body, AppState, RaiseOnDrop};
use axum::body::{Body, Bytes};
use axum::extract::rejection::BytesRejection;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use plysolve::games::door::{Context, LiveReport, Question};
use std::convert::Infallible;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::mpsc::{unbounded_channel, UnboundedSender};

/// The least time between two `status` events that name nothing just proved.
pub const STATUS_EVERY: Duration = Duration::from_millis(250);

/// How long the answer's head waits for the solve's first event: a question refused at once (a
/// table over the memory budget, say) gets its status and one line as `/api/dots` does, not a
/// stream that opens with its error.
pub const FIRST_EVENT_WAIT: Duration = Duration::from_millis(250);

/// What the solve sends down its stream: an event, or the refusal that ends it.
enum Sent {
    Event(Bytes),
    Failed(crate::error::ApiError),
}

impl Sent {
    /// The bytes of the event (a refusal as the `error` event).
    fn bytes(self) -> Bytes {
        match self {
            Sent::Event(bytes) => bytes,
            Sent::Failed(e) => event("error", &e.body()),
        }
    }
}

/// One server-sent event: its name and its data, a line of JSON.
fn event(name: &str, json: &str) -> Bytes {
    Bytes::from(format!("event: {name}\ndata: {json}\n\n"))
}

/// Sends status events down a stream: every one naming something just proved, the others at most
/// [`STATUS_EVERY`] apart.
struct StatusEvents {
    events: UnboundedSender<Sent>,
    last: Mutex<Option<Instant>>,
}

impl StatusEvents {
    fn tell(&self, report: LiveReport) {
        let mut last = self.last.lock().unwrap_or_else(|e| e.into_inner());
        let due = last.is_none_or(|at| at.elapsed() >= STATUS_EVERY);
        if !due && !report.news {
            return;
        }
        *last = Some(Instant::now());
        // A client that left has dropped the stream; the solve is told so by its cancel flag.
        let _ = self.events.send(Sent::Event(event("status", &report.json)));
    }
}

/// Answers a question that streams (`POST /api/dots/analyse`; see the module's documentation).
pub async fn stream(
    state: AppState,
    question: &'static dyn Question,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let body = match take_body(body) {
        Ok(b) => b,
        Err(refused) => return refused.into_response(),
    };
    let admitted = match admit(&state, question, &body) {
        Ok(admitted) => admitted,
        Err(refused) => return refused.into_response(),
    };
    let (events, mut received) = unbounded_channel::<Sent>();
    let raise = RaiseOnDrop(admitted.cancel.clone());
    let deadline = state.gate.deadline();
    tokio::spawn(async move {
        let status = Arc::new(StatusEvents {
            events: events.clone(),
            last: Mutex::new(None),
        });
        let checked = admitted.checked;
        let grants = state.clone();
        let work = move |control: &Control| {
            let tell = |report: LiveReport| status.tell(report);
            let context = Context {
                live: Some(&tell),
                ..grants.context(control)
            };
            Ok(checked.answer(&context)?)
        };
        let done = run_in_lane(&state, admitted.cost, admitted.cancel, deadline, work).await;
        let last = match done {
            Ok(timed) => Sent::Event(event("report", &timed.value.text)),
            Err(e) => Sent::Failed(e),
        };
        let _ = events.send(last);
    });
    // A refusal before any event is the answer itself, with its status.
    let first = match tokio::time::timeout(FIRST_EVENT_WAIT, received.recv()).await {
        Ok(Some(Sent::Failed(refused))) => return refused.into_response(),
        Ok(first) => first,
        Err(_) => None,
    };
    // The stream ends with the solve's last event; dropped early (the client left), it raises the
    // solve's cancel flag.
    let start = (first, received, raise);
    let stream = futures_util::stream::unfold(start, |(first, mut received, raise)| async {
        let next = match first {
            Some(first) => first,
            None => received.recv().await?,
        };
        Some((Ok::<_, Infallible>(next.bytes()), (None, received, raise)))
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
