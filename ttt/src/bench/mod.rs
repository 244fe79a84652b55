//! The measurements behind `ttt bench`: scenarios, methods, timed loops.
//!
//! Every timed loop follows one pattern. The board is passed through [`black_box`] on every
//! iteration, so the compiler cannot hoist the check out of the loop or fold it into a
//! constant; each answer is added into a checksum, and the checksum goes through
//! [`black_box`] at the end, so the checks cannot be deleted as dead code. What remains is the
//! check itself plus a load of the board: the cost a caller pays. A figure below
//! [`FLOOR_NS`] means the guard failed and work was optimised away; the report flags it.
//!
//! The methods of one scenario are timed in rounds: one trial of each method per round, the
//! order rotating from round to round ([`run_interleaved`]). On a shared machine whose speed
//! drifts from one second to the next, every method then samples the same stretches of time,
//! so the ratios between methods hold even when the absolute figures move.

pub mod chart;
pub mod published;

use std::hint::black_box;
use std::time::Instant;

use tictactoe::lab::{self, Base3Table, Check, Masks, Paper, Shift, Table, TableBits, Traditional};
use tictactoe::status::batch::{self, Kernel};
use tictactoe::status::{BoardWord, Method, Verdict};
use tictactoe::{Board, Player, Position};

use crate::alloc_count;

/// Below this many nanoseconds per check, a loop has been optimised away.
pub const FLOOR_NS: f64 = 0.05;

/// The methods a run without `--method` times: the paper's two; the native-bitboard checks
/// (`masks`, and the lookup in a table of bytes and in a table of bits); the base-3 status
/// table (not the fastest, but the smallest state: 2 bytes per board); the vectorised batch on
/// the widest kernel the CPU has, and the same batch in its portable build (SSE2 on x86-64),
/// so the gain of the wide kernel shows in the same run. Left out, because they never win
/// (see docs/benchmarks.md): `shift`, the scalar shift-AND, slower than `masks` on every
/// scenario (its kernel is the one `batch` vectorises); and `batch-packed`, the batch kernel
/// on one `u32` per board, slower than `batch`.
pub const DEFAULT_METHODS: [Method; 8] = [
    Method::Traditional,
    Method::Paper,
    Method::Masks,
    Method::Table,
    Method::TableBits,
    Method::Base3,
    Method::Batch,
    Method::BatchPortable,
];

/// A set of boards `ttt bench` times: the paper's five scenarios (one board each, as the
/// paper's Figs. 4.1 and 4.2 time them; docs/paper.md#the-five-scenarios), then the two
/// exhaustive ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum Scenario {
    /// `XXX/OO./...`: X wins on the top row.
    RowWin,
    /// `XO./XO./X..`: X wins on the left column.
    ColumnWin,
    /// `XOO/OXX/XOX`: X wins on a diagonal.
    DiagonalWin,
    /// `XOX/XOO/OXX`: a full board, drawn.
    FullBoardDraw,
    /// `X../.O./...`: two marks, nobody has won.
    EarlyGame,
    /// Each of the 5,478 reachable positions.
    AllPositions,
    /// Each of the 19,683 grids.
    AllGrids,
}

impl Scenario {
    /// Every scenario, in reporting order.
    pub const ALL: [Scenario; 7] = [
        Scenario::RowWin,
        Scenario::ColumnWin,
        Scenario::DiagonalWin,
        Scenario::FullBoardDraw,
        Scenario::EarlyGame,
        Scenario::AllPositions,
        Scenario::AllGrids,
    ];

    /// The name on the command line and in reports.
    pub const fn name(self) -> &'static str {
        match self {
            Scenario::RowWin => "row-win",
            Scenario::ColumnWin => "column-win",
            Scenario::DiagonalWin => "diagonal-win",
            Scenario::FullBoardDraw => "full-board-draw",
            Scenario::EarlyGame => "early-game",
            Scenario::AllPositions => "all-positions",
            Scenario::AllGrids => "all-grids",
        }
    }

    /// The board of a one-board scenario, as text.
    pub const fn board_text(self) -> Option<&'static str> {
        match self {
            Scenario::RowWin => Some("XXX/OO./..."),
            Scenario::ColumnWin => Some("XO./XO./X.."),
            Scenario::DiagonalWin => Some("XOO/OXX/XOX"),
            Scenario::FullBoardDraw => Some("XOX/XOO/OXX"),
            Scenario::EarlyGame => Some("X../.O./..."),
            Scenario::AllPositions | Scenario::AllGrids => None,
        }
    }

    /// The boards checked in one iteration.
    pub fn boards(self) -> Vec<Board> {
        match (self, self.board_text()) {
            (Scenario::AllPositions, _) => {
                Position::all().map(tictactoe::Position::board).collect()
            }
            (Scenario::AllGrids, _) => Board::all().collect(),
            (_, Some(text)) => vec![text.parse().expect("scenario boards are valid")],
            (_, None) => Vec::new(),
        }
    }
}

/// The default number of iterations: the paper's 100,000 for one board; for the exhaustive
/// scenarios, enough passes to make at least 100,000 checks.
pub fn default_iterations(boards: usize) -> u64 {
    100_000u64.div_ceil(boards as u64)
}

/// The timings of one (scenario, method) pair, and what the method costs in memory.
#[derive(Clone, Debug)]
pub struct Measurement {
    /// Seconds per trial, one entry per trial.
    pub trial_seconds: Vec<f64>,
    /// Checks made in one trial.
    pub checks_per_trial: u64,
    /// Heap bytes allocated inside the timed loops, all trials together.
    pub heap_bytes: u64,
}

impl Measurement {
    /// Mean seconds per trial.
    pub fn mean_s(&self) -> f64 {
        self.trial_seconds.iter().sum::<f64>() / self.trial_seconds.len() as f64
    }

    /// Sample standard deviation of the seconds per trial (`n - 1`).
    pub fn std_s(&self) -> f64 {
        let n = self.trial_seconds.len() as f64;
        if n < 2.0 {
            return 0.0;
        }
        let mean = self.mean_s();
        let sq: f64 = self.trial_seconds.iter().map(|t| (t - mean).powi(2)).sum();
        (sq / (n - 1.0)).sqrt()
    }

    /// Median seconds per trial: robust to a trial that lost the core to another process.
    pub fn median_s(&self) -> f64 {
        let mut sorted = self.trial_seconds.clone();
        sorted.sort_by(f64::total_cmp);
        let n = sorted.len();
        if n % 2 == 1 {
            sorted[n / 2]
        } else {
            (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0
        }
    }

    /// Fastest trial, seconds.
    pub fn min_s(&self) -> f64 {
        self.trial_seconds
            .iter()
            .copied()
            .fold(f64::INFINITY, f64::min)
    }

    /// Nanoseconds per check, from the median trial.
    pub fn ns_per_check(&self) -> f64 {
        self.median_s() * 1e9 / self.checks_per_trial as f64
    }

    /// Seconds per 100,000 checks, the paper's unit.
    pub fn per_100k(&self, seconds: f64) -> f64 {
        seconds * 100_000.0 / self.checks_per_trial as f64
    }
}

/// `0` X, `1` O, `2` nobody: what the checksum adds up. The same numbers as the in-memory
/// form of `Option<Player>`, so the fold costs a zero-extension, not a branch.
fn answer_code(winner: Option<Player>) -> u64 {
    match winner {
        Some(player) => player as u64,
        None => 2,
    }
}

/// A timed loop made ready: its input buffers laid out, and one trial as a closure returning
/// its checksum.
pub struct Timer {
    checks_per_trial: u64,
    one_trial: Box<dyn FnMut() -> u64>,
}

impl Timer {
    fn new(checks_per_trial: u64, one_trial: impl FnMut() -> u64 + 'static) -> Timer {
        Timer {
            checks_per_trial,
            one_trial: Box::new(one_trial),
        }
    }
}

/// Runs `trials` rounds of one timed trial of every timer, rotating which goes first, and
/// counts the heap bytes each allocates while the clock runs; `after_round` is told the round
/// just finished. Measurements come back in the timers' order.
pub fn run_interleaved(
    timers: &mut [Timer],
    trials: u32,
    mut after_round: impl FnMut(u32),
) -> Vec<Measurement> {
    let mut measurements: Vec<Measurement> = timers
        .iter()
        .map(|t| Measurement {
            trial_seconds: Vec::with_capacity(trials as usize),
            checks_per_trial: t.checks_per_trial,
            heap_bytes: 0,
        })
        .collect();
    // One untimed trial each first: page faults, cold caches and frequency ramp-up land there.
    for timer in timers.iter_mut() {
        black_box((timer.one_trial)());
    }
    for round in 0..trials {
        for k in 0..timers.len() {
            let i = (k + round as usize) % timers.len();
            let heap_before = alloc_count::allocated_bytes();
            let start = Instant::now();
            black_box((timers[i].one_trial)());
            let elapsed = start.elapsed();
            measurements[i].heap_bytes += alloc_count::allocated_bytes() - heap_before;
            measurements[i].trial_seconds.push(elapsed.as_secs_f64());
        }
        after_round(round);
    }
    measurements
}

/// How a trial of `iterations` iterations over `boards` is laid out: a single board is
/// copied `copies` times into a buffer walked `passes` times (so the loop overhead is one
/// level, not two); a scenario with many boards is walked `iterations` times. Either way a
/// trial makes exactly `iterations * boards.len()` checks.
fn layout(boards: usize, iterations: u64) -> (usize, u64) {
    if boards == 1 {
        let copies = gcd(iterations, 1_000);
        (copies as usize, iterations / copies)
    } else {
        (1, iterations)
    }
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// `items`, each repeated `copies` times.
fn repeated<T: Copy>(items: &[T], copies: usize) -> Vec<T> {
    items
        .iter()
        .flat_map(|&t| std::iter::repeat_n(t, copies))
        .collect()
}

/// A timer for `M::winner` over `states`, `iterations` iterations per trial.
fn time_method<M: Check<State: 'static>>(states: &[M::State], iterations: u64) -> Timer {
    let checks = iterations * states.len() as u64;
    let (copies, passes) = layout(states.len(), iterations);
    let buffer = repeated(states, copies);
    Timer::new(checks, move || trial::<M>(&buffer, passes))
}

/// One trial of [`time_method`]: its own function, so each method's loop is compiled (and
/// can be read in the disassembly) on its own.
#[inline(never)]
fn trial<M: Check>(states: &[M::State], iterations: u64) -> u64 {
    /// One check. A function rather than a closure, so `inline(always)` applies: a call per
    /// check would be timed with it.
    #[inline(always)]
    fn check<M: Check>(state: M::State) -> u64 {
        // black_box: a fresh, opaque board each time; see the module comment.
        answer_code(M::winner(black_box(state)))
    }
    checked_passes(states, iterations, check::<M>)
}

/// Runs `check` on every input, `passes` times, one input after another, and returns the
/// sum of the answers.
///
/// One check per step of the loop, on purpose: unrolled by four, the loop ran 5-10% faster,
/// but LLVM's SLP vectoriser then merged the tails of neighbouring checks into shared vector
/// code, which times something other than one board at a time.
#[inline(always)]
fn checked_passes<S: Copy>(inputs: &[S], passes: u64, check: impl Fn(S) -> u64) -> u64 {
    let mut checksum = 0u64;
    for _ in 0..passes {
        for &input in inputs {
            checksum = checksum.wrapping_add(check(input));
        }
    }
    black_box(checksum)
}

/// A timer for `f` on prepared inputs, for the conversion/check split of the defect report.
pub fn time_fn<S: Copy + 'static, R>(
    inputs: &[S],
    iterations: u64,
    f: impl Fn(S) -> R + 'static,
    fold: impl Fn(R) -> u64 + 'static,
) -> Timer {
    let checks = iterations * inputs.len() as u64;
    let (copies, passes) = layout(inputs.len(), iterations);
    let buffer = repeated(inputs, copies);
    Timer::new(checks, move || {
        checked_passes(&buffer, passes, |input| fold(f(black_box(input))))
    })
}

/// A timer for [`batch::verdicts`] on packed boards: one call per pass over the buffer laid
/// out by [`layout`], so it makes the same checks as the single-board methods.
fn time_batch_packed(boards: &[Board], iterations: u64) -> Timer {
    let checks = iterations * boards.len() as u64;
    let (copies, calls) = layout(boards.len(), iterations);
    let packed: Vec<BoardWord> = boards.iter().map(|&b| BoardWord::from_board(b)).collect();
    let input = repeated(&packed, copies);
    let mut out = vec![Verdict::default(); input.len()];
    Timer::new(checks, move || {
        let mut checksum = 0u64;
        for _ in 0..calls {
            let n = batch::verdicts(black_box(&input), black_box(&mut out));
            // black_box(&mut out): the kernel's stores must all happen, as if read later.
            black_box(&mut out);
            checksum = checksum.wrapping_add(u64::from(out[n - 1].bits()));
        }
        black_box(checksum)
    })
}

/// A timer for [`batch::verdicts_split_with`] on `kernel`, as [`time_batch_packed`] is for
/// the packed layout.
fn time_batch(boards: &[Board], iterations: u64, kernel: Kernel) -> Timer {
    let checks = iterations * boards.len() as u64;
    let (copies, calls) = layout(boards.len(), iterations);
    let xs = repeated(
        &boards.iter().map(|b| b.x().bits()).collect::<Vec<_>>(),
        copies,
    );
    let os = repeated(
        &boards.iter().map(|b| b.o().bits()).collect::<Vec<_>>(),
        copies,
    );
    let mut out = vec![Verdict::default(); xs.len()];
    Timer::new(checks, move || {
        let mut checksum = 0u64;
        for _ in 0..calls {
            let n = batch::verdicts_split_with(
                kernel,
                black_box(&xs),
                black_box(&os),
                black_box(&mut out),
            );
            // black_box(&mut out): the kernel's stores must all happen, as if read later.
            black_box(&mut out);
            checksum = checksum.wrapping_add(u64::from(out[n - 1].bits()));
        }
        black_box(checksum)
    })
}

/// A timer for `method` on `boards`.
pub fn timer(method: Method, boards: &[Board], iterations: u64) -> Timer {
    fn prepared<M: Check<State: 'static>>(boards: &[Board], iterations: u64) -> Timer {
        let states: Vec<M::State> = boards.iter().map(|&b| M::prepare(b)).collect();
        time_method::<M>(&states, iterations)
    }
    match method {
        Method::Traditional => prepared::<Traditional>(boards, iterations),
        Method::Paper => prepared::<Paper>(boards, iterations),
        Method::Masks => prepared::<Masks>(boards, iterations),
        Method::Table => prepared::<Table>(boards, iterations),
        Method::TableBits => prepared::<TableBits>(boards, iterations),
        Method::Shift => prepared::<Shift>(boards, iterations),
        Method::Base3 => prepared::<Base3Table>(boards, iterations),
        Method::BatchPacked => time_batch_packed(boards, iterations),
        Method::BatchPortable => time_batch(boards, iterations, Kernel::Portable),
        Method::Batch => time_batch(boards, iterations, Kernel::best()),
    }
}

/// How many of the 5,478 positions `method` answers wrongly.
pub fn wrong_positions(method: Method) -> usize {
    Position::all()
        .filter(|p| method.winner(p.board()) != p.winner())
        .count()
}

/// The grids `method` answers wrongly (see [`lab::agrees`]).
pub fn wrong_grids(method: Method) -> Vec<Board> {
    Board::all()
        .filter(|&b| !lab::agrees(b, method.winner(b)))
        .collect()
}

/// The CPU model from `/proc/cpuinfo` (or `unknown`), and the number of logical cores.
pub fn machine() -> (String, usize) {
    let model = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|text| {
            text.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_owned())
        })
        .unwrap_or_else(|| "unknown".to_owned());
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    (model, cores)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrong_counts_come_from_the_methods() {
        for method in Method::ALL {
            let expected = if method == Method::Paper { 95 } else { 0 };
            assert_eq!(wrong_positions(method), expected, "{method}");
        }
        assert_eq!(wrong_grids(Method::Paper).len(), 570);
    }

    #[test]
    fn measurements_count_checks() {
        assert_eq!(layout(1, 100_000), (1_000, 100));
        assert_eq!(layout(1, 7), (1, 7));
        assert_eq!(layout(5_478, 3), (1, 3));
        let boards = Scenario::RowWin.boards();
        let mut timers: Vec<Timer> = Method::ALL.iter().map(|&m| timer(m, &boards, 10)).collect();
        let mut rounds = Vec::new();
        let measured = run_interleaved(&mut timers, 2, |round| rounds.push(round));
        assert_eq!(rounds, [0, 1]);
        assert_eq!(measured.len(), Method::ALL.len());
        for (name, m) in Method::ALL.iter().zip(&measured) {
            assert_eq!(m.trial_seconds.len(), 2, "{name}");
            assert_eq!(m.checks_per_trial, 10, "{name}");
            assert_eq!(m.heap_bytes, 0, "{name}");
        }
    }
}
