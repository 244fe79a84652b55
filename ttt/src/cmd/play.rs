//! `ttt play`: a game in the terminal between humans and engine players.

use std::io::{self, BufRead, IsTerminal, Write};
use std::process::ExitCode;

use tictactoe::agents::{Agent, ParseStrategyError, Strategy};

use crate::util::clock_seed;
use tictactoe::solver::{self, Solution};
use tictactoe::{Board, Cell, Game, PlayError, Player, Position, Status};

/// Play a game against the solver or other engine players.
///
/// Type a cell number (0 to 8, as drawn on the board) when it is your turn; one move per line
/// also works from a pipe. Engine moves show the solver's verdict and evaluation.
#[derive(clap::Args)]
#[command(
    after_help = "Players: human, perfect, heuristic, random, eps:E (perfect with \
probability 1-E, else random).\n\nExamples:\n  ttt play                      # you are X, the \
solver is O\n  ttt play --x perfect --o human\n  ttt play --x heuristic --o eps:0.2 --seed 7\n  \
printf '4\\n8\\n6\\n' | ttt play --seed 1"
)]
pub struct Args {
    /// Who plays X.
    #[arg(long, default_value = "human", value_parser = parse_seat)]
    x: Seat,
    /// Who plays O.
    #[arg(long, default_value = "perfect", value_parser = parse_seat)]
    o: Seat,
    /// Seed of the engine players' random choices (default: from the clock).
    #[arg(long)]
    seed: Option<u64>,
}

/// Who sits on one side of the board.
#[derive(Clone, Copy, Debug)]
pub enum Seat {
    /// Moves typed on standard input.
    Human,
    /// An engine player.
    Engine(Strategy),
}

/// `human` or a strategy (`perfect`, `heuristic`, `random`, `eps:E`).
pub fn parse_seat(text: &str) -> Result<Seat, String> {
    if text == "human" {
        return Ok(Seat::Human);
    }
    text.parse::<Strategy>()
        .map(Seat::Engine)
        .map_err(|error| match error {
            ParseStrategyError::Unknown => {
                "unknown player: expected human, perfect, heuristic, random or eps:E".to_owned()
            }
            ParseStrategyError::BadEpsilon => error.to_string(),
        })
}

/// ANSI colours, on only for a terminal without `NO_COLOR`.
struct Style {
    colour: bool,
}

impl Style {
    fn detect() -> Style {
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        Style {
            colour: io::stdout().is_terminal() && !no_color,
        }
    }

    fn paint(&self, text: &str, code: &str) -> String {
        if self.colour {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_owned()
        }
    }

    fn mark(&self, player: Player) -> String {
        match player {
            Player::X => self.paint("X", "1;36"),
            Player::O => self.paint("O", "1;33"),
        }
    }

    /// The board with marks, and cell numbers on the empty cells.
    fn board(&self, board: Board) -> String {
        let rows: Vec<String> = (0..3)
            .map(|row| {
                let cells: Vec<String> = (0..3)
                    .map(|column| {
                        let cell = Cell::ALL[row * 3 + column];
                        match board.at(cell) {
                            Some(player) => self.mark(player),
                            None => self.paint(&cell.to_string(), "2"),
                        }
                    })
                    .collect();
                format!("    {}\n", cells.join(" | "))
            })
            .collect();
        format!("\n{}", rows.join("   ---+---+---\n"))
    }
}

/// The solver's verdict in words: `draw`, `X wins in 3`.
pub fn describe(solution: Solution) -> String {
    match solution.value.winner() {
        None => "draw".to_owned(),
        Some(winner) if solution.distance == 0 => format!("{winner} has won"),
        Some(winner) => format!("{winner} wins in {}", solution.distance),
    }
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let seed = args.seed.unwrap_or_else(clock_seed);
    // Each engine side draws from its own generator: X from `seed`, O from `seed + 1`.
    let seats = [args.x, args.o];
    let mut agents: [Option<Agent>; 2] = [0, 1].map(|i| match seats[i] {
        Seat::Human => None,
        Seat::Engine(strategy) => Some(Agent::new(strategy, seed.wrapping_add(i as u64))),
    });
    let style = Style::detect();
    let echo = !io::stdin().is_terminal();
    let mut input = io::stdin().lock().lines();
    let mut out = io::stdout().lock();
    let mut game = Game::new();
    write!(out, "{}", style.board(game.position().board()))?;
    loop {
        let position = game.position();
        let Some(mover) = position.to_move() else {
            writeln!(out, "{}", announce(position.status()))?;
            return Ok(ExitCode::SUCCESS);
        };
        let cell = match &mut agents[mover as usize] {
            Some(agent) => agent.choose(position),
            None => match ask(&mut out, &mut input, &style, mover, position, echo)? {
                Some(cell) => Some(cell),
                None => {
                    writeln!(out, "\nend of input: game left unfinished")?;
                    return Ok(ExitCode::SUCCESS);
                }
            },
        };
        let Some(cell) = cell else {
            anyhow::bail!("no move found at {position}");
        };
        let name = agents[mover as usize]
            .as_ref()
            .map_or(String::new(), |agent| format!(" ({})", agent.strategy()));
        writeln!(
            out,
            "{}{name} plays {cell}: {}",
            style.mark(mover),
            verdict(position, cell)?
        )?;
        game.play(cell)?;
        write!(out, "{}", style.board(game.position().board()))?;
    }
}

/// Whether `cell` was a best move at `position`, and the solver's evaluation after it.
fn verdict(position: Position, cell: Cell) -> anyhow::Result<String> {
    let before = solver::solve(position);
    let after = solver::solve(position.play(cell)?);
    let quality = if before.best_moves.contains(cell) {
        "best move"
    } else {
        "mistake"
    };
    Ok(format!("{quality}, eval {}", describe(after)))
}

/// Asks a human for a move until one is legal; `None` at the end of input.
fn ask(
    out: &mut impl Write,
    input: &mut impl Iterator<Item = io::Result<String>>,
    style: &Style,
    mover: Player,
    position: Position,
    echo: bool,
) -> anyhow::Result<Option<Cell>> {
    loop {
        write!(out, "{} to move, cell: ", style.mark(mover))?;
        out.flush()?;
        let Some(line) = input.next() else {
            return Ok(None);
        };
        let line = line?;
        let text = line.trim();
        if echo {
            writeln!(out, "{text}")?;
        }
        let parsed = match text.parse::<usize>() {
            Ok(index) => position.play_index(index).map(|_| Cell::ALL[index]),
            Err(_) => {
                writeln!(out, "not a cell: {text:?}; type a number from 0 to 8")?;
                continue;
            }
        };
        match parsed {
            Ok(cell) => return Ok(Some(cell)),
            Err(error @ PlayError::Occupied { .. }) => {
                writeln!(out, "{error}; choose an empty cell")?;
            }
            Err(error) => writeln!(out, "{error}")?,
        }
    }
}

fn announce(status: Status) -> &'static str {
    match status {
        Status::Won(Player::X) => "X wins",
        Status::Won(Player::O) => "O wins",
        Status::Draw | Status::Ongoing => "draw",
    }
}
