//! Players: strategies that choose a move, each seedable, and a match harness.
//!
//! | strategy | text | chooses uniformly among |
//! |---|---|---|
//! | [`Strategy::Random`] | `random` | the legal moves |
//! | [`Strategy::Heuristic`] | `heuristic` | the moves of the first rule that applies: win, block, fork, block a fork, centre, opposite corner, corner, side |
//! | [`Strategy::Perfect`] | `perfect` | the solver's best moves ([`solver::best_moves`]) |
//! | [`Strategy::Epsilon`] | `eps:E` | perfect with probability `1 - E`, else random |
//!
//! Randomness comes from [`rand`]'s `SmallRng` (no `std`, seeded by a `u64`): the same seed
//! gives the same games with the same version of `rand`.

use core::fmt;
use core::str::FromStr;

use rand::rngs::SmallRng;
use rand::{RngCore, SeedableRng};

use crate::{Bitboard, Cell, Game, Player, Position, Status, solver};

/// How a player picks its move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Strategy {
    /// Any legal move.
    Random,
    /// Rules of thumb (Newell and Simon's order).
    Heuristic,
    /// A best move of the solver.
    Perfect,
    /// Perfect with probability `1 - E`, else random.
    Epsilon(Epsilon),
}

/// A probability of exploring, in `0..=1`: the only values [`Epsilon::new`] accepts, so a
/// [`Strategy::Epsilon`] never holds a NaN or a number outside the range.
///
/// ```
/// use tictactoe::agents::{Epsilon, Strategy};
/// let strategy = Strategy::Epsilon(Epsilon::new(0.1)?);
/// assert_eq!(strategy.to_string(), "eps:0.1");
/// assert!(Epsilon::new(1.5).is_err() && Epsilon::new(f64::NAN).is_err());
/// # Ok::<(), tictactoe::agents::ParseStrategyError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
pub struct Epsilon(f64);

impl Epsilon {
    /// The probability `e`.
    ///
    /// # Errors
    /// [`ParseStrategyError::BadEpsilon`] unless `0 <= e <= 1`.
    pub fn new(e: f64) -> Result<Epsilon, ParseStrategyError> {
        if (0.0..=1.0).contains(&e) {
            Ok(Epsilon(e))
        } else {
            Err(ParseStrategyError::BadEpsilon)
        }
    }

    /// The probability.
    #[must_use]
    pub const fn get(self) -> f64 {
        self.0
    }
}

/// Whether a [`Strategy::Epsilon`] player explores (plays a random move) on this move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    /// A random legal move.
    Explore,
    /// The strategy's own choice (a best move for [`Strategy::Epsilon`]).
    Exploit,
}

/// Text that names no strategy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseStrategyError {
    /// Not one of the names.
    #[error("unknown player: expected random, heuristic, perfect or eps:E")]
    Unknown,
    /// `eps:` followed by something that is not a number from 0 to 1.
    #[error("bad epsilon: expected eps:E with E a number from 0 to 1, like eps:0.1")]
    BadEpsilon,
}

impl Strategy {
    /// The moves this strategy would choose among, with `mode` deciding for
    /// [`Strategy::Epsilon`] (the others ignore it).
    #[must_use]
    pub fn candidates(self, position: Position, mode: Mode) -> Bitboard {
        match self {
            Strategy::Random => position.legal_moves(),
            Strategy::Heuristic => heuristic_moves(position),
            Strategy::Perfect => solver::best_moves(position),
            Strategy::Epsilon(_) if mode == Mode::Explore => position.legal_moves(),
            Strategy::Epsilon(_) => solver::best_moves(position),
        }
    }
}

impl FromStr for Strategy {
    type Err = ParseStrategyError;

    fn from_str(text: &str) -> Result<Strategy, ParseStrategyError> {
        match text {
            "random" => Ok(Strategy::Random),
            "heuristic" => Ok(Strategy::Heuristic),
            "perfect" => Ok(Strategy::Perfect),
            _ => {
                let epsilon = text
                    .strip_prefix("eps:")
                    .ok_or(ParseStrategyError::Unknown)?;
                let e = epsilon
                    .parse::<f64>()
                    .map_err(|_| ParseStrategyError::BadEpsilon)?;
                Epsilon::new(e).map(Strategy::Epsilon)
            }
        }
    }
}

/// `random`, `heuristic`, `perfect` or `eps:E`; parses back.
impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Strategy::Random => f.write_str("random"),
            Strategy::Heuristic => f.write_str("heuristic"),
            Strategy::Perfect => f.write_str("perfect"),
            Strategy::Epsilon(e) => write!(f, "eps:{}", e.0),
        }
    }
}

/// A uniformly chosen cell of `set`, from 32 random bits (`None` for the empty set).
///
/// The index is `(r * count) >> 32` (Lemire's multiply-shift; its bias is below `9 / 2^32`).
///
/// ```
/// use tictactoe::{Bitboard, agents::pick};
/// let set = Bitboard::from_bits(0b101).unwrap();
/// assert_eq!(pick(set, 0).map(|c| c.index()), Some(0));
/// assert_eq!(pick(set, u32::MAX).map(|c| c.index()), Some(2));
/// assert_eq!(pick(Bitboard::EMPTY, 7), None);
/// ```
#[must_use]
#[inline]
pub fn pick(set: Bitboard, random: u32) -> Option<Cell> {
    set.pick(random)
}

/// A player: a strategy and its own random number generator.
///
/// ```
/// use tictactoe::{Position, agents::{Agent, Strategy}};
/// let mut agent = Agent::new(Strategy::Perfect, 7);
/// let cell = agent.choose(Position::EMPTY).expect("the empty board has moves");
/// assert!(Position::EMPTY.play(cell).is_ok());
/// ```
#[derive(Clone, Debug)]
pub struct Agent {
    strategy: Strategy,
    rng: SmallRng,
}

impl Agent {
    /// A player with this strategy, its choices fixed by `seed`.
    #[must_use]
    pub fn new(strategy: Strategy, seed: u64) -> Agent {
        Agent {
            strategy,
            rng: SmallRng::seed_from_u64(seed),
        }
    }

    /// The strategy.
    #[must_use]
    pub const fn strategy(&self) -> Strategy {
        self.strategy
    }

    /// The move chosen at `position`, or `None` when the game is over.
    pub fn choose(&mut self, position: Position) -> Option<Cell> {
        let mode = match self.strategy {
            // 53 random bits as a float in [0, 1).
            Strategy::Epsilon(e)
                if (self.rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64) < e.0 =>
            {
                Mode::Explore
            }
            _ => Mode::Exploit,
        };
        let candidates = self.strategy.candidates(position, mode);
        pick(candidates, self.rng.next_u32())
    }
}

/// Wins and draws over a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Hash)]
pub struct Tally {
    /// Games X won.
    pub x_wins: u64,
    /// Games O won.
    pub o_wins: u64,
    /// Games drawn.
    pub draws: u64,
}

impl Tally {
    /// Games counted.
    #[must_use]
    pub const fn games(&self) -> u64 {
        self.x_wins + self.o_wins + self.draws
    }

    /// Counts one finished game (an ongoing status counts nothing).
    pub fn add(&mut self, status: Status) {
        match status {
            Status::Won(Player::X) => self.x_wins += 1,
            Status::Won(Player::O) => self.o_wins += 1,
            Status::Draw => self.draws += 1,
            Status::Ongoing => {}
        }
    }
}

/// One game between `x` and `o`, to the end.
///
/// ```
/// use tictactoe::{Status, agents::{Agent, Strategy, play_game}};
/// let mut x = Agent::new(Strategy::Perfect, 1);
/// let mut o = Agent::new(Strategy::Perfect, 2);
/// assert_eq!(play_game(&mut x, &mut o).status(), Status::Draw);
/// ```
pub fn play_game(x: &mut Agent, o: &mut Agent) -> Game {
    let mut game = Game::EMPTY;
    loop {
        let position = game.position();
        let agent = match position.to_move() {
            None => return game,
            Some(Player::X) => &mut *x,
            Some(Player::O) => &mut *o,
        };
        match agent.choose(position) {
            Some(cell) => game.push_unchecked(cell),
            None => return game,
        }
    }
}

/// `games` games between `x` (always X) and `o`.
///
/// ```
/// use tictactoe::agents::{Agent, Strategy, play_match};
/// let tally = play_match(&mut Agent::new(Strategy::Perfect, 1), &mut Agent::new(Strategy::Random, 2), 100);
/// assert_eq!(tally.games(), 100);
/// assert_eq!(tally.o_wins, 0);
/// ```
pub fn play_match(x: &mut Agent, o: &mut Agent, games: u64) -> Tally {
    let mut tally = Tally::default();
    for _ in 0..games {
        tally.add(play_game(x, o).status());
    }
    tally
}

/// The empty cells that complete a line of `pieces`.
fn winning_cells(pieces: Bitboard, empty: Bitboard) -> Bitboard {
    empty
        .iter()
        .filter(|&cell| pieces.with(cell).has_line())
        .collect()
}

/// The empty cells that give `pieces` two winning cells at once.
fn fork_cells(pieces: Bitboard, empty: Bitboard) -> Bitboard {
    empty
        .iter()
        .filter(|&cell| winning_cells(pieces.with(cell), empty.without(cell)).count() >= 2)
        .collect()
}

/// Moves against the opponent's forks: the only fork cell if there is one; else a move that
/// threatens a line whose forced block gives the opponent no fork; else any fork cell.
fn block_fork_cells(mine: Bitboard, theirs: Bitboard, empty: Bitboard) -> Bitboard {
    let forks = fork_cells(theirs, empty);
    if forks.count() <= 1 {
        return forks;
    }
    let forcing: Bitboard = empty
        .iter()
        .filter(|&cell| {
            let rest = empty.without(cell);
            let threats = winning_cells(mine.with(cell), rest);
            threats.count() == 1
                && threats
                    .iter()
                    .all(|reply| winning_cells(theirs.with(reply), rest.without(reply)).count() < 2)
        })
        .collect();
    if forcing.is_empty() { forks } else { forcing }
}

const CENTRE: Bitboard = Bitboard::from_bits_truncate(0b000_010_000);
const CORNERS: Bitboard = Bitboard::from_bits_truncate(0b101_000_101);
const SIDES: Bitboard = Bitboard::from_bits_truncate(0b010_101_010);

/// The corners opposite the corners in `set`.
fn opposite_corners(set: Bitboard) -> Bitboard {
    set.iter()
        .filter(|cell| CORNERS.contains(*cell))
        .map(|cell| Cell::ALL[8 - cell.index()])
        .collect()
}

/// The moves of the first heuristic rule that applies: win, block, fork, block a fork,
/// centre, the corner opposite an opponent's corner, any corner, any side.
///
/// ```
/// use tictactoe::{Board, Position, agents::heuristic_moves};
/// // O blocks X's row before anything else.
/// let position = Position::try_from("XX./.O./...".parse::<Board>()?)?;
/// assert_eq!(heuristic_moves(position).iter().map(|c| c.index()).collect::<Vec<_>>(), [2]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[must_use]
pub fn heuristic_moves(position: Position) -> Bitboard {
    let empty = position.legal_moves();
    let board = position.board();
    let me = position.side_to_move();
    let (mine, theirs) = (board.pieces(me), board.pieces(me.opponent()));
    let rules: [&dyn Fn() -> Bitboard; 8] = [
        &|| winning_cells(mine, empty),
        &|| winning_cells(theirs, empty),
        &|| fork_cells(mine, empty),
        &|| block_fork_cells(mine, theirs, empty),
        &|| CENTRE & empty,
        &|| opposite_corners(theirs) & empty,
        &|| CORNERS & empty,
        &|| SIDES & empty,
    ];
    rules
        .iter()
        .map(|rule| rule())
        .find(|moves| !moves.is_empty())
        .unwrap_or(Bitboard::EMPTY)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether `me`, choosing any of `candidates` at each turn, never loses against any reply.
    fn never_loses(
        position: Position,
        me: Player,
        candidates: &dyn Fn(Position) -> Bitboard,
    ) -> bool {
        match position.status() {
            Status::Won(winner) => winner == me,
            Status::Draw => true,
            Status::Ongoing => {
                let moves = if position.side_to_move() == me {
                    candidates(position)
                } else {
                    position.legal_moves()
                };
                !moves.is_empty()
                    && moves
                        .iter()
                        .all(|cell| never_loses(position.play_unchecked(cell), me, candidates))
            }
        }
    }

    #[test]
    fn perfect_play_never_loses_as_x_or_o_against_every_reply() {
        let perfect = |p: Position| Strategy::Perfect.candidates(p, Mode::Exploit);
        assert!(never_loses(Position::EMPTY, Player::X, &perfect));
        assert!(never_loses(Position::EMPTY, Player::O, &perfect));
        // The walk can fail: random play loses somewhere.
        let random = |p: Position| Strategy::Random.candidates(p, Mode::Exploit);
        assert!(!never_loses(Position::EMPTY, Player::X, &random));
    }

    #[test]
    fn the_heuristic_never_loses_either() {
        let heuristic = |p: Position| heuristic_moves(p);
        assert!(never_loses(Position::EMPTY, Player::X, &heuristic));
        assert!(never_loses(Position::EMPTY, Player::O, &heuristic));
    }

    #[test]
    fn heuristic_moves_are_legal_on_every_position() {
        for position in Position::all() {
            let moves = heuristic_moves(position);
            assert!(position.legal_moves().is_superset(moves));
            assert_eq!(moves.is_empty(), position.status().is_finished());
        }
    }

    #[test]
    fn strategies_parse_and_print() {
        for text in [
            "random",
            "heuristic",
            "perfect",
            "eps:0.1",
            "eps:0",
            "eps:1",
        ] {
            let strategy: Strategy = text.parse().unwrap();
            assert_eq!(strategy.to_string(), text);
        }
        assert_eq!(
            "human".parse::<Strategy>(),
            Err(ParseStrategyError::Unknown)
        );
        assert_eq!(
            "eps:2".parse::<Strategy>(),
            Err(ParseStrategyError::BadEpsilon)
        );
        assert_eq!(
            "eps:x".parse::<Strategy>(),
            Err(ParseStrategyError::BadEpsilon)
        );
    }

    #[test]
    fn seeded_matches_repeat_and_perfect_players_draw() {
        let run = |seed| {
            let mut x = Agent::new(Strategy::Epsilon(Epsilon::new(0.3).unwrap()), seed);
            let mut o = Agent::new(Strategy::Heuristic, seed + 1);
            play_match(&mut x, &mut o, 200)
        };
        assert_eq!(run(5), run(5));
        let mut x = Agent::new(Strategy::Perfect, 1);
        let mut o = Agent::new(Strategy::Perfect, 2);
        assert_eq!(play_match(&mut x, &mut o, 100).draws, 100);
        let mut random = Agent::new(Strategy::Random, 3);
        let tally = play_match(&mut random, &mut o, 1000);
        assert_eq!(tally.x_wins, 0);
        assert!(tally.o_wins > 0);
    }

    #[test]
    fn pick_is_uniform_over_the_set() {
        let set = Bitboard::from_bits(0b1_0110_0101).unwrap();
        let mut counts = [0u32; 9];
        let n = set.count();
        // Evenly spaced 32-bit inputs (midpoints of equal slices) hit each cell equally often.
        for i in 0..n * 1000 {
            let random = ((2 * u64::from(i) + 1) * (1u64 << 32) / u64::from(2 * n * 1000)) as u32;
            counts[pick(set, random).unwrap().index()] += 1;
        }
        for cell in Cell::ALL {
            let expected = if set.contains(cell) { 1000 } else { 0 };
            assert_eq!(counts[cell.index()], expected);
        }
    }
}
