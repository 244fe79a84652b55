//! `ttt encode`: every code of each board, and why an encoding cannot hold it.

use std::io::Write;
use std::process::ExitCode;

use serde::Serialize;
use tictactoe::Board;
use tictactoe::encoding::{Base3, Base4, BitboardPair, Canonical, CountRank, Oriented, Rank};

use crate::codes::{Codes, CodesJson, Ranks, Text, impossible_counts};
use crate::input::{self, Outcome};
use crate::output::{self, Out};

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
    boards: Vec<std::ffi::OsString>,
    /// Print one JSON object per board, one per line.
    #[arg(long)]
    json: bool,
}

/// One line of `encode --json`: the board, then its codes.
#[derive(Serialize)]
struct Record {
    board: Text,
    #[serde(flatten)]
    codes: CodesJson,
}

impl Record {
    fn of(board: Board) -> Record {
        Record {
            board: Text(board),
            codes: CodesJson::of(board),
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

fn write_for_people(out: &mut Out, board: Board) -> anyhow::Result<Outcome> {
    let codes = Codes::of(board);
    let row = |out: &mut Out, name: &str, value: &dyn std::fmt::Display| {
        let line = format!("  {name:<11} {value}");
        writeln!(out, "{}", output::wrap(&line, "                "))
    };
    writeln!(out, "{board}")?;
    row(out, Base4::KIND.name(), &codes.base4.code())?;
    row(out, Base3::KIND.name(), &codes.base3.code())?;
    row(out, BitboardPair::KIND.name(), &codes.bitboards.code())?;
    match codes.count_rank {
        Some(code) => row(out, CountRank::KIND.name(), &code.code())?,
        None => row(
            out,
            CountRank::KIND.name(),
            &format!("- ({})", impossible_counts(board)),
        )?,
    }
    match codes.ranks {
        Ok(Ranks { rank, oriented }) => {
            let (class, symmetry) = (oriented.class(), oriented.symmetry());
            row(out, Rank::KIND.name(), &rank.code())?;
            let canonical = format!(
                "{} (class representative {}, which {symmetry} carries onto this board)",
                class.code(),
                class.to_position()
            );
            row(out, Canonical::KIND.name(), &canonical)?;
            let parts = format!(
                "{} (= {} * 8 + {}, the index of {symmetry})",
                oriented.code(),
                class.code(),
                symmetry.index()
            );
            row(out, Oriented::KIND.name(), &parts)?;
        }
        Err(invalid) => {
            let why = format!("- (not a reachable position: {})", invalid.violations);
            for name in [
                Rank::KIND.name(),
                Canonical::KIND.name(),
                Oriented::KIND.name(),
            ] {
                row(out, name, &why)?;
            }
        }
    }
    writeln!(out)?;
    Ok(Outcome::Answered)
}
