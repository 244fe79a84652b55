//! `ttt decode`: the board behind each code of one encoding.

use std::io::Write;
use std::process::ExitCode;

use serde::Serialize;
use tictactoe::Board;
use tictactoe::encoding::{DecodeError, DecodeReason, Kind};

use crate::args;
use crate::codes::Text;
use crate::draw::Drawing;
use crate::input::{self, Outcome};
use crate::number::{NumberError, parse_number};
use crate::output::Out;

/// Print the board behind each code, drawn and as nine characters.
///
/// A canonical code stands for a symmetry class; its board is the class representative.
#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  ttt decode --encoding rank 0 17 5477
  ttt decode --encoding base4 0x4821 --json
  ttt decode --encoding bitboards 0b000000010000000001
  printf '523\\n2749\\n' | ttt decode --encoding count-rank --json")]
pub struct Args {
    /// The encoding the codes are in.
    #[arg(long, short, value_enum, value_name = "NAME")]
    encoding: args::Encoding,
    /// Codes: decimal, or hexadecimal after `0x`, or binary after `0b`. With none, one code per
    /// line is read from standard input.
    #[arg(value_name = "CODE", allow_negative_numbers = true)]
    codes: Vec<std::ffi::OsString>,
    /// Print one JSON object per code, one per line.
    #[arg(long)]
    json: bool,
}

/// One encoding, type-erased: its kind, its code range and its decoder.
#[derive(Clone, Copy)]
struct Codec {
    kind: Kind,
    limit: u32,
}

impl Codec {
    fn new(encoding: args::Encoding) -> Codec {
        Codec {
            kind: encoding.0,
            limit: encoding.0.limit(),
        }
    }

    fn decode(self, code: u32) -> Result<Board, DecodeError> {
        self.kind.decode(code)
    }

    /// The code in `text` and its board, or the message saying why there is none.
    fn read(self, text: &str) -> Result<(u32, Board), String> {
        let out_of_range = DecodeReason::OutOfRange {
            limit: u64::from(self.limit),
        };
        let invalid = |reason: &dyn std::fmt::Display| {
            format!("{} code {text} is invalid: {reason}", self.kind.name())
        };
        let code = match parse_number(text) {
            Ok(code) => code,
            Err(NumberError::TooLarge) => return Err(invalid(&out_of_range)),
            Err(NumberError::Negative) => {
                return Err(invalid(&format_args!("negative, {out_of_range}")));
            }
            Err(error) => {
                return Err(format!(
                    "{} code {text:?} is not a number: {error}",
                    self.kind.name()
                ));
            }
        };
        let decoded = match u32::try_from(code) {
            Ok(code) => self.decode(code).map(|board| (code, board)),
            Err(_) => Err(DecodeError {
                encoding: self.kind,
                code,
                reason: out_of_range,
            }),
        };
        decoded.map_err(|error| error.to_string())
    }
}

/// One line of `decode --json` for a good code.
#[derive(Serialize)]
struct Decoded {
    encoding: &'static str,
    code: u32,
    board: Text,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let codec = Codec::new(args.encoding);
    input::answer_each(&args.codes, |item, out| {
        let read = item
            .checked_text()
            .map_err(|error| format!("{} code: {error}", codec.kind.name()))
            .and_then(|text| codec.read(text));
        match (read, args.json) {
            (Ok((code, board)), true) => input::json_line(
                out,
                &Decoded {
                    encoding: codec.kind.name(),
                    code,
                    board: Text(board),
                },
            ),
            (Ok((code, board)), false) => write_for_people(out, codec, code, board),
            (Err(error), true) => input::reject_json(out, &input::InputError::new(&item, error)),
            (Err(error), false) => input::reject(out, item.origin, error),
        }
    })
}

fn write_for_people(
    out: &mut Out,
    codec: Codec,
    code: u32,
    board: Board,
) -> anyhow::Result<Outcome> {
    let note = if codec.kind == Kind::Canonical {
        " (class representative)"
    } else {
        ""
    };
    writeln!(out, "{} {code}{note}", codec.kind.name())?;
    writeln!(out, "{}", Drawing::new(board).indented("  "))?;
    writeln!(out, "{board}")?;
    writeln!(out)?;
    Ok(Outcome::Answered)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_of_every_encoding_reads_as_the_library_decodes_it() {
        for &encoding in <args::Encoding as clap::ValueEnum>::value_variants() {
            let codec = Codec::new(encoding);
            for code in 0..codec.limit + 3 {
                let read = codec.read(&code.to_string());
                let expected = codec.decode(code).map_err(|e| e.to_string());
                assert_eq!(read, expected.map(|board| (code, board)));
            }
        }
    }

    #[test]
    fn messages_name_the_encoding_and_the_code() {
        let rank = Codec::new(args::Encoding(Kind::Rank));
        assert_eq!(
            rank.read("5478").unwrap_err(),
            "rank code 5478 is invalid: out of range (codes are 0 to 5477)"
        );
        assert_eq!(
            rank.read("99999999999").unwrap_err(),
            "rank code 99999999999 is invalid: out of range (codes are 0 to 5477)"
        );
        assert_eq!(
            rank.read("99999999999999999999999").unwrap_err(),
            "rank code 99999999999999999999999 is invalid: out of range (codes are 0 to 5477)"
        );
        assert_eq!(
            rank.read("-3").unwrap_err(),
            "rank code -3 is invalid: negative, out of range (codes are 0 to 5477)"
        );
        assert_eq!(
            Codec::new(args::Encoding(Kind::Base4))
                .read("0b11")
                .unwrap_err(),
            "base4 code 3 is invalid: cell pattern 11 at cell 0"
        );
    }
}
