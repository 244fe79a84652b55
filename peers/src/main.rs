//! The peer benchmark: `tictactoe-kit` against the crates.io peers `tic-tac-toe-board`,
//! `board-game` and `norts`, measured interleaved in one process.
//!
//! Every group runs each contender once per round, in turn, for several rounds, and reports
//! the median time per item and the ratio to our first entry. Run it twice, once per build:
//!
//! ```text
//! cargo run --release --manifest-path peers/Cargo.toml
//! RUSTFLAGS="-C target-cpu=native" cargo run --release --manifest-path peers/Cargo.toml
//! ```
//!
//! Arguments after `--` pick groups (`single`, `play`, `array`, `selfplay`, `perfect`, the
//! k-in-a-row family's `c4`, `c4-perft`, `gomoku`, `ttt-family`: see `family.rs`, the per-move
//! API's `c4-moves`, `gomoku-moves`, `ttt-moves`: see `moves.rs`, and ultimate tic-tac-toe's
//! `ultimate`, `ultimate-play`, `ultimate-perft`: see `ultimate.rs`); none runs them all.
//!
//! The peers are built with the same flags as ours (one `cargo` invocation builds them all).

mod family;
mod moves;
mod ultimate;

use std::collections::HashMap;
use std::hint::black_box;

use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{Rng, RngCore, SeedableRng};
use tictactoe::status::{BoardWord, Method, Verdict, batch};
use tictactoe::{Cell, Player, Position, Status, lab, selfplay, solver};

use board_game::board::{Board as _, Outcome as BgOutcome, Player as BgPlayer};
use board_game::games::ttt::TTTBoard;
use board_game::util::coord::Coord3;
use tic_tac_toe_board::{CellIndex, TicTacToe, TicTacToeState};

/// Rounds per group (the median is reported).
const ROUNDS: usize = 15;

/// This thread's CPU time in nanoseconds. The machines we share are busy: wall time counts the
/// slices other processes get, thread CPU time does not.
fn thread_ns() -> f64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `clock_gettime` writes one `timespec` through a valid pointer.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    t.tv_sec as f64 * 1e9 + t.tv_nsec as f64
}

/// One contender of a group: a name and a closure doing `items` items of work.
struct Case<'a> {
    name: &'static str,
    items: usize,
    run: Box<dyn FnMut() -> u64 + 'a>,
}

fn case<'a>(name: &'static str, items: usize, run: impl FnMut() -> u64 + 'a) -> Case<'a> {
    Case {
        name,
        items,
        run: Box::new(run),
    }
}

/// Runs the cases interleaved and prints median ns per item and the ratio to the first case.
fn group(title: &str, unit: &str, cases: Vec<Case<'_>>) {
    group_with(title, unit, ROUNDS, cases);
}

/// [`group`] with `rounds` rounds; the table gives each case's median, its range (fastest
/// and slowest round) and the ratio of medians to the first case.
fn group_with(title: &str, unit: &str, rounds: usize, mut cases: Vec<Case<'_>>) {
    let mut times = vec![Vec::new(); cases.len()];
    for case in &mut cases {
        black_box((case.run)()); // warm-up
    }
    for _ in 0..rounds {
        for (case, times) in cases.iter_mut().zip(&mut times) {
            let start = thread_ns();
            black_box((case.run)());
            times.push((thread_ns() - start) / case.items as f64);
        }
    }
    for t in &mut times {
        t.sort_by(f64::total_cmp);
    }
    let medians: Vec<f64> = times.iter().map(|t| t[t.len() / 2]).collect();
    println!("\n## {title}\n");
    println!(
        "| contender | ns per {unit} (median of {rounds}, thread CPU time) | range | vs ours (first row) |"
    );
    println!("|---|---:|---:|---:|");
    for ((case, median), t) in cases.iter().zip(&medians).zip(&times) {
        println!(
            "| {} | {median:.3} | {:.3}-{:.3} | {:.2}x |",
            case.name,
            t[0],
            t[t.len() - 1],
            median / medians[0]
        );
    }
}

/// Every reachable position with one move sequence leading to it (depth-first from the empty
/// board, first sequence found).
fn positions_with_paths() -> Vec<(Position, Vec<Cell>)> {
    fn walk(position: Position, path: &mut Vec<Cell>, seen: &mut HashMap<Position, Vec<Cell>>) {
        if seen.contains_key(&position) {
            return;
        }
        seen.insert(position, path.clone());
        for (cell, child) in position.children() {
            path.push(cell);
            walk(child, path, seen);
            path.pop();
        }
    }
    let mut seen = HashMap::new();
    walk(Position::EMPTY, &mut Vec::new(), &mut seen);
    let mut all: Vec<_> = seen.into_iter().collect();
    all.sort_by_key(|(p, _)| *p);
    assert_eq!(all.len(), Position::COUNT);
    all
}

fn ttt_board(path: &[Cell]) -> TicTacToe {
    let mut board = TicTacToe::new();
    for cell in path {
        board.play_move(&CellIndex::new(cell.index() as u8));
    }
    board
}

fn bg_board(path: &[Cell]) -> TTTBoard {
    let mut board = TTTBoard::default();
    for cell in path {
        board
            .play(Coord3::from_index(cell.index() as u8))
            .expect("a legal move");
    }
    board
}

fn norts_board(position: Position) -> norts::Board {
    let mut board = norts::Board::new();
    board.bitboard.x_bitboard = position.board().x().bits();
    board.bitboard.o_bitboard = position.board().o().bits();
    board
}

/// tic-tac-toe-board's private win check (`Bitboard::victory`), copied: a shift-AND over its
/// 4-bit-stride layout, X in the low half, O in the high half. Public only through `state()`.
#[inline]
fn ttt_board_victory(word: u32) -> bool {
    let (col, row) = (1, 4);
    0 != (word & word >> col & word >> (2 * col))
        | (word & word >> row & word >> (2 * row))
        | (word & word >> (col + row) & word >> (2 * (col + row)))
        | (word & word >> (row - col) & word >> (2 * (row - col)))
}

/// Our position in tic-tac-toe-board's internal layout (for its private check only).
fn ttt_board_word(position: Position) -> u32 {
    let spread = |bits: u16| -> u32 {
        (0..9)
            .filter(|i| bits >> i & 1 != 0)
            .map(|i| 1u32 << ((i / 3) * 4 + i % 3))
            .sum()
    };
    spread(position.board().x().bits()) | spread(position.board().o().bits()) << 16
}

fn status_code(status: Status) -> u64 {
    match status {
        Status::Ongoing => 0,
        Status::Won(Player::X) => 1,
        Status::Won(Player::O) => 2,
        Status::Draw => 3,
    }
}

fn ttt_code(state: TicTacToeState) -> u64 {
    match state {
        TicTacToeState::TurnPlayerOne | TicTacToeState::TurnPlayerTwo => 0,
        TicTacToeState::VictoryPlayerOne => 1,
        TicTacToeState::VictoryPlayerTwo => 2,
        TicTacToeState::Draw => 3,
    }
}

fn bg_code(outcome: Option<BgOutcome>) -> u64 {
    match outcome {
        None => 0,
        Some(BgOutcome::WonBy(BgPlayer::A)) => 1,
        Some(BgOutcome::WonBy(BgPlayer::B)) => 2,
        Some(BgOutcome::Draw) => 3,
    }
}

fn norts_code(board: &norts::Board) -> u64 {
    match board.situation() {
        1 => 1,
        -1 => 2,
        _ if board.is_in_play() => 0,
        _ => 3,
    }
}

fn main() {
    println!("# Peer benchmark: tictactoe-kit vs tic-tac-toe-board 0.2, board-game 0.8, norts 1.1");
    println!(
        "\nbuild: target-cpu features popcnt={} avx2={} avx512bw={}; batch kernel at run time: {}",
        cfg!(target_feature = "popcnt"),
        cfg!(target_feature = "avx2"),
        cfg!(target_feature = "avx512bw"),
        batch::Kernel::best().name()
    );
    let all = positions_with_paths();
    let mut rng = SmallRng::seed_from_u64(12);
    let mut order: Vec<usize> = (0..all.len()).collect();
    order.shuffle(&mut rng);
    let positions: Vec<Position> = order.iter().map(|&i| all[i].0).collect();
    let ttts: Vec<TicTacToe> = order.iter().map(|&i| ttt_board(&all[i].1)).collect();
    let bgs: Vec<TTTBoard> = order.iter().map(|&i| bg_board(&all[i].1)).collect();
    let nortses: Vec<norts::Board> = positions.iter().map(|&p| norts_board(p)).collect();
    let words: Vec<u32> = positions.iter().map(|&p| ttt_board_word(p)).collect();

    // Every peer's public status agrees with ours on every position.
    for i in 0..positions.len() {
        let ours = status_code(positions[i].status());
        assert_eq!(ttt_code(ttts[i].state()), ours, "{}", positions[i]);
        assert_eq!(bg_code(bgs[i].outcome()), ours, "{}", positions[i]);
        assert_eq!(norts_code(&nortses[i]), ours, "{}", positions[i]);
    }
    println!(
        "\nAll peers' public status agrees with ours on all {} positions.",
        positions.len()
    );

    // `cargo run ... -- single selfplay` runs only those groups; no argument runs all.
    let chosen: Vec<String> = std::env::args().skip(1).collect();
    for name in &chosen {
        assert!(
            GROUPS.contains(&name.as_str()),
            "unknown group {name:?}: expected one of {GROUPS:?}"
        );
    }
    let run = |name: &str| chosen.is_empty() || chosen.iter().any(|c| c == name);
    if run("single") {
        single_board::<ByOne>(&positions, &ttts, &bgs, &nortses, &words);
        single_board::<ByFour>(&positions, &ttts, &bgs, &nortses, &words);
    }
    if run("play") {
        play_and_check(&positions, &all, &order);
    }
    if run("array") {
        over_an_array(&positions, &ttts);
    }
    if run("selfplay") {
        self_play();
    }
    if run("perfect") {
        perfect_play(&all);
    }
    family::run(run);
    moves::run(run);
    ultimate::run(run);
}

/// The groups, by the names `main` takes as arguments.
const GROUPS: [&str; 15] = [
    "single",
    "play",
    "array",
    "selfplay",
    "perfect",
    "c4",
    "c4-perft",
    "gomoku",
    "ttt-family",
    "c4-moves",
    "gomoku-moves",
    "ttt-moves",
    "ultimate",
    "ultimate-play",
    "ultimate-perft",
];

/// How many times a single-board group goes over the positions in one timed run.
const REPEAT: usize = 40;

/// The loop of a single-board group: every item's `check`, `REPEAT` times, each answer stored
/// through `black_box`, so that it is computed and no contender pays for a branchy consumer on
/// shuffled input.
trait Shape {
    const TITLE: &'static str;
    /// Whether the group has the `Method` rows (see [`ByFour`]).
    const METHOD_ROWS: bool;
    fn each<T, R>(items: &[T], check: impl Fn(&T) -> R) -> u64;
}

/// One board to a loop iteration, as a user writes the loop.
struct ByOne;

impl Shape for ByOne {
    const TITLE: &'static str = "Single-board status over the 5,478 positions, shuffled";
    const METHOD_ROWS: bool = true;
    #[inline(always)]
    fn each<T, R>(items: &[T], check: impl Fn(&T) -> R) -> u64 {
        for _ in 0..REPEAT {
            for item in items {
                black_box(check(item));
            }
        }
        0
    }
}

/// Four boards to a loop iteration, unrolled by hand, the same for every contender.
///
/// With one board an iteration the loop's own load, store and branch are a floor under every
/// row, and where the compiler places that small loop moves the floor: in the native build it
/// has run at two cycles an iteration, not one, with the fastest checks sitting on it. Four
/// boards share one branch. The `Method` rows are left out: four inlined copies of its
/// dispatch are more than the compiler inlines, so each board becomes a call.
struct ByFour;

impl Shape for ByFour {
    const TITLE: &'static str = "Single-board status, four boards to a loop iteration";
    const METHOD_ROWS: bool = false;
    #[inline(always)]
    fn each<T, R>(items: &[T], check: impl Fn(&T) -> R) -> u64 {
        for _ in 0..REPEAT {
            let mut quads = items.chunks_exact(4);
            for quad in &mut quads {
                black_box(check(&quad[0]));
                black_box(check(&quad[1]));
                black_box(check(&quad[2]));
                black_box(check(&quad[3]));
            }
            for item in quads.remainder() {
                black_box(check(item));
            }
        }
        0
    }
}

/// A lab method's status over the positions, its representation prepared beforehand
/// (`prepare` is not part of the check).
fn lab_status<S: Shape, C: lab::Check>(positions: &[Position]) -> impl FnMut() -> u64 + use<S, C> {
    let states: Vec<C::State> = positions.iter().map(|p| C::prepare(p.board())).collect();
    move || S::each(&states, |&state| C::status(state))
}

/// Single-board status: each contender's check over the 5,478 positions, shuffled.
fn single_board<S: Shape>(
    positions: &[Position],
    ttts: &[TicTacToe],
    bgs: &[TTTBoard],
    nortses: &[norts::Board],
    words: &[u32],
) {
    let n = positions.len() * REPEAT;
    let method = |m: Method| {
        move || {
            let m = black_box(m);
            S::each(positions, |p| m.status(p.board()))
        }
    };
    let mut cases = vec![
        case("ours Position::status", n, || {
            S::each(positions, |p| p.status())
        }),
        case("ours Position::winner", n, || {
            S::each(positions, |p| p.winner())
        }),
        case(
            "ours lab::Table status",
            n,
            lab_status::<S, lab::Table>(positions),
        ),
        case(
            "ours lab::TableBits status",
            n,
            lab_status::<S, lab::TableBits>(positions),
        ),
        case(
            "ours lab::Masks status",
            n,
            lab_status::<S, lab::Masks>(positions),
        ),
        case(
            "ours lab::Shift status",
            n,
            lab_status::<S, lab::Shift>(positions),
        ),
    ];
    if S::METHOD_ROWS {
        cases.extend([
            case("ours Method::Table.status", n, method(Method::Table)),
            case(
                "ours Method::TableBits.status",
                n,
                method(Method::TableBits),
            ),
            case("ours Method::Masks.status", n, method(Method::Masks)),
            case("ours Method::Shift.status", n, method(Method::Shift)),
        ]);
    }
    cases.extend([
        case("tic-tac-toe-board state() (public)", n, || {
            S::each(ttts, |t| t.state())
        }),
        case("tic-tac-toe-board victory() (private, copied)", n, || {
            S::each(words, |&w| ttt_board_victory(w))
        }),
        case("norts situation() + is_in_play() (public)", n, || {
            S::each(nortses, |b| (b.situation(), b.is_in_play()))
        }),
        case("board-game outcome() (a stored field)", n, || {
            S::each(bgs, |b| b.outcome())
        }),
        // The loop alone: each position read and stored through `black_box`, no check. What
        // every row above pays before its check.
        case("harness floor: black_box(position), no check", n, || {
            S::each(positions, |&p| p)
        }),
    ]);
    group(S::TITLE, "board", cases);
}

/// Play + check: every (ongoing position, empty cell) pair, shuffled; play the move on a copy
/// and ask the new status.
fn play_and_check(positions: &[Position], all: &[(Position, Vec<Cell>)], order: &[usize]) {
    let mut pairs = Vec::new();
    for (k, &p) in positions.iter().enumerate() {
        for cell in p.legal_moves() {
            pairs.push((k, cell));
        }
    }
    pairs.shuffle(&mut SmallRng::seed_from_u64(3));
    let pairs = &pairs;
    let ttts: Vec<TicTacToe> = order.iter().map(|&i| ttt_board(&all[i].1)).collect();
    let bgs: Vec<TTTBoard> = order.iter().map(|&i| bg_board(&all[i].1)).collect();
    let mut norts_scratch = norts::Board::new();
    const REPEAT: usize = 4;
    let n = pairs.len() * REPEAT;
    group(
        &format!(
            "Play + check: {} (position, legal move) pairs, shuffled",
            pairs.len()
        ),
        "move",
        vec![
            case("ours Position::play + status", n, || {
                let sum = 0;
                for _ in 0..REPEAT {
                    for &(k, cell) in pairs {
                        let next = positions[k].play(cell).expect("legal");
                        black_box(next.status());
                    }
                }
                sum
            }),
            case("tic-tac-toe-board play_move + state", n, || {
                let sum = 0;
                for _ in 0..REPEAT {
                    for &(k, cell) in pairs {
                        let mut t = ttts[k];
                        t.play_move(&CellIndex::new(cell.index() as u8));
                        black_box(t.state());
                    }
                }
                sum
            }),
            case("norts play + is_in_play/situation", n, move || {
                let sum = 0;
                for _ in 0..REPEAT {
                    for &(k, cell) in pairs {
                        let b = &mut norts_scratch;
                        b.bitboard.x_bitboard = positions[k].board().x().bits();
                        b.bitboard.o_bitboard = positions[k].board().o().bits();
                        b.pgn.clear();
                        b.play(cell.index() as i8).expect("legal");
                        black_box((b.situation(), b.is_in_play()));
                    }
                }
                sum
            }),
            case("board-game clone + play + outcome", n, || {
                let sum = 0;
                for _ in 0..REPEAT {
                    for &(k, cell) in pairs {
                        let mut b = bgs[k].clone();
                        b.play(Coord3::from_index(cell.index() as u8))
                            .expect("legal");
                        black_box(b.outcome());
                    }
                }
                sum
            }),
        ],
    );
}

/// Status over an array: 2^16 boards (the positions, shuffled, repeated), one answer per board
/// written to an output array.
fn over_an_array(positions: &[Position], ttts: &[TicTacToe]) {
    const N: usize = 1 << 16;
    let xs: Vec<u16> = (0..N)
        .map(|i| positions[i % positions.len()].board().x().bits())
        .collect();
    let os: Vec<u16> = (0..N)
        .map(|i| positions[i % positions.len()].board().o().bits())
        .collect();
    let words: Vec<BoardWord> = (0..N)
        .map(|i| BoardWord::from_board(positions[i % positions.len()].board()))
        .collect();
    let ps: Vec<Position> = (0..N).map(|i| positions[i % positions.len()]).collect();
    let ts: Vec<TicTacToe> = (0..N).map(|i| ttts[i % ttts.len()]).collect();
    let mut out = vec![Verdict::default(); N];
    let mut out_status = vec![Status::Ongoing; N];
    let mut out_ttt = vec![TicTacToeState::Draw; N];
    let mut out2 = vec![Verdict::default(); N];
    let mut out3 = vec![Verdict::default(); N];
    let mut out4 = vec![Verdict::default(); N];
    let mut out5 = vec![Verdict::default(); N];
    let mut out6 = vec![Verdict::default(); N];
    group(
        "Status over an array of 65,536 boards (positions shuffled, repeated), into an output array",
        "board",
        vec![
            case("ours batch::verdicts_split (best kernel)", N, || {
                batch::verdicts_split(&xs, &os, &mut out) as u64 + u64::from(out[N - 1].bits())
            }),
            case(
                "ours batch::verdicts_split_with(Avx512) (AVX-512BW, no VBMI)",
                N,
                || {
                    batch::verdicts_split_with(batch::Kernel::Avx512, &xs, &os, &mut out5) as u64
                        + u64::from(out5[N - 1].bits())
                },
            ),
            case("ours batch::verdicts_split_with(Avx2)", N, || {
                batch::verdicts_split_with(batch::Kernel::Avx2, &xs, &os, &mut out6) as u64
                    + u64::from(out6[N - 1].bits())
            }),
            case("ours batch::verdicts_split_with(Portable)", N, || {
                batch::verdicts_split_with(batch::Kernel::Portable, &xs, &os, &mut out2) as u64
                    + u64::from(out2[N - 1].bits())
            }),
            case("ours batch::verdicts (packed, best kernel)", N, || {
                batch::verdicts(&words, &mut out3) as u64 + u64::from(out3[N - 1].bits())
            }),
            case("ours Position::status in a loop", N, || {
                for (o, p) in out_status.iter_mut().zip(&ps) {
                    *o = p.status();
                }
                status_code(out_status[N - 1])
            }),
            case("ours Verdict::of in a loop (portable)", N, || {
                for (o, w) in out4.iter_mut().zip(&words) {
                    *o = Verdict::of(*w);
                }
                u64::from(out4[N - 1].bits())
            }),
            case("tic-tac-toe-board state() in a loop", N, || {
                for (o, t) in out_ttt.iter_mut().zip(&ts) {
                    *o = t.state();
                }
                ttt_code(out_ttt[N - 1])
            }),
        ],
    );
}

/// Random self-play: whole games of uniformly random legal moves.
fn self_play() {
    const GAMES: usize = 20_000;
    let seeds = std::cell::Cell::new(0u64);
    let next_seed = || {
        seeds.set(seeds.get() + 1);
        seeds.get()
    };
    group(
        &format!("Random self-play, {GAMES} games per run"),
        "game",
        vec![
            case(
                "ours Position API: legal_moves().pick + play",
                GAMES,
                || {
                    let mut rng = SmallRng::seed_from_u64(next_seed());
                    let mut sum = 0;
                    for _ in 0..GAMES {
                        let mut position = Position::EMPTY;
                        while let Some(cell) = position.legal_moves().pick(rng.next_u32()) {
                            position = position.play(cell).expect("legal");
                        }
                        sum += status_code(position.status());
                    }
                    sum
                },
            ),
            case(
                "ours Position API: a move buffer (swap_remove) + play",
                GAMES,
                || {
                    // The same driver as board-game's at its best below: the caller keeps the
                    // free cells, draws one by the same multiply-shift, and calls `play`.
                    let mut rng = SmallRng::seed_from_u64(next_seed());
                    let mut sum = 0;
                    let mut moves: Vec<Cell> = Vec::with_capacity(9);
                    for _ in 0..GAMES {
                        let mut position = Position::EMPTY;
                        moves.clear();
                        moves.extend_from_slice(&Cell::ALL);
                        while position.status() == Status::Ongoing {
                            let k = (u64::from(rng.next_u32()) * moves.len() as u64) >> 32;
                            position = position.play(moves.swap_remove(k as usize)).expect("legal");
                        }
                        sum += status_code(position.status());
                    }
                    sum
                },
            ),
            case("ours selfplay::random_game (dedicated)", GAMES, || {
                let mut rng = SmallRng::seed_from_u64(next_seed());
                let mut sum = 0;
                for _ in 0..GAMES {
                    sum += status_code(selfplay::random_game(&mut rng).status);
                }
                sum
            }),
            case("ours Position API: iter().collect + choose", GAMES, || {
                let mut rng = SmallRng::seed_from_u64(next_seed());
                let mut sum = 0;
                for _ in 0..GAMES {
                    let mut position = Position::EMPTY;
                    loop {
                        let moves: Vec<Cell> = position.legal_moves().iter().collect();
                        if moves.is_empty() {
                            break;
                        }
                        let cell = moves[rng.random_range(0..moves.len())];
                        position = position.play(cell).expect("legal");
                    }
                    sum += status_code(position.status());
                }
                sum
            }),
            case(
                "tic-tac-toe-board open_fields().nth + play_move + state",
                GAMES,
                || {
                    let mut rng = SmallRng::seed_from_u64(next_seed());
                    let mut sum = 0;
                    for _ in 0..GAMES {
                        let mut t = TicTacToe::new();
                        while !t.state().is_terminal() {
                            let count = t.open_fields().count();
                            let k = (u64::from(rng.next_u32()) * count as u64) >> 32;
                            let cell = t.open_fields().nth(k as usize).expect("in range");
                            t.play_move(&cell);
                        }
                        sum += ttt_code(t.state());
                    }
                    sum
                },
            ),
            case(
                "board-game play_random_available_move + outcome",
                GAMES,
                || {
                    use rand08::SeedableRng as _;
                    let mut rng = rand08::rngs::SmallRng::seed_from_u64(next_seed());
                    let mut sum = 0;
                    for _ in 0..GAMES {
                        let mut b = TTTBoard::default();
                        while !b.is_done() {
                            b.play_random_available_move(&mut rng).expect("not done");
                        }
                        sum += bg_code(b.outcome());
                    }
                    sum
                },
            ),
            case(
                "board-game play from a move buffer (swap_remove) + outcome",
                GAMES,
                || {
                    // The peer driven at its best: the caller keeps the free cells in its own
                    // buffer (a played cell is the only one that leaves it), draws from it as
                    // ours draws (the same generator and multiply-shift), and calls only the
                    // peer's checked `play` and `outcome`: no move generation of the peer's.
                    let mut rng = SmallRng::seed_from_u64(next_seed());
                    let mut sum = 0;
                    let all: Vec<Coord3> = (0..9).map(Coord3::from_index).collect();
                    let mut moves: Vec<Coord3> = Vec::with_capacity(9);
                    for _ in 0..GAMES {
                        let mut b = TTTBoard::default();
                        moves.clear();
                        moves.extend_from_slice(&all);
                        while !b.is_done() {
                            let k = (u64::from(rng.next_u32()) * moves.len() as u64) >> 32;
                            b.play(moves.swap_remove(k as usize)).expect("legal");
                        }
                        sum += bg_code(b.outcome());
                    }
                    sum
                },
            ),
            case(
                "norts is_valid_move scan + play + is_in_play",
                GAMES,
                || {
                    let mut rng = SmallRng::seed_from_u64(next_seed());
                    let mut sum = 0;
                    let mut b = norts::Board::new();
                    for _ in 0..GAMES {
                        b.bitboard.x_bitboard = 0;
                        b.bitboard.o_bitboard = 0;
                        b.pgn.clear();
                        while b.is_in_play() {
                            let mut moves = [0i8; 9];
                            let mut count = 0;
                            for square in 0..9 {
                                if b.is_valid_move(square) {
                                    moves[count] = square;
                                    count += 1;
                                }
                            }
                            let k = (u64::from(rng.next_u32()) * count as u64) >> 32;
                            b.play(moves[k as usize]).expect("legal");
                        }
                        sum += norts_code(&b);
                    }
                    sum
                },
            ),
        ],
    );
}

/// Perfect play: each engine's best move on every ongoing position, checked against our
/// solver (a move is wrong when it loses value: the child's value is worse for the mover).
fn perfect_play(all: &[(Position, Vec<Cell>)]) {
    use rand08::SeedableRng as _;
    let ongoing: Vec<&(Position, Vec<Cell>)> = all
        .iter()
        .filter(|(p, _)| p.status() == Status::Ongoing)
        .collect();
    let value_for_mover = |p: Position, mover: Player| solver::solve(p).value.for_player(mover);
    let is_wrong = |p: Position, cell: Cell| {
        let mover = p.side_to_move();
        let child = p.play(cell).expect("a legal move");
        value_for_mover(child, mover) < value_for_mover(p, mover)
    };
    let mut wrong_norts = Vec::new();
    let mut wrong_bg = Vec::new();
    let mut wrong_ours = 0;
    for (p, path) in &ongoing {
        let mut n = norts_board(*p);
        let mv = n.best_move().expect("ongoing");
        if is_wrong(*p, Cell::new(mv as u8).expect("a cell")) {
            wrong_norts.push((*p, mv));
        }
        let b = bg_board(path);
        let mut rng = rand08::rngs::SmallRng::from_seed([7; 32]);
        let result = board_game::ai::solver::solve(&b, 9, &mut rng);
        let mv = result.best_move.expect("ongoing").index();
        if is_wrong(*p, Cell::new(mv).expect("a cell")) {
            wrong_bg.push((*p, mv));
        }
        let best = solver::best_moves(*p).first().expect("ongoing");
        wrong_ours += usize::from(is_wrong(*p, best));
    }
    println!(
        "\n## Perfect play: is each engine's move value-preserving? ({} ongoing positions)\n",
        ongoing.len()
    );
    println!("| engine | wrong moves | rate | example |");
    println!("|---|---:|---:|---|");
    let row = |name: &str, wrong: usize, example: String| {
        println!(
            "| {name} | {wrong} | {:.2}% | {example} |",
            100.0 * wrong as f64 / ongoing.len() as f64
        );
    };
    row("ours solver::best_moves", wrong_ours, String::new());
    fn example<M: std::fmt::Display>(w: &[(Position, M)]) -> String {
        w.first().map_or(String::new(), |(p, mv)| {
            let mover = p.side_to_move();
            format!(
                "`{p}` ({mover:?} to move, {:?} for the mover): plays {mv}, best {:?}",
                solver::solve(*p).value.for_player(mover),
                solver::best_moves(*p)
                    .iter()
                    .map(|c| c.index())
                    .collect::<Vec<_>>()
            )
        })
    }
    row("norts best_move", wrong_norts.len(), example(&wrong_norts));
    row(
        "board-game solver::solve(depth 9)",
        wrong_bg.len(),
        example(&wrong_bg),
    );

    // Timing: one query per ongoing position (shuffled order is irrelevant: no caches).
    let positions: Vec<Position> = ongoing.iter().map(|(p, _)| *p).collect();
    let boards: Vec<TTTBoard> = ongoing.iter().map(|(_, path)| bg_board(path)).collect();
    let n = positions.len();
    group(
        &format!("Perfect-play query: a best move for each of the {n} ongoing positions"),
        "query",
        vec![
            case("ours solver::best_moves().first()", n, || {
                positions
                    .iter()
                    .map(|&p| {
                        solver::best_moves(p)
                            .first()
                            .map_or(9, |c| c.index() as u64)
                    })
                    .sum()
            }),
            case("norts best_move", n, || {
                positions
                    .iter()
                    .map(|&p| norts_board(p).best_move().expect("ongoing") as u64)
                    .sum()
            }),
            case("board-game solver::solve(depth 9)", n, || {
                let mut rng = rand08::rngs::SmallRng::from_seed([7; 32]);
                boards
                    .iter()
                    .map(|b| {
                        u64::from(
                            board_game::ai::solver::solve(b, 9, &mut rng)
                                .best_move
                                .expect("ongoing")
                                .index(),
                        )
                    })
                    .sum()
            }),
        ],
    );
}
