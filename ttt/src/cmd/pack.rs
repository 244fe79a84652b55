//! `ttt pack`: boards, one per line, into a `.ttt` file.

use std::fs::File;
use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, bail};
use tictactoe::file::{AtomicFile, Writer};
use tictactoe::packed::Packing;
use tictactoe::{Bitboard, Board};

use crate::args;
use crate::exit;
use crate::input::{LineError, Lines};
use crate::output::{self, errln};
use crate::progress::Progress;

/// Pack boards (one per line) into a checksummed `.ttt` file.
///
/// The default encoding, mixed-radix, is the smallest (12.8 bits per position, 3% above the
/// information limit of log2(5478) = 12.42 bits) and holds every reachable position; use
/// base3 (15 bits) or base4 (18 bits) to store any grid.
#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  ttt pack boards.txt -o boards.ttt
  ttt pack --encoding base3 grids.txt -o grids.ttt
  cat boards.txt | ttt pack -o - > boards.ttt
  ttt pack --skip-invalid noisy.txt -o clean.ttt

Encodings: mixed-radix (12.8 bits, reachable positions), rank (13, reachable positions),
count-rank (13, boards with possible piece counts), base3 (15, any grid), base4 (18, any grid).

A line that is not a board the encoding holds is an error naming the file and line, and no
file is written (the output appears atomically, only when complete). With -o - the output
streams as it is made; after an error it lacks its trailer, so no reader takes it as whole.")]
pub struct Args {
    /// Files of boards, one per line (`-` or none: standard input).
    inputs: Vec<PathBuf>,
    /// Output file, `-` for standard output (the default when it is not a terminal).
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// How positions are packed.
    #[arg(short, long, value_name = "NAME", default_value = "mixed-radix", value_parser = args::packing)]
    encoding: Packing,
    /// Skip lines that are not boards the encoding holds, and report how many.
    #[arg(long)]
    skip_invalid: bool,
}

/// A place to read boards from, for messages.
struct Source {
    name: String,
    lines: Lines,
}

/// Whether two paths name the same file (same device and inode).
fn same_file(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

fn sources(inputs: &[PathBuf], output: Option<&Path>) -> anyhow::Result<Vec<Source>> {
    if inputs.is_empty() {
        return Ok(vec![Source {
            name: "standard input".into(),
            lines: Lines::new(Box::new(io::stdin()), 1 << 20),
        }]);
    }
    inputs
        .iter()
        .map(|path| {
            if path.as_os_str() == "-" {
                return Ok(Source {
                    name: "standard input".into(),
                    lines: Lines::new(Box::new(io::stdin()), 1 << 20),
                });
            }
            if let Some(output) = output.filter(|output| same_file(path, output)) {
                return exit::usage(format!(
                    "refusing to pack {} into itself (-o {}): write to another file",
                    path.display(),
                    output.display()
                ));
            }
            let file =
                File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
            Ok(Source {
                name: path.display().to_string(),
                lines: Lines::new(Box::new(file), 1 << 20),
            })
        })
        .collect()
}

/// The board of a plain nine-character line (`X`, `O`, `.`, either case), without going
/// through `str`; other lines (slashes, errors) take the parser, which explains errors.
fn plain_board(line: &[u8]) -> Option<Board> {
    let cells: &[u8; 9] = line.try_into().ok()?;
    // Branch-free: the characters of a file of random boards defeat branch prediction.
    let (mut x, mut o, mut bad) = (0u16, 0u16, false);
    for (i, &ch) in cells.iter().enumerate() {
        let (is_x, is_o) = (ch | 0x20 == b'x', ch | 0x20 == b'o');
        x |= u16::from(is_x) << i;
        o |= u16::from(is_o) << i;
        bad |= !(is_x | is_o | (ch == b'.'));
    }
    if bad {
        return None;
    }
    Board::from_bitboards(
        Bitboard::from_bits_truncate(x),
        Bitboard::from_bits_truncate(o),
    )
    .ok()
}

/// The board of a line if the packing holds it, or why not.
fn check_line(line: &[u8], packing: Packing) -> Result<Board, String> {
    let board = match plain_board(line) {
        Some(board) => board,
        None => {
            let text = std::str::from_utf8(line).map_err(|error| {
                let index = error.valid_up_to();
                format!("not UTF-8 text: byte {:#04x} at index {index}", line[index])
            })?;
            text.parse()
                .map_err(|e| format!("{text:?} is not a board: {e}"))?
        }
    };
    if packing.can_hold(board) {
        return Ok(board);
    }
    let why = match packing {
        Packing::CountRank => {
            "impossible piece counts (X must have as many marks as O, or one more)".to_owned()
        }
        _ => format!("not a reachable position ({})", board.violations()),
    };
    Err(format!(
        "{board}: {why}; {} holds {} only (--encoding base3 stores any grid)",
        packing.name(),
        packing.description()
    ))
}

/// What a pack run did.
struct Totals {
    packed: u64,
    skipped: u64,
}

/// Reads every line of every source into the writer.
fn pack_into<W: Write>(
    sources: Vec<Source>,
    writer: &mut Writer<W>,
    args: &Args,
    progress: &mut Progress,
) -> anyhow::Result<Totals> {
    let mut totals = Totals {
        packed: 0,
        skipped: 0,
    };
    for mut source in sources {
        loop {
            let more = source
                .lines
                .next_raw(&mut || Ok(()))
                .with_context(|| format!("cannot read {}", source.name))?;
            if !more {
                break;
            }
            let number = source.lines.number();
            if let Err(error @ LineError::TooLong) = source.lines.checked() {
                if args.skip_invalid {
                    totals.skipped += 1;
                    continue;
                }
                bail!("{} line {number}: {error}", source.name);
            }
            let text = source.lines.raw().trim_ascii();
            if text.is_empty() {
                continue;
            }
            match check_line(text, args.encoding) {
                Ok(board) => {
                    writer.push(board)?;
                    totals.packed += 1;
                    if totals.packed.is_multiple_of(1 << 16) {
                        progress.set(totals.packed);
                    }
                }
                Err(_) if args.skip_invalid => totals.skipped += 1,
                Err(why) => bail!("{} line {number}: {why}", source.name),
            }
        }
    }
    Ok(totals)
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let sources = sources(&args.inputs, args.output.as_deref())?;
    let mut progress = Progress::new(None, "positions packed");
    let to_stdout = match &args.output {
        Some(path) => path.as_os_str() == "-",
        None if io::stdout().is_terminal() => {
            return exit::usage(
                "refusing to write binary output to a terminal (use -o FILE, or -o - to insist)",
            );
        }
        None => true,
    };
    let (totals, bytes) = if to_stdout {
        let stdout = BufWriter::with_capacity(1 << 20, io::stdout().lock());
        let mut writer = Writer::new(stdout, args.encoding)?;
        let totals = pack_into(sources, &mut writer, &args, &mut progress)?;
        writer.finish()?;
        (totals, None)
    } else {
        let path = args.output.as_deref().unwrap_or(Path::new("-"));
        let file = AtomicFile::create(path)
            .with_context(|| format!("cannot create {}", path.display()))?;
        let mut writer = Writer::new(file, args.encoding)?;
        let totals = pack_into(sources, &mut writer, &args, &mut progress)?;
        writer
            .finish_seekable()?
            .commit()
            .with_context(|| format!("cannot write {}", path.display()))?;
        (totals, Some((path, std::fs::metadata(path)?.len())))
    };
    progress.finish();
    if let Some((path, size)) = bytes {
        errln!(
            "ttt: packed {} ({}) into {}: {size} bytes",
            output::count(totals.packed, "position", "positions"),
            args.encoding,
            path.display()
        );
    }
    if totals.skipped > 0 {
        errln!(
            "ttt: skipped {}",
            output::count(totals.skipped, "invalid line", "invalid lines")
        );
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_lines_parse_as_the_board_parser_does() {
        for board in Board::all() {
            let text = board.to_string();
            assert_eq!(plain_board(text.as_bytes()), Some(board));
            let lower = text.to_lowercase();
            assert_eq!(plain_board(lower.as_bytes()), Some(board));
        }
        for line in ["X.O/..O/.X.", "X.O..O.X", "X.O..O.X..", "X.O.Z.O.X", ""] {
            assert_eq!(plain_board(line.as_bytes()), None, "{line}");
        }
    }
}
