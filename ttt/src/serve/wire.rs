//! What the board's endpoints share between the game kinds: the game's description, the head
//! of a position's answer, a ply, an engine's move, the hints stream's events, the seed
//! parameter, the think time, the game-over error and the abandon flag. Both [`super::api`]
//! (the k-in-a-row family) and [`super::ultimate`] build their answers from these.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use axum::http::StatusCode;
use serde::Serialize;
use tictactoe::{Player, Status};

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

/// What every position answer (`/api/position`) opens with, in this order; each game kind
/// adds its own fields after it.
#[derive(Serialize)]
pub(super) struct PositionHead {
    #[serde(flatten)]
    info: GameInfo,
    moves: String,
    plies: u32,
    board: String,
    status: &'static str,
    to_move: Option<char>,
    winner: Option<char>,
}

impl PositionHead {
    /// The head of `game`'s answer for the position `moves` reach: `board` as drawn (rows
    /// separated by `/`, `.` an empty cell), its status and side to move from the library.
    pub(super) fn new(
        game: Game,
        moves: String,
        plies: u32,
        board: String,
        status: Status,
        to_move: Option<Player>,
    ) -> PositionHead {
        PositionHead {
            info: game_info(game),
            moves,
            plies,
            board,
            status: game::status_str(status),
            to_move: to_move.map(game::mark),
            winner: status.winner().map(game::mark),
        }
    }
}

/// What `/api/move` answers for every game kind, in this order; `More` adds the kind's own
/// fields after it.
#[derive(Serialize)]
pub(super) struct EngineMove<More: Serialize> {
    /// The level or player asked for.
    pub(super) level: String,
    /// The player that ran.
    pub(super) player: String,
    pub(super) action: usize,
    #[serde(rename = "move")]
    pub(super) name: String,
    /// The moves text after the move.
    pub(super) moves: String,
    /// Whether the think time (or a budget) cut the search short: the move then depends on
    /// the clock.
    pub(super) cut: bool,
    #[serde(flatten)]
    pub(super) more: More,
}

/// `game-over`: `moves` (as the game writes them) end the game with `status`.
pub(super) fn game_over(moves: &str, status: Status) -> ApiError {
    ApiError::new(
        StatusCode::UNPROCESSABLE_ENTITY,
        "game-over",
        format!("moves {moves:?}: the game is over ({status}), no move to play"),
    )
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

impl Abandon {
    /// A guard for the handler to hold, and the flag it raises for the search to watch.
    pub(super) fn guard() -> (Abandon, Arc<AtomicBool>) {
        let flag = Arc::new(AtomicBool::new(false));
        (Abandon(Arc::clone(&flag)), flag)
    }
}

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
