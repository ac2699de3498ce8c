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
//! any event. The solve runs in the gate's lane of its cost, within the server's time limit; when
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

/// One server-sent event: its name and its data, a line of JSON.
fn event(name: &str, json: &str) -> Bytes {
    Bytes::from(format!("event: {name}\ndata: {json}\n\n"))
}

/// Sends status events down a stream: every one naming something just proved, the others at most
/// [`STATUS_EVERY`] apart.
struct StatusEvents {
    events: UnboundedSender<Bytes>,
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
        let _ = self.events.send(event("status", &report.json));
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
    let (events, received) = unbounded_channel::<Bytes>();
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
            Ok(timed) => event("report", &timed.value.text),
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
