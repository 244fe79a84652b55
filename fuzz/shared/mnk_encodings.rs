//! The checks behind the `mnk_decode` fuzz target, shared with the stable harness
//! (`tictactoe/tests/fuzz_stable.rs`): arbitrary bytes through every decoder of
//! `tictactoe::mnk::encoding`. None panics; a code that decodes encodes back to itself, reads
//! every cell as its board does, and sets a cell as the board does; a rejected code says why
//! in one line, and the reason is true of the code.
//!
//! Input: byte 0 picks the rows (1 to 19), byte 1 the columns, byte 2 gravity (bit 0) and
//! whether to fold the words into each code space so that most inputs decode (bit 1), bytes 3
//! and 4 a cell and a mark for a set; the rest are little-endian 64-bit words (zero-padded).

use tictactoe::Player;
use tictactoe::mnk::encoding::{
    Base3, Base3Wide, Base4, BitboardPair, DecodeError, EncodeError, HeightKey,
};
use tictactoe::mnk::{
    AnyBoard, Rules, Square,
    bits::{Bits, cell_mask},
};

const MARKS: [Option<Player>; 3] = [None, Some(Player::X), Some(Player::O)];
const EVEN: u64 = 0x5555_5555_5555_5555;

/// Decodes `data` with every family decoder and checks what comes back.
pub fn check(data: &[u8]) {
    let byte = |i: usize| data.get(i).copied().unwrap_or(0);
    let rows = 1 + u32::from(byte(0)) % 19;
    let cols = 1 + u32::from(byte(1)) % 19;
    let gravity = byte(2) & 1 == 1;
    let fold = byte(2) & 2 == 2;
    let rules = Rules::new(rows, cols, 1, gravity).unwrap();
    let square = rules.square_at(u32::from(byte(3)) % rules.cells()).unwrap();
    let mark = MARKS[usize::from(byte(4) % 3)];
    let mut words = [0u64; 12];
    for (i, chunk) in data.get(5..).unwrap_or(&[]).chunks(8).take(12).enumerate() {
        let mut bytes = [0u8; 8];
        bytes[..chunk.len()].copy_from_slice(chunk);
        words[i] = u64::from_le_bytes(bytes);
    }
    let edit = Edit { square, mark };
    base3(rules, words[0], fold, edit);
    base3_wide(
        rules,
        u128::from(words[0]) | u128::from(words[1]) << 64,
        fold,
        edit,
    );
    base4(rules, words, fold, edit);
    pair(rules, words, fold, edit);
    heights(rules, words, fold, edit);
}

#[derive(Clone, Copy)]
struct Edit {
    square: Square,
    mark: Option<Player>,
}

impl Edit {
    /// The board with the edit.
    fn on(self, board: AnyBoard) -> AnyBoard {
        let mut board = board;
        assert!(board.set(self.square, self.mark));
        board
    }
}

/// Every cell of `board` read through `cell`.
fn cells_agree(board: &AnyBoard, cell: impl Fn(Square) -> Option<Player>) {
    let rules = board.rules();
    for index in 0..rules.cells() {
        let square = rules.square_at(index).unwrap();
        assert_eq!(cell(square), board.at(square), "{square} of {board}");
    }
}

fn one_line(error: &impl ToString) {
    let message = error.to_string();
    assert!(!message.contains('\n') && !message.is_empty(), "{message}");
}

fn base3(rules: Rules, code: u64, fold: bool, edit: Edit) {
    let limit = Base3::limit(rules);
    let code = match limit {
        Some(limit) if fold => code % limit,
        _ => code,
    };
    match Base3::try_from_code(rules, code) {
        Ok(value) => {
            assert!(code < limit.unwrap());
            assert_eq!(value.code(), code);
            let board = value.to_any();
            assert_eq!(Base3::from_any(&board), Ok(value));
            cells_agree(&board, |s| value.cell(s));
            let set = value.with(edit.square, edit.mark);
            assert_eq!(set.to_any(), edit.on(board));
        }
        Err(error) => {
            one_line(&error);
            match error {
                DecodeError::OutOfRange { cells } => {
                    assert_eq!(cells, rules.cells());
                    assert!(code >= limit.unwrap());
                }
                DecodeError::TooManyCells { max, .. } => {
                    assert!(limit.is_none() && rules.cells() > max);
                }
                other => panic!("base3: {other}"),
            }
        }
    }
}

fn base3_wide(rules: Rules, code: u128, fold: bool, edit: Edit) {
    let limit = Base3Wide::limit(rules);
    let code = match limit {
        Some(limit) if fold => code % limit,
        _ => code,
    };
    match Base3Wide::try_from_code(rules, code) {
        Ok(value) => {
            assert!(code < limit.unwrap());
            let board = value.to_any();
            assert_eq!(Base3Wide::from_any(&board), Ok(value));
            cells_agree(&board, |s| value.cell(s));
            assert_eq!(value.with(edit.square, edit.mark).to_any(), edit.on(board));
            if let Ok(narrow) = Base3::from_any(&board) {
                assert_eq!(u128::from(narrow.code()), code);
            }
        }
        Err(error) => {
            one_line(&error);
            match error {
                DecodeError::OutOfRange { .. } => assert!(code >= limit.unwrap()),
                DecodeError::TooManyCells { .. } => assert!(limit.is_none()),
                other => panic!("base3 wide: {other}"),
            }
        }
    }
}

fn base4(rules: Rules, mut words: [u64; 12], fold: bool, edit: Edit) {
    let bits = Base4::bits(rules);
    if fold {
        for (i, word) in words.iter_mut().enumerate() {
            let start = 64 * i as u32;
            *word &= Bits::<1>::low(bits.saturating_sub(start)).0[0];
            *word ^= (*word & *word >> 1 & EVEN) << 1;
        }
    }
    match Base4::try_from_words(rules, words) {
        Ok(value) => {
            assert_eq!(value.words(), &words);
            let board = value.to_any();
            assert_eq!(Base4::from_any(&board), value);
            cells_agree(&board, |s| value.cell(s));
            assert_eq!(value.with(edit.square, edit.mark).to_any(), edit.on(board));
        }
        Err(error) => {
            one_line(&error);
            match error {
                DecodeError::Pattern11 { square } => {
                    let index = rules.index(square);
                    let pair = words[(index / 32) as usize] >> (2 * (index % 32)) & 3;
                    assert_eq!(pair, 3);
                }
                DecodeError::PastTheBoard { bit, bits: b } => {
                    assert_eq!(b, bits);
                    assert!(bit >= bits && words[(bit / 64) as usize] >> (bit % 64) & 1 == 1);
                }
                other => panic!("base4: {other}"),
            }
        }
    }
}

fn pair(rules: Rules, words: [u64; 12], fold: bool, edit: Edit) {
    let mut x: [u64; 6] = words[..6].try_into().unwrap();
    let mut o: [u64; 6] = words[6..].try_into().unwrap();
    if fold {
        let cells = cell_mask::<6>(rules);
        x = (Bits(x) & cells).0;
        o = (Bits(o) & cells).and_not(Bits(x)).0;
    }
    match BitboardPair::<6>::try_from_words(rules, x, o) {
        Ok(value) => {
            assert_eq!(value.words(), (x, o));
            let board = value.to_any();
            assert_eq!(BitboardPair::<6>::from_any(&board), Ok(value));
            cells_agree(&board, |s| value.cell(s));
            assert_eq!(value.with(edit.square, edit.mark).to_any(), edit.on(board));
        }
        Err(error) => {
            one_line(&error);
            match error {
                DecodeError::NotACell { player, bit } => {
                    let bits = if player == Player::X { x } else { o };
                    assert!(Bits(bits).contains(bit) && rules.square_of_bit(bit).is_none());
                }
                DecodeError::Overlap { square } => {
                    let bit = rules.bit(square);
                    assert!(Bits(x).contains(bit) && Bits(o).contains(bit));
                }
                other => panic!("pair: {other}"),
            }
        }
    }
}

fn heights(rules: Rules, words: [u64; 12], fold: bool, edit: Edit) {
    let mut key: [u64; 6] = words[..6].try_into().unwrap();
    if fold {
        key = (Bits(key) & Bits::low(rules.bits())).0;
        for col in 0..rules.cols() {
            let column = Bits::<6>::low(rules.stride()).shl(col * rules.stride());
            if (Bits(key) & column).is_empty() {
                key[(col * rules.stride() / 64) as usize] |= 1 << (col * rules.stride() % 64);
            }
        }
    }
    let narrow = HeightKey::<1>::try_from_code(rules, key[0]);
    if rules.bits() > 64 {
        assert!(matches!(narrow, Err(DecodeError::Width(_))));
    }
    match HeightKey::<6>::try_from_words(rules, key) {
        Ok(value) => {
            assert_eq!(value.words(), key);
            let board = value.to_any();
            assert_eq!(HeightKey::<6>::from_any(&board), Ok(value));
            assert!(
                AnyBoard::parse(rules, board.to_string())
                    .map(|b| b == board)
                    .unwrap_or(false)
            );
            cells_agree(&board, |s| value.cell(s));
            if rules.bits() <= 64 && key[1..].iter().all(|&w| w == 0) {
                assert_eq!(narrow.map(|k| k.code()), Ok(key[0]));
            }
            let edited = edit.on(board);
            match value.with(edit.square, edit.mark) {
                Ok(set) => assert_eq!(set.to_any(), edited),
                Err(error) => {
                    assert_eq!(
                        error,
                        EncodeError::Floating {
                            col: edit.square.col()
                        }
                    );
                    assert_eq!(HeightKey::<6>::from_any(&edited), Err(error));
                }
            }
        }
        Err(error) => {
            one_line(&error);
            match error {
                DecodeError::NotGravity { .. } => assert!(!rules.gravity()),
                DecodeError::PastTheBoard { bit, bits } => {
                    assert!(bit >= bits && Bits(key).contains(bit));
                }
                DecodeError::MissingMarker { col } => {
                    let column = Bits::<6>::low(rules.stride()).shl(col * rules.stride());
                    assert!((Bits(key) & column).is_empty());
                }
                other => panic!("heights: {other}"),
            }
        }
    }
}
