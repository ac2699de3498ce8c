//! Answers that are not reports: `{"error": "<one line>"}` with the status that says whose fault it is.

use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
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
    /// Bad input: 400 with the message the CLI gives for the same input.
    pub fn bad(message: impl std::fmt::Display) -> Self {
        ApiError {
            status: StatusCode::BAD_REQUEST,
            message: message.to_string().replace('\n', " "),
        }
    }

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

    /// A body that is not the request it should be, worded by serde: numbers quoted as the body
    /// wrote them (serde writes its own reading of them: `1e3` as `1000.0`, `2^64` as
    /// `1.8446744073709552e19`).
    pub fn invalid(error: &serde_json::Error, body: &[u8]) -> Self {
        let mut message = error.to_string();
        if let Some(raw) = token_before(body, error.line(), error.column()) {
            for kind in ["floating point", "integer"] {
                let prefix = format!("invalid type: {kind} `");
                let Some(start) = message.find(&prefix).map(|i| i + prefix.len()) else {
                    continue;
                };
                if let Some(len) = message[start..].find('`') {
                    message.replace_range(start..start + len, &raw);
                }
            }
            let prefix = "invalid value: integer `";
            if let Some(start) = message.find(prefix).map(|i| i + prefix.len()) {
                if let Some(len) = message[start..].find('`') {
                    message.replace_range(start..start + len, &raw);
                }
            }
        }
        ApiError::bad(format!("the request is not valid: {message}"))
    }

    /// Work over what the server will do for one request: 422.
    pub fn over_budget(message: impl std::fmt::Display) -> Self {
        ApiError {
            status: StatusCode::UNPROCESSABLE_ENTITY,
            message: message.to_string().replace('\n', " "),
        }
    }

    /// A game's refusal: 422 when it was `over_budget` (work over its limit, or halted), 400 for
    /// what the request is.
    pub fn refused(message: impl std::fmt::Display, over_budget: bool) -> Self {
        if over_budget {
            ApiError::over_budget(message)
        } else {
            ApiError::bad(message)
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

/// The number token of `body` that ends just before `line`:`column` (serde_json's 1-based place
/// of an error about a value), at most 40 characters; `None` when it is no number.
fn token_before(body: &[u8], line: usize, column: usize) -> Option<String> {
    let start_of_line = if line <= 1 {
        0
    } else {
        body.iter()
            .enumerate()
            .filter(|&(_, &b)| b == b'\n')
            .nth(line - 2)?
            .0
            + 1
    };
    let end = (start_of_line + column).min(body.len());
    let is_number = |b: &u8| b.is_ascii_digit() || matches!(b, b'-' | b'+' | b'.' | b'e' | b'E');
    let mut begin = end;
    while begin > start_of_line && is_number(&body[begin - 1]) {
        begin -= 1;
    }
    let token = std::str::from_utf8(&body[begin..end]).ok()?;
    (!token.is_empty() && token.len() <= 40).then(|| token.to_string())
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

    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct Sized {
        size: u32,
    }

    fn message(body: &str) -> String {
        let e = serde_json::from_str::<Sized>(body).unwrap_err();
        ApiError::invalid(&e, body.as_bytes()).message
    }

    #[test]
    fn numbers_are_quoted_as_written() {
        assert_eq!(
            message(r#"{"size":1e3}"#),
            "the request is not valid: invalid type: floating point `1e3`, expected u32 at line 1 column 11"
        );
        assert_eq!(
            message("{\n \"size\": 18446744073709551616}"),
            "the request is not valid: invalid type: floating point `18446744073709551616`, expected u32 at line 2 column 29"
        );
        assert_eq!(
            message(r#"{"size":-1}"#),
            "the request is not valid: invalid value: integer `-1`, expected u32 at line 1 column 10"
        );
        assert_eq!(
            message(r#"{"size":"x"}"#),
            "the request is not valid: invalid type: string \"x\", expected u32 at line 1 column 11"
        );
    }
}
