//! `ttt solve --game SPEC`: value, distance, score and best moves of family positions, by
//! [`tictactoe::mnk::AnySolver`].

use std::ffi::OsString;
use std::io::Write;
use std::process::ExitCode;
use std::sync::Arc;

use serde::Serialize;
use tictactoe::Player;
use tictactoe::mnk::{AnyPosition, AnySolver, Rules};

use crate::input::{self, InputError, Outcome};
use crate::output::Out;
use crate::output::grouped;
use crate::progress::Progress;

/// The default of `--max-nodes` but on Connect Four: about a minute of search.
pub const DEFAULT_MAX_NODES: u64 = 100_000_000;

/// How to answer.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    pub json: bool,
    pub weak: bool,
    /// `--max-nodes`: when `None`, [`DEFAULT_MAX_NODES`], and no budget on Connect Four
    /// (whose solver always finishes, in minutes at worst).
    pub max_nodes: Option<u64>,
}

impl Options {
    /// The node budget of one position of `rules`.
    #[must_use]
    pub fn budget(self, rules: Rules) -> u64 {
        match self.max_nodes {
            Some(nodes) => nodes,
            None if rules == Rules::CONNECT_FOUR => u64::MAX,
            None => DEFAULT_MAX_NODES,
        }
    }
}

/// One line of `solve --game SPEC --json`; keys in this order.
#[derive(Serialize)]
struct Report<'a> {
    game: String,
    /// The position as given.
    input: &'a str,
    /// Its board in the text form.
    board: String,
    /// Null when the game is over.
    to_move: Option<char>,
    /// `x-wins`, `o-wins` or `draw`; null when the budget ran out.
    value: Option<&'static str>,
    /// Plies to the end under perfect play; null with `--weak` or when unsolved.
    distance: Option<u32>,
    /// For the side to move; null with `--weak` or when unsolved.
    score: Option<i32>,
    /// Actions, ascending; null with `--weak` or when unsolved.
    best_moves: Option<Vec<usize>>,
    /// Nodes searched for this position.
    nodes: u64,
    /// Why `value` is null: the budget ran out.
    #[serde(skip_serializing_if = "Option::is_none")]
    unsolved: Option<String>,
}

/// The position a line names, in the one vocabulary of [`super::position`].
///
/// # Errors
/// What is wrong with the input, or why its board is no reachable position.
pub fn parse_position(rules: Rules, text: &str) -> Result<AnyPosition, String> {
    super::position::parse(rules, text)
        .map_err(|error| error.to_string())
        .and_then(|input| input.position())
}

/// What the solver said of one position.
struct Answer {
    value: Option<tictactoe::solver::Value>,
    solution: Option<tictactoe::mnk::AnySolution>,
    nodes: u64,
}

fn answer(solver: &mut AnySolver, position: &AnyPosition, options: Options) -> Answer {
    let start = solver.nodes();
    let budget = options.budget(position.rules());
    let (value, solution) = if options.weak {
        (solver.value(position, budget), None)
    } else {
        let solution = solver.solve(position, budget);
        (solution.as_ref().map(|s| s.value), solution)
    };
    Answer {
        value,
        solution,
        nodes: solver.nodes() - start,
    }
}

/// Answers every position (arguments, or lines of standard input) of `rules`.
///
/// # Errors
/// A failed read or write.
pub fn run(rules: Rules, positions: &[OsString], options: Options) -> anyhow::Result<ExitCode> {
    let mut solver = AnySolver::new();
    // The nodes of a long search on a progress line (every `WATCH_NODES` nodes).
    let progress = Arc::new(Progress::spinner("").unless(options.json));
    if progress.may_draw() {
        let bar = Arc::clone(&progress);
        solver.set_watch(Some(Box::new(move |nodes| {
            bar.message(format!("searching: {} nodes", grouped(nodes)));
            true
        })));
    }
    let code = input::answer_each(positions, |item, out: &mut Out| {
        let parsed = item
            .checked_text()
            .map_err(|error| error.to_string())
            .and_then(|text| parse_position(rules, text));
        let position = match parsed {
            Ok(position) => position,
            Err(error) if options.json => {
                return input::reject_json(out, &InputError::new(&item, error));
            }
            Err(error) => {
                return input::reject(out, item.origin, format_args!("{:?}: {error}", item.text));
            }
        };
        let answer = answer(&mut solver, &position, options);
        progress.restart();
        let unsolved = answer.value.is_none().then(|| {
            format!(
                "not solved within {} nodes (--max-nodes)",
                options.budget(rules)
            )
        });
        if options.json {
            let solution = answer.solution.as_ref();
            return input::json_line(
                out,
                &Report {
                    game: rules.to_string(),
                    input: item.text,
                    board: position.board().to_string(),
                    to_move: position.to_move().map(Player::to_char),
                    value: answer.value.map(tictactoe::solver::Value::as_str),
                    distance: solution.map(|s| s.distance),
                    score: solution.map(|s| s.score),
                    best_moves: solution.map(|s| s.best_moves.clone()),
                    nodes: answer.nodes,
                    unsolved,
                },
            );
        }
        let line = match (&answer, unsolved) {
            (_, Some(why)) => why,
            (
                Answer {
                    solution: Some(s), ..
                },
                None,
            ) => {
                let names: Vec<String> = s
                    .best_moves
                    .iter()
                    .map(|&action| move_name(rules, action))
                    .collect();
                let best = if names.is_empty() {
                    "none (the game is over)".to_owned()
                } else {
                    names.join(" ")
                };
                format!(
                    "{}, distance {}, score {}, best moves {best}",
                    s.value, s.distance, s.score
                )
            }
            (
                Answer {
                    value: Some(value), ..
                },
                None,
            ) => value.to_string(),
            (Answer { value: None, .. }, None) => unreachable!("no value is unsolved"),
        };
        // An empty argument (the empty position) is shown as written in a shell.
        let shown = if item.text.is_empty() {
            "\"\""
        } else {
            item.text
        };
        writeln!(out, "{shown}: {line}")?;
        Ok(Outcome::Answered)
    });
    drop(solver.set_watch(None));
    if let Ok(progress) = Arc::try_unwrap(progress) {
        progress.finish();
    }
    code
}

/// A move as people name it: the column from 1 with gravity, else the cell as drawn (`b2`).
#[must_use]
pub fn move_name(rules: Rules, action: usize) -> String {
    if rules.gravity() {
        (action + 1).to_string()
    } else {
        rules
            .square_at(action as u32)
            .map_or_else(|| action.to_string(), |s| super::square_name(rules, s))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_name_their_mistake() {
        let c4 = Rules::CONNECT_FOUR;
        assert_eq!(
            parse_position(c4, "4x53").err().as_deref(),
            Some("bad character 'x' at index 1: expected column digits 1 to 7")
        );
        let error = parse_position(Rules::TIC_TAC_TOE, "OOO/.../...")
            .err()
            .unwrap_or_default();
        assert!(
            error.starts_with("not a reachable position (o-started"),
            "{error}"
        );
        assert_eq!(parse_position(c4, "").map(|p| p.plies()), Ok(0));
        assert!(parse_position(c4, "4453").is_ok());
    }
}
