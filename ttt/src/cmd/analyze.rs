//! `ttt analyze`: validity, status, lines and codes of each board, streamed.
//!
//! The JSON report is one derived struct, [`Report`]: serde writes fields in declaration order,
//! so a new key is a new field and one line in [`Report::of`].

use std::io::Write;
use std::process::ExitCode;

use serde::{Serialize, Serializer};
use tictactoe::encoding::{Base3, Base4, Canonical, CountRank, Rank};
use tictactoe::{Board, Line, Player, Position, Status, Violations, solver};

use crate::codes::{Codes, CodesJson, Text, impossible_counts};
use crate::draw::Drawing;
use crate::input::{self, Outcome};
use crate::output::{self, Out};

/// Analyze boards: validity (every rule broken), status, whose turn, complete lines and codes.
///
/// With no BOARD, reads one board per line from standard input and streams the answers, so it
/// runs over millions of lines in bounded memory. A line that is not a board is reported and
/// the run goes on; the exit status is then non-zero. With --game, each input is a position of
/// that game in any form `ttt solve` takes: a board, moves, or `-` for the empty board (no
/// perfect play and no codes there: `ttt solve --game` solves them). With --game ultimate,
/// each input is an ultimate position (81 cells row by row, then the board to play 0-8 or `*`),
/// moves from the empty board (`4:4 4:0`), or `-`; the answer is the position drawn, its
/// validity, status, every small board's status, the meta-board and the legal moves.
#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  ttt analyze X.O..O.X.
  ttt analyze XXX/OO./... XXX...OOO --json
  ttt analyze --json < boards.txt > reports.jsonl
  ttt analyze --game connect-four ......./......./......./......./...O.../...X...
  ttt analyze --game connect-four 4455 10,3
  ttt analyze --game gomoku h8,h9,i8
  ttt analyze --game ultimate 4:4,4:0,0:4")]
pub struct Args {
    /// Boards: nine cells X, O or `.` in row-major order, `/` allowed between rows
    /// (`X.O/..O/.X.`); with --game, positions of that game (boards or moves). With none, one
    /// per line is read from standard input.
    #[arg(value_name = "BOARD")]
    boards: Vec<std::ffi::OsString>,
    /// Print one JSON object per board, one per line.
    #[arg(long)]
    json: bool,
    /// A game of the k-in-a-row family instead of the 3x3 core (boards as rows top to bottom
    /// separated by `/`, or moves): tic-tac-toe, 4x4, connect-four, gomoku, or ROWS,COLS,K
    /// with an optional ,gravity (e.g. 6,7,4,gravity); or ultimate (ultimate tic-tac-toe).
    #[arg(long, value_name = "SPEC", value_parser = crate::ultimate::parse_spec)]
    game: Option<crate::ultimate::Spec>,
}

/// One line of `analyze --json`; keys in this order.
#[derive(Serialize)]
struct Report {
    board: Text,
    valid: bool,
    /// Violation codes: `o-started`, `x-went-twice`, `continued-after-win`.
    errors: ViolationCodes,
    /// `ongoing`, `x-won`, `o-won`, `draw`; null when invalid.
    status: Option<&'static str>,
    /// Null when finished or invalid.
    to_move: Option<char>,
    /// Null when nobody won or the board is invalid.
    winner: Option<char>,
    /// Every complete line (either player) as ascending cells.
    lines: Lines,
    /// The result under perfect play: `x-wins`, `o-wins`, `draw`; null when invalid.
    value: Option<&'static str>,
    /// Plies to the end under perfect play (0 when finished); null when invalid.
    distance: Option<u8>,
    /// Every move that keeps the value and the distance, ascending; empty when finished or
    /// invalid.
    best_moves: Vec<usize>,
    codes: CodesJson,
}

impl Report {
    fn of(board: Board) -> Report {
        let position = Position::try_from(board).ok();
        let status = position.map(Position::status);
        let solution = position.map(solver::solve);
        Report {
            board: Text(board),
            valid: position.is_some(),
            errors: ViolationCodes(board.violations()),
            status: status.map(Status::as_str),
            to_move: position.and_then(Position::to_move).map(Player::to_char),
            winner: position.and_then(Position::winner).map(Player::to_char),
            lines: Lines(board),
            value: solution.map(|s| s.value.as_str()),
            distance: solution.map(|s| s.distance),
            best_moves: solution.map_or_else(Vec::new, |s| {
                s.best_moves.iter().map(tictactoe::Cell::index).collect()
            }),
            codes: CodesJson::of(board),
        }
    }
}

/// Serializes as the list of violation codes, in reporting order.
struct ViolationCodes(Violations);

impl Serialize for ViolationCodes {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(tictactoe::Violation::code))
    }
}

/// Serializes as the complete lines of a board, each as its three cells ascending.
struct Lines(Board);

fn cells(line: Line) -> [usize; 3] {
    line.to_cells().map(tictactoe::Cell::index)
}

impl Serialize for Lines {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.lines().map(cells))
    }
}

/// Answers computed one by one before the answers of every grid are made at once: a few boards
/// do not pay for 19,683, a stream of them does.
const PRECOMPUTE_AFTER: u32 = 2048;

/// The answer to every grid, indexed by its base-3 code: the state space is small enough that a
/// long stream is answered by copying bytes (the same bytes the answer is computed as).
struct Answers {
    bytes: Vec<u8>,
    /// `starts[code]..starts[code + 1]` is the answer to the grid of base-3 code `code`.
    starts: Vec<usize>,
}

impl Answers {
    fn build(json: bool) -> anyhow::Result<Answers> {
        let grids = Base3::COUNT;
        let mut answers = Answers {
            bytes: Vec::with_capacity(19_683 * if json { 300 } else { 400 }),
            starts: Vec::with_capacity(19_683 + 1),
        };
        answers.starts.push(0);
        for code in 0..grids {
            let board = Base3::try_from_code(code)?.to_board();
            answer(&mut answers.bytes, board, json)?;
            answers.starts.push(answers.bytes.len());
        }
        Ok(answers)
    }

    fn get(&self, board: Board) -> &[u8] {
        let code = usize::from(Base3::from_board(board).code());
        &self.bytes[self.starts[code]..self.starts[code + 1]]
    }
}

/// Writes the answer to one board.
fn answer(out: &mut impl Write, board: Board, json: bool) -> anyhow::Result<()> {
    if json {
        serde_json::to_writer(&mut *out, &Report::of(board)).map_err(std::io::Error::from)?;
        out.write_all(b"\n")?;
        Ok(())
    } else {
        write_for_people(out, board)
    }
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    match args.game {
        Some(crate::ultimate::Spec::Family(rules)) => {
            return crate::family::analyze::run(rules, &args.boards, args.json);
        }
        Some(crate::ultimate::Spec::Ultimate) => {
            return crate::ultimate::analyze::run(&args.boards, args.json);
        }
        None => {}
    }
    let (mut computed, mut answers) = (0u32, None::<Answers>);
    input::answer_each_board(&args.boards, args.json, |board, out: &mut Out| {
        match &answers {
            Some(answers) => out.write_all(answers.get(board))?,
            None => {
                answer(out, board, args.json)?;
                computed += 1;
                if computed == PRECOMPUTE_AFTER {
                    answers = Some(Answers::build(args.json)?);
                }
            }
        }
        Ok(Outcome::Answered)
    })
}

/// The status in words.
fn describe(position: Position) -> String {
    match position.status() {
        Status::Ongoing => format!("ongoing, {} to move", position.side_to_move()),
        status @ Status::Won(player) => format!("{status}, {player} has a line: game over"),
        Status::Draw => "draw, the board is full and no one has a line".to_owned(),
    }
}

fn write_for_people(out: &mut impl Write, board: Board) -> anyhow::Result<()> {
    writeln!(out, "{board}")?;
    writeln!(out, "{}", Drawing::with_lines(board).indented("  "))?;
    match Position::try_from(board) {
        Ok(position) => {
            writeln!(out, "status    {}", describe(position))?;
            let solution = solver::solve(position);
            write!(
                out,
                "perfect   {} in {} plies",
                solution.value.as_str(),
                solution.distance
            )?;
            let best: Vec<String> = solution.best_moves.iter().map(|c| c.to_string()).collect();
            if best.is_empty() {
                writeln!(out)?;
            } else {
                writeln!(out, "; best moves {}", best.join(", "))?;
            }
        }
        Err(invalid) => {
            writeln!(out, "status    invalid: not a reachable position")?;
            for violation in invalid.violations.iter() {
                writeln!(out, "why       {}: {violation}", violation.code())?;
            }
        }
    }
    write!(out, "lines     ")?;
    let mut any = false;
    for line in board.lines() {
        let [a, b, c] = cells(line);
        let owner = if board.x().is_superset(line.cells()) {
            Player::X
        } else {
            Player::O
        };
        let comma = if any { ", " } else { "" };
        write!(out, "{comma}{a}-{b}-{c} ({owner})")?;
        any = true;
    }
    writeln!(out, "{}", if any { "" } else { "none" })?;
    write_codes(out, board)?;
    writeln!(out)?;
    Ok(())
}

fn write_codes(out: &mut impl Write, board: Board) -> anyhow::Result<()> {
    use std::fmt::Write as _;
    let codes = Codes::of(board);
    // One line, wrapped to the width of text output.
    let mut line = String::with_capacity(128);
    write!(
        line,
        "codes     {} {}, {} {}, ",
        Base4::KIND.name(),
        codes.base4.code(),
        Base3::KIND.name(),
        codes.base3.code()
    )?;
    match codes.count_rank {
        Some(code) => write!(line, "{} {}, ", CountRank::KIND.name(), code.code())?,
        None => write!(
            line,
            "{} - ({}), ",
            CountRank::KIND.name(),
            impossible_counts(board)
        )?,
    }
    match (codes.rank(), codes.canonical(), codes.symmetry()) {
        (Some(rank), Some(canonical), Some(symmetry)) => write!(
            line,
            "{} {rank}, {} {canonical} (symmetry {symmetry})",
            Rank::KIND.name(),
            Canonical::KIND.name()
        )?,
        _ => write!(
            line,
            "{} -, {} - (invalid board)",
            Rank::KIND.name(),
            Canonical::KIND.name()
        )?,
    }
    writeln!(out, "{}", output::wrap(&line, "          "))?;
    Ok(())
}
