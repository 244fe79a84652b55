//! Random self-play: games of uniformly random legal moves, as fast as one core allows.
//!
//! The loop keeps the two players' cells as raw 9-bit masks, draws 32 random bits per move,
//! maps them to an index among the empty cells by one multiplication
//! ([`pick`](crate::agents::pick)'s multiply-shift), finds that empty cell by a select
//! table and checks the mover's lines with [`Bitboard::has_line`]. Nothing is allocated.
//!
//! | table | entries | bytes |
//! |---|---|---|
//! | `SELECT[set][k]`: the `k`-th lowest cell of each 9-bit set | 512 x 9 x u8 | 4,608 |
//!
//! `lab::random_game_slow` is the twin that plays through [`Position::play`]; a test checks that
//! both play the same games from the same random bits. Threads are the caller's business:
//! [`run`] is one thread's share, seeded.

use rand::rngs::SmallRng;
use rand::{RngCore, SeedableRng};

use crate::{Bitboard, Player, Position, Status, agents};

/// `SELECT[set][k]`: the `k`-th lowest cell of `set` (0 when `set` has `k` or fewer cells).
static SELECT: [[u8; 9]; 512] = {
    let mut table = [[0u8; 9]; 512];
    let mut set = 0;
    while set < 512 {
        let (mut k, mut cell) = (0, 0);
        while cell < 9 {
            if set >> cell & 1 != 0 {
                table[set][k] = cell as u8;
                k += 1;
            }
            cell += 1;
        }
        set += 1;
    }
    table
};

/// Bytes of the select table.
pub(crate) const TABLE_BYTES: usize = core::mem::size_of::<[[u8; 9]; 512]>();

/// How a random game ended and how long it was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ending {
    /// Won or drawn.
    pub status: Status,
    /// Moves played, 5 to 9.
    pub moves: u32,
}

/// One game of uniformly random legal moves.
///
/// ```
/// use rand::SeedableRng;
/// use tictactoe::selfplay::random_game;
/// let mut rng = rand::rngs::SmallRng::seed_from_u64(1);
/// let ending = random_game(&mut rng);
/// assert!((5..=9).contains(&ending.moves));
/// assert!(ending.status.is_finished());
/// ```
#[inline]
pub fn random_game<R: RngCore>(rng: &mut R) -> Ending {
    let mut pieces = [0u16; 2];
    let mut empty = 0x1ffu16;
    let mut moves = 0u32;
    loop {
        let side = (moves & 1) as usize;
        let k = (u64::from(rng.next_u32()) * u64::from(9 - moves)) >> 32;
        let cell = SELECT[empty as usize][k as usize];
        empty &= !(1 << cell);
        pieces[side] |= 1 << cell;
        moves += 1;
        if Bitboard::from_bits_truncate(pieces[side]).has_line() {
            let winner = if side == 0 { Player::X } else { Player::O };
            return Ending {
                status: Status::Won(winner),
                moves,
            };
        }
        if moves == 9 {
            return Ending {
                status: Status::Draw,
                moves,
            };
        }
    }
}

/// The slow twin of [`random_game`]: the same choices through [`Position::play`] and
/// [`agents::pick`].
pub(crate) fn random_game_slow<R: RngCore>(rng: &mut R) -> Ending {
    let mut position = Position::EMPTY;
    let mut moves = 0;
    while !position.status().is_finished() {
        let cell = agents::pick(position.legal_moves(), rng.next_u32());
        position = match cell.map(|cell| position.play(cell)) {
            Some(Ok(next)) => next,
            _ => break,
        };
        moves += 1;
    }
    Ending {
        status: position.status(),
        moves,
    }
}

/// Totals of a self-play run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Hash)]
pub struct Totals {
    /// Games played.
    pub games: u64,
    /// Moves played over all games.
    pub moves: u64,
    /// Results.
    pub tally: agents::Tally,
}

impl Totals {
    /// The sum of two runs (for threads).
    #[must_use]
    pub const fn merge(self, other: Totals) -> Totals {
        Totals {
            games: self.games + other.games,
            moves: self.moves + other.moves,
            tally: agents::Tally {
                x_wins: self.tally.x_wins + other.tally.x_wins,
                o_wins: self.tally.o_wins + other.tally.o_wins,
                draws: self.tally.draws + other.tally.draws,
            },
        }
    }
}

/// `games` random games from a `SmallRng` seeded with `seed`.
///
/// ```
/// use tictactoe::selfplay::run;
/// let totals = run(1000, 42);
/// assert_eq!(totals.tally.games(), 1000);
/// assert!(totals.moves >= 5 * 1000 && totals.moves <= 9 * 1000);
/// assert_eq!(run(1000, 42), totals);
/// ```
#[must_use]
pub fn run(games: u64, seed: u64) -> Totals {
    run_chunked(games, seed, u64::MAX, &mut |_| {})
}

/// [`run`] that calls `done(n)` after every `chunk` games (and after the last), `n` the games
/// played since the previous call: the same games, for a caller that shows progress.
///
/// ```
/// use tictactoe::selfplay::{run, run_chunked};
/// let mut calls = Vec::new();
/// assert_eq!(run_chunked(1000, 42, 300, &mut |n| calls.push(n)), run(1000, 42));
/// assert_eq!(calls, [300, 300, 300, 100]);
/// ```
pub fn run_chunked(games: u64, seed: u64, chunk: u64, done: &mut dyn FnMut(u64)) -> Totals {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut totals = Totals::default();
    let mut left = games;
    while left > 0 {
        let n = left.min(chunk.max(1));
        for _ in 0..n {
            let ending = random_game(&mut rng);
            totals.moves += u64::from(ending.moves);
            totals.tally.add(ending.status);
        }
        left -= n;
        done(n);
    }
    totals.games = games;
    totals
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fast_and_slow_games_agree_from_the_same_bits() {
        let mut fast = SmallRng::seed_from_u64(9);
        let mut slow = fast.clone();
        for _ in 0..100_000 {
            assert_eq!(random_game(&mut fast), random_game_slow(&mut slow));
        }
    }

    #[test]
    fn select_table_matches_iteration_on_every_set() {
        for bits in 0..512u16 {
            let set = Bitboard::from_bits_truncate(bits);
            for (k, cell) in set.iter().enumerate() {
                assert_eq!(usize::from(SELECT[bits as usize][k]), cell.index());
            }
        }
    }

    /// Exact probabilities of X win, O win and draw under uniformly random play, by walking
    /// the tree with each move weighted 1 / (number of legal moves).
    fn exact(position: Position, weight: f64, out: &mut [f64; 3]) {
        match position.status() {
            Status::Won(Player::X) => out[0] += weight,
            Status::Won(Player::O) => out[1] += weight,
            Status::Draw => out[2] += weight,
            Status::Ongoing => {
                let n = f64::from(position.legal_moves().count());
                for (_, child) in position.children() {
                    exact(child, weight / n, out);
                }
            }
        }
    }

    #[test]
    fn results_follow_the_exact_distribution_of_random_play() {
        let mut p = [0.0; 3];
        exact(Position::EMPTY, 1.0, &mut p);
        let games = 1_000_000;
        let totals = run(games, 2024);
        let tally = totals.tally;
        let seen = [tally.x_wins, tally.o_wins, tally.draws].map(|n| n as f64 / games as f64);
        for (seen, p) in seen.iter().zip(p) {
            // Five standard deviations of a binomial proportion: about 0.0025 here.
            let sigma = (p * (1.0 - p) / games as f64).sqrt();
            assert!((seen - p).abs() < 5.0 * sigma, "{seen} vs {p}");
        }
        assert!((p[0] - 0.5849).abs() < 1e-3 && (p[2] - 0.1270).abs() < 1e-3);
    }
}
