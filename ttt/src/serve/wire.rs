//! What the board's endpoints share between the game kinds: the game's description, a ply,
//! the hints stream's events, the seed parameter, the think time and the abandon flag. Both
//! [`super::api`] (the k-in-a-row family) and [`super::ultimate`] build their answers from these.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use axum::http::StatusCode;
use serde::Serialize;

use super::error::ApiError;
use super::game::{self, Game, Level};
use super::query::Params;

#[derive(Serialize)]
pub(super) struct GameInfo {
    game: String,
    /// `mnk` (the k-in-a-row family) or `ultimate`.
    kind: &'static str,
    rows: u32,
    cols: u32,
    k: u32,
    gravity: bool,
    levels: Vec<Level>,
    /// Why the solver gives no hints here; null where it does.
    unsolvable: Option<String>,
}

pub(super) fn game_info(game: Game) -> GameInfo {
    // Ultimate is drawn as its 9 × 9 grid of cells; 3 in a row wins a small board, and 3 won
    // boards in a row the game.
    let (kind, rows, cols, k, gravity) = match game {
        Game::Mnk(rules) => (
            "mnk",
            rules.rows(),
            rules.cols(),
            rules.k(),
            rules.gravity(),
        ),
        Game::Ultimate => ("ultimate", 9, 9, 3, false),
    };
    GameInfo {
        game: game.name(),
        kind,
        rows,
        cols,
        k,
        gravity,
        levels: game::levels(game),
        unsolvable: game.unsolvable(),
    }
}

/// A move of the history or a legal move.
#[derive(Serialize)]
pub(super) struct Ply {
    pub(super) action: usize,
    #[serde(rename = "move")]
    pub(super) name: String,
    /// The cell the mark goes to (row-major in the drawn grid).
    pub(super) cell: u32,
    /// The moves text up to and including this move.
    pub(super) moves: String,
}

/// How long the search levels (`hard`: alphabeta) think per move.
pub const THINK_TIME: Duration = Duration::from_secs(1);

/// The `seed` in `params`, the plies played when none is given.
///
/// # Errors
/// `bad-seed` for text that is no `u64`.
pub(super) fn seed(params: &Params, plies: u32) -> Result<u64, ApiError> {
    match params.get("seed") {
        None => Ok(u64::from(plies)),
        Some(text) => text.parse().map_err(|_| {
            ApiError::bad(
                "bad-seed",
                format!(
                    "seed {text:?}: expected a whole number from 0 to {}",
                    u64::MAX
                ),
            )
        }),
    }
}

/// Raises its flag when dropped: the handler ended, or was dropped with its connection.
pub(super) struct Abandon(pub(super) Arc<AtomicBool>);

impl Drop for Abandon {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

pub(super) fn shutting_down() -> ApiError {
    ApiError::new(
        StatusCode::SERVICE_UNAVAILABLE,
        "shutting-down",
        "the server is shutting down",
    )
}

/// One line of the hints stream.
#[derive(Serialize)]
#[serde(tag = "event", rename_all = "kebab-case")]
pub(super) enum Event {
    /// First: the moves the hints are for, all pending.
    Start {
        game: String,
        moves: String,
        to_move: Option<char>,
        pending: Vec<usize>,
    },
    /// The position itself under perfect play.
    Verdict {
        value: &'static str,
        distance: u32,
        score: i32,
        best_moves: Vec<usize>,
        words: String,
    },
    /// One legal move under perfect play, for the side to move.
    Hint {
        action: usize,
        #[serde(rename = "move")]
        name: String,
        value: &'static str,
        /// `win`, `draw` or `loss` for the side to move, after this move.
        result: &'static str,
        distance: u32,
        score: i32,
    },
    /// The solver gives no values for this game or this move (`action` null: the position).
    Unsolved { action: Option<usize>, why: String },
    /// Last: the work is over.
    Done { nodes: u64, elapsed_ms: u64 },
}
