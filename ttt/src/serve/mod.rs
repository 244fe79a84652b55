//! `ttt serve`: the analysis board in the browser. An axum server on tokio; the page (HTML,
//! CSS and plain JavaScript in `ttt/assets/`, compiled into the binary) asks the JSON API for
//! everything the rules decide. Rooms: [`query`] reads query strings, [`game`] is the game
//! dispatch, [`api`] the board's endpoints, [`explain`] the 3 × 3 explainer's, [`pool`] the
//! bounded pool of searches, [`error`] the one error answer, [`listener`] the connections
//! (request targets made ASCII, so that even those get JSON errors). The API is documented in
//! docs/web.md.

pub mod api;
pub mod error;
pub mod explain;
pub mod game;
pub mod listener;
pub mod pool;
pub mod query;
pub mod ultimate;
pub mod wire;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::Request;
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

use error::ApiError;
use pool::{Limits, Pool};

/// What every handler shares.
pub struct AppState {
    pub pool: Arc<Pool>,
}

/// The largest request body read: the API takes none (every endpoint is a GET).
pub const MAX_BODY: u64 = 1024;

/// The longest request target (path and query) read.
pub const MAX_TARGET: usize = query::MAX_QUERY + 256;

/// A page asset: its bytes and content type.
struct Asset {
    path: &'static str,
    content_type: &'static str,
    body: &'static str,
}

const ASSETS: [Asset; 6] = [
    Asset {
        path: "/",
        content_type: "text/html; charset=utf-8",
        body: include_str!("../../assets/index.html"),
    },
    Asset {
        path: "/explain",
        content_type: "text/html; charset=utf-8",
        body: include_str!("../../assets/explain.html"),
    },
    Asset {
        path: "/app.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_str!("../../assets/app.js"),
    },
    Asset {
        path: "/explain.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_str!("../../assets/explain.js"),
    },
    Asset {
        path: "/favicon.svg",
        content_type: "image/svg+xml",
        body: include_str!("../../assets/favicon.svg"),
    },
    Asset {
        path: "/style.css",
        content_type: "text/css; charset=utf-8",
        body: include_str!("../../assets/style.css"),
    },
];

fn asset(asset: &'static Asset) -> Response {
    (
        [
            (header::CONTENT_TYPE, asset.content_type),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        asset.body,
    )
        .into_response()
}

/// The router: the page's assets, the API, and JSON errors for unknown paths and methods.
pub fn router(limits: Limits) -> Router {
    let state = Arc::new(AppState {
        pool: Pool::new(limits),
    });
    let mut router = Router::new();
    for item in &ASSETS {
        router = router.route(item.path, get(move || async move { asset(item) }));
    }
    router
        .route("/api/games", get(api::games))
        .route("/api/position", get(api::position))
        .route("/api/hints", get(api::hints))
        .route("/api/move", get(api::engine_move))
        .route("/api/explain", get(explain::explain_grid))
        .route("/api/paper", get(explain::paper))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(middleware::from_fn(move |request, next| {
            guard(request, next, limits.budget)
        }))
        .with_state(state)
}

async fn not_found(request: Request) -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "not-found",
        format!(
            "no page or endpoint at {}: the API is /api/games, /api/position, /api/hints, \
/api/move, /api/explain and /api/paper (docs/web.md)",
            request.uri().path()
        ),
    )
}

async fn method_not_allowed(request: Request) -> Response {
    let mut response = ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "method-not-allowed",
        format!(
            "{} {}: every endpoint is read with GET (or HEAD)",
            request.method(),
            request.uri().path()
        ),
    )
    .into_response();
    response
        .headers_mut()
        .insert(header::ALLOW, HeaderValue::from_static("GET, HEAD"));
    response
}

/// Bounds on every request, and headers on every answer: a body or target too large is
/// refused before any handler runs; a handler that does not answer within the budget (and
/// a few seconds) is answered 503 (a hints stream has its own budget).
async fn guard(request: Request, next: Next, budget: Duration) -> Response {
    let target = request
        .uri()
        .path_and_query()
        .map_or(0, |p| p.as_str().len());
    if target > MAX_TARGET {
        return ApiError::new(
            StatusCode::URI_TOO_LONG,
            "too-long",
            format!("the request target has {target} bytes: the most read is {MAX_TARGET}"),
        )
        .into_response();
    }
    let length = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    let chunked = request.headers().contains_key(header::TRANSFER_ENCODING);
    if length.is_some_and(|n| n > MAX_BODY) || (chunked && request.method() == Method::GET) {
        return ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "too-large",
            format!("the request body is over {MAX_BODY} bytes: the API reads none"),
        )
        .into_response();
    }
    let answer = tokio::time::timeout(budget + Duration::from_secs(5), next.run(request)).await;
    let mut response = answer.unwrap_or_else(|_| {
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "timeout",
            format!("no answer within the time budget of {} s", budget.as_secs()),
        )
        .into_response()
    });
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static("default-src 'self'; frame-ancestors 'none'"),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    response
}

/// Serves until SIGINT or SIGTERM, printing the URL first (to `announce`).
///
/// # Errors
/// The address cannot be bound, or the server fails.
pub async fn serve(
    address: SocketAddr,
    limits: Limits,
    announce: impl FnOnce(SocketAddr) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let listener = tokio::net::TcpListener::bind(address)
        .await
        .map_err(|e| anyhow::Error::new(e).context(format!("cannot listen on {address}")))?;
    announce(listener.local_addr()?)?;
    axum::serve(listener::EscapingListener(listener), router(limits))
        .with_graceful_shutdown(shutdown_signal())
        .await?;
    Ok(())
}

/// SIGINT (Ctrl-C) or SIGTERM.
async fn shutdown_signal() {
    let interrupt = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = interrupt => {},
        () = terminate => {},
    }
    pool::STOPPING.store(true, std::sync::atomic::Ordering::Relaxed);
    // The searches stop at their next check and their streams end with their unsolved moves
    // and `done`; only then are the connections closed. Closing them at once raced with the
    // streams' last lines: now and then a stream was cut after its first line.
    pool::streams_ended(SHUTDOWN_WAIT).await;
}

/// The longest the graceful shutdown waits for open hint streams to end.
const SHUTDOWN_WAIT: Duration = Duration::from_secs(5);
