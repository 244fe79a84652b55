//! What this CPU has, asked of `std` once per question and kept in one byte: the family's
//! run-time choices of a kernel in builds that do not enable its features.

use core::sync::atomic::{AtomicU8, Ordering};

/// The cached answer of `detect`: `flag` holds 0 (not asked yet), 1 (no) or 2 (yes), so a
/// call is one load and one compare (`is_x86_feature_detected!` is a load and two tests a
/// feature, with a call to initialise on each path). Threads that ask first at the same time
/// all detect, and store the same answer.
#[inline(always)]
fn cached(flag: &AtomicU8, detect: fn() -> bool) -> bool {
    #[cold]
    #[inline(never)]
    fn ask(flag: &AtomicU8, detect: fn() -> bool) -> bool {
        let has = detect();
        flag.store(1 + u8::from(has), Ordering::Relaxed);
        has
    }
    match flag.load(Ordering::Relaxed) {
        0 => ask(flag, detect),
        known => known == 2,
    }
}

/// AVX-512F, VL, VBMI2 and BITALG: gomoku's AVX-512 kernels.
#[inline(always)]
pub(super) fn has_avx512() -> bool {
    static HAS: AtomicU8 = AtomicU8::new(0);
    cached(&HAS, || {
        std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512vl")
            && std::arch::is_x86_feature_detected!("avx512vbmi2")
            && std::arch::is_x86_feature_detected!("avx512bitalg")
    })
}

/// x86-64-v3's AVX2, BMI1, BMI2, LZCNT and POPCNT: Connect Four's playout loop.
#[cfg(not(target_feature = "avx2"))]
#[inline(always)]
pub(super) fn has_x86_64_v3() -> bool {
    static HAS: AtomicU8 = AtomicU8::new(0);
    cached(&HAS, || {
        std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("bmi2")
            && std::arch::is_x86_feature_detected!("lzcnt")
            && std::arch::is_x86_feature_detected!("popcnt")
    })
}
