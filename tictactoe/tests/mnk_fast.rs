//! The presets' fast paths against the family's generic engine and the slow twin.
//!
//! Connect Four on one word (`Position<1>`) and gomoku on four (`Position<4>`) take code of
//! their own: constant line shifts, gomoku's gathered last-move check, Connect Four's random
//! playout loop. The same rules on a wider board type (`Position<2>`, `Position<5>`) take the
//! generic code, so the two are played in lockstep on random games and random boards, and
//! the slow twin (`lab::mnk::Grid`, cell by cell on a grid) checks a share of the positions.
//!
//! `cargo test --release -p tictactoe-kit --test mnk_fast` (a few seconds).
#![cfg(feature = "rand")]

use rand::rngs::SmallRng;
use rand::{RngCore, SeedableRng};
use tictactoe::lab::mnk::Grid;
use tictactoe::lab::{connect_four, gomoku};
use tictactoe::mnk::{
    Position, Rules, Square,
    bits::{Bits, cell_mask, has_line, wins_through},
};
use tictactoe::{Player, Status};

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// The same position on the fast and the generic board type agree on everything a user sees.
fn assert_same<const F: usize, const G: usize>(fast: &Position<F>, generic: &Position<G>) {
    let rules = fast.rules();
    assert_eq!(fast.board().to_string(), generic.board().to_string());
    assert_eq!(fast.status(), generic.status(), "{fast:?}");
    assert_eq!(fast.plies(), generic.plies());
    assert_eq!(fast.hash(), generic.hash());
    assert_eq!(fast.legal_count(), generic.legal_count());
    for col in 0..rules.cols() {
        assert_eq!(fast.height(col), generic.height(col));
    }
}

/// A column's height and the number of moves, counted from the board: a position keeps
/// neither, so each is computed (a run of ones with gravity on one word, a count otherwise).
fn assert_counts_from_board<const W: usize>(rules: Rules, games: usize, seed: u64) {
    let mut rng = Rng(seed);
    for _ in 0..games {
        let mut p = Position::<W>::new(rules).unwrap();
        loop {
            for col in 0..rules.cols() + 2 {
                let marks = (0..rules.rows())
                    .filter(|&row| {
                        col < rules.cols()
                            && p.board().at(Square::new(row as u8, col as u8)).is_some()
                    })
                    .count() as u32;
                assert_eq!(p.height(col), marks, "{rules} column {col}: {p:?}");
            }
            let legal: Vec<usize> = p.legal_actions().collect();
            assert_eq!(p.legal_count() as usize, legal.len(), "{rules}: {p:?}");
            if legal.is_empty() {
                break;
            }
            let action = legal[rng.below(legal.len() as u64) as usize];
            p.play(action).unwrap();
        }
    }
}

#[test]
fn heights_and_move_counts_are_the_boards() {
    let rules = |spec: &str| spec.parse::<Rules>().unwrap();
    assert_counts_from_board::<1>(Rules::CONNECT_FOUR, 300, 1);
    assert_counts_from_board::<1>(Rules::TIC_TAC_TOE, 300, 2);
    assert_counts_from_board::<1>(Rules::FOUR_BY_FOUR, 300, 3);
    assert_counts_from_board::<1>(rules("6,7,4"), 200, 4);
    assert_counts_from_board::<1>(rules("3,5,3,gravity"), 200, 5);
    assert_counts_from_board::<2>(Rules::CONNECT_FOUR, 200, 6);
    assert_counts_from_board::<2>(rules("10,10,5,gravity"), 100, 7);
    assert_counts_from_board::<6>(rules("19,19,6,gravity"), 20, 8);
    assert_counts_from_board::<4>(Rules::GOMOKU, 20, 9);
}

/// Random games played move by move on both board types; the slow twin checks every
/// `twin_every`-th game. Returns how many games ended in a win.
fn lockstep_games<const F: usize, const G: usize>(
    rules: Rules,
    games: usize,
    twin_every: usize,
    seed: u64,
) -> usize {
    let mut rng = Rng(seed);
    let mut wins = 0;
    for game in 0..games {
        let mut fast = Position::<F>::new(rules).unwrap();
        let mut generic = Position::<G>::new(rules).unwrap();
        while fast.status() == Status::Ongoing {
            let legal: Vec<usize> = generic.legal_actions().collect();
            let action = legal[rng.below(legal.len() as u64) as usize];
            let square = fast.play(action).unwrap();
            assert_eq!(generic.play(action).unwrap(), square);
            assert_same(&fast, &generic);
            // The last-move check alone, on the mover's marks.
            let mover = fast.board().pieces(fast.side_to_move().opponent());
            let bit = rules.bit(square);
            let wide = generic.board().pieces(generic.side_to_move().opponent());
            assert_eq!(
                wins_through(mover, bit, rules),
                wins_through(wide, bit, rules),
                "{fast:?}"
            );
            if game % twin_every == 0 {
                let grid = Grid::parse(rules, &fast.board().to_string()).unwrap();
                assert_eq!(Some(fast.status()), grid.status(), "{fast:?}");
            }
        }
        wins += usize::from(fast.winner().is_some());
    }
    wins
}

#[test]
fn connect_four_fast_play_matches_the_generic_engine() {
    let wins = lockstep_games::<1, 2>(Rules::CONNECT_FOUR, 20_000, 10, 0xc4);
    assert!(wins > 19_000, "{wins}");
}

#[test]
fn gomoku_fast_play_matches_the_generic_engine() {
    let wins = lockstep_games::<4, 5>(Rules::GOMOKU, 400, 20, 0x90);
    assert!(wins > 350, "{wins}");
}

/// The draws of Connect Four's playout loop, replayed on the generic engine: a column
/// `next_u32 × 7 / 2^32`, drawn again while it is full.
fn replay_connect_four(position: &mut Position<2>, rng: &mut SmallRng) -> Status {
    // The loop's draws: a 64-bit number for each pair of moves while the pair ends by the
    // sixth ply, then for every four moves; six bits a move, the low bits first, 63 values
    // naming a column (value / 9) and the 64th drawing again, as does a full column, from
    // six bits of a 32-bit number.
    let (mut bits, mut left, mut pairs) = (0u64, 0, true);
    while position.status() == Status::Ongoing {
        if left == 0 {
            pairs = pairs && position.plies() + 2 <= 6;
            (bits, left) = (rng.next_u64(), if pairs { 2 } else { 4 });
        }
        let mut value = bits & 63;
        (bits, left) = (bits >> 6, left - 1);
        while value == 63 || !position.is_legal((value / 9) as usize) {
            value = u64::from(rng.next_u32() & 63);
        }
        position.play((value / 9) as usize).unwrap();
    }
    position.status()
}

/// Six random bits name a column uniformly, 63 of their values 9 to a column, with the 64th
/// drawn again: a chi-square test of the columns and of pairs of them at a significance of
/// about 10^-6 on 700,000 draws (6 and 48 degrees of freedom).
#[test]
fn connect_four_playout_draws_are_uniform() {
    let mut rng = SmallRng::seed_from_u64(7);
    let (mut single, mut pairs) = ([0f64; 7], [0f64; 49]);
    let n = 700_000;
    let mut last = 0;
    let mut i = 0;
    while i < n {
        let value = (rng.next_u64() & 63) as usize;
        if value == 63 {
            continue;
        }
        let d = value / 9;
        single[d] += 1.0;
        if i % 2 == 1 {
            pairs[7 * last + d] += 1.0;
        }
        last = d;
        i += 1;
    }
    let chi = |counts: &[f64], total: f64| {
        let expected = total / counts.len() as f64;
        counts
            .iter()
            .map(|c| (c - expected).powi(2) / expected)
            .sum::<f64>()
    };
    // Critical values of chi-square at p = 10^-6: 35.9 for 6 degrees of freedom, 105.9 for 48.
    assert!(chi(&single, f64::from(n)) < 35.9, "{single:?}");
    assert!(chi(&pairs, f64::from(n / 2)) < 105.9, "{pairs:?}");
}

/// Connect Four's playout loop plays the games its draws name, from the empty board and from
/// positions part-way through games (with full columns: the redraws).
#[test]
fn connect_four_random_playouts_match_a_replay_on_the_generic_engine() {
    let mut rng = Rng(21);
    let mut outcomes = [0usize; 3];
    for seed in 0..20_000u64 {
        let mut fast = Position::<1>::new(Rules::CONNECT_FOUR).unwrap();
        let mut generic = Position::<2>::new(Rules::CONNECT_FOUR).unwrap();
        // A quarter of the games start with a full column (alternating marks, no line).
        if seed % 4 == 0 {
            let col = (seed / 4 % 7) as usize;
            for _ in 0..6 {
                fast.play(col).unwrap();
                generic.play(col).unwrap();
            }
        }
        for _ in 0..rng.below(16) {
            let legal: Vec<usize> = fast.legal_actions().collect();
            if legal.is_empty() {
                break;
            }
            let action = legal[rng.below(legal.len() as u64) as usize];
            fast.play(action).unwrap();
            generic.play(action).unwrap();
        }
        // The loop the library runs here, and the one compiled for any CPU of the build's
        // target (the same one unless a baseline x86-64 build runs the x86-64-v3 copy).
        let mut portable = fast;
        let status = fast.play_random(&mut SmallRng::seed_from_u64(seed));
        let replayed = replay_connect_four(&mut generic, &mut SmallRng::seed_from_u64(seed));
        assert_eq!(status, replayed);
        assert_eq!(status, fast.status());
        assert_same(&fast, &generic);
        let status =
            connect_four::play_random_portable(&mut portable, &mut SmallRng::seed_from_u64(seed));
        assert_eq!(status, replayed);
        assert_same(&portable, &generic);
        outcomes[match status {
            Status::Won(tictactoe::Player::X) => 0,
            Status::Won(tictactoe::Player::O) => 1,
            _ => 2,
        }] += 1;
    }
    // Both winners and draws happen: every ending of the loop is exercised.
    assert!(outcomes.iter().all(|&n| n > 0), "{outcomes:?}");
}

/// Under rules other than Connect Four's, the lab's portable playout is `play_random` itself.
#[test]
fn the_portable_playout_of_other_rules_is_play_random() {
    for rules in [
        Rules::TIC_TAC_TOE,
        "4,4,4".parse::<Rules>().unwrap(),
        "5,6,4,gravity".parse::<Rules>().unwrap(),
    ] {
        for seed in 0..200 {
            let (mut a, mut b) = (
                Position::<1>::new(rules).unwrap(),
                Position::<1>::new(rules).unwrap(),
            );
            let status = a.play_random(&mut SmallRng::seed_from_u64(seed));
            assert_eq!(
                connect_four::play_random_portable(&mut b, &mut SmallRng::seed_from_u64(seed)),
                status
            );
            assert_eq!(a, b, "{rules:?} seed {seed}");
        }
    }
}

/// Random boards, sparse to dense, with lines anywhere (not only through a last move): the
/// whole-board check and the check through every marked cell, fast against generic.
#[test]
fn random_boards_match_the_generic_checks() {
    fn check<const F: usize, const G: usize>(rules: Rules, boards: usize, seed: u64) -> usize {
        let mut rng = Rng(seed);
        let (cells, wide_cells) = (cell_mask::<F>(rules), cell_mask::<G>(rules));
        let mut lines = 0;
        for _ in 0..boards {
            // A quarter to seven eighths of the cells marked.
            let mut words: [u64; G] = core::array::from_fn(|_| rng.next());
            match rng.below(4) {
                0 => words.iter_mut().for_each(|w| *w &= rng.next()),
                1 => {}
                2 => words.iter_mut().for_each(|w| *w |= rng.next()),
                _ => words.iter_mut().for_each(|w| *w |= rng.next() | rng.next()),
            }
            let wide = Bits::<G>(words) & wide_cells;
            let fast = Bits::<F>(core::array::from_fn(|i| wide.0[i])) & cells;
            assert_eq!(fast.count(), wide.count());
            let any = has_line(fast, rules);
            assert_eq!(any, has_line(wide, rules), "{fast:?}");
            lines += usize::from(any);
            for bit in fast.iter() {
                assert_eq!(
                    wins_through(fast, bit, rules),
                    wins_through(wide, bit, rules),
                    "{rules} {fast:?} {bit}"
                );
            }
        }
        lines
    }
    // Some boards have a line and some do not.
    let c4 = check::<1, 2>(Rules::CONNECT_FOUR, 20_000, 1);
    assert!((100..19_900).contains(&c4), "{c4}");
    let gomoku = check::<4, 5>(Rules::GOMOKU, 20_000, 2);
    assert!((100..19_900).contains(&gomoku), "{gomoku}");
}

/// Every gomoku last-move kernel on `pieces` with the mark at `square`, against the slow
/// twin: the kernel of this build (`wins_through`: the AVX-512 one in a native build, and in a
/// baseline build on a CPU with AVX-512, chosen at run time), the portable one, the AVX-512
/// one called directly wherever this CPU has it (detected at run time, so every build runs
/// it), and the multiply kernel they replaced. Returns the twin's answer.
fn assert_gomoku_kernels(pieces: Bits<4>, square: Square) -> bool {
    let rules = Rules::GOMOKU;
    let mut grid = Grid::empty(rules);
    for bit in pieces.iter() {
        let at = rules.square_of_bit(bit).expect("a cell");
        grid.cells[at.row() as usize][at.col() as usize] = Some(Player::X);
    }
    let twin = grid.line_through(square);
    let (bit, words) = (rules.bit(square), pieces.0);
    let context = || format!("{square:?} on\n{}", grid.text().replace('/', "\n"));
    assert_eq!(wins_through(pieces, bit, rules), twin, "{}", context());
    assert_eq!(
        gomoku::wins_through_portable(&words, bit),
        twin,
        "{}",
        context()
    );
    assert_eq!(
        gomoku::wins_through_multiply(words, bit),
        twin,
        "{}",
        context()
    );
    #[cfg(all(feature = "std", target_arch = "x86_64"))]
    if let Some(avx512) = gomoku::wins_through_detected(&words, bit) {
        assert_eq!(avx512, twin, "AVX-512: {}", context());
    }
    twin
}

/// Gomoku's last-move kernels on every cell of the board: with random surroundings, sparse to
/// dense, and on every line of one to nine marks through it in every direction, cut off by
/// the board's edges (so every edge and every guard bit is met), on an empty board and among
/// random marks. The native build's kernel is tested from any build on a CPU with AVX-512
/// (VBMI2, BITALG); to run it as the native build's `wins_through` too:
/// `RUSTFLAGS="-C target-cpu=native" CARGO_TARGET_DIR=target/native cargo test --release -p tictactoe-kit --test mnk_fast`.
#[test]
fn gomoku_kernels_match_the_slow_twin_on_every_cell() {
    let rules = Rules::GOMOKU;
    let cells = cell_mask::<4>(rules);
    let mut rng = Rng(0x15);
    let random = |rng: &mut Rng| {
        let mut words: [u64; 4] = core::array::from_fn(|_| rng.next());
        match rng.below(3) {
            0 => words.iter_mut().for_each(|w| *w &= rng.next()),
            1 => {}
            _ => words.iter_mut().for_each(|w| *w |= rng.next()),
        }
        Bits(words) & cells
    };
    let (mut wins, mut checks) = (0, 0);
    for row in 0..15 {
        for col in 0..15 {
            let square = rules.square(row, col).expect("on the board");
            let bit = Bits::single(rules.bit(square));
            for _ in 0..40 {
                wins += usize::from(assert_gomoku_kernels(random(&mut rng) | bit, square));
                checks += 1;
            }
            for (dr, dc) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
                for len in 1..=9 {
                    for first in 0..len {
                        let mut line = bit;
                        for i in 0..len {
                            let (r, c) =
                                (row as i32 + (i - first) * dr, col as i32 + (i - first) * dc);
                            if let Some(at) = rules
                                .square(r as u32, c as u32)
                                .filter(|_| r >= 0 && c >= 0)
                            {
                                line |= Bits::single(rules.bit(at));
                            }
                        }
                        wins += usize::from(assert_gomoku_kernels(line, square));
                        let noise = random(&mut rng) & random(&mut rng);
                        wins += usize::from(assert_gomoku_kernels(line | noise, square));
                        checks += 2;
                    }
                }
            }
        }
    }
    // Both answers are common: a kernel answering always one way fails.
    assert!(
        wins > checks / 5 && wins < checks * 4 / 5,
        "{wins} of {checks}"
    );
}

/// Gomoku's full-board check (`has_line` on four words) against the slow twin's, on random
/// boards of one player: dense ones (where lines are common), sparse ones, and sparse ones
/// with a run of four to six marks placed anywhere in any direction (cut off by the edges).
/// The build's `has_line` (in a baseline build on a CPU with AVX-512 VL and VBMI2, the copy
/// compiled with them, detected at run time), the portable copy and the AVX-512 copy where
/// this CPU has it.
#[test]
fn gomoku_full_board_check_matches_the_slow_twin() {
    let rules = Rules::GOMOKU;
    let cells = cell_mask::<4>(rules);
    let mut rng = Rng(0x5a);
    let (mut lines, boards) = (0, 30_000);
    for i in 0..boards {
        let mut words: [u64; 4] = core::array::from_fn(|_| rng.next());
        match i % 3 {
            0 => {}
            1 => words.iter_mut().for_each(|w| *w &= rng.next() & rng.next()),
            _ => {
                words.iter_mut().for_each(|w| *w &= rng.next() & rng.next());
                let (dr, dc) = [(1, 0), (0, 1), (1, 1), (1, -1)][rng.below(4) as usize];
                let (row, col) = (rng.below(15) as i32, rng.below(15) as i32);
                for j in 0..4 + rng.below(3) as i32 {
                    let (r, c) = (row + j * dr, col + j * dc);
                    if (0..15).contains(&r) && (0..15).contains(&c) {
                        let bit = rules.bit(rules.square(r as u32, c as u32).expect("a cell"));
                        words[bit as usize / 64] |= 1 << (bit % 64);
                    }
                }
            }
        }
        let pieces = Bits(words) & cells;
        let mut grid = Grid::empty(rules);
        for bit in pieces.iter() {
            let at = rules.square_of_bit(bit).expect("a cell");
            grid.cells[at.row() as usize][at.col() as usize] = Some(Player::X);
        }
        let twin = grid.has_line(Player::X);
        let context = || grid.text().replace('/', "\n");
        assert_eq!(has_line(pieces, rules), twin, "{}", context());
        assert_eq!(gomoku::has_line_portable(pieces.0), twin, "{}", context());
        #[cfg(all(feature = "std", target_arch = "x86_64"))]
        if let Some(avx512) = gomoku::has_line_detected(pieces.0) {
            assert_eq!(avx512, twin, "AVX-512: {}", context());
        }
        lines += usize::from(twin);
    }
    // Both answers are common: a check answering always one way fails.
    assert!(
        lines > boards / 5 && lines < boards * 4 / 5,
        "{lines} of {boards}"
    );
}
