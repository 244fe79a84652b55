//! Players of the family: strategies that choose a move on any board, each seedable, and a
//! match harness, in the shape of the 3 × 3 [`crate::agents`].
//!
//! | strategy | text | chooses uniformly among |
//! |---|---|---|
//! | [`Strategy::Random`] | `random` | the legal moves |
//! | [`Strategy::Heuristic`] | `heuristic` | a winning move; else a move that blocks the opponent's win; else (with gravity, among the moves that do not hand the opponent a win) the moves of the best line score |
//! | [`Strategy::Mcts`] | `mcts` | the most visited move of a Monte Carlo tree search of [`MCTS_PLAYOUTS`] random games ([`players::Mcts`](super::players::Mcts)) |
//! | [`Strategy::AlphaBeta`] | `alphabeta` | the best move of an alpha-beta search [`ALPHABETA_DEPTH`] plies deep with the solver's pruning and ordering ([`players::AlphaBeta`](super::players::AlphaBeta)) |
//! | [`Strategy::Perfect`] | `perfect` | on Connect Four, [`connect4::Solver::perfect_move`] with the shipped [`connect4::Book`] (a move that keeps the win, else the draw: proven by the book or by null-window searches, the table kept from move to move); on any other game, the best moves of the family [`solver`](super::solver) (value and distance), without a budget |
//!
//! `perfect` is exact: it never turns a won position into a draw or a loss, nor a drawn one
//! into a loss. It has no budget, so it is offered only where the solver finishes in bounded
//! time ([`perfect_is_bounded`]: Connect Four, and boards of at most [`PERFECT_MAX_CELLS`]
//! cells); elsewhere it would search for as long as the solver needs, which on gomoku is
//! practically forever. On Connect Four it needs only whether each move wins, draws or loses
//! (never a score), and the books answer the positions of the first moves; its slowest reply
//! measured is in docs/solver.md ("Players"). In a lost position it plays the first move
//! (centre-out) that does not let the opponent win at once; on other games the solver's best
//! moves are those that lose slowest.
//!
//! [`Agent::choose_until`] bounds the time of `mcts` and `alphabeta` with a stop condition
//! ([`players::Stop`](super::players::Stop)); `random`, `heuristic` and `perfect` take no
//! stop (the first two are instant, `perfect` never guesses).
//!
//! The heuristic's line score adds, over the four directions through the cell, the run of the
//! mover's marks the move makes (longer and open at more ends is better, counted only where
//! the run has room to reach `k`), and half as much for the opponent's run it cuts.
//!
//! Randomness comes from [`rand`]'s `SmallRng` seeded by a `u64`: the same seed gives the same
//! games with the same version of `rand`.
//!
//! ```
//! use tictactoe::mnk::Rules;
//! use tictactoe::mnk::agents::{Agent, Strategy, play_match};
//! let mut x = Agent::new(Strategy::Heuristic, 1);
//! let mut o = Agent::new(Strategy::Random, 2);
//! let tally = play_match(Rules::CONNECT_FOUR, &mut x, &mut o, 20);
//! assert_eq!(tally.games(), 20);
//! assert!(tally.x_wins > tally.o_wins);
//! ```

use core::fmt;
use core::str::FromStr;

use rand::rngs::SmallRng;
use rand::{RngCore, SeedableRng};

use super::players::{AlphaBeta, Choice, Mcts, Stop};
use super::{AnyBoard, AnyPosition, AnySolver, Pick, Rules, Square};
use crate::Player;
pub use crate::agents::Tally;
use crate::connect4;
use crate::each_width;

/// How a family player picks its move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Strategy {
    /// Any legal move.
    Random,
    /// Win, else block, else the best line score (see the [module](self) doc).
    Heuristic,
    /// Monte Carlo tree search with [`MCTS_PLAYOUTS`] playouts a move.
    Mcts,
    /// Alpha-beta, [`ALPHABETA_DEPTH`] plies deep.
    AlphaBeta,
    /// Exact play: Connect Four's own solver with its book, else the family solver, without
    /// a budget (see the [module](self) doc and [`perfect_is_bounded`]).
    Perfect,
}

impl Strategy {
    /// Every strategy, weakest first.
    pub const ALL: [Strategy; 5] = [
        Strategy::Random,
        Strategy::Heuristic,
        Strategy::Mcts,
        Strategy::AlphaBeta,
        Strategy::Perfect,
    ];

    /// The name: `random`, `heuristic`, `mcts`, `alphabeta`, `perfect`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Strategy::Random => "random",
            Strategy::Heuristic => "heuristic",
            Strategy::Mcts => "mcts",
            Strategy::AlphaBeta => "alphabeta",
            Strategy::Perfect => "perfect",
        }
    }
}

/// Text that names no family strategy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown player: expected one of random, heuristic, mcts, alphabeta, perfect")]
pub struct ParseStrategyError;

impl FromStr for Strategy {
    type Err = ParseStrategyError;

    fn from_str(text: &str) -> Result<Strategy, ParseStrategyError> {
        Strategy::ALL
            .into_iter()
            .find(|s| s.name() == text)
            .ok_or(ParseStrategyError)
    }
}

/// The name; parses back.
impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Something that chooses moves: an [`Agent`], or any player a caller brings.
pub trait Chooser {
    /// The action chosen at `position` (a column with gravity, a cell index without), or
    /// `None` when the game is over.
    fn choose(&mut self, position: &AnyPosition) -> Option<usize>;
}

/// A player: a strategy and its own random number generator.
///
/// ```
/// use tictactoe::mnk::{AnyPosition, Rules};
/// use tictactoe::mnk::agents::{Agent, Chooser, Strategy};
/// let mut agent = Agent::new(Strategy::Heuristic, 7);
/// let game = AnyPosition::new(Rules::GOMOKU);
/// let action = agent.choose(&game).expect("the empty board has moves");
/// assert!(game.is_legal(action));
/// ```
#[derive(Clone, Debug)]
pub struct Agent {
    strategy: Strategy,
    rng: SmallRng,
    search: Box<Searchers>,
}

/// Playouts a move of [`Strategy::Mcts`].
pub const MCTS_PLAYOUTS: u32 = 2_000;
/// Plies of [`Strategy::AlphaBeta`].
pub const ALPHABETA_DEPTH: u32 = 4;
/// The most cells of a game other than Connect Four on which [`Strategy::Perfect`] is offered:
/// the family solver proves every such empty board in about a second or less (4,5,4: 0.5 s,
/// 5,4,4: 0.7 s; 5,5,4, 25 cells, takes 10 s).
pub const PERFECT_MAX_CELLS: u32 = 20;

/// Whether [`Strategy::Perfect`] plays `rules` in bounded time: Connect Four (its own solver
/// and book), or a board of at most [`PERFECT_MAX_CELLS`] cells.
///
/// ```
/// use tictactoe::mnk::{Rules, agents::perfect_is_bounded};
/// assert!(perfect_is_bounded(Rules::CONNECT_FOUR) && perfect_is_bounded(Rules::FOUR_BY_FOUR));
/// assert!(!perfect_is_bounded(Rules::GOMOKU));
/// ```
#[must_use]
pub fn perfect_is_bounded(rules: Rules) -> bool {
    rules == Rules::CONNECT_FOUR || rules.cells() <= PERFECT_MAX_CELLS
}

/// The search players, one per bitboard width, kept between moves (their tables and trees).
struct Searchers {
    mcts: Mcts,
    alphabeta: (AlphaBeta<1>, AlphaBeta<2>, AlphaBeta<4>, AlphaBeta<6>),
    /// The family solver of `perfect` (its tables allocated at its first move).
    solver: AnySolver,
    /// Connect Four's solver with the shipped book, made at `perfect`'s first Connect Four
    /// move; its table is kept from move to move.
    connect4: Option<connect4::Solver>,
}

impl Clone for Searchers {
    /// The search players' settings; the solvers start with empty tables.
    fn clone(&self) -> Searchers {
        Searchers {
            mcts: self.mcts.clone(),
            alphabeta: self.alphabeta.clone(),
            solver: AnySolver::new(),
            connect4: None,
        }
    }
}

impl fmt::Debug for Searchers {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Searchers").finish_non_exhaustive()
    }
}

impl Searchers {
    fn new() -> Searchers {
        let ab = ALPHABETA_DEPTH;
        Searchers {
            mcts: Mcts::new(MCTS_PLAYOUTS),
            alphabeta: (
                AlphaBeta::new(ab),
                AlphaBeta::new(ab),
                AlphaBeta::new(ab),
                AlphaBeta::new(ab),
            ),
            solver: AnySolver::new(),
            connect4: None,
        }
    }
}

impl Agent {
    /// A player with this strategy, its choices fixed by `seed`.
    #[must_use]
    pub fn new(strategy: Strategy, seed: u64) -> Agent {
        Agent {
            strategy,
            rng: SmallRng::seed_from_u64(seed),
            search: Box::new(Searchers::new()),
        }
    }

    /// The strategy.
    #[must_use]
    pub const fn strategy(&self) -> Strategy {
        self.strategy
    }

    /// A uniform pick among `candidates` (`None` when empty).
    fn pick(&mut self, candidates: &[usize]) -> Option<usize> {
        let n = candidates.len() as u64;
        if n == 0 {
            return None;
        }
        // Lemire's multiply-shift on 32 random bits, as the 3 × 3 players pick.
        let index = (u64::from(self.rng.next_u32()) * n) >> 32;
        candidates.get(index as usize).copied()
    }
}

impl Agent {
    /// The action chosen at `position`, `None` when the game is over, with `mcts` and
    /// `alphabeta` stopping early once `stop()` says yes (asked every playout, every 1,024
    /// nodes): then they play the most visited move, the deepest finished search's best move,
    /// and [`Choice::cut`] is true. The other strategies never ask.
    pub fn choose_until(&mut self, position: &AnyPosition, stop: Stop<'_>) -> Option<Choice> {
        let mut buffer = [0usize; MAX_ACTIONS];
        let (search, rng) = (&mut *self.search, &mut self.rng);
        let candidates = match self.strategy {
            Strategy::Random => legal(position, &mut buffer),
            Strategy::Heuristic => heuristic_moves(position, &mut buffer),
            Strategy::Mcts => {
                let mcts = &mut search.mcts;
                return each_width!(AnyPosition, position, p => mcts.choose_until(p, rng, stop));
            }
            Strategy::AlphaBeta => {
                let ab = &mut search.alphabeta;
                return each_width!(AnyPosition, position, p, W => {
                    Pick::<W>::pick(ab).choose_until(p, rng, stop)
                });
            }
            Strategy::Perfect => {
                if let Some(c4) = super::any_solver::connect4_position(position) {
                    let solver = search.connect4.get_or_insert_with(|| {
                        connect4::Solver::with_book(connect4::Book::shipped())
                    });
                    let action = solver.perfect_move(c4)?.index();
                    return Some(Choice { action, cut: false });
                }
                let solution = search.solver.solve(position, u64::MAX)?;
                let best = solution.best_moves;
                return self.pick(&best).map(|action| Choice { action, cut: false });
            }
        };
        let action = self.pick(candidates)?;
        Some(Choice { action, cut: false })
    }
}

impl Chooser for Agent {
    fn choose(&mut self, position: &AnyPosition) -> Option<usize> {
        self.choose_until(position, &mut || false)
            .map(|choice| choice.action)
    }
}

/// The most actions a game has (19 × 19 cells).
const MAX_ACTIONS: usize = 19 * 19;

/// The legal actions, ascending, in `buffer`.
fn legal<'a>(position: &AnyPosition, buffer: &'a mut [usize; MAX_ACTIONS]) -> &'a [usize] {
    let mut n = 0;
    for action in position.legal_actions() {
        buffer[n] = action;
        n += 1;
    }
    &buffer[..n]
}

/// The square `action` fills at `position`, if legal.
fn landing(position: &AnyPosition, action: usize) -> Option<Square> {
    let mut after = *position;
    after.play(action).ok()
}

/// Whether `player` would have a line after a mark at `square`.
fn wins_at(board: &AnyBoard, square: Square, player: Player) -> bool {
    let mut after = *board;
    after.set(square, Some(player));
    after.has_line(player)
}

/// The moves of the heuristic, in `buffer`: see the [module](self) doc.
fn heuristic_moves<'a>(
    position: &AnyPosition,
    buffer: &'a mut [usize; MAX_ACTIONS],
) -> &'a [usize] {
    let Some(me) = position.to_move() else {
        return &buffer[..0];
    };
    let board = position.board();
    let rules = position.rules();
    let mut moves: [(usize, Square); MAX_ACTIONS] = [(0, Square::new(0, 0)); MAX_ACTIONS];
    let mut count = 0;
    for action in position.legal_actions() {
        if let Some(square) = landing(position, action) {
            moves[count] = (action, square);
            count += 1;
        }
    }
    let moves = &moves[..count];
    let mut n = 0;
    // Win now.
    for &(action, square) in moves {
        if wins_at(&board, square, me) {
            buffer[n] = action;
            n += 1;
        }
    }
    if n > 0 {
        return &buffer[..n];
    }
    // Block the opponent's win.
    for &(action, square) in moves {
        if wins_at(&board, square, me.opponent()) {
            buffer[n] = action;
            n += 1;
        }
    }
    if n > 0 {
        return &buffer[..n];
    }
    // With gravity, a move can open the cell above it to the opponent: avoid that if possible.
    let mut safe = [true; MAX_ACTIONS];
    if rules.gravity() {
        let mut any_safe = false;
        for (i, &(action, _)) in moves.iter().enumerate() {
            let mut after = *position;
            if after.play(action).is_ok() {
                safe[i] = !gives_a_win(&after);
            }
            any_safe |= safe[i];
        }
        if !any_safe {
            safe = [true; MAX_ACTIONS];
        }
    }
    let mut best = i64::MIN;
    for (i, &(action, square)) in moves.iter().enumerate() {
        if !safe[i] {
            continue;
        }
        let score = line_score(&board, square, me) * 2 + line_score(&board, square, me.opponent());
        if score > best {
            best = score;
            n = 0;
        }
        if score == best {
            buffer[n] = action;
            n += 1;
        }
    }
    &buffer[..n]
}

/// Whether the side to move at `position` has a winning move.
fn gives_a_win(position: &AnyPosition) -> bool {
    let Some(mover) = position.to_move() else {
        return false;
    };
    let board = position.board();
    position
        .legal_actions()
        .filter_map(|action| landing(position, action))
        .any(|square| wins_at(&board, square, mover))
}

/// The value for `player` of a mark at the empty `square`: over the four directions, the run
/// of `player`'s marks through it (with the new mark) weighted by its length and its open
/// ends, where the run and the empty cells around it have room for a line of `k`.
fn line_score(board: &AnyBoard, square: Square, player: Player) -> i64 {
    let rules = board.rules();
    let k = i64::from(rules.k());
    let mut score = 0;
    for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
        let at = |step: i64| mark(board, rules, square, dr * step, dc * step);
        let (mut run, mut open, mut span) = (1i64, 0i64, 1i64);
        for sign in [1i64, -1] {
            let mut step = 1;
            // The run of the player's marks.
            while at(sign * step) == Some(Some(player)) {
                run += 1;
                span += 1;
                step += 1;
            }
            if at(sign * step) == Some(None) {
                open += 1;
            }
            // Room past it: empty cells or the player's marks, as far as a line of k needs.
            while span < k
                && matches!(at(sign * step), Some(cell) if cell.is_none_or(|p| p == player))
            {
                span += 1;
                step += 1;
            }
        }
        if span < k {
            continue;
        }
        // Lengths dominate (4^run), open ends break ties between equal runs.
        score += 4i64.pow(run.min(20) as u32) * (1 + open);
    }
    score
}

/// The mark `(dr, dc)` away from `square`: `None` off the board, `Some(None)` empty.
fn mark(
    board: &AnyBoard,
    rules: Rules,
    square: Square,
    dr: i64,
    dc: i64,
) -> Option<Option<Player>> {
    let row = i64::from(square.row()) + dr;
    let col = i64::from(square.col()) + dc;
    if row < 0 || col < 0 {
        return None;
    }
    let square = rules.square(row as u32, col as u32)?;
    Some(board.at(square))
}

/// One game of `rules` between `x` (moving first) and `o`, to the end: the final position.
pub fn play_game(rules: Rules, x: &mut impl Chooser, o: &mut impl Chooser) -> AnyPosition {
    let mut position = AnyPosition::new(rules);
    loop {
        let choice = match position.to_move() {
            None => return position,
            Some(Player::X) => x.choose(&position),
            Some(Player::O) => o.choose(&position),
        };
        match choice {
            Some(action) if position.play(action).is_ok() => {}
            _ => return position,
        }
    }
}

/// `games` games of `rules` between `x` (always X) and `o`.
pub fn play_match(rules: Rules, x: &mut impl Chooser, o: &mut impl Chooser, games: u64) -> Tally {
    let mut tally = Tally::default();
    for _ in 0..games {
        tally.add(play_game(rules, x, o).status());
    }
    tally
}

/// `games` games of `rules` of uniformly random moves from a `SmallRng` seeded with `seed`:
/// games, moves and results, as [`crate::selfplay::run`] counts them for 3 × 3.
///
/// ```
/// use tictactoe::mnk::{Rules, agents::random_games};
/// let totals = random_games(Rules::CONNECT_FOUR, 100, 7);
/// assert_eq!(totals.tally.games(), 100);
/// assert!(totals.moves >= 7 * 100 && totals.moves <= 42 * 100);
/// assert_eq!(random_games(Rules::CONNECT_FOUR, 100, 7), totals);
/// ```
#[must_use]
pub fn random_games(rules: Rules, games: u64, seed: u64) -> crate::selfplay::Totals {
    random_games_chunked(rules, games, seed, u64::MAX, &mut |_| {})
}

/// [`random_games`] that calls `done(n)` after every `chunk` games (and after the last), `n`
/// the games played since the previous call, as [`crate::selfplay::run_chunked`] does.
pub fn random_games_chunked(
    rules: Rules,
    games: u64,
    seed: u64,
    chunk: u64,
    done: &mut dyn FnMut(u64),
) -> crate::selfplay::Totals {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut totals = crate::selfplay::Totals::default();
    let empty = AnyPosition::new(rules);
    let mut left = games;
    while left > 0 {
        let n = left.min(chunk.max(1));
        for _ in 0..n {
            let mut position = empty;
            totals.tally.add(position.play_random(&mut rng));
            totals.moves += u64::from(position.plies());
            totals.games += 1;
        }
        left -= n;
        done(n);
    }
    totals
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Status;

    fn position(rules: Rules, text: &str) -> AnyPosition {
        AnyPosition::from_board(AnyBoard::parse(rules, text).unwrap()).unwrap()
    }

    #[test]
    fn names_parse_back() {
        for strategy in Strategy::ALL {
            assert_eq!(strategy.name().parse(), Ok(strategy));
            assert_eq!(strategy.to_string(), strategy.name());
        }
        assert_eq!("minimax".parse::<Strategy>(), Err(ParseStrategyError));
    }

    #[test]
    fn takes_a_win() {
        // X to move with three in column 0: 0 wins, and O threatens column 1 too.
        let game = position(
            Rules::CONNECT_FOUR,
            "......./......./......./XO...../XO...../XO.....",
        );
        for seed in 0..20 {
            assert_eq!(Agent::new(Strategy::Heuristic, seed).choose(&game), Some(0));
        }
        let game = position(Rules::GOMOKU, &gomoku_rows(&[(7, "XXXX"), (8, "OOO.O")]));
        let mut agent = Agent::new(Strategy::Heuristic, 3);
        let action = agent.choose(&game).unwrap();
        let mut after = game;
        after.play(action).unwrap();
        assert_eq!(after.status(), Status::Won(Player::X));
    }

    #[test]
    fn blocks() {
        // O to move; X threatens column 3.
        let game = position(
            Rules::CONNECT_FOUR,
            "......./......./......./...X.../...XO../...XO..",
        );
        for seed in 0..20 {
            assert_eq!(Agent::new(Strategy::Heuristic, seed).choose(&game), Some(3));
        }
        // 4 × 4, O to move: X threatens cell 3 of the top row.
        let game = position(Rules::FOUR_BY_FOUR, "XXX./OO../..../....");
        assert_eq!(Agent::new(Strategy::Heuristic, 1).choose(&game), Some(3));
    }

    /// A gomoku board with `marks` starting at column 5 of the given rows.
    fn gomoku_rows(marks: &[(usize, &str)]) -> String {
        let mut rows = vec![vec!['.'; 15]; 15];
        for &(row, text) in marks {
            for (i, ch) in text.chars().enumerate() {
                rows[row][5 + i] = ch;
            }
        }
        rows.iter()
            .map(|r| r.iter().collect::<String>())
            .collect::<Vec<_>>()
            .join("/")
    }

    #[test]
    fn heuristic_beats_random_at_connect_four() {
        for (seat_x, games) in [(true, 200u64), (false, 200)] {
            let mut heuristic = Agent::new(Strategy::Heuristic, 11);
            let mut random = Agent::new(Strategy::Random, 12);
            let tally = if seat_x {
                play_match(Rules::CONNECT_FOUR, &mut heuristic, &mut random, games)
            } else {
                play_match(Rules::CONNECT_FOUR, &mut random, &mut heuristic, games)
            };
            let wins = if seat_x { tally.x_wins } else { tally.o_wins };
            assert!(wins * 10 >= games * 9, "{seat_x}: {tally:?}");
        }
    }

    #[test]
    fn every_choice_is_legal_and_games_end() {
        for rules in [
            Rules::TIC_TAC_TOE,
            Rules::FOUR_BY_FOUR,
            Rules::CONNECT_FOUR,
            Rules::new(2, 5, 5, true).unwrap(),
            Rules::new(1, 1, 1, false).unwrap(),
        ] {
            for strategy in Strategy::ALL {
                let mut x = Agent::new(strategy, 1);
                let mut o = Agent::new(Strategy::Random, 2);
                let end = play_game(rules, &mut x, &mut o);
                assert_ne!(end.status(), Status::Ongoing, "{rules}");
                assert_eq!(x.choose(&end), None);
            }
        }
    }
}
