//! Ultimate tic-tac-toe: `tictactoe::ultimate` against board-game 0.8's `games::sttt`
//! (`STTTBoard`, bitboards of 9 bits a board and a 512-bit win table), the Rust engine on
//! crates.io, and, when built with `UTTT_ALARD_SRC` (see `build.rs` and
//! `scripts/ultimate-peers`), Tom Alard's C engine of the CodinGame bot `UTTT_player`, driven
//! through `scripts/ultimate-peers-alard.c`. Groups: `ultimate` (random playouts, move
//! generation, play + status), `ultimate-perft`.
//!
//! Before timing, the engines play the same 2,000 random games move for move and must agree
//! on every legal-move count and every outcome (the C engine gives a game that ends with every
//! board closed and no line to the player with more boards, where ours and OpenSpiel's draw:
//! those games are counted and printed).

use std::hint::black_box;

use board_game::board::{Board as _, BoardMoves as _, Outcome as BgOutcome, Player as BgPlayer};
use board_game::games::sttt::{Coord, STTTBoard};
use internal_iterator::InternalIterator;
use rand::rngs::SmallRng;
use rand::{RngCore, SeedableRng};
use rand08::SeedableRng as _;
use tictactoe::ultimate::{Move, Position};
use tictactoe::{Player, Status};

use crate::{Case, case, group};

/// Tom Alard's engine through the C ABI of `scripts/ultimate-peers-alard.c`.
#[cfg(uttt_alard)]
mod alard {
    unsafe extern "C" {
        pub fn uttt_alard_playouts(games: u64, seed: u64) -> u64;
        pub fn uttt_alard_load(
            moves: *const u8,
            len: usize,
            counts: *const u8,
            outcomes: *const u8,
            by_count: *mut std::ffi::c_long,
        ) -> std::ffi::c_long;
        pub fn uttt_alard_set_picks(moves: *const u8, n: usize);
        pub fn uttt_alard_count_moves() -> u64;
        pub fn uttt_alard_play_status() -> u64;
        pub fn uttt_alard_perft(depth: std::ffi::c_int) -> u64;
    }

    /// Loads the positions of the games (`moves`: 9 * board + cell, 255 ending a game) into
    /// the C engine, checking its legal-move counts and outcomes against ours; returns the
    /// number of games it decided by counting boards where ours is drawn.
    pub fn load(moves: &[u8], counts: &[u8], outcomes: &[u8]) -> std::ffi::c_long {
        let mut by_count = 0;
        // SAFETY: the pointers and lengths come from live slices; the driver reads `len` moves,
        // one count per position and one outcome per game, which the caller provides.
        let n = unsafe {
            uttt_alard_load(
                moves.as_ptr(),
                moves.len(),
                counts.as_ptr(),
                outcomes.as_ptr(),
                &mut by_count,
            )
        };
        assert_eq!(
            n as usize,
            counts.len(),
            "the C engine disagrees (code {n}: -(i + 1) is position i, -(1e9 + g) game g)"
        );
        by_count
    }
}

/// board-game's move for ours: the same board and cell numbering (row-major, board-major).
fn coord(played: Move) -> Coord {
    Coord::from_oo(played.board().index() as u8, played.cell().index() as u8)
}

fn code(status: Status) -> u64 {
    match status {
        Status::Won(Player::X) => 1,
        Status::Won(Player::O) => 2,
        Status::Draw => 3,
        Status::Ongoing => 0,
    }
}

fn bg_code(outcome: Option<BgOutcome>) -> u64 {
    match outcome {
        Some(BgOutcome::WonBy(BgPlayer::A)) => 1,
        Some(BgOutcome::WonBy(BgPlayer::B)) => 2,
        Some(BgOutcome::Draw) => 3,
        None => 0,
    }
}

fn bg_moves(board: &STTTBoard) -> usize {
    board.available_moves().map_or(0, InternalIterator::count)
}

/// The games the per-position groups walk: every state but the last of each game in both
/// Rust engines, and the games as move indices (255 ending each) with their outcomes.
struct Games {
    all: Vec<(Position, STTTBoard)>,
    /// For the C engine only.
    #[cfg_attr(not(uttt_alard), allow(dead_code))]
    moves: Vec<u8>,
    #[cfg_attr(not(uttt_alard), allow(dead_code))]
    outcomes: Vec<u8>,
}

/// Random games, played in both Rust engines, which must agree at every step.
fn positions(games: usize) -> Games {
    let mut rng = SmallRng::seed_from_u64(33);
    let (mut all, mut moves, mut outcomes) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..games {
        let (mut ours, mut theirs) = (Position::EMPTY, STTTBoard::default());
        while let Some(played) = ours.pick(rng.next_u32()) {
            assert_eq!(ours.legal_moves().count() as usize, bg_moves(&theirs));
            all.push((ours, theirs.clone()));
            moves.push(played.index() as u8);
            ours.play(played).expect("legal");
            theirs.play(coord(played)).expect("legal for board-game");
            assert_eq!(code(ours.status()), bg_code(theirs.outcome()), "{ours}");
        }
        assert!(theirs.is_done());
        moves.push(255);
        outcomes.push(code(ours.status()) as u8);
    }
    Games {
        all,
        moves,
        outcomes,
    }
}

/// Random playouts: whole games from the empty board, each move uniform among the legal ones.
fn playouts() {
    const GAMES: usize = 5_000;
    let mut rng = SmallRng::seed_from_u64(5);
    let moves: u64 = (0..GAMES)
        .map(|_| {
            let mut p = Position::EMPTY;
            p.play_random(&mut rng);
            u64::from(p.plies())
        })
        .sum();
    println!(
        "\nUltimate tic-tac-toe random games: {:.2} moves per game on average",
        moves as f64 / GAMES as f64
    );
    let mut cases = vec![
        case("ours Position::play_random", GAMES, || {
            let mut rng = SmallRng::seed_from_u64(5);
            (0..GAMES)
                .map(|_| {
                    let mut p = Position::EMPTY;
                    code(p.play_random(&mut rng))
                })
                .sum()
        }),
        case("ours pick + play (checked)", GAMES, || {
            let mut rng = SmallRng::seed_from_u64(5);
            (0..GAMES)
                .map(|_| {
                    let mut p = Position::EMPTY;
                    while let Some(played) = p.pick(rng.next_u32()) {
                        p.play(played).expect("legal");
                    }
                    code(p.status())
                })
                .sum()
        }),
        case(
            "board-game 0.8 STTTBoard: random_available_move + play",
            GAMES,
            || {
                let mut rng = rand08::rngs::SmallRng::seed_from_u64(5);
                (0..GAMES)
                    .map(|_| {
                        let mut b = STTTBoard::default();
                        while let Ok(mv) = b.random_available_move(&mut rng) {
                            b.play(mv).expect("legal");
                        }
                        bg_code(b.outcome())
                    })
                    .sum()
            },
        ),
    ];
    alard_playouts(&mut cases, GAMES);
    group(
        &format!("Ultimate tic-tac-toe random playouts, {GAMES} games per run"),
        "game",
        cases,
    );
}

#[cfg(uttt_alard)]
fn alard_playouts(cases: &mut Vec<Case<'_>>, games: usize) {
    cases.push(case(
        "Alard (C): generateMoves + makeTemporaryMove",
        games,
        move || {
            // SAFETY: a pure function of its arguments.
            unsafe { alard::uttt_alard_playouts(games as u64, 5) }
        },
    ));
}

#[cfg(not(uttt_alard))]
fn alard_playouts(_: &mut Vec<Case<'_>>, _: usize) {}

/// Move generation and play + status over the states of random games.
fn moves_and_play(games: &Games) {
    let all = &games.all;
    let alard = alard_load(games);
    let mut cases = vec![
        case("ours legal_moves (81-bit mask) + count", all.len(), || {
            all.iter()
                .map(|(p, _)| u64::from(black_box(p).legal_moves().count()))
                .sum()
        }),
        case("board-game available_moves + count", all.len(), || {
            all.iter().map(|(_, b)| bg_moves(black_box(b)) as u64).sum()
        }),
    ];
    if alard {
        cases.push(alard_case(
            "Alard (C): generateMoves (a list) + count",
            all.len(),
            0,
        ));
    }
    group(
        &format!(
            "Ultimate tic-tac-toe legal moves, {} positions of random games",
            all.len()
        ),
        "position",
        cases,
    );
    // One legal move per position, picked the same for both.
    let mut rng = SmallRng::seed_from_u64(8);
    let pairs: Vec<(Position, Move, STTTBoard, Coord)> = all
        .iter()
        .map(|(p, b)| {
            let played = p.pick(rng.next_u32()).expect("ongoing");
            (*p, played, b.clone(), coord(played))
        })
        .collect();
    alard_picks(&pairs);
    let mut cases = vec![
        case("ours: copy, play_unchecked, status", pairs.len(), || {
            pairs
                .iter()
                .map(|(p, m, _, _)| {
                    let mut child = *p;
                    child.play_unchecked(*black_box(m));
                    code(child.status())
                })
                .sum()
        }),
        case(
            "ours: status_after (the status the move would give, nothing played)",
            pairs.len(),
            || {
                pairs
                    .iter()
                    .map(|(p, m, _, _)| code(p.status_after(*black_box(m))))
                    .sum()
            },
        ),
        case(
            "ours: play_unchecked, status, undo (in place)",
            pairs.len(),
            || {
                let mut sum = 0;
                for (p, m, _, _) in &pairs {
                    let mut position = *p;
                    let undo = position.play_unchecked(*black_box(m));
                    sum += code(position.status());
                    position.undo(undo);
                    sum += u64::from(position.plies());
                }
                sum
            },
        ),
        case(
            "floor: one 3x3 line lookup (Bitboard::has_line) of the mover's board",
            pairs.len(),
            || {
                pairs
                    .iter()
                    .map(|(p, m, _, _)| {
                        let board = p.board(black_box(m).board());
                        u64::from(board.x().with(m.cell()).has_line())
                    })
                    .sum()
            },
        ),
        case("ours: play, status, undo (in place)", pairs.len(), || {
            let mut sum = 0;
            for (p, m, _, _) in &pairs {
                let mut position = *p;
                let undo = position.play(*black_box(m)).expect("legal");
                sum += code(position.status());
                position.undo(undo);
                sum += u64::from(position.plies());
            }
            sum
        }),
        case("board-game: clone, play, outcome", pairs.len(), || {
            pairs
                .iter()
                .map(|(_, _, b, c)| {
                    let mut child = b.clone();
                    child.play(*black_box(c)).expect("legal");
                    bg_code(child.outcome())
                })
                .sum()
        }),
    ];
    if alard {
        cases.push(alard_case(
            "Alard (C): getWinnerAfterMove (copy, play, winner, restore)",
            pairs.len(),
            1,
        ));
    }
    group(
        &format!(
            "Ultimate tic-tac-toe play + status of a move, {} positions",
            pairs.len()
        ),
        "move",
        cases,
    );
}

/// Loads the games into the C engine (when built in); whether it is.
#[cfg(uttt_alard)]
fn alard_load(games: &Games) -> bool {
    let counts: Vec<u8> = games
        .all
        .iter()
        .map(|(p, _)| p.legal_moves().count() as u8)
        .collect();
    let by_count = alard::load(&games.moves, &counts, &games.outcomes);
    println!(
        "\nUltimate tic-tac-toe: Alard's C engine agrees with ours on every legal-move count and \
         every won game; {by_count} of the {} games, drawn by ours (every board closed, no \
         line), go by its rule to the player with more boards.",
        games.outcomes.len()
    );
    true
}

#[cfg(not(uttt_alard))]
fn alard_load(_: &Games) -> bool {
    false
}

#[cfg(uttt_alard)]
fn alard_picks(pairs: &[(Position, Move, STTTBoard, Coord)]) {
    let picks: Vec<u8> = pairs.iter().map(|(_, m, _, _)| m.index() as u8).collect();
    // SAFETY: a live slice and its length.
    unsafe { alard::uttt_alard_set_picks(picks.as_ptr(), picks.len()) };
}

#[cfg(not(uttt_alard))]
fn alard_picks(_: &[(Position, Move, STTTBoard, Coord)]) {}

/// The C engine's loop over the loaded positions: 0 counts legal moves, 1 plays + status.
#[cfg(uttt_alard)]
fn alard_case(name: &'static str, items: usize, which: u8) -> Case<'static> {
    case(name, items, move || {
        // SAFETY: the positions and picks were loaded before (`alard_load`, `alard_picks`).
        unsafe {
            if which == 0 {
                alard::uttt_alard_count_moves()
            } else {
                alard::uttt_alard_play_status()
            }
        }
    })
}

#[cfg(not(uttt_alard))]
fn alard_case(_: &'static str, _: usize, _: u8) -> Case<'static> {
    unreachable!("only called when the C engine is built in")
}

fn bg_perft(board: &STTTBoard, depth: u32) -> u64 {
    if board.is_done() {
        return u64::from(depth == 0);
    }
    if depth <= 1 {
        return if depth == 0 {
            1
        } else {
            bg_moves(board) as u64
        };
    }
    let mut total = 0;
    board.available_moves().expect("ongoing").for_each(|mv| {
        total += bg_perft(&board.clone_and_play(mv).expect("legal"), depth - 1);
    });
    total
}

/// Perft 5 from the empty board (473,256 leaves, the leaves' moves counted, not played).
fn perft() {
    const DEPTH: u32 = 5;
    let expected = Position::EMPTY.perft(DEPTH);
    assert_eq!(bg_perft(&STTTBoard::default(), DEPTH), expected);
    let mut cases = vec![
        case(
            "ours Position::perft (play/undo)",
            expected as usize,
            || black_box(Position::EMPTY).perft(DEPTH),
        ),
        case("board-game clone_and_play", expected as usize, || {
            bg_perft(black_box(&STTTBoard::default()), DEPTH)
        }),
    ];
    alard_perft(&mut cases, expected, DEPTH);
    group(
        &format!("Ultimate tic-tac-toe perft {DEPTH} ({expected} leaves)"),
        "leaf",
        cases,
    );
}

#[cfg(uttt_alard)]
fn alard_perft(cases: &mut Vec<Case<'_>>, expected: u64, depth: u32) {
    // SAFETY: a pure function of its argument.
    let perft = move || unsafe { alard::uttt_alard_perft(black_box(depth) as std::ffi::c_int) };
    assert_eq!(perft(), expected, "the C engine's perft {depth}");
    cases.push(case(
        "Alard (C): generateMoves + makeTemporaryMove, state copied back",
        expected as usize,
        perft,
    ));
}

#[cfg(not(uttt_alard))]
fn alard_perft(_: &mut Vec<Case<'_>>, _: u64, _: u32) {}

/// Runs the groups `run` asks for.
pub fn run(run: impl Fn(&str) -> bool) {
    if run("ultimate") {
        let games = positions(2_000);
        println!(
            "\nUltimate tic-tac-toe: board-game 0.8 agrees with ours on every legal-move count and \
             outcome of 2,000 random games ({} positions).",
            games.all.len()
        );
        playouts();
        moves_and_play(&games);
    }
    if run("ultimate-perft") {
        perft();
    }
}
