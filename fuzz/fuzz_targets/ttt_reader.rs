//! Fuzzes the `.ttt` reader two ways, chosen by the first byte (the checks are in
//! `fuzz/shared/checks.rs`, shared with a stable harness):
//!
//! - raw bytes: reading never panics; a file that reads cleanly salvages to the same records
//!   and loses nothing (with and without its size), is canonical (writing its records again
//!   gives the same bytes), and `check_layout` gives its count;
//! - a valid file built from the input (any packing, streamed or seekable, 1 to the largest
//!   records per block), then damaged at input-chosen places (bit flips, cuts, inserted
//!   bytes, blocks dropped, repeated or swapped): strict reading always detects the damage;
//!   salvage outputs only whole original blocks, none twice, and reports every other record
//!   as lost exactly once.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../shared/checks.rs"]
#[allow(dead_code)]
mod checks;

fuzz_target!(|data: &[u8]| {
    match data.split_first() {
        Some((mode, rest)) if mode % 2 == 0 => checks::raw(rest),
        Some((_, rest)) => checks::damaged(rest),
        None => {}
    }
});
