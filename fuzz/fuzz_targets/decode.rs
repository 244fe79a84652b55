//! Arbitrary `u32`s through the checked decoder of every encoding: never a panic; a code that
//! decodes is below the limit and encodes back to itself; a rejected code is reported with
//! the encoding's name and the code itself. Each input is tried as given and folded into the
//! encoding's own code space (one bit above `BITS`), so most runs hit codes that matter.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tictactoe::encoding::{
    Base3, Base4, Bitboards, Canonical, CountRank, DecodeReason, Encoding, Oriented, Rank,
};

fuzz_target!(|code: u32| {
    check::<Base4>(code);
    check::<Base3>(code);
    check::<Bitboards>(code);
    check::<CountRank>(code);
    check::<Rank>(code);
    check::<Canonical>(code);
    check::<Oriented>(code);
});

fn check<E: Encoding>(code: u32) {
    round_trip::<E>(code);
    round_trip::<E>(code & ((2 << E::BITS) - 1));
}

fn round_trip<E: Encoding>(code: u32) {
    match E::decode(code) {
        Ok(value) => {
            assert!(code < E::LIMIT, "{} {code}", E::NAME);
            assert_eq!(value.code(), code, "{}", E::NAME);
            assert_eq!(E::encode(value.to_board()), Some(value), "{} {code}", E::NAME);
        }
        Err(error) => {
            assert_eq!(error.encoding, E::NAME);
            assert_eq!(error.code, u64::from(code));
            let out_of_range = matches!(error.reason, DecodeReason::OutOfRange { .. });
            assert_eq!(out_of_range, code >= E::LIMIT, "{error}");
            assert!(!error.to_string().contains('\n'));
        }
    }
}
