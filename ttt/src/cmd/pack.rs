//! `ttt pack`: boards, one per line, into a `.ttt` file.

use std::fs::File;
use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, bail};
use tictactoe::Board;
use tictactoe::file::{AtomicFile, FileError, Writer};
use tictactoe::packed::Packing;

use crate::args;
use crate::exit;
use crate::input::{LineError, Lines, MAX_LINE};
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

/// The board of a line if the packing holds it, or why not.
fn check_line(line: &[u8], packing: Packing) -> Result<Board, String> {
    // A plain line without going through `str`; other lines (slashes, errors) take the parser,
    // which explains errors.
    let board = match line.try_into().ok().and_then(Board::from_chars) {
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

/// The code the packing stores for every grid it holds, by grid index (the base-3 code,
/// `sum d_i 3^i` with digit 1 for X and 2 for O), built once per run: a line of nine board
/// characters is then packed with nine byte-table reads and one read here, the board, its
/// validity and its code all precomputed.
struct GridCodes {
    codes: Vec<u32>,
}

/// A grid the packing does not hold, in [`GridCodes`].
const NONE: u32 = u32::MAX;

/// Added to a grid index for a byte that is no board character: the sum of nine stays above
/// every grid index, without carrying past 32 bits.
const BAD: u32 = 1 << 20;

/// `PLACE[i][byte]`: what character `byte` in cell `i` adds to the grid index, its base-3 digit
/// (`.` 0, `X` or `x` 1, `O` or `o` 2) times `3^i`, or [`BAD`] (9 KiB).
static PLACE: [[u32; 256]; 9] = {
    let mut table = [[BAD; 256]; 9];
    let (mut cell, mut place) = (0, 1);
    while cell < 9 {
        table[cell][b'.' as usize] = 0;
        table[cell][b'X' as usize] = place;
        table[cell][b'x' as usize] = place;
        table[cell][b'O' as usize] = 2 * place;
        table[cell][b'o' as usize] = 2 * place;
        place *= 3;
        cell += 1;
    }
    table
};

impl GridCodes {
    fn new(packing: Packing) -> GridCodes {
        // `Board::all` goes in increasing base-3 code: its position is the grid index.
        let codes = Board::all()
            .map(|board| packing.code(board).unwrap_or(NONE))
            .collect();
        GridCodes { codes }
    }

    /// The code of nine board characters (`X`, `O`, `.`, either case) when the packing holds
    /// the board; `None` for anything else, which [`check_line`] explains.
    #[inline]
    fn plain(&self, cells: &[u8; 9]) -> Option<u32> {
        // Nine reads and adds, without a branch: the characters of a file of random boards
        // defeat branch prediction.
        let index: u32 = core::array::from_fn::<u32, 9, _>(|i| PLACE[i][usize::from(cells[i])])
            .iter()
            .sum();
        let code = *self.codes.get(index as usize)?;
        (code != NONE).then_some(code)
    }
}

/// What a pack run did.
struct Totals {
    packed: u64,
    skipped: u64,
}

/// Lines into a writer, counted.
struct Packer<'a, W: Write> {
    writer: &'a mut Writer<W>,
    codes: GridCodes,
    args: &'a Args,
    progress: &'a mut Progress,
    /// The output's name for write errors (`None`: an atomic file's errors name it already).
    output: Option<&'a str>,
    totals: Totals,
}

impl<W: Write> Packer<'_, W> {
    /// Counts a record appended (or fails with the write error).
    #[inline]
    fn pushed(&mut self, pushed: Result<(), FileError>) -> anyhow::Result<()> {
        if let Err(error) = pushed {
            return Err(self.write_error(error));
        }
        self.totals.packed += 1;
        if self.totals.packed.is_multiple_of(1 << 16) {
            self.progress.set(self.totals.packed);
        }
        Ok(())
    }

    /// A failed push: only a write can fail (the line was checked).
    #[cold]
    fn write_error(&self, error: FileError) -> anyhow::Error {
        match self.output {
            Some(name) => anyhow::Error::new(error).context(format!("cannot write {name}")),
            None => error.into(),
        }
    }

    /// One line, without its newline (or why it cannot be read), the general way: trimmed,
    /// skipped when blank, parsed with explained errors.
    fn line(
        &mut self,
        line: Result<&[u8], LineError>,
        name: &str,
        number: u64,
    ) -> anyhow::Result<()> {
        let checked = match line {
            Ok(line) if line.trim_ascii().is_empty() => return Ok(()),
            Ok(line) => check_line(line.trim_ascii(), self.args.encoding),
            Err(error) => Err(error.to_string()),
        };
        match checked {
            Ok(board) => {
                let pushed = self.writer.push(board);
                self.pushed(pushed)
            }
            Err(_) if self.args.skip_invalid => {
                self.totals.skipped += 1;
                Ok(())
            }
            Err(why) => bail!("{name} line {number}: {why}"),
        }
    }

    /// Every line of a source. Whole lines are taken from the read buffer in bulk, and a line
    /// of nine board characters the packing holds by one table read ([`GridCodes::plain`]);
    /// any other line, and a line that goes on past the buffer, goes through [`Self::line`].
    fn source(&mut self, source: &mut Source) -> anyhow::Result<()> {
        let read = |name: &str| format!("cannot read {name}");
        loop {
            let first = source.lines.number();
            let buffered = source
                .lines
                .buffered_lines()
                .with_context(|| read(&source.name))?;
            if buffered.is_empty() {
                if !source
                    .lines
                    .next_raw(&mut || Ok(()))
                    .with_context(|| read(&source.name))?
                {
                    return Ok(());
                }
                let line = match source.lines.checked() {
                    Err(error @ LineError::TooLong) => Err(error),
                    _ => Ok(source.lines.raw()),
                };
                self.line(line, &source.name, source.lines.number())?;
                continue;
            }
            let (mut at, mut lines) = (0, 0);
            while let Some(rest) = buffered.get(at..).filter(|rest| !rest.is_empty()) {
                lines += 1;
                if let Some((cells, [b'\n', ..])) = rest.split_first_chunk()
                    && let Some(code) = self.codes.plain(cells)
                {
                    let pushed = self.writer.push_code(code);
                    self.pushed(pushed)?;
                    at += 10;
                    continue;
                }
                // The buffered lines end with a newline.
                let end = rest
                    .iter()
                    .position(|&byte| byte == b'\n')
                    .unwrap_or(rest.len());
                let line = Some(&rest[..end])
                    .filter(|line| line.len() <= MAX_LINE)
                    .ok_or(LineError::TooLong);
                self.line(line, &source.name, first + lines)?;
                at += end + 1;
            }
            source.lines.consume_lines(at, lines);
        }
    }
}

/// Reads every line of every source into the writer.
fn pack_into<W: Write>(
    sources: Vec<Source>,
    writer: &mut Writer<W>,
    args: &Args,
    progress: &mut Progress,
    output: Option<&str>,
) -> anyhow::Result<Totals> {
    let mut packer = Packer {
        writer,
        codes: GridCodes::new(args.encoding),
        args,
        progress,
        output,
        totals: Totals {
            packed: 0,
            skipped: 0,
        },
    };
    for mut source in sources {
        packer.source(&mut source)?;
    }
    Ok(packer.totals)
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
        output::require_stdout()?;
        let stdout = BufWriter::with_capacity(1 << 20, output::stdout());
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
        // SIGINT, SIGTERM, SIGQUIT, SIGUSR1 and every other signal that would end the process
        // remove the temporary file first.
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

    use signal_hook::consts::signal::{
        SIGALRM, SIGHUP, SIGINT, SIGPROF, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGVTALRM, SIGXCPU,
        SIGXFSZ,
    };

    /// Every signal whose default action ends the process and that a process may catch, but
    /// SIGPIPE (ignored by Rust programs: a write to a closed pipe fails instead) and the
    /// faults of the program itself (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGSYS).
    pub(super) const SIGNALS: [i32; 11] = [
        SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU,
        SIGXFSZ,
    ];

    /// The temporary file to remove, while one is being written.
    static TEMP: Mutex<Option<PathBuf>> = Mutex::new(None);
    static INSTALL: Once = Once::new();

    /// Until dropped, any of [`SIGNALS`] removes `temp` and ends the process with status 130.
    pub(super) fn remove_on_signal(temp: &Path) -> Guard {
        INSTALL.call_once(|| {
            // Without a handler (registration failed) the default action ends the process and
            // the temporary file stays, as after SIGKILL.
            if let Ok(mut signals) = signal_hook::iterator::Signals::new(SIGNALS) {
                std::thread::spawn(move || {
                    if signals.forever().next().is_some() {
                        if let Ok(temp) = TEMP.lock()
                            && let Some(temp) = temp.as_deref()
                        {
                            let _ = std::fs::remove_file(temp);
                        }
                        std::process::exit(130);
                    }
                });
            }
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
    use std::io::Cursor;

    use super::*;

    /// Every grid in each case, and every byte in every place of one: the table gives a code
    /// exactly where the parser and the packing accept the line, and the same code.
    #[test]
    fn the_grid_table_agrees_with_the_line_check() {
        for packing in Packing::ALL {
            let codes = GridCodes::new(packing);
            let slow = |line: &[u8]| check_line(line, packing).ok().and_then(|b| packing.code(b));
            for board in Board::all() {
                let upper = board.to_chars();
                let lower = upper.map(|ch| ch.to_ascii_lowercase());
                let mut mixed = upper;
                mixed[..4].make_ascii_lowercase();
                for cells in [upper, lower, mixed] {
                    assert_eq!(codes.plain(&cells), slow(&cells), "{packing} {board}");
                }
            }
            for at in 0..9 {
                for byte in 0..=u8::MAX {
                    let mut cells = *b"X.O..O.X.";
                    cells[at] = byte;
                    if let Some(code) = codes.plain(&cells) {
                        assert_eq!(Some(code), slow(&cells), "{packing} {cells:?}");
                    }
                }
            }
        }
    }

    /// Packs `input` through [`pack_into`] with a read buffer of `capacity` bytes.
    fn pack_bytes(input: &[u8], capacity: usize, args: &Args) -> anyhow::Result<(Vec<u8>, u64)> {
        let source = Source {
            name: "input".into(),
            lines: Lines::new(Box::new(Cursor::new(input.to_vec())), capacity),
        };
        let mut writer = Writer::new(Vec::new(), args.encoding)?;
        let mut progress = Progress::new(None, "positions packed");
        let totals = pack_into(vec![source], &mut writer, args, &mut progress, None)?;
        Ok((writer.finish()?, totals.skipped))
    }

    /// The per-line path the bulk scan replaced, as it was: each line on its own, at most
    /// [`MAX_LINE`] bytes, trimmed, blank lines skipped, every other line checked.
    fn pack_line_by_line(input: &[u8], args: &Args) -> anyhow::Result<(Vec<u8>, u64)> {
        let mut writer = Writer::new(Vec::new(), args.encoding)?;
        let mut skipped = 0;
        let body = input.strip_suffix(b"\n").unwrap_or(input);
        for (i, line) in body.split(|&byte| byte == b'\n').enumerate() {
            let number = i + 1;
            let checked = if line.len() > MAX_LINE {
                Err(LineError::TooLong.to_string())
            } else if line.trim_ascii().is_empty() {
                continue;
            } else {
                check_line(line.trim_ascii(), args.encoding)
            };
            match checked {
                Ok(board) => writer.push(board)?,
                Err(_) if args.skip_invalid => skipped += 1,
                Err(why) => bail!("input line {number}: {why}"),
            }
        }
        Ok((writer.finish()?, skipped))
    }

    /// The bulk scan packs the same bytes, skips the same lines and stops at the same line with
    /// the same message as the per-line path, whatever the buffer size cuts lines into.
    #[test]
    fn the_bulk_scan_is_the_per_line_path() {
        let mut lines: Vec<Vec<u8>> = [
            "X.O..O.X.",
            "x.o..o.x.",
            "X.O/..O/.X.",
            "  X.O..O.X.  ",
            "X.O..O.X.\r",
            "",
            "   ",
            "XX.......",
            "XXXXXXXXX",
            "X.O..O.X",
            "X.O..O.X..",
            "X.O.Z.O.X",
            ".........",
            "OOOOOOOOO",
        ]
        .iter()
        .map(|line| line.as_bytes().to_vec())
        .collect();
        lines.push(b"X.O\xff.O.X.".to_vec());
        lines.push(vec![b'.'; MAX_LINE]);
        lines.push(vec![b'.'; MAX_LINE + 1]);
        lines.push(vec![b'X'; 3 * MAX_LINE]);
        lines.extend(
            Board::all()
                .step_by(7)
                .map(|board| board.to_chars().to_vec()),
        );
        let mut input = lines.join(&b'\n');
        let unterminated = input.len();
        input.extend_from_slice(b"\nX........");
        for encoding in Packing::ALL {
            for skip_invalid in [true, false] {
                let args = Args {
                    inputs: Vec::new(),
                    output: None,
                    encoding,
                    skip_invalid,
                };
                for input in [&input[..unterminated], &input[..], &[b'\n'; 3][..], &[][..]] {
                    let expected = pack_line_by_line(input, &args).map_err(|e| e.to_string());
                    for capacity in [1, 7, 10, 11, 64, 4_097, 1 << 20] {
                        let packed = pack_bytes(input, capacity, &args).map_err(|e| e.to_string());
                        assert_eq!(packed, expected, "{encoding} {skip_invalid} {capacity}");
                    }
                }
            }
        }
    }
}
