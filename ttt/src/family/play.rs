//! `ttt play --game SPEC`: a game of the family in the terminal, between people and the
//! family's players ([`tictactoe::mnk::agents`]).
//!
//! A person types a column number from 1 with gravity (as Connect Four players count), else
//! a cell as drawn (`h8`: column letter, row from 1 at the bottom); `u` takes back the last
//! move of the person (and the computer's answer), `h` shows help, `q` quits.

use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;

use tictactoe::mnk::agents::{Agent, Chooser, Strategy};
use tictactoe::mnk::{AnyPosition, PlayError, Rules, Square};
use tictactoe::{Player, Status};

use crate::input::Lines;

/// Who sits on one side: a person (`None`) or a family player.
pub type Seat = Option<Strategy>;

/// How a person names a move, for prompts and help.
fn move_hint(rules: Rules) -> String {
    if rules.gravity() {
        format!("a column number (1 to {})", rules.cols())
    } else {
        let last = super::square_name(rules, Square::new(0, (rules.cols() - 1) as u8));
        format!("a cell as drawn (a1 to {last})")
    }
}

/// The game in one sentence.
fn title(rules: Rules) -> String {
    let mut text = format!(
        "{rules}: {} rows, {} columns, {} in a row wins",
        rules.rows(),
        rules.cols(),
        rules.k()
    );
    if rules.gravity() {
        text.push_str("; a mark drops to the lowest empty cell of its column");
    }
    text.push('.');
    text
}

/// What a person typed.
enum Command {
    Play(usize),
    Undo,
    Help,
    Quit,
    End,
}

struct Table {
    rules: Rules,
    seats: [Seat; 2],
    agents: [Option<Agent>; 2],
    /// The one person, when one person plays the computer.
    person: Option<Player>,
    input: Lines,
    echo: bool,
}

impl Table {
    fn is_human(&self, player: Player) -> bool {
        self.seats[player as usize].is_none()
    }

    fn move_name(&self, square: Square, action: usize) -> String {
        if self.rules.gravity() {
            (action + 1).to_string()
        } else {
            super::square_name(self.rules, square)
        }
    }
}

/// Plays games until the person stops.
///
/// # Errors
/// A failed read or write.
pub fn run(rules: Rules, seats: [Seat; 2], seed: u64) -> anyhow::Result<ExitCode> {
    let person = match seats {
        [None, Some(_)] => Some(Player::X),
        [Some(_), None] => Some(Player::O),
        _ => None,
    };
    let mut table = Table {
        rules,
        seats,
        agents: [0, 1].map(|i| seats[i].map(|s| Agent::new(s, seed.wrapping_add(i as u64)))),
        person,
        input: Lines::stdin(),
        echo: !io::stdin().is_terminal(),
    };
    let mut out = io::stdout().lock();
    greet(&mut out, &table, seed)?;
    loop {
        match play_one(&mut out, &mut table)? {
            Some(status) => announce(&mut out, &table, status)?,
            None => return Ok(ExitCode::SUCCESS),
        }
        if !table.is_human(Player::X) && !table.is_human(Player::O) {
            return Ok(ExitCode::SUCCESS);
        }
        write!(out, "\nPlay again? (y/n): ")?;
        out.flush()?;
        let answer = read_line(&mut table, &mut out)?;
        if !matches!(answer.as_deref(), Some("y" | "Y" | "yes")) {
            writeln!(out, "Thanks for playing.")?;
            return Ok(ExitCode::SUCCESS);
        }
    }
}

fn greet(out: &mut impl Write, table: &Table, seed: u64) -> io::Result<()> {
    let describe = |seat: Seat| match seat {
        None => "a person".to_owned(),
        Some(strategy) => format!("the computer ({strategy})"),
    };
    writeln!(out, "{}", title(table.rules))?;
    match table.person {
        Some(person) => writeln!(
            out,
            "You are {person}, {} is {}. X moves first.",
            describe(table.seats[person.opponent() as usize]),
            person.opponent()
        )?,
        None => writeln!(
            out,
            "X is {}, O is {}.",
            describe(table.seats[0]),
            describe(table.seats[1])
        )?,
    }
    if table.is_human(Player::X) || table.is_human(Player::O) {
        writeln!(
            out,
            "Enter {}; u to undo, h for help, q to quit.",
            move_hint(table.rules)
        )?;
    }
    writeln!(
        out,
        "Seed {seed} (ttt play --game {} --seed {seed} replays the computer's choices).",
        table.rules
    )
}

fn show(out: &mut impl Write, position: &AnyPosition) -> io::Result<()> {
    writeln!(out)?;
    write!(
        out,
        "{}",
        super::draw(&position.board(), "  ", &|_| ".".to_owned())
    )
}

/// One game to its end: its status, or `None` when the person quit or the input ended.
fn play_one(out: &mut impl Write, table: &mut Table) -> anyhow::Result<Option<Status>> {
    let mut position = AnyPosition::new(table.rules);
    let mut history: Vec<Square> = Vec::new();
    show(out, &position)?;
    loop {
        let Some(mover) = position.to_move() else {
            return Ok(Some(position.status()));
        };
        let action = match &mut table.agents[mover as usize] {
            Some(agent) => agent
                .choose(&position)
                .ok_or_else(|| anyhow::anyhow!("no move found at {position}"))?,
            None => match ask(out, table, mover, &position)? {
                Command::Play(action) => action,
                Command::Help => {
                    writeln!(out, "{}", help(table.rules))?;
                    continue;
                }
                Command::Undo => {
                    undo(&mut position, &mut history, table, mover);
                    show(out, &position)?;
                    continue;
                }
                Command::Quit => {
                    writeln!(out, "Game left unfinished. Bye.")?;
                    return Ok(None);
                }
                Command::End => {
                    writeln!(out, "\nend of input: game left unfinished")?;
                    return Ok(None);
                }
            },
        };
        let square = position.play(action)?;
        history.push(square);
        let who = match (&table.agents[mover as usize], table.person) {
            (Some(agent), Some(_)) => format!("The computer ({})", agent.strategy()),
            (Some(agent), None) => format!("{mover} ({})", agent.strategy()),
            (None, Some(_)) => "You".to_owned(),
            (None, None) => mover.to_string(),
        };
        writeln!(out, "{who} played {}.", table.move_name(square, action))?;
        show(out, &position)?;
    }
}

/// Takes back moves until it is `mover`'s turn again with one of `mover`'s moves undone.
fn undo(position: &mut AnyPosition, history: &mut Vec<Square>, table: &Table, mover: Player) {
    let mut undone = false;
    while let Some(square) = history.pop() {
        // Moves of a game undo in reverse order.
        let _ = position.undo(square);
        if position.side_to_move() == mover && table.is_human(mover) {
            undone = true;
            break;
        }
    }
    if !undone {
        *position = AnyPosition::new(table.rules);
        history.clear();
    }
}

fn help(rules: Rules) -> String {
    format!(
        "Enter {} and press Enter.\n  u, undo   take back your last move (and the computer's \
answer)\n  h, help   show this help\n  q, quit   leave the game",
        move_hint(rules)
    )
}

/// One line of input, trimmed; `None` at the end. Echoed when the input is not a terminal.
fn read_line(table: &mut Table, out: &mut impl Write) -> io::Result<Option<String>> {
    if !table.input.next_raw(&mut || Ok(()))? {
        return Ok(None);
    }
    let text = String::from_utf8_lossy(table.input.raw()).trim().to_owned();
    if table.echo {
        let shown: String = text.chars().take(40).collect();
        writeln!(out, "{shown}")?;
    }
    Ok(Some(text))
}

/// The action a person names: a column number from 1 with gravity, else a cell as drawn.
fn parse_move(rules: Rules, text: &str) -> Option<usize> {
    if rules.gravity() {
        let column: usize = text.parse().ok()?;
        (1..=rules.cols() as usize)
            .contains(&column)
            .then(|| column - 1)
    } else {
        super::parse_square(rules, text).map(|s| rules.index(s) as usize)
    }
}

/// Asks a person for a move until one is legal, or a command.
fn ask(
    out: &mut impl Write,
    table: &mut Table,
    mover: Player,
    position: &AnyPosition,
) -> anyhow::Result<Command> {
    let what = if table.rules.gravity() {
        "column"
    } else {
        "cell"
    };
    loop {
        match table.person {
            Some(_) => write!(out, "Your move ({mover}), {what}: ")?,
            None => write!(out, "{mover} to move, {what}: ")?,
        }
        out.flush()?;
        let Some(text) = read_line(table, out)? else {
            return Ok(Command::End);
        };
        match text.to_ascii_lowercase().as_str() {
            "q" | "quit" | "exit" => return Ok(Command::Quit),
            "u" | "undo" => return Ok(Command::Undo),
            "h" | "help" | "?" => return Ok(Command::Help),
            _ => {}
        }
        let Some(action) = parse_move(table.rules, &text) else {
            let shown: String = text.chars().take(20).collect();
            writeln!(
                out,
                "not a {what}: {shown:?}; enter {} (h for help)",
                move_hint(table.rules)
            )?;
            continue;
        };
        let mut probe = *position;
        match probe.play(action) {
            Ok(_) => return Ok(Command::Play(action)),
            Err(PlayError::ColumnFull { .. }) => {
                writeln!(out, "column {} is full; choose another", action + 1)?;
            }
            Err(PlayError::Occupied { .. }) => {
                writeln!(
                    out,
                    "{} is taken; choose an empty cell",
                    text.to_lowercase()
                )?;
            }
            Err(error) => writeln!(out, "{error}")?,
        }
    }
}

fn announce(out: &mut impl Write, table: &Table, status: Status) -> io::Result<()> {
    let k = table.rules.k();
    let line = match (status, table.person) {
        (Status::Won(winner), Some(person)) if winner == person => "You win!".to_owned(),
        (Status::Won(_), Some(_)) => format!("You lose: the computer has {k} in a row."),
        (Status::Won(winner), None) => format!("{winner} wins."),
        (Status::Draw | Status::Ongoing, _) => format!("Draw: nobody has {k} in a row."),
    };
    writeln!(out, "{line}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_are_columns_from_1_with_gravity_and_cells_without() {
        assert_eq!(parse_move(Rules::CONNECT_FOUR, "1"), Some(0));
        assert_eq!(parse_move(Rules::CONNECT_FOUR, "7"), Some(6));
        assert_eq!(parse_move(Rules::CONNECT_FOUR, "0"), None);
        assert_eq!(parse_move(Rules::CONNECT_FOUR, "8"), None);
        assert_eq!(parse_move(Rules::TIC_TAC_TOE, "a3"), Some(0));
        assert_eq!(parse_move(Rules::TIC_TAC_TOE, "c1"), Some(8));
        assert_eq!(parse_move(Rules::TIC_TAC_TOE, "4"), None);
    }
}
