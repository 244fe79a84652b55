//! `ttt play`: a game in the terminal between people and engine players, on the 3 × 3 board
//! or (with `--game`, or a player only the family has) any game of the k-in-a-row family.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use tictactoe::agents::{Agent, ParseStrategyError, Strategy};
use tictactoe::mnk::Rules;
use tictactoe::mnk::agents::Strategy as FamilyStrategy;
use tictactoe::solver::{self, Solution};
use tictactoe::ultimate::agents::Strategy as UltimateStrategy;
use tictactoe::{Board, Cell, PlayError, Player, Position, Status};

use crate::dialogue::{Names, Options, Style, TableGame, Thought};
use crate::ultimate::Spec;
use crate::util::clock_seed;

/// The default of `--think-time`, in seconds.
const THINK_TIME: f64 = 3.0;

/// Play a game against the computer (or watch engine players): tic-tac-toe, any game of the
/// k-in-a-row family with --game, or ultimate tic-tac-toe with --game ultimate.
///
/// Type a move when it is your turn (a cell number 0 to 8 in tic-tac-toe; with --game a
/// column number with gravity, else a cell as drawn such as h8; in ultimate board:cell such as
/// 4:2, or the cell alone when the board is fixed), `u` to undo your last move,
/// `h` for help, `q` to quit. Every move gets a verdict from the solver (best move or mistake
/// in tic-tac-toe; with --game, whether it keeps or throws away the win or the draw, given
/// when the solver answers within the think time). One move per line also works from a pipe.
#[derive(clap::Args)]
#[command(after_help = "\
Levels (--level, or as --x/--o):
  tic-tac-toe: easy (random moves), medium (perfect half the time, else random),
    hard (rules of thumb: heuristic), perfect (the solver: it never loses).
  with --game: easy = random, medium = heuristic, hard = alphabeta, perfect = perfect;
    the default is heuristic.
  with --game ultimate: easy = random, medium = heuristic, hard = mcts (10,000 playouts a
    move); the default is heuristic; mcts:N searches N playouts a move (on each of --threads
    threads), stopped at --think-time; no perfect player (the game is unsolved).
Players for --x and --o: human, a level, random, heuristic, eps:E (tic-tac-toe only: perfect
with probability 1-E, else random), mcts, alphabeta (family players; without --game they
play tic-tac-toe through the family's engine).
The order measured per game, weakest first (docs/solver.md#the-ladder):
  connect-four  random < heuristic < mcts < alphabeta < perfect
  tic-tac-toe, 4x4  random < the others, which draw or trade games evenly
  gomoku        random < mcts < heuristic < alphabeta (mcts's random playouts are weak
                on big boards)
  mcts       2,000 random playouts a move, stopped at --think-time
  alphabeta  alpha-beta 4 plies deep, deepening from 1 ply, stopped at --think-time
  perfect    exact: Connect Four's solver and opening book, else the family solver; offered
             on Connect Four and boards of at most 20 cells, refused elsewhere (gomoku); it
             takes no think time (on Connect Four its books answer the first moves of both
             sides; the slowest reply measured took 0.12 s of CPU)
A search reply stopped at --think-time depends on the clock, so a replay can differ; the
game says when that happened.

Examples:
  ttt play                          # you are X, the perfect player is O
  ttt play --level easy
  ttt play --x perfect --o human    # the computer starts
  ttt play --seed 7                 # replay the game of seed 7
  printf '4\\n8\\n6\\nq\\n' | ttt play --seed 1
  ttt play --game connect-four      # columns 1 to 7; the computer plays heuristic
  ttt play --game gomoku --level easy
  ttt play --game connect-four --level perfect
  ttt play --game 19,19,5 --level alphabeta --think-time 1
  ttt play --game 4x4 --x perfect --o mcts
  ttt play --game ultimate --level hard --threads 2
  ttt play --game ultimate --x mcts:50000 --o human --think-time 1")]
pub struct Args {
    /// Who plays X: human, a level (easy, medium, hard, perfect) or a player (random,
    /// heuristic, eps:E, mcts, alphabeta; mcts:N with --game ultimate).
    #[arg(long, default_value = "human", value_parser = parse_seat)]
    x: Seat,
    /// Who plays O (default: the level; perfect for tic-tac-toe, heuristic with --game).
    #[arg(long, value_parser = parse_seat)]
    o: Option<Seat>,
    /// How well the computer plays: easy, medium, hard or perfect, or a player (sets O, or X
    /// with --o human).
    #[arg(long, value_name = "LEVEL", value_parser = parse_level)]
    level: Option<Seat>,
    /// Seed of the engine players' random choices (default: from the clock; shown, so that a
    /// game can be replayed).
    #[arg(long)]
    seed: Option<u64>,
    /// A game of the k-in-a-row family instead of tic-tac-toe: tic-tac-toe, 4x4,
    /// connect-four, gomoku, or ROWS,COLS,K with an optional ,gravity (e.g. 6,7,4,gravity);
    /// or ultimate (ultimate tic-tac-toe).
    #[arg(long, value_name = "SPEC", value_parser = crate::ultimate::parse_spec)]
    game: Option<Spec>,
    /// With --game ultimate: threads of each mcts search, 1 to 256 (each its own tree from the
    /// same position, their root visits added; N threads run N times the playouts)
    /// [default: 1].
    #[arg(long, value_parser = crate::ultimate::parse_threads)]
    threads: Option<u32>,
    /// The most the search levels (mcts, alphabeta) think per move, in seconds [default: 3];
    /// also the longest wait for a move's verdict with --game. perfect, random and heuristic
    /// do not use it.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    think_time: Option<f64>,
}

/// Seconds: a positive number up to a day.
fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(seconds) if seconds > 0.0 && seconds <= 86_400.0 => Ok(seconds),
        _ => Err(format!(
            "not a think time: {text:?}; give seconds, more than 0 and at most 86400 (e.g. 0.5)"
        )),
    }
}

/// Who sits on one side of the board.
#[derive(Clone, Copy, Debug)]
pub enum Seat {
    /// Moves typed on standard input.
    Human,
    /// A level: `easy`, `medium`, `hard` or `perfect`, a player per game (see [`LEVELS`] and
    /// [`crate::family::LEVELS`]).
    Level(&'static str),
    /// A player of the 3 × 3 core (`random`, `heuristic`, `eps:E`); the family has `random`
    /// and `heuristic` too.
    Engine(Strategy),
    /// A player only the k-in-a-row family has (`mcts`, `alphabeta`).
    Family(FamilyStrategy),
    /// A player only ultimate has (`mcts:N`).
    Ultimate(UltimateStrategy),
}

impl Seat {
    /// The word that names the seat on the command line.
    fn word(self) -> String {
        match self {
            Seat::Human => "human".to_owned(),
            Seat::Level(level) => level.to_owned(),
            Seat::Engine(strategy) => strategy.to_string(),
            Seat::Family(strategy) => strategy.name().to_owned(),
            Seat::Ultimate(strategy) => strategy.to_string(),
        }
    }
}

/// The named levels of tic-tac-toe and the players they stand for.
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

/// A level (`easy`, `medium`, `hard`, `perfect`) or a player other than `human`.
fn parse_level(text: &str) -> Result<Seat, String> {
    match parse_seat(text) {
        Ok(Seat::Human) | Err(_) => Err(format!(
            "unknown level {text:?}: expected easy, medium, hard or perfect, or a player \
(random, heuristic, mcts, alphabeta, eps:E)"
        )),
        Ok(seat) => Ok(seat),
    }
}

/// `human`, a level or a player (`random`, `heuristic`, `eps:E`, `mcts`, `alphabeta`).
pub fn parse_seat(text: &str) -> Result<Seat, String> {
    if text == "human" {
        return Ok(Seat::Human);
    }
    if let Some(&(level, _)) = LEVELS.iter().find(|(name, _)| *name == text) {
        return Ok(Seat::Level(level));
    }
    if let Ok(strategy) = text.parse::<Strategy>() {
        return Ok(Seat::Engine(strategy));
    }
    if let Ok(strategy) = text.parse::<FamilyStrategy>() {
        return Ok(Seat::Family(strategy));
    }
    text.parse::<UltimateStrategy>()
        .map(Seat::Ultimate)
        .map_err(|_| match text.parse::<Strategy>() {
            Err(error @ ParseStrategyError::BadEpsilon) => error.to_string(),
            _ => "unknown player: expected human, easy, medium, hard, perfect, random, \
heuristic, mcts, mcts:N, alphabeta or eps:E"
                .to_owned(),
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

impl Style {
    /// The board with marks, cell numbers on the empty cells, the cells of complete lines
    /// in brackets and the last move, if given, in parentheses.
    fn board(&self, board: Board, last: Option<Cell>) -> String {
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
                        } else if last == Some(cell) {
                            format!("({inner})")
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
fn describe(solution: Solution, names: Names) -> String {
    match solution.value.winner() {
        None => "a draw with best play".to_owned(),
        Some(winner) if solution.distance == 0 => format!("{} won", names.of(winner)),
        Some(winner) => {
            let moves = moves_of(solution.distance);
            let plural = if moves == 1 { "move" } else { "moves" };
            format!(
                "{} {} in {moves} {plural} with best play",
                names.of(winner),
                names.wins(winner)
            )
        }
    }
}

const HELP: &str = "\
Enter the number of an empty cell (0 to 8, as drawn on the board) and press Enter.
  u, undo   take back your last move (and the computer's answer)
  h, help   show this help
  q, quit   leave the game";

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let seed = args.seed.unwrap_or_else(clock_seed);
    // The default level: perfect in tic-tac-toe, heuristic with --game.
    let default = if args.game.is_some() {
        Seat::Engine(Strategy::Heuristic)
    } else {
        Seat::Level("perfect")
    };
    let level = args.level.unwrap_or(default);
    let o = args.o.unwrap_or(level);
    let x = match (args.x, args.o, args.level) {
        (Seat::Human, Some(Seat::Human), Some(level)) => level,
        (x, _, _) => x,
    };
    let seats = [x, o];
    let engines = seats.iter().any(|seat| !matches!(seat, Seat::Human));
    // A family player (mcts, alphabeta) without --game plays tic-tac-toe on the family's engine.
    if let Some(seat) = seats.iter().find(|s| matches!(s, Seat::Ultimate(_)))
        && args.game != Some(Spec::Ultimate)
    {
        return crate::exit::usage(format!(
            "{} plays only ultimate tic-tac-toe: give --game ultimate",
            seat.word()
        ));
    }
    if args.threads.is_some() && args.game != Some(Spec::Ultimate) {
        return crate::exit::usage("--threads is for --game ultimate (its mcts searches)");
    }
    let family = args.game.and_then(Spec::family).or_else(|| {
        seats
            .iter()
            .any(|seat| matches!(seat, Seat::Family(_)))
            .then_some(Rules::TIC_TAC_TOE)
    });
    let replay = engines.then(|| {
        let game = args
            .game
            .map(|rules| format!(" --game {rules}"))
            .unwrap_or_default();
        let think = args
            .think_time
            .map(|t| format!(" --think-time {t}"))
            .unwrap_or_default();
        let threads = args
            .threads
            .map(|t| format!(" --threads {t}"))
            .unwrap_or_default();
        format!(
            "ttt play{game} --x {} --o {} --seed {seed}{think}{threads}",
            x.word(),
            o.word()
        )
    });
    if args.game == Some(Spec::Ultimate) {
        let think_time = Duration::from_secs_f64(args.think_time.unwrap_or(THINK_TIME));
        return play_ultimate([x, o], seed, think_time, args.threads.unwrap_or(1), replay);
    }
    if let Some(rules) = family {
        let seat = |seat: Seat| -> anyhow::Result<Option<FamilyStrategy>> {
            match seat {
                Seat::Human => Ok(None),
                Seat::Family(strategy) => Ok(Some(strategy)),
                other => crate::family::player(&other.word(), rules).map(Some),
            }
        };
        let describe = |seat: Seat, strategy: Option<FamilyStrategy>| match (seat, strategy) {
            (_, None) => "a person".to_owned(),
            (Seat::Level(level), Some(strategy)) if level != strategy.name() => {
                format!("the computer ({level}: {strategy})")
            }
            (_, Some(strategy)) => format!("the computer ({strategy})"),
        };
        let players = [seat(x)?, seat(o)?];
        let options = Options {
            seed,
            think_time: Some(Duration::from_secs_f64(
                args.think_time.unwrap_or(THINK_TIME),
            )),
            replay,
            names: [describe(x, players[0]), describe(o, players[1])],
        };
        return crate::family::play::run(rules, players, &options);
    }
    // The levels of tic-tac-toe, as its players.
    let seats = seats.map(|seat| match seat {
        Seat::Level(level) => parse_core_level(level).map_or(seat, Seat::Engine),
        other => other,
    });
    // Each engine side draws from its own generator: X from `seed`, O from `seed + 1`.
    let agents: [Option<Agent>; 2] = [0, 1].map(|i| match seats[i] {
        Seat::Engine(strategy) => Some(Agent::new(strategy, seed.wrapping_add(i as u64))),
        _ => None,
    });
    let describe = |seat: Seat| match seat {
        Seat::Human => "a person".to_owned(),
        Seat::Engine(strategy) => match level_name(strategy) {
            Some(level) => format!("the computer ({level})"),
            None => format!("the computer ({strategy})"),
        },
        other => format!("the computer ({})", other.word()),
    };
    let options = Options {
        seed,
        think_time: None,
        replay,
        names: seats.map(describe),
    };
    crate::dialogue::run(TicTacToe, agents, &options)
}

/// `play --game ultimate`: the seats as ultimate's players (a level or player by its word).
fn play_ultimate(
    seats: [Seat; 2],
    seed: u64,
    think_time: Duration,
    threads: u32,
    replay: Option<String>,
) -> anyhow::Result<ExitCode> {
    let player = |seat: Seat| -> anyhow::Result<Option<UltimateStrategy>> {
        match seat {
            Seat::Human => Ok(None),
            other => crate::ultimate::player(&other.word()).map(Some),
        }
    };
    let players = [player(seats[0])?, player(seats[1])?];
    let describe = |seat: Seat, strategy: Option<UltimateStrategy>| match (seat, strategy) {
        (_, None) => "a person".to_owned(),
        (Seat::Level(level), Some(strategy)) => format!("the computer ({level}: {strategy})"),
        (_, Some(strategy)) => format!("the computer ({strategy})"),
    };
    let options = Options {
        seed,
        think_time: Some(think_time),
        replay,
        names: [
            describe(seats[0], players[0]),
            describe(seats[1], players[1]),
        ],
    };
    crate::ultimate::play::run(players, threads, &options)
}

/// Tic-tac-toe at the table: the core's positions, players and solver.
struct TicTacToe;

impl TableGame for TicTacToe {
    type Position = Position;
    type Move = Cell;
    /// The position before the move, and the move.
    type Undo = (Position, Cell);
    type Agent = Agent;

    fn start(&self) -> Position {
        Position::EMPTY
    }

    fn to_move(position: &Position) -> Option<Player> {
        position.to_move()
    }

    fn status(position: &Position) -> Status {
        position.status()
    }

    fn play(position: &mut Position, cell: Cell) -> anyhow::Result<(Position, Cell)> {
        let before = *position;
        *position = before.play(cell)?;
        Ok((before, cell))
    }

    fn undo(position: &mut Position, &(before, _): &(Position, Cell)) {
        *position = before;
    }

    fn title(&self) -> String {
        "Tic-tac-toe: three in a row wins.".to_owned()
    }

    fn hint(&self) -> String {
        "a cell number (0 to 8, as drawn)".to_owned()
    }

    fn help(&self) -> String {
        HELP.to_owned()
    }

    fn asks(&self, _: &Position) -> String {
        "cell".to_owned()
    }

    fn show(&self, style: &Style, position: &Position, last: Option<&(Position, Cell)>) -> String {
        style.board(position.board(), last.map(|&(_, cell)| cell))
    }

    fn read(&self, text: &str, position: &Position) -> Result<Cell, String> {
        let Ok(index) = text.parse::<usize>() else {
            let shown: String = text.chars().take(20).collect();
            return Err(format!(
                "not a cell: {shown:?}; type a number from 0 to 8 (h for help)"
            ));
        };
        match position.play_index(index) {
            Ok(_) => Ok(Cell::ALL[index]),
            Err(error @ PlayError::Occupied { .. }) => {
                Err(format!("{error}; choose an empty cell"))
            }
            Err(error) => Err(error.to_string()),
        }
    }

    fn think(
        &self,
        agent: &mut Agent,
        position: &Position,
        _: Option<Instant>,
    ) -> Option<Thought<Cell>> {
        agent.choose(*position).map(|cell| Thought {
            played: cell,
            cut: false,
            note: String::new(),
        })
    }

    fn engine(agent: &Agent) -> String {
        agent.strategy().to_string()
    }

    fn level(agent: &Agent) -> Option<String> {
        level_name(agent.strategy()).map(str::to_owned)
    }

    fn move_name(&self, cell: Cell, _: &(Position, Cell)) -> String {
        cell.to_string()
    }

    fn verdict(
        &mut self,
        before: &Position,
        _: &Position,
        cell: Cell,
        _: Player,
        names: Names,
    ) -> anyhow::Result<Option<String>> {
        verdict(*before, cell, names).map(Some)
    }

    fn ending(&self, status: Status, names: Names) -> String {
        names.k_in_a_row(status, "three")
    }
}

/// Whether `cell` was a best move at `position`, and the solver's evaluation after it.
fn verdict(position: Position, cell: Cell, names: Names) -> anyhow::Result<String> {
    let before = solver::solve(position);
    let after = solver::solve(position.play(cell)?);
    let quality = if before.best_moves.contains(cell) {
        "best move"
    } else {
        "mistake"
    };
    Ok(format!("{quality}; {}", describe(after, names)))
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
    fn colour_marks_and_the_last_move_on_every_board() {
        let (plain, colour) = (Style { colour: false }, Style { colour: true });
        assert_eq!(plain.mark(Player::X), "X");
        assert_eq!(colour.mark(Player::X), "\x1b[1;36mX\x1b[0m");
        let board: Board = "X.O/.X./...".parse().unwrap();
        let drawn = plain.board(board, Some(Cell::ALL[4]));
        assert!(drawn.contains("    3 |(X)| 5\n"), "{drawn}");
        // The family's boards through the same style.
        let rules = tictactoe::mnk::Rules::TIC_TAC_TOE;
        let board = tictactoe::mnk::AnyBoard::parse(rules, "X.O/.X./...").unwrap();
        let last = rules.square(1, 1);
        let family = crate::family::draw_marked(
            &board,
            "",
            &|_| colour.paint(".", "2"),
            &|player| colour.mark(player),
            last,
        );
        assert!(family.contains("(\x1b[1;36mX\x1b[0m)"), "{family:?}");
        assert!(family.contains("\x1b[2m.\x1b[0m"), "{family:?}");
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
