//! Criterion benchmarks of the status methods: `cargo bench -p tictactoe-kit --bench status`.
//!
//! Each single-board method checks the paper's five scenario boards and all 5,478 positions;
//! `batch` runs its layouts (split `u16` slices, and packed `u32`s) over all positions, the
//! split one on every kernel this CPU has. Inputs go through `black_box` per check, as in
//! `ttt bench`.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use tictactoe::lab::{Base3Table, Check, Masks, Paper, Shift, Table, TableBits, Traditional};
use tictactoe::status::batch::{self, Kernel};
use tictactoe::status::{BoardWord, Verdict};
use tictactoe::{Board, Position};

const SCENARIOS: [(&str, &str); 5] = [
    ("row-win", "XXX/OO./..."),
    ("column-win", "XO./XO./X.."),
    ("diagonal-win", "XOO/OXX/XOX"),
    ("full-board-draw", "XOX/XOO/OXX"),
    ("early-game", "X../.O./..."),
];

fn bench_method<M: Check>(c: &mut Criterion) {
    let mut group = c.benchmark_group(M::METHOD.name());
    for (name, text) in SCENARIOS {
        let state = M::prepare(text.parse::<Board>().expect("valid board"));
        group.bench_function(name, |b| b.iter(|| M::winner(black_box(state))));
    }
    let states: Vec<M::State> = Position::all().map(|p| M::prepare(p.board())).collect();
    group.throughput(Throughput::Elements(states.len() as u64));
    group.bench_function("all-positions", |b| {
        b.iter(|| {
            states
                .iter()
                .filter(|&&s| M::winner(black_box(s)).is_some())
                .count()
        });
    });
    group.finish();
}

fn bench_batch(c: &mut Criterion) {
    let mut group = c.benchmark_group("batch");
    let boards: Vec<BoardWord> = Position::all()
        .map(|p| BoardWord::from_board(p.board()))
        .collect();
    let xs: Vec<u16> = Position::all().map(|p| p.board().x().bits()).collect();
    let os: Vec<u16> = Position::all().map(|p| p.board().o().bits()).collect();
    let mut out = vec![Verdict::default(); boards.len()];
    group.throughput(Throughput::Elements(boards.len() as u64));
    for kernel in Kernel::ALL.into_iter().filter(|k| k.is_available()) {
        group.bench_function(format!("{}/all-positions", kernel.name()), |b| {
            b.iter(|| {
                batch::verdicts_split_with(
                    kernel,
                    black_box(&xs),
                    black_box(&os),
                    black_box(&mut out),
                )
            });
        });
    }
    group.bench_function("packed/all-positions", |b| {
        b.iter(|| batch::verdicts(black_box(&boards), black_box(&mut out)));
    });
    group.finish();
}

fn benches(c: &mut Criterion) {
    bench_method::<Traditional>(c);
    bench_method::<Paper>(c);
    bench_method::<Masks>(c);
    bench_method::<Table>(c);
    bench_method::<TableBits>(c);
    bench_method::<Shift>(c);
    bench_method::<Base3Table>(c);
    bench_batch(c);
}

criterion_group!(status, benches);
criterion_main!(status);
