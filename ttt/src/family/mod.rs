//! `--game SPEC`: the k-in-a-row family of [`tictactoe::mnk`] on `analyze`, `play`, `perft`,
//! `enumerate`, `selfplay`, `match` and `solve` (which has no 3 × 3 path: `analyze` solves
//! those boards). Each subcommand keeps its 3 × 3 path untouched and
//! hands a run with `--game` to the module of the same name here; this module holds what they
//! share: the spec parser, cell names and the drawing of a board.
//!
//! Cells are named for people as in gomoku and chess: a column letter from `a` at the left and
//! a row number from `1` at the bottom (`h8` is the centre of 15 × 15); with gravity a move is
//! a column number from 1. JSON uses the library's numbering: cell index `row × cols + col`
//! with row 0 at the top, and columns from 0.

pub mod analyze;
pub mod enumerate;
pub mod memory;
pub mod perft;
pub mod play;
pub mod position;
pub mod solve;

use std::fmt::Write as _;

use crate::exit;

use tictactoe::mnk::agents::{self, Strategy};
use tictactoe::mnk::{AnyBoard, Rules, RulesError, Square};
use tictactoe::{Player, Status};

/// A game spec through the library's parser: `tic-tac-toe`, `4x4`, `connect-four`,
/// `gomoku` or `ROWS,COLS,K[,gravity]`.
///
/// # Errors
/// The library's message for a bad spec.
pub fn parse_game(text: &str) -> Result<Rules, String> {
    if text == "ultimate" {
        return Err(
            "ultimate tic-tac-toe is a game of analyze, perft, play, selfplay and match \
(--game ultimate), not of this subcommand"
                .to_owned(),
        );
    }
    text.parse().map_err(|error: RulesError| error.to_string())
}

/// The levels of `play` and the family player each stands for with `--game`.
pub const LEVELS: [(&str, Strategy); 4] = [
    ("easy", Strategy::Random),
    ("medium", Strategy::Heuristic),
    ("hard", Strategy::AlphaBeta),
    ("perfect", Strategy::Perfect),
];

/// The family player named by a player or level name, for `--x`, `--o` and `--level`;
/// `perfect` only where it plays in bounded time.
///
/// # Errors
/// A usage error naming the players of the family, or saying why `perfect` is refused.
pub fn player(name: &str, rules: Rules) -> anyhow::Result<Strategy> {
    let level = LEVELS.iter().find(|(level, _)| *level == name);
    let parsed = level.map_or_else(|| name.parse().ok(), |&(_, strategy)| Some(strategy));
    match parsed {
        Some(Strategy::Perfect) if !agents::perfect_is_bounded(rules) => exit::usage(format!(
            "perfect does not play {rules}: its solver has no time bound on a board of {} \
cells (perfect play is offered on Connect Four and boards of at most {} cells); use alphabeta, \
the strongest search level",
            rules.cells(),
            agents::PERFECT_MAX_CELLS
        )),
        Some(strategy) => Ok(strategy),
        None => {
            let names: Vec<&str> = Strategy::ALL.iter().map(|s| s.name()).collect();
            exit::usage(format!(
                "{name} does not play {rules}: the players of --game are {} (and the levels \
easy, medium, hard and perfect of play)",
                names.join(", ")
            ))
        }
    }
}

/// The letter of column `col`: `a` to `s`.
#[must_use]
pub fn column_letter(col: u32) -> char {
    char::from(b'a' + col as u8)
}

/// The name of a square for people: `h8` (column letter, row from 1 at the bottom).
#[must_use]
pub fn square_name(rules: Rules, square: Square) -> String {
    format!(
        "{}{}",
        column_letter(square.col()),
        rules.rows() - square.row()
    )
}

/// The square a person names (`h8`, `H8`), if it is on the board.
#[must_use]
pub fn parse_square(rules: Rules, text: &str) -> Option<Square> {
    let text = text.trim().to_ascii_lowercase();
    let mut chars = text.chars();
    let letter = chars.next()?;
    if !letter.is_ascii_lowercase() {
        return None;
    }
    let col = u32::from(letter) - u32::from('a');
    let rest = chars.as_str();
    if rest.is_empty() || rest.len() > 2 || !rest.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let row_from_bottom: u32 = rest.parse().ok()?;
    if row_from_bottom == 0 || row_from_bottom > rules.rows() {
        return None;
    }
    rules.square(rules.rows() - row_from_bottom, col)
}

/// The status in words, with whose turn it is.
#[must_use]
pub fn describe(status: Status, side_to_move: Player) -> String {
    match status {
        Status::Ongoing => format!("ongoing, {side_to_move} to move"),
        status @ Status::Won(player) => format!("{status}, {player} has a line: game over"),
        Status::Draw => "draw, the board is full and no one has a line".to_owned(),
    }
}

/// The board drawn for people, up to 19 × 19: a cell is three columns wide, the cells of
/// complete lines in brackets; column letters above and below (column numbers from 1 with
/// gravity: the moves), row numbers from 1 at the bottom on both sides (none with gravity).
/// `empty` draws an empty cell. Each row ends with a newline.
#[must_use]
pub fn draw(board: &AnyBoard, indent: &str, empty: &dyn Fn(Square) -> String) -> String {
    draw_marked(
        board,
        indent,
        empty,
        &|player| player.to_char().to_string(),
        None,
    )
}

/// [`draw`] with the marks drawn by `mark` (colour) and the square `last` in parentheses,
/// `(X)`, unless it is on a complete line (brackets win).
#[must_use]
pub fn draw_marked(
    board: &AnyBoard,
    indent: &str,
    empty: &dyn Fn(Square) -> String,
    mark: &dyn Fn(Player) -> String,
    last: Option<Square>,
) -> String {
    let rules = board.rules();
    let mut marked = vec![false; rules.cells() as usize];
    for line in board.lines() {
        for square in line.cells() {
            marked[rules.index(square) as usize] = true;
        }
    }
    let gravity = rules.gravity();
    let side = if gravity { "" } else { "   " };
    let mut axis = format!("{indent}{side}");
    for col in 0..rules.cols() {
        if gravity {
            let _ = write!(axis, "{:^3}", col + 1);
        } else {
            let _ = write!(axis, " {} ", column_letter(col));
        }
    }
    let axis = axis.trim_end().to_owned() + "\n";
    let mut out = axis.clone();
    for row in 0..rules.rows() {
        let number = rules.rows() - row;
        out.push_str(indent);
        if !gravity {
            let _ = write!(out, "{number:>2} ");
        }
        for col in 0..rules.cols() {
            let Some(square) = rules.square(row, col) else {
                continue;
            };
            let inner = match board.at(square) {
                Some(player) => mark(player),
                None => empty(square),
            };
            if marked[rules.index(square) as usize] {
                let _ = write!(out, "[{inner}]");
            } else if last == Some(square) {
                let _ = write!(out, "({inner})");
            } else {
                let _ = write!(out, " {inner} ");
            }
        }
        if !gravity {
            let _ = write!(out, " {number}");
        }
        let trimmed = out.trim_end().len();
        out.truncate(trimmed);
        out.push('\n');
    }
    out.push_str(&axis);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_names_read_back() {
        for rules in [Rules::TIC_TAC_TOE, Rules::GOMOKU, Rules::CONNECT_FOUR] {
            for index in 0..rules.cells() {
                let square = rules.square_at(index).unwrap();
                let name = square_name(rules, square);
                assert_eq!(parse_square(rules, &name), Some(square), "{name}");
                assert_eq!(parse_square(rules, &name.to_uppercase()), Some(square));
            }
        }
        assert_eq!(
            square_name(Rules::GOMOKU, Rules::GOMOKU.square(7, 7).unwrap()),
            "h8"
        );
        for bad in ["", "a", "a0", "a16", "p1", "8h", "a1x", "-1"] {
            assert_eq!(parse_square(Rules::GOMOKU, bad), None, "{bad}");
        }
    }

    #[test]
    fn drawings_hold_every_cell_and_fit_in_100_columns() {
        let rules: Rules = "19,19,5".parse().unwrap();
        let board = AnyBoard::parse(rules, ".".repeat(361)).unwrap();
        let drawn = draw(&board, "  ", &|_| ".".to_owned());
        assert_eq!(drawn.lines().count(), 21);
        assert!(drawn.lines().all(|l| l.chars().count() <= 100), "{drawn}");
        let board = AnyBoard::parse(Rules::TIC_TAC_TOE, "XXX/OO./...").unwrap();
        assert_eq!(
            draw(&board, "", &|_| ".".to_owned()),
            "    a  b  c\n 3 [X][X][X] 3\n 2  O  O  .  2\n 1  .  .  .  1\n    a  b  c\n"
        );
    }
}
