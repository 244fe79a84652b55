//! The one error answer of the API: a status, a kind for programs and a sentence for people,
//! as JSON (`{"status":400,"kind":"unknown-game","error":"..."}`).

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

/// An error the API answers with.
#[derive(Clone, Debug)]
pub struct ApiError {
    pub status: StatusCode,
    /// A stable name: `unknown-game`, `bad-moves`, `bad-query`, `busy`, ...
    pub kind: &'static str,
    pub message: String,
    /// Seconds for `Retry-After` (on 503).
    pub retry_after: Option<u32>,
}

impl ApiError {
    /// A 400 Bad Request of `kind`.
    pub fn bad(kind: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, kind, message)
    }

    /// An error with any status.
    pub fn new(status: StatusCode, kind: &'static str, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            kind,
            message: message.into(),
            retry_after: None,
        }
    }
}

#[derive(Serialize)]
struct Body<'a> {
    status: u16,
    kind: &'a str,
    error: &'a str,
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = serde_json::to_string(&Body {
            status: self.status.as_u16(),
            kind: self.kind,
            error: &self.message,
        })
        .unwrap_or_default();
        let mut response = (
            self.status,
            [(header::CONTENT_TYPE, "application/json")],
            body + "\n",
        )
            .into_response();
        if let Some(seconds) = self.retry_after {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(seconds));
        }
        response
    }
}
