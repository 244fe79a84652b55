//! The family encodings (`tictactoe::mnk::encoding`): every 3×3 grid against the 3×3 core's
//! codes, every 4×4 grid through base 3 and base 4, every Connect Four position up to 8 plies
//! through the height key, property tests on boards up to 19×19, and each rejection.

use std::collections::HashMap;

use proptest::prelude::*;
use tictactoe::Player;
use tictactoe::mnk::encoding::{
    Base3, Base3Wide, Base4, BitboardPair, DecodeError, EncodeError, HeightKey,
};
use tictactoe::mnk::{AnyBoard, Board, Position, Rules, Square};

const MARKS: [Option<Player>; 3] = [None, Some(Player::X), Some(Player::O)];

/// The slow twin of a base-3 get: the articles' `code / 3^i % 3`, by repeated division.
fn slow_digit(code: u128, index: u32) -> u32 {
    let mut rest = code;
    for _ in 0..index {
        rest /= 3;
    }
    (rest % 3) as u32
}

fn digit(mark: Option<Player>) -> u32 {
    match mark {
        None => 0,
        Some(Player::X) => 1,
        Some(Player::O) => 2,
    }
}

#[test]
fn three_by_three_agrees_with_the_core_on_every_grid() {
    let rules = Rules::TIC_TAC_TOE;
    for (code, core) in tictactoe::Board::all().enumerate() {
        let board = Board::<1>::parse(rules, core.to_string()).unwrap();
        let base3 = Base3::from_board(&board).unwrap();
        // Same cell order and digits: the very same number.
        assert_eq!(base3.code(), code as u64);
        assert_eq!(
            u64::from(tictactoe::encoding::Base3::from_board(core).code()),
            base3.code()
        );
        let base4 = Base4::from_board(&board);
        assert_eq!(
            base4.words()[0],
            u64::from(tictactoe::encoding::Base4::from_board(core).code())
        );
        assert_eq!(base3.to_board::<1>().unwrap(), board);
        assert_eq!(base4.to_board::<1>().unwrap(), board);
        let (x, o) = BitboardPair::from_board(&board).words();
        assert_eq!(
            BitboardPair::try_from_words(rules, x, o)
                .unwrap()
                .to_board(),
            board
        );
        for index in 0..9 {
            let square = rules.square_at(index).unwrap();
            let mark = board.at(square);
            assert_eq!(slow_digit(u128::from(base3.code()), index), digit(mark));
            assert_eq!(base3.cell(square), mark);
            assert_eq!(base4.cell(square), mark);
            for new in MARKS {
                let expected = board.with(square, new);
                let set = base3.with(square, new);
                // code + (new − old) · 3^i
                let place = 3u64.pow(index);
                assert_eq!(
                    set.code() + u64::from(digit(mark)) * place,
                    base3.code() + u64::from(digit(new)) * place
                );
                assert_eq!(set, Base3::from_board(&expected).unwrap());
                assert_eq!(base4.with(square, new), Base4::from_board(&expected));
            }
        }
    }
}

/// All 3^16 = 43,046,721 grids of 4×4: each base-3 code decodes to a board that encodes back
/// to it in base 3 and base 4, and the base-4 code decodes to the same board. At most 8 s of
/// CPU in release (measured on a shared, loaded 2-core machine), split over two threads.
#[test]
fn every_four_by_four_grid_round_trips() {
    let rules = Rules::FOUR_BY_FOUR;
    let limit = Base3::limit(rules).unwrap();
    assert_eq!(limit, 43_046_721);
    let check = |codes: std::ops::Range<u64>| {
        let mut checksum = 0u64;
        for code in codes {
            let base3 = Base3::try_from_code(rules, code).unwrap();
            let board = base3.to_board::<1>().unwrap();
            assert_eq!(Base3::from_board(&board).unwrap().code(), code);
            let base4 = Base4::from_board(&board);
            assert_eq!(base4.to_board::<1>().unwrap(), board);
            checksum = checksum.wrapping_add(base4.words()[0]);
        }
        checksum
    };
    let half = limit / 2;
    let checksum = std::thread::scope(|scope| {
        let low = scope.spawn(|| check(0..half));
        check(half..limit) + low.join().unwrap()
    });
    // Σ over all grids of Σ_i pattern_i · 4^i: each cell is 0, 1 and 2 in 3^15 grids each.
    let per_cell = 3u64.pow(15) * 3;
    let expected = (0..16).map(|i| per_cell * 4u64.pow(i)).sum::<u64>();
    assert_eq!(checksum, expected);
    assert_eq!(
        Base3::try_from_code(rules, limit),
        Err(DecodeError::OutOfRange { cells: 16 })
    );
}

/// Every Connect Four position up to 8 plies, reached by `Position::play`: its height key,
/// base-3 and base-4 codes and bitboard pair decode back to it, each code reads every cell
/// right, and setting the played cell on the parent's codes gives the child's.
#[test]
fn every_connect_four_position_up_to_8_plies_round_trips() {
    let rules = Rules::CONNECT_FOUR;
    let mut layer = HashMap::from([(0u64, Position::<1>::new(rules).unwrap())]);
    let mut counts = vec![1];
    for _ in 0..8 {
        let mut next = HashMap::new();
        for position in layer.values() {
            let parent = HeightKey::from_board(&position.board()).unwrap();
            let parent3 = Base3Wide::from_board(&position.board()).unwrap();
            for column in position.legal_actions() {
                let mut child = *position;
                let square = child.play(column).unwrap();
                let board = child.board();
                let key = HeightKey::from_board(&board).unwrap();
                let mark = board.at(square);
                assert_eq!(parent.with(square, mark), Ok(key));
                assert_eq!(
                    parent3.with(square, mark),
                    Base3Wide::from_board(&board).unwrap()
                );
                next.entry(key.code()).or_insert(child);
            }
        }
        counts.push(next.len());
        layer = next;
        for (&code, position) in &layer {
            check_connect_four(code, &position.board());
        }
    }
    // OEIS A212693: distinct Connect Four positions after n plies.
    assert_eq!(counts, [1, 7, 49, 238, 1120, 4263, 16422, 54859, 184275]);
}

fn check_connect_four(code: u64, board: &Board<1>) {
    let rules = board.rules();
    let key = HeightKey::<1>::try_from_code(rules, code).unwrap();
    assert_eq!(key.to_board().unwrap(), *board);
    assert!(code < 1 << 49);
    let wide = Base3Wide::from_board(board).unwrap();
    assert_eq!(wide.to_board::<1>().unwrap(), *board);
    assert_eq!(
        Base3Wide::try_from_code(rules, wide.code())
            .unwrap()
            .to_any(),
        AnyBoard::W1(*board)
    );
    let base4 = Base4::from_board(board);
    assert_eq!(
        Base4::try_from_words(rules, *base4.words())
            .unwrap()
            .to_board::<1>()
            .unwrap(),
        *board
    );
    let (x, o) = BitboardPair::from_board(board).words();
    assert_eq!(
        BitboardPair::try_from_words(rules, x, o)
            .unwrap()
            .to_board(),
        *board
    );
    for index in 0..rules.cells() {
        let square = rules.square_at(index).unwrap();
        let mark = board.at(square);
        assert_eq!(key.cell(square), mark);
        assert_eq!(wide.cell(square), mark);
        assert_eq!(slow_digit(wide.code(), index), digit(mark));
        assert_eq!(base4.cell(square), mark);
    }
    for col in 0..rules.cols() {
        let height = (0..rules.rows())
            .filter(|&row| board.at(Square::new(row as u8, col as u8)).is_some())
            .count() as u32;
        assert_eq!(key.height(col), Some(height));
    }
}

#[test]
fn limits_and_sizes() {
    let rules = |r, c, g| Rules::new(r, c, 3, g).unwrap();
    assert_eq!(Base3::bits(Rules::TIC_TAC_TOE), Some(15));
    assert_eq!(Base3::bits(Rules::FOUR_BY_FOUR), Some(26));
    assert_eq!(Base3::bits(rules(5, 5, false)), Some(40));
    assert_eq!(Base3::bits(rules(6, 6, false)), Some(58));
    assert_eq!(Base3::bits(rules(4, 10, false)), Some(64));
    assert_eq!(Base3::limit(rules(4, 10, false)), Some(3u64.pow(40)));
    assert_eq!(Base3::limit(Rules::CONNECT_FOUR), None);
    assert_eq!(Base3Wide::bits(Rules::CONNECT_FOUR), Some(67));
    assert_eq!(Base3Wide::bits(rules(8, 8, false)), Some(102));
    assert_eq!(Base3Wide::bits(rules(8, 10, false)), Some(127));
    assert_eq!(Base3Wide::limit(rules(9, 9, false)), None);
    assert_eq!(Base4::bits(rules(19, 19, false)), 722);
    assert_eq!(Base4::used_words(rules(19, 19, false)), 12);
    assert_eq!(Base4::used_words(Rules::GOMOKU), 8);
    assert_eq!(BitboardPair::<1>::bits(Rules::CONNECT_FOUR), 98);
    assert_eq!(HeightKey::<1>::bits(Rules::CONNECT_FOUR), 49);
    assert_eq!(
        HeightKey::<1>::count(Rules::CONNECT_FOUR),
        Some(127u128.pow(7))
    );
    assert_eq!(HeightKey::<6>::bits(rules(19, 19, true)), 380);
    assert_eq!(HeightKey::<6>::count(rules(19, 19, true)), None);

    // The full 4×10 board, all O: the largest u64 code, 3^40 − 1.
    let full = Board::<1>::parse(rules(4, 10, false), "O".repeat(40)).unwrap();
    assert_eq!(Base3::from_board(&full).unwrap().code(), 3u64.pow(40) - 1);
    let full = AnyBoard::parse(rules(8, 10, false), "O".repeat(80)).unwrap();
    assert_eq!(
        Base3Wide::from_any(&full).unwrap().code(),
        3u128.pow(80) - 1
    );
    assert_eq!(
        Base3Wide::from_any(&full).unwrap().to_any(),
        full,
        "the largest u128 code"
    );
}

#[test]
fn bad_codes_and_boards_are_rejected_with_a_reason() {
    let ttt = Rules::TIC_TAC_TOE;
    let c4 = Rules::CONNECT_FOUR;
    let nine = Rules::new(9, 9, 5, false).unwrap();
    // Base 3: range and size.
    assert_eq!(
        Base3::try_from_code(ttt, 19_683),
        Err(DecodeError::OutOfRange { cells: 9 })
    );
    assert!(Base3::try_from_code(ttt, 19_682).is_ok());
    assert_eq!(
        Base3::try_from_code(c4, 0),
        Err(DecodeError::TooManyCells { rules: c4, max: 40 })
    );
    assert_eq!(
        Base3::from_any(&AnyBoard::empty(c4)),
        Err(EncodeError::TooManyCells { rules: c4, max: 40 })
    );
    assert_eq!(
        Base3Wide::try_from_code(nine, 0),
        Err(DecodeError::TooManyCells {
            rules: nine,
            max: 80
        })
    );
    assert!(matches!(
        Base3Wide::try_from_code(c4, u128::MAX),
        Err(DecodeError::OutOfRange { cells: 42 })
    ));
    // Base 4: the digit 3, bits past the board.
    let mut words = [0u64; 12];
    words[0] = 0b11 << 8;
    assert_eq!(
        Base4::try_from_words(ttt, words),
        Err(DecodeError::Pattern11 {
            square: Square::new(1, 1)
        })
    );
    words[0] = 1 << 18;
    assert_eq!(
        Base4::try_from_words(ttt, words),
        Err(DecodeError::PastTheBoard { bit: 18, bits: 18 })
    );
    words[0] = 0;
    words[11] = 1 << 63;
    assert_eq!(
        Base4::try_from_words(Rules::new(19, 19, 5, false).unwrap(), words),
        Err(DecodeError::PastTheBoard {
            bit: 767,
            bits: 722
        })
    );
    // Bitboard pair: overlap, guard bits, past the columns, width.
    assert_eq!(
        BitboardPair::<1>::try_from_words(ttt, [0b10], [0b110]),
        Err(DecodeError::Overlap {
            square: Square::new(1, 0)
        })
    );
    assert_eq!(
        BitboardPair::<1>::try_from_words(ttt, [0], [1 << 7]),
        Err(DecodeError::NotACell {
            player: Player::O,
            bit: 7
        })
    );
    assert_eq!(
        BitboardPair::<1>::try_from_words(ttt, [1 << 12], [0]),
        Err(DecodeError::NotACell {
            player: Player::X,
            bit: 12
        })
    );
    assert!(matches!(
        BitboardPair::<1>::try_from_words(Rules::GOMOKU, [0], [0]),
        Err(DecodeError::Width(_))
    ));
    assert!(matches!(
        BitboardPair::<1>::from_any(&AnyBoard::empty(Rules::GOMOKU)),
        Err(EncodeError::Width(_))
    ));
    // Height key: gravity, markers, past the columns, floating marks, width.
    assert_eq!(
        HeightKey::<1>::try_from_code(ttt, 0b1_0001_0001),
        Err(DecodeError::NotGravity { rules: ttt })
    );
    assert_eq!(
        HeightKey::<1>::from_any(&AnyBoard::empty(ttt)),
        Err(EncodeError::NotGravity { rules: ttt })
    );
    let empty = HeightKey::<1>::from_any(&AnyBoard::empty(c4)).unwrap();
    assert_eq!(empty.code(), 0x0408_1020_4081);
    assert_eq!(
        HeightKey::<1>::try_from_code(c4, empty.code() & !(1 << 21)),
        Err(DecodeError::MissingMarker { col: 3 })
    );
    assert_eq!(
        HeightKey::<1>::try_from_code(c4, empty.code() | 1 << 49),
        Err(DecodeError::PastTheBoard { bit: 49, bits: 49 })
    );
    assert!(matches!(
        HeightKey::<1>::try_from_code(Rules::new(8, 8, 4, true).unwrap(), 0),
        Err(DecodeError::Width(_))
    ));
    let floating = AnyBoard::parse(c4, "......./......./......./......./..X..../.......").unwrap();
    assert_eq!(
        HeightKey::<1>::from_any(&floating),
        Err(EncodeError::Floating { col: 2 })
    );
    // Every error says why in one line.
    for message in [
        DecodeError::OutOfRange { cells: 9 }.to_string(),
        DecodeError::Pattern11 {
            square: Square::new(1, 1),
        }
        .to_string(),
        EncodeError::Floating { col: 2 }.to_string(),
    ] {
        assert!(
            !message.contains('\n') && !message.ends_with('.'),
            "{message}"
        );
    }
}

#[test]
fn height_key_sets_follow_gravity() {
    let c4 = Rules::CONNECT_FOUR;
    let mut key = HeightKey::<1>::from_any(&AnyBoard::empty(c4)).unwrap();
    let bottom = Square::new(5, 2);
    let above = Square::new(4, 2);
    assert_eq!(
        key.set(above, Some(Player::X)),
        Err(EncodeError::Floating { col: 2 })
    );
    assert_eq!(key.set(above, None), Ok(()), "emptying an empty cell");
    key.set(bottom, Some(Player::O)).unwrap();
    key.set(above, Some(Player::X)).unwrap();
    assert_eq!(key.height(2), Some(2));
    assert_eq!(
        key.set(bottom, None),
        Err(EncodeError::Floating { col: 2 }),
        "a hole under X"
    );
    key.set(bottom, Some(Player::X)).unwrap(); // recolour below the top
    assert_eq!(key.cell(bottom), Some(Player::X));
    key.set(above, None).unwrap();
    key.set(bottom, None).unwrap();
    assert_eq!(key, HeightKey::from_any(&AnyBoard::empty(c4)).unwrap());
    assert!(matches!(
        key.set(Square::new(6, 0), None),
        Err(EncodeError::OffBoard { .. })
    ));
}

fn any_rules(max_cells: u32, gravity: bool) -> impl Strategy<Value = Rules> {
    (1u32..=19, 1u32..=19)
        .prop_filter("cells", move |(r, c)| r * c <= max_cells)
        .prop_map(move |(r, c)| Rules::new(r, c, 1, gravity).unwrap())
}

fn board_of(rules: Rules, marks: &[u8]) -> AnyBoard {
    let mut board = AnyBoard::empty(rules);
    for index in 0..rules.cells() {
        let square = rules.square_at(index).unwrap();
        board.set(square, MARKS[usize::from(marks[index as usize] % 3)]);
    }
    board
}

/// A gravity board: column heights and stone colours.
fn gravity_board(rules: Rules, heights: &[u8], marks: &[u8]) -> AnyBoard {
    let mut board = AnyBoard::empty(rules);
    for col in 0..rules.cols() {
        let height = u32::from(heights[col as usize]) % (rules.rows() + 1);
        for up in 0..height {
            let square = Square::new((rules.rows() - 1 - up) as u8, col as u8);
            let player = MARKS[1 + usize::from(marks[(col * 19 + up) as usize] % 2)];
            board.set(square, player);
        }
    }
    board
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn any_board_round_trips(
        rules in any_rules(361, false),
        marks in prop::collection::vec(0u8..3, 361),
        edits in prop::collection::vec((0u32..361, 0u8..3), 0..20),
    ) {
        let mut board = board_of(rules, &marks);
        let mut base4 = Base4::from_any(&board);
        prop_assert_eq!(base4.to_any(), board);
        prop_assert_eq!(Base4::try_from_words(rules, *base4.words()), Ok(base4));
        let mut pair = BitboardPair::<6>::from_any(&board).unwrap();
        let (x, o) = pair.words();
        prop_assert_eq!(BitboardPair::try_from_words(rules, x, o), Ok(pair));
        prop_assert_eq!(pair.to_any(), board);
        let mut base3 = Base3::from_any(&board).ok();
        let mut wide = Base3Wide::from_any(&board).ok();
        prop_assert_eq!(base3.is_some(), rules.cells() <= 40);
        prop_assert_eq!(wide.is_some(), rules.cells() <= 80);
        for (index, mark) in edits {
            let square = rules.square_at(index % rules.cells()).unwrap();
            let mark = MARKS[usize::from(mark)];
            prop_assert_eq!(base4.cell(square), board.at(square));
            board.set(square, mark);
            base4.set(square, mark);
            pair.set(square, mark);
            if let Some(code) = base3.as_mut() {
                code.set(square, mark);
            }
            if let Some(code) = wide.as_mut() {
                code.set(square, mark);
            }
        }
        prop_assert_eq!(base4, Base4::from_any(&board));
        prop_assert_eq!(pair.to_any(), board);
        if let Some(code) = base3 {
            prop_assert_eq!(Base3::try_from_code(rules, code.code()).unwrap().to_any(), board);
        }
        if let Some(code) = wide {
            prop_assert_eq!(Base3Wide::try_from_code(rules, code.code()).unwrap().to_any(), board);
        }
    }

    #[test]
    fn gomoku_and_nineteen_by_nineteen_round_trip(
        nineteen in any::<bool>(),
        marks in prop::collection::vec(0u8..3, 361),
    ) {
        let rules = if nineteen { Rules::new(19, 19, 5, false).unwrap() } else { Rules::GOMOKU };
        let board = board_of(rules, &marks);
        prop_assert_eq!(Base4::from_any(&board).to_any(), board);
        prop_assert_eq!(BitboardPair::<6>::from_any(&board).unwrap().to_any(), board);
        if let AnyBoard::W4(b) = board {
            prop_assert_eq!(BitboardPair::from_board(&b).to_board(), b);
        }
        prop_assert!(Base3Wide::from_any(&board).is_err());
    }

    #[test]
    fn gravity_boards_round_trip_through_height_keys(
        rules in any_rules(361, true),
        heights in prop::collection::vec(any::<u8>(), 19),
        marks in prop::collection::vec(any::<u8>(), 19 * 19),
        edits in prop::collection::vec((0u32..361, 0u8..3), 0..20),
    ) {
        let mut board = gravity_board(rules, &heights, &marks);
        let mut key = HeightKey::<6>::from_any(&board).unwrap();
        prop_assert_eq!(HeightKey::try_from_words(rules, key.words()), Ok(key));
        prop_assert_eq!(key.to_any(), board);
        if rules.bits() <= 64 {
            let narrow = HeightKey::<1>::from_any(&board).unwrap();
            prop_assert_eq!(narrow.code(), key.words()[0]);
        }
        for (index, mark) in edits {
            let square = rules.square_at(index % rules.cells()).unwrap();
            let mark = MARKS[usize::from(mark)];
            prop_assert_eq!(key.cell(square), board.at(square));
            let edited = board_with(board, square, mark);
            match key.with(square, mark) {
                Ok(next) => {
                    prop_assert_eq!(next.to_any(), edited);
                    key = next;
                    board = edited;
                }
                Err(error) => {
                    prop_assert_eq!(error, EncodeError::Floating { col: square.col() });
                    prop_assert_eq!(HeightKey::<6>::from_any(&edited).err(), Some(error));
                }
            }
        }
    }
}

fn board_with(mut board: AnyBoard, square: Square, mark: Option<Player>) -> AnyBoard {
    board.set(square, mark);
    board
}
