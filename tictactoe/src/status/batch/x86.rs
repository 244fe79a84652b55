//! The batch kernels compiled with AVX2 and with AVX-512BW enabled, and the run-time check
//! that the CPU has them.
//!
//! The only `unsafe` in the library is here: calling a `#[target_feature]` function is
//! `unsafe` because running AVX2 instructions on a CPU without AVX2 is undefined behaviour.
//! Each call below is made only after `is_x86_feature_detected!` has confirmed the features
//! the callee enables. The functions themselves contain no `unsafe`: they call the portable
//! kernels, inlined and compiled at the wider vector width.
#![allow(unsafe_code)]

use super::{BoardWord, Kernel, Verdict, packed_kernel, split_kernel};

/// Whether the CPU has every feature `kernel`'s build enables.
pub(super) fn is_available(kernel: Kernel) -> bool {
    match kernel {
        Kernel::Portable => true,
        Kernel::Avx2 => std::arch::is_x86_feature_detected!("avx2"),
        Kernel::Avx512 => {
            std::arch::is_x86_feature_detected!("avx512f")
                && std::arch::is_x86_feature_detected!("avx512bw")
        }
    }
}

/// [`split_kernel`] at `kernel`'s width, or the portable build if the CPU lacks it.
pub(super) fn split(kernel: Kernel, xs: &[u16], os: &[u16], out: &mut [Verdict]) -> usize {
    match kernel {
        // SAFETY: the guard checked `is_available(Kernel::Avx2)`: the CPU has AVX2.
        Kernel::Avx2 if is_available(kernel) => unsafe { split_avx2(xs, os, out) },
        // SAFETY: the guard checked that the CPU has AVX-512F and AVX-512BW.
        Kernel::Avx512 if is_available(kernel) => unsafe { split_avx512(xs, os, out) },
        _ => split_kernel(xs, os, out),
    }
}

/// [`packed_kernel`] at `kernel`'s width, or the portable build if the CPU lacks it.
pub(super) fn packed(kernel: Kernel, boards: &[BoardWord], out: &mut [Verdict]) -> usize {
    match kernel {
        // SAFETY: as in `split`.
        Kernel::Avx2 if is_available(kernel) => unsafe { packed_avx2(boards, out) },
        // SAFETY: as in `split`.
        Kernel::Avx512 if is_available(kernel) => unsafe { packed_avx512(boards, out) },
        _ => packed_kernel(boards, out),
    }
}

#[target_feature(enable = "avx2")]
fn split_avx2(xs: &[u16], os: &[u16], out: &mut [Verdict]) -> usize {
    split_kernel(xs, os, out)
}

#[target_feature(enable = "avx512f,avx512bw")]
fn split_avx512(xs: &[u16], os: &[u16], out: &mut [Verdict]) -> usize {
    split_kernel(xs, os, out)
}

#[target_feature(enable = "avx2")]
fn packed_avx2(boards: &[BoardWord], out: &mut [Verdict]) -> usize {
    packed_kernel(boards, out)
}

#[target_feature(enable = "avx512f,avx512bw")]
fn packed_avx512(boards: &[BoardWord], out: &mut [Verdict]) -> usize {
    packed_kernel(boards, out)
}
