//! The slow, obviously correct twins of the k-in-a-row family engine ([`crate::mnk`]): a plain
//! grid of marks, lines found by walking every cell in every direction, reachability by taking
//! moves back one at a time; and the solver's score by plain negamax ([`plain_score`]). Tests
//! compare the bitboard engine and [`Solver`](crate::mnk::solver::Solver) with them.

use alloc::collections::BTreeSet;
use alloc::string::String;
use alloc::vec::Vec;

use crate::mnk::{Position, Rules, Square};
use crate::solver::Value;
use crate::{Player, Status};

/// The four directions as (row step, column step): right, down, down-right, down-left.
const STEPS: [(i32, i32); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];

/// A grid of marks, row 0 at the top.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Grid {
    /// The rules.
    pub rules: Rules,
    /// The marks, `cells[row][col]`.
    pub cells: Vec<Vec<Option<Player>>>,
}

impl Grid {
    /// The empty grid.
    #[must_use]
    pub fn empty(rules: Rules) -> Grid {
        Grid {
            rules,
            cells: (0..rules.rows())
                .map(|_| (0..rules.cols()).map(|_| None).collect())
                .collect(),
        }
    }

    /// The grid of a text of `X`, `O`, `.` in row order, `/` ignored; `None` for other
    /// characters or the wrong number of cells.
    #[must_use]
    pub fn parse(rules: Rules, text: &str) -> Option<Grid> {
        let marks: Vec<Option<Player>> = text
            .chars()
            .filter(|&c| c != '/')
            .map(|c| match c {
                'X' | 'x' => Some(Some(Player::X)),
                'O' | 'o' => Some(Some(Player::O)),
                '.' => Some(None),
                _ => None,
            })
            .collect::<Option<_>>()?;
        if marks.len() != rules.cells() as usize {
            return None;
        }
        let cols = rules.cols() as usize;
        Some(Grid {
            rules,
            cells: marks.chunks(cols).map(<[_]>::to_vec).collect(),
        })
    }

    /// The text form, rows separated by `/`.
    #[must_use]
    pub fn text(&self) -> String {
        let rows: Vec<String> = self
            .cells
            .iter()
            .map(|row| row.iter().map(|m| m.map_or('.', Player::to_char)).collect())
            .collect();
        rows.join("/")
    }

    fn get(&self, row: i32, col: i32) -> Option<Player> {
        if row < 0 || col < 0 {
            return None;
        }
        *self.cells.get(row as usize)?.get(col as usize)?
    }

    /// Marks of `player`.
    #[must_use]
    pub fn count(&self, player: Player) -> usize {
        self.cells
            .iter()
            .flatten()
            .filter(|&&m| m == Some(player))
            .count()
    }

    /// Every maximal run of `k` or more of `player`'s marks, as its cells sorted.
    #[must_use]
    pub fn lines(&self, player: Player) -> BTreeSet<Vec<Square>> {
        let mut lines = BTreeSet::new();
        let k = self.rules.k() as usize;
        for row in 0..self.rules.rows() as i32 {
            for col in 0..self.rules.cols() as i32 {
                for (dr, dc) in STEPS {
                    if self.get(row, col) != Some(player)
                        || self.get(row - dr, col - dc) == Some(player)
                    {
                        continue;
                    }
                    let mut run = Vec::new();
                    let (mut r, mut c) = (row, col);
                    while self.get(r, c) == Some(player) {
                        run.push(Square::new(r as u8, c as u8));
                        r += dr;
                        c += dc;
                    }
                    if run.len() >= k {
                        run.sort_unstable();
                        lines.insert(run);
                    }
                }
            }
        }
        lines
    }

    /// Whether `player` has a line of `k` or more.
    #[must_use]
    pub fn has_line(&self, player: Player) -> bool {
        !self.lines(player).is_empty()
    }

    /// Whether a line of `k` or more of the mark at `square` goes through it.
    #[must_use]
    pub fn line_through(&self, square: Square) -> bool {
        let (row, col) = (square.row() as i32, square.col() as i32);
        let Some(player) = self.get(row, col) else {
            return false;
        };
        STEPS.iter().any(|&(dr, dc)| {
            let mut n = 1;
            for sign in [1, -1] {
                let (mut r, mut c) = (row + sign * dr, col + sign * dc);
                while self.get(r, c) == Some(player) {
                    n += 1;
                    r += sign * dr;
                    c += sign * dc;
                }
            }
            n >= self.rules.k()
        })
    }

    /// The status, reading the grid as a finished or ongoing game (both lines: `None`).
    #[must_use]
    pub fn status(&self) -> Option<Status> {
        match (self.has_line(Player::X), self.has_line(Player::O)) {
            (true, true) => None,
            (true, false) => Some(Status::Won(Player::X)),
            (false, true) => Some(Status::Won(Player::O)),
            (false, false) => Some(if self.cells.iter().flatten().all(Option::is_some) {
                Status::Draw
            } else {
                Status::Ongoing
            }),
        }
    }

    /// The legal moves of the grid as an ongoing game: empty cells, or with gravity the
    /// columns with an empty cell.
    #[must_use]
    pub fn legal_actions(&self) -> Vec<usize> {
        if self.status() != Some(Status::Ongoing) {
            return Vec::new();
        }
        let cols = self.rules.cols() as usize;
        if self.rules.gravity() {
            (0..cols).filter(|&c| self.cells[0][c].is_none()).collect()
        } else {
            (0..self.rules.cells() as usize)
                .filter(|&i| self.cells[i / cols][i % cols].is_none())
                .collect()
        }
    }

    /// Whether a legal game reaches the grid, by the definition: the empty grid is reached;
    /// any other is reached when the counts name a last mover and taking back one of that
    /// player's marks (with gravity, one on top of its column) leaves a grid with no line
    /// that is reached. `memo` remembers grids already decided.
    pub fn reachable(&self, memo: &mut alloc::collections::BTreeMap<String, bool>) -> bool {
        let (xs, os) = (self.count(Player::X), self.count(Player::O));
        if xs + os == 0 {
            return true;
        }
        let last = if xs == os + 1 {
            Player::X
        } else if xs == os {
            Player::O
        } else {
            return false;
        };
        let text = self.text();
        if let Some(&known) = memo.get(&text) {
            return known;
        }
        let mut found = false;
        'cells: for row in 0..self.rules.rows() as usize {
            for col in 0..self.rules.cols() as usize {
                if self.cells[row][col] != Some(last) {
                    continue;
                }
                if self.rules.gravity() && row > 0 && self.cells[row - 1][col].is_some() {
                    continue;
                }
                let mut before = self.clone();
                before.cells[row][col] = None;
                if before.has_line(Player::X) || before.has_line(Player::O) {
                    continue;
                }
                if self.rules.gravity()
                    && (row + 1..self.rules.rows() as usize).any(|r| self.cells[r][col].is_none())
                {
                    continue;
                }
                if before.reachable(memo) {
                    found = true;
                    break 'cells;
                }
            }
        }
        memo.insert(text, found);
        found
    }
}

/// The slow twin of [`Solver`](crate::mnk::solver::Solver): the exact score of `position` for the side to move (see
/// [`solver`](crate::mnk::solver)) by plain negamax over every move, without a table, symmetry, bounds
/// or pruning. Only for boards small enough to finish.
#[must_use]
pub fn plain_score<const W: usize>(position: &Position<W>) -> i32 {
    let cells = position.rules().cells() as i32;
    match position.status() {
        Status::Draw => return 0,
        Status::Won(_) => return -(cells + 1 - position.plies() as i32),
        Status::Ongoing => {}
    }
    let mut p = *position;
    let mut best = i32::MIN;
    for bit in position.playable().iter() {
        p.play_bit(bit);
        best = best.max(-plain_score(&p));
        p.undo_bit(bit);
    }
    best
}

/// The value and distance of a score given by [`plain_score`] for `position`'s side to move.
#[must_use]
pub fn describe_score<const W: usize>(position: &Position<W>, score: i32) -> (Value, u32) {
    let (value, _, distance) = crate::mnk::solver::describe(
        score,
        position.side_to_move(),
        position.rules().cells() as i32,
        position.plies(),
    );
    (value, distance)
}
