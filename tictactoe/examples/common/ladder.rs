//! What the ladder examples (`mnk_ladder`, `ultimate_ladder`, `mnk_players`) share: a
//! pairing's record with its score and Wilson interval, a player's clock, and positional
//! arguments with defaults.

use std::str::FromStr;
use std::time::{Duration, Instant};

use tictactoe::{Player, Status};

/// Wins, draws and losses of the first player of a pairing.
#[derive(Clone, Copy, Default)]
pub struct Record {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl Record {
    pub fn games(self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Counts a game that ended with `status`, the first player playing `first`.
    pub fn add(&mut self, status: Status, first: Player) {
        match status {
            Status::Won(winner) if winner == first => self.wins += 1,
            Status::Won(_) => self.losses += 1,
            _ => self.draws += 1,
        }
    }

    /// The same games seen from the second player.
    #[allow(dead_code)] // not every ladder prints both sides
    pub fn swapped(self) -> Record {
        Record {
            wins: self.losses,
            draws: self.draws,
            losses: self.wins,
        }
    }

    /// `wins-draws-losses`.
    pub fn wdl(self) -> String {
        format!("{}-{}-{}", self.wins, self.draws, self.losses)
    }

    /// The mean score (1 a win, 1/2 a draw) and its Wilson 95% interval (the score taken as a
    /// proportion of the games; unlike the normal approximation it is not empty at 0 or 1).
    #[allow(dead_code)] // `mnk_players` prints the table only
    pub fn score(self) -> (f64, f64, f64) {
        let n = f64::from(self.games().max(1));
        let mean = (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / n;
        let z2 = 1.96f64 * 1.96;
        let centre = (mean + z2 / (2.0 * n)) / (1.0 + z2 / n);
        let half = 1.96 * (mean * (1.0 - mean) / n + z2 / (4.0 * n * n)).sqrt() / (1.0 + z2 / n);
        (mean, (centre - half).max(0.0), (centre + half).min(1.0))
    }
}

/// A player's wall time over its moves.
#[derive(Clone, Copy, Default)]
pub struct Clock {
    pub time: Duration,
    pub moves: u64,
}

impl Clock {
    /// Runs `choose` (one move) on the clock.
    pub fn time<T>(&mut self, choose: impl FnOnce() -> T) -> T {
        let start = Instant::now();
        let chosen = choose();
        self.time += start.elapsed();
        self.moves += 1;
        chosen
    }

    /// Milliseconds per move.
    pub fn ms_per_move(self) -> f64 {
        self.time.as_secs_f64() * 1e3 / self.moves.max(1) as f64
    }
}

/// The positional argument `index` (from 0, after the program's name), `default` when absent.
///
/// # Errors
/// An argument that does not parse, named with its place and text.
pub fn arg<T: FromStr>(index: usize, what: &str, default: T) -> Result<T, String>
where
    T::Err: std::fmt::Display,
{
    match std::env::args().nth(index + 1) {
        None => Ok(default),
        Some(text) => text
            .parse()
            .map_err(|error| format!("argument {} ({what}) {text:?}: {error}", index + 1)),
    }
}
