//! Random self-play on all cores: N games of uniformly random legal moves, reproducible from a
//! seed whatever the number of threads.

use numpy::{PyArray1, PyArray2, PyArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use rand::rngs::SmallRng;
use rand::{RngCore, SeedableRng};
use rayon::prelude::*;
use tictactoe::encoding::GameCode;
use tictactoe::{Game, Player, Status, players};

/// Games per block; each block has its own generator, seeded from the seed and its index.
const BLOCK: usize = 1024;

/// One game of random legal moves: the moves, the final status number (1 X won, 2 O won,
/// 3 draw) and the game code.
fn random_game(rng: &mut SmallRng, moves: &mut [i8]) -> (i8, i8, i32) {
    let mut game = Game::new();
    while !game.status().is_finished() {
        let legal = game.position().legal_moves();
        let cell = players::pick(legal, rng.next_u32()).expect("an ongoing game has a move");
        moves[game.len()] = cell.index() as i8;
        game.play(cell).expect("a legal move plays");
    }
    let result = match game.status() {
        Status::Won(Player::X) => 1,
        Status::Won(Player::O) => 2,
        _ => 3,
    };
    let code = GameCode::from_game(&game).map_or(-1, |code| code.code() as i32);
    (game.len() as i8, result, code)
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
#[pyo3(signature = (n, seed = 0))]
#[allow(clippy::type_complexity)]
pub fn selfplay(
    py: Python<'_>,
    n: i64,
    seed: u64,
) -> PyResult<(
    Bound<'_, PyArray2<i8>>,
    Bound<'_, PyArray1<i8>>,
    Bound<'_, PyArray1<i8>>,
    Bound<'_, PyArray1<i32>>,
)> {
    let n = usize::try_from(n)
        .map_err(|_| PyValueError::new_err(format!("argument `n` must be >= 0, got {n}")))?;
    let moves = PyArray2::<i8>::zeros(py, [n, 9], false);
    let lengths = PyArray1::<i8>::zeros(py, n, false);
    let results = PyArray1::<i8>::zeros(py, n, false);
    let codes = PyArray1::<i32>::zeros(py, n, false);
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
                        (l[i], r[i], c[i]) = random_game(&mut rng, moves);
                    }
                });
        });
    }
    Ok((moves, lengths, results, codes))
}
