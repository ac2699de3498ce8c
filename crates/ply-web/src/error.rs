//! Answers that are not reports: `{"error": "<one line>"}` with the status that says whose fault it is.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Serialize;

/// A refused request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    /// 400 bad input, 413 body too large, 422 over the server's budget, 404, 500.
    pub status: StatusCode,
    /// The one line the CLI would print after `ply: `.
    pub message: String,
}

#[derive(Serialize)]
struct Body<'a> {
    error: &'a str,
}

impl ApiError {
    /// Bad input: 400 with the message the CLI gives for the same input.
    pub fn bad(message: impl std::fmt::Display) -> Self {
        ApiError {
            status: StatusCode::BAD_REQUEST,
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
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (
            self.status,
            Json(Body {
                error: &self.message,
            }),
        )
            .into_response()
    }
}
