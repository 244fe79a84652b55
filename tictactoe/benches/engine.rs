//! Engine benchmarks: solver table build, best-move query, plain minimax of the empty board,
//! random self-play and game codes.
//!
//! `cargo bench -p tictactoe-kit --bench engine`

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use tictactoe::game::{GameCode, PrefixCode};
use tictactoe::{Board, Game, Position, selfplay, solver};

fn solver_benches(c: &mut Criterion) {
    c.bench_function("solver/build_table", |b| {
        b.iter(|| black_box(tictactoe::lab::SolverTable::build()));
    });
    let positions: Vec<Position> = Position::all().collect();
    let mut group = c.benchmark_group("solver");
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("best_moves/all_5478_positions", |b| {
        b.iter(|| {
            positions.iter().fold(0u16, |acc, p| {
                acc ^ solver::best_moves(black_box(*p)).bits()
            })
        });
    });
    group.finish();
    // A mid-game position, X to move: one query.
    let board: Board = "X.O/.O./X..".parse().unwrap_or_default();
    let position = Position::try_from(board).unwrap_or_default();
    c.bench_function("solver/best_moves/one_position", |b| {
        b.iter(|| solver::best_moves(black_box(position)));
    });
    c.bench_function("solver/minimax_empty_board", |b| {
        b.iter(|| tictactoe::lab::minimax(black_box(Position::EMPTY)));
    });
}

fn selfplay_benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("selfplay");
    const GAMES: u64 = 100_000;
    // Moves in GAMES games from this seed, counted once so the throughput is in moves.
    let moves = selfplay::run(GAMES, 1).moves;
    group.throughput(Throughput::Elements(moves));
    group.bench_function("random_games_100k/moves", |b| {
        b.iter(|| {
            let mut rng = SmallRng::seed_from_u64(1);
            (0..GAMES).fold(0u32, |acc, _| acc + selfplay::random_game(&mut rng).moves)
        });
    });
    group.finish();
}

fn game_code_benches(c: &mut Criterion) {
    let game: Game = "402681357".parse().unwrap_or_default();
    let game = if game.status().is_finished() {
        game
    } else {
        "40268".parse().unwrap_or_default()
    };
    c.bench_function("game_code/encode_prefix", |b| {
        b.iter(|| PrefixCode::from_game(black_box(&game)));
    });
    let code = PrefixCode::from_game(&game);
    c.bench_function("game_code/decode_prefix", |b| {
        b.iter(|| black_box(code).to_game());
    });
    if let Some(code) = GameCode::from_game(&game) {
        c.bench_function("game_code/decode_game", |b| {
            b.iter(|| black_box(code).to_game());
        });
    }
}

criterion_group!(benches, solver_benches, selfplay_benches, game_code_benches);
criterion_main!(benches);
