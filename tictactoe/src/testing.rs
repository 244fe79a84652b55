//! What the modules' unit tests share.

/// Marsaglia's xorshift64 (shifts 13, 7, 17) from `seed`, which must not be 0: the tests'
/// reproducible stream of numbers, each call the next.
pub(crate) fn xorshift(mut seed: u64) -> impl FnMut() -> u64 {
    move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    }
}
