//! Ultimate tic-tac-toe: perft against pyspiel's figures, the fast engine against its slow
//! twin on every state of seeded random games, validation, text, undo and symmetry.

use tictactoe::ultimate::slow::Game;
use tictactoe::ultimate::{Move, ParseSetupError, Position, Setup, Violation};
use tictactoe::{Cell, Player, Status, Symmetry};

/// Marsaglia's xorshift64 from `seed` (not 0): the tests' reproducible random numbers.
fn xorshift(mut seed: u64) -> impl FnMut() -> u64 {
    move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    }
}

/// The positions of one random game, from the empty board to its end, and its moves.
fn random_game(next: &mut impl FnMut() -> u64) -> (Vec<Position>, Vec<Move>) {
    let mut position = Position::EMPTY;
    let (mut states, mut moves) = (vec![position], Vec::new());
    while let Some(played) = position.pick(next() as u32) {
        position.play(played).expect("a picked move is legal");
        states.push(position);
        moves.push(played);
    }
    (states, moves)
}

/// Move-level perft of pyspiel's `ultimate_tic_tac_toe` (OpenSpiel 2.0.2), depths 0 to 8,
/// from `peers/ultimate_perft_pyspiel.py 8` (a choice of board and a cell count as one move).
const PYSPIEL_PERFT: [u64; 9] = [
    1,
    81,
    720,
    6_336,
    55_080,
    473_256,
    4_020_960,
    33_782_544,
    281_067_408,
];

#[test]
fn sizes_are_as_documented() {
    // docs/ultimate.md#the-model and the module's table.
    assert_eq!(Position::BYTES, 64);
    assert_eq!(Position::PLAY_TABLE_BYTES, 1_024 + 648);
    assert_eq!(std::mem::size_of::<Setup>(), 38);
    assert_eq!(std::mem::size_of::<Move>(), 1);
    assert_eq!(std::mem::size_of::<tictactoe::ultimate::Undo>(), 24);
}

#[test]
fn perft_matches_pyspiel() {
    for (depth, expected) in PYSPIEL_PERFT.iter().enumerate().take(8) {
        assert_eq!(
            Position::EMPTY.perft(depth as u32),
            *expected,
            "depth {depth}"
        );
    }
}

#[test]
#[ignore = "about 2 s in release, minutes in debug: cargo test --release -- --ignored"]
fn perft_depth_8_matches_pyspiel() {
    assert_eq!(Position::EMPTY.perft(8), PYSPIEL_PERFT[8]);
}

/// How often each kind of move `status_after` judges was met by [`assert_same`]: a move that
/// wins the game, one that draws it by filling the last open board, one that draws it by
/// winning the last open board without a line of boards, and one that closes a board and
/// leaves the game going.
#[derive(Default, Debug)]
struct Kinds {
    wins: usize,
    draws_full: usize,
    draws_won: usize,
    closes: usize,
}

/// The slow twin's view of a position, field by field; every legal move's `status_after`
/// against the status after playing it in both engines.
fn assert_same(position: &Position, game: &Game, context: &str, kinds: &mut Kinds) {
    assert_eq!(position.status(), game.status(), "{context}");
    let legal = game.legal();
    for (index, &is_legal) in legal.iter().enumerate() {
        let played = Move::try_from(index).unwrap();
        assert_eq!(
            position.legal_moves().contains(played),
            is_legal,
            "{context} {played}"
        );
        assert_eq!(
            position.check(played).is_ok(),
            is_legal,
            "{context} {played}"
        );
    }
    for played in position.legal_moves() {
        let mut child = *position;
        child.play(played).unwrap();
        let mut twin = game.clone();
        assert!(twin.play(played.index()));
        let status = position.status_after(played);
        assert_eq!(status, child.status(), "{context} {played}");
        assert_eq!(status, twin.status(), "{context} {played}: the slow twin");
        assert_eq!(
            child.next_board().map(Cell::index),
            twin.next,
            "{context} {played}"
        );
        assert_eq!(child.to_move().is_none(), twin.status().is_finished());
        let closed = child.board_status(played.board());
        assert_eq!(closed, twin.board_status(played.board().index()));
        match (status, closed) {
            (Status::Won(_), _) => kinds.wins += 1,
            (Status::Draw, Status::Draw) => kinds.draws_full += 1,
            (Status::Draw, _) => kinds.draws_won += 1,
            (Status::Ongoing, Status::Won(_) | Status::Draw) => kinds.closes += 1,
            (Status::Ongoing, Status::Ongoing) => {}
        }
    }
    for b in Cell::ALL {
        assert_eq!(
            position.board_status(b),
            game.board_status(b.index()),
            "{context} board {b}"
        );
        for c in Cell::ALL {
            assert_eq!(
                position.at(b, c),
                game.cells[b.index()][c.index()],
                "{context}"
            );
        }
        assert_eq!(
            u128::from(position.moves_in(b).bits()),
            position.legal_moves().bits() >> (9 * b.index()) & 0x1ff
        );
    }
    assert_eq!(
        position.next_board().map(Cell::index),
        game.next,
        "{context}"
    );
    let to_move = (game.status() == Status::Ongoing).then_some(game.side);
    assert_eq!(position.to_move(), to_move, "{context}");
}

#[test]
fn the_fast_engine_matches_the_slow_twin_on_every_state_of_3000_games() {
    let mut next = xorshift(0x5eed);
    let mut ends = [0usize; 3];
    let mut kinds = Kinds::default();
    for g in 0..3_000 {
        let (states, moves) = random_game(&mut next);
        let mut game = Game::new();
        assert_same(&states[0], &game, "start", &mut kinds);
        for (i, played) in moves.iter().enumerate() {
            assert!(
                game.play(played.index()),
                "game {g} move {i}: {played} illegal for the twin"
            );
            assert_same(
                &states[i + 1],
                &game,
                &format!("game {g} after move {i}"),
                &mut kinds,
            );
        }
        ends[match states.last().unwrap().status() {
            Status::Won(Player::X) => 0,
            Status::Won(Player::O) => 1,
            _ => 2,
        }] += 1;
    }
    // Every ending occurs (X wins, O wins, draws), and every kind of move status_after and
    // play judge: a win of the game, a draw by a full last board and by a won last board, a
    // board closed with the game going on.
    assert!(ends.iter().all(|&n| n > 100), "{ends:?}");
    assert!(kinds.wins > 1_000 && kinds.closes > 1_000, "{kinds:?}");
    assert!(kinds.draws_full > 50 && kinds.draws_won > 50, "{kinds:?}");
}

#[test]
fn every_state_of_random_games_is_valid_parses_back_and_undoes() {
    let mut next = xorshift(42);
    for _ in 0..1_000 {
        let (states, moves) = random_game(&mut next);
        for (i, state) in states.iter().enumerate() {
            let setup = state.to_setup();
            assert!(
                setup.violations().is_empty(),
                "{setup}: {}",
                setup.violations()
            );
            assert_eq!(Position::try_from(setup), Ok(*state));
            for text in [state.to_string(), format!("{state:#}")] {
                assert_eq!(text.parse::<Setup>(), Ok(setup), "{text}");
            }
            if let Some(played) = moves.get(i) {
                let mut child = *state;
                let undo = child.play(*played).unwrap();
                assert_eq!(child, states[i + 1]);
                child.undo(undo);
                assert_eq!(child, *state);
            }
        }
    }
}

/// From every state of 300 random games (seed `seed`), `playout` (with a `SmallRng`) must
/// play the moves `pick` chooses from the same generator's numbers and end in the position
/// those moves reach.
#[cfg(feature = "rand")]
fn assert_playout_replays(
    seed: u64,
    playout: impl Fn(&mut Position, &mut rand::rngs::SmallRng) -> Status,
    pick: impl Fn(&Position, &mut rand::rngs::SmallRng) -> Option<Move>,
) {
    use rand::SeedableRng;
    use rand::rngs::SmallRng;
    let mut next = xorshift(seed);
    for g in 0..300u64 {
        let (states, _) = random_game(&mut next);
        for (i, state) in states.iter().enumerate() {
            let seed = g * 1_000 + i as u64;
            let mut fast = *state;
            let status = playout(&mut fast, &mut SmallRng::seed_from_u64(seed));
            let mut rng = SmallRng::seed_from_u64(seed);
            let mut slow = *state;
            while let Some(played) = pick(&slow, &mut rng) {
                slow.play(played).unwrap();
            }
            assert_eq!(fast, slow, "game {g} from state {i}");
            assert_eq!(status, slow.status());
            assert!(status.is_finished());
        }
    }
}

/// `play_random` keeps its own per-board state (`playout.rs`): it plays `pick`'s moves.
#[cfg(feature = "rand")]
#[test]
fn play_random_plays_the_moves_of_pick_from_every_state() {
    use rand::RngCore;
    assert_playout_replays(99, Position::play_random, |p, rng| p.pick(rng.next_u32()));
}

/// `play_random_by_board` keeps the same state: it plays `pick_by_board`'s moves.
#[cfg(feature = "rand")]
#[test]
fn play_random_by_board_plays_the_moves_of_pick_by_board_from_every_state() {
    use rand::RngCore;
    assert_playout_replays(98, Position::play_random_by_board, |p, rng| {
        p.pick_by_board(rng.next_u64())
    });
}

#[test]
fn pick_by_board_picks_only_legal_moves_and_none_at_the_end() {
    let mut next = xorshift(97);
    for _ in 0..500 {
        let (states, _) = random_game(&mut next);
        for state in &states {
            let legal = state.legal_moves();
            for random in [
                0,
                u64::MAX,
                u64::from(u32::MAX),
                u64::MAX << 32,
                next(),
                next(),
            ] {
                match state.pick_by_board(random) {
                    Some(played) => assert!(legal.contains(played), "{state} {played}"),
                    None => assert!(legal.is_empty() && state.status().is_finished()),
                }
            }
        }
    }
}

/// Pearson's chi-square of `draws` over the moves of `position` against `expected` (a
/// probability per legal move), and the bound it stays under with probability 1 - 3e-6 when
/// the draws follow `expected` (Wilson and Hilferty's approximation at z = 4.5).
fn chi_square(
    position: &Position,
    mut draw: impl FnMut() -> Move,
    expected: impl Fn(Move) -> f64,
    draws: usize,
) -> (f64, f64) {
    let mut seen = [0usize; 81];
    for _ in 0..draws {
        seen[draw().index()] += 1;
    }
    let legal = position.legal_moves();
    let mut statistic = 0.0;
    for played in legal {
        let e = expected(played) * draws as f64;
        let d = seen[played.index()] as f64 - e;
        statistic += d * d / e;
    }
    assert_eq!(seen.iter().sum::<usize>(), draws);
    let k = f64::from(legal.count() - 1);
    let bound = k * (1.0 - 2.0 / (9.0 * k) + 4.5 * (2.0 / (9.0 * k)).sqrt()).powi(3);
    (statistic, bound)
}

/// `pick_by_board` follows its policy: on a position where the mover chooses among open boards
/// with different numbers of empty cells, a move of open board `b` comes with probability
/// `1 / (m * e_b)`; where the mover is sent, every empty cell of the board `1 / e`. The same
/// test rejects `pick`'s uniform draws on the first position (so it can fail).
#[test]
fn pick_by_board_follows_its_distribution() {
    // A state of a random game where the mover chooses, some boards are closed and the open
    // ones differ in their numbers of empty cells.
    let mut next = xorshift(96);
    let chooses = loop {
        let (states, _) = random_game(&mut next);
        let found = states.into_iter().find(|s| {
            let open = s.open_boards();
            let empties: Vec<u32> = open.iter().map(|b| s.moves_in(b).count()).collect();
            s.next_board().is_none()
                && s.to_move().is_some()
                && (3..9).contains(&open.count())
                && empties.iter().min() != empties.iter().max()
        });
        if let Some(state) = found {
            break state;
        }
    };
    let m = f64::from(chooses.open_boards().count());
    let by_board = |played: Move| 1.0 / (m * f64::from(chooses.moves_in(played.board()).count()));
    let draws = 200_000;
    let (statistic, bound) = chi_square(
        &chooses,
        || chooses.pick_by_board(next()).unwrap(),
        by_board,
        draws,
    );
    assert!(
        statistic < bound,
        "{chooses}: chi-square {statistic} >= {bound}"
    );
    let (uniform, bound) = chi_square(
        &chooses,
        || chooses.pick(next() as u32).unwrap(),
        by_board,
        draws,
    );
    assert!(
        uniform > bound,
        "{chooses}: uniform draws pass ({uniform} < {bound})"
    );
    // Sent to a board: each empty cell alike.
    let mut sent = Position::EMPTY;
    for index in [40, 36, 4] {
        sent.play(Move::try_from(index).unwrap()).unwrap();
    }
    let e = f64::from(sent.legal_moves().count());
    let (statistic, bound) = chi_square(
        &sent,
        || sent.pick_by_board(next()).unwrap(),
        |_| 1.0 / e,
        draws,
    );
    assert!(
        statistic < bound,
        "{sent}: chi-square {statistic} >= {bound}"
    );
}

#[test]
fn symmetries_commute_with_play_and_moves() {
    let mut next = xorshift(7);
    for _ in 0..300 {
        let (states, moves) = random_game(&mut next);
        for (state, played) in states.iter().zip(&moves) {
            for s in Symmetry::ALL {
                let image = state.transform(s);
                let mapped: Vec<Move> =
                    state.legal_moves().iter().map(|m| m.transform(s)).collect();
                let mut expected = image.legal_moves().iter().collect::<Vec<_>>();
                let mut mapped_sorted = mapped.clone();
                mapped_sorted.sort();
                expected.sort();
                assert_eq!(mapped_sorted, expected);
                let mut after = *state;
                after.play(*played).unwrap();
                let mut image_after = image;
                image_after.play(played.transform(s)).unwrap();
                assert_eq!(after.transform(s), image_after);
                assert_eq!(image.transform(s.inverse()), *state);
            }
        }
    }
}

/// A setup from nine rows and a board to play.
fn setup(rows: [&str; 9], next: &str) -> Setup {
    format!("{} {next}", rows.join("/")).parse().unwrap()
}

const EMPTY_ROW: &str = ".........";

#[test]
fn each_violation_is_found_and_named() {
    let e = EMPTY_ROW;
    // X, X: X went twice; no O.
    let twice = setup(["XX.......", e, e, e, e, e, e, e, e], "*");
    assert!(twice.violations().contains(Violation::XWentTwice));
    let o_started = setup(["O........", e, e, e, e, e, e, e, e], "0");
    assert!(o_started.violations().contains(Violation::OStarted));
    // Board 0 with both lines (XXX over OOO).
    let both = setup(["XXX......", "OOO......", e, e, e, e, e, e, e], "*");
    let b0 = Cell::new(0).unwrap();
    assert!(both.violations().contains(Violation::BothLines(b0)));
    // Board 0 with two disjoint X lines.
    let twice_won = setup(
        [
            "XXX......",
            "...",
            "XXX......",
            "OOO......",
            "OOO......",
            "O........",
            e,
            e,
            e,
        ]
        .map(|r| if r == "..." { e } else { r }),
        "*",
    );
    assert!(
        twice_won
            .violations()
            .contains(Violation::ContinuedAfterBoardWon(b0))
    );
    // The board to play is closed: board 0 won by X, next 0.
    let closed = setup(["XXX.O....", "...O.....", e, e, e, e, e, e, e], "0");
    assert!(closed.violations().contains(Violation::NextClosed(b0)));
    // The empty board names a board to play.
    let named = setup([e; 9], "4");
    assert_eq!(
        named.violations().iter().collect::<Vec<_>>(),
        [Violation::NoLastMove]
    );
    // X's one mark in cell 1 sends to board 1, not 4.
    let sent = setup([".X.......", e, e, e, e, e, e, e, e], "4");
    assert_eq!(
        sent.violations().iter().collect::<Vec<_>>(),
        [Violation::NoLastMove]
    );
    assert!(
        setup([".X.......", e, e, e, e, e, e, e, e], "1")
            .violations()
            .is_empty()
    );
    // Messages name the board.
    assert_eq!(
        Violation::NextClosed(b0).to_string(),
        "the board to play, 0, is closed"
    );
    assert_eq!(Violation::BothLines(b0).code(), "both-lines");
}

#[test]
fn a_won_game_names_no_board_and_its_winner_moved_last() {
    // A reachable win: play one out and check the rules on it.
    let mut next = xorshift(99);
    let won = loop {
        let (states, _) = random_game(&mut next);
        let last = *states.last().unwrap();
        if last.status().winner().is_some() && !last.open_boards().is_empty() {
            break last;
        }
    };
    let mut named = won.to_setup();
    named.next = Some(Cell::new(4).unwrap());
    assert!(named.violations().contains(Violation::NextAfterGameOver));
    // One more mark for the loser in an open board: now the winner did not move last.
    let loser = won.status().winner().unwrap().opponent();
    let b = won.open_boards().first().unwrap();
    let c = won.board(b).empty_cells().first().unwrap();
    let mut extra = won.to_setup();
    extra.boards[b.index()].set(c, Some(loser));
    assert!(
        extra.violations().contains(Violation::WinnerMovedFirst),
        "{extra}"
    );
    assert_eq!(won.to_move(), None);
    assert!(won.legal_moves().is_empty());
}

#[test]
fn parse_errors_name_the_character_and_its_index() {
    assert_eq!(
        "X".parse::<Setup>(),
        Err(ParseSetupError::TooFewCells { cells: 1 })
    );
    assert_eq!(
        "..Z".parse::<Setup>(),
        Err(ParseSetupError::BadChar { index: 2, ch: 'Z' })
    );
    let cells = EMPTY_ROW.repeat(9);
    assert_eq!(cells.parse::<Setup>(), Err(ParseSetupError::MissingNext));
    assert_eq!(
        format!("{cells} 9").parse::<Setup>(),
        Err(ParseSetupError::BadNext { index: 82, ch: '9' })
    );
    assert_eq!(
        format!("{cells} 4 x").parse::<Setup>(),
        Err(ParseSetupError::Trailing { index: 84, ch: 'x' })
    );
    assert_eq!(
        format!("{cells}*").parse::<Setup>().map(|s| s.next),
        Ok(None)
    );
}

#[test]
fn play_errors_name_the_rule() {
    let mut position = Position::EMPTY;
    position.play(Move::try_from(1).unwrap()).unwrap(); // X in board 0, cell 1: O to board 1.
    let wrong = Move::try_from(0).unwrap();
    assert_eq!(
        position.play(wrong).unwrap_err().to_string(),
        "move 0:0 is in board 0, but the last move sends the mover to board 1"
    );
    assert_eq!(
        position
            .play(Move::try_from(9).unwrap())
            .map(|u| u.played().index()),
        Ok(9)
    );
    let before = position;
    assert!(position.play(Move::try_from(1).unwrap()).is_err()); // Occupied.
    assert_eq!(position, before);
}

mod encodings {
    use super::*;
    use tictactoe::ultimate::encoding::{Base3, Base4, DecodeError, EncodeError, Ranks};

    #[test]
    fn every_state_of_random_games_round_trips_through_every_encoding() {
        let mut next = xorshift(11);
        let (mut states, mut ranked) = (0, 0);
        for _ in 0..500 {
            let (positions, _) = random_game(&mut next);
            for position in positions {
                let setup = position.to_setup();
                let base4 = Base4::from_position(&position);
                assert_eq!(base4.to_setup(), setup);
                assert_eq!(Base4::try_from(base4.words()), Ok(base4));
                let base3 = Base3::from_position(&position);
                assert_eq!(base3.to_setup(), setup);
                assert_eq!(Base3::try_from(base3.words()), Ok(base3));
                states += 1;
                if let Ok(code) = Ranks::from_position(&position) {
                    assert!(code.code() < Ranks::COUNT);
                    assert_eq!(code.to_position(), Ok(position));
                    ranked += 1;
                }
                for b in Cell::ALL {
                    assert_eq!(base3.board(b), position.board(b));
                    for c in Cell::ALL {
                        assert_eq!(base4.cell(b, c), position.at(b, c));
                    }
                }
                assert_eq!((base4.next(), base3.next()), (setup.next, setup.next));
            }
        }
        // Most states of random games break the 3x3 turn order in some small board.
        assert!(ranked > 0 && ranked < states, "{ranked} of {states}");
    }

    #[test]
    fn set_then_get_on_every_field() {
        let mut next = xorshift(5);
        let (mut base4, mut base3) = (
            Base4::from_setup(&Setup::EMPTY),
            Base3::from_setup(&Setup::EMPTY),
        );
        let mut setup = Setup::EMPTY;
        for _ in 0..5_000 {
            let r = next();
            let (b, c) = (Cell::ALL[(r % 9) as usize], Cell::ALL[(r / 9 % 9) as usize]);
            let mark = [None, Some(Player::X), Some(Player::O)][(r / 81 % 3) as usize];
            base4 = base4.with(b, c, mark);
            base3 = base3.with(b, c, mark);
            setup.boards[b.index()].set(c, mark);
            let target = (r >> 20) % 10;
            let next_board = (target < 9).then(|| Cell::ALL[target as usize]);
            base4 = base4.with_next(next_board);
            base3 = base3.with_next(next_board);
            setup.next = next_board;
            assert_eq!(base4.to_setup(), setup);
            assert_eq!(base3.to_setup(), setup);
            assert_eq!(Base4::from_setup(&setup), base4);
            assert_eq!(Base3::from_setup(&setup), base3);
        }
        let mut ranks = Ranks::try_from(0).unwrap();
        let board: tictactoe::Board = "X.O/.X./...".parse().unwrap();
        let small = tictactoe::Position::try_from(board).unwrap();
        for b in Cell::ALL {
            ranks = ranks.with_board(b, small);
            assert_eq!(
                ranks.rank(b),
                tictactoe::encoding::Rank::from_position(small)
            );
        }
        assert_eq!(
            ranks.with_next(Some(Cell::ALL[8])).next(),
            Some(Cell::ALL[8])
        );
        assert_eq!(Ranks::try_from(Ranks::COUNT - 1).map(Ranks::next), Ok(None));
    }

    #[test]
    fn decode_errors_say_why() {
        assert_eq!(
            Base4::try_from([3 << 2, 0]),
            Err(DecodeError::BadCell {
                board: Cell::ALL[0],
                cell: Cell::ALL[1]
            })
        );
        assert_eq!(
            Base4::try_from([0, 10 << 34]),
            Err(DecodeError::BadNext { value: 10 })
        );
        assert_eq!(
            Base4::try_from([0, 1 << 38]),
            Err(DecodeError::HighBits { bits: 166 })
        );
        assert_eq!(
            Base3::try_from([19_683 << 15, 0]),
            Err(DecodeError::BadBoard {
                board: Cell::ALL[1],
                value: 19_683
            })
        );
        // Board 8's field straddles the two words: bits 120..135.
        assert_eq!(
            Base3::try_from([0, 0x7f]),
            Err(DecodeError::BadBoard {
                board: Cell::ALL[8],
                value: 0x7f << 8
            })
        );
        assert_eq!(
            Base3::try_from([0, 1 << 11]),
            Err(DecodeError::HighBits { bits: 139 })
        );
        assert!(matches!(
            Ranks::try_from(u128::MAX),
            Err(DecodeError::OutOfRange { .. })
        ));
        assert_eq!((Base4::BITS, Base3::BITS, Ranks::BITS), (166, 139, 116));
        let twice: Setup = format!("XX......./{} *", [EMPTY_ROW; 8].join("/"))
            .parse()
            .unwrap();
        assert!(matches!(
            Ranks::try_from_setup(&twice),
            Err(EncodeError::NoRank { .. })
        ));
        assert_eq!(
            DecodeError::BadNext { value: 12 }.to_string(),
            "the board to play holds 12 (expected 0 to 8, or 9 for any)"
        );
    }
}

mod props {
    use super::*;
    use proptest::prelude::*;
    use tictactoe::ultimate::encoding::{Base3, Base4};

    proptest! {
        /// Any sequence of move indices: legal ones play, illegal ones are refused and change
        /// nothing; every reached position survives its text and codes; undoing all of them
        /// returns to the empty board.
        #[test]
        fn play_refuse_and_undo(indices in proptest::collection::vec(0usize..81, 0..120)) {
            let mut position = Position::EMPTY;
            let mut undos = Vec::new();
            for index in indices {
                let played = Move::try_from(index).unwrap();
                let before = position;
                match position.play(played) {
                    Ok(undo) => undos.push(undo),
                    Err(_) => prop_assert_eq!(position, before),
                }
                prop_assert_eq!(position.to_string().parse::<Setup>(), Ok(position.to_setup()));
                prop_assert_eq!(Base4::from_position(&position).to_setup(), position.to_setup());
                prop_assert_eq!(Base3::from_position(&position).to_setup(), position.to_setup());
                prop_assert_eq!(Position::try_from(position.to_setup()), Ok(position));
            }
            while let Some(undo) = undos.pop() {
                position.undo(undo);
            }
            prop_assert_eq!(position, Position::EMPTY);
        }
    }
}
