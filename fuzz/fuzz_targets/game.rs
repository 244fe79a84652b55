//! The game notation parser and the two game-code decoders on arbitrary input: never a panic;
//! a string that parses prints back to itself (digits only, no separators) and its codes
//! decode to the same game; an arbitrary `u32` either decodes to a game that encodes back to
//! it or is rejected with a one-line error.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tictactoe::Game;
use tictactoe::game::{GameCode, PrefixCode};

fuzz_target!(|input: (u32, &str)| {
    let (code, text) = input;
    if let Ok(game) = text.parse::<Game>() {
        assert_eq!(game.to_string(), text);
        assert_eq!(PrefixCode::from_game(&game).to_game(), game);
        if let Some(complete) = GameCode::from_game(&game) {
            assert_eq!(complete.to_game(), game);
        }
    }
    for code in [code, code & 0xf_ffff, code & 0x3_ffff] {
        match PrefixCode::try_from(code) {
            Ok(prefix) => assert_eq!(PrefixCode::from_game(&prefix.to_game()), prefix),
            Err(error) => assert!(!error.to_string().contains('\n')),
        }
        match GameCode::try_from(code) {
            Ok(complete) => assert_eq!(GameCode::from_game(&complete.to_game()), Some(complete)),
            Err(error) => assert!(!error.to_string().contains('\n')),
        }
    }
});
