//! The games the server plays, and a game's moves read from the URL. One enum, [`Game`], is
//! the dispatch: every rule question the page asks goes through it, so another kind of game
//! is one more variant (and its arms), not a change to the routes.

use serde::Serialize;
use tictactoe::mnk::{AnyPosition, Rules, Square, agents};
use tictactoe::{Player, Status};

use super::error::ApiError;
use crate::family;

/// A game the server plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Game {
    /// A game of the k-in-a-row family (tic-tac-toe, 4x4 and Connect Four among them).
    Mnk(Rules),
    /// Ultimate tic-tac-toe ([`tictactoe::ultimate`], served by [`super::ultimate`]).
    Ultimate,
}

/// The presets offered in the page's menu, in its order.
pub const PRESETS: [&str; 5] = ["tic-tac-toe", "4x4", "connect-four", "gomoku", "ultimate"];

impl Game {
    /// The game a spec names: `ultimate`, a preset or `ROWS,COLS,K[,gravity]` (the `--game`
    /// parser).
    ///
    /// # Errors
    /// `unknown-game` with the parser's message.
    pub fn parse(spec: &str) -> Result<Game, ApiError> {
        if spec == "ultimate" {
            return Ok(Game::Ultimate);
        }
        family::parse_game(spec).map(Game::Mnk).map_err(|why| {
            ApiError::bad(
                "unknown-game",
                format!("game {spec:?}: {why} (or ultimate, for ultimate tic-tac-toe)"),
            )
        })
    }

    /// Its name as the library writes it (`connect-four`, `5,5,4`).
    #[must_use]
    pub fn name(self) -> String {
        match self {
            Game::Mnk(rules) => rules.to_string(),
            Game::Ultimate => "ultimate".to_owned(),
        }
    }

    /// Why perfect play (hints and the perfect level) is not offered, or `None` when it is.
    #[must_use]
    pub fn unsolvable(self) -> Option<String> {
        match self {
            Game::Mnk(rules) if agents::perfect_is_bounded(rules) => None,
            Game::Mnk(rules) => Some(format!(
                "the solver has no time bound on {rules} ({} cells): perfect play is offered on \
Connect Four and boards of at most {} cells",
                rules.cells(),
                agents::PERFECT_MAX_CELLS
            )),
            Game::Ultimate => Some(
                "ultimate tic-tac-toe is unsolved: no perfect-play value of any move is known \
(its computer levels are random, heuristic and mcts)"
                    .to_owned(),
            ),
        }
    }
}

/// A level of play as `ttt play` names it, and what runs.
#[derive(Clone, Debug, Serialize)]
pub struct Level {
    pub name: &'static str,
    /// The player: `random`, `heuristic`, `alphabeta` or `perfect` in the family; `random`,
    /// `heuristic` or `mcts:N` (N playouts a move) on ultimate.
    pub player: String,
}

/// The levels offered on `game`: `perfect` only where the solver is bounded; on ultimate,
/// those of `ttt play --game ultimate`.
#[must_use]
pub fn levels(game: Game) -> Vec<Level> {
    if game == Game::Ultimate {
        return crate::ultimate::LEVELS
            .iter()
            .map(|&(name, strategy)| Level {
                name,
                player: strategy.to_string(),
            })
            .collect();
    }
    family::LEVELS
        .iter()
        .filter(|(name, _)| *name != "perfect" || game.unsolvable().is_none())
        .map(|&(name, strategy)| Level {
            name,
            player: strategy.name().to_owned(),
        })
        .collect()
}

/// A game and the moves played from its start.
#[derive(Clone, Debug)]
pub struct Line {
    pub game: Game,
    pub position: AnyPosition,
    /// The actions played, in order.
    pub actions: Vec<usize>,
}

impl Line {
    /// The line `moves` names (the moves forms of `ttt solve`: column digits or columns with
    /// commas with gravity, cells as drawn with commas without; empty for the start).
    ///
    /// # Errors
    /// `bad-moves` naming the character, the move and why.
    pub fn parse(game: Game, moves: &str) -> Result<Line, ApiError> {
        let Game::Mnk(rules) = game else {
            return Err(ApiError::bad(
                "unknown-game",
                "ultimate is not a game of the k-in-a-row family",
            ));
        };
        let bad = |why: String| ApiError::bad("bad-moves", format!("moves {moves:?}: {why}"));
        let input = family::position::parse(rules, moves).map_err(|e| bad(e.to_string()))?;
        let position = match input {
            family::position::Input::Moves(position) => position,
            family::position::Input::Board(_) => {
                let form = if rules.gravity() {
                    "column digits from 1 (or columns separated by commas)"
                } else {
                    "cells as drawn separated by commas (b2,a1)"
                };
                return Err(bad(format!("a board is no list of moves: expected {form}")));
            }
        };
        // The text parsed, so each token is a move of the game.
        let actions: Vec<usize> = if moves.is_empty() || moves == family::position::EMPTY {
            Vec::new()
        } else if rules.gravity() && moves.contains(',') {
            moves
                .split(',')
                .filter_map(|c| c.parse::<usize>().ok())
                .map(|c| c - 1)
                .collect()
        } else if rules.gravity() {
            moves.bytes().map(|b| usize::from(b - b'1')).collect()
        } else {
            moves
                .split(',')
                .filter_map(|name| family::parse_square(rules, name))
                .map(|square| rules.index(square) as usize)
                .collect()
        };
        debug_assert_eq!(actions.len() as u32, position.plies());
        Ok(Line {
            game,
            position,
            actions,
        })
    }

    /// The rules.
    #[must_use]
    pub fn rules(&self) -> Rules {
        self.position.rules()
    }
}

/// How a person names `action` of `rules`: a column from 1 with gravity, else the cell as
/// drawn (`b2`).
#[must_use]
pub fn move_name(rules: Rules, action: usize) -> String {
    family::solve::move_name(rules, action)
}

/// The moves text of `actions` in the form [`Line::parse`] reads: column digits on boards of
/// at most 9 columns, else columns or cells separated by commas.
#[must_use]
pub fn moves_text(rules: Rules, actions: &[usize]) -> String {
    let names: Vec<String> = actions.iter().map(|&a| move_name(rules, a)).collect();
    if rules.gravity() && rules.cols() <= 9 {
        names.concat()
    } else {
        names.join(",")
    }
}

/// A status as JSON writes it: `ongoing`, `x-won`, `o-won`, `draw`.
#[must_use]
pub fn status_str(status: Status) -> &'static str {
    status.as_str()
}

/// The mark of a player as JSON writes it.
#[must_use]
pub fn mark(player: Player) -> char {
    player.to_char()
}

/// The square an action fills at `position` (the landing square with gravity).
#[must_use]
pub fn landing(position: &AnyPosition, action: usize) -> Option<Square> {
    let mut after = *position;
    after.play(action).ok()
}
