//! Ultimate tic-tac-toe on the page: its position, its engine move and the start of its
//! hints stream, all from [`tictactoe::ultimate`]. Moves in the URL are `B:C` separated by
//! commas (`4:4,4:0`: small board, then cell, `0` to `8` each, row-major from the top left),
//! the notation of `ttt analyze --game ultimate`; `:` and `,` may stand unescaped in a query.
//! The page draws the 9 × 9 grid of cells: each move also says its cell there.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Instant;

use axum::Json;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use tictactoe::ultimate::agents::{Agent, Strategy};
use tictactoe::ultimate::{Move, Position};
use tictactoe::{Cell, Status};

use super::AppState;
use super::error::ApiError;
use super::game::{self, Game};
use super::query::Params;
use super::wire::{self, Abandon, Event, Ply, PositionHead};

/// A position and the moves that led to it from the empty board.
struct Line {
    position: Position,
    moves: Vec<Move>,
}

/// The line `text` names: `B:C` moves separated by commas (or spaces), empty for the start.
///
/// # Errors
/// `bad-moves` naming the move, its place in the list and why.
fn parse_line(text: &str) -> Result<Line, ApiError> {
    let position = crate::ultimate::parse_moves(text)
        .map_err(|why| ApiError::bad("bad-moves", format!("moves {text:?}: {why}")))?;
    // Every word parsed as a move above.
    let moves = text
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|word| !word.is_empty())
        .filter_map(|word| crate::ultimate::parse_move(word, None).ok())
        .collect();
    Ok(Line { position, moves })
}

/// `4:4,4:0`: the form [`parse_line`] reads.
fn moves_text(moves: &[Move]) -> String {
    let names: Vec<String> = moves.iter().map(Move::to_string).collect();
    names.join(",")
}

/// Where `played` is drawn in the 9 × 9 grid, row-major.
fn grid_cell(played: Move) -> u32 {
    let (board, cell) = (played.board().index(), played.cell().index());
    let row = board / 3 * 3 + cell / 3;
    let column = board % 3 * 3 + cell % 3;
    (row * 9 + column) as u32
}

fn ply(played: Move, before: &[Move]) -> Ply {
    let mut moves = before.to_vec();
    moves.push(played);
    Ply {
        action: played.index(),
        name: played.to_string(),
        cell: grid_cell(played),
        moves: moves_text(&moves),
    }
}

/// One small board.
#[derive(Serialize)]
pub(super) struct SmallBoard {
    /// `0` to `8`, row-major.
    board: usize,
    /// `ongoing`, `x-won`, `o-won` or `draw` (full without a line: counts for nobody).
    status: &'static str,
    /// Whether the side to move may play in it.
    playable: bool,
}

#[derive(Serialize)]
pub(super) struct Report {
    /// The board is the 9 × 9 grid.
    #[serde(flatten)]
    head: PositionHead,
    /// The board the side to move must play in; null when it may play in any open board
    /// (or the game is over).
    next_board: Option<usize>,
    boards: Vec<SmallBoard>,
    history: Vec<Ply>,
    legal: Vec<Ply>,
}

/// `GET /api/position?game=ultimate&moves=`.
///
/// # Errors
/// `bad-moves`.
pub(super) fn position_report(text: &str) -> Result<Report, ApiError> {
    let line = parse_line(text)?;
    let position = line.position;
    let history = (0..line.moves.len())
        .map(|i| ply(line.moves[i], &line.moves[..i]))
        .collect();
    let legal_moves = position.legal_moves();
    let legal = legal_moves
        .iter()
        .map(|played| ply(played, &line.moves))
        .collect();
    let rows: Vec<String> = (0..9)
        .map(|row| {
            (0..9)
                .map(|column| {
                    let board = Cell::ALL[row / 3 * 3 + column / 3];
                    let cell = Cell::ALL[row % 3 * 3 + column % 3];
                    position.at(board, cell).map_or('.', game::mark)
                })
                .collect()
        })
        .collect();
    let boards = Cell::ALL
        .iter()
        .map(|&board| SmallBoard {
            board: board.index(),
            status: game::status_str(position.board_status(board)),
            playable: legal_moves.iter().any(|played| played.board() == board),
        })
        .collect();
    Ok(Report {
        head: PositionHead::new(
            Game::Ultimate,
            moves_text(&line.moves),
            position.plies(),
            rows.join("/"),
            position.status(),
            position.to_move(),
        ),
        next_board: position.next_board().map(Cell::index),
        boards,
        history,
        legal,
    })
}

/// The first event of `/api/hints?game=ultimate`: every legal move pending (the stream then
/// says the game is unsolved).
///
/// # Errors
/// `bad-moves`.
pub(super) fn hints_start(text: &str) -> Result<Event, ApiError> {
    let line = parse_line(text)?;
    Ok(Event::Start {
        game: Game::Ultimate.name(),
        moves: moves_text(&line.moves),
        to_move: line.position.to_move().map(game::mark),
        pending: line
            .position
            .legal_moves()
            .iter()
            .map(Move::index)
            .collect(),
    })
}

/// Ultimate's fields of `/api/move` after the shared ones.
#[derive(Serialize)]
struct Playouts {
    /// Playouts the search ran (0 for random and heuristic).
    playouts: u64,
}

/// The player a level (`easy`, `medium`, `hard`) or a player name (`random`, `heuristic`,
/// `mcts`, `mcts:N`) stands for.
fn strategy(name: &str) -> Result<Strategy, ApiError> {
    if let Some(&(_, strategy)) = crate::ultimate::LEVELS.iter().find(|(n, _)| *n == name) {
        return Ok(strategy);
    }
    name.parse::<Strategy>().map_err(|error| {
        let why = match (name, Game::Ultimate.unsolvable()) {
            ("perfect", Some(why)) => why,
            _ => error.to_string(),
        };
        ApiError::bad(
            "bad-level",
            format!(
                "level {name:?}: {why}; the levels of ultimate are easy (random), medium \
(heuristic) and hard (mcts:{}), or a player: random, heuristic, mcts, mcts:N",
                tictactoe::ultimate::agents::MCTS_PLAYOUTS
            ),
        )
    })
}

/// `GET /api/move?game=ultimate&moves=&level=&seed=`: the move a level plays; `mcts` stops at
/// [`wire::THINK_TIME`], when the client goes away or when the server stops, and plays the
/// most visited move so far (`cut` says so).
///
/// # Errors
/// `bad-moves`, `bad-level`, `bad-seed`, `game-over`, and the pool's 503s.
pub(super) async fn engine_move(
    state: &Arc<AppState>,
    params: &Params,
    text: &str,
) -> Result<Response, ApiError> {
    let line = parse_line(text)?;
    let level = params.get("level").unwrap_or("hard").to_owned();
    let strategy = strategy(&level)?;
    let seed = wire::seed(params, line.position.plies())?;
    if line.position.status() != Status::Ongoing {
        let moves = moves_text(&line.moves);
        return Err(wire::game_over(&moves, line.position.status()));
    }
    let ticket = state.pool.admit()?;
    let position = line.position;
    let (_guard, abandoned) = Abandon::guard();
    let choice = state
        .pool
        .run(ticket, move |_| {
            let deadline = Instant::now() + wire::THINK_TIME;
            let mut stop = || {
                super::pool::stopping()
                    || abandoned.load(Ordering::Relaxed)
                    || Instant::now() >= deadline
            };
            Agent::new(strategy, seed).choose_until(&position, &mut stop)
        })
        .await
        .flatten()
        .ok_or_else(wire::shutting_down)?;
    let mut moves = line.moves.clone();
    moves.push(choice.played);
    Ok(Json(wire::EngineMove {
        level,
        player: strategy.to_string(),
        action: choice.played.index(),
        name: choice.played.to_string(),
        moves: moves_text(&moves),
        cut: choice.cut,
        more: Playouts {
            playouts: choice.playouts,
        },
    })
    .into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_cells_follow_the_drawing() {
        let at = |b: usize, c: usize| grid_cell(Move::new(Cell::ALL[b], Cell::ALL[c]));
        assert_eq!(at(0, 0), 0);
        assert_eq!(at(0, 2), 2);
        assert_eq!(at(1, 0), 3);
        assert_eq!(at(0, 3), 9);
        assert_eq!(at(4, 4), 40);
        assert_eq!(at(8, 8), 80);
        assert_eq!(at(3, 0), 27);
        let mut all: Vec<u32> = (0..81)
            .map(|i| grid_cell(Move::try_from(i).unwrap()))
            .collect();
        all.sort_unstable();
        assert_eq!(all, (0..81).collect::<Vec<u32>>());
    }
}
