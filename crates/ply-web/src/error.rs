//! Answers that are not reports: `{"error": "<one line>"}` with the status that says whose fault it is.

use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use plysolve::games::door::{Fault, FaultKind};
use serde::Serialize;

/// A refused request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    /// 400 bad input, 403 another origin, 404, 405, 413 body too large, 415 not JSON, 422 over the
    /// server's budget, 500, 503 too many bodies at once.
    pub status: StatusCode,
    /// The one line the CLI would print after `ply: `.
    pub message: String,
}

#[derive(Serialize)]
struct Body<'a> {
    error: &'a str,
}

impl ApiError {
    /// A body over [`MAX_BODY`](crate::limits::MAX_BODY) bytes (413), however it was found out:
    /// from its declared length, or read up to the limit.
    pub fn body_too_large() -> Self {
        ApiError::status(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "the request body is over {} bytes, the server's limit",
                crate::limits::MAX_BODY
            ),
        )
    }

    /// A refusal with its own `status` (403, 405, 413, 415, 503, 500).
    pub fn status(status: StatusCode, message: impl std::fmt::Display) -> Self {
        ApiError {
            status,
            message: message.to_string().replace('\n', " "),
        }
    }

    /// Work over what the server will do for one request: 422.
    pub fn over_budget(message: impl std::fmt::Display) -> Self {
        ApiError {
            status: StatusCode::UNPROCESSABLE_ENTITY,
            message: message.to_string().replace('\n', " "),
        }
    }

    /// The JSON body: `{"error": "<message>"}`.
    pub fn body(&self) -> String {
        let body = Body {
            error: &self.message,
        };
        serde_json::to_string(&body).expect("a string serializes")
    }
}

impl From<Fault> for ApiError {
    /// A question's fault, worded for the API: 400 for what the request is, 422 for work over a
    /// limit, 500 for an answer that could not be written.
    fn from(fault: Fault) -> Self {
        let status = match fault.kind {
            FaultKind::Unreadable | FaultKind::Bad => StatusCode::BAD_REQUEST,
            FaultKind::OverBudget => StatusCode::UNPROCESSABLE_ENTITY,
            FaultKind::Internal => StatusCode::INTERNAL_SERVER_ERROR,
        };
        ApiError::status(status, fault.message)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (
            self.status,
            [(header::CONTENT_TYPE, "application/json")],
            self.body(),
        )
            .into_response()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use plysolve::games::registry;
    use plysolve::input::surface::Surface;

    fn message(body: &str) -> String {
        let heaps = registry::question("/api/heaps").unwrap();
        let Err(fault) = heaps.check_json(body.as_bytes(), Surface::Api) else {
            panic!("{body} is read");
        };
        let refused = ApiError::from(fault);
        assert_eq!(refused.status, StatusCode::BAD_REQUEST);
        refused.message
    }

    #[test]
    fn a_body_that_is_no_request_is_told_in_the_apis_terms() {
        assert_eq!(
            message(r#"{"heaps":[1],"misere":1e3}"#),
            "\"misere\" must be true or false, not `1e3`"
        );
        assert_eq!(
            message("{\n \"heaps\": [1], \"grundy\": 18446744073709551616}"),
            "\"grundy\" must be true or false, not `18446744073709551616`"
        );
        assert_eq!(
            message("[]"),
            "the request must be an object of keys and values, not `[]`"
        );
        assert_eq!(
            message("{\"heaps\": [1],"),
            "the request is not JSON: EOF while parsing a value (line 1, column 14)"
        );
    }
}
