//! `ttt analyze --game SPEC`: validity, status, whose turn and lines of family boards, in the
//! vocabulary of the 3 × 3 `analyze`.

use std::io::Write;
use std::process::ExitCode;

use serde::Serialize;
use tictactoe::Player;
use tictactoe::mnk::{AnyBoard, AnyPosition, Rules};

use crate::input::{self, InputError, Outcome};
use crate::output::Out;

/// One line of `analyze --game SPEC --json`; keys in this order.
#[derive(Serialize)]
struct Report {
    game: String,
    board: String,
    valid: bool,
    /// Violation codes, in the library's reporting order.
    errors: Vec<&'static str>,
    status: Option<&'static str>,
    to_move: Option<char>,
    winner: Option<char>,
    /// Every maximal line of `k` or more, as cell indices ascending; the lines sorted.
    lines: Vec<Vec<u32>>,
}

/// The maximal lines of `board`, each as its cell indices ascending, in ascending order.
fn lines(board: &AnyBoard) -> Vec<(Player, Vec<u32>)> {
    let rules = board.rules();
    let mut lines: Vec<(Player, Vec<u32>)> = board
        .lines()
        .map(|line| {
            let mut cells: Vec<u32> = line.cells().map(|s| rules.index(s)).collect();
            cells.sort_unstable();
            (line.player, cells)
        })
        .collect();
    lines.sort_by(|a, b| a.1.cmp(&b.1));
    lines
}

impl Report {
    fn of(board: AnyBoard) -> Report {
        let position = AnyPosition::from_board(board).ok();
        Report {
            game: board.rules().to_string(),
            board: board.to_string(),
            valid: position.is_some(),
            errors: board
                .violations()
                .iter()
                .map(tictactoe::mnk::Violation::code)
                .collect(),
            status: position.map(|p| p.status().as_str()),
            to_move: position.and_then(|p| p.to_move()).map(Player::to_char),
            winner: position.and_then(|p| p.winner()).map(Player::to_char),
            lines: lines(&board).into_iter().map(|(_, cells)| cells).collect(),
        }
    }
}

/// Answers every board or move string (arguments, or lines of standard input) of `rules`,
/// in the one vocabulary of [`super::position`].
///
/// # Errors
/// A failed read or write.
pub fn run(rules: Rules, boards: &[std::ffi::OsString], json: bool) -> anyhow::Result<ExitCode> {
    input::answer_each(boards, |item, out: &mut Out| {
        let parsed = item
            .checked_text()
            .map_err(|error| error.to_string())
            .and_then(|text| {
                super::position::parse(rules, text)
                    .map(|input| input.board())
                    .map_err(|error| error.to_string())
            });
        match parsed {
            Ok(board) if json => input::json_line(out, &Report::of(board)),
            Ok(board) => {
                write_for_people(out, board)?;
                Ok(Outcome::Answered)
            }
            Err(error) if json => input::reject_json(out, &InputError::new(&item, error)),
            Err(error) => input::reject(out, item.origin, format_args!("{:?}: {error}", item.text)),
        }
    })
}

fn write_for_people(out: &mut impl Write, board: AnyBoard) -> anyhow::Result<()> {
    let rules = board.rules();
    writeln!(out, "{board} ({rules})")?;
    write!(out, "{}", super::draw(&board, "  ", &|_| ".".to_owned()))?;
    match AnyPosition::from_board(board) {
        Ok(position) => writeln!(
            out,
            "status    {}",
            super::describe(position.status(), position.side_to_move())
        )?,
        Err(invalid) => {
            writeln!(out, "status    invalid: not a reachable position")?;
            for violation in invalid.violations.iter() {
                writeln!(out, "why       {}: {violation}", violation.code())?;
            }
        }
    }
    let named: Vec<String> = lines(&board)
        .into_iter()
        .map(|(player, cells)| {
            let names: Vec<String> = cells
                .iter()
                .filter_map(|&i| rules.square_at(i))
                .map(|s| super::square_name(rules, s))
                .collect();
            format!("{} ({player})", names.join("-"))
        })
        .collect();
    if named.is_empty() {
        writeln!(out, "lines     none")?;
    } else {
        writeln!(out, "lines     {}", named.join(", "))?;
    }
    writeln!(out)?;
    Ok(())
}
