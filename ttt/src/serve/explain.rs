//! The 3 × 3 explainer's endpoints: any grid with its validity, status, perfect play and
//! every code bit by bit (`/api/explain`), and the positions the paper's Boolean check gets
//! wrong (`/api/paper`). Everything is the library's: `ttt analyze` and `ttt encode` answer
//! from the same calls.

use std::sync::LazyLock;

use axum::Json;
use axum::extract::RawQuery;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use tictactoe::encoding::{Base3, Base4};
use tictactoe::lab::{self, Check, Paper};
use tictactoe::{Board, Cell, Line, Player, Position, solver};

use super::api::params;
use super::error::ApiError;
use crate::codes::CodesJson;

#[derive(Serialize)]
struct CellCode {
    cell: usize,
    mark: char,
    /// The cell's two bits in the base-4 code: bit `2i` X, bit `2i + 1` O.
    base4_digit: u32,
    /// The cell's base-3 digit: 0 empty, 1 X, 2 O; it adds `digit × 3^i` to the code.
    base3_digit: u32,
    base3_weight: u32,
}

#[derive(Serialize)]
struct CellValue {
    cell: usize,
    value: &'static str,
    /// For the side to move: `win`, `draw`, `loss`.
    result: &'static str,
    distance: u32,
}

#[derive(Serialize)]
struct LineMask {
    /// Index in the library's order: rows top to bottom, columns, diagonals 0-4-8 and 2-4-6.
    line: usize,
    cells: [usize; 3],
    mask: u16,
    x: bool,
    o: bool,
}

#[derive(Serialize)]
struct PaperPattern {
    name: &'static str,
    mask: u16,
    /// Whether the pattern is the three cells of a line (Row 3 is not: it has four bits).
    is_line: bool,
    x: bool,
    o: bool,
}

#[derive(Serialize)]
struct PaperView {
    /// The winner the paper's check names (`X`, `O`, null).
    winner: Option<char>,
    /// Whether that is a right answer for the grid (the library's `lab::agrees`).
    agrees: bool,
    patterns: Vec<PaperPattern>,
}

#[derive(Serialize)]
struct SetCell {
    cell: usize,
    from: char,
    to: char,
    base4_before: u32,
    base4_after: u32,
    base3_before: u16,
    base3_after: u16,
}

#[derive(Serialize)]
struct Explained {
    board: String,
    valid: bool,
    /// Violation codes (`o-started`, `x-went-twice`, `continued-after-win`, ...).
    errors: Vec<&'static str>,
    /// The same, in words.
    violations: Vec<&'static str>,
    status: Option<&'static str>,
    to_move: Option<char>,
    winner: Option<char>,
    value: Option<&'static str>,
    distance: Option<u8>,
    best_moves: Vec<usize>,
    /// Every empty cell's value for the side to move (a valid, ongoing grid).
    cell_values: Vec<CellValue>,
    codes: CodesJson,
    /// The base-4 code's 18 bits, most significant first.
    base4_bits: String,
    /// The base-3 code's 15 bits, most significant first.
    base3_bits: String,
    cell_codes: Vec<CellCode>,
    /// X's and O's 9-bit boards (bit `i` is cell `i`).
    x_bits: u16,
    o_bits: u16,
    line_masks: Vec<LineMask>,
    paper: PaperView,
    /// The codes before and after `set` (when the query has `cell` and `mark`).
    #[serde(skip_serializing_if = "Option::is_none")]
    set: Option<SetCell>,
}

fn mark_char(mark: Option<Player>) -> char {
    mark.map_or('.', Player::to_char)
}

fn explain(board: Board) -> Explained {
    let position = Position::try_from(board).ok();
    let solution = position.map(solver::solve);
    let violations = board.violations();
    let base4 = Base4::from_board(board);
    let base3 = Base3::from_board(board);
    let mut cell_values = Vec::new();
    if let Some(position) = position
        && let Some(mover) = position.to_move()
    {
        for cell in board.empty_cells().iter() {
            let Ok(child) = position.play(cell) else {
                continue;
            };
            let s = solver::solve(child);
            let result = match s.value.winner() {
                Some(winner) if winner == mover => "win",
                Some(_) => "loss",
                None => "draw",
            };
            cell_values.push(CellValue {
                cell: cell.index(),
                value: s.value.as_str(),
                result,
                distance: u32::from(s.distance) + 1,
            });
        }
    }
    let paper_winner = Paper::winner(Paper::prepare(board));
    let (x, o) = (board.x().bits(), board.o().bits());
    Explained {
        board: board.to_string(),
        valid: position.is_some(),
        errors: violations.iter().map(tictactoe::Violation::code).collect(),
        violations: violations
            .iter()
            .map(tictactoe::Violation::message)
            .collect(),
        status: position.map(|p| p.status().as_str()),
        to_move: position.and_then(Position::to_move).map(Player::to_char),
        winner: position.and_then(Position::winner).map(Player::to_char),
        value: solution.map(|s| s.value.as_str()),
        distance: solution.map(|s| s.distance),
        best_moves: solution
            .map_or_else(Vec::new, |s| s.best_moves.iter().map(Cell::index).collect()),
        cell_values,
        codes: CodesJson::of(board),
        base4_bits: format!("{:018b}", base4.code()),
        base3_bits: format!("{:015b}", base3.code()),
        cell_codes: (0..9u8)
            .filter_map(|i| Cell::new(i).ok())
            .map(|cell| {
                let i = u32::from(cell.index() as u8);
                CellCode {
                    cell: cell.index(),
                    mark: mark_char(board.at(cell)),
                    base4_digit: (base4.code() >> (2 * i)) & 0b11,
                    base3_digit: match base3.cell(cell) {
                        None => 0,
                        Some(Player::X) => 1,
                        Some(Player::O) => 2,
                    },
                    base3_weight: 3u32.pow(i),
                }
            })
            .collect(),
        x_bits: x,
        o_bits: o,
        line_masks: Line::ALL
            .iter()
            .map(|line| {
                let mask = line.cells().bits();
                LineMask {
                    line: line.index(),
                    cells: line.to_cells().map(Cell::index),
                    mask,
                    x: x & mask == mask,
                    o: o & mask == mask,
                }
            })
            .collect(),
        paper: PaperView {
            winner: paper_winner.map(Player::to_char),
            agrees: lab::agrees(board, paper_winner),
            patterns: lab::paper::PATTERNS
                .iter()
                .map(|&(name, mask)| PaperPattern {
                    name,
                    mask,
                    is_line: Line::ALL.iter().any(|l| l.cells().bits() == mask),
                    x: x & mask == mask,
                    o: o & mask == mask,
                })
                .collect(),
        },
        set: None,
    }
}

const EXPLAIN_KEYS: &[&str] = &["board", "cell", "mark"];

/// `GET /api/explain?board=&cell=&mark=`: everything about one grid; with `cell` and `mark`
/// the grid after setting that cell, through the encodings' own `with`.
pub async fn explain_grid(RawQuery(raw): RawQuery) -> Result<Response, ApiError> {
    let params = params(raw.as_deref(), EXPLAIN_KEYS)?;
    let text = params.get("board").unwrap_or(".........");
    let board: Board = text
        .parse()
        .map_err(|e| ApiError::bad("bad-board", format!("board {text:?}: {e}")))?;
    let set = match (params.get("cell"), params.get("mark")) {
        (None, None) => None,
        (Some(cell), Some(mark)) => {
            let cell = cell
                .parse::<u8>()
                .ok()
                .and_then(|i| Cell::new(i).ok())
                .ok_or_else(|| {
                    ApiError::bad("bad-cell", format!("cell {cell:?}: expected 0 to 8"))
                })?;
            let to = match mark {
                "X" | "x" => Some(Player::X),
                "O" | "o" => Some(Player::O),
                "." | "" => None,
                other => {
                    return Err(ApiError::bad(
                        "bad-mark",
                        format!("mark {other:?}: expected X, O or ."),
                    ));
                }
            };
            Some((cell, to))
        }
        _ => {
            return Err(ApiError::bad(
                "bad-query",
                "cell and mark go together: give both or neither",
            ));
        }
    };
    let Some((cell, to)) = set else {
        return Ok(Json(explain(board)).into_response());
    };
    let (base4, base3) = (Base4::from_board(board), Base3::from_board(board));
    let (base4_after, base3_after) = (base4.with(cell, to), base3.with(cell, to));
    let after = base4_after.to_board();
    let mut explained = explain(after);
    explained.set = Some(SetCell {
        cell: cell.index(),
        from: mark_char(board.at(cell)),
        to: mark_char(to),
        base4_before: base4.code(),
        base4_after: base4_after.code(),
        base3_before: base3.code(),
        base3_after: base3_after.code(),
    });
    Ok(Json(explained).into_response())
}

#[derive(Serialize)]
struct Wrong {
    board: String,
    status: &'static str,
    /// The paper's answer: `X`, `O` or null (no winner).
    paper_winner: Option<char>,
}

#[derive(Serialize)]
struct PaperReport {
    /// Reachable positions, all checked.
    positions: usize,
    /// The ones the printed method answers wrongly, in base-3 order.
    wrong: Vec<Wrong>,
}

static PAPER: LazyLock<PaperReport> = LazyLock::new(|| {
    let mut positions = 0;
    let mut wrong = Vec::new();
    for position in Position::all() {
        positions += 1;
        let board = position.board();
        let winner = Paper::winner(Paper::prepare(board));
        if !lab::agrees(board, winner) {
            wrong.push(Wrong {
                board: board.to_string(),
                status: position.status().as_str(),
                paper_winner: winner.map(Player::to_char),
            });
        }
    }
    PaperReport { positions, wrong }
});

/// `GET /api/paper`: the reachable positions where the paper's Boolean check is wrong.
pub async fn paper(RawQuery(raw): RawQuery) -> Result<Response, ApiError> {
    params(raw.as_deref(), &[])?;
    Ok(Json(&*PAPER).into_response())
}

#[cfg(test)]
mod tests {
    use super::*;
    use tictactoe::Status;

    #[test]
    fn the_paper_is_wrong_on_95_positions_all_top_row_wins() {
        assert_eq!(PAPER.positions, 5478);
        assert_eq!(PAPER.wrong.len(), 95);
        for wrong in &PAPER.wrong {
            let board: Board = wrong.board.parse().unwrap();
            assert!(lab::paper::misses(board), "{}", wrong.board);
            assert_ne!(wrong.status, Status::Ongoing.as_str());
        }
    }
}
