//! Packed arrays: bulk pack and unpack of 2^20 reachable positions, and random-access get in an
//! array of 2^20 positions (1.6 to 2.4 MB, past L2) and of 2^16 (100 to 150 KB, in L2).
//!
//! `cargo bench -p tictactoe-kit --bench packed`; throughput is in positions (elements) per second.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use tictactoe::encoding::{Base3, Base4, CountRank, Rank};
use tictactoe::packed::{MixedRadix, PackError, Packable, PackedArray};
use tictactoe::{Board, Position};

/// Positions per bulk run: 2^20, about 1.6 MB packed at 13 bits.
const LEN: usize = 1 << 20;
/// Positions in the small array for random gets.
const SMALL: usize = 1 << 16;
/// Random gets per iteration.
const GETS: usize = 4_096;

/// What the benchmark needs from both array types.
trait Bulk: Sized {
    const NAME: &'static str;
    fn from_boards(boards: &[Board]) -> Result<Self, PackError>;
    fn unpack_into(&self, out: &mut Vec<Board>);
    fn get(&self, index: usize) -> Result<Board, PackError>;
}

impl<E: Packable> Bulk for PackedArray<E> {
    const NAME: &'static str = E::KIND.name();
    fn from_boards(boards: &[Board]) -> Result<Self, PackError> {
        PackedArray::from_boards(boards)
    }
    fn unpack_into(&self, out: &mut Vec<Board>) {
        PackedArray::unpack_into(self, out);
    }
    fn get(&self, index: usize) -> Result<Board, PackError> {
        PackedArray::get(self, index)
    }
}

impl Bulk for MixedRadix {
    const NAME: &'static str = MixedRadix::NAME;
    fn from_boards(boards: &[Board]) -> Result<Self, PackError> {
        MixedRadix::from_boards(boards)
    }
    fn unpack_into(&self, out: &mut Vec<Board>) {
        MixedRadix::unpack_into(self, out);
    }
    fn get(&self, index: usize) -> Result<Board, PackError> {
        MixedRadix::get(self, index)
    }
}

fn xorshift(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

fn positions(len: usize) -> Vec<Board> {
    let all: Vec<Board> = Position::all().map(Position::board).collect();
    let mut state = 0x2545_f491_4f6c_dd1d;
    (0..len)
        .map(|_| all[(xorshift(&mut state) % all.len() as u64) as usize])
        .collect()
}

fn bench_get<A: Bulk>(c: &mut Criterion, name: &str, array: &A, indices: &[usize]) {
    let mut group = c.benchmark_group("packed");
    group.throughput(Throughput::Elements(indices.len() as u64));
    group.bench_function(BenchmarkId::new(name, A::NAME), |b| {
        b.iter(|| {
            let mut sum = 0u32;
            for &index in black_box(indices) {
                let board = array.get(index).unwrap_or_default();
                sum = sum.wrapping_add(u32::from(board.x().bits() ^ board.o().bits()));
            }
            sum
        });
    });
    group.finish();
}

fn bench_one<A: Bulk>(c: &mut Criterion, boards: &[Board], indices: &[usize]) {
    let array = A::from_boards(boards).expect("reachable positions fit every packing");
    let mut group = c.benchmark_group("packed");
    group.throughput(Throughput::Elements(boards.len() as u64));
    group.bench_function(BenchmarkId::new("pack", A::NAME), |b| {
        b.iter(|| A::from_boards(black_box(boards)));
    });
    let mut out = Vec::with_capacity(boards.len());
    group.bench_function(BenchmarkId::new("unpack", A::NAME), |b| {
        b.iter(|| {
            out.clear();
            array.unpack_into(&mut out);
            black_box(out.len())
        });
    });
    group.finish();
    bench_get(c, "get", &array, indices);
    let small = A::from_boards(&boards[..SMALL]).expect("reachable positions fit");
    let small_indices: Vec<usize> = indices.iter().map(|i| i % SMALL).collect();
    bench_get(c, "get-in-l2", &small, &small_indices);
}

fn packed(c: &mut Criterion) {
    let boards = positions(LEN);
    let mut state = 7;
    let indices: Vec<usize> = (0..GETS)
        .map(|_| (xorshift(&mut state) % LEN as u64) as usize)
        .collect();
    bench_one::<PackedArray<Base4>>(c, &boards, &indices);
    bench_one::<PackedArray<Base3>>(c, &boards, &indices);
    bench_one::<PackedArray<CountRank>>(c, &boards, &indices);
    bench_one::<PackedArray<Rank>>(c, &boards, &indices);
    bench_one::<MixedRadix>(c, &boards, &indices);
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    targets = packed
}
criterion_main!(benches);
