//! `ttt analyze --game ultimate`: validity, status, the status of every small board and of the
//! meta-board, and the legal moves of ultimate positions.

use std::io::Write;
use std::process::ExitCode;

use serde::Serialize;
use tictactoe::ultimate::{Position, Setup};
use tictactoe::{Cell, Player};

use crate::dialogue::Style;
use crate::input::{self, InputError, Outcome};
use crate::output::Out;

/// One line of `analyze --game ultimate --json`; keys in this order.
#[derive(Serialize)]
struct Report {
    game: &'static str,
    position: String,
    valid: bool,
    /// Violation codes, in the library's reporting order.
    errors: Vec<&'static str>,
    status: Option<&'static str>,
    to_move: Option<char>,
    winner: Option<char>,
    /// The board to play, `null` when the mover may choose (or the game is over).
    next_board: Option<usize>,
    /// Each small board's status, boards 0 to 8.
    boards: Vec<&'static str>,
    /// The meta-board: each player's won boards as a 3 × 3 board.
    meta: Option<String>,
    /// The legal moves as `9 * board + cell`, ascending.
    legal_moves: Vec<usize>,
}

impl Report {
    fn of(setup: Setup) -> Report {
        let position = Position::try_from(setup);
        let errors = match &position {
            Ok(_) => Vec::new(),
            Err(invalid) => invalid
                .violations
                .iter()
                .map(tictactoe::ultimate::Violation::code)
                .collect(),
        };
        let position = position.ok();
        Report {
            game: "ultimate",
            position: setup.to_string(),
            valid: position.is_some(),
            errors,
            status: position.map(|p| p.status().as_str()),
            to_move: position.and_then(|p| p.to_move()).map(Player::to_char),
            winner: position
                .and_then(|p| p.status().winner())
                .map(Player::to_char),
            next_board: position.and_then(|p| p.next_board()).map(Cell::index),
            boards: position.map_or_else(Vec::new, |p| {
                Cell::ALL
                    .iter()
                    .map(|&b| p.board_status(b).as_str())
                    .collect()
            }),
            meta: position.map(|p| p.meta().to_string()),
            legal_moves: position.map_or_else(Vec::new, |p| {
                p.legal_moves()
                    .iter()
                    .map(tictactoe::ultimate::Move::index)
                    .collect()
            }),
        }
    }
}

/// An input: `-` (the empty board), moves from the empty board (`4:4 4:0`), or a position in
/// the text form (81 cells, then the board to play).
fn parse(text: &str) -> Result<Setup, String> {
    let text = text.trim();
    if text == "-" {
        return Ok(Setup::EMPTY);
    }
    if text.contains(':') {
        return super::parse_moves(text).map(|p| p.to_setup());
    }
    text.parse::<Setup>().map_err(|error| {
        format!("not a position: {error} (a position is 81 cells X, O or . row by row, then the board to play 0-8 or *; or moves such as 4:4 4:0; or - for the empty board)")
    })
}

/// Answers every position (arguments, or lines of standard input).
///
/// # Errors
/// A failed read or write.
pub fn run(inputs: &[std::ffi::OsString], json: bool) -> anyhow::Result<ExitCode> {
    let style = Style::detect();
    input::answer_each(inputs, |item, out: &mut Out| {
        let parsed = item
            .checked_text()
            .map_err(|error| error.to_string())
            .and_then(parse);
        match parsed {
            Ok(setup) if json => input::json_line(out, &Report::of(setup)),
            Ok(setup) => {
                write_for_people(out, setup, &style)?;
                Ok(Outcome::Answered)
            }
            Err(error) if json => input::reject_json(out, &InputError::new(&item, error)),
            Err(error) => input::reject(out, item.origin, format_args!("{:?}: {error}", item.text)),
        }
    })
}

fn write_for_people(out: &mut impl Write, setup: Setup, style: &Style) -> anyhow::Result<()> {
    writeln!(out, "{setup}")?;
    let position = match Position::try_from(setup) {
        Ok(position) => position,
        Err(invalid) => {
            writeln!(out, "valid     no: not a position of ultimate tic-tac-toe")?;
            for violation in invalid.violations.iter() {
                writeln!(out, "why       {}: {violation}", violation.code())?;
            }
            writeln!(out)?;
            return Ok(());
        }
    };
    write!(out, "{}", super::draw(&position, style, None))?;
    writeln!(out, "valid     yes")?;
    writeln!(out, "status    {}", super::describe(&position))?;
    let boards: Vec<String> = Cell::ALL
        .iter()
        .map(|&b| format!("{b} {}", super::board_word(position.board_status(b))))
        .collect();
    writeln!(out, "boards    {}", boards.join(", "))?;
    writeln!(out, "meta      {}", position.meta())?;
    let legal = position.legal_moves();
    let moves: Vec<String> = legal.iter().map(|m| m.to_string()).collect();
    if moves.is_empty() {
        writeln!(out, "legal     none")?;
    } else {
        writeln!(
            out,
            "legal     {}: {}",
            crate::output::count(u64::from(legal.count()), "move", "moves"),
            moves.join(" ")
        )?;
    }
    writeln!(out)?;
    Ok(())
}
