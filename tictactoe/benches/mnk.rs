//! The k-in-a-row family (`tictactoe::mnk`): play + last-move check, the last-move check
//! alone, full-board status and random playouts, on Connect Four (`Position<1>`), gomoku 15×15
//! (`Position<4>`) and tic-tac-toe through the family engine (`Position<1>`, (3,3,3)).
//!
//! `cargo bench -p tictactoe-kit --bench mnk`
//!
//! The peers (other crates, pyspiel) are timed side by side in `peers/`; these benches track
//! our own figures from one change to the next.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use rand::rngs::SmallRng;
use rand::{RngCore, SeedableRng};
use tictactoe::Player;
use tictactoe::Status;
use tictactoe::mnk::{
    Position, Rules,
    bits::{Bits, wins_through},
};

/// Every position of `games` random games of `rules`, each with a random legal move.
fn pairs<const W: usize>(rules: Rules, games: usize, seed: u64) -> Vec<(Position<W>, u32)> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let Ok(mut p) = Position::<W>::new(rules) else {
            return out;
        };
        while p.status() == Status::Ongoing {
            let playable = p.playable();
            let pick = (u64::from(rng.next_u32()) * u64::from(playable.count())) >> 32;
            let bit = playable.nth(pick as u32).unwrap_or(0);
            out.push((p, bit));
            p.play_bit(bit);
        }
    }
    out
}

fn checks<const W: usize>(c: &mut Criterion, name: &str, rules: Rules, games: usize) {
    let pairs = pairs::<W>(rules, games, 3);
    let mut group = c.benchmark_group(format!("mnk/{name}"));
    group.throughput(Throughput::Elements(pairs.len() as u64));
    group.bench_function(BenchmarkId::new("play_bit+status", pairs.len()), |b| {
        b.iter(|| {
            for &(p, bit) in &pairs {
                let mut p = p;
                p.play_bit(bit);
                black_box(p.status());
            }
        });
    });
    let with_move: Vec<(Bits<W>, u32)> = pairs
        .iter()
        .map(|(p, bit)| {
            let mut pieces = p.board().pieces(p.side_to_move());
            pieces.insert(*bit);
            (pieces, *bit)
        })
        .collect();
    group.bench_function(BenchmarkId::new("wins_through", pairs.len()), |b| {
        b.iter(|| {
            for &(pieces, bit) in &with_move {
                black_box(wins_through(pieces, bit, rules));
            }
        });
    });
    group.bench_function(BenchmarkId::new("has_line_both", pairs.len()), |b| {
        b.iter(|| {
            for (p, _) in &pairs {
                let board = p.board();
                black_box(board.has_line(Player::X) || board.has_line(Player::O));
            }
        });
    });
    group.finish();
}

fn playouts<const W: usize>(c: &mut Criterion, name: &str, rules: Rules, games: u64) {
    let run = |seed: u64| {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut moves = 0u64;
        for _ in 0..games {
            if let Ok(mut p) = Position::<W>::new(rules) {
                p.play_random(&mut rng);
                moves += u64::from(p.plies());
            }
        }
        moves
    };
    let mut group = c.benchmark_group(format!("mnk/{name}"));
    group.throughput(Throughput::Elements(run(1)));
    group.bench_function(BenchmarkId::new("play_random/moves", games), |b| {
        b.iter(|| run(black_box(1)));
    });
    group.finish();
}

fn connect_four(c: &mut Criterion) {
    checks::<1>(c, "connect-four", Rules::CONNECT_FOUR, 200);
    playouts::<1>(c, "connect-four", Rules::CONNECT_FOUR, 1_000);
}

fn gomoku(c: &mut Criterion) {
    checks::<4>(c, "gomoku", Rules::GOMOKU, 20);
    playouts::<4>(c, "gomoku", Rules::GOMOKU, 50);
}

fn tic_tac_toe(c: &mut Criterion) {
    playouts::<1>(c, "tic-tac-toe", Rules::TIC_TAC_TOE, 1_000);
}

criterion_group!(benches, connect_four, gomoku, tic_tac_toe);
criterion_main!(benches);
