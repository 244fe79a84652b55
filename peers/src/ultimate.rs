//! Ultimate tic-tac-toe: `tictactoe::ultimate` against board-game 0.8's `games::sttt`
//! (`STTTBoard`, bitboards of 9 bits a board and a 512-bit win table), the Rust engine on
//! crates.io. Groups: `ultimate` (random playouts, move generation, play + status),
//! `ultimate-perft`.
//!
//! Before timing, the two engines play the same 2,000 random games move for move and must
//! agree on every legal-move count and every outcome.

use std::hint::black_box;

use board_game::board::{Board as _, BoardMoves as _, Outcome as BgOutcome, Player as BgPlayer};
use board_game::games::sttt::{Coord, STTTBoard};
use internal_iterator::InternalIterator;
use rand::rngs::SmallRng;
use rand::{RngCore, SeedableRng};
use rand08::SeedableRng as _;
use tictactoe::ultimate::{Move, Position};
use tictactoe::{Player, Status};

use crate::{case, group};

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

/// Positions of random games (every state but the last of each game), in both engines.
fn positions(games: usize) -> Vec<(Position, STTTBoard)> {
    let mut rng = SmallRng::seed_from_u64(33);
    let mut all = Vec::new();
    for _ in 0..games {
        let (mut ours, mut theirs) = (Position::EMPTY, STTTBoard::default());
        while let Some(played) = ours.pick(rng.next_u32()) {
            assert_eq!(ours.legal_moves().count() as usize, bg_moves(&theirs));
            all.push((ours, theirs.clone()));
            ours.play(played).expect("legal");
            theirs.play(coord(played)).expect("legal for board-game");
            assert_eq!(code(ours.status()), bg_code(theirs.outcome()), "{ours}");
        }
        assert!(theirs.is_done());
    }
    all
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
    group(
        &format!("Ultimate tic-tac-toe random playouts, {GAMES} games per run"),
        "game",
        vec![
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
        ],
    );
}

/// Move generation and play + status over the states of random games.
fn moves_and_play(all: &[(Position, STTTBoard)]) {
    group(
        &format!(
            "Ultimate tic-tac-toe legal moves, {} positions of random games",
            all.len()
        ),
        "position",
        vec![
            case("ours legal_moves (81-bit mask) + count", all.len(), || {
                all.iter()
                    .map(|(p, _)| u64::from(black_box(p).legal_moves().count()))
                    .sum()
            }),
            case("board-game available_moves + count", all.len(), || {
                all.iter().map(|(_, b)| bg_moves(black_box(b)) as u64).sum()
            }),
        ],
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
    group(
        &format!(
            "Ultimate tic-tac-toe play + status of a move, {} positions",
            pairs.len()
        ),
        "move",
        vec![
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
        ],
    );
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
    group(
        &format!("Ultimate tic-tac-toe perft {DEPTH} ({expected} leaves)"),
        "leaf",
        vec![
            case(
                "ours Position::perft (play/undo)",
                expected as usize,
                || black_box(Position::EMPTY).perft(DEPTH),
            ),
            case("board-game clone_and_play", expected as usize, || {
                bg_perft(black_box(&STTTBoard::default()), DEPTH)
            }),
        ],
    );
}

/// Runs the groups `run` asks for.
pub fn run(run: impl Fn(&str) -> bool) {
    if run("ultimate") {
        let all = positions(2_000);
        println!(
            "\nUltimate tic-tac-toe: board-game 0.8 agrees with ours on every legal-move count and \
             outcome of 2,000 random games ({} positions).",
            all.len()
        );
        playouts();
        moves_and_play(&all);
    }
    if run("ultimate-perft") {
        perft();
    }
}
