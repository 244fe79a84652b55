//! `ttt unpack`: the boards of a `.ttt` file, one per line.

use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use tictactoe::file::Reader;

use crate::exit;
use crate::output::errln;
use crate::progress::Progress;

/// Print the boards of a `.ttt` file, one per line, in packed order.
#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  ttt unpack boards.ttt
  ttt unpack boards.ttt | sort | uniq -c
  ttt unpack --salvage damaged.ttt > rescued.txt

A damaged or truncated file is an error naming the block and the records it held; the boards
before it have been printed. --salvage prints every intact block instead, wherever it sits in
the file (after damage it searches for the next block by its checksum), then reports each lost
range, and each moved or duplicated block, on standard error and exits with status 3 (damaged
data partly recovered).")]
pub struct Args {
    /// The `.ttt` file (`-` for standard input).
    file: PathBuf,
    /// Print every intact record and report the lost ranges instead of failing.
    #[arg(long)]
    salvage: bool,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let name = args.file.display().to_string();
    let (input, len): (Box<dyn Read>, Option<u64>) = if args.file.as_os_str() == "-" {
        (Box::new(io::stdin().lock()), None)
    } else {
        let file = File::open(&args.file).with_context(|| format!("cannot open {name}"))?;
        // The size of a regular file lets salvage take blocks found far from their place.
        let len = file
            .metadata()
            .ok()
            .filter(std::fs::Metadata::is_file)
            .map(|m| m.len());
        (Box::new(file), len)
    };
    let reader = Reader::new(BufReader::with_capacity(1 << 20, input))
        .with_context(|| format!("cannot read {name}"))?;
    let reader = match len {
        Some(len) => reader.input_len(len),
        None => reader,
    };
    let mut reader = if args.salvage {
        reader.salvage()
    } else {
        reader
    };
    let progress = Progress::new(reader.header().count, "positions unpacked");
    let mut out = BufWriter::with_capacity(1 << 20, crate::output::stdout());
    let mut boards = Vec::new();
    // A block's lines are made in one buffer and written at once: at most 40,955 records (a
    // 64 KiB block of mixed radix), so 409,550 bytes of text.
    let mut text = Vec::new();
    let mut written = 0u64;
    loop {
        boards.clear();
        let more = reader
            .read_block(&mut boards)
            .with_context(|| format!("cannot read {name}"))?;
        text.clear();
        text.resize(boards.len() * 10, b'\n');
        for (line, board) in text.chunks_exact_mut(10).zip(&boards) {
            line[..9].copy_from_slice(&board.to_chars());
        }
        out.write_all(&text)?;
        written += boards.len() as u64;
        progress.set(reader.records_read());
        if !more {
            break;
        }
    }
    out.flush()?;
    progress.finish();
    if reader.lost().is_empty() {
        return Ok(ExitCode::SUCCESS);
    }
    for lost in reader.lost() {
        errln!("ttt: {name}: {lost}");
    }
    let lost: u64 = reader
        .lost()
        .iter()
        .filter_map(tictactoe::file::Lost::records)
        .sum();
    // A loss whose end is not known (a stream cut where a block ends) has no count: the total
    // is then unknown, not the sum of the others.
    let unknown = reader.lost().iter().any(|lost| lost.records().is_none());
    let lost = match (unknown, lost) {
        (false, lost) => lost.to_string(),
        (true, 0) => "unknown".to_owned(),
        (true, lost) => format!("at least {lost} (the rest unknown)"),
    };
    errln!("ttt: {name}: salvaged {written} records, lost {lost}");
    Ok(ExitCode::from(exit::DAMAGED))
}
