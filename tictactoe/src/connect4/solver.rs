//! The search: negamax with alpha-beta on null windows, the two-bound table, the book.

use super::book::Book;
use super::position::{CELLS, Column, Columns, Position, column_mask, mirror_bits};
use super::table::Table;
use crate::budget::Limits;
use crate::solver::{Outcome, Value, Watch};

/// The lowest score of any position: a loss to the opponent's 21st stone... and the highest.
/// Scores follow the benchmark sets: `22 - k` when the player to move wins with its `k`-th
/// stone, `-(22 - k)` when the opponent wins with its `k`-th stone, 0 for a draw.
pub const MAX_SCORE: i32 = (CELLS as i32 + 1) / 2 - 3;
/// The lowest score: a loss to the opponent's 4th stone.
pub const MIN_SCORE: i32 = -(CELLS as i32) / 2 + 3;

const HISTORY: bool = false;
const ETC: bool = true;
const ETC_MAX_MOVES: i32 = 30;

// Columns from the centre out: central columns are in more lines, so they are tried first.
const ORDER: [usize; 7] = [3, 2, 4, 1, 5, 0, 6];

/// Everything perfect play says about a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Solution {
    /// The score in the convention of the benchmark sets: `22 - k` when the player to move wins
    /// with its `k`-th stone (18 for a win with the 4th), 0 for a draw, `-(22 - k)` when the
    /// opponent wins with its `k`-th stone.
    pub score: i32,
    /// Win, draw or loss for the player to move.
    pub outcome: Outcome,
    /// Who wins, X being the first player.
    pub value: Value,
    /// Plies to the end of the game under perfect play: the winner wins as fast as it can and
    /// the loser holds out as long as it can (the score fixes when the game ends); in a draw
    /// the board fills, so the distance is the number of empty cells.
    pub distance: u32,
    /// Every column whose move keeps the score.
    pub best_moves: Columns,
}

/// The outcome for the player to move of a score.
#[must_use]
pub const fn outcome_of(score: i32) -> Outcome {
    if score > 0 {
        Outcome::Win
    } else if score < 0 {
        Outcome::Loss
    } else {
        Outcome::Draw
    }
}

/// Plies to the end under perfect play of a position of `moves` stones with this score.
#[must_use]
pub const fn distance_of(score: i32, moves: usize) -> u32 {
    let moves = moves as i32;
    let half = CELLS as i32 / 2 + 1;
    let plies = if score > 0 {
        // The player to move has moves / 2 stones and wins with its (22 - score)-th.
        2 * (half - score - moves / 2) - 1
    } else if score < 0 {
        // The opponent has (moves + 1) / 2 stones and wins with its (22 + score)-th.
        2 * (half + score - (moves + 1) / 2)
    } else {
        CELLS as i32 - moves
    };
    plies as u32
}

/// A Connect Four solver: a transposition table of up to [`TABLE_BYTES`](super::TABLE_BYTES) and a
/// node counter, kept from one position to the next (what the table holds stays true).
///
/// [`Solver::solve`] and [`Solver::solve_weak`] always finish; [`Solver::solve_within`] and
/// [`Solver::solve_weak_within`] stop after a node budget or when the
/// [watch](Solver::set_watch) says so, and then answer `None`.
///
/// ```no_run
/// use tictactoe::connect4::{Position, Solver};
/// use tictactoe::solver::Outcome;
///
/// let mut solver = Solver::new();
/// let position: Position = "4453".parse()?;
/// let solution = solver.solve(position);
/// assert_eq!(solution.outcome, Outcome::Win);
/// assert_eq!(solver.solve_weak(position), Outcome::Win);
/// // The empty board, without the book, needs far more than 1,000 nodes.
/// assert_eq!(solver.solve_within(Position::EMPTY, 1_000), None);
/// # Ok::<(), tictactoe::connect4::ParseMovesError>(())
/// ```
pub struct Solver {
    table: Table,
    // Cutoffs made by a stone on each cell (bit index), for move ordering.
    history: [u32; 64],
    book: Option<Book>,
    nodes: u64,
    limits: Limits,
    // Set when the budget or the watch ended the search: no result stands after it.
    aborted: bool,
}

impl Default for Solver {
    fn default() -> Solver {
        Solver::new()
    }
}

impl Solver {
    /// A solver with an empty table and no book.
    #[must_use]
    pub fn new() -> Solver {
        Solver {
            table: Table::new(),
            history: [0; 64],
            book: None,
            nodes: 0,
            limits: Limits::new(),
            aborted: false,
        }
    }

    /// A solver that answers the positions of `book` from it.
    #[must_use]
    pub fn with_book(book: Book) -> Solver {
        Solver {
            book: Some(book),
            ..Solver::new()
        }
    }

    /// Positions searched since the solver was made or reset (calls of the search function,
    /// counted as Pons' solver counts them).
    #[must_use]
    pub const fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The bounds the table holds for positions of at most `max_stones` stones: what an
    /// opening book keeps of a solve (see [`Book::from_bounds`]).
    pub fn proven_bounds(
        &self,
        max_stones: usize,
    ) -> impl Iterator<Item = (Position, i32, i32)> + '_ {
        self.table
            .iter()
            .filter(move |e| e.1 <= max_stones)
            // The stone count's bounds (stored with the first probe) can lie beyond the scores
            // that exist: a book holds scores.
            .filter_map(|(key, _, lower, upper)| {
                Some((
                    Position::from_key(key)?,
                    lower.max(MIN_SCORE),
                    upper.min(MAX_SCORE),
                ))
            })
    }

    /// Empties the table and zeroes the node count.
    pub fn reset(&mut self) {
        self.table.clear();
        self.history = [0; 64];
        self.nodes = 0;
    }

    /// Gives the bounded searches ([`Solver::solve_within`], [`Solver::solve_weak_within`]) a
    /// [`Watch`] (or takes it away with `None`): they call it every
    /// [`WATCH_NODES`](crate::solver::WATCH_NODES) nodes and stop when it answers `false`.
    /// Returns the one it had.
    pub fn set_watch(&mut self, watch: Option<Watch>) -> Option<Watch> {
        self.limits.set_watch(watch)
    }

    /// The score, outcome, value, distance and every best move of `position`.
    pub fn solve(&mut self, position: Position) -> Solution {
        self.bounded(u64::MAX, false, |s| s.solution(position))
            .unwrap_or_else(|| unreachable!("an unlimited search finishes"))
    }

    /// [`Solver::solve`] within `budget` nodes: `None` when the search needs more, or when
    /// the watch stopped it. What the table learnt before stopping stays true.
    pub fn solve_within(&mut self, position: Position, budget: u64) -> Option<Solution> {
        self.bounded(budget, true, |s| s.solution(position))
    }

    /// [`Solver::solve_weak`] within `budget` nodes: `None` as for [`Solver::solve_within`].
    pub fn solve_weak_within(&mut self, position: Position, budget: u64) -> Option<Outcome> {
        self.bounded(budget, true, |s| {
            s.search_window(position, true).map(outcome_of)
        })
    }

    /// `search` under `budget` nodes (and the watch when `poll`), `None` when stopped.
    fn bounded<T>(
        &mut self,
        budget: u64,
        poll: bool,
        search: impl FnOnce(&mut Solver) -> Option<T>,
    ) -> Option<T> {
        self.limits.start(self.nodes, budget, poll);
        self.aborted = false;
        let answer = search(self);
        self.limits.finish();
        let aborted = core::mem::replace(&mut self.aborted, false);
        answer.filter(|_| !aborted)
    }

    fn solution(&mut self, position: Position) -> Option<Solution> {
        let score = self.search_window(position, false)?;
        let mut best_moves = Columns::EMPTY;
        for column in Column::ALL {
            if position.can_play(column) && self.move_keeps(position, column, score)? {
                best_moves = best_moves.with(column);
            }
        }
        let outcome = outcome_of(score);
        let first_to_move = position.moves().is_multiple_of(2);
        let value = match outcome {
            Outcome::Draw => Value::Draw,
            Outcome::Win if first_to_move => Value::XWins,
            Outcome::Loss if !first_to_move => Value::XWins,
            _ => Value::OWins,
        };
        Some(Solution {
            score,
            outcome,
            value,
            distance: distance_of(score, position.moves()),
            best_moves,
        })
    }

    /// The score of `position` alone (see [`Solution::score`]): what the benchmark times.
    pub fn score(&mut self, position: Position) -> i32 {
        self.bounded(u64::MAX, false, |s| s.search_window(position, false))
            .unwrap_or_else(|| unreachable!("an unlimited search finishes"))
    }

    /// Only whether the player to move wins, draws or loses: a search on the window -1..=1,
    /// faster than [`Solver::score`].
    pub fn solve_weak(&mut self, position: Position) -> Outcome {
        self.bounded(u64::MAX, false, |s| s.search_window(position, true))
            .map_or_else(|| unreachable!("an unlimited search finishes"), outcome_of)
    }

    /// Whether playing `column` reaches `score` (the position's score); `None` when stopped.
    fn move_keeps(&mut self, position: Position, column: Column, score: i32) -> Option<bool> {
        if position.is_winning_move(column) {
            return Some(score == (CELLS as i32 + 1 - position.moves() as i32) / 2);
        }
        let Ok(child) = position.play(column) else {
            return Some(false);
        };
        if child.can_win_next() {
            return Some(-((CELLS as i32 + 1 - child.moves() as i32) / 2) == score);
        }
        // The child's score is at most -score exactly when this move keeps the score.
        let r = self.negamax(child, -score, -score + 1);
        (!self.aborted).then_some(r <= -score)
    }

    /// The score of `position` (on the window -1..=1 when `weak`); `None` when stopped.
    fn search_window(&mut self, position: Position, weak: bool) -> Option<i32> {
        let moves = position.moves() as i32;
        if position.is_full() {
            return Some(0);
        }
        if position.can_win_next() {
            return Some((CELLS as i32 + 1 - moves) / 2);
        }
        self.table.fit(CELLS - moves as usize);
        let (mut min, mut max) = if weak {
            (-1, 1)
        } else {
            (-(CELLS as i32 - moves) / 2, (CELLS as i32 + 1 - moves) / 2)
        };
        while min < max {
            // Halve the window, but probe near 0 first: most scores are small, and a probe at
            // half the bound proves a win or a loss with a smaller tree.
            let mut med = min + (max - min) / 2;
            if med <= 0 && min / 2 < med {
                med = min / 2;
            } else if med >= 0 && max / 2 > med {
                med = max / 2;
            }
            let r = self.negamax(position, med, med + 1);
            if self.aborted {
                return None;
            }
            if r <= med {
                max = r;
            } else {
                min = r;
            }
        }
        Some(min)
    }

    /// The score of `position` if it lies in `alpha..beta`; otherwise a bound on the same side
    /// (at most `alpha`, or at least `beta`). The player to move cannot win at once.
    fn negamax(&mut self, position: Position, mut alpha: i32, mut beta: i32) -> i32 {
        debug_assert!(alpha < beta);
        debug_assert!(!position.can_win_next());
        self.nodes += 1;
        if self.limits.reached(self.nodes) && self.limits.check(self.nodes) {
            self.aborted = true;
        }
        if self.aborted {
            return 0;
        }
        let moves = position.moves() as i32;
        let possible = position.non_losing_moves();
        if possible == 0 {
            return -(CELLS as i32 - moves) / 2;
        }
        if moves >= CELLS as i32 - 2 {
            return 0;
        }
        // The opponent cannot win at once, and neither can we.
        let mut lower = -(CELLS as i32 - 2 - moves) / 2;
        let mut upper = (CELLS as i32 - 1 - moves) / 2;
        let key = position.key();
        let mirror = mirror_bits(key);
        let (canonical, flipped) = if mirror < key {
            (mirror, true)
        } else {
            (key, false)
        };
        let mut first = None;
        if let Some(book) = &self.book
            && let Some((low, high)) = book.bounds_of_key(canonical, moves as usize)
        {
            lower = lower.max(low);
            upper = upper.min(high);
        }
        if let Some(entry) = self.table.get(canonical) {
            lower = lower.max(entry.lower);
            upper = upper.min(entry.upper);
            first = entry.best.map(|c| if flipped { 6 - c } else { c } as usize);
        }
        if lower >= beta || lower == upper {
            return lower;
        }
        if upper <= alpha {
            return upper;
        }
        alpha = alpha.max(lower);
        beta = beta.min(upper);

        // Order: the table's best move, then by the winning cells each move makes, then the
        // centre first.
        let mut cells = [0u64; 7];
        let mut columns = [0usize; 7];
        let mut scores = [0u32; 7];
        let mut n = 0;
        for column in ORDER {
            let cell = possible & column_mask(column);
            if cell != 0 {
                let score = if Some(column) == first {
                    u32::MAX
                } else if HISTORY {
                    position.threats_after(cell) << 24
                        | self.history[cell.trailing_zeros() as usize].min(0xff_ffff)
                } else {
                    position.threats_after(cell)
                };
                if ETC && moves <= ETC_MAX_MOVES {
                    let child = position.play_cell(cell);
                    if let Some(entry) = self.table.get(child.canonical_key())
                        && -entry.upper >= beta
                    {
                        return -entry.upper;
                    }
                }
                let mut i = n;
                while i > 0 && scores[i - 1] < score {
                    cells[i] = cells[i - 1];
                    columns[i] = columns[i - 1];
                    scores[i] = scores[i - 1];
                    i -= 1;
                }
                cells[i] = cell;
                columns[i] = column;
                scores[i] = score;
                n += 1;
            }
        }

        let to_canonical = |column: usize| (if flipped { 6 - column } else { column }) as u8;
        let mut best = None;
        for i in 0..n {
            let score = -self.negamax(position.play_cell(cells[i]), -beta, -alpha);
            // A stopped search's scores are no scores: nothing of it goes into the table.
            if self.aborted {
                return 0;
            }
            if score >= beta {
                if HISTORY {
                    let h = &mut self.history[cells[i].trailing_zeros() as usize];
                    *h = h.saturating_add(1 << ((CELLS as i32 - moves) / 3));
                }
                let best = Some(to_canonical(columns[i]));
                self.table
                    .put(canonical, moves as usize, score, upper, best);
                return score;
            }
            if score > alpha {
                alpha = score;
                best = Some(to_canonical(columns[i]));
            }
        }
        if best.is_some() {
            self.table
                .put(canonical, moves as usize, alpha, alpha, best);
        } else {
            self.table
                .put(canonical, moves as usize, lower, alpha, None);
        }
        alpha
    }
}
