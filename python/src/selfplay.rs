//! Random self-play on all cores: N games of uniformly random legal moves, reproducible from a
//! seed whatever the number of threads.

use std::sync::OnceLock;

use numpy::{PyArray1, PyArray2, PyArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use rand::rngs::SmallRng;
use rand::{RngCore, SeedableRng};
use rayon::prelude::*;

use crate::arrays::{Int, zeros};
use crate::tables::{GRIDS, Kind, tables};

/// Games per block; each block has its own generator, seeded from the seed and its index.
const BLOCK: usize = 1024;

const POW3: [u32; 9] = [1, 3, 9, 27, 81, 243, 729, 2187, 6561];

/// `offset[rank][cell]`: what playing `cell` at the position of `rank` adds to the `game`
/// code, the complete games below the smaller legal cells (the library's tree order, children
/// in increasing cell order). The test suite checks every code against the library's
/// `GameCode` (`encode_games`) and the Python reference.
fn offsets() -> &'static [[u32; 9]] {
    static OFFSETS: OnceLock<Vec<[u32; 9]>> = OnceLock::new();
    OFFSETS.get_or_init(|| {
        let t = tables();
        let marks = |g: usize| {
            (0..9)
                .filter(|&i| !(g / POW3[i] as usize).is_multiple_of(3))
                .count()
        };
        let child = |g: usize, cell: usize| g + POW3[cell] as usize * (1 + marks(g) % 2);
        // Complete games below each position, children (more marks) before parents.
        let mut by_marks: Vec<usize> = (0..GRIDS).filter(|&g| t.is_position[g]).collect();
        by_marks.sort_by_key(|&g| std::cmp::Reverse(marks(g)));
        let mut games = vec![0u32; GRIDS];
        for &g in &by_marks {
            let legal = t.legal[g];
            games[g] = match legal {
                0 => 1,
                _ => (0..9)
                    .filter(|c| legal >> c & 1 != 0)
                    .map(|c| games[child(g, c)])
                    .sum(),
            };
        }
        let mut offsets = vec![[0u32; 9]; 5478];
        for &g in &by_marks {
            let rank = t.code[Kind::Rank as usize][g] as usize;
            let mut below = 0;
            for cell in 0..9 {
                offsets[rank][cell] = below;
                if t.legal[g] >> cell & 1 != 0 {
                    below += games[child(g, cell)];
                }
            }
        }
        offsets
    })
}

/// One game of random legal moves (each chosen as the library's `agents::pick` does, by a
/// multiply-shift of 32 random bits over the legal cells): the length, the final status
/// number (1 X won, 2 O won, 3 draw) and the game code. The game walks the grid-index tables.
fn random_game(rng: &mut SmallRng, offsets: &[[u32; 9]], moves: &mut [i8]) -> (i8, i8, i32) {
    let t = tables();
    let ranks = &t.code[Kind::Rank as usize];
    let (mut grid, mut code, mut length) = (0usize, 0u32, 0usize);
    loop {
        let legal = t.legal[grid];
        if legal == 0 {
            return (length as i8, t.status[grid], code as i32);
        }
        let k = (u64::from(rng.next_u32()) * u64::from(legal.count_ones())) >> 32;
        let mut rest = legal;
        for _ in 0..k {
            rest &= rest - 1;
        }
        let cell = rest.trailing_zeros() as usize;
        code += offsets[ranks[grid] as usize][cell];
        moves[length] = cell as i8;
        grid += POW3[cell] as usize * (1 + length % 2);
        length += 1;
    }
}

/// `n` games of uniformly random legal moves, generated on all cores.
///
/// Returns `(moves, lengths, results, codes)`: `moves` int8 `(n, 9)`, the cells played in
/// order, padded with -1; `lengths` int8 `(n,)`, 5 to 9; `results` int8 `(n,)`, the final
/// status (1 X won, 2 O won, 3 draw); `codes` int32 `(n,)`, the `game` code of each game
/// (the library's `GameCode`, 0 to 255,167). Game `i` depends only on `seed` and `i`: the
/// same seed gives the same games on any number of cores. The package's `selfplay` wraps the
/// tuple in a named tuple.
///
/// >>> import tictactoe_rs as t
/// >>> moves, lengths, results, codes = t._native.selfplay(3, seed=7)
/// >>> moves.shape, bool((lengths >= 5).all())
/// ((3, 9), True)
#[pyfunction]
#[pyo3(signature = (n, seed = Int(0)), text_signature = "(n, seed=0)")]
#[allow(clippy::type_complexity)]
pub fn selfplay(
    py: Python<'_>,
    n: Int<i64>,
    seed: Int<u64>,
) -> PyResult<(
    Bound<'_, PyArray2<i8>>,
    Bound<'_, PyArray1<i8>>,
    Bound<'_, PyArray1<i8>>,
    Bound<'_, PyArray1<i32>>,
)> {
    let (Int(n), Int(seed)) = (n, seed);
    let n = usize::try_from(n)
        .map_err(|_| PyValueError::new_err(format!("argument `n` must be >= 0, got {n}")))?;
    let moves = zeros::<i8>(py, "n", &[n, 9])?.cast_into::<PyArray2<i8>>()?;
    let lengths = zeros::<i8>(py, "n", &[n])?.cast_into::<PyArray1<i8>>()?;
    let results = zeros::<i8>(py, "n", &[n])?.cast_into::<PyArray1<i8>>()?;
    let codes = zeros::<i32>(py, "n", &[n])?.cast_into::<PyArray1<i32>>()?;
    {
        let mut m = moves.readwrite();
        let mut l = lengths.readwrite();
        let mut r = results.readwrite();
        let mut c = codes.readwrite();
        let (m, l, r, c) = (
            m.as_slice_mut()?,
            l.as_slice_mut()?,
            r.as_slice_mut()?,
            c.as_slice_mut()?,
        );
        let offsets = offsets();
        py.detach(|| {
            m.fill(-1);
            m.par_chunks_mut(9 * BLOCK)
                .zip(l.par_chunks_mut(BLOCK))
                .zip(r.par_chunks_mut(BLOCK))
                .zip(c.par_chunks_mut(BLOCK))
                .enumerate()
                .for_each(|(block, (((m, l), r), c))| {
                    let mut rng = SmallRng::seed_from_u64(
                        seed ^ (block as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15),
                    );
                    for (i, moves) in m.chunks_exact_mut(9).enumerate() {
                        (l[i], r[i], c[i]) = random_game(&mut rng, offsets, moves);
                    }
                });
        });
    }
    Ok((moves, lengths, results, codes))
}
