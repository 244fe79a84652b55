//! The per-move API (`legal_moves`, `Moves::pick`, `play_move`) against the checked calls
//! (`legal_move`, `play`) and against a position rebuilt from its board, on random games of
//! the presets and of other rules at several board widths; `ConnectFour` against
//! `Position<1>` move by move.
//!
//! `cargo test --release -p tictactoe-kit --test mnk_moves` (a few seconds).
#![cfg(feature = "rand")]

use rand::rngs::SmallRng;
use rand::{RngCore, SeedableRng};
use tictactoe::Status;
use tictactoe::mnk::{ConnectFour, Move, NotConnectFour, PlayError, Position, Rules};

/// Every fact of the per-move API at `p`, checked against the one-action-at-a-time calls.
fn assert_moves<const W: usize>(p: &Position<W>, rng: &mut SmallRng) {
    let rules = p.rules();
    let moves = p.legal_moves();
    // The slow definition: every action that `legal_move` accepts, ascending.
    let slow: Vec<usize> = (0..rules.actions() as usize)
        .filter(|&a| p.legal_move(a).is_ok())
        .collect();
    assert_eq!(p.legal_actions().collect::<Vec<_>>(), slow, "{p:?}");
    assert_eq!(moves.len(), slow.len(), "{p:?}");
    assert_eq!(moves.is_empty(), slow.is_empty());
    assert_eq!(p.legal_count() as usize, slow.len());
    let mut by_bit: Vec<Move> = slow.iter().map(|&a| p.legal_move(a).unwrap()).collect();
    by_bit.sort();
    let listed: Vec<Move> = moves.iter().collect();
    assert_eq!(listed, by_bit, "{p:?}");
    assert_eq!(moves.bits(), p.playable());
    for (k, &mv) in listed.iter().enumerate() {
        assert_eq!(moves.nth(k), Some(mv));
        assert!(moves.contains(mv));
        let action = mv.action(rules);
        assert_eq!(p.legal_move(action), Ok(mv));
        // `play_move` and `play` reach the same position; `play` returns the move's square.
        let (mut fast, mut checked) = (*p, *p);
        fast.play_move(mv);
        assert_eq!(checked.play(action), Ok(mv.square(rules)));
        assert_eq!(fast, checked, "{p:?} {action}");
        // Undone, the position is the one before.
        fast.undo_bit(mv.bit());
        assert_eq!(fast, *p);
    }
    assert_eq!(moves.nth(listed.len()), None);
    // `pick` is `nth` of the multiply-shift of its bits.
    for random in [0, u32::MAX, rng.next_u32(), rng.next_u32()] {
        let k = (u64::from(random) * listed.len() as u64) >> 32;
        assert_eq!(moves.pick(random), listed.get(k as usize).copied(), "{p:?}");
    }
    // The position rebuilt from its board is this one (the open columns recomputed).
    assert_eq!(Position::from_board(p.board()).unwrap(), *p, "{p:?}");
}

/// `games` random games of `rules` on `W` words through `pick` and `play_move`, every position
/// checked by [`assert_moves`]; then games by `play_random`, whose ends are checked too.
fn random_games<const W: usize>(spec: &str, games: usize, seed: u64) {
    let rules: Rules = spec.parse().unwrap();
    let mut rng = SmallRng::seed_from_u64(seed);
    for _ in 0..games {
        let mut p = Position::<W>::new(rules).unwrap();
        while p.status() == Status::Ongoing {
            assert_moves(&p, &mut rng);
            let mv = p.legal_moves().pick(rng.next_u32()).unwrap();
            p.play_move(mv);
        }
        assert_moves(&p, &mut rng);
        assert!(p.legal_moves().is_empty());
        assert_eq!(p.legal_moves().pick(rng.next_u32()), None);
        let mut played = Position::<W>::new(rules).unwrap();
        played.play_random(&mut rng);
        assert_moves(&played, &mut rng);
    }
}

#[test]
fn the_per_move_api_matches_the_checked_calls() {
    random_games::<1>("connect-four", 300, 1);
    random_games::<2>("connect-four", 100, 2);
    random_games::<1>("tic-tac-toe", 300, 3);
    random_games::<1>("4x4", 200, 4);
    random_games::<1>("6,7,4", 50, 5);
    random_games::<1>("3,5,3,gravity", 200, 6);
    random_games::<2>("10,10,5,gravity", 20, 7);
    random_games::<4>("gomoku", 3, 8);
    random_games::<6>("19,19,6,gravity", 3, 9);
}

/// The example of the docs: a game of random moves through the per-move API ends.
#[test]
fn a_random_game_through_pick_ends() {
    let mut game = Position::<1>::new(Rules::CONNECT_FOUR).unwrap();
    let mut rng = SmallRng::seed_from_u64(10);
    while let Some(mv) = game.legal_moves().pick(rng.next_u32()) {
        game.play_move(mv);
    }
    assert_ne!(game.status(), Status::Ongoing);
    assert!(game.plies() >= 7);
}

/// `ConnectFour` is `Position<1>` under Connect Four's rules: at every position of random
/// games (and of games that fill the board), the same moves, picks, checks, status, board,
/// hash and text; play, undo and both conversions agree.
#[test]
fn connect_four_is_the_family_position() {
    let mut rng = SmallRng::seed_from_u64(12);
    let check = |game: &ConnectFour, p: &Position<1>, rng: &mut SmallRng| {
        assert_eq!(game.status(), p.status(), "{p:?}");
        assert_eq!(game.plies(), p.plies());
        assert_eq!(game.side_to_move(), p.side_to_move());
        assert_eq!(game.board(), p.board());
        assert_eq!(game.hash(), p.hash(), "{p:?}");
        assert_eq!(game.to_string(), p.to_string());
        assert_eq!(game.legal_moves(), p.legal_moves(), "{p:?}");
        assert_eq!(game.playable(), p.playable());
        assert_eq!(Position::from(*game), *p, "{p:?}");
        assert_eq!(ConnectFour::try_from(*p), Ok(*game), "{p:?}");
        for random in [0, u32::MAX, rng.next_u32(), rng.next_u32()] {
            assert_eq!(
                game.legal_moves().pick(random),
                p.legal_moves().pick(random)
            );
        }
        for column in 0..9 {
            assert_eq!(
                game.legal_move(column),
                p.legal_move(column),
                "{p:?} {column}"
            );
            let (mut a, mut b) = (*game, *p);
            assert_eq!(a.play(column), b.play(column));
            assert_eq!(Position::from(a), b);
        }
        for mv in game.legal_moves() {
            let mut after = *game;
            after.play_move(mv);
            after.undo_move(mv);
            assert_eq!(after, *game, "{p:?} {mv:?}");
        }
        // The bit level on the move set: `len`, `nth(k)`, `play_bit(mv.bit())`, on both.
        let moves = game.legal_moves();
        for k in 0..moves.len() {
            let mv = moves.nth(k).unwrap();
            assert_eq!(p.legal_moves().nth(k), Some(mv), "{p:?} {k}");
            let (mut a, mut b) = (*game, *p);
            a.play_bit(mv.bit());
            b.play_bit(mv.bit());
            assert_eq!(a.status(), b.status(), "{p:?} {mv:?}");
            assert_eq!(Position::from(a), b, "{p:?} {mv:?}");
        }
        assert_eq!(moves.nth(moves.len()), None);
    };
    // Random games, and games that play the lowest column with room (draws on a full board).
    for n in 0..400 {
        let (mut game, mut p) = (
            ConnectFour::new(),
            Position::<1>::new(Rules::CONNECT_FOUR).unwrap(),
        );
        check(&game, &p, &mut rng);
        while game.status() == Status::Ongoing {
            let mv = if n % 4 == 0 {
                game.legal_moves().nth(0).unwrap()
            } else {
                game.legal_moves().pick(rng.next_u32()).unwrap()
            };
            game.play_move(mv);
            p.play_move(mv);
            check(&game, &p, &mut rng);
        }
        assert_eq!(game.legal_moves().pick(rng.next_u32()), None);
        assert!(game.legal_moves().is_empty());
    }
    // Drawn games (a full board), found among random ones: both agree move by move.
    let mut draws = 0;
    for _ in 0..200_000 {
        let (mut game, mut p) = (
            ConnectFour::new(),
            Position::<1>::new(Rules::CONNECT_FOUR).unwrap(),
        );
        while let Some(mv) = game.legal_moves().pick(rng.next_u32()) {
            game.play_move(mv);
            p.play_move(mv);
            assert_eq!(game.status(), p.status());
        }
        if game.status() == Status::Draw {
            check(&game, &p, &mut rng);
            draws += 1;
            if draws == 3 {
                break;
            }
        }
    }
    assert_eq!(draws, 3, "three drawn games among the random ones");
    assert_eq!(
        ConnectFour::try_from(Position::<1>::new(Rules::TIC_TAC_TOE).unwrap()),
        Err(NotConnectFour {
            rules: Rules::TIC_TAC_TOE
        })
    );
    assert_eq!(
        ConnectFour::new().play(7),
        Err(PlayError::OutOfRange {
            action: 7,
            actions: 7
        })
    );
}

/// `play_random` for Connect Four, played again through the checked per-move calls: six bits
/// of a `next_u64` a move (two moves a call before the seventh ply, four after), a value
/// below 63 naming column `value / 9`, drawn again from `next_u32() & 63` while the value is
/// 63 or the column full; `legal_move` then `play_move`. The slow twin of the playout loop.
fn play_random_twin(game: &mut ConnectFour, rng: &mut SmallRng) -> Status {
    let mut pairs = true;
    while game.status() == Status::Ongoing {
        pairs &= game.plies() + 2 <= 6;
        let bits = rng.next_u64();
        for slice in 0..if pairs { 2 } else { 4 } {
            let mut value = bits >> (6 * slice) & 63;
            let mv = loop {
                if let Some(mv) = (value < 63)
                    .then(|| game.legal_move(value as usize / 9).ok())
                    .flatten()
                {
                    break mv;
                }
                value = u64::from(rng.next_u32() & 63);
            };
            game.play_move(mv);
            if game.status() != Status::Ongoing {
                return game.status();
            }
        }
    }
    game.status()
}

/// The playout helpers play the per-move API's moves: `ConnectFour::play_random` and
/// `Position::play_random` end every game where the slow twin through `legal_move` and
/// `play_move` ends it, from the empty board and from positions part-way through random
/// games (full columns among them), and leave a game already over as it is.
#[test]
fn connect_four_playouts_are_the_per_move_api() {
    let mut rng = SmallRng::seed_from_u64(13);
    let mut draws = 0;
    for n in 0..3_000 {
        // A start: the empty board, or a random number of random moves into a game.
        let mut start = ConnectFour::new();
        for _ in 0..rng.next_u32() % if n % 2 == 0 { 1 } else { 40 } {
            match start.legal_moves().pick(rng.next_u32()) {
                Some(mv) => start.play_move(mv),
                None => break,
            }
        }
        let seed = rng.next_u64();
        let (mut fast, mut twin) = (start, start);
        let mut position = Position::from(start);
        let status = fast.play_random(&mut SmallRng::seed_from_u64(seed));
        assert_eq!(
            play_random_twin(&mut twin, &mut SmallRng::seed_from_u64(seed)),
            status
        );
        assert_eq!(fast, twin, "{start:?} {seed}");
        assert_eq!(
            position.play_random(&mut SmallRng::seed_from_u64(seed)),
            status
        );
        assert_eq!(position, Position::from(fast), "{start:?} {seed}");
        // The position written back is the one rebuilt from its board (hash, open columns).
        assert_eq!(Position::from_board(position.board()).unwrap(), position);
        assert_ne!(status, Status::Ongoing);
        assert_eq!(fast.legal_moves().len(), 0);
        draws += usize::from(status == Status::Draw);
        // A game that is over stays as it is.
        let before = fast;
        assert_eq!(fast.play_random(&mut rng), status);
        assert_eq!(fast, before);
    }
    assert!(draws > 0, "a drawn game among the playouts");
}

/// `Moves::len` and `Moves::nth` on Connect Four (the open columns' tables) against the
/// moves listed by the iterator, with full columns and on a full board.
#[test]
fn connect_four_nth_with_full_columns() {
    let mut game = ConnectFour::new();
    // Fill columns 0, 3 and 6: X and O alternate in each, no four in a row.
    for column in [0, 0, 3, 3, 6, 6, 0, 0, 3, 3, 6, 6, 0, 0, 3, 3, 6, 6] {
        game.play(column).unwrap();
    }
    let moves = game.legal_moves();
    assert_eq!(moves.len(), 4);
    let columns: Vec<usize> = moves
        .iter()
        .map(|mv| mv.action(Rules::CONNECT_FOUR))
        .collect();
    assert_eq!(columns, [1, 2, 4, 5]);
    for (k, mv) in moves.iter().enumerate() {
        assert_eq!(moves.nth(k), Some(mv));
    }
    assert_eq!(moves.nth(4), None);
    assert_eq!(moves.nth(usize::MAX), None);
    // A full board: the first drawn game among random ones.
    let mut rng = SmallRng::seed_from_u64(14);
    let full = loop {
        let mut game = ConnectFour::new();
        while let Some(mv) = game.legal_moves().pick(rng.next_u32()) {
            game.play_move(mv);
        }
        if game.status() == Status::Draw {
            break game;
        }
    };
    assert_eq!(full.plies(), 42);
    assert_eq!(full.legal_moves().len(), 0);
    assert_eq!(full.legal_moves().nth(0), None);
    assert_eq!(full.legal_moves().pick(u32::MAX), None);
}
