//! Arbitrary bytes, read as UTF-8, parsed as a board: never a panic; a board that parses
//! prints to nine characters that parse back to it; an error names a real character or the
//! real number of cells.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tictactoe::{Board, ParseBoardError, Position};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match text.parse::<Board>() {
        Ok(board) => check_board(board),
        Err(error) => check_error(text, error),
    }
});

fn check_board(board: Board) {
    let printed = board.to_string();
    assert_eq!(printed.len(), 9);
    assert_eq!(printed.parse::<Board>(), Ok(board));
    let slashed = format!("{}/{}/{}", &printed[..3], &printed[3..6], &printed[6..]);
    assert_eq!(slashed.parse::<Board>(), Ok(board));
    // Validation and status must not panic either, whatever the board.
    match Position::try_from(board) {
        Ok(position) => {
            let _ = position.status();
        }
        Err(invalid) => assert!(!invalid.violations.is_empty()),
    }
}

fn check_error(text: &str, error: ParseBoardError) {
    assert!(!error.to_string().contains('\n'));
    match error {
        ParseBoardError::WrongLength { cells } => {
            assert_ne!(cells, 9);
            let marks = text.chars().filter(|c| "XxOo.".contains(*c)).count();
            assert_eq!(cells, marks);
        }
        ParseBoardError::BadChar { index, ch } => {
            assert_eq!(text.chars().nth(index), Some(ch));
        }
    }
}
