//! Boards drawn for people: a 3x3 grid in plain ASCII, with chosen cells bracketed.
//!
//! ```text
//! [X]|[X]|[X]
//! ---+---+---
//!  . | O | .
//! ---+---+---
//!  O | . | .
//! ```
//!
//! Empty cells are `.` as in the 9-character form, so what is drawn reads back the same way.

use std::fmt;

use tictactoe::{Bitboard, Board, Cell};

/// A board to draw, and the cells to bracket (the cells of complete lines, say).
#[derive(Clone, Copy, Debug)]
pub struct Drawing {
    board: Board,
    marked: Bitboard,
    indent: &'static str,
}

impl Drawing {
    /// The plain board.
    #[must_use]
    pub const fn new(board: Board) -> Drawing {
        Drawing {
            board,
            marked: Bitboard::EMPTY,
            indent: "",
        }
    }

    /// The board with every cell of a complete line bracketed.
    #[must_use]
    pub fn with_lines(board: Board) -> Drawing {
        let marked = board
            .lines()
            .fold(Bitboard::EMPTY, |cells, line| cells | line.cells());
        Drawing {
            marked,
            ..Drawing::new(board)
        }
    }

    /// The same drawing with every row starting with `indent`.
    #[must_use]
    pub const fn indented(self, indent: &'static str) -> Drawing {
        Drawing { indent, ..self }
    }
}

/// Five rows separated by newlines, without a trailing newline.
impl fmt::Display for Drawing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for cell in Cell::ALL {
            match (cell.row(), cell.column()) {
                (0, 0) => f.write_str(self.indent)?,
                (_, 0) => write!(f, "\n{0}---+---+---\n{0}", self.indent)?,
                _ => f.write_str("|")?,
            }
            let mark = match self.board.at(cell) {
                Some(player) => player.to_char(),
                None => '.',
            };
            if self.marked.contains(cell) {
                write!(f, "[{mark}]")?;
            } else if cell.column() == 2 {
                // No trailing space at the end of a row.
                write!(f, " {mark}")?;
            } else {
                write!(f, " {mark} ")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_rows_top_to_bottom() {
        let board: Board = "X.O/..O/.X.".parse().unwrap();
        assert_eq!(
            Drawing::new(board).to_string(),
            " X | . | O\n---+---+---\n . | . | O\n---+---+---\n . | X | ."
        );
    }

    #[test]
    fn brackets_the_cells_of_lines_and_indents() {
        let board: Board = "XXX/OO./...".parse().unwrap();
        let drawn = Drawing::with_lines(board).indented("  ").to_string();
        let rows: Vec<&str> = drawn.lines().collect();
        assert_eq!(
            rows,
            [
                "  [X]|[X]|[X]",
                "  ---+---+---",
                "   O | O | .",
                "  ---+---+---",
                "   . | . | ."
            ]
        );
    }

    #[test]
    fn every_grid_reads_back_from_its_drawing() {
        for board in Board::all() {
            let drawn = Drawing::new(board).to_string();
            let cells: String = drawn
                .chars()
                .filter(|c| matches!(c, 'X' | 'O' | '.'))
                .collect();
            assert_eq!(cells, board.to_string());
        }
    }
}
