//! The checks behind the `ultimate` fuzz target, shared with the stable harness
//! (`tictactoe/tests/fuzz_stable.rs`): arbitrary bytes through ultimate tic-tac-toe's text
//! parser and its three decoders (`tictactoe::ultimate`). None panics; a text that parses
//! prints back to a text that parses to the same setup, and validation names a reason exactly
//! when the setup is not a position; a code that decodes encodes back to itself and reads every
//! cell as its setup does; a rejected code says why in one line, and the reason holds.
//!
//! Input: byte 0 picks the mode (bit 0: text or codes; bit 1: fold the words into each code
//! space so that most inputs decode); text is the rest as UTF-8 (lossy), codes are the rest as
//! little-endian 128-bit words (zero-padded).

use tictactoe::Cell;
use tictactoe::ultimate::encoding::{Base3, Base4, DecodeError, Ranks};
use tictactoe::ultimate::{ParseSetupError, Position, Setup};

/// Checks `data` as text or as codes, by its first byte.
pub fn check(data: &[u8]) {
    let mode = data.first().copied().unwrap_or(0);
    let rest = data.get(1..).unwrap_or(&[]);
    if mode & 1 == 0 {
        check_text(&String::from_utf8_lossy(rest));
    } else {
        check_codes(rest, mode & 2 == 2);
    }
}

fn check_setup(setup: &Setup) {
    let violations = setup.violations();
    match Position::try_from(*setup) {
        Ok(position) => {
            assert!(violations.is_empty());
            assert_eq!(position.to_setup(), *setup);
        }
        Err(error) => {
            assert!(!violations.is_empty());
            assert_eq!(error.violations, violations);
            assert!(!error.to_string().contains('\n'));
        }
    }
}

fn check_text(text: &str) {
    match text.parse::<Setup>() {
        Ok(setup) => {
            for printed in [setup.to_string(), format!("{setup:#}")] {
                assert_eq!(printed.parse::<Setup>(), Ok(setup), "{printed}");
            }
            check_setup(&setup);
        }
        Err(error) => {
            let chars: Vec<char> = text.chars().collect();
            match error {
                ParseSetupError::BadChar { index, ch }
                | ParseSetupError::BadNext { index, ch }
                | ParseSetupError::Trailing { index, ch } => assert_eq!(chars[index], ch),
                ParseSetupError::TooFewCells { cells } => assert!(cells < 81),
                ParseSetupError::MissingNext => {}
            }
            assert!(!error.to_string().contains('\n'));
        }
    }
}

fn check_codes(bytes: &[u8], fold: bool) {
    let word = |i: usize| {
        let mut buf = [0u8; 16];
        for (j, b) in buf.iter_mut().enumerate() {
            *b = bytes.get(16 * i + j).copied().unwrap_or(0);
        }
        u128::from_le_bytes(buf)
    };
    let mut words = [word(0), word(1)];
    if fold {
        // Clear the bits past each layout and the 2-bit value 3, so that most inputs decode.
        words[0] &= !((words[0] & (words[0] >> 1)) & 0x5555_5555_5555_5555_5555_5555_5555_5555);
    }
    let base4 = Base4::try_from(if fold {
        [words[0], words[1] % (1 << 38)]
    } else {
        words
    });
    match base4 {
        Ok(code) => {
            let setup = code.to_setup();
            assert_eq!(Base4::from_setup(&setup), code);
            for b in Cell::ALL {
                for c in Cell::ALL {
                    assert_eq!(code.cell(b, c), setup.boards[b.index()].at(c));
                }
            }
            check_setup(&setup);
        }
        Err(error) => check_reason(error, words),
    }
    match Base3::try_from(words) {
        Ok(code) => {
            let setup = code.to_setup();
            assert_eq!(Base3::from_setup(&setup), code);
            check_setup(&setup);
        }
        Err(error) => check_reason(error, words),
    }
    let rank = if fold {
        words[0] % Ranks::COUNT
    } else {
        words[0]
    };
    match Ranks::try_from(rank) {
        Ok(code) => {
            let setup = code.to_setup();
            assert_eq!(Ranks::try_from_setup(&setup), Ok(code));
            check_setup(&setup);
        }
        Err(DecodeError::OutOfRange { code }) => assert!(code >= Ranks::COUNT),
        Err(other) => panic!("a rank code fails only out of range: {other}"),
    }
}

/// The reason of a rejected two-word code holds.
fn check_reason(error: DecodeError, words: [u128; 2]) {
    assert!(!error.to_string().contains('\n'));
    match error {
        DecodeError::HighBits { bits } => assert_ne!(words[1] >> (bits - 128), 0),
        DecodeError::BadNext { value } => assert!(value > 9),
        DecodeError::BadCell { .. } | DecodeError::BadBoard { .. } => {}
        DecodeError::OutOfRange { .. } => panic!("two-word codes are never out of range"),
    }
}
