//! Ultimate tic-tac-toe: `tictactoe::ultimate` against board-game 0.8's `games::sttt`
//! (`STTTBoard`, bitboards of 9 bits a board and a 512-bit win table), the Rust engine on
//! crates.io, and, when built with `UTTT_ALARD_SRC` and `UTTT_DIMASTA_SRC` (see `build.rs` and
//! `scripts/ultimate-peers`), two CodinGame bots' engines: Tom Alard's in C (`UTTT_player`,
//! driven through `scripts/ultimate-peers-alard.c`) and DiMasta's in C++ (`TicTacToe`, through
//! `scripts/ultimate-peers-dimasta.cpp`). Groups: `ultimate` (random playouts, move
//! generation, play + status), `ultimate-perft`.
//!
//! Before timing, the engines play the same 2,000 random games move for move and must agree
//! on every legal-move count and every outcome (the compiled engines give a game that ends with every
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

/// A compiled peer (C or C++) through the C ABI of its driver in `scripts/` (built by
/// `build.rs` when its source is named): the same six functions under its own prefix.
struct Compiled {
    /// Its name in messages.
    name: &'static str,
    /// Its rows: playout, move generation, play + status and perft.
    playout: &'static str,
    moves: &'static str,
    play: &'static str,
    perft_label: &'static str,
    playouts: unsafe extern "C" fn(games: u64, seed: u64) -> u64,
    load: unsafe extern "C" fn(
        moves: *const u8,
        len: usize,
        counts: *const u8,
        outcomes: *const u8,
        by_count: *mut std::ffi::c_long,
    ) -> std::ffi::c_long,
    set_picks: unsafe extern "C" fn(moves: *const u8, n: usize),
    count_moves: unsafe extern "C" fn() -> u64,
    play_status: unsafe extern "C" fn() -> u64,
    perft: unsafe extern "C" fn(depth: std::ffi::c_int) -> u64,
}

impl Compiled {
    /// Loads the positions of the games (`moves`: 9 * board + cell, 255 ending a game) into
    /// the engine, checking its legal-move counts and outcomes against ours; returns the
    /// number of games it decided by counting boards where ours is drawn.
    fn load(&self, moves: &[u8], counts: &[u8], outcomes: &[u8]) -> std::ffi::c_long {
        let mut by_count = 0;
        // SAFETY: the pointers and lengths come from live slices; the driver reads `len` moves,
        // one count per position and one outcome per game, which the caller provides.
        let n = unsafe {
            (self.load)(
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
            "{} disagrees (code {n}: -(i + 1) is position i, -(1e9 + g) game g)",
            self.name
        );
        by_count
    }
}

/// Declares a driver's six functions (`$f` names them in the order of [`Compiled`]'s
/// fields) and its [`Compiled`] as `PEER`, named `$name` with its four rows' labels.
#[cfg(any(uttt_alard, uttt_dimasta))]
macro_rules! driver {
    ($name:literal, $rows:expr, [$playouts:ident, $load:ident, $set_picks:ident,
        $count_moves:ident, $play_status:ident, $perft:ident]) => {
        unsafe extern "C" {
            pub fn $playouts(games: u64, seed: u64) -> u64;
            pub fn $load(
                moves: *const u8,
                len: usize,
                counts: *const u8,
                outcomes: *const u8,
                by_count: *mut std::ffi::c_long,
            ) -> std::ffi::c_long;
            pub fn $set_picks(moves: *const u8, n: usize);
            pub fn $count_moves() -> u64;
            pub fn $play_status() -> u64;
            pub fn $perft(depth: std::ffi::c_int) -> u64;
        }

        pub const PEER: super::Compiled = {
            let [playout, moves, play, perft_label]: [&str; 4] = $rows;
            super::Compiled {
                name: $name,
                playout,
                moves,
                play,
                perft_label,
                playouts: $playouts,
                load: $load,
                set_picks: $set_picks,
                count_moves: $count_moves,
                play_status: $play_status,
                perft: $perft,
            }
        };
    };
}

/// Tom Alard's C engine through `scripts/ultimate-peers-alard.c`.
#[cfg(uttt_alard)]
mod alard {
    driver!(
        "Alard (C)",
        [
            "Alard (C): generateMoves + makeTemporaryMove",
            "Alard (C): generateMoves (a list) + count",
            "Alard (C): getWinnerAfterMove (copy, play, winner, restore)",
            "Alard (C): generateMoves + makeTemporaryMove, state copied back",
        ],
        [
            uttt_alard_playouts,
            uttt_alard_load,
            uttt_alard_set_picks,
            uttt_alard_count_moves,
            uttt_alard_play_status,
            uttt_alard_perft
        ]
    );
}

/// DiMasta's C++ engine through `scripts/ultimate-peers-dimasta.cpp`, and his own playout.
#[cfg(uttt_dimasta)]
mod dimasta {
    driver!(
        "DiMasta (C++)",
        [
            "DiMasta (C++): getAllPossibleMoves + playMove",
            "DiMasta (C++): getAllPossibleMoves (a list) + count",
            "DiMasta (C++): copy, playMove, getStatus",
            "DiMasta (C++): getAllPossibleMoves + a copy + playMove",
        ],
        [
            uttt_dimasta_playouts,
            uttt_dimasta_load,
            uttt_dimasta_set_picks,
            uttt_dimasta_count_moves,
            uttt_dimasta_play_status,
            uttt_dimasta_perft
        ]
    );

    unsafe extern "C" {
        pub fn uttt_dimasta_own_playouts(games: u64, seed: u64) -> u64;
    }
}

/// The compiled peers this build has.
fn compiled() -> Vec<&'static Compiled> {
    [
        #[cfg(uttt_alard)]
        &alard::PEER,
        #[cfg(uttt_dimasta)]
        &dimasta::PEER,
    ]
    .into_iter()
    .collect()
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
    /// Each engine's states in an array of its own (the engines' loops do not share cache
    /// lines: with states in one array of pairs, a wider `Position` slowed the other engine).
    ours: Vec<Position>,
    theirs: Vec<STTTBoard>,
    /// For the compiled engines.
    moves: Vec<u8>,
    outcomes: Vec<u8>,
}

/// Random games, played in both Rust engines, which must agree at every step.
fn positions(games: usize) -> Games {
    let mut rng = SmallRng::seed_from_u64(33);
    let (mut ours_all, mut theirs_all) = (Vec::new(), Vec::new());
    let (mut moves, mut outcomes) = (Vec::new(), Vec::new());
    for _ in 0..games {
        let (mut ours, mut theirs) = (Position::EMPTY, STTTBoard::default());
        while let Some(played) = ours.pick(rng.next_u32()) {
            assert_eq!(ours.legal_moves().count() as usize, bg_moves(&theirs));
            ours_all.push(ours);
            theirs_all.push(theirs.clone());
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
        ours: ours_all,
        theirs: theirs_all,
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
    let mut rng = SmallRng::seed_from_u64(5);
    let by_board: u64 = (0..GAMES)
        .map(|_| {
            let mut p = Position::EMPTY;
            p.play_random_by_board(&mut rng);
            u64::from(p.plies())
        })
        .sum();
    println!(
        "\nUltimate tic-tac-toe random games: {:.2} moves per game on average ({:.2} by board \
         first)",
        moves as f64 / GAMES as f64,
        by_board as f64 / GAMES as f64
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
    cases.push(case(
        "ours Position::play_random_by_board (his policy: a random open board, then a random cell)",
        GAMES,
        || {
            let mut rng = SmallRng::seed_from_u64(5);
            (0..GAMES)
                .map(|_| {
                    let mut p = Position::EMPTY;
                    code(p.play_random_by_board(&mut rng))
                })
                .sum()
        },
    ));
    for peer in compiled() {
        cases.push(case(peer.playout, GAMES, move || {
            // SAFETY: a pure function of its arguments.
            unsafe { (peer.playouts)(GAMES as u64, 5) }
        }));
    }
    dimasta_own_playouts(&mut cases, GAMES);
    group(
        &format!("Ultimate tic-tac-toe random playouts, {GAMES} games per run"),
        "game",
        cases,
    );
}

#[cfg(uttt_dimasta)]
fn dimasta_own_playouts(cases: &mut Vec<Case<'_>>, games: usize) {
    cases.push(case(
        "DiMasta (C++): his simulateRandomGame (not uniform: a random open board, then a cell)",
        games,
        move || {
            // SAFETY: a pure function of its arguments (and his generator's global state).
            unsafe { dimasta::uttt_dimasta_own_playouts(games as u64, 5) }
        },
    ));
}

#[cfg(not(uttt_dimasta))]
fn dimasta_own_playouts(_: &mut Vec<Case<'_>>, _: usize) {}

/// Play + status of `m` on a copy of `p` (the play + status groups' first row). These four
/// are inlined into each loop, as the closures they replace were (called, they cost a call a
/// move: `status_after` took 3.0 ns a move instead of 1.5 in the group held in L2). Each
/// returns the engine's own status type, which the loop hands to `black_box` as it is, as the
/// floor's `bool`; two rows sum our `code` of it instead (a `match`, the form of earlier runs),
/// which LLVM folds into the engine's code differently: see docs/benchmarks.md.
#[inline(always)]
fn copy_play(p: &Position, m: &Move) -> Status {
    let mut child = *p;
    child.play_unchecked(*black_box(m));
    child.status()
}

/// The status `m` would give at `p`, nothing played.
#[inline(always)]
fn after(p: &Position, m: &Move) -> Status {
    p.status_after(*black_box(m))
}

/// The floor: one 3 × 3 line lookup of the board of `m` (X's set with the cell added).
#[inline(always)]
fn floor(p: &Position, m: &Move) -> bool {
    let board = p.board(black_box(m).board());
    board.x().with(m.cell()).has_line()
}

/// board-game's play + status on a copy.
#[inline(always)]
fn bg_play(b: &STTTBoard, c: &Coord) -> Option<BgOutcome> {
    let mut child = b.clone();
    child.play(*black_box(c)).expect("legal");
    child.outcome()
}

/// For each position, its first legal move that leaves its board open (its random move `m`
/// when every move closes it): with these, the branch of `play` on closing a board is not
/// taken, so always predicted.
fn quiet_moves(ours: &[Position], played: &[Move]) -> Vec<Move> {
    ours.iter()
        .zip(played)
        .map(|(p, &m)| {
            p.legal_moves()
                .into_iter()
                .find(|&q| {
                    let mut child = *p;
                    child.play_unchecked(q);
                    !child.board_status(q.board()).is_finished()
                })
                .unwrap_or(m)
        })
        .collect()
}

/// Runs `one` on every pair, each result through `black_box`; returns the number of pairs.
#[inline(always)]
fn sink<'a, A: 'a, B: 'a, R>(
    pairs: impl Iterator<Item = (&'a A, &'a B)>,
    one: impl Fn(&A, &B) -> R,
) -> u64 {
    let mut n = 0;
    for (a, b) in pairs {
        black_box(one(a, b));
        n += 1;
    }
    n
}

/// Play + status + undo on each stored position itself, no copy: what a search does with its
/// one position. The position after the move goes to `black_box` (a search reads it), then
/// each position is taken back to how it began. Returns the number of moves.
#[inline(always)]
fn in_place(positions: &mut [Position], moves: &[Move]) -> u64 {
    let mut n = 0;
    for (p, m) in positions.iter_mut().zip(moves) {
        let undo = p.play_unchecked(*black_box(m));
        black_box(p.status());
        black_box(&*p);
        p.undo(undo);
        n += 1;
    }
    n
}

/// Move generation (when `moves`) and play + status over the states of random games.
fn moves_and_play(games: &Games, moves: bool) {
    let peers = compiled();
    for peer in &peers {
        load(peer, games);
    }
    if moves {
        legal_moves(games, &peers);
    }
    play_status(games, &peers);
}

/// The legal-moves group.
fn legal_moves(games: &Games, peers: &[&'static Compiled]) {
    let (ours, theirs) = (&games.ours, &games.theirs);
    let mut cases = vec![
        case("ours legal_moves (81-bit mask) + count", ours.len(), || {
            ours.iter()
                .map(|p| u64::from(black_box(p).legal_moves().count()))
                .sum()
        }),
        case("board-game available_moves + count", theirs.len(), || {
            theirs.iter().map(|b| bg_moves(black_box(b)) as u64).sum()
        }),
    ];
    for peer in peers {
        cases.push(case(peer.moves, ours.len(), move || {
            // SAFETY: the positions were loaded (`load`).
            unsafe { (peer.count_moves)() }
        }));
    }
    group(
        &format!(
            "Ultimate tic-tac-toe legal moves, {} positions of random games",
            ours.len()
        ),
        "position",
        cases,
    );
}

/// The play + status groups: over all the states (streamed), then the first ones (in L2).
#[allow(
    clippy::redundant_closure,
    reason = "a closure inlines the engine into each row's loop; a fn item left Fn::call out of line"
)]
fn play_status(games: &Games, peers: &[&'static Compiled]) {
    let (ours, theirs) = (&games.ours, &games.theirs);
    // One legal move per position, picked the same for every engine; each engine's states and
    // moves in arrays of their own.
    let mut rng = SmallRng::seed_from_u64(8);
    let played: Vec<Move> = ours
        .iter()
        .map(|p| p.pick(rng.next_u32()).expect("ongoing"))
        .collect();
    let coords: Vec<Coord> = played.iter().map(|&m| coord(m)).collect();
    let picks: Vec<u8> = played.iter().map(|m| m.index() as u8).collect();
    for peer in peers {
        // SAFETY: a live slice and its length.
        unsafe { (peer.set_picks)(picks.as_ptr(), picks.len()) };
    }
    let pairs = || ours.iter().zip(&played);
    let n = played.len();
    let quiet = quiet_moves(ours, &played);
    let mut stored = ours.to_vec();
    let mut cases = vec![
        case("ours: copy, play_unchecked, status", n, || {
            sink(pairs(), |p, m| copy_play(p, m))
        }),
        case(
            "ours: copy, play_unchecked, status, the whole position to black_box",
            n,
            || {
                sink(pairs(), |p, m| {
                    let mut child = *p;
                    child.play_unchecked(*black_box(m));
                    black_box(&child);
                    child.status()
                })
            },
        ),
        case(
            "ours: status_after (the status the move would give, nothing played)",
            n,
            || sink(pairs(), |p, m| after(p, m)),
        ),
        case(
            "ours: copy, play_unchecked, status, summed as code (a match to 1, 2, 3, 0)",
            n,
            || pairs().map(|(p, m)| code(copy_play(p, m))).sum(),
        ),
        case("ours: status_after, summed as code", n, || {
            pairs().map(|(p, m)| code(after(p, m))).sum()
        }),
        case(
            "ours: copy, play_unchecked, status; moves that close no board (its branch predicted)",
            n,
            || sink(ours.iter().zip(&quiet), |p, m| copy_play(p, m)),
        ),
        case(
            "ours: play_unchecked, status, undo on the stored position (no copy)",
            n,
            || in_place(&mut stored, &played),
        ),
        case(
            "ours: copy, then play_unchecked, status, undo in place",
            n,
            || {
                sink(pairs(), |p, m| {
                    let mut position = *p;
                    let undo = position.play_unchecked(*black_box(m));
                    let status = position.status();
                    position.undo(undo);
                    (status, position.plies())
                })
            },
        ),
        case(
            "floor: one 3x3 line lookup (Bitboard::has_line) of the mover's board",
            n,
            || sink(pairs(), |p, m| floor(p, m)),
        ),
        case(
            "ours: copy, then play (checked), status, undo in place",
            n,
            || {
                sink(pairs(), |p, m| {
                    let mut position = *p;
                    let undo = position.play(*black_box(m)).expect("legal");
                    let status = position.status();
                    position.undo(undo);
                    (status, position.plies())
                })
            },
        ),
        case("board-game: clone, play, outcome", n, || {
            sink(theirs.iter().zip(&coords), |b, c| bg_play(b, c))
        }),
    ];
    for &peer in peers {
        cases.push(case(peer.play, n, move || {
            // SAFETY: the positions and picks were loaded (`load`, `set_picks`).
            unsafe { (peer.play_status)() }
        }));
    }
    group(
        &format!(
            "Ultimate tic-tac-toe play + status of a move, {} positions",
            n
        ),
        "move",
        cases,
    );
    in_cache(ours, theirs, &played, &coords);
}

/// The first positions of the play + status group whose states fit in L2 (`IN_CACHE` of them:
/// 256 KB of ours), `PASSES` times over: the same work without streaming 7.6 MB of states
/// from memory, where the rows above also pay for the loads. The same moves every pass let
/// the branch predictor learn the 4,000 outcomes of a data-dependent branch; the rows "moves
/// drawn anew" play another random legal move in every pass, which it cannot learn.
#[allow(
    clippy::redundant_closure,
    reason = "a closure inlines the engine into each row's loop; a fn item left Fn::call out of line"
)]
fn in_cache(ours: &[Position], theirs: &[STTTBoard], played: &[Move], coords: &[Coord]) {
    const IN_CACHE: usize = 4_000;
    const PASSES: usize = 10;
    let (ours, theirs) = (&ours[..IN_CACHE], &theirs[..IN_CACHE]);
    let (played, coords) = (&played[..IN_CACHE], &coords[..IN_CACHE]);
    let mut rng = SmallRng::seed_from_u64(9);
    let anew: Vec<Vec<Move>> = (0..PASSES)
        .map(|_| {
            ours.iter()
                .map(|p| p.pick(rng.next_u32()).expect("ongoing"))
                .collect()
        })
        .collect();
    let same = |one| passes(ours, (0..PASSES).map(|_| played), one);
    let drawn = |one| passes(ours, anew.iter().map(Vec::as_slice), one);
    let n = IN_CACHE * PASSES;
    let mut stored = ours.to_vec();
    let cases = vec![
        case("ours: copy, play_unchecked, status", n, || {
            same(Row::CopyPlay)
        }),
        case(
            "ours: copy, play_unchecked, status, moves drawn anew",
            n,
            || drawn(Row::CopyPlay),
        ),
        case(
            "ours: play_unchecked, status, undo on the stored position (no copy), moves drawn anew",
            n,
            || anew.iter().map(|moves| in_place(&mut stored, moves)).sum(),
        ),
        case("ours: status_after", n, || same(Row::After)),
        case("ours: status_after, moves drawn anew", n, || {
            drawn(Row::After)
        }),
        case(
            "floor: one 3x3 line lookup (Bitboard::has_line) of the mover's board",
            n,
            || {
                (0..PASSES)
                    .map(|_| sink(ours.iter().zip(played), |p, m| floor(p, m)))
                    .sum()
            },
        ),
        case("board-game: clone, play, outcome", n, || {
            (0..PASSES)
                .map(|_| sink(theirs.iter().zip(coords), |b, c| bg_play(b, c)))
                .sum()
        }),
    ];
    group(
        &format!(
            "Ultimate tic-tac-toe play + status of a move, the first {IN_CACHE} positions (in L2), \
             {PASSES} passes"
        ),
        "move",
        cases,
    );
}

/// The rows of ours that the L2 group runs in passes.
#[derive(Clone, Copy)]
enum Row {
    CopyPlay,
    After,
}

/// `row` over the positions with each pass's moves, every result through `black_box`. Each
/// row's engine code is inlined into its own loop: a `fn` pointer or a `fn` item handed to
/// `sink` can leave a call a move (`Fn::call`, out of line), which the rows measured before
/// 2026-11-29 13:23 UTC paid for copy + play.
#[allow(
    clippy::redundant_closure,
    reason = "a closure inlines the engine into each row's loop; a fn item left Fn::call out of line"
)]
#[inline(always)]
fn passes<'a>(ours: &[Position], moves: impl Iterator<Item = &'a [Move]>, row: Row) -> u64 {
    match row {
        Row::CopyPlay => moves
            .map(|moves| sink(ours.iter().zip(moves), |p, m| copy_play(p, m)))
            .sum(),
        Row::After => moves
            .map(|moves| sink(ours.iter().zip(moves), |p, m| after(p, m)))
            .sum(),
    }
}

/// Loads the games into a compiled engine, which must agree with ours.
fn load(peer: &Compiled, games: &Games) {
    let counts: Vec<u8> = games
        .ours
        .iter()
        .map(|p| p.legal_moves().count() as u8)
        .collect();
    let by_count = peer.load(&games.moves, &counts, &games.outcomes);
    println!(
        "\nUltimate tic-tac-toe: {} agrees with ours on every legal-move count and every won \
         game; {by_count} of the {} games, drawn by ours (every board closed, no line), go by \
         its rule to the player with more boards.",
        peer.name,
        games.outcomes.len()
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
    for peer in compiled() {
        // SAFETY: a pure function of its argument.
        let perft = move || unsafe { (peer.perft)(black_box(DEPTH) as std::ffi::c_int) };
        assert_eq!(perft(), expected, "{}'s perft {DEPTH}", peer.name);
        cases.push(case(peer.perft_label, expected as usize, perft));
    }
    group(
        &format!("Ultimate tic-tac-toe perft {DEPTH} ({expected} leaves)"),
        "leaf",
        cases,
    );
}

/// Runs the groups `run` asks for: `ultimate` (playouts, legal moves, play + status),
/// `ultimate-play` (only the two play + status groups, for quick iterations on them),
/// `ultimate-perft`.
pub fn run(run: impl Fn(&str) -> bool) {
    let (all, play) = (run("ultimate"), run("ultimate-play"));
    if all || play {
        let games = positions(2_000);
        println!(
            "\nUltimate tic-tac-toe: board-game 0.8 agrees with ours on every legal-move count and \
             outcome of 2,000 random games ({} positions).",
            games.ours.len()
        );
        if all {
            playouts();
        }
        moves_and_play(&games, all);
    }
    if run("ultimate-perft") {
        perft();
    }
}
