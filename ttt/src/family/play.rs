//! `ttt play --game SPEC`: a game of the family in the terminal, between people and the
//! family's players ([`tictactoe::mnk::agents`]).
//!
//! A person types a column number from 1 with gravity (as Connect Four players count), else
//! a cell as drawn (`h8`: column letter, row from 1 at the bottom); `u` takes back the last
//! move of the person (and the computer's answer), `h` shows help, `q` quits.
//!
//! The search levels (`mcts`, `alphabeta`) stop at the think time and play what they have;
//! while the computer thinks, a spinner with the elapsed time runs on standard error when it
//! is a terminal. Each move gets a verdict from the solver (the value before and after it)
//! when the solver answers within the think time; the solver runs on its own thread, so a
//! slow answer never holds up the game.

use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use tictactoe::mnk::agents::{Agent, Strategy};
use tictactoe::mnk::{AnyPosition, AnySolver, PlayError, Rules, Square};
use tictactoe::solver::Value;
use tictactoe::{Player, Status};

use crate::dialogue::{Style, again, read_line};
use crate::input::Lines;

/// Who sits on one side: a person (`None`) or a family player.
pub type Seat = Option<Strategy>;

/// Nodes the family solver may search for one verdict position (Connect Four's solver has no
/// budget; the think time bounds the wait for it).
const VERDICT_NODES: u64 = 500_000;

/// How the game is set up beyond the seats.
pub struct Options {
    /// The seed of the engine players (X's generator from it, O's from it + 1).
    pub seed: u64,
    /// The most a search level thinks per move, and the longest wait for a verdict.
    pub think_time: Duration,
    /// The command that replays the game, when an engine plays.
    pub replay: Option<String>,
    /// How each seat is described in the greeting (`the computer (hard: alphabeta)`).
    pub names: [String; 2],
}

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
    style: Style,
    think_time: Duration,
    judge: Judge,
    /// Replies of a search level cut short by the think time, this game.
    cut: u32,
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

    /// `you`, `the computer`, or the mark.
    fn name(&self, player: Player) -> String {
        match self.person {
            Some(person) if person == player => "you".to_owned(),
            Some(_) => "the computer".to_owned(),
            None => player.to_string(),
        }
    }
}

/// Plays games until the person stops.
///
/// # Errors
/// A failed read or write.
pub fn run(rules: Rules, seats: [Seat; 2], options: Options) -> anyhow::Result<ExitCode> {
    let person = match seats {
        [None, Some(_)] => Some(Player::X),
        [Some(_), None] => Some(Player::O),
        _ => None,
    };
    let seed = options.seed;
    let mut table = Table {
        rules,
        seats,
        agents: [0, 1].map(|i| seats[i].map(|s| Agent::new(s, seed.wrapping_add(i as u64)))),
        person,
        input: Lines::stdin(),
        echo: !io::stdin().is_terminal(),
        style: Style::detect(),
        think_time: options.think_time,
        judge: Judge::start(),
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
        if end.is_none() {
            return Ok(ExitCode::SUCCESS);
        }
        if !table.is_human(Player::X) && !table.is_human(Player::O) {
            return Ok(ExitCode::SUCCESS);
        }
        if !again(&mut out, &mut table.input, table.echo)? {
            writeln!(out, "Thanks for playing.")?;
            return Ok(ExitCode::SUCCESS);
        }
    }
}

fn greet(out: &mut impl Write, table: &Table, options: &Options) -> io::Result<()> {
    let [x, o] = &options.names;
    writeln!(out, "{}", title(table.rules))?;
    match table.person {
        Some(person) => writeln!(
            out,
            "You are {person}, {} is {}. X moves first.",
            options.names[person.opponent() as usize],
            person.opponent()
        )?,
        None => writeln!(out, "X is {x}, O is {o}.")?,
    }
    if table.is_human(Player::X) || table.is_human(Player::O) {
        writeln!(
            out,
            "Enter {}; u to undo, h for help, q to quit.",
            move_hint(table.rules)
        )?;
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
    position: &AnyPosition,
    last: Option<Square>,
) -> io::Result<()> {
    let style = &table.style;
    writeln!(out)?;
    write!(
        out,
        "{}",
        super::draw_marked(
            &position.board(),
            "  ",
            &|_| style.paint(".", "2"),
            &|player| style.mark(player),
            last
        )
    )
}

/// One game to its end: its status, or `None` when the person quit or the input ended.
fn play_one(out: &mut impl Write, table: &mut Table) -> anyhow::Result<Option<Status>> {
    let mut position = AnyPosition::new(table.rules);
    let mut history: Vec<Square> = Vec::new();
    show(out, table, &position, None)?;
    loop {
        let Some(mover) = position.to_move() else {
            return Ok(Some(position.status()));
        };
        let action = if let Some(agent) = &mut table.agents[mover as usize] {
            let spinner =
                Spinner::start(format!("the computer ({}) is thinking", agent.strategy()));
            let deadline = Instant::now() + table.think_time;
            let choice = agent.choose_until(&position, &mut || Instant::now() >= deadline);
            spinner.finish();
            let choice = choice.ok_or_else(|| anyhow::anyhow!("no move found at {position}"))?;
            table.cut += u32::from(choice.cut);
            choice.action
        } else {
            match ask(out, table, mover, &position)? {
                Command::Play(action) => action,
                Command::Help => {
                    writeln!(out, "{}", help(table.rules))?;
                    continue;
                }
                Command::Undo => {
                    if undo(&mut position, &mut history, table, mover) {
                        show(out, table, &position, history.last().copied())?;
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
        let before = position;
        let square = position.play(action)?;
        history.push(square);
        let who = match (&table.agents[mover as usize], table.person) {
            (Some(agent), Some(_)) => format!("The computer ({})", agent.strategy()),
            (Some(agent), None) => format!("{} ({})", table.style.mark(mover), agent.strategy()),
            (None, Some(_)) => "You".to_owned(),
            (None, None) => table.style.mark(mover),
        };
        let name = table.move_name(square, action);
        match table.judge.verdict(&before, &position, table.think_time) {
            Some((was, now)) => writeln!(
                out,
                "{who} played {name}: {}",
                verdict(table, mover, was, now)
            )?,
            None => writeln!(out, "{who} played {name}.")?,
        }
        show(out, table, &position, Some(square))?;
    }
}

/// The verdict on a move by `mover` that turned the value `was` into `now`: whether it keeps
/// or throws away the win or the draw, and what best play makes of the game after it.
fn verdict(table: &Table, mover: Player, was: Value, now: Value) -> String {
    let quality = if was == now {
        match was.winner() {
            Some(winner) if winner == mover => "keeps the win",
            Some(_) => "the game was already lost",
            None => "keeps the draw",
        }
    } else if was.winner() == Some(mover) {
        "throws away the win"
    } else {
        "throws away the draw"
    };
    let after = match now.winner() {
        None => "a draw with best play".to_owned(),
        Some(winner) => {
            let name = table.name(winner);
            let verb = if name == "you" { "can win" } else { "wins" };
            format!("{name} {verb} with best play")
        }
    };
    format!("{quality}; {after}")
}

/// Takes back moves until it is `mover`'s turn again with one of `mover`'s moves undone;
/// `false` (and nothing changed) when `mover` has no move to take back.
fn undo(
    position: &mut AnyPosition,
    history: &mut Vec<Square>,
    table: &Table,
    mover: Player,
) -> bool {
    let (mut earlier, mut moves) = (*position, history.clone());
    while let Some(square) = moves.pop() {
        // Moves of a game undo in reverse order.
        let _ = earlier.undo(square);
        if earlier.side_to_move() == mover && table.is_human(mover) {
            *position = earlier;
            *history = moves;
            return true;
        }
    }
    false
}

fn help(rules: Rules) -> String {
    format!(
        "Enter {} and press Enter.\n  u, undo   take back your last move (and the computer's \
answer)\n  h, help   show this help\n  q, quit   leave the game",
        move_hint(rules)
    )
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
        let mark = table.style.mark(mover);
        match table.person {
            Some(_) => write!(out, "Your move ({mark}), {what}: ")?,
            None => write!(out, "{mark} to move, {what}: ")?,
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

/// The computer's "thinking" spinner with the elapsed time, on standard error when it is a
/// terminal (never in a pipe).
pub struct Spinner(Option<ProgressBar>);

impl Spinner {
    pub fn start(message: String) -> Spinner {
        if !io::stderr().is_terminal() {
            return Spinner(None);
        }
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
        if let Ok(style) = ProgressStyle::with_template("{spinner} {msg}… {elapsed}") {
            bar.set_style(style);
        }
        bar.set_message(message);
        bar.enable_steady_tick(Duration::from_millis(100));
        Spinner(Some(bar))
    }

    pub fn finish(self) {
        if let Some(bar) = self.0 {
            bar.finish_and_clear();
        }
    }
}

/// The verdicts' solver, on its own thread: it answers the value before and after each move,
/// one request at a time; a request it has not answered within the wait is left to finish
/// while the game goes on, and no new one is sent until it has.
struct Judge {
    requests: Sender<(u64, AnyPosition)>,
    answers: Receiver<(u64, Option<Value>)>,
    /// The last request sent, and whether it is answered.
    sent: u64,
    busy: bool,
    /// The last position valued, and its value: the position before the next move.
    known: Option<(AnyPosition, Value)>,
}

impl Judge {
    fn start() -> Judge {
        let (requests, inbox) = mpsc::channel::<(u64, AnyPosition)>();
        let (outbox, answers) = mpsc::channel();
        std::thread::spawn(move || {
            let mut solver = AnySolver::new();
            while let Ok((id, position)) = inbox.recv() {
                let value = solver.value(&position, VERDICT_NODES);
                if outbox.send((id, value)).is_err() {
                    return;
                }
            }
        });
        Judge {
            requests,
            answers,
            sent: 0,
            busy: false,
            known: None,
        }
    }

    /// The value of `position` if the solver gives it by `deadline`.
    fn value(&mut self, position: &AnyPosition, deadline: Instant) -> Option<Value> {
        if let Some((known, value)) = self.known
            && known == *position
        {
            return Some(value);
        }
        // A late answer to an earlier request frees the solver.
        while self.busy {
            match self.answers.try_recv() {
                Ok((id, _)) if id == self.sent => self.busy = false,
                Ok(_) => {}
                Err(_) => return None,
            }
        }
        self.sent += 1;
        self.requests.send((self.sent, *position)).ok()?;
        self.busy = true;
        loop {
            let wait = deadline.saturating_duration_since(Instant::now());
            match self.answers.recv_timeout(wait) {
                Ok((id, value)) if id == self.sent => {
                    self.busy = false;
                    if let Some(value) = value {
                        self.known = Some((*position, value));
                    }
                    return value;
                }
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => return None,
            }
        }
    }

    /// The values before and after a move, if the solver gives both within `wait`.
    fn verdict(
        &mut self,
        before: &AnyPosition,
        after: &AnyPosition,
        wait: Duration,
    ) -> Option<(Value, Value)> {
        let deadline = Instant::now() + wait;
        let spinner = Spinner::start("the solver is judging the move".to_owned());
        let was = self.value(before, deadline);
        let now = was.and_then(|_| self.value(after, deadline));
        spinner.finish();
        Some((was?, now?))
    }
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

    #[test]
    fn the_judge_answers_small_games_and_keeps_the_last_value() {
        let mut judge = Judge::start();
        let empty = AnyPosition::new(Rules::FOUR_BY_FOUR);
        let mut after = empty;
        after.play(5).unwrap();
        let wait = Duration::from_secs(60);
        assert_eq!(
            judge.verdict(&empty, &after, wait),
            Some((Value::Draw, Value::Draw))
        );
        assert_eq!(judge.known, Some((after, Value::Draw)));
        // Gomoku is beyond the solver's budget: no verdict.
        let gomoku = AnyPosition::new(Rules::GOMOKU);
        let mut next = gomoku;
        next.play(112).unwrap();
        assert_eq!(judge.verdict(&gomoku, &next, wait), None);
    }
}
