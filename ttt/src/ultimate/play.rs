//! `ttt play --game ultimate`: ultimate tic-tac-toe in the terminal, between people and the
//! players of [`tictactoe::ultimate::agents`], in the dialogue of the other games
//! ([`crate::dialogue`]): a move per line, `u` undoes the person's last move (and the
//! computer's answer), `h` shows help, `q` quits, "Play again?" at the end.
//!
//! `mcts` stops at the think time and plays the most visited move so far (the game says when
//! that happened: a replay can then differ); with `--threads N` it searches on N threads at
//! once (N times the playouts). Ctrl-C ends the process at once with status 130, also while
//! the computer thinks (and also when it was started with SIGINT ignored).

use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use tictactoe::ultimate::agents::{Agent, Strategy};
use tictactoe::ultimate::{Position, Undo};
use tictactoe::{Player, Status};

use crate::dialogue::{Style, again, read_line};
use crate::family::play::Spinner;
use crate::input::Lines;

/// Who sits on one side: a person (`None`) or a player.
pub type Seat = Option<Strategy>;

/// How the game is set up beyond the seats.
pub struct Options {
    /// The seed of the engine players (X's generator from it, O's from it + 1).
    pub seed: u64,
    /// The most `mcts` thinks per move.
    pub think_time: Duration,
    /// Threads of each `mcts` search.
    pub threads: u32,
    /// The command that replays the game, when an engine plays.
    pub replay: Option<String>,
    /// How each seat is described in the greeting (`the computer (hard: mcts:10000)`).
    pub names: [String; 2],
}

const RULES: &str = "Ultimate tic-tac-toe: nine small boards in a 3 x 3 meta-board. Your move's \
cell sends the opponent to the board of the same number (anywhere open if that board is won or \
full); three in a row wins a small board; three won boards in a row win the game.";

const HINT: &str = "board:cell (0 to 8 each, e.g. 4:2), or the cell alone when the board is fixed";

/// What a person typed.
enum Command {
    Play(tictactoe::ultimate::Move),
    Undo,
    Help,
    Quit,
    End,
}

struct Table {
    seats: [Seat; 2],
    agents: [Option<Agent>; 2],
    /// The one person, when one person plays the computer.
    person: Option<Player>,
    input: Lines,
    echo: bool,
    style: Style,
    think_time: Duration,
    threads: u32,
    /// Replies of `mcts` cut short by the think time, this game.
    cut: u32,
}

impl Table {
    fn is_human(&self, player: Player) -> bool {
        self.seats[player as usize].is_none()
    }
}

/// Plays games until the person stops.
///
/// # Errors
/// A failed read or write.
pub fn run(seats: [Seat; 2], options: Options) -> anyhow::Result<ExitCode> {
    // Ctrl-C ends the game at once, even in the middle of a search.
    signal_hook::flag::register_conditional_shutdown(
        signal_hook::consts::SIGINT,
        130,
        std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true)),
    )?;
    let person = match seats {
        [None, Some(_)] => Some(Player::X),
        [Some(_), None] => Some(Player::O),
        _ => None,
    };
    let seed = options.seed;
    let mut table = Table {
        seats,
        agents: [0, 1].map(|i| seats[i].map(|s| Agent::new(s, seed.wrapping_add(i as u64)))),
        person,
        input: Lines::stdin(),
        echo: !io::stdin().is_terminal(),
        style: Style::detect(),
        think_time: options.think_time,
        threads: options.threads,
        cut: 0,
    };
    let mut out = crate::output::stdout();
    greet(&mut out, &table, &options)?;
    loop {
        table.cut = 0;
        let end = play_one(&mut out, &mut table)?;
        if let Some(status) = end {
            announce(&mut out, &table, status)?;
        }
        if table.cut > 0 {
            writeln!(
                out,
                "({} of the computer's replies stopped at the think time: a replay can differ.)",
                table.cut
            )?;
        }
        if end.is_none() || (!table.is_human(Player::X) && !table.is_human(Player::O)) {
            return Ok(ExitCode::SUCCESS);
        }
        if !again(&mut out, &mut table.input, table.echo)? {
            writeln!(out, "Thanks for playing.")?;
            return Ok(ExitCode::SUCCESS);
        }
    }
}

fn greet(out: &mut impl Write, table: &Table, options: &Options) -> io::Result<()> {
    writeln!(out, "{}", crate::output::wrap(RULES, ""))?;
    match table.person {
        Some(person) => writeln!(
            out,
            "You are {person}, {} is {}. X moves first.",
            options.names[person.opponent() as usize],
            person.opponent()
        )?,
        None => writeln!(out, "X is {}, O is {}.", options.names[0], options.names[1])?,
    }
    if table.is_human(Player::X) || table.is_human(Player::O) {
        let enter = format!("Enter {HINT}; u to undo, h for help, q to quit.");
        writeln!(out, "{}", crate::output::wrap(&enter, ""))?;
    }
    if let Some(replay) = &options.replay {
        writeln!(
            out,
            "Seed {} ({replay} replays the computer's choices).",
            options.seed
        )?;
    }
    Ok(())
}

fn show(
    out: &mut impl Write,
    table: &Table,
    position: &Position,
    last: Option<tictactoe::ultimate::Move>,
) -> io::Result<()> {
    writeln!(out)?;
    write!(out, "{}", super::draw(position, &table.style, last))?;
    writeln!(out, "{}", super::describe(position))
}

/// One game to its end: its status, or `None` when the person quit or the input ended.
fn play_one(out: &mut impl Write, table: &mut Table) -> anyhow::Result<Option<Status>> {
    let mut position = Position::EMPTY;
    let mut history: Vec<Undo> = Vec::new();
    show(out, table, &position, None)?;
    loop {
        let Some(mover) = position.to_move() else {
            return Ok(Some(position.status()));
        };
        let (played, note) = if let Some(agent) = &mut table.agents[mover as usize] {
            let spinner =
                Spinner::start(format!("the computer ({}) is thinking", agent.strategy()));
            let deadline = Instant::now() + table.think_time;
            let choice =
                agent.choose_parallel(&position, table.threads, &|| Instant::now() >= deadline);
            spinner.finish();
            let choice = choice.ok_or_else(|| anyhow::anyhow!("no move found at {position}"))?;
            table.cut += u32::from(choice.cut);
            let note = match (choice.playouts, choice.cut) {
                (0, _) => String::new(),
                (n, false) => format!(" ({} playouts)", grouped(n)),
                (n, true) => format!(" ({} playouts, stopped at the think time)", grouped(n)),
            };
            (choice.played, note)
        } else {
            match ask(out, table, mover, &position)? {
                Command::Play(played) => (played, String::new()),
                Command::Help => {
                    writeln!(out, "{}", help())?;
                    continue;
                }
                Command::Undo => {
                    if undo(&mut position, &mut history, table, mover) {
                        show(out, table, &position, history.last().map(|u| u.played()))?;
                    } else {
                        writeln!(out, "nothing to undo: no move of yours yet")?;
                    }
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
            }
        };
        history.push(position.play(played)?);
        let who = match (&table.agents[mover as usize], table.person) {
            (Some(agent), Some(_)) => format!("The computer ({})", agent.strategy()),
            (Some(agent), None) => format!("{} ({})", table.style.mark(mover), agent.strategy()),
            (None, Some(_)) => "You".to_owned(),
            (None, None) => table.style.mark(mover),
        };
        writeln!(out, "{who} played {played}{note}.")?;
        show(out, table, &position, Some(played))?;
    }
}

/// `1,234,567`.
fn grouped(n: u64) -> String {
    crate::family::memory::grouped(n)
}

/// Takes back moves until it is `mover`'s turn again with one of `mover`'s moves undone;
/// `false` (and nothing changed) when `mover` has no move to take back.
fn undo(position: &mut Position, history: &mut Vec<Undo>, table: &Table, mover: Player) -> bool {
    let (mut earlier, mut moves) = (*position, history.clone());
    while let Some(last) = moves.pop() {
        earlier.undo(last);
        if earlier.to_move() == Some(mover) && table.is_human(mover) {
            *position = earlier;
            *history = moves;
            return true;
        }
    }
    false
}

fn help() -> String {
    format!(
        "Enter {HINT}, and press Enter.\n  In the drawing, the empty cells you may play show \
their numbers; on the right, the meta-board: X or O a won board, # a drawn one, * where you may \
play.\n  u, undo   take back your last move (and the computer's answer)\n  h, help   show \
this help\n  q, quit   leave the game"
    )
}

/// Asks a person for a move until one is legal, or a command.
fn ask(
    out: &mut impl Write,
    table: &mut Table,
    mover: Player,
    position: &Position,
) -> anyhow::Result<Command> {
    loop {
        let mark = table.style.mark(mover);
        let place = match position.next_board() {
            Some(board) => format!("board {board}, cell"),
            None => "any open board, board:cell".to_owned(),
        };
        match table.person {
            Some(_) => write!(out, "Your move ({mark}), {place}: ")?,
            None => write!(out, "{mark} to move, {place}: ")?,
        }
        out.flush()?;
        let Some(text) = read_line(&mut table.input, out, table.echo)? else {
            return Ok(Command::End);
        };
        match text.to_ascii_lowercase().as_str() {
            "q" | "quit" | "exit" => return Ok(Command::Quit),
            "u" | "undo" => return Ok(Command::Undo),
            "h" | "help" | "?" => return Ok(Command::Help),
            _ => {}
        }
        let played = match super::parse_move(&text, position.next_board()) {
            Ok(played) => played,
            Err(error) => {
                let shown: String = error.chars().take(200).collect();
                writeln!(out, "{shown} (h for help)")?;
                continue;
            }
        };
        match position.check(played) {
            Ok(()) => return Ok(Command::Play(played)),
            Err(error) => writeln!(out, "{error}; choose another")?,
        }
    }
}

fn announce(out: &mut impl Write, table: &Table, status: Status) -> io::Result<()> {
    let line = match (status, table.person) {
        (Status::Won(winner), Some(person)) if winner == person => {
            "You win: three boards in a row!".to_owned()
        }
        (Status::Won(_), Some(_)) => "You lose: the computer has three boards in a row.".to_owned(),
        (Status::Won(winner), None) => format!("{winner} wins: three boards in a row."),
        (Status::Draw | Status::Ongoing, _) => {
            "Draw: every board is closed and nobody has three in a row.".to_owned()
        }
    };
    writeln!(out, "{line}")
}
