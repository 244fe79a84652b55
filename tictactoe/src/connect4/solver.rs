//! The search: negamax with alpha-beta on null windows, the two-bound table, the book.

use alloc::vec::Vec;

use super::book::Book;
use super::position::{
    CELLS, Column, Columns, MAX_SCORE, MIN_SCORE, Position, column_mask, mirror_bits,
};
use super::table::Table;
use crate::solver::{Limits, Outcome, Value, Watch};

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
/// ```no_run
/// use tictactoe::connect4::{Position, Solver};
/// use tictactoe::solver::Outcome;
///
/// let mut solver = Solver::new();
/// let position: Position = "4453".parse()?;
/// let solution = solver.solve(position);
/// assert_eq!(solution.outcome, Outcome::Win);
/// assert_eq!(solver.solve_weak(position), Outcome::Win);
/// # Ok::<(), tictactoe::connect4::ParseMovesError>(())
/// ```
pub struct Solver {
    table: Table,
    // Cutoffs made by a stone on each cell (bit index), for move ordering.
    history: [u32; 64],
    book: Option<Book>,
    nodes: u64,
    limits: Limits,
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
            limits: Limits::none(),
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

    /// The score, outcome, value, distance and every best move of `position`.
    pub fn solve(&mut self, position: Position) -> Solution {
        let score = self.score(position);
        let mut best_moves = Columns::EMPTY;
        for column in Column::ALL {
            if self.limits.aborted {
                break;
            }
            if position.can_play(column) && self.move_keeps(position, column, score) {
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
        Solution {
            score,
            outcome,
            value,
            distance: distance_of(score, position.moves()),
            best_moves,
        }
    }

    /// [`Solver::solve`] within `budget` nodes: `None` when the search needs more, or when
    /// the [`Watch`] stops it. What the table holds after a stop stays true.
    pub fn solve_within(&mut self, position: Position, budget: u64) -> Option<Solution> {
        self.limits.start(self.nodes, budget);
        let solution = self.solve(position);
        (!self.limits.finish()).then_some(solution)
    }

    /// [`Solver::solve_weak`] within `budget` nodes: `None` when the search needs more, or
    /// when the [`Watch`] stops it.
    pub fn solve_weak_within(&mut self, position: Position, budget: u64) -> Option<Outcome> {
        self.limits.start(self.nodes, budget);
        let outcome = self.solve_weak(position);
        (!self.limits.finish()).then_some(outcome)
    }

    /// Gives the searches of [`Solver::solve_within`] and [`Solver::solve_weak_within`] a
    /// [`Watch`] (or takes it away with `None`), and returns the one it had.
    pub fn set_watch(&mut self, watch: Option<Watch>) -> Option<Watch> {
        core::mem::replace(&mut self.limits.watch.0, watch)
    }

    /// The score of `position` alone (see [`Solution::score`]): what the benchmark times.
    pub fn score(&mut self, position: Position) -> i32 {
        self.search_window(position, false)
    }

    /// Only whether the player to move wins, draws or loses: a search on the window -1..=1,
    /// faster than [`Solver::score`].
    pub fn solve_weak(&mut self, position: Position) -> Outcome {
        outcome_of(self.search_window(position, true))
    }

    /// A move of perfect play at `position`, `None` when no column is free: a move that
    /// wins at once; else the only move that does not lose at once, if there is one; else a
    /// move that keeps a win, else one that keeps a draw, else (a lost position) the first
    /// column from the centre out that does not lose at once, or any free column.
    ///
    /// It needs only whether each move wins, draws or loses, never a score: a move whose
    /// position is proven lost for the opponent (by the book, the table, or a search on the
    /// null window just below 0) keeps the win, and in a finite game a side that always keeps
    /// the win wins; failing that, one proven at most a draw for the opponent (the null window
    /// just above 0) keeps the draw. The moves are tried with what the book and the table
    /// already prove first, then the table's best move, then by the threats they make, centre
    /// first; the first that keeps the value is played, so a win is kept, not necessarily the
    /// fastest. The table stays, so a game's later moves find the earlier searches in it.
    ///
    /// ```no_run
    /// use tictactoe::connect4::{Book, Column, Position, Solver};
    ///
    /// let mut solver = Solver::with_book(Book::shipped());
    /// // At `444441` only columns 3 and 5 keep the first player's win.
    /// let column = solver.perfect_move("444441".parse()?).unwrap();
    /// assert!(column == Column::new(2).unwrap() || column == Column::new(4).unwrap());
    /// # Ok::<(), tictactoe::connect4::ParseMovesError>(())
    /// ```
    pub fn perfect_move(&mut self, position: Position) -> Option<Column> {
        let free: Vec<Column> = ORDER
            .into_iter()
            .filter_map(Column::new)
            .filter(|&c| position.can_play(c))
            .collect();
        let first = *free.first()?;
        if let Some(&win) = free.iter().find(|&&c| position.is_winning_move(c)) {
            return Some(win);
        }
        let possible = position.non_losing_moves();
        let safe: Vec<(Column, Position)> = free
            .iter()
            .filter(|&&c| possible & column_mask(c.index()) != 0)
            .filter_map(|&c| Some((c, position.play(c).ok()?)))
            .collect();
        match safe.len() {
            0 => return Some(first),
            1 => return Some(safe[0].0),
            _ => {}
        }
        // What the book and the table prove of each move's position, for the opponent.
        let known: Vec<(i32, i32)> = safe.iter().map(|&(_, child)| self.known(child)).collect();
        if let Some(i) = known.iter().position(|&(_, upper)| upper < 0) {
            return Some(safe[i].0);
        }
        // And of the position itself: a proven loss needs no search, a proven draw at most no
        // search for a win.
        let (lower, upper) = self.known(position);
        if upper < 0 {
            return Some(safe[0].0);
        }
        // The table's best move first, then by the threats a move makes (centre first among
        // equals: the sort is stable).
        let key = position.key();
        let mirror = mirror_bits(key);
        let best = self
            .table
            .get(key.min(mirror))
            .and_then(|e| e.best)
            .map(|c| if mirror < key { 6 - c } else { c } as usize);
        let mut order: Vec<usize> = (0..safe.len()).collect();
        order.sort_by_key(|&i| {
            let column = safe[i].0.index();
            let cell = possible & column_mask(column);
            (
                Some(column) != best,
                core::cmp::Reverse(position.threats_after(cell)),
            )
        });
        self.table.fit(CELLS - position.moves());
        // A win: the opponent's position below 0 (null window -1..0).
        for &i in &order {
            let (column, child) = safe[i];
            if upper > 0 && known[i].0 < 0 && self.negamax(child, -1, 0) < 0 {
                return Some(column);
            }
        }
        // A draw: the opponent's position at most 0 (null window 0..1).
        if lower <= 0 {
            if let Some(&i) = order.iter().find(|&&i| known[i].1 <= 0) {
                return Some(safe[i].0);
            }
            for &i in &order {
                let (column, child) = safe[i];
                if known[i].0 <= 0 && self.negamax(child, 0, 1) <= 0 {
                    return Some(column);
                }
            }
        }
        Some(safe[0].0)
    }

    /// The bounds the book and the table hold for `position`'s score (the widest when they
    /// hold nothing).
    fn known(&self, position: Position) -> (i32, i32) {
        let (mut lower, mut upper) = (MIN_SCORE, MAX_SCORE);
        let canonical = position.canonical_key();
        if let Some(book) = &self.book
            && let Some((low, high)) = book.bounds_of_key(canonical, position.moves())
        {
            lower = lower.max(low);
            upper = upper.min(high);
        }
        if let Some(entry) = self.table.get(canonical) {
            lower = lower.max(entry.lower);
            upper = upper.min(entry.upper);
        }
        (lower, upper)
    }

    /// Whether playing `column` reaches `score` (the position's score).
    fn move_keeps(&mut self, position: Position, column: Column, score: i32) -> bool {
        if position.is_winning_move(column) {
            return score == (CELLS as i32 + 1 - position.moves() as i32) / 2;
        }
        let Ok(child) = position.play(column) else {
            return false;
        };
        if child.can_win_next() {
            return -((CELLS as i32 + 1 - child.moves() as i32) / 2) == score;
        }
        // The child's score is at most -score exactly when this move keeps the score.
        self.negamax(child, -score, -score + 1) <= -score
    }

    fn search_window(&mut self, position: Position, weak: bool) -> i32 {
        let moves = position.moves() as i32;
        if position.is_full() {
            return 0;
        }
        if position.can_win_next() {
            return (CELLS as i32 + 1 - moves) / 2;
        }
        self.table.fit(CELLS - moves as usize);
        let (mut min, mut max) = if weak {
            (-1, 1)
        } else {
            (-(CELLS as i32 - moves) / 2, (CELLS as i32 + 1 - moves) / 2)
        };
        while min < max && !self.limits.aborted {
            // Halve the window, but probe near 0 first: most scores are small, and a probe at
            // half the bound proves a win or a loss with a smaller tree.
            let mut med = min + (max - min) / 2;
            if med <= 0 && min / 2 < med {
                med = min / 2;
            } else if med >= 0 && max / 2 > med {
                med = max / 2;
            }
            let r = self.negamax(position, med, med + 1);
            if r <= med {
                max = r;
            } else {
                min = r;
            }
        }
        min
    }

    /// The score of `position` if it lies in `alpha..beta`; otherwise a bound on the same side
    /// (at most `alpha`, or at least `beta`). The player to move cannot win at once.
    fn negamax(&mut self, position: Position, mut alpha: i32, mut beta: i32) -> i32 {
        debug_assert!(alpha < beta);
        debug_assert!(!position.can_win_next());
        self.nodes += 1;
        if self.nodes > self.limits.check_at {
            self.limits.check(self.nodes);
            if self.limits.aborted {
                return 0;
            }
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
            // A stopped search's scores mean nothing: none of them reaches the table.
            if self.limits.aborted {
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
