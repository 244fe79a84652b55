//! Arbitrary bytes through ultimate tic-tac-toe's text parser (`ultimate::Setup`) and its
//! decoders (`ultimate::encoding`: `Base4`, `Base3`, `Ranks`). None panics; what parses or
//! decodes round-trips and validates consistently; a rejection's reason is true of the input.
//! (The checks are in `fuzz/shared/ultimate.rs`.)
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../shared/ultimate.rs"]
mod ultimate;

fuzz_target!(|data: &[u8]| ultimate::check(data));
