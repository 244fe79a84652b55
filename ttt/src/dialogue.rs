//! A game's conversation with a person at the terminal: the one play loop of `ttt play`
//! ([`run`]: greeting, prompt, undo, help, the engines' think time and spinner, Ctrl-C, "Play
//! again?") over a small game trait ([`TableGame`]) that tic-tac-toe (`cmd/play.rs`), the
//! family (`family/play.rs`) and ultimate (`ultimate/play.rs`) implement; colours; one line
//! of input.

use std::fmt::Display;
use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use tictactoe::{Player, Status};

use crate::input::Lines;

/// ANSI colours, on only for a terminal without `NO_COLOR`.
pub struct Style {
    /// Whether marks and cell numbers are coloured.
    pub colour: bool,
}

impl Style {
    pub fn detect() -> Style {
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        Style {
            colour: io::stdout().is_terminal() && !no_color,
        }
    }

    pub fn paint(&self, text: &str, code: &str) -> String {
        if self.colour {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_owned()
        }
    }

    pub fn mark(&self, player: Player) -> String {
        match player {
            Player::X => self.paint("X", "1;36"),
            Player::O => self.paint("O", "1;33"),
        }
    }
}

/// Asks "Play again?" until the answer is yes or no (or the input ends: no).
pub fn again(out: &mut impl Write, input: &mut Lines, echo: bool) -> io::Result<bool> {
    loop {
        write!(out, "\nPlay again? (y/n): ")?;
        out.flush()?;
        let Some(answer) = read_line(input, out, echo)? else {
            return Ok(false);
        };
        match answer.to_ascii_lowercase().as_str() {
            "y" | "yes" => return Ok(true),
            "n" | "no" | "q" | "quit" => return Ok(false),
            _ => {
                let shown: String = answer.chars().take(20).collect();
                writeln!(out, "not an answer: {shown:?}; type y or n")?;
            }
        }
    }
}

/// One line of input, at most [`crate::input::MAX_LINE`] bytes kept, read as text even when
/// it is not UTF-8; `None` at the end of the input. Echoed when the input is not a terminal.
pub fn read_line(
    input: &mut Lines,
    out: &mut impl Write,
    echo: bool,
) -> io::Result<Option<String>> {
    if !input.next_raw(&mut || Ok(()))? {
        return Ok(None);
    }
    let text = String::from_utf8_lossy(input.raw()).trim().to_owned();
    if echo {
        let shown: String = text.chars().take(40).collect();
        writeln!(out, "{shown}")?;
    }
    Ok(Some(text))
}

/// A game `ttt play` can run: its rules in the terms the play loop ([`run`]) needs, and how
/// it talks about them. Tic-tac-toe (`cmd/play.rs`), the family (`family/play.rs`) and
/// ultimate (`ultimate/play.rs`) each implement it; moves are checked and played only by the
/// library's per-move API behind [`TableGame::read`] and [`TableGame::play`].
pub trait TableGame {
    type Position: Copy + Display;
    /// What a player chooses.
    type Move: Copy;
    /// What a played move leaves behind to take it back.
    type Undo: Clone;
    /// An engine player.
    type Agent;

    fn start(&self) -> Self::Position;
    fn to_move(position: &Self::Position) -> Option<Player>;
    fn status(position: &Self::Position) -> Status;
    /// Plays a move the library has checked (read from a person, or an engine's choice).
    ///
    /// # Errors
    /// The library's refusal.
    fn play(position: &mut Self::Position, played: Self::Move) -> anyhow::Result<Self::Undo>;
    fn undo(position: &mut Self::Position, undo: &Self::Undo);

    /// The game in one sentence (or a wrapped paragraph).
    fn title(&self) -> String;
    /// How a person names a move: `a column number (1 to 7)`.
    fn hint(&self) -> String;
    fn help(&self) -> String;
    /// What the prompt asks for: `cell`, `column`, `board 4, cell`.
    fn asks(&self, position: &Self::Position) -> String;
    /// The position drawn (from a blank line), the last move marked.
    fn show(&self, style: &Style, position: &Self::Position, last: Option<&Self::Undo>) -> String;
    /// The move a person's text names, if the library finds it legal, else the line to print.
    ///
    /// # Errors
    /// What is wrong with the text, or why the move is not legal here.
    fn read(&self, text: &str, position: &Self::Position) -> Result<Self::Move, String>;
    /// An engine's choice by `deadline` (`None`: the engine takes no think time).
    fn think(
        &self,
        agent: &mut Self::Agent,
        position: &Self::Position,
        deadline: Option<Instant>,
    ) -> Option<Thought<Self::Move>>;
    /// The engine's name in the game's lines: `heuristic`.
    fn engine(agent: &Self::Agent) -> String;
    /// The name of the engine when it plays a person: `The computer (hard)`; by default
    /// [`TableGame::engine`].
    fn level(agent: &Self::Agent) -> Option<String> {
        Some(Self::engine(agent))
    }
    /// A move as the game's lines name it.
    fn move_name(&self, played: Self::Move, undo: &Self::Undo) -> String;
    /// What the solver says of a move that turned `before` into `after`, if it says it.
    ///
    /// # Errors
    /// A failed solve.
    fn verdict(
        &mut self,
        before: &Self::Position,
        after: &Self::Position,
        played: Self::Move,
        mover: Player,
        names: Names,
    ) -> anyhow::Result<Option<String>>;
    /// The line that announces the end of a game.
    fn ending(&self, status: Status, names: Names) -> String;
}

/// An engine's move, whether the think time cut its search short, and a note on the search
/// (` (1,234 playouts)`, or empty).
pub struct Thought<M> {
    pub played: M,
    pub cut: bool,
    pub note: String,
}

/// Who is a person: `you` and `the computer` when one person plays the computer.
#[derive(Clone, Copy)]
pub struct Names {
    /// The one person, when one person plays the computer.
    pub person: Option<Player>,
}

impl Names {
    /// `you`, `the computer`, or the mark.
    pub fn of(self, player: Player) -> String {
        match self.person {
            Some(person) if person == player => "you".to_owned(),
            Some(_) => "the computer".to_owned(),
            None => player.to_string(),
        }
    }

    /// `can win` for the person, `wins` for anyone else.
    pub fn wins(self, player: Player) -> &'static str {
        if self.person == Some(player) {
            "can win"
        } else {
            "wins"
        }
    }

    /// The end of a game of `k` in a row (`three`, `5`), named for the person.
    pub fn k_in_a_row(self, status: Status, k: &str) -> String {
        match (status, self.person) {
            (Status::Won(winner), Some(person)) if winner == person => "You win!".to_owned(),
            (Status::Won(_), Some(_)) => format!("You lose: the computer has {k} in a row."),
            (Status::Won(winner), None) => format!("{winner} wins."),
            (Status::Draw | Status::Ongoing, _) => format!("Draw: nobody has {k} in a row."),
        }
    }
}

/// How a game is set up beyond its rules and seats.
pub struct Options {
    /// The seed of the engine players (shown with the replay command).
    pub seed: u64,
    /// The most an engine thinks per move (`None`: the engines take no think time).
    pub think_time: Option<Duration>,
    /// The command that replays the game, when an engine plays.
    pub replay: Option<String>,
    /// How each seat is described in the greeting (`the computer (hard: alphabeta)`).
    pub names: [String; 2],
}

/// What a person typed.
enum Command<M> {
    Play(M),
    Undo,
    Help,
    Quit,
    End,
}

struct Table<G: TableGame> {
    game: G,
    /// The engine of each side; `None` for a person.
    agents: [Option<G::Agent>; 2],
    names: Names,
    input: Lines,
    echo: bool,
    style: Style,
    think_time: Option<Duration>,
    /// Replies cut short by the think time, this game.
    cut: u32,
}

impl<G: TableGame> Table<G> {
    fn is_human(&self, player: Player) -> bool {
        self.agents[player as usize].is_none()
    }
}

/// Plays games of `game` between the seats (`None`: a person) until the person stops.
/// Ctrl-C ends the process at once with status 130, also while an engine thinks (and also
/// when it was started with SIGINT ignored).
///
/// # Errors
/// A failed read or write.
pub fn run<G: TableGame>(
    game: G,
    agents: [Option<G::Agent>; 2],
    options: &Options,
) -> anyhow::Result<ExitCode> {
    signal_hook::flag::register_conditional_shutdown(
        signal_hook::consts::SIGINT,
        130,
        std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true)),
    )?;
    let person = match &agents {
        [None, Some(_)] => Some(Player::X),
        [Some(_), None] => Some(Player::O),
        _ => None,
    };
    let mut table = Table {
        game,
        agents,
        names: Names { person },
        input: Lines::stdin(),
        echo: !io::stdin().is_terminal(),
        style: Style::detect(),
        think_time: options.think_time,
        cut: 0,
    };
    let mut out = crate::output::stdout();
    greet(&mut out, &table, options)?;
    loop {
        table.cut = 0;
        let end = play_one(&mut out, &mut table)?;
        if let Some(status) = end {
            writeln!(out, "{}", table.game.ending(status, table.names))?;
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

fn greet<G: TableGame>(
    out: &mut impl Write,
    table: &Table<G>,
    options: &Options,
) -> io::Result<()> {
    let [x, o] = &options.names;
    writeln!(out, "{}", table.game.title())?;
    match table.names.person {
        Some(person) => writeln!(
            out,
            "You are {person}, {} is {}. X moves first.",
            options.names[person.opponent() as usize],
            person.opponent()
        )?,
        None => writeln!(out, "X is {x}, O is {o}.")?,
    }
    if table.is_human(Player::X) || table.is_human(Player::O) {
        let enter = format!(
            "Enter {}; u to undo, h for help, q to quit.",
            table.game.hint()
        );
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

/// One game to its end: its status, or `None` when the person quit or the input ended.
fn play_one<G: TableGame>(
    out: &mut impl Write,
    table: &mut Table<G>,
) -> anyhow::Result<Option<Status>> {
    let mut position = table.game.start();
    let mut history: Vec<G::Undo> = Vec::new();
    write!(out, "{}", table.game.show(&table.style, &position, None))?;
    loop {
        let Some(mover) = G::to_move(&position) else {
            return Ok(Some(G::status(&position)));
        };
        let (played, note) = if let Some(agent) = &mut table.agents[mover as usize] {
            let deadline = table.think_time.map(|time| Instant::now() + time);
            let spinner = deadline.map(|_| {
                Spinner::start(format!("the computer ({}) is thinking", G::engine(agent)))
            });
            let thought = table.game.think(agent, &position, deadline);
            if let Some(spinner) = spinner {
                spinner.finish();
            }
            let thought = thought.ok_or_else(|| anyhow::anyhow!("no move found at {position}"))?;
            table.cut += u32::from(thought.cut);
            (thought.played, thought.note)
        } else {
            match ask(out, table, mover, &position)? {
                Command::Play(played) => (played, String::new()),
                Command::Help => {
                    writeln!(out, "{}", table.game.help())?;
                    continue;
                }
                Command::Undo => {
                    if undo(&mut position, &mut history, table, mover) {
                        let shown = table.game.show(&table.style, &position, history.last());
                        write!(out, "{shown}")?;
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
        let undo = G::play(&mut position, played)?;
        let who = match (&table.agents[mover as usize], table.names.person) {
            (Some(agent), Some(_)) => match G::level(agent) {
                Some(level) => format!("The computer ({level})"),
                None => format!("{} ({})", table.style.mark(mover), G::engine(agent)),
            },
            (Some(agent), None) => format!("{} ({})", table.style.mark(mover), G::engine(agent)),
            (None, Some(_)) => "You".to_owned(),
            (None, None) => table.style.mark(mover),
        };
        let name = table.game.move_name(played, &undo);
        let names = table.names;
        match table
            .game
            .verdict(&before, &position, played, mover, names)?
        {
            Some(verdict) => writeln!(out, "{who} played {name}{note}: {verdict}")?,
            None => writeln!(out, "{who} played {name}{note}.")?,
        }
        write!(
            out,
            "{}",
            table.game.show(&table.style, &position, Some(&undo))
        )?;
        history.push(undo);
    }
}

/// Takes back moves until it is `mover`'s turn again with one of `mover`'s moves undone;
/// `false` (and nothing changed) when `mover` has no move to take back.
fn undo<G: TableGame>(
    position: &mut G::Position,
    history: &mut Vec<G::Undo>,
    table: &Table<G>,
    mover: Player,
) -> bool {
    let (mut earlier, mut moves) = (*position, history.clone());
    while let Some(last) = moves.pop() {
        G::undo(&mut earlier, &last);
        if G::to_move(&earlier) == Some(mover) && table.is_human(mover) {
            *position = earlier;
            *history = moves;
            return true;
        }
    }
    false
}

/// Asks a person for a move until one is legal, or a command.
fn ask<G: TableGame>(
    out: &mut impl Write,
    table: &mut Table<G>,
    mover: Player,
    position: &G::Position,
) -> anyhow::Result<Command<G::Move>> {
    loop {
        let mark = table.style.mark(mover);
        let asks = table.game.asks(position);
        match table.names.person {
            Some(_) => write!(out, "Your move ({mark}), {asks}: ")?,
            None => write!(out, "{mark} to move, {asks}: ")?,
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
        match table.game.read(&text, position) {
            Ok(played) => return Ok(Command::Play(played)),
            Err(line) => writeln!(out, "{line}")?,
        }
    }
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
