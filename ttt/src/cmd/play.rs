//! `ttt play`: a game in the terminal between people and engine players.

use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;

use tictactoe::agents::{Agent, ParseStrategyError, Strategy};
use tictactoe::mnk::agents::Strategy as FamilyStrategy;
use tictactoe::solver::{self, Solution};
use tictactoe::{Board, Cell, Game, PlayError, Player, Position, Status};

use crate::input::Lines;
use crate::util::clock_seed;

/// Play tic-tac-toe against the computer (or watch engine players).
///
/// Type a cell number (0 to 8, as drawn on the board) when it is your turn, `u` to undo your
/// last move, `h` for help, `q` to quit. Every move is marked best move or mistake, with what
/// perfect play makes of the game after it. One move per line also works from a pipe.
#[derive(clap::Args)]
#[command(after_help = "\
Levels: easy (random moves), medium (perfect half the time, else random), hard (rules of
thumb), perfect (the solver: it never loses).
Players for --x and --o: human, a level, heuristic, random or eps:E (perfect with
probability 1-E, else random).
With --game, the family's ladder (weakest first): random, heuristic, mcts, alphabeta and
perfect, as levels or players; easy is random, hard heuristic (the default).

Examples:
  ttt play                          # you are X, the perfect player is O
  ttt play --level easy
  ttt play --x perfect --o human    # the computer starts
  ttt play --seed 7                 # replay the game of seed 7
  printf '4\\n8\\n6\\nq\\n' | ttt play --seed 1
  ttt play --game connect-four      # columns 1 to 7; the computer plays heuristic
  ttt play --game gomoku --level easy
  ttt play --game connect-four --level alphabeta
  ttt play --game 5,5,4 --x perfect --o mcts")]
pub struct Args {
    /// Who plays X: human, easy, medium, hard, perfect, heuristic, random or eps:E.
    #[arg(long, default_value = "human", value_parser = parse_seat)]
    x: Seat,
    /// Who plays O (default: the level, perfect unless --level says otherwise).
    #[arg(long, value_parser = parse_seat)]
    o: Option<Seat>,
    /// How well the computer plays: easy, medium, hard or perfect (sets O, or X with --o human);
    /// with --game also random, heuristic, mcts or alphabeta.
    #[arg(long, value_name = "LEVEL", value_parser = parse_level)]
    level: Option<Seat>,
    /// Seed of the engine players' random choices (default: from the clock; shown, so that a
    /// game can be replayed).
    #[arg(long)]
    seed: Option<u64>,
    /// A game of the k-in-a-row family instead of tic-tac-toe (every level of its ladder): tic-tac-toe, 4x4,
    /// connect-four, gomoku, or ROWS,COLS,K with an optional ,gravity (e.g. 6,7,4,gravity).
    #[arg(long, value_name = "SPEC", value_parser = crate::family::parse_game)]
    game: Option<tictactoe::mnk::Rules>,
}

/// Who sits on one side of the board.
#[derive(Clone, Copy, Debug)]
pub enum Seat {
    /// Moves typed on standard input.
    Human,
    /// An engine player.
    Engine(Strategy),
    /// A player only the k-in-a-row family has (`mcts`, `alphabeta`): needs `--game`.
    Family(FamilyStrategy),
}

/// The named levels and the players they stand for.
const LEVELS: [(&str, &str); 4] = [
    ("easy", "random"),
    ("medium", "eps:0.5"),
    ("hard", "heuristic"),
    ("perfect", "perfect"),
];

/// A level name: `easy`, `medium`, `hard` or `perfect`.
fn parse_core_level(text: &str) -> Option<Strategy> {
    LEVELS
        .iter()
        .find(|(name, _)| *name == text)
        .and_then(|(_, strategy)| strategy.parse().ok())
}

/// A level: `easy`, `medium`, `hard`, `perfect`, or a rung of the family's ladder (`random`,
/// `heuristic`, `mcts`, `alphabeta`).
fn parse_level(text: &str) -> Result<Seat, String> {
    if let Some(strategy) = parse_core_level(text) {
        return Ok(Seat::Engine(strategy));
    }
    text.parse::<FamilyStrategy>()
        .map(family_seat)
        .map_err(|_| {
            format!(
                "unknown level {text:?}: expected easy, medium, hard or perfect (with --game also \
random, heuristic, mcts or alphabeta)"
            )
        })
}

/// A family player as a seat: the 3 × 3 player of the same name when the core has one.
fn family_seat(strategy: FamilyStrategy) -> Seat {
    strategy
        .name()
        .parse::<Strategy>()
        .map_or(Seat::Family(strategy), Seat::Engine)
}

/// `human`, a level or a strategy (`perfect`, `heuristic`, `random`, `eps:E`).
pub fn parse_seat(text: &str) -> Result<Seat, String> {
    if text == "human" {
        return Ok(Seat::Human);
    }
    if let Some(strategy) = parse_core_level(text) {
        return Ok(Seat::Engine(strategy));
    }
    if let Ok(strategy) = text.parse::<FamilyStrategy>() {
        return Ok(family_seat(strategy));
    }
    text.parse::<Strategy>()
        .map(Seat::Engine)
        .map_err(|error| match error {
            ParseStrategyError::Unknown => "unknown player: expected human, easy, medium, hard, \
perfect, heuristic, random or eps:E (with --game also mcts or alphabeta)"
                .to_owned(),
            ParseStrategyError::BadEpsilon => error.to_string(),
        })
}

/// The name of a level for a strategy, if it is one.
fn level_name(strategy: Strategy) -> Option<&'static str> {
    let shown = strategy.to_string();
    LEVELS
        .iter()
        .find(|(_, player)| *player == shown)
        .map(|(name, _)| *name)
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

    /// The board with marks, cell numbers on the empty cells, and the cells of complete lines
    /// in brackets.
    fn board(&self, board: Board) -> String {
        let mut marked = [false; 9];
        for line in board.lines() {
            for cell in line.to_cells() {
                marked[cell.index()] = true;
            }
        }
        let rows: Vec<String> = (0..3)
            .map(|row| {
                let cells: Vec<String> = (0..3)
                    .map(|column| {
                        let cell = Cell::ALL[row * 3 + column];
                        let inner = match board.at(cell) {
                            Some(player) => self.mark(player),
                            None => self.paint(&cell.to_string(), "2"),
                        };
                        if marked[cell.index()] {
                            format!("[{inner}]")
                        } else {
                            format!(" {inner} ")
                        }
                    })
                    .collect();
                format!("   {}", cells.join("|")).trim_end().to_owned() + "\n"
            })
            .collect();
        format!("\n{}", rows.join("   ---+---+---\n"))
    }
}

/// Moves of `player` in `plies` plies of which the first is the side to move's: the number
/// people count ("X wins in 2 moves" when X moves, O moves, X completes a line).
fn moves_of(plies: u8) -> u8 {
    plies.div_ceil(2)
}

/// The solver's verdict in words, counted in the winner's moves: `a draw with best play`,
/// `X wins in 2 moves`, `X has won`.
fn describe(solution: Solution, names: &Names) -> String {
    match solution.value.winner() {
        None => "a draw with best play".to_owned(),
        Some(winner) if solution.distance == 0 => format!("{} won", names.of(winner)),
        Some(winner) => {
            let moves = moves_of(solution.distance);
            let plural = if moves == 1 { "move" } else { "moves" };
            let verb = if names.of(winner) == "you" {
                "can win"
            } else {
                "wins"
            };
            format!(
                "{} {verb} in {moves} {plural} with best play",
                names.of(winner)
            )
        }
    }
}

/// How the players are named: `you` and `the computer` when one person plays the computer.
struct Names {
    seats: [Seat; 2],
    person: Option<Player>,
}

impl Names {
    fn new(seats: [Seat; 2]) -> Names {
        let person = match seats {
            [Seat::Human, Seat::Engine(_) | Seat::Family(_)] => Some(Player::X),
            [Seat::Engine(_) | Seat::Family(_), Seat::Human] => Some(Player::O),
            _ => None,
        };
        Names { seats, person }
    }

    fn of(&self, player: Player) -> String {
        match self.person {
            Some(person) if person == player => "you".to_owned(),
            Some(_) => "the computer".to_owned(),
            None => player.to_string(),
        }
    }

    fn is_human(&self, player: Player) -> bool {
        matches!(self.seats[player as usize], Seat::Human)
    }
}

const HELP: &str = "\
Enter the number of an empty cell (0 to 8, as drawn on the board) and press Enter.
  u, undo   take back your last move (and the computer's answer)
  h, help   show this help
  q, quit   leave the game";

/// What a person typed at the prompt.
enum Command {
    Play(Cell),
    Undo,
    Help,
    Quit,
    /// The end of the input.
    End,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let seed = args.seed.unwrap_or_else(clock_seed);
    if let Some(rules) = args.game {
        // The same seats and levels, played by the family's players (hard by default).
        let player = |strategy: Strategy| {
            let name = level_name(strategy).map_or_else(|| strategy.to_string(), str::to_owned);
            crate::family::player(&name, rules)
        };
        let seat = |seat: Seat| match seat {
            Seat::Human => Ok(None),
            Seat::Engine(strategy) => player(strategy).map(Some),
            Seat::Family(strategy) => Ok(Some(strategy)),
        };
        let level = match args.level {
            None => FamilyStrategy::Heuristic,
            Some(level) => seat(level)?.unwrap_or(FamilyStrategy::Heuristic),
        };
        let o = args.o.map_or(Ok(Some(level)), seat)?;
        let x = match (args.x, args.o, args.level) {
            (Seat::Human, Some(Seat::Human), Some(_)) => Some(level),
            (x, _, _) => seat(x)?,
        };
        return crate::family::play::run(rules, [x, o], seed);
    }
    let level = args.level.unwrap_or(Seat::Engine(Strategy::Perfect));
    let o = args.o.unwrap_or(level);
    let x = match (args.x, args.o, args.level) {
        (Seat::Human, Some(Seat::Human), Some(level)) => level,
        (x, _, _) => x,
    };
    let seats = [x, o];
    for seat in seats {
        if let Seat::Family(strategy) = seat {
            return crate::exit::usage(format!(
                "{strategy} plays only the k-in-a-row family: give --game SPEC"
            ));
        }
    }
    // Each engine side draws from its own generator: X from `seed`, O from `seed + 1`.
    let mut agents: [Option<Agent>; 2] = [0, 1].map(|i| match seats[i] {
        Seat::Human | Seat::Family(_) => None,
        Seat::Engine(strategy) => Some(Agent::new(strategy, seed.wrapping_add(i as u64))),
    });
    let names = Names::new(seats);
    let style = Style::detect();
    let echo = !io::stdin().is_terminal();
    let mut input = Lines::stdin();
    let mut out = crate::output::stdout();
    greet(&mut out, &seats, &names, seed)?;
    loop {
        match play_one(&mut out, &mut input, &mut agents, &names, &style, echo)? {
            Some(status) => announce(&mut out, status, &names)?,
            None => return Ok(ExitCode::SUCCESS),
        }
        if !names.is_human(Player::X) && !names.is_human(Player::O) {
            return Ok(ExitCode::SUCCESS);
        }
        if !again(&mut out, &mut input, echo)? {
            writeln!(out, "Thanks for playing.")?;
            return Ok(ExitCode::SUCCESS);
        }
    }
}

/// Asks "Play again?" until the answer is yes or no (or the input ends: no).
fn again(out: &mut impl Write, input: &mut Lines, echo: bool) -> io::Result<bool> {
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

fn greet(out: &mut impl Write, seats: &[Seat; 2], names: &Names, seed: u64) -> io::Result<()> {
    let describe = |seat: Seat| match seat {
        Seat::Human => "a person".to_owned(),
        Seat::Engine(strategy) => match level_name(strategy) {
            Some(level) => format!("the computer ({level})"),
            None => format!("the computer ({strategy})"),
        },
        Seat::Family(strategy) => format!("the computer ({strategy})"),
    };
    writeln!(out, "Tic-tac-toe: three in a row wins.")?;
    match names.person {
        Some(person) => writeln!(
            out,
            "You are {person}, {} is {}. X moves first.",
            describe(seats[person.opponent() as usize]),
            person.opponent()
        )?,
        None => writeln!(
            out,
            "X is {}, O is {}.",
            describe(seats[0]),
            describe(seats[1])
        )?,
    }
    if names.is_human(Player::X) || names.is_human(Player::O) {
        writeln!(
            out,
            "Enter a cell number (0 to 8, as drawn); u to undo, h for help, q to quit."
        )?;
    }
    writeln!(
        out,
        "Seed {seed} (ttt play --seed {seed} replays the computer's choices)."
    )
}

/// Plays one game to its end: its status, or `None` when the person quit or the input ended.
fn play_one(
    out: &mut impl Write,
    input: &mut Lines,
    agents: &mut [Option<Agent>; 2],
    names: &Names,
    style: &Style,
    echo: bool,
) -> anyhow::Result<Option<Status>> {
    let mut game = Game::new();
    write!(out, "{}", style.board(game.position().board()))?;
    loop {
        let position = game.position();
        let Some(mover) = position.to_move() else {
            return Ok(Some(position.status()));
        };
        let cell = match &mut agents[mover as usize] {
            Some(agent) => agent
                .choose(position)
                .ok_or_else(|| anyhow::anyhow!("no move found at {position}"))?,
            None => match ask(out, input, style, names, mover, position, echo)? {
                Command::Play(cell) => cell,
                Command::Help => {
                    writeln!(out, "{HELP}")?;
                    continue;
                }
                Command::Undo => {
                    if undo(&mut game, names, mover) {
                        write!(out, "{}", style.board(game.position().board()))?;
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
            },
        };
        let who = match (&agents[mover as usize], names.person) {
            (Some(agent), _) => match level_name(agent.strategy()) {
                Some(level) if names.person.is_some() => format!("The computer ({level})"),
                _ => format!("{} ({})", style.mark(mover), agent.strategy()),
            },
            (None, Some(_)) => "You".to_owned(),
            (None, None) => style.mark(mover),
        };
        writeln!(
            out,
            "{who} played {cell}: {}",
            verdict(position, cell, names)?
        )?;
        game.play(cell)?;
        write!(out, "{}", style.board(game.position().board()))?;
    }
}

/// Takes back moves until it is `mover`'s turn again, one of `mover`'s moves included; `false`
/// (and the game unchanged) when the person has no move to take back.
fn undo(game: &mut Game, names: &Names, mover: Player) -> bool {
    let mut earlier = *game;
    while earlier.undo().is_some() {
        if earlier.position().side_to_move() == mover && names.is_human(mover) {
            *game = earlier;
            return true;
        }
    }
    false
}

/// Whether `cell` was a best move at `position`, and the solver's evaluation after it.
fn verdict(position: Position, cell: Cell, names: &Names) -> anyhow::Result<String> {
    let before = solver::solve(position);
    let after = solver::solve(position.play(cell)?);
    let quality = if before.best_moves.contains(cell) {
        "best move"
    } else {
        "mistake"
    };
    Ok(format!("{quality}; {}", describe(after, names)))
}

/// One line of input, at most [`crate::input::MAX_LINE`] bytes kept, read as text even when
/// it is not UTF-8; `None` at the end of the input. Echoed when the input is not a terminal.
fn read_line(input: &mut Lines, out: &mut impl Write, echo: bool) -> io::Result<Option<String>> {
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

/// Asks a person for a move until one is legal, or a command.
fn ask(
    out: &mut impl Write,
    input: &mut Lines,
    style: &Style,
    names: &Names,
    mover: Player,
    position: Position,
    echo: bool,
) -> anyhow::Result<Command> {
    loop {
        match names.person {
            Some(_) => write!(out, "Your move ({}), cell: ", style.mark(mover))?,
            None => write!(out, "{} to move, cell: ", style.mark(mover))?,
        }
        out.flush()?;
        let Some(text) = read_line(input, out, echo)? else {
            return Ok(Command::End);
        };
        match text.to_ascii_lowercase().as_str() {
            "q" | "quit" | "exit" => return Ok(Command::Quit),
            "u" | "undo" => return Ok(Command::Undo),
            "h" | "help" | "?" => return Ok(Command::Help),
            _ => {}
        }
        let parsed = match text.parse::<usize>() {
            Ok(index) => position.play_index(index).map(|_| Cell::ALL[index]),
            Err(_) => {
                let shown: String = text.chars().take(20).collect();
                writeln!(
                    out,
                    "not a cell: {shown:?}; type a number from 0 to 8 (h for help)"
                )?;
                continue;
            }
        };
        match parsed {
            Ok(cell) => return Ok(Command::Play(cell)),
            Err(error @ PlayError::Occupied { .. }) => {
                writeln!(out, "{error}; choose an empty cell")?;
            }
            Err(error) => writeln!(out, "{error}")?,
        }
    }
}

/// The outcome, named for the person.
fn announce(out: &mut impl Write, status: Status, names: &Names) -> io::Result<()> {
    let line = match (status, names.person) {
        (Status::Won(winner), Some(person)) if winner == person => "You win!".to_owned(),
        (Status::Won(_), Some(_)) => "You lose: the computer has three in a row.".to_owned(),
        (Status::Won(winner), None) => format!("{winner} wins."),
        (Status::Draw | Status::Ongoing, _) => "Draw: nobody has three in a row.".to_owned(),
    };
    writeln!(out, "{line}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_count_the_winners_moves() {
        assert_eq!(moves_of(1), 1);
        assert_eq!(moves_of(2), 1);
        assert_eq!(moves_of(3), 2);
        assert_eq!(moves_of(5), 3);
    }

    #[test]
    fn levels_are_players() {
        for (level, player) in LEVELS {
            let strategy = parse_core_level(level).unwrap();
            assert_eq!(strategy.to_string(), player);
            assert_eq!(level_name(strategy), Some(level));
        }
        assert!(parse_level("impossible").is_err());
        assert!(matches!(
            parse_level("mcts"),
            Ok(Seat::Family(FamilyStrategy::Mcts))
        ));
        assert!(matches!(
            parse_level("random"),
            Ok(Seat::Engine(Strategy::Random))
        ));
    }
}
