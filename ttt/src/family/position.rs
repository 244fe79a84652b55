//! The one input vocabulary of every `--game` command that reads positions (`analyze`,
//! `solve`): a board, or the moves that lead to a position.
//!
//! | form | example | read as |
//! |---|---|---|
//! | empty argument, or `-` | `""`, `-` | the empty position |
//! | board | `..../.XO./..../....` | rows top to bottom separated by `/`, cells `X`, `O`, `.` |
//! | column digits (gravity) | `4453` | one column from 1 to 9 per move |
//! | columns with commas (gravity) | `10,3,12` | columns from 1, any number of digits |
//! | cells with commas (no gravity) | `h8,h9,i8` | cells as drawn: column letter, row from 1 at the bottom |
//!
//! The form is decided by the first characters (a digit starts moves with gravity, a letter
//! followed by a digit starts moves without), so an error names the character and its index
//! in the form the input was meant to be.

use std::fmt;

use tictactoe::Status;
use tictactoe::mnk::{AnyBoard, AnyPosition, PlayError, Rules};

/// The text standing for the empty position on a line of standard input (where an empty line
/// is skipped); an empty argument means the same.
pub const EMPTY: &str = "-";

/// What an input names: a board as written (it may be no reachable position: `analyze` says
/// why, `solve` rejects it) or the position its moves reach.
#[derive(Clone, Copy, Debug)]
pub enum Input {
    Board(AnyBoard),
    Moves(AnyPosition),
}

impl Input {
    /// The board.
    #[must_use]
    pub fn board(&self) -> AnyBoard {
        match self {
            Input::Board(board) => *board,
            Input::Moves(position) => position.board(),
        }
    }

    /// The position, or why the board is none.
    ///
    /// # Errors
    /// The rules the board breaks.
    pub fn position(&self) -> Result<AnyPosition, String> {
        match self {
            Input::Moves(position) => Ok(*position),
            Input::Board(board) => AnyPosition::from_board(*board).map_err(|invalid| {
                let codes: Vec<&str> = invalid
                    .violations
                    .iter()
                    .map(tictactoe::mnk::Violation::code)
                    .collect();
                format!(
                    "not a reachable position ({}): {}",
                    codes.join(", "),
                    invalid.violations
                )
            }),
        }
    }
}

/// Why an input is neither a board nor moves of the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InputError {
    /// A character that has no place in the form the input was meant to be.
    BadChar {
        ch: char,
        index: usize,
        expected: String,
    },
    /// A move between commas is missing (`4,,5`, a trailing comma).
    EmptyMove { number: usize, index: usize },
    /// A column that is not on the board.
    NoColumn {
        number: usize,
        column: u64,
        cols: u32,
        /// The input was column digits on a board of more than 9 columns.
        digits_on_wide_board: bool,
    },
    /// A cell name that is not on the board.
    NoCell { number: usize, name: String },
    /// A move the game does not allow.
    Illegal {
        number: usize,
        name: String,
        why: &'static str,
    },
    /// A move after the game ended.
    AfterEnd { number: usize },
    /// A board the text form does not read.
    Board(tictactoe::mnk::ParseBoardError),
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputError::BadChar {
                ch,
                index,
                expected,
            } => write!(
                f,
                "bad character {ch:?} at index {index}: expected {expected}"
            ),
            InputError::EmptyMove { number, index } => write!(
                f,
                "move {number} is empty (index {index}): expected a move between commas"
            ),
            InputError::NoColumn {
                number,
                column,
                cols,
                digits_on_wide_board,
            } => {
                write!(
                    f,
                    "move {number} is column {column}: the game has columns 1 to {cols}"
                )?;
                if *digits_on_wide_board {
                    write!(
                        f,
                        " (digits are one column each: separate columns by commas, e.g. 10,3,12)"
                    )?;
                }
                Ok(())
            }
            InputError::NoCell { number, name } => {
                write!(
                    f,
                    "move {number} is {name:?}, which is not a cell of the board"
                )
            }
            InputError::Illegal { number, name, why } => {
                write!(f, "move {number} plays {name}, which is {why}")
            }
            InputError::AfterEnd { number } => write!(
                f,
                "move {number} comes after the end of the game (move {} ended it)",
                number - 1
            ),
            InputError::Board(error) => error.fmt(f),
        }
    }
}

/// Reads an input of `rules` in the one vocabulary (see the module's table).
///
/// # Errors
/// The first problem, with the character and its index where a character is the problem.
pub fn parse(rules: Rules, text: &str) -> Result<Input, InputError> {
    if text.is_empty() || text == EMPTY {
        return Ok(Input::Moves(AnyPosition::new(rules)));
    }
    let mut chars = text.chars();
    let first = chars.next().unwrap_or(' ');
    let second = chars.next().unwrap_or(' ');
    if rules.gravity() && first.is_ascii_digit() {
        return columns(rules, text).map(Input::Moves);
    }
    if !rules.gravity() && first.is_ascii_alphabetic() && second.is_ascii_digit() {
        return cells(rules, text).map(Input::Moves);
    }
    AnyBoard::parse(rules, text)
        .map(Input::Board)
        .map_err(InputError::Board)
}

/// Plays one move (`number` from 1) named `name`.
fn play(
    position: &mut AnyPosition,
    number: usize,
    action: usize,
    name: impl FnOnce() -> String,
) -> Result<(), InputError> {
    if position.status() != Status::Ongoing {
        return Err(InputError::AfterEnd { number });
    }
    let why = match position.play(action) {
        Ok(_) => return Ok(()),
        Err(PlayError::ColumnFull { .. }) => "full",
        Err(PlayError::Occupied { .. }) => "taken",
        Err(_) => "not playable",
    };
    Err(InputError::Illegal {
        number,
        name: name(),
        why,
    })
}

/// Columns from 1: one digit each, or any number of digits between commas.
fn columns(rules: Rules, text: &str) -> Result<AnyPosition, InputError> {
    let cols = rules.cols();
    let commas = text.contains(',');
    let expected = if commas {
        format!("columns 1 to {cols} separated by commas")
    } else if cols > 9 {
        format!("column digits (or columns 1 to {cols} separated by commas)")
    } else {
        format!("column digits 1 to {cols}")
    };
    let mut position = AnyPosition::new(rules);
    let mut number = 0;
    let mut start = 0;
    // Each move: its text and the index where it starts.
    let mut moves: Vec<(usize, &str)> = Vec::new();
    for (index, ch) in text.char_indices() {
        if ch == ',' && commas {
            moves.push((start, &text[start..index]));
            start = index + 1;
        } else if !ch.is_ascii_digit() {
            return Err(InputError::BadChar {
                ch,
                index: text[..index].chars().count(),
                expected,
            });
        } else if !commas {
            moves.push((index, &text[index..index + 1]));
        }
    }
    if commas {
        moves.push((start, &text[start..]));
    }
    for (index, digits) in moves {
        number += 1;
        if digits.is_empty() {
            return Err(InputError::EmptyMove { number, index });
        }
        let column: u64 = digits.parse().unwrap_or(u64::MAX);
        if column == 0 || column > u64::from(cols) {
            return Err(InputError::NoColumn {
                number,
                column,
                cols,
                digits_on_wide_board: !commas && cols > 9,
            });
        }
        play(&mut position, number, column as usize - 1, || {
            format!("column {column}")
        })?;
    }
    Ok(position)
}

/// Cells as drawn (`h8`), separated by commas.
fn cells(rules: Rules, text: &str) -> Result<AnyPosition, InputError> {
    let mut position = AnyPosition::new(rules);
    let mut start = 0;
    for (number, name) in text.split(',').enumerate() {
        let number = number + 1;
        if let Some((offset, ch)) = name
            .char_indices()
            .find(|&(_, ch)| !ch.is_ascii_alphanumeric())
        {
            return Err(InputError::BadChar {
                ch,
                index: text[..start + offset].chars().count(),
                expected: "cells as drawn (a1 at the bottom left) separated by commas".to_owned(),
            });
        }
        if name.is_empty() {
            return Err(InputError::EmptyMove {
                number,
                index: start,
            });
        }
        let Some(square) = super::parse_square(rules, name) else {
            return Err(InputError::NoCell {
                number,
                name: name.to_owned(),
            });
        };
        play(&mut position, number, rules.index(square) as usize, || {
            super::square_name(rules, square)
        })?;
        start += name.len() + 1;
    }
    Ok(position)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(rules: Rules, text: &str) -> String {
        parse(rules, text)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default()
    }

    fn board(rules: Rules, text: &str) -> String {
        parse(rules, text)
            .map(|i| i.board().to_string())
            .unwrap_or_default()
    }

    #[test]
    fn every_form_names_the_same_position() {
        let c4 = Rules::CONNECT_FOUR;
        let expected = "......./......./......./......./...OO../...XX..";
        assert_eq!(board(c4, "4455"), expected);
        assert_eq!(board(c4, "4,4,5,5"), expected);
        assert_eq!(board(c4, expected), expected);
        let empty = "......./......./......./......./......./.......";
        assert_eq!(board(c4, ""), empty);
        assert_eq!(board(c4, EMPTY), empty);
        let wide: Rules = "6,12,4,gravity".parse().unwrap();
        let empty_row = "............/";
        assert_eq!(board(wide, "10,3,12"), empty_row.repeat(5) + "..O......X.X");
        let gomoku = Rules::GOMOKU;
        let moves = parse(gomoku, "h8,h9,i8").unwrap().position().unwrap();
        assert_eq!(moves.plies(), 3);
        assert_eq!(
            moves.board().at(parse_square_named(gomoku, "i8")),
            Some(tictactoe::Player::X)
        );
        assert_eq!(board(Rules::TIC_TAC_TOE, "b2,A1"), ".../.X./O..");
    }

    fn parse_square_named(rules: Rules, name: &str) -> tictactoe::mnk::Square {
        super::super::parse_square(rules, name).unwrap()
    }

    #[test]
    fn errors_name_the_character_and_its_index_in_the_form_meant() {
        let c4 = Rules::CONNECT_FOUR;
        assert_eq!(
            error(c4, "4x53"),
            "bad character 'x' at index 1: expected column digits 1 to 7"
        );
        assert_eq!(
            error(c4, "XX4"),
            "bad character '4' at index 2: expected X, O, . or / between rows"
        );
        assert_eq!(
            error(c4, "4,4;5"),
            "bad character ';' at index 3: expected columns 1 to 7 separated by commas"
        );
        assert_eq!(
            error(c4, "4,,5"),
            "move 2 is empty (index 2): expected a move between commas"
        );
        assert_eq!(
            error(c4, "40"),
            "move 2 is column 0: the game has columns 1 to 7"
        );
        assert_eq!(
            error(c4, "4,12"),
            "move 2 is column 12: the game has columns 1 to 7"
        );
        assert_eq!(error(c4, "1111111"), "move 7 plays column 1, which is full");
        assert_eq!(
            error(c4, "12121211"),
            "move 8 comes after the end of the game (move 7 ended it)"
        );
        let wide: Rules = "6,12,4,gravity".parse().unwrap();
        assert!(
            error(wide, "130").ends_with(
                "(digits are one column each: separate columns by commas, e.g. 10,3,12)"
            ),
            "{}",
            error(wide, "130")
        );
        let gomoku = Rules::GOMOKU;
        assert_eq!(error(gomoku, "h8,h8"), "move 2 plays h8, which is taken");
        assert_eq!(
            error(gomoku, "h8,z9"),
            "move 2 is \"z9\", which is not a cell of the board"
        );
        assert_eq!(
            error(gomoku, "h8,h9;"),
            "bad character ';' at index 5: expected cells as drawn (a1 at the bottom left) \
separated by commas"
        );
        assert_eq!(
            error(Rules::TIC_TAC_TOE, "XOZ"),
            "bad character 'Z' at index 2: expected X, O, . or / between rows"
        );
    }

    #[test]
    fn unreachable_boards_are_read_and_refused_as_positions() {
        let input = parse(Rules::TIC_TAC_TOE, "OOO/.../...").unwrap();
        assert_eq!(input.board().to_string(), "OOO/.../...");
        let why = input.position().unwrap_err();
        assert!(
            why.starts_with("not a reachable position (o-started"),
            "{why}"
        );
    }
}
