//! The k-in-a-row family (`tictactoe::mnk`) against the Connect Four crates of crates.io and
//! against our own 3×3 core: Connect Four play + check, random playouts and perft; gomoku
//! 15×15 win checks, full-board status and random playouts; tic-tac-toe playouts through the
//! family engine and through the core.
//!
//! The Connect Four peers, each driven through its own public API at its best:
//!
//! | crate | play + check | a random move |
//! |---|---|---|
//! | `connect-four-ai` 1.0 | `is_winning_move(col)` then `play(col)` (its solver's way) | a set bit of its `possible()` mask |
//! | `connect-four-solver` 0.2 | `play(col)` then `is_victory()` | a column of `is_legal_move` |
//! | `board-game` 0.8 (`Connect4`) | `play(col)`, which updates `outcome()` | a column of `is_available_move` |
//!
//! Every contender draws its random move from the same `SmallRng` (xoshiro256++) with one
//! 32-bit draw and a multiply (`pick`) among its legal moves, except our `play_random` for
//! Connect Four (six bits of a 64-bit draw a move, 63 of their values 9 to a column, drawn
//! again while the value is the 64th or the column is full: rejection, uniform over the
//! legal moves too), board-game driven with those same draws (a row of its own, so that the
//! engines compare with the generator's share equal) and board-game's own
//! `play_random_available_move` (rand 0.8's `SmallRng`, a row of its own).
//!
//! `ours connect4::Position::play` is the Connect Four solver's own position
//! (`tictactoe::connect4`): its functions are not `#[inline]`, so from this crate each is a
//! call.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::hint::black_box;

use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{RngCore, SeedableRng};
use tictactoe::connect4::{Column as SolverColumn, Position as SolverPosition};
use tictactoe::lab::{connect_four, gomoku};
use tictactoe::mnk::{
    ConnectFour as MnkConnectFour, Position as MnkPosition, Rules,
    bits::{Bits, wins_through},
};
use tictactoe::{Player, Status, selfplay};

use board_game::board::{Board as _, Outcome as BgOutcome, Player as BgPlayer};
use board_game::games::connect4::Connect4;
use connect_four_ai::Position as AiPosition;
use connect_four_solver::{Column, ConnectFour};

use crate::{case, group, group_with, status_code};

type C4 = MnkPosition<1>;
type Gomoku = MnkPosition<4>;

/// A uniform pick below `n` from one 32-bit draw (bias below `n / 2^32`).
#[inline]
fn pick(rng: &mut SmallRng, n: u32) -> u32 {
    ((u64::from(rng.next_u32()) * u64::from(n)) >> 32) as u32
}

fn bg_code(outcome: Option<BgOutcome>) -> u64 {
    match outcome {
        None => 0,
        Some(BgOutcome::WonBy(BgPlayer::A)) => 1,
        Some(BgOutcome::WonBy(BgPlayer::B)) => 2,
        Some(BgOutcome::Draw) => 3,
    }
}

/// A Connect Four position in every engine's form, with a legal move in it.
struct C4Pair {
    ours: C4,
    bit: u32,
    col: usize,
    /// Our Connect Four solver's position (`tictactoe::connect4`), and the move as its column.
    pons: SolverPosition,
    column: SolverColumn,
    ai: AiPosition,
    solver: ConnectFour,
    bg: Connect4,
}

/// Pairs (ongoing position, legal move) from random games, shuffled: every position of
/// `games` random games, each with one random legal move.
fn c4_pairs(games: usize) -> Vec<C4Pair> {
    let mut rng = SmallRng::seed_from_u64(21);
    let mut pairs = Vec::new();
    for _ in 0..games {
        let mut ours = new_c4();
        let mut pons = SolverPosition::EMPTY;
        let mut ai = AiPosition::new();
        let mut solver = ConnectFour::new();
        let mut bg = Connect4::default();
        while ours.status() == Status::Ongoing {
            let playable = ours.playable();
            let bit = playable
                .nth(pick(&mut rng, playable.count()))
                .expect("in range");
            let col = (bit / 7) as usize;
            let column = SolverColumn::new(col).expect("a column");
            pairs.push(C4Pair {
                ours,
                bit,
                col,
                pons,
                column,
                ai,
                solver,
                bg: bg.clone(),
            });
            ours.play_bit(bit);
            // Our solver's `play` refuses the winning move (the game has no position after it).
            pons = pons.play(column).unwrap_or(pons);
            ai.play(col);
            assert!(solver.play(Column::from_index(col as u8)));
            bg.play(col as u8).expect("legal");
        }
        // The peers agree with us on how the game ended.
        assert_eq!(
            bg_code(bg.outcome()),
            status_code(ours.status()),
            "{ours:?}"
        );
        assert_eq!(solver.is_victory(), ours.winner().is_some());
        assert_eq!(ai.is_won_position(), ours.winner().is_some());
    }
    pairs.shuffle(&mut rng);
    pairs
}

/// The least a play + check can do on one word, without a position: the two players'
/// words, the plies and the move's bit loaded, the mover's word chosen and the bit set, the
/// four directions checked, and the status as a byte (`status_code`'s). `check` is the four
/// directions' shift-and-AND.
#[inline(always)]
fn c4_floor(words: &[(u64, u64, u16, u8)], check: impl Fn(u64) -> bool) -> u64 {
    let mut sum = 0;
    for &(x, o, plies, bit) in words {
        let o_moves = plies & 1 == 1;
        let mine = if o_moves { o } else { x } | 1 << bit;
        let code: u8 = if check(mine) {
            1 + u8::from(o_moves)
        } else if plies + 1 == 42 {
            3
        } else {
            0
        };
        sum += u64::from(black_box(code));
    }
    sum
}

/// The four directions of Connect Four's one word (1, 6, 7, 8), scalar.
#[inline(always)]
fn c4_check_scalar(p: u64) -> bool {
    let mut runs = 0;
    for d in [1, 6, 7, 8] {
        let two = p & (p >> d);
        runs |= two & (two >> (2 * d));
    }
    runs != 0
}

/// The same check with two directions to an SSE2 register: the library's check in builds
/// without AVX2 (`lab::connect_four::has_line_sse2`); in builds with AVX2 the scalar check,
/// which LLVM vectorizes with per-lane shifts.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn c4_check_sse2(p: u64) -> bool {
    #[cfg(not(target_feature = "avx2"))]
    return connect_four::has_line_sse2(p);
    #[cfg(target_feature = "avx2")]
    return c4_check_scalar(p);
}

/// Connect Four: play one move on a copy of a position and ask whether the game is over.
fn c4_play_and_check() {
    let pairs = c4_pairs(2_000);
    let pairs = &pairs;
    // The same pairs as words, for the floor rows.
    let words: Vec<(u64, u64, u16, u8)> = pairs
        .iter()
        .map(|pair| {
            let board = pair.ours.board();
            let (x, o) = (board.pieces(Player::X).0[0], board.pieces(Player::O).0[0]);
            (x, o, pair.ours.plies() as u16, pair.bit as u8)
        })
        .collect();
    let words = &words;
    // Each contender reads an array of its own, densely: read through the pairs, which hold
    // every engine's position, each move would also bring the others' bytes from memory.
    let ours: Vec<(C4, u32, usize)> = pairs.iter().map(|p| (p.ours, p.bit, p.col)).collect();
    let pons: Vec<(SolverPosition, SolverColumn)> =
        pairs.iter().map(|p| (p.pons, p.column)).collect();
    let ai: Vec<(AiPosition, usize)> = pairs.iter().map(|p| (p.ai, p.col)).collect();
    let solver: Vec<(ConnectFour, u8)> = pairs.iter().map(|p| (p.solver, p.col as u8)).collect();
    let bg: Vec<(Connect4, u8)> = pairs.iter().map(|p| (p.bg.clone(), p.col as u8)).collect();
    let (ours, pons, ai, solver, bg) = (&ours, &pons, &ai, &solver, &bg);
    // The floor rows agree with ours on every pair.
    for (pair, word) in pairs.iter().zip(words) {
        let mut p = pair.ours;
        p.play_bit(pair.bit);
        let ours = status_code(p.status());
        let floor = c4_floor(std::slice::from_ref(word), c4_check_scalar);
        assert_eq!(floor, ours, "{:?}", pair.ours);
        #[cfg(target_arch = "x86_64")]
        assert_eq!(c4_floor(std::slice::from_ref(word), c4_check_sse2), floor);
    }
    const REPEAT: usize = 20;
    let n = pairs.len() * REPEAT;
    let rules = Rules::CONNECT_FOUR;
    group(
        &format!(
            "Connect Four play + last-move win check: {} (position, legal move) pairs from random games, shuffled",
            pairs.len()
        ),
        "move",
        vec![
            case("ours mnk::Position<1>::play_bit + status", n, || {
                for _ in 0..REPEAT {
                    for &(mut p, bit, _) in ours {
                        p.play_bit(bit);
                        black_box(p.status());
                    }
                }
                0
            }),
            case("ours mnk::Position<1>::play(column) + status", n, || {
                for _ in 0..REPEAT {
                    for &(mut p, _, col) in ours {
                        let _ = p.play(col);
                        black_box(p.status());
                    }
                }
                0
            }),
            case("ours mnk::bits::wins_through (the check alone)", n, || {
                for _ in 0..REPEAT {
                    for (p, bit, _) in ours {
                        let pieces = p.board().pieces(p.side_to_move()) | Bits::single(*bit);
                        black_box(wins_through(pieces, *bit, rules));
                    }
                }
                0
            }),
            case(
                "ours connect4::Position::play (the solver's; Err on a win)",
                n,
                || {
                    for _ in 0..REPEAT {
                        for &(p, column) in pons {
                            let _ = black_box(p.play(column));
                        }
                    }
                    0
                },
            ),
            case("connect-four-ai is_winning_move + play", n, || {
                for _ in 0..REPEAT {
                    for &(mut p, col) in ai {
                        let win = p.is_winning_move(col);
                        p.play(col);
                        black_box((win, p.mask));
                    }
                }
                0
            }),
            case("connect-four-ai play + is_won_position", n, || {
                for _ in 0..REPEAT {
                    for &(mut p, col) in ai {
                        p.play(col);
                        black_box(p.is_won_position());
                    }
                }
                0
            }),
            case("connect-four-solver play + is_victory", n, || {
                for _ in 0..REPEAT {
                    for &(mut p, col) in solver {
                        p.play(Column::from_index(col));
                        black_box(p.is_victory());
                    }
                }
                0
            }),
            case("board-game Connect4 clone + play + outcome", n, || {
                for _ in 0..REPEAT {
                    for (b, col) in bg {
                        let mut b = b.clone();
                        b.play(*col).expect("legal");
                        black_box(b.outcome());
                    }
                }
                0
            }),
            case(
                "floor: no position, the words, select, scalar check, status",
                n,
                || (0..REPEAT).map(|_| c4_floor(words, c4_check_scalar)).sum(),
            ),
            #[cfg(target_arch = "x86_64")]
            case(
                "floor, the check two directions to an SSE2 register",
                n,
                || (0..REPEAT).map(|_| c4_floor(words, c4_check_sse2)).sum(),
            ),
        ],
    );
}

/// An empty Connect Four position on one word.
#[inline]
fn new_c4() -> C4 {
    C4::new(Rules::CONNECT_FOUR).expect("one word")
}

/// `games` games played by `game` from one generator seeded 5 (so the same games every run),
/// the sum of the codes it returns for them.
#[inline(always)]
fn c4_games(games: usize, mut game: impl FnMut(&mut SmallRng) -> u64) -> u64 {
    let mut rng = SmallRng::seed_from_u64(5);
    (0..games).map(|_| game(&mut rng)).sum()
}

/// Connect Four random playouts: whole games from the empty board, moves uniform.
fn c4_playouts() {
    const GAMES: usize = 20_000;
    // Moves per game, for ns per move (the same seeds every run, so the same games).
    let moves = c4_games(GAMES, |rng| {
        let mut p = new_c4();
        p.play_random(rng);
        u64::from(p.plies())
    });
    println!(
        "\nConnect Four random games: {:.2} moves per game on average",
        moves as f64 / GAMES as f64
    );
    group(
        &format!("Connect Four random playouts, {GAMES} games from the empty board per run"),
        "game",
        vec![
            case("ours mnk::Position<1>::play_random", GAMES, || {
                c4_games(GAMES, |rng| status_code(new_c4().play_random(rng)))
            }),
            case("ours mnk::ConnectFour::play_random", GAMES, || {
                c4_games(GAMES, |rng| {
                    status_code(MnkConnectFour::new().play_random(rng))
                })
            }),
            case(
                "ours, the loop compiled for the build's CPU level (lab::connect_four::play_random_portable)",
                GAMES,
                || {
                    c4_games(GAMES, |rng| {
                        status_code(connect_four::play_random_portable(&mut new_c4(), rng))
                    })
                },
            ),
            case(
                "ours mnk::Position<1> playable().nth(pick) + play_bit",
                GAMES,
                || {
                    c4_games(GAMES, |rng| {
                        let mut p = new_c4();
                        while p.status() == Status::Ongoing {
                            let playable = p.playable();
                            let bit = playable.nth(pick(rng, playable.count()));
                            p.play_bit(bit.unwrap_or(0));
                        }
                        status_code(p.status())
                    })
                },
            ),
            case(
                "connect-four-ai possible() bit + is_winning_move + play",
                GAMES,
                || {
                    c4_games(GAMES, |rng| {
                        let mut p = AiPosition::new();
                        loop {
                            let mut possible = p.possible();
                            for _ in 0..pick(rng, possible.count_ones()) {
                                possible &= possible - 1;
                            }
                            let col = possible.trailing_zeros() as usize / 7;
                            if p.is_winning_move(col) {
                                return 1;
                            }
                            p.play(col);
                            if p.get_moves() == AiPosition::BOARD_SIZE {
                                return 3;
                            }
                        }
                    })
                },
            ),
            case(
                "connect-four-solver is_legal_move list + play + is_over",
                GAMES,
                || {
                    c4_games(GAMES, |rng| {
                        let mut p = ConnectFour::new();
                        while !p.is_over() {
                            let mut moves = [Column::from_index(0); 7];
                            let mut n = 0;
                            for c in 0..7 {
                                let column = Column::from_index(c);
                                moves[n] = column;
                                n += usize::from(p.is_legal_move(column));
                            }
                            p.play(moves[pick(rng, n as u32) as usize]);
                        }
                        u64::from(p.is_victory())
                    })
                },
            ),
            case(
                "board-game Connect4 is_available_move list + play + outcome",
                GAMES,
                || {
                    c4_games(GAMES, |rng| {
                        let mut b = Connect4::default();
                        while b.outcome().is_none() {
                            let mut moves = [0u8; 7];
                            let mut n = 0;
                            for c in 0..7 {
                                moves[n] = c;
                                n += usize::from(b.is_available_move(c) == Ok(true));
                            }
                            b.play(moves[pick(rng, n as u32) as usize]).expect("legal");
                        }
                        bg_code(b.outcome())
                    })
                },
            ),
            case(
                "board-game Connect4 play + outcome, columns drawn as ours (6 bits, redrawn when full)",
                GAMES,
                || {
                    // Our loop's draws for a peer: six bits of a 64-bit number a move (63 of
                    // the 64 values name a column), drawn again from a 32-bit number while the
                    // value is the 64th or the column is full.
                    c4_games(GAMES, |rng| {
                        let mut b = Connect4::default();
                        let mut bits = 0u64;
                        let mut left = 0;
                        while b.outcome().is_none() {
                            if left == 0 {
                                (bits, left) = (rng.next_u64(), 4);
                            }
                            let mut value = bits & 63;
                            (bits, left) = (bits >> 6, left - 1);
                            while value == 63 || b.is_available_move((value / 9) as u8) != Ok(true)
                            {
                                value = u64::from(rng.next_u32() & 63);
                            }
                            b.play((value / 9) as u8).expect("legal");
                        }
                        bg_code(b.outcome())
                    })
                },
            ),
            case(
                "board-game Connect4 play_random_available_move (its own, rand 0.8)",
                GAMES,
                || {
                    use rand08::SeedableRng as _;
                    let mut rng = rand08::rngs::SmallRng::seed_from_u64(5);
                    let mut sum = 0;
                    for _ in 0..GAMES {
                        let mut b = Connect4::default();
                        while !b.is_done() {
                            b.play_random_available_move(&mut rng).expect("not done");
                        }
                        sum += bg_code(b.outcome());
                    }
                    sum
                },
            ),
        ],
    );
}

/// A multiplicative hasher for keys that are already well mixed or unique integers.
#[derive(Default)]
struct MulHasher(u64);

impl Hasher for MulHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0 ^ n)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .rotate_left(29);
    }
}

type Table<V> = HashMap<u64, V, BuildHasherDefault<MulHasher>>;

/// A key that tells Connect Four boards apart: the occupied cells plus one bit above each
/// column's top (the column heights), with X's marks (49 bits).
fn c4_key(p: &C4) -> u64 {
    const BOTTOM: u64 = 0x0000_0408_1020_4081;
    let board = p.board();
    let occupied = board.occupied().0[0];
    (occupied + BOTTOM) | board.pieces(Player::X).0[0]
}

/// Perft by layers: each layer maps the distinct positions after `ply` moves to the number of
/// move sequences reaching each; the last layer is not built, its sequences are counted as
/// (sequences to a position) × (its legal moves). Returns the sequences at `depth` and the
/// positions expanded (the sum of the layers' sizes below `depth`).
pub fn c4_perft(depth: u32) -> (u64, u64) {
    let start = new_c4();
    if depth == 0 {
        return (1, 0);
    }
    let mut layer: Vec<(C4, u64)> = vec![(start, 1)];
    let mut expanded = 0;
    for _ in 1..depth {
        let mut next: Table<(C4, u64)> = Table::default();
        next.reserve(layer.len() * 4);
        for (p, count) in &layer {
            expanded += 1;
            for bit in p.playable().iter() {
                let mut child = *p;
                child.play_bit(bit);
                next.entry(c4_key(&child))
                    .and_modify(|e| e.1 += count)
                    .or_insert((child, *count));
            }
        }
        layer = next.into_values().collect();
    }
    let mut total = 0;
    for (p, count) in &layer {
        expanded += 1;
        total += count * u64::from(p.legal_count());
    }
    (total, expanded)
}

fn c4_perft_group() {
    // Before the first possible win (7 plies) every sequence is legal; at 7, the seven games
    // whose first six moves fill one column have one move fewer.
    let expected = [1u64, 7, 49, 343, 2401, 16807, 117_649, 823_536];
    for (depth, &want) in expected.iter().enumerate() {
        assert_eq!(c4_perft(depth as u32).0, want, "perft({depth})");
    }
    for depth in 8..12 {
        let (total, expanded) = c4_perft(depth);
        println!("perft({depth}) = {total} ({expanded} positions expanded)");
    }
    let layers = tictactoe::mnk::count::layers(Rules::CONNECT_FOUR, 12, 20_000_000).expect("fits");
    let visited: u64 = layers.iter().map(|l| l.positions).sum();
    println!(
        "mnk::count::layers(12): perft(12) = {}, {visited} distinct positions in layers 0-12",
        layers[12].sequences
    );
    let start = std::time::Instant::now();
    let (total, expanded) = c4_perft(12);
    assert_eq!(total, layers[12].sequences);
    let wall = start.elapsed();
    println!(
        "perft(12) = {total} ({expanded} positions expanded), {:.2} s wall",
        wall.as_secs_f64()
    );
    group_with(
        "Connect Four perft(12) from the empty board, by layers of distinct positions",
        "run",
        3,
        vec![
            case(
                "ours perft by layers, bulk-counting the last (peers/src/family.rs)",
                1,
                || c4_perft(12).0,
            ),
            case(
                "ours mnk::count::layers(12): every layer built, with statuses",
                1,
                || {
                    let layers = tictactoe::mnk::count::layers(Rules::CONNECT_FOUR, 12, 20_000_000)
                        .expect("fits");
                    layers[12].sequences
                },
            ),
        ],
    );
}

/// Positions of random games of `rules` (every `step`-th ply of each), with a random legal move.
fn gomoku_pairs(games: usize) -> Vec<(Gomoku, u32)> {
    let mut rng = SmallRng::seed_from_u64(15);
    let mut pairs = Vec::new();
    for _ in 0..games {
        let mut p = Gomoku::new(Rules::GOMOKU).expect("four words");
        while p.status() == Status::Ongoing {
            let playable = p.playable();
            let bit = playable
                .nth(pick(&mut rng, playable.count()))
                .expect("in range");
            pairs.push((p, bit));
            p.play_bit(bit);
        }
    }
    pairs.shuffle(&mut rng);
    pairs.truncate(20_000);
    pairs
}

fn gomoku_checks() {
    // The size the play + check row's name gives.
    assert_eq!(std::mem::size_of::<Gomoku>(), 120);
    let pairs = gomoku_pairs(200);
    let rules = Rules::GOMOKU;
    let with_move: Vec<(Bits<4>, u32)> = pairs
        .iter()
        .map(|(p, bit)| {
            (
                p.board().pieces(p.side_to_move()) | Bits::single(*bit),
                *bit,
            )
        })
        .collect();
    let boards: Vec<_> = pairs.iter().map(|(p, _)| p.board()).collect();
    let lines = boards
        .iter()
        .filter(|b| b.has_line(Player::X) || b.has_line(Player::O))
        .count();
    println!(
        "\nGomoku: {} positions of random games ({lines} with a line)",
        pairs.len()
    );
    const REPEAT: usize = 10;
    let n = pairs.len() * REPEAT;
    let (pairs, with_move, boards) = (&pairs, &with_move, &boards);
    group(
        "Gomoku 15x15: win checks on positions of random games, shuffled",
        "check",
        vec![
            case("ours wins_through (last-move check)", n, || {
                for _ in 0..REPEAT {
                    for &(pieces, bit) in with_move {
                        black_box(wins_through(pieces, bit, rules));
                    }
                }
                0
            }),
            case(
                "ours lab::gomoku::wins_through_portable (the baseline build's kernel)",
                n,
                || {
                    for _ in 0..REPEAT {
                        for &(pieces, bit) in with_move {
                            black_box(gomoku::wins_through_portable(&pieces.0, bit));
                        }
                    }
                    0
                },
            ),
            case(
                "ours lab::gomoku::wins_through_multiply (the kernel before)",
                n,
                || {
                    for _ in 0..REPEAT {
                        for &(pieces, bit) in with_move {
                            black_box(gomoku::wins_through_multiply(pieces.0, bit));
                        }
                    }
                    0
                },
            ),
            case(
                "ours Position<4>::play_bit + status (copy of 120 B)",
                n,
                || {
                    for _ in 0..REPEAT {
                        for (p, bit) in pairs {
                            let mut p = *p;
                            p.play_bit(*bit);
                            black_box(p.status());
                        }
                    }
                    0
                },
            ),
            case(
                "ours Board::has_line(X) || has_line(O) (full board)",
                n,
                || {
                    for _ in 0..REPEAT {
                        for b in boards {
                            black_box(b.has_line(Player::X) || b.has_line(Player::O));
                        }
                    }
                    0
                },
            ),
        ],
    );
}

fn gomoku_playouts() {
    const GAMES: usize = 500;
    let mut moves = 0;
    let mut rng = SmallRng::seed_from_u64(7);
    for _ in 0..GAMES {
        let mut p = Gomoku::new(Rules::GOMOKU).expect("four words");
        p.play_random(&mut rng);
        moves += p.plies() as usize;
    }
    println!(
        "\nGomoku random games: {:.1} moves per game on average",
        moves as f64 / GAMES as f64
    );
    group(
        &format!("Gomoku 15x15 random playouts, {GAMES} games from the empty board per run"),
        "move",
        vec![case("ours mnk::Position<4>::play_random", moves, || {
            let mut rng = SmallRng::seed_from_u64(7);
            let mut sum = 0;
            for _ in 0..GAMES {
                let mut p = Gomoku::new(Rules::GOMOKU).expect("four words");
                sum += status_code(p.play_random(&mut rng));
            }
            sum
        })],
    );
}

fn tic_tac_toe_playouts() {
    const GAMES: usize = 20_000;
    group(
        &format!(
            "Tic-tac-toe random playouts, {GAMES} games: the family engine against the 3x3 core"
        ),
        "game",
        vec![
            case("ours mnk::Position<1> (3,3,3) play_random", GAMES, || {
                let mut rng = SmallRng::seed_from_u64(9);
                let mut sum = 0;
                for _ in 0..GAMES {
                    let mut p = C4::new(Rules::TIC_TAC_TOE).expect("one word");
                    sum += status_code(p.play_random(&mut rng));
                }
                sum
            }),
            case("ours 3x3 core selfplay::random_game", GAMES, || {
                let mut rng = SmallRng::seed_from_u64(9);
                let mut sum = 0;
                for _ in 0..GAMES {
                    sum += status_code(selfplay::random_game(&mut rng).status);
                }
                sum
            }),
            case(
                "ours 3x3 core Position: legal_moves().pick + play",
                GAMES,
                || {
                    let mut rng = SmallRng::seed_from_u64(9);
                    let mut sum = 0;
                    for _ in 0..GAMES {
                        let mut position = tictactoe::Position::EMPTY;
                        while let Some(cell) = position.legal_moves().pick(rng.next_u32()) {
                            position = position.play(cell).expect("legal");
                        }
                        sum += status_code(position.status());
                    }
                    sum
                },
            ),
        ],
    );
}

/// The family groups: `c4`, `c4-perft`, `gomoku`, `ttt-family`.
pub fn run(run: impl Fn(&str) -> bool) {
    if run("c4") {
        c4_play_and_check();
        c4_playouts();
    }
    if run("c4-perft") {
        c4_perft_group();
    }
    if run("gomoku") {
        gomoku_checks();
        gomoku_playouts();
    }
    if run("ttt-family") {
        tic_tac_toe_playouts();
    }
}
