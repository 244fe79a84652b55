//! Encode, decode, get and set for every encoding, over all 5,478 reachable positions.
//!
//! Each measurement runs one operation over a fixed array of 5,478 varied inputs (every
//! reachable position; get and set walk the cells and marks along the array) and declares
//! `Throughput::Elements(5478)`, so the time per iteration divided by 5,478 is the time per
//! operation. The input array goes through `black_box` and every result into `black_box`, so
//! nothing is hoisted or optimised away.
//!
//! Baseline: Barrick's base-3 with plain `/` and `%` (`lab::divmod`): encode sets
//! the nine digits one by one, decode reads them one by one.
//!
//! Encoders for rank, canonical and oriented start from a validated `Position` (their inherent
//! `from_position`); count rank starts from a `Board` (`try_from_board`). Decoders start from
//! the integer and include the check (`try_from_code`), then build the board; a rejected code
//! would give the empty board (`map_or`), so that `black_box` stores one 4-byte `Board`
//! rather than a 40-byte `Result<Board, DecodeError>` whose error part is never built.
//!
//! Get and set start from a value of the encoding's type. Base-4, base-3 and bitboards work
//! on the code itself; the others go through the board: `to_board` then `Board::at` (get), or
//! `to_board`, `Board::with` and the checked encoder (set, which may find no code).
//!
//! Run: `cargo bench -p tictactoe-kit --bench encodings`.

use std::hint::black_box;

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main};
use tictactoe::encoding::{Base3, Base4, BitboardPair, Canonical, CountRank, Oriented, Rank};
use tictactoe::lab::divmod;
use tictactoe::{Board, Cell, Player, Position};

const MARKS: [Option<Player>; 3] = [None, Some(Player::X), Some(Player::O)];

/// One cell and one mark per input, walking all 9 cells and 3 marks along the array.
fn edit(index: usize) -> (Cell, Option<Player>) {
    (Cell::ALL[index % 9], MARKS[index / 9 % 3])
}

/// Runs `operation` on every input, each result into `black_box`.
fn per_item<I: Copy, O>(
    group: &mut BenchmarkGroup<'_, WallTime>,
    name: &str,
    inputs: &[I],
    operation: impl Fn(I) -> O,
) {
    group.throughput(Throughput::Elements(inputs.len() as u64));
    group.bench_function(name, |b| {
        b.iter(|| {
            for &input in black_box(inputs) {
                black_box(operation(input));
            }
        });
    });
}

/// Pairs each value with the edit of its index.
fn with_edits<T: Copy>(values: &[T]) -> Vec<(T, Cell, Option<Player>)> {
    values
        .iter()
        .enumerate()
        .map(|(i, &v)| {
            let (cell, mark) = edit(i);
            (v, cell, mark)
        })
        .collect()
}

/// The integer codes of `values`.
fn codes<T>(values: &[T], code: impl Fn(&T) -> u32) -> Vec<u32> {
    values.iter().map(code).collect()
}

fn divmod_encode(board: Board) -> u16 {
    let mut code = 0;
    for cell in Cell::ALL {
        let digit = match board.at(cell) {
            None => 0,
            Some(Player::X) => 1,
            Some(Player::O) => 2,
        };
        divmod::set_cell(&mut code, cell.index(), digit);
    }
    code
}

fn divmod_decode(code: u16) -> Board {
    let mut board = Board::EMPTY;
    for cell in Cell::ALL {
        board.set(cell, MARKS[divmod::get_cell(code, cell.index()) as usize]);
    }
    board
}

/// Every reachable position in each form the operations start from.
struct Inputs {
    positions: Vec<Position>,
    boards: Vec<Board>,
    base4: Vec<Base4>,
    base3: Vec<Base3>,
    bitboards: Vec<BitboardPair>,
    count_rank: Vec<CountRank>,
    rank: Vec<Rank>,
    canonical: Vec<Canonical>,
    oriented: Vec<Oriented>,
}

impl Inputs {
    fn new() -> Inputs {
        let positions: Vec<Position> = Position::all().collect();
        let boards: Vec<Board> = positions.iter().map(|p| p.board()).collect();
        Inputs {
            base4: boards.iter().map(|&b| Base4::from_board(b)).collect(),
            base3: boards.iter().map(|&b| Base3::from_board(b)).collect(),
            bitboards: boards
                .iter()
                .map(|&b| BitboardPair::from_board(b))
                .collect(),
            count_rank: boards
                .iter()
                .filter_map(|&b| CountRank::try_from_board(b).ok())
                .collect(),
            rank: positions.iter().copied().map(Rank::from_position).collect(),
            canonical: positions
                .iter()
                .copied()
                .map(Canonical::from_position)
                .collect(),
            oriented: positions
                .iter()
                .copied()
                .map(Oriented::from_position)
                .collect(),
            positions,
            boards,
        }
    }

    fn divmod_codes(&self) -> Vec<u16> {
        self.base3.iter().map(|c| c.code()).collect()
    }
}

fn encode(c: &mut Criterion, inputs: &Inputs) {
    let (boards, positions) = (&inputs.boards, &inputs.positions);
    let mut group = c.benchmark_group("encode");
    per_item(&mut group, "divmod-base3", boards, divmod_encode);
    per_item(&mut group, "base4", boards, Base4::from_board);
    per_item(&mut group, "base3", boards, Base3::from_board);
    per_item(&mut group, "bitboards", boards, BitboardPair::from_board);
    per_item(&mut group, "count-rank", boards, |b| {
        CountRank::try_from_board(b).ok()
    });
    per_item(&mut group, "rank", positions, Rank::from_position);
    per_item(&mut group, "canonical", positions, |p| {
        Canonical::from_position(p)
    });
    per_item(&mut group, "oriented", positions, |p| {
        Oriented::from_position(p)
    });
    group.finish();
}

fn decode(c: &mut Criterion, inputs: &Inputs) {
    let mut group = c.benchmark_group("decode");
    per_item(
        &mut group,
        "divmod-base3",
        &inputs.divmod_codes(),
        divmod_decode,
    );
    let base4 = codes(&inputs.base4, |v| v.code());
    per_item(&mut group, "base4", &base4, |c| {
        Base4::try_from_code(c).map_or(Board::EMPTY, Base4::to_board)
    });
    let base3 = codes(&inputs.base3, |v| u32::from(v.code()));
    per_item(&mut group, "base3", &base3, |c| {
        Base3::try_from_code(c).map_or(Board::EMPTY, Base3::to_board)
    });
    let bitboards = codes(&inputs.bitboards, |v| v.code());
    per_item(&mut group, "bitboards", &bitboards, |c| {
        BitboardPair::try_from_code(c).map_or(Board::EMPTY, BitboardPair::to_board)
    });
    let count_rank = codes(&inputs.count_rank, |v| u32::from(v.code()));
    per_item(&mut group, "count-rank", &count_rank, |c| {
        CountRank::try_from_code(c).map_or(Board::EMPTY, CountRank::to_board)
    });
    let rank = codes(&inputs.rank, |v| u32::from(v.code()));
    per_item(&mut group, "rank", &rank, |c| {
        Rank::try_from_code(c).map_or(Board::EMPTY, |v| v.to_position().board())
    });
    let canonical = codes(&inputs.canonical, |v| u32::from(v.code()));
    per_item(&mut group, "canonical", &canonical, |c| {
        Canonical::try_from_code(c).map_or(Board::EMPTY, |v| v.to_position().board())
    });
    let oriented = codes(&inputs.oriented, |v| u32::from(v.code()));
    per_item(&mut group, "oriented", &oriented, |c| {
        Oriented::try_from_code(c).map_or(Board::EMPTY, |v| v.to_position().board())
    });
    group.finish();
}

/// Get on the code for base-4, base-3 and bitboards; through the board for the others.
fn get(c: &mut Criterion, inputs: &Inputs) {
    let mut group = c.benchmark_group("get");
    let divmod = with_edits(&inputs.divmod_codes());
    per_item(&mut group, "divmod-base3", &divmod, |(c, cell, _)| {
        divmod::get_cell(c, cell.index())
    });
    let base4 = with_edits(&inputs.base4);
    per_item(&mut group, "base4", &base4, |(v, cell, _)| v.cell(cell));
    let base3 = with_edits(&inputs.base3);
    per_item(&mut group, "base3", &base3, |(v, cell, _)| v.cell(cell));
    let bitboards = with_edits(&inputs.bitboards);
    per_item(&mut group, "bitboards", &bitboards, |(v, cell, _)| {
        v.cell(cell)
    });
    let count_rank = with_edits(&inputs.count_rank);
    per_item(&mut group, "count-rank", &count_rank, |(v, cell, _)| {
        v.to_board().at(cell)
    });
    let rank = with_edits(&inputs.rank);
    per_item(&mut group, "rank", &rank, |(v, cell, _)| {
        v.to_position().board().at(cell)
    });
    let canonical = with_edits(&inputs.canonical);
    per_item(&mut group, "canonical", &canonical, |(v, cell, _)| {
        v.to_position().board().at(cell)
    });
    let oriented = with_edits(&inputs.oriented);
    per_item(&mut group, "oriented", &oriented, |(v, cell, _)| {
        v.to_position().board().at(cell)
    });
    group.finish();
}

/// Set on the code for base-4, base-3 and bitboards; for the others through the board: to the
/// board, change one cell, encode (which may find no code).
fn set(c: &mut Criterion, inputs: &Inputs) {
    let mut group = c.benchmark_group("set");
    let divmod = with_edits(&inputs.divmod_codes());
    per_item(
        &mut group,
        "divmod-base3",
        &divmod,
        |(mut c, cell, mark)| {
            let digit = MARKS.iter().position(|&m| m == mark).unwrap_or(0) as u16;
            divmod::set_cell(&mut c, cell.index(), digit);
            c
        },
    );
    let base4 = with_edits(&inputs.base4);
    per_item(&mut group, "base4", &base4, |(v, cell, mark)| {
        v.with(cell, mark)
    });
    let base3 = with_edits(&inputs.base3);
    per_item(&mut group, "base3", &base3, |(v, cell, mark)| {
        v.with(cell, mark)
    });
    let bitboards = with_edits(&inputs.bitboards);
    per_item(&mut group, "bitboards", &bitboards, |(v, cell, mark)| {
        v.with(cell, mark)
    });
    let count_rank = with_edits(&inputs.count_rank);
    per_item(&mut group, "count-rank", &count_rank, |(v, cell, mark)| {
        CountRank::try_from_board(v.to_board().with(cell, mark))
    });
    let rank = with_edits(&inputs.rank);
    per_item(&mut group, "rank", &rank, |(v, cell, mark)| {
        Rank::try_from_board(v.to_position().board().with(cell, mark)).ok()
    });
    let canonical = with_edits(&inputs.canonical);
    per_item(&mut group, "canonical", &canonical, |(v, cell, mark)| {
        let board = v.to_position().board().with(cell, mark);
        Position::try_from(board).ok().map(Canonical::from_position)
    });
    let oriented = with_edits(&inputs.oriented);
    per_item(&mut group, "oriented", &oriented, |(v, cell, mark)| {
        let board = v.to_position().board().with(cell, mark);
        Position::try_from(board).ok().map(Oriented::from_position)
    });
    group.finish();
}

fn encodings(c: &mut Criterion) {
    let inputs = Inputs::new();
    encode(c, &inputs);
    decode(c, &inputs);
    get(c, &inputs);
    set(c, &inputs);
}

criterion_group!(benches, encodings);
criterion_main!(benches);
