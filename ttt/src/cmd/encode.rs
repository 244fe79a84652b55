//! `ttt encode`: every code of each board, and why an encoding cannot hold it.

use std::io::Write;
use std::process::ExitCode;

use serde::{Serialize, Serializer};
use tictactoe::encoding::{Base3, Base4, Bitboards, Canonical, CountRank, Oriented, Rank};
use tictactoe::{Board, InvalidBoard, Player, Position};

use crate::input::{self, Out, Outcome};

/// Print each board in every encoding that can hold it.
///
/// Encodings that cannot hold a board show `-` (null in JSON) and, for people, the reason:
/// count-rank needs possible piece counts, rank, canonical and oriented a reachable position.
#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  ttt encode X.O..O.X.
  ttt encode X.O/..O/.X. XXX...OOO --json
  printf 'X........\\n....X....\\n' | ttt encode --json")]
pub struct Args {
    /// Boards: nine cells X, O or `.` in row-major order, `/` allowed between rows
    /// (`X.O/..O/.X.`). With none, one board per line is read from standard input.
    #[arg(value_name = "BOARD")]
    boards: Vec<String>,
    /// Print one JSON object per board, one per line.
    #[arg(long)]
    json: bool,
}

/// A board serialized as its nine characters, without allocating.
#[derive(Clone, Copy, Debug)]
pub struct Text(pub Board);

impl Serialize for Text {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        // The nine ASCII bytes directly: `Display` and its formatter machinery took about a tenth
        // of `analyze --json` in a profile.
        let chars = self.0.to_chars();
        let text = std::str::from_utf8(&chars).map_err(serde::ser::Error::custom)?;
        serializer.serialize_str(text)
    }
}

/// Every code of one board; the ranks only when it is a reachable position.
#[derive(Clone, Copy, Debug)]
pub struct Codes {
    pub base4: Base4,
    pub base3: Base3,
    pub bitboards: Bitboards,
    /// `None` when the piece counts are impossible.
    pub count_rank: Option<CountRank>,
    /// The codes of a position, or every rule the board breaks.
    pub ranks: Result<Ranks, InvalidBoard>,
}

/// The codes only a reachable position has.
#[derive(Clone, Copy, Debug)]
pub struct Ranks {
    pub rank: Rank,
    /// Class and symmetry: the canonical code is the class.
    pub oriented: Oriented,
}

impl Codes {
    /// All codes of `board`.
    #[must_use]
    pub fn of(board: Board) -> Codes {
        Codes {
            base4: Base4::from_board(board),
            base3: Base3::from_board(board),
            bitboards: Bitboards::from_board(board),
            count_rank: CountRank::try_from_board(board),
            ranks: Position::try_from(board).map(|position| Ranks {
                rank: Rank::from_position(&position),
                oriented: Oriented::from_position(&position),
            }),
        }
    }

    /// The exact rank.
    #[must_use]
    pub fn rank(&self) -> Option<u16> {
        self.ranks.ok().map(|r| r.rank.code())
    }

    /// The canonical (class) code.
    #[must_use]
    pub fn canonical(&self) -> Option<u16> {
        self.ranks.ok().map(|r| r.oriented.class().code())
    }

    /// The name of the symmetry carrying the class representative onto the board.
    #[must_use]
    pub fn symmetry(&self) -> Option<&'static str> {
        self.ranks.ok().map(|r| r.oriented.symmetry().name())
    }
}

/// One line of `encode --json`.
#[derive(Serialize)]
struct Record {
    board: Text,
    base4: u32,
    base3: u16,
    bitboards: u32,
    count_rank: Option<u16>,
    rank: Option<u16>,
    canonical: Option<u16>,
    symmetry: Option<&'static str>,
    oriented: Option<u16>,
}

impl Record {
    fn of(board: Board) -> Record {
        let codes = Codes::of(board);
        Record {
            board: Text(board),
            base4: codes.base4.code(),
            base3: codes.base3.code(),
            bitboards: codes.bitboards.code(),
            count_rank: codes.count_rank.map(CountRank::code),
            rank: codes.rank(),
            canonical: codes.canonical(),
            symmetry: codes.symmetry(),
            oriented: codes.ranks.ok().map(|r| r.oriented.code()),
        }
    }
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    input::answer_each_board(&args.boards, args.json, |board, out| {
        if args.json {
            input::json_line(out, &Record::of(board))
        } else {
            write_for_people(out, board)
        }
    })
}

/// Why the count rank cannot hold a board.
pub fn impossible_counts(board: Board) -> String {
    format!(
        "impossible piece counts: {} X and {} O, but X moves first so has as many marks as O or one more",
        board.count(Player::X),
        board.count(Player::O)
    )
}

fn write_for_people(out: &mut Out, board: Board) -> anyhow::Result<Outcome> {
    let codes = Codes::of(board);
    let row = |out: &mut Out, name: &str, value: &dyn std::fmt::Display| {
        writeln!(out, "  {name:<11} {value}")
    };
    writeln!(out, "{board}")?;
    row(out, Base4::NAME, &codes.base4.code())?;
    row(out, Base3::NAME, &codes.base3.code())?;
    row(out, Bitboards::NAME, &codes.bitboards.code())?;
    match codes.count_rank {
        Some(code) => row(out, CountRank::NAME, &code.code())?,
        None => row(
            out,
            CountRank::NAME,
            &format!("- ({})", impossible_counts(board)),
        )?,
    }
    match codes.ranks {
        Ok(Ranks { rank, oriented }) => {
            let (class, symmetry) = (oriented.class(), oriented.symmetry());
            row(out, Rank::NAME, &rank.code())?;
            let canonical = format!(
                "{} (class representative {}, which {symmetry} carries onto this board)",
                class.code(),
                class.to_position()
            );
            row(out, Canonical::NAME, &canonical)?;
            let parts = format!(
                "{} (= {} * 8 + {}, the index of {symmetry})",
                oriented.code(),
                class.code(),
                symmetry.index()
            );
            row(out, Oriented::NAME, &parts)?;
        }
        Err(invalid) => {
            let why = format!("- (not a reachable position: {})", invalid.violations);
            for name in [Rank::NAME, Canonical::NAME, Oriented::NAME] {
                row(out, name, &why)?;
            }
        }
    }
    writeln!(out)?;
    Ok(Outcome::Answered)
}
