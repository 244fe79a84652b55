//! `--exact N`: the exact score of every Connect Four position of up to `N` stones.
//!
//! The positions of exactly `N` stones (one of each mirror pair, those whose player to move
//! cannot win at once: the *leaves*) are solved by search, in the depth-first order of
//! `connect4::positions_of`, on every core: each thread has its own solver (shared-nothing)
//! and keeps its table from one leaf to the next, so a leaf finds much of its neighbours' work
//! in it; each solver reads the shipped proof book and every exact score already known. Every
//! position of fewer stones then gets its score from its children's (`Book::with_derived_scores`),
//! with no search: a parent is never solved.
//!
//! Resumable: each solved leaf is appended at once to a journal (`PATH.journal`, `0xKEY S S`
//! lines, flushed), and a run reads the book at `PATH` and the journal first, so a stopped or
//! killed run loses at most the leaves being solved. At the end of a run (all leaves solved, or
//! `--max-seconds` reached) the book with every derivable score is written to `PATH` (a
//! temporary file renamed over it) and the journal removed. Progress goes to standard error
//! every `--every` seconds (30): leaves solved, CPU seconds a leaf in this run, the CPU time
//! the remaining leaves would take at that rate.
//!
//! | option | meaning |
//! |---|---|
//! | `--exact N` | the stones of the leaves |
//! | `--book PATH` | the book read and written (`tictactoe/data/connect4-exact.bin`) |
//! | `--threads T` | solving threads (every core) |
//! | `--max-seconds S` | take no new leaf after `S` seconds of wall time (none) |
//! | `--sample K` | first solve `K` leaves spread over all leaves, each with a fresh table on one thread, and print their CPU time a leaf (mean, median, 95th percentile, maximum) and what all leaves would take at that mean; the scores are kept |
//! | `--verify K` | at the end, check `K` entries spread over the book against a fresh solver that reads only the proof book |
//! | `--every S` | seconds between progress lines (30) |
//! | `--max-leaves K` | solve at most `K` leaves in this run (none) |
//! | `--fresh` | clear each thread's table before each leaf (to measure what keeping it saves) |

use std::fs::{self, File, OpenOptions};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use tictactoe::connect4::{Book, Position, Solver, positions_of, positions_up_to};

use super::cpu_seconds;

struct Options {
    stones: usize,
    book: PathBuf,
    threads: usize,
    max_seconds: Option<f64>,
    sample: usize,
    verify: usize,
    every: f64,
    max_leaves: usize,
    fresh: bool,
}

fn options(args: &[String]) -> Result<Options, Box<dyn std::error::Error>> {
    let mut options = Options {
        stones: 0,
        book: concat!(env!("CARGO_MANIFEST_DIR"), "/data/connect4-exact.bin").into(),
        threads: std::thread::available_parallelism().map_or(1, usize::from),
        max_seconds: None,
        sample: 0,
        verify: 0,
        every: 30.0,
        max_leaves: usize::MAX,
        fresh: false,
    };
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        if arg == "--fresh" {
            options.fresh = true;
            continue;
        }
        let value = args.next().ok_or(format!("{arg} needs a value"))?;
        match arg.as_str() {
            "--exact" => options.stones = value.parse()?,
            "--book" => options.book = value.into(),
            "--threads" => options.threads = value.parse::<usize>()?.max(1),
            "--max-seconds" => options.max_seconds = Some(value.parse()?),
            "--sample" => options.sample = value.parse()?,
            "--verify" => options.verify = value.parse()?,
            "--every" => options.every = value.parse()?,
            "--max-leaves" => options.max_leaves = value.parse()?,
            other => return Err(format!("unknown argument {other:?} with --exact").into()),
        }
    }
    if options.stones > 20 {
        return Err("--exact: at most 20 stones (already 9 is days of CPU)".into());
    }
    Ok(options)
}

fn journal_path(book: &Path) -> PathBuf {
    let mut name = book.as_os_str().to_owned();
    name.push(".journal");
    name.into()
}

/// The book at `path` (empty if there is none) and the journal's scores, merged. A journal
/// cut off in the middle of a line (a killed run) loses that line, and is truncated to match.
fn read_known(path: &Path) -> Result<Book, Box<dyn std::error::Error>> {
    let book = match fs::read(path) {
        Ok(bytes) => Book::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Book::default(),
        Err(e) => return Err(format!("{}: {e}", path.display()).into()),
    };
    let journal = journal_path(path);
    let text = match fs::read_to_string(&journal) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(format!("{}: {e}", journal.display()).into()),
    };
    let whole = text.rfind('\n').map_or(0, |i| i + 1);
    if whole < text.len() {
        eprintln!(
            "{}: dropping a cut-off last line (a killed run)",
            journal.display()
        );
        OpenOptions::new()
            .write(true)
            .open(&journal)?
            .set_len(whole as u64)?;
    }
    let logged: Book = text[..whole]
        .parse()
        .map_err(|e| format!("{}: {e}", journal.display()))?;
    if !logged.is_empty() {
        eprintln!(
            "{}: {} scores from a run that did not finish",
            journal.display(),
            logged.len()
        );
    }
    Ok(book.merged(&logged)?)
}

/// What the book covers, ply by ply up to `stones`: positions, positions whose player can
/// win at once, positions with an exact score, and whether every position's hints (its
/// children's scores) are in it.
fn coverage(book: &Book, stones: usize) -> Vec<(usize, usize, usize, usize)> {
    positions_up_to(stones)
        .iter()
        .enumerate()
        .map(|(ply, level)| {
            let now = level.iter().filter(|p| p.can_win_next()).count();
            let exact = level
                .iter()
                .filter(|p| !p.can_win_next() && book.score(**p).is_some())
                .count();
            (ply, level.len(), now, exact)
        })
        .collect()
}

fn print_coverage(book: &Book, stones: usize) {
    eprintln!("ply | positions | win at once | exact in the book | missing");
    let rows = coverage(book, stones);
    for &(ply, all, now, exact) in &rows {
        eprintln!("{ply} | {all} | {now} | {exact} | {}", all - now - exact);
    }
    let full = rows
        .iter()
        .take_while(|&&(_, all, now, exact)| all == now + exact)
        .count();
    match full {
        0 => eprintln!("no ply is fully covered"),
        n => eprintln!(
            "plies 0 to {} are fully covered: every position of at most {} stones gets every hint from the book",
            n - 1,
            (n - 1).saturating_sub(1)
        ),
    }
}

/// Solves `sample` leaves spread over `leaves`, each with a fresh table, and prints their CPU
/// times; returns the scores.
fn sample(leaves: &[Position], count: usize, search: &Book) -> Vec<(Position, i32)> {
    let step = (leaves.len() / count.max(1)).max(1);
    let mut solver = Solver::with_book(search.clone());
    let mut times = Vec::new();
    let mut scores = Vec::new();
    for &leaf in leaves.iter().step_by(step).take(count) {
        solver.reset();
        let t = cpu_seconds();
        scores.push((leaf, solver.score(leaf)));
        times.push(cpu_seconds() - t);
    }
    if times.is_empty() {
        return scores;
    }
    times.sort_by(f64::total_cmp);
    let mean = times.iter().sum::<f64>() / times.len() as f64;
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    eprintln!(
        "sample of {} leaves, a fresh table each: CPU s a leaf mean {mean:.3}, median {:.3}, p95 {:.3}, max {:.3}; all {} leaves at the mean: {:.0} CPU s ({:.1} CPU h)",
        times.len(),
        at(0.5),
        at(0.95),
        at(1.0),
        leaves.len(),
        mean * leaves.len() as f64,
        mean * leaves.len() as f64 / 3600.0
    );
    scores
}

pub fn main(args: &[String]) -> Result<(), Box<dyn std::error::Error>> {
    let options = options(args)?;
    let stones = options.stones;
    let known = read_known(&options.book)?;
    let all_leaves: Vec<Position> = positions_of(stones)
        .into_iter()
        .filter(|p| !p.can_win_next())
        .collect();
    let proof: Book = Book::shipped_proof();
    // The solvers read the proof's bounds and every exact score known so far.
    let search = proof.merged(&known)?;
    let journal = journal_path(&options.book);
    let log = Mutex::new(BufWriter::new(
        OpenOptions::new()
            .create(true)
            .append(true)
            .open(&journal)?,
    ));
    let append = |position: Position, score: i32| -> std::io::Result<()> {
        let mut log = log
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        writeln!(log, "{:#x} {score} {score}", position.canonical_key())?;
        log.flush()
    };
    if options.sample > 0 {
        for (leaf, score) in sample(&all_leaves, options.sample, &search) {
            append(leaf, score)?;
        }
    }
    let known = read_known(&options.book)?;
    let mut leaves: Vec<Position> = all_leaves
        .iter()
        .copied()
        .filter(|p| known.score(*p).is_none())
        .collect();
    let unsolved = leaves.len();
    leaves.truncate(options.max_leaves);
    eprintln!(
        "ply {stones}: {} leaves (positions whose player cannot win at once), {} already solved, {} to solve on {} threads",
        all_leaves.len(),
        all_leaves.len() - unsolved,
        leaves.len(),
        options.threads
    );
    let search = proof.merged(&known)?;

    let start = Instant::now();
    let next = AtomicUsize::new(0);
    let solved = AtomicUsize::new(0);
    let cpu_nanos = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let failed = Mutex::new(None);
    let out_of_time = || {
        options
            .max_seconds
            .is_some_and(|s| start.elapsed().as_secs_f64() >= s)
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.threads)
        .build()?;
    // Consecutive leaves go to one thread, so its table holds their common subtrees: up to
    // 32 at a time, fewer when there are few leaves, so every thread gets some.
    let chunk = (leaves.len() / (8 * options.threads)).clamp(1, 32);
    std::thread::scope(|scope| {
        scope.spawn(|| {
            let mut last = Instant::now();
            while !stop.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(200));
                if last.elapsed().as_secs_f64() < options.every {
                    continue;
                }
                last = Instant::now();
                let done = solved.load(Ordering::Relaxed);
                let cpu = cpu_nanos.load(Ordering::Relaxed) as f64 / 1e9;
                let per = cpu / done.max(1) as f64;
                eprintln!(
                    "ply {stones}: {done}/{} leaves solved in this run ({:.1}%), {:.0} s wall, {cpu:.0} CPU s, {per:.3} CPU s a leaf; the rest at that rate: {:.1} CPU h",
                    leaves.len(),
                    100.0 * done as f64 / leaves.len().max(1) as f64,
                    start.elapsed().as_secs_f64(),
                    per * (leaves.len() - done) as f64 / 3600.0
                );
            }
        });
        pool.broadcast(|_| {
            let mut solver = Solver::with_book(search.clone());
            'chunks: loop {
                let first = next.fetch_add(chunk, Ordering::Relaxed);
                let Some(leaves) = leaves.get(first..(first + chunk).min(leaves.len())) else {
                    break;
                };
                for &leaf in leaves {
                    if out_of_time() || failed.lock().is_ok_and(|f| f.is_some()) {
                        break 'chunks;
                    }
                    if options.fresh {
                        solver.reset();
                    }
                    let t = cpu_seconds();
                    let score = solver.score(leaf);
                    cpu_nanos.fetch_add(((cpu_seconds() - t) * 1e9) as u64, Ordering::Relaxed);
                    if let Err(e) = append(leaf, score) {
                        if let Ok(mut f) = failed.lock() {
                            *f = Some(e);
                        }
                        break 'chunks;
                    }
                    solved.fetch_add(1, Ordering::Relaxed);
                }
            }
        });
        stop.store(true, Ordering::Relaxed);
    });
    if let Some(e) = failed.into_inner().ok().flatten() {
        return Err(format!("{}: {e}", journal.display()).into());
    }
    let done = solved.load(Ordering::Relaxed);
    let cpu = cpu_nanos.load(Ordering::Relaxed) as f64 / 1e9;
    eprintln!(
        "this run: {done} leaves of {stones} stones solved in {:.0} s wall, {cpu:.0} CPU s ({:.3} CPU s a leaf); {} leaves left",
        start.elapsed().as_secs_f64(),
        cpu / done.max(1) as f64,
        leaves.len() - done
    );

    drop(log);
    let known = read_known(&options.book)?;
    let deepest = known.iter().map(|e| e.0.moves()).max().unwrap_or(0);
    let book = known.with_derived_scores(&positions_up_to(deepest.saturating_sub(1)))?;
    let temporary = options.book.with_extension("bin.tmp");
    File::create(&temporary)?.write_all(&book.to_bytes())?;
    fs::rename(&temporary, &options.book)?;
    fs::remove_file(&journal)?;
    eprintln!(
        "{}: {} positions with exact scores, {} bytes",
        options.book.display(),
        book.len(),
        book.to_bytes().len()
    );
    print_coverage(&book, deepest.max(stones));

    if options.verify > 0 {
        let entries: Vec<(Position, i32, i32)> = book.iter().collect();
        super::verify_sample(&entries, options.verify, Solver::with_book(proof))?;
    }
    Ok(())
}
