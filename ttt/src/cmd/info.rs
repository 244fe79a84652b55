//! `ttt info`: what a `.ttt` file holds and how compact it is.

use std::fs::File;
use std::io::{self, BufReader, Read, Seek, SeekFrom};
use std::path::PathBuf;
use std::process::ExitCode;

use crate::output::outln;
use anyhow::Context;
use tictactoe::file::{Header, Reader, check_layout};

/// Bytes per board in the text form: nine cells and a newline.
const TEXT_BYTES_PER_LINE: u64 = 10;

/// Show a `.ttt` file's header, record count and size against the text form and the
/// information limit.
#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  ttt info boards.ttt
  ttt info --verify boards.ttt

The information limit is log2 of the number of boards the encoding can hold: log2(5478) =
12.42 bits for the reachable-only encodings (rank, mixed-radix), log2(6046) = 12.56 for
count-rank, log2(19683) = 14.27 for the any-grid encodings (base3, base4).")]
pub struct Args {
    /// The `.ttt` file (`-` for standard input).
    file: PathBuf,
    /// Also read every block and check its checksum.
    #[arg(long)]
    verify: bool,
}

/// A file, or standard input held in memory.
trait Source: Read + Seek {}
impl<T: Read + Seek> Source for T {}

fn percent(part: f64, whole: f64) -> String {
    format!("{:.1}%", 100.0 * part / whole)
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    // Standard input (`-`) is read once into memory (a `.ttt` file is compact), as the checks
    // below read the file more than once.
    let stdin: Option<std::sync::Arc<[u8]>> = if args.file.as_os_str() == "-" {
        let mut bytes = Vec::new();
        io::stdin()
            .lock()
            .read_to_end(&mut bytes)
            .context("cannot read standard input")?;
        Some(bytes.into())
    } else {
        None
    };
    let name = match stdin {
        Some(_) => "standard input".to_owned(),
        None => args.file.display().to_string(),
    };
    let open = || -> anyhow::Result<Box<dyn Source>> {
        Ok(match &stdin {
            Some(bytes) => Box::new(io::Cursor::new(std::sync::Arc::clone(bytes))),
            None => {
                Box::new(File::open(&args.file).with_context(|| format!("cannot open {name}"))?)
            }
        })
    };
    let reader =
        Reader::new(BufReader::new(open()?)).with_context(|| format!("cannot read {name}"))?;
    let header: Header = *reader.header();
    let size = open()?
        .seek(SeekFrom::End(0))
        .with_context(|| format!("cannot read {name}"))?;
    // The header, checked against the trailer, the first block and the size: a header that
    // contradicts the file (forged, or a damaged field under a valid checksum) is an error.
    let count = check_layout(&mut BufReader::new(open()?), &header).with_context(|| {
        format!("{name} is inconsistent (ttt unpack --salvage recovers what is intact)")
    })?;
    let from = match header.count {
        Some(_) => "header",
        None => "trailer; written as a stream",
    };
    let packing = header.packing;
    let (bits, per) = packing.bits_per_position();
    let packed_bits = f64::from(bits) / f64::from(per);
    let expected = header.file_bytes(count);
    let records = count as f64;
    let limit = f64::from(packing.holds()).log2();
    let text = count.saturating_mul(TEXT_BYTES_PER_LINE);
    let limit_bytes = (count as f64 * limit / 8.0).ceil();
    outln!("file              {name}");
    outln!("format            .ttt version {}", header.version);
    outln!(
        "encoding          {packing} ({} of {}; {packed_bits:.2} bits each)",
        packing.description(),
        packing.holds()
    );
    outln!("records           {count} (from the {from})");
    outln!(
        "blocks            {} of up to {} records",
        header.blocks_for(count),
        header.records_per_block
    );
    // `check_layout` has held the size to the layout's.
    outln!("file size         {size} bytes (as the layout requires: {expected})");
    if count == 0 {
        outln!("bits/position     - (no records: the file is headers and checksums only)");
    } else {
        outln!(
            "bits/position     {:.3} in the file, headers and checksums included",
            size as f64 * 8.0 / records
        );
        outln!(
            "text form         {text} bytes at {TEXT_BYTES_PER_LINE} bytes/line: the file is {} of it",
            percent(size as f64, text as f64)
        );
        outln!(
            "information limit log2({}) = {limit:.3} bits/position = {limit_bytes} bytes: the file is {} of it",
            packing.holds(),
            percent(size as f64, limit_bytes)
        );
    }
    if args.verify {
        let mut reader = Reader::new(BufReader::with_capacity(1 << 20, open()?))
            .with_context(|| format!("cannot read {name}"))?;
        let mut boards = Vec::new();
        while reader
            .read_block(&mut boards)
            .with_context(|| format!("{name} fails verification"))?
        {
            boards.clear();
        }
        outln!("verified          every block checksum, the trailer and the count");
    }
    Ok(ExitCode::SUCCESS)
}
