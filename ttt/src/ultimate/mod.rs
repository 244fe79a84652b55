//! `--game ultimate`: ultimate tic-tac-toe ([`tictactoe::ultimate`]) on `analyze`, `perft`,
//! `play`, `selfplay` and `match`. Each subcommand hands a run with `--game ultimate` to the
//! module of the same name here; this module holds what they share: the `--game` value that
//! names either ultimate or a game of the family, the move notation, the players and the
//! drawing of a position.
//!
//! Moves are written `B:C`: small board `B`, then cell `C` in it, both `0` to `8` row-major
//! from the top left (the library's `Move` prints so). People may also type `B C` or two
//! digits `BC`, and a single digit `C` when the board to play is fixed.

pub mod analyze;
pub mod perft;
pub mod play;

use std::fmt::Write as _;

use tictactoe::mnk::Rules;
use tictactoe::ultimate::agents::{MCTS_PLAYOUTS, Strategy};
use tictactoe::ultimate::{Move, Position};
use tictactoe::{Cell, Player, Status};

use crate::dialogue::Style;
use crate::exit;

/// The value of `--game`: ultimate tic-tac-toe, or a game of the k-in-a-row family.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spec {
    /// `ultimate`.
    Ultimate,
    /// A family spec (`connect-four`, `7,7,4`...).
    Family(Rules),
}

impl Spec {
    /// The family game, if it is one.
    pub const fn family(self) -> Option<Rules> {
        match self {
            Spec::Family(rules) => Some(rules),
            Spec::Ultimate => None,
        }
    }
}

/// `ultimate`, or the family spec as the library writes it.
impl std::fmt::Display for Spec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Spec::Ultimate => f.write_str("ultimate"),
            Spec::Family(rules) => rules.fmt(f),
        }
    }
}

/// Most threads of one search.
const MAX_THREADS: u32 = 256;

/// A thread count for `--threads`: 1 to [`MAX_THREADS`].
///
/// # Errors
/// The count and the range, for a usage error.
pub fn parse_threads(text: &str) -> Result<u32, String> {
    match text.parse::<u32>() {
        Ok(n) if (1..=MAX_THREADS).contains(&n) => Ok(n),
        _ => Err(format!(
            "{text:?} is not a thread count: give 1 to {MAX_THREADS}"
        )),
    }
}

/// `ultimate`, else a family spec through the library's parser.
///
/// # Errors
/// The family's message for a bad spec, with ultimate named.
pub fn parse_spec(text: &str) -> Result<Spec, String> {
    if text == "ultimate" {
        return Ok(Spec::Ultimate);
    }
    crate::family::parse_game(text)
        .map(Spec::Family)
        .map_err(|error| format!("{error} (or ultimate, for ultimate tic-tac-toe)"))
}

/// The levels of `play --game ultimate` and the players they stand for.
pub const LEVELS: [(&str, Strategy); 3] = [
    ("easy", Strategy::Random),
    ("medium", Strategy::Heuristic),
    (
        "hard",
        Strategy::Mcts {
            playouts: MCTS_PLAYOUTS,
        },
    ),
];

/// The player named by a level (`easy`, `medium`, `hard`) or a player (`random`, `heuristic`,
/// `mcts`, `mcts:N`).
///
/// # Errors
/// A usage error naming the players of ultimate (and why `perfect` is not one).
pub fn player(name: &str) -> anyhow::Result<Strategy> {
    if let Some((_, strategy)) = LEVELS.iter().find(|(level, _)| *level == name) {
        return Ok(*strategy);
    }
    match name.parse::<Strategy>() {
        Ok(strategy) => Ok(strategy),
        Err(_) if name == "perfect" => exit::usage(
            "perfect does not play ultimate: the game is unsolved; hard (mcts, 10,000 playouts \
a move) is the strongest player, mcts:N searches N playouts a move",
        ),
        Err(error) => exit::usage(format!(
            "{name} does not play ultimate: {error} (or the levels easy, medium, hard of play)"
        )),
    }
}

/// The move a person names: `B:C`, `B C` or `BC` (board, then cell, `0` to `8` each), or one
/// digit `C` when the board to play is `next`.
///
/// # Errors
/// What is wrong with the text, for people.
pub fn parse_move(text: &str, next: Option<Cell>) -> Result<Move, String> {
    let digits: Vec<char> = text
        .chars()
        .filter(|c| !matches!(c, ':' | ' ' | ',' | '-'))
        .collect();
    let digit = |c: char| {
        c.to_digit(10)
            .filter(|&d| d < 9)
            .and_then(|d| Cell::new(d as u8).ok())
    };
    let well_formed = text
        .chars()
        .all(|c| c.is_ascii_digit() || matches!(c, ':' | ' ' | ',' | '-'));
    match (well_formed, digits.as_slice()) {
        (true, &[b, c]) => match (digit(b), digit(c)) {
            (Some(board), Some(cell)) => Ok(Move::new(board, cell)),
            _ => Err(format!(
                "{text:?}: boards and cells are 0 to 8 (board, then cell: 4:2)"
            )),
        },
        (true, &[c]) => match (next, digit(c)) {
            (Some(board), Some(cell)) => Ok(Move::new(board, cell)),
            (None, Some(_)) => Err(format!(
                "{text:?} names a cell only, but the board is free: give board and cell, e.g. \
4:{c}"
            )),
            _ => Err(format!("{text:?}: cells are 0 to 8")),
        },
        _ => Err(format!(
            "not a move: {text:?}; give board and cell 0 to 8 as B:C (e.g. 4:2), or the cell \
alone when the board is fixed"
        )),
    }
}

/// A list of moves (`4:4 4:0`, commas or spaces between) played from the empty board.
///
/// # Errors
/// The first move that is not a move or not legal, with its place in the list.
pub fn parse_moves(text: &str) -> Result<Position, String> {
    let mut position = Position::EMPTY;
    for (n, word) in text
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|w| !w.is_empty())
        .enumerate()
    {
        let played = match word.split_once(':') {
            Some(_) => parse_move(word, None)?,
            None => {
                return Err(format!(
                    "move {} {word:?} is not B:C (board and cell 0 to 8, e.g. 4:2)",
                    n + 1
                ));
            }
        };
        position
            .play(played)
            .map_err(|error| format!("move {} ({played}): {error}", n + 1))?;
    }
    Ok(position)
}

/// The status in words, with whose turn it is and where.
pub fn describe(position: &Position) -> String {
    match (position.status(), position.to_move()) {
        (Status::Ongoing, Some(player)) => match position.next_board() {
            Some(board) => format!("ongoing, {player} to move in board {board}"),
            None => format!("ongoing, {player} to move in any open board"),
        },
        (Status::Won(player), _) => {
            format!("{player} won: three won boards in a row; game over")
        }
        _ => "draw: every board is closed, and no three in a row of won boards".to_owned(),
    }
}

/// A small board's status in one word: `X`, `O` (won), `drawn` or `open`.
pub fn board_word(status: Status) -> &'static str {
    match status {
        Status::Won(Player::X) => "X",
        Status::Won(Player::O) => "O",
        Status::Draw => "drawn",
        Status::Ongoing => "open",
    }
}

/// The position drawn for people: the 9 × 9 grid, a space between cells, `|` between small
/// boards and a rule between rows of boards; in the boards the mover may play, empty cells
/// show their number (what to type), elsewhere `.`; the last move in parentheses. To the
/// right, the meta-board: `X`/`O` a won board, `#` a drawn one, `*` a board the mover may play
/// in, `.` an open one it may not. Each line ends with a newline.
pub fn draw(position: &Position, style: &Style, last: Option<Move>) -> String {
    let legal = position.legal_moves();
    let meta_cell = |board: Cell| -> String {
        match position.board_status(board) {
            Status::Won(player) => style.mark(player),
            Status::Draw => "#".to_owned(),
            Status::Ongoing if position.moves_in(board).is_empty() => ".".to_owned(),
            Status::Ongoing => style.paint("*", "1"),
        }
    };
    let mut out = String::new();
    for row in 0..9 {
        if row > 0 && row % 3 == 0 {
            out.push_str("  -------+-------+-------\n");
        }
        out.push_str("  ");
        for board_column in 0..3 {
            if board_column > 0 {
                out.push('|');
            }
            let board = Cell::ALL[row / 3 * 3 + board_column];
            // The characters around the cells: spaces, or parentheses around the last move.
            let mut around = [' '; 4];
            let cells: Vec<String> = (0..3)
                .map(|column| {
                    let cell = Cell::ALL[row % 3 * 3 + column];
                    let here = Move::new(board, cell);
                    if last == Some(here) {
                        (around[column], around[column + 1]) = ('(', ')');
                    }
                    match position.at(board, cell) {
                        Some(player) => style.mark(player),
                        None if legal.contains(here) => style.paint(&cell.to_string(), "2"),
                        None => ".".to_owned(),
                    }
                })
                .collect();
            for (cell, before) in cells.iter().zip(around) {
                out.push(before);
                out.push_str(cell);
            }
            out.push(around[3]);
        }
        if row < 3 {
            let cells: Vec<String> = (0..3).map(|c| meta_cell(Cell::ALL[row * 3 + c])).collect();
            let _ = write!(out, "    {}", cells.join(" "));
        }
        let trimmed = out.trim_end().len();
        out.truncate(trimmed);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_read_in_every_form() {
        let four = Cell::new(4).ok();
        let m = |b, c| Move::new(Cell::ALL[b], Cell::ALL[c]);
        assert_eq!(parse_move("4:2", None), Ok(m(4, 2)));
        assert_eq!(parse_move("4 2", None), Ok(m(4, 2)));
        assert_eq!(parse_move("42", None), Ok(m(4, 2)));
        assert_eq!(parse_move("2", four), Ok(m(4, 2)));
        assert!(
            parse_move("2", None)
                .unwrap_err()
                .contains("the board is free")
        );
        assert!(parse_move("9:0", None).unwrap_err().contains("0 to 8"));
        assert!(
            parse_move("a1", None)
                .unwrap_err()
                .starts_with("not a move")
        );
        assert!(parse_move("4:2:1", None).is_err());
        for index in 0..81 {
            let played = Move::try_from(index).unwrap();
            assert_eq!(parse_move(&played.to_string(), None), Ok(played));
        }
    }

    #[test]
    fn move_lists_say_which_move_is_wrong() {
        let position = parse_moves("4:4, 4:0").unwrap();
        assert_eq!(position.next_board(), Cell::new(0).ok());
        let error = parse_moves("4:4 0:0").unwrap_err();
        assert!(error.starts_with("move 2 (0:0): "), "{error}");
        assert!(
            parse_moves("4:4 x")
                .unwrap_err()
                .starts_with("move 2 \"x\"")
        );
    }

    #[test]
    fn the_drawing_marks_the_board_to_play_and_the_last_move() {
        let position = parse_moves("4:4").unwrap();
        let style = Style { colour: false };
        let drawn = draw(&position, &style, Move::try_from(40).ok());
        let lines: Vec<&str> = drawn.lines().collect();
        assert_eq!(lines.len(), 11);
        assert_eq!(lines[0], "   . . . | . . . | . . .     . . .");
        assert_eq!(lines[1], "   . . . | . . . | . . .     . * .");
        assert_eq!(lines[3], "  -------+-------+-------");
        assert_eq!(lines[4], "   . . . | 0 1 2 | . . .");
        assert_eq!(lines[5], "   . . . | 3(X)5 | . . .");
    }
}
