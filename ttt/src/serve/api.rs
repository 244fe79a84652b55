//! The JSON endpoints of the page (documented in docs/web.md): the games, a position, an
//! engine's move and the hints stream. Every rule question goes to the library through
//! [`Game`] and [`Line`]; the page only draws what these answer.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use axum::Json;
use axum::body::{Body, Bytes};
use axum::extract::{RawQuery, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use tictactoe::Status;
use tictactoe::mnk::agents::{Agent, Strategy};
use tictactoe::mnk::{AnyPosition, AnySolver, Rules, score_of};
use tictactoe::solver::{Value, Watch};
use tokio::sync::mpsc;

use super::AppState;
use super::error::ApiError;
use super::game::{self, Game, Line, PRESETS};
use super::query::{self, Params};
use super::wire::{
    Abandon, EngineMove, Event, GameInfo, Ply, PositionHead, THINK_TIME, game_info, game_over,
    seed, shutting_down,
};

/// The query of an endpoint, or `bad-query` naming the fault.
pub fn params(raw: Option<&str>, known: &'static [&'static str]) -> Result<Params, ApiError> {
    query::parse(raw, known).map_err(|e| {
        let status = match e {
            query::QueryError::TooLong { .. } => StatusCode::URI_TOO_LONG,
            _ => StatusCode::BAD_REQUEST,
        };
        ApiError::new(status, "bad-query", e.to_string())
    })
}

/// The game in `params` (`game` defaults to tic-tac-toe).
fn game_of(params: &Params) -> Result<Game, ApiError> {
    Game::parse(params.get("game").unwrap_or("tic-tac-toe"))
}

/// `GET /api/games`: the presets.
pub async fn games(RawQuery(raw): RawQuery) -> Result<Response, ApiError> {
    params(raw.as_deref(), &[])?;
    let games: Vec<GameInfo> = PRESETS
        .iter()
        .filter_map(|spec| Game::parse(spec).ok())
        .map(game_info)
        .collect();
    Ok(Json(games).into_response())
}

#[derive(Serialize)]
struct PositionReport {
    #[serde(flatten)]
    head: PositionHead,
    /// Complete lines, each as its cells ascending.
    lines: Vec<Vec<u32>>,
    history: Vec<Ply>,
    legal: Vec<Ply>,
}

const POSITION_KEYS: &[&str] = &["game", "moves"];

/// `GET /api/position?game=&moves=`: the position, its history and its legal moves.
pub async fn position(RawQuery(raw): RawQuery) -> Result<Response, ApiError> {
    let params = params(raw.as_deref(), POSITION_KEYS)?;
    let moves = params.get("moves").unwrap_or("");
    let game = game_of(&params)?;
    if game == Game::Ultimate {
        return Ok(Json(super::ultimate::position_report(moves)?).into_response());
    }
    let line = Line::parse(game, moves)?;
    Ok(Json(position_report(&line)).into_response())
}

fn position_report(line: &Line) -> PositionReport {
    let rules = line.rules();
    let mut replay = AnyPosition::new(rules);
    let mut history = Vec::with_capacity(line.actions.len());
    for (i, &action) in line.actions.iter().enumerate() {
        let square = replay.play(action).ok();
        history.push(Ply {
            action,
            name: game::move_name(rules, action),
            cell: square.map_or(0, |s| rules.index(s)),
            moves: game::moves_text(rules, &line.actions[..=i]),
        });
    }
    let position = line.position;
    let legal = if position.status() == Status::Ongoing {
        position
            .legal_actions()
            .map(|action| {
                let mut next = line.actions.clone();
                next.push(action);
                Ply {
                    action,
                    name: game::move_name(rules, action),
                    cell: game::landing(&position, action).map_or(0, |s| rules.index(s)),
                    moves: game::moves_text(rules, &next),
                }
            })
            .collect()
    } else {
        Vec::new()
    };
    let board = position.board();
    PositionReport {
        head: PositionHead::new(
            line.game,
            game::moves_text(rules, &line.actions),
            position.plies(),
            board.to_string(),
            position.status(),
            position.to_move(),
        ),
        lines: board
            .lines()
            .map(|l| {
                let mut cells: Vec<u32> = l.cells().map(|s| rules.index(s)).collect();
                cells.sort_unstable();
                cells
            })
            .collect(),
        history,
        legal,
    }
}

const MOVE_KEYS: &[&str] = &["game", "moves", "level", "seed"];

/// The family's fields of `/api/move` after the shared ones.
#[derive(Serialize)]
struct Note {
    /// What ran instead, when the perfect search did not finish within the budget.
    #[serde(skip_serializing_if = "Option::is_none")]
    note: Option<String>,
}

/// `GET /api/move?game=&moves=&level=&seed=`: the move a level plays.
pub async fn engine_move(
    State(state): State<Arc<AppState>>,
    RawQuery(raw): RawQuery,
) -> Result<Response, ApiError> {
    let params = params(raw.as_deref(), MOVE_KEYS)?;
    let game = game_of(&params)?;
    let moves = params.get("moves").unwrap_or("");
    if game == Game::Ultimate {
        return super::ultimate::engine_move(&state, &params, moves).await;
    }
    let line = Line::parse(game, moves)?;
    let level_name = params.get("level").unwrap_or("hard");
    let levels = game::levels(line.game);
    let Some(&(level, strategy)) = crate::family::LEVELS
        .iter()
        .find(|(name, _)| *name == level_name)
    else {
        let names: Vec<&str> = levels.iter().map(|l| l.name).collect();
        return Err(ApiError::bad(
            "bad-level",
            format!(
                "level {level_name:?}: the levels of {} are {}",
                line.game.name(),
                names.join(", ")
            ),
        ));
    };
    if let (Strategy::Perfect, Some(why)) = (strategy, line.game.unsolvable()) {
        return Err(ApiError::bad("bad-level", format!("level perfect: {why}")));
    }
    let seed = seed(&params, line.position.plies())?;
    if line.position.status() != Status::Ongoing {
        let moves = game::moves_text(line.rules(), &line.actions);
        return Err(game_over(&moves, line.position.status()));
    }
    let ticket = state.pool.admit()?;
    let budget = state.pool.limits().budget;
    let position = line.position;
    // The client may go away while the search runs (the handler is then dropped): the guard
    // raises the flag, and the search stops at its next check.
    let (_guard, abandoned) = Abandon::guard();
    let chosen = state
        .pool
        .run(ticket, move |solver| {
            choose(solver, strategy, seed, &position, budget, &abandoned)
        })
        .await
        .flatten()
        .ok_or_else(shutting_down)?;
    let rules = line.rules();
    let mut actions = line.actions.clone();
    actions.push(chosen.action);
    Ok(Json(EngineMove {
        level: level.to_owned(),
        player: strategy.name().to_owned(),
        action: chosen.action,
        name: game::move_name(rules, chosen.action),
        moves: game::moves_text(rules, &actions),
        cut: chosen.cut,
        more: Note { note: chosen.note },
    })
    .into_response())
}

struct Chosen {
    action: usize,
    cut: bool,
    note: Option<String>,
}

/// The move of `strategy` at `position`: the search levels stop at [`THINK_TIME`]; perfect
/// on Connect Four is the library's perfect player (`connect4::Solver::perfect_move` with the
/// shipped books: a move that keeps the win, else the draw, the one `ttt play` makes); on the
/// other bounded games it is the solver's first best move (the slowest loss when lost), or
/// alphabeta's move when the solver does not finish within `budget`.
fn choose(
    solver: &mut AnySolver,
    strategy: Strategy,
    seed: u64,
    position: &AnyPosition,
    budget: Duration,
    abandoned: &Arc<AtomicBool>,
) -> Option<Chosen> {
    let gone = Arc::clone(abandoned);
    let stop = move || super::pool::stopping() || gone.load(Ordering::Relaxed);
    if strategy == Strategy::Perfect && position.rules() == Rules::CONNECT_FOUR {
        let choice = Agent::new(Strategy::Perfect, seed).choose_until(position, &mut || false)?;
        return Some(Chosen {
            action: choice.action,
            cut: false,
            note: None,
        });
    }
    if strategy == Strategy::Perfect {
        let deadline = Instant::now() + budget;
        let stopped = stop.clone();
        solver.set_watch(Some(Box::new(move |_| {
            !stopped() && Instant::now() < deadline
        })));
        let solution = solver.solve(position, u64::MAX);
        solver.set_watch(None);
        if let Some(action) = solution.and_then(|s| s.best_moves.first().copied()) {
            return Some(Chosen {
                action,
                cut: false,
                note: None,
            });
        }
        let mut agent = Agent::new(Strategy::AlphaBeta, seed);
        let deadline = Instant::now() + THINK_TIME;
        let choice = agent.choose_until(position, &mut || stop() || Instant::now() >= deadline)?;
        return Some(Chosen {
            action: choice.action,
            cut: true,
            note: Some(format!(
                "the perfect search did not finish within {} s: alphabeta's move",
                budget.as_secs()
            )),
        });
    }
    let mut agent = Agent::new(strategy, seed);
    let deadline = Instant::now() + THINK_TIME;
    let choice = agent.choose_until(position, &mut || stop() || Instant::now() >= deadline)?;
    Some(Chosen {
        action: choice.action,
        cut: choice.cut,
        note: None,
    })
}

/// What perfect play makes of a position: value, distance, score and best moves.
struct Solved {
    value: Value,
    distance: u32,
    score: i32,
    best_moves: Vec<usize>,
}

/// The 3 × 3 core's tables answer tic-tac-toe at once, the family solver the rest.
fn solve(solver: &mut AnySolver, position: &AnyPosition, budget: u64) -> Option<Solved> {
    let rules = position.rules();
    if rules == Rules::TIC_TAC_TOE
        && let Ok(board) = position.board().to_string().parse::<tictactoe::Board>()
        && let Ok(core) = tictactoe::Position::try_from(board)
    {
        let solution = tictactoe::solver::solve(core);
        // The side that would move next (the loser, in a finished game), as the family does.
        let mover = position.side_to_move();
        let outcome = solution.value.for_player(mover);
        let distance = u32::from(solution.distance);
        return Some(Solved {
            value: solution.value,
            distance,
            score: score_of(rules, position.plies(), outcome, distance),
            best_moves: solution
                .best_moves
                .iter()
                .map(tictactoe::Cell::index)
                .collect(),
        });
    }
    let solution = solver.solve(position, budget)?;
    Some(Solved {
        value: solution.value,
        distance: solution.distance,
        score: solution.score,
        best_moves: solution.best_moves,
    })
}

/// The verdict in words: `X wins in 17 plies`, `draw with best play`, `X won`.
fn words(position: &AnyPosition, value: Value, distance: u32) -> String {
    match (position.status(), value.winner()) {
        (Status::Won(player), _) => format!("{player} won"),
        (Status::Draw, _) => "draw: the board is full".to_owned(),
        (Status::Ongoing, Some(player)) => {
            let plies = if distance == 1 { "ply" } else { "plies" };
            format!("{player} wins in {distance} {plies}")
        }
        (Status::Ongoing, None) => "draw with best play".to_owned(),
    }
}

/// Nodes a first pass gives each answer, so the quick ones come first.
const QUICK_NODES: u64 = 200_000;

const HINT_KEYS: &[&str] = &["game", "moves"];

/// `GET /api/hints?game=&moves=`: perfect-play values of the position and of every legal move,
/// as NDJSON lines ([`Event`]), each as soon as it is known.
pub async fn hints(
    State(state): State<Arc<AppState>>,
    RawQuery(raw): RawQuery,
) -> Result<Response, ApiError> {
    let params = params(raw.as_deref(), HINT_KEYS)?;
    let game = game_of(&params)?;
    let moves = params.get("moves").unwrap_or("");
    let (tx, rx) = mpsc::channel::<Bytes>(64);
    if game == Game::Ultimate {
        // Unsolved: the start (every legal move pending, as on gomoku), then why not.
        let _ = tx.try_send(ndjson(&super::ultimate::hints_start(moves)?));
        if let Some(why) = game.unsolvable() {
            let _ = tx.try_send(ndjson(&Event::Unsolved { action: None, why }));
        }
        let _ = tx.try_send(ndjson(&Event::Done {
            nodes: 0,
            elapsed_ms: 0,
        }));
        return Ok(ndjson_response(rx));
    }
    let line = Line::parse(game, moves)?;
    let start = Event::Start {
        game: line.game.name(),
        moves: game::moves_text(line.rules(), &line.actions),
        to_move: line.position.to_move().map(game::mark),
        pending: line.position.legal_actions().collect(),
    };
    let _ = tx.try_send(ndjson(&start));
    let position = line.position;
    match line.game.unsolvable() {
        Some(why) => {
            let _ = tx.try_send(ndjson(&Event::Unsolved { action: None, why }));
            let _ = tx.try_send(ndjson(&Event::Done {
                nodes: 0,
                elapsed_ms: 0,
            }));
        }
        None => {
            let ticket = state.pool.admit()?;
            let pool = Arc::clone(&state.pool);
            let budget = pool.limits().budget;
            tokio::spawn(async move {
                let job_tx = tx.clone();
                let worked = pool
                    .run(ticket, move |solver| {
                        hint_job(solver, &position, &job_tx, budget);
                    })
                    .await;
                if worked.is_none() {
                    let _ = tx
                        .send(ndjson(&Event::Unsolved {
                            action: None,
                            why: "the server is shutting down".to_owned(),
                        }))
                        .await;
                }
            });
        }
    }
    Ok(ndjson_response(rx))
}

/// The NDJSON response that streams what `rx` receives, until every sender is gone; counted
/// among the open streams ([`super::pool::OpenStream`]) until its last line is taken.
fn ndjson_response(rx: mpsc::Receiver<Bytes>) -> Response {
    let open = super::pool::OpenStream::new();
    let stream = futures_util::stream::unfold((rx, open), |(mut rx, open)| async move {
        rx.recv()
            .await
            .map(|bytes| (Ok::<_, std::convert::Infallible>(bytes), (rx, open)))
    });
    (
        [
            (header::CONTENT_TYPE, "application/x-ndjson"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        Body::from_stream(stream),
    )
        .into_response()
}

fn ndjson(event: &Event) -> Bytes {
    let mut line = serde_json::to_vec(event).unwrap_or_default();
    line.push(b'\n');
    Bytes::from(line)
}

/// The hints of `position`, sent on `tx` as they come: a quick pass of [`QUICK_NODES`] per
/// answer, then the rest without a node budget; everything stops when `tx`'s stream is
/// dropped (the client moved on) or `budget` runs out.
fn hint_job(
    solver: &mut AnySolver,
    position: &AnyPosition,
    tx: &mpsc::Sender<Bytes>,
    budget: Duration,
) {
    let begun = Instant::now();
    let deadline = begun + budget;
    let watched = tx.clone();
    let watch: Watch = Box::new(move |_| {
        !watched.is_closed() && !super::pool::stopping() && Instant::now() < deadline
    });
    solver.set_watch(Some(watch));
    let nodes_before = solver.nodes();
    let rules = position.rules();
    let mover = position.side_to_move();
    let send = |event: Event| tx.blocking_send(ndjson(&event)).is_ok();
    // `None` is the position itself, then each legal move.
    let mut pending: Vec<Option<usize>> = std::iter::once(None)
        .chain(position.legal_actions().map(Some))
        .collect();
    'passes: for pass_budget in [QUICK_NODES, u64::MAX] {
        let mut left = Vec::new();
        for (i, &item) in pending.iter().enumerate() {
            if tx.is_closed() {
                return;
            }
            if super::pool::stopping() {
                left.extend_from_slice(&pending[i..]);
                pending = left;
                break 'passes;
            }
            let target = match item {
                None => *position,
                Some(action) => {
                    let mut child = *position;
                    if child.play(action).is_err() {
                        continue;
                    }
                    child
                }
            };
            let Some(solved) = solve(solver, &target, pass_budget) else {
                left.push(item);
                continue;
            };
            let event = match item {
                None => Event::Verdict {
                    value: solved.value.as_str(),
                    distance: solved.distance,
                    score: solved.score,
                    words: words(position, solved.value, solved.distance),
                    best_moves: solved.best_moves,
                },
                Some(action) => {
                    // The child's answer is for the opponent: turn it to the mover's.
                    let result = match solved.value.winner() {
                        Some(winner) if winner == mover => "win",
                        Some(_) => "loss",
                        None => "draw",
                    };
                    Event::Hint {
                        action,
                        name: game::move_name(rules, action),
                        value: solved.value.as_str(),
                        result,
                        distance: solved.distance + 1,
                        score: -solved.score,
                    }
                }
            };
            if !send(event) {
                return;
            }
        }
        pending = left;
        if pending.is_empty() || Instant::now() >= deadline {
            break;
        }
    }
    let why = if super::pool::stopping() {
        "the server is stopping".to_owned()
    } else {
        format!(
            "not solved within the time budget of {} s (--hint-time)",
            budget.as_secs()
        )
    };
    for item in pending {
        if !send(Event::Unsolved {
            action: item,
            why: why.clone(),
        }) {
            return;
        }
    }
    let _ = send(Event::Done {
        nodes: solver.nodes() - nodes_before,
        elapsed_ms: u64::try_from(begun.elapsed().as_millis()).unwrap_or(u64::MAX),
    });
}
