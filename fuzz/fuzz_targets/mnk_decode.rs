//! Arbitrary bytes through every decoder of the k-in-a-row family's encodings
//! (`tictactoe::mnk::encoding`: `Base3`, `Base3Wide`, `Base4`, `BitboardPair`, `HeightKey`),
//! for rules picked from the first bytes. None panics; what decodes round-trips, reads every
//! cell as its board does and sets a cell as the board does; a rejection's reason is true of
//! the code. (The checks are in `fuzz/shared/mnk_encodings.rs`.)
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../shared/mnk_encodings.rs"]
mod mnk_encodings;

fuzz_target!(|data: &[u8]| mnk_encodings::check(data));
