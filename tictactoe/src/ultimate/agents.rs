//! Players of ultimate tic-tac-toe, each seedable, and a match harness.
//!
//! | strategy | text | plays |
//! |---|---|---|
//! | [`Strategy::Random`] | `random` | a uniformly random legal move |
//! | [`Strategy::Heuristic`] | `heuristic` | a move that wins the game; else the best score of rules of thumb (below), uniformly among equals |
//! | [`Strategy::Mcts`] | `mcts:N` (`mcts` is `mcts:10000`) | the most visited move of a UCT search of `N` random playouts ([`mcts`](super::mcts)) |
//!
//! The heuristic scores each legal move by what it does and where it sends the opponent:
//! +10 if it wins its small board, +8 if it takes a cell where the opponent would have won that
//! board, -100 if the opponent can then win the game with one move, else -6 if the opponent can
//! then win a small board with one move, and -2 if it lets the opponent choose the board.
//!
//! Randomness comes from [`rand`]'s `SmallRng` seeded by a `u64`: the same seed gives the same
//! games with the same version of `rand`. A search cut short by a stop condition (a clock)
//! depends on when it stopped; [`Choice::cut`] says so.
//!
//! ```
//! use tictactoe::ultimate::agents::{Agent, Strategy, play_match};
//! let mut x = Agent::new(Strategy::Heuristic, 1);
//! let mut o = Agent::new(Strategy::Random, 2);
//! let tally = play_match(&mut x, &mut o, 20);
//! assert_eq!(tally.games(), 20);
//! assert!(tally.x_wins > tally.o_wins);
//! ```

use core::fmt;
use core::str::FromStr;

use rand::rngs::SmallRng;
use rand::{Rng, RngCore, SeedableRng};

use super::mcts::{Mcts, winning_move};
use super::{Move, Position};
pub use crate::agents::Tally;
use crate::{Player, Status};

/// The playouts of `mcts` without a number.
pub const MCTS_PLAYOUTS: u64 = 10_000;

/// How a player picks its move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Strategy {
    /// Any legal move, uniformly.
    Random,
    /// Win the game, else the best score of the rules of thumb (see the [module](self) doc).
    Heuristic,
    /// UCT with this many random playouts a move (at least 1).
    Mcts {
        /// Playouts a move (per thread when searched on several).
        playouts: u64,
    },
}

/// Text that names no strategy.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseStrategyError {
    /// Not a strategy's name.
    #[error("unknown player: expected random, heuristic, mcts or mcts:N (N playouts a move)")]
    Unknown,
    /// `mcts:` followed by something other than a positive whole number.
    #[error("bad playout count after mcts: expected a whole number from 1 to 10^12")]
    BadPlayouts,
}

impl FromStr for Strategy {
    type Err = ParseStrategyError;

    fn from_str(text: &str) -> Result<Strategy, ParseStrategyError> {
        match text {
            "random" => Ok(Strategy::Random),
            "heuristic" => Ok(Strategy::Heuristic),
            "mcts" => Ok(Strategy::Mcts {
                playouts: MCTS_PLAYOUTS,
            }),
            _ => {
                let count = text
                    .strip_prefix("mcts:")
                    .ok_or(ParseStrategyError::Unknown)?;
                let digits: alloc::string::String = count.chars().filter(|&c| c != '_').collect();
                match digits.parse::<u64>() {
                    Ok(playouts) if (1..=1_000_000_000_000).contains(&playouts) => {
                        Ok(Strategy::Mcts { playouts })
                    }
                    _ => Err(ParseStrategyError::BadPlayouts),
                }
            }
        }
    }
}

/// `random`, `heuristic`, `mcts:N`; parses back.
impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Strategy::Random => f.write_str("random"),
            Strategy::Heuristic => f.write_str("heuristic"),
            Strategy::Mcts { playouts } => write!(f, "mcts:{playouts}"),
        }
    }
}

/// A move and how it was found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Choice {
    /// The move.
    pub played: Move,
    /// Playouts the search ran (0 for `random` and `heuristic`, and for a move that wins at
    /// once).
    pub playouts: u64,
    /// Whether the stop condition cut the search short (the move then depends on the clock).
    pub cut: bool,
}

/// A player: a strategy, its own random number generator, and the search's tree.
#[derive(Clone, Debug)]
pub struct Agent {
    strategy: Strategy,
    rng: SmallRng,
    mcts: Mcts,
}

impl Agent {
    /// A player of `strategy` seeded by `seed`.
    #[must_use]
    pub fn new(strategy: Strategy, seed: u64) -> Agent {
        Agent {
            strategy,
            rng: SmallRng::seed_from_u64(seed),
            mcts: Mcts::new(),
        }
    }

    /// The same player with UCB1's exploration constant `c` for `mcts`.
    #[must_use]
    pub fn with_exploration(mut self, c: f64) -> Agent {
        self.mcts = Mcts::with_exploration(c);
        self
    }

    /// The strategy.
    #[must_use]
    pub const fn strategy(&self) -> Strategy {
        self.strategy
    }

    /// The move to play, `None` once the game is over.
    pub fn choose(&mut self, position: &Position) -> Option<Move> {
        self.choose_until(position, &mut || false)
            .map(|choice| choice.played)
    }

    /// The move to play; `mcts` stops early when `stop` says so (asked every
    /// [`STOP_EVERY`](super::mcts::STOP_EVERY) playouts) and plays the most visited move so far.
    /// `None` once the game is over.
    pub fn choose_until(
        &mut self,
        position: &Position,
        stop: &mut dyn FnMut() -> bool,
    ) -> Option<Choice> {
        let instant = |played| Choice {
            played,
            playouts: 0,
            cut: false,
        };
        match self.strategy {
            Strategy::Random => position.pick(self.rng.next_u32()).map(instant),
            Strategy::Heuristic => heuristic(position, &mut self.rng).map(instant),
            Strategy::Mcts { playouts } => self
                .mcts
                .search(position, playouts, &mut self.rng, stop)
                .map(|search| Choice {
                    played: search.best,
                    playouts: search.playouts,
                    cut: search.cut,
                }),
        }
    }

    /// [`choose_until`](Agent::choose_until) with `mcts` searched on `threads` threads at once
    /// ([`mcts::parallel`](super::mcts::parallel), `N` playouts on each), seeded from this
    /// player's generator: reproducible for a given number of threads unless `stop` cuts it.
    #[cfg(feature = "std")]
    pub fn choose_parallel(
        &mut self,
        position: &Position,
        threads: u32,
        stop: &(dyn Fn() -> bool + Sync),
    ) -> Option<Choice> {
        match self.strategy {
            Strategy::Mcts { playouts } if threads > 1 => {
                let settings = super::mcts::Settings {
                    playouts,
                    threads,
                    seed: self.rng.next_u64(),
                    exploration: self.mcts.exploration(),
                };
                super::mcts::parallel(position, settings, stop).map(|search| Choice {
                    played: search.best,
                    playouts: search.playouts,
                    cut: search.cut,
                })
            }
            _ => self.choose_until(position, &mut || stop()),
        }
    }
}

/// The heuristic's move: see the [module](self) documentation.
fn heuristic<R: RngCore + ?Sized>(position: &Position, rng: &mut R) -> Option<Move> {
    let mover = position.to_move()?;
    if let Some(win) = winning_move(position) {
        return Some(win);
    }
    let opponent = mover.opponent();
    let mut best = i32::MIN;
    let mut ties: u32 = 0;
    let mut chosen = None;
    for played in position.legal_moves() {
        let score = score(position, played, mover, opponent);
        if score > best {
            (best, ties, chosen) = (score, 1, Some(played));
        } else if score == best {
            // Reservoir sampling: each of the equals is kept with probability 1/ties.
            ties += 1;
            if rng.random_range(0..ties) == 0 {
                chosen = Some(played);
            }
        }
    }
    chosen
}

/// The heuristic's score of `played` by `mover`.
fn score(position: &Position, played: Move, mover: Player, opponent: Player) -> i32 {
    let board = played.board();
    let mut child = *position;
    child.play_unchecked(played);
    let mut score = 0;
    if child.board_status(board) == Status::Won(mover) {
        score += 10;
    }
    let theirs = position.board(board).pieces(opponent).with(played.cell());
    if theirs.has_line() {
        score += 8;
    }
    let (mut wins_game, mut wins_board) = (false, false);
    for reply in child.legal_moves() {
        let mut after = child;
        after.play_unchecked(reply);
        if after.status() == Status::Won(opponent) {
            wins_game = true;
            break;
        }
        wins_board |= after.board_status(reply.board()) == Status::Won(opponent);
    }
    if wins_game {
        score -= 100;
    } else if wins_board {
        score -= 6;
    }
    if child.next_board().is_none() && !child.status().is_finished() {
        score -= 2;
    }
    score
}

/// One game between `x` and `o` to the end; the final position.
pub fn play_game(x: &mut Agent, o: &mut Agent) -> Position {
    let mut position = Position::EMPTY;
    while let Some(mover) = position.to_move() {
        let agent = match mover {
            Player::X => &mut *x,
            Player::O => &mut *o,
        };
        let Some(played) = agent.choose(&position) else {
            break;
        };
        position.play_unchecked(played);
    }
    position
}

/// `games` games between `x` (always first) and `o`, tallied.
pub fn play_match(x: &mut Agent, o: &mut Agent, games: u64) -> Tally {
    let mut tally = Tally::default();
    for _ in 0..games {
        tally.add(play_game(x, o).status());
    }
    tally
}

/// `games` games of uniformly random moves ([`Position::play_random`]) from a `SmallRng`
/// seeded with `seed`, calling `done(n)` after every `chunk` games (and after the last), `n`
/// the games played since the previous call.
///
/// ```
/// use tictactoe::ultimate::agents::random_games_chunked;
/// let mut calls = Vec::new();
/// let totals = random_games_chunked(1000, 42, 300, &mut |n| calls.push(n));
/// assert_eq!((totals.games, totals.tally.games()), (1000, 1000));
/// assert_eq!(calls, [300, 300, 300, 100]);
/// assert_eq!(random_games_chunked(1000, 42, 1000, &mut |_| {}), totals);
/// ```
pub fn random_games_chunked(
    games: u64,
    seed: u64,
    chunk: u64,
    done: &mut dyn FnMut(u64),
) -> crate::selfplay::Totals {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut totals = crate::selfplay::Totals::default();
    let mut left = games;
    while left > 0 {
        let n = left.min(chunk.max(1));
        for _ in 0..n {
            let mut position = Position::EMPTY;
            totals.tally.add(position.play_random(&mut rng));
            totals.moves += u64::from(position.plies());
        }
        left -= n;
        done(n);
    }
    totals.games = games;
    totals
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ultimate::Setup;

    #[test]
    fn names_parse_back() {
        for text in ["random", "heuristic", "mcts:1", "mcts:250000"] {
            assert_eq!(text.parse::<Strategy>().unwrap().to_string(), text);
        }
        assert_eq!(
            "mcts".parse::<Strategy>(),
            Ok(Strategy::Mcts { playouts: 10_000 })
        );
        assert_eq!(
            "mcts:1_000".parse::<Strategy>().unwrap().to_string(),
            "mcts:1000"
        );
        for bad in ["mcts:0", "mcts:", "mcts:x", "mcts:-1"] {
            assert_eq!(
                bad.parse::<Strategy>(),
                Err(ParseStrategyError::BadPlayouts)
            );
        }
        assert_eq!(
            "alphabeta".parse::<Strategy>(),
            Err(ParseStrategyError::Unknown)
        );
    }

    /// X has won boards 0 and 1 and must play in board 2 (O's last move, cell 2 of board 3,
    /// sends it there), where X's top row is one cell from complete: that cell wins the game.
    fn near_win() -> Position {
        let boards = [
            "XXX/OO./...",
            "XXX/OO./...",
            "XX./.../...",
            "..O/.../...",
            "O../.../...",
            "O../.../...",
            "O../.../...",
            ".../.../...",
            ".../.../...",
        ];
        let setup = Setup {
            boards: boards.map(|text| text.parse().unwrap()),
            next: Some(crate::Cell::new(2).unwrap()),
        };
        Position::try_from(setup).unwrap()
    }

    #[test]
    fn every_player_takes_a_win_of_the_game() {
        let position = near_win();
        assert_eq!(position.to_move(), Some(Player::X));
        let win = winning_move(&position).expect("X wins in board 2");
        for strategy in [Strategy::Heuristic, Strategy::Mcts { playouts: 50 }] {
            let mut agent = Agent::new(strategy, 1);
            assert_eq!(agent.choose(&position), Some(win), "{strategy}");
        }
    }

    #[test]
    fn every_choice_is_legal_and_games_end() {
        for strategy in [
            Strategy::Random,
            Strategy::Heuristic,
            Strategy::Mcts { playouts: 30 },
        ] {
            let mut x = Agent::new(strategy, 3);
            let mut o = Agent::new(Strategy::Random, 4);
            for _ in 0..5 {
                let mut position = Position::EMPTY;
                while position.to_move().is_some() {
                    let agent = if position.to_move() == Some(Player::X) {
                        &mut x
                    } else {
                        &mut o
                    };
                    let played = agent.choose(&position).unwrap();
                    assert!(position.play(played).is_ok(), "{strategy} played {played}");
                }
                assert!(position.status().is_finished());
                assert_eq!(x.choose(&position), None);
            }
        }
    }

    #[test]
    fn a_seed_replays_its_games() {
        let game = |seed| {
            let mut x = Agent::new(Strategy::Mcts { playouts: 200 }, seed);
            let mut o = Agent::new(Strategy::Heuristic, seed + 1);
            play_game(&mut x, &mut o)
        };
        assert_eq!(game(5), game(5));
    }

    #[test]
    fn the_ladder_holds_on_small_samples() {
        let mut heuristic = Agent::new(Strategy::Heuristic, 1);
        let mut random = Agent::new(Strategy::Random, 2);
        let tally = play_match(&mut heuristic, &mut random, 40);
        assert!(tally.x_wins >= 30, "{tally:?}");
        let mut mcts = Agent::new(Strategy::Mcts { playouts: 2_000 }, 3);
        let tally = play_match(&mut heuristic, &mut mcts, 10);
        assert!(tally.o_wins >= 7, "{tally:?}");
    }
}
