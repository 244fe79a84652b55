//! Arbitrary lengths (up to 2^64) and byte strings into every public constructor of
//! `tictactoe::packed` and `tictactoe::file::Header`: `PackedArray::from_bytes` of every
//! encoding, `MixedRadix::from_bytes`, `Packing::decode` of every packing, `bytes_for`,
//! `with_capacity`, `Header::from_bytes`, `file_bytes`, `blocks_for`. None panics; what is
//! accepted round-trips. (The checks are in `fuzz/shared/checks.rs`.)
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../shared/checks.rs"]
#[allow(dead_code)]
mod checks;

fuzz_target!(|data: &[u8]| checks::constructors(data));
