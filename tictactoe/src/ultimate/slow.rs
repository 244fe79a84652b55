//! The slow twin of [`Position`](super::Position): a plain 9×9 array of marks, statuses found
//! by walking every line cell by cell, the rules written as they are stated. No bit tricks and
//! no tables; tests play it beside the fast engine and compare every state.

use crate::{Player, Status};

/// The eight lines of a 3×3 grid, as cell indices.
const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

/// Whether `player` holds three cells of one line of `grid`.
fn has_line(grid: &[Option<Player>; 9], player: Player) -> bool {
    LINES
        .iter()
        .any(|line| line.iter().all(|&i| grid[i] == Some(player)))
}

/// The status of a 3×3 grid under tic-tac-toe's own rules: a line wins, a full grid without
/// one is drawn.
fn grid_status(grid: &[Option<Player>; 9]) -> Status {
    for player in [Player::X, Player::O] {
        if has_line(grid, player) {
            return Status::Won(player);
        }
    }
    if grid.iter().all(Option::is_some) {
        Status::Draw
    } else {
        Status::Ongoing
    }
}

/// A game of ultimate tic-tac-toe on plain arrays.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// `cells[b][c]`: the mark in cell `c` of small board `b`.
    pub cells: [[Option<Player>; 9]; 9],
    /// The board the side to move must play in, if forced.
    pub next: Option<usize>,
    /// The side to move (stays the last mover once the game is over).
    pub side: Player,
}

impl Default for Game {
    fn default() -> Game {
        Game::new()
    }
}

impl Game {
    /// The empty board, X to move anywhere.
    #[must_use]
    pub fn new() -> Game {
        Game {
            cells: [[None; 9]; 9],
            next: None,
            side: Player::X,
        }
    }

    /// The status of small board `b`.
    #[must_use]
    pub fn board_status(&self, b: usize) -> Status {
        grid_status(&self.cells[b])
    }

    /// The status of the game: the meta-board's lines of won boards, then whether every board
    /// is closed.
    #[must_use]
    pub fn status(&self) -> Status {
        let mut meta = [None; 9];
        for (b, mark) in meta.iter_mut().enumerate() {
            *mark = self.board_status(b).winner();
        }
        for player in [Player::X, Player::O] {
            if has_line(&meta, player) {
                return Status::Won(player);
            }
        }
        if (0..9).all(|b| self.board_status(b).is_finished()) {
            Status::Draw
        } else {
            Status::Ongoing
        }
    }

    /// Whether the move `9 * b + c` is legal.
    #[must_use]
    pub fn is_legal(&self, index: usize) -> bool {
        let (b, c) = (index / 9, index % 9);
        index < 81
            && self.status() == Status::Ongoing
            && self.next.is_none_or(|n| n == b)
            && self.board_status(b) == Status::Ongoing
            && self.cells[b][c].is_none()
    }

    /// The legal moves, by index.
    #[must_use]
    pub fn legal(&self) -> [bool; 81] {
        core::array::from_fn(|i| self.is_legal(i))
    }

    /// Plays a legal move (`false`, and nothing changes, for an illegal one).
    pub fn play(&mut self, index: usize) -> bool {
        if !self.is_legal(index) {
            return false;
        }
        let (b, c) = (index / 9, index % 9);
        self.cells[b][c] = Some(self.side);
        if self.status() != Status::Ongoing {
            self.next = None;
            return true;
        }
        self.next = if self.board_status(c) == Status::Ongoing {
            Some(c)
        } else {
            None
        };
        self.side = self.side.opponent();
        true
    }
}
