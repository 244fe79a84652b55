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
    output: Option<&str>,
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
                    // Only a write can fail here (the line was checked).
                    let pushed = writer.push(board);
                    match output {
                        Some(name) => pushed.with_context(|| format!("cannot write {name}"))?,
                        // An atomic file's errors name it already.
                        None => pushed?,
                    }
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
    let path = args.output.as_deref().unwrap_or(Path::new("-"));
    let (totals, bytes) = if to_stdout {
        let stdout = BufWriter::with_capacity(1 << 20, io::stdout().lock());
        let totals = stream(stdout, "standard output", sources, &args, &mut progress)?;
        (totals, None)
    } else if let Some(special) = special_file(path)? {
        // A device or a FIFO (or a link to one) is written to as a stream, never replaced.
        let name = path.display().to_string();
        let out = BufWriter::with_capacity(1 << 20, special);
        let totals = stream(out, &name, sources, &args, &mut progress)?;
        (totals, None)
    } else {
        let name = path.display().to_string();
        let file = AtomicFile::create(path).with_context(|| format!("cannot create {name}"))?;
        // SIGINT, SIGTERM and SIGHUP remove the temporary file before the process ends.
        let _guard = interrupt::remove_on_signal(file.temp_path());
        let mut writer = Writer::new(file, args.encoding)?;
        let totals = pack_into(sources, &mut writer, &args, &mut progress, None)?;
        // The atomic file's errors name the output file (and the temporary file).
        writer.finish_seekable()?.commit()?;
        let size = std::fs::metadata(path)
            .with_context(|| format!("cannot read {name}"))?
            .len();
        (totals, Some((path, size)))
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

/// Packs the sources into a stream (standard output, a device, a FIFO), naming `name` in
/// any write error.
fn stream<W: Write>(
    out: W,
    name: &str,
    sources: Vec<Source>,
    args: &Args,
    progress: &mut Progress,
) -> anyhow::Result<Totals> {
    let context = || format!("cannot write {name}");
    let mut writer = Writer::new(out, args.encoding).with_context(context)?;
    let totals = pack_into(sources, &mut writer, args, progress, Some(name))?;
    writer.finish().with_context(context)?;
    Ok(totals)
}

/// The output path opened for writing when it exists and is not a regular file or a
/// directory (a device or FIFO, or a symbolic link to one); `None` for a path to create or
/// replace atomically.
fn special_file(path: &Path) -> anyhow::Result<Option<File>> {
    let Ok(meta) = std::fs::metadata(path) else {
        return Ok(None);
    };
    if meta.is_file() || meta.is_dir() {
        return Ok(None);
    }
    let file = std::fs::OpenOptions::new()
        .write(true)
        .open(path)
        .with_context(|| format!("cannot open {}", path.display()))?;
    Ok(Some(file))
}

/// Removes the temporary file of an atomic output when the process is interrupted.
mod interrupt {
    use std::path::{Path, PathBuf};
    use std::sync::{Mutex, Once};

    /// The temporary file to remove, while one is being written.
    static TEMP: Mutex<Option<PathBuf>> = Mutex::new(None);
    static INSTALL: Once = Once::new();

    /// Until dropped, SIGINT, SIGTERM and SIGHUP remove `temp` and end the process with
    /// status 130.
    pub(super) fn remove_on_signal(temp: &Path) -> Guard {
        INSTALL.call_once(|| {
            // Without a handler (one already set) the default action ends the process and
            // the temporary file stays, as after SIGKILL.
            let _ = ctrlc::set_handler(|| {
                if let Ok(temp) = TEMP.lock()
                    && let Some(temp) = temp.as_deref()
                {
                    let _ = std::fs::remove_file(temp);
                }
                std::process::exit(130);
            });
        });
        if let Ok(mut slot) = TEMP.lock() {
            *slot = Some(temp.to_path_buf());
        }
        Guard
    }

    pub(super) struct Guard;

    impl Drop for Guard {
        fn drop(&mut self) {
            if let Ok(mut slot) = TEMP.lock() {
                *slot = None;
            }
        }
    }
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
