//! Property tests: random sequences of positions round-trip through every packing, in memory
//! and through `.ttt` files, and random operations agree with a plain `Vec<Board>`.

use std::io::Cursor;

use proptest::prelude::*;
use tictactoe::encoding::{Base3, Base4, CountRank, Rank};
use tictactoe::file::{Reader, Writer};
use tictactoe::packed::{MixedRadix, PackedArray, Packing};
use tictactoe::{Board, Position};

fn positions() -> Vec<Board> {
    Position::all().map(Position::board).collect()
}

/// Up to 3,000 reachable positions (so every packing holds them).
fn sequence() -> impl Strategy<Value = Vec<Board>> {
    let all = positions();
    prop::collection::vec(0..all.len(), 0..3_000)
        .prop_map(move |indices| indices.into_iter().map(|i| all[i]).collect())
}

/// Up to 3,000 arbitrary grids (for the any-grid packings).
fn grids() -> impl Strategy<Value = Vec<Board>> {
    let all: Vec<Board> = Board::all().collect();
    prop::collection::vec(0..all.len(), 0..3_000)
        .prop_map(move |indices| indices.into_iter().map(|i| all[i]).collect())
}

fn through_file(boards: &[Board], packing: Packing, per_block: u32, seekable: bool) -> Vec<Board> {
    let mut writer =
        Writer::with_records_per_block(Cursor::new(Vec::new()), packing, per_block).unwrap();
    writer.extend(boards).unwrap();
    let bytes = if seekable {
        writer.finish_seekable().unwrap().into_inner()
    } else {
        writer.finish().unwrap().into_inner()
    };
    Reader::new(&bytes[..]).unwrap().read_all().unwrap()
}

fn in_memory(boards: &[Board], packing: Packing) -> Vec<Board> {
    fn fixed<E: tictactoe::packed::Packable>(boards: &[Board]) -> Vec<Board> {
        let array = PackedArray::<E>::from_boards(boards).unwrap();
        let single: Vec<Board> = (0..array.len()).map(|i| array.get(i).unwrap()).collect();
        assert_eq!(single, array.to_boards());
        assert_eq!(array.iter().collect::<Vec<_>>(), single);
        single
    }
    match packing {
        Packing::Base4 => fixed::<Base4>(boards),
        Packing::Base3 => fixed::<Base3>(boards),
        Packing::CountRank => fixed::<CountRank>(boards),
        Packing::Rank => fixed::<Rank>(boards),
        Packing::MixedRadix => {
            let array = MixedRadix::from_boards(boards).unwrap();
            let single: Vec<Board> = (0..array.len()).map(|i| array.get(i).unwrap()).collect();
            assert_eq!(single, array.to_boards());
            single
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn positions_round_trip_through_every_packing(
        boards in sequence(),
        per_block in 1u32..100,
        seekable: bool,
    ) {
        for packing in Packing::ALL {
            prop_assert_eq!(&in_memory(&boards, packing), &boards, "{}", packing);
            prop_assert_eq!(
                &through_file(&boards, packing, per_block, seekable), &boards, "{}", packing
            );
        }
    }

    #[test]
    fn any_grid_round_trips_through_base3_and_base4(boards in grids(), per_block in 1u32..100) {
        for packing in [Packing::Base3, Packing::Base4] {
            prop_assert_eq!(&in_memory(&boards, packing), &boards);
            prop_assert_eq!(&through_file(&boards, packing, per_block, true), &boards);
        }
    }

    /// Push, set, pop, truncate and extend on a packed array agree with the same on a `Vec`.
    #[test]
    fn operations_agree_with_a_vec(
        ops in prop::collection::vec((0u8..5, 0usize..5_478, 0usize..400), 0..300),
    ) {
        let all = positions();
        let mut model: Vec<Board> = Vec::new();
        let mut rank = PackedArray::<Rank>::new();
        let mut mixed = MixedRadix::new();
        for (op, value, index) in ops {
            let board = all[value];
            match op {
                0 => {
                    model.push(board);
                    rank.push(board).unwrap();
                    mixed.push(board).unwrap();
                }
                1 if index < model.len() => {
                    model[index] = board;
                    rank.set(index, board).unwrap();
                    mixed.set(index, board).unwrap();
                }
                1 => {
                    prop_assert!(rank.set(index, board).is_err());
                    prop_assert!(mixed.set(index, board).is_err());
                }
                2 => {
                    let expected = model.pop();
                    prop_assert_eq!(rank.pop(), expected);
                    prop_assert_eq!(mixed.pop(), expected);
                }
                3 => {
                    let len = index % (model.len() + 1);
                    model.truncate(len);
                    rank.truncate(len);
                    mixed.truncate(len);
                    // Truncation leaves the same words as building the shorter array anew.
                    prop_assert_eq!(&rank, &PackedArray::<Rank>::from_boards(&model).unwrap());
                    prop_assert_eq!(&mixed, &MixedRadix::from_boards(&model).unwrap());
                }
                _ => {
                    let more: Vec<Board> =
                        (0..index % 150).map(|k| all[(value + 31 * k) % all.len()]).collect();
                    model.extend_from_slice(&more);
                    rank.extend_from_boards(&more).unwrap();
                    mixed.extend_from_boards(&more).unwrap();
                }
            }
            prop_assert_eq!(rank.len(), model.len());
            prop_assert_eq!(mixed.len(), model.len());
        }
        prop_assert_eq!(rank.to_boards(), model.clone());
        prop_assert_eq!(mixed.to_boards(), model);
    }
}

/// Files with the default (64 KiB) blocks: several full blocks and a partial one.
#[test]
fn default_blocks_round_trip() {
    let all = positions();
    let boards: Vec<Board> = (0..200_000).map(|i| all[(i * 7_919) % all.len()]).collect();
    for packing in Packing::ALL {
        let mut writer = Writer::new(Cursor::new(Vec::new()), packing).unwrap();
        writer.extend(&boards).unwrap();
        let bytes = writer.finish_seekable().unwrap().into_inner();
        let header = *Reader::new(&bytes[..]).unwrap().header();
        assert!(header.blocks_for(200_000) >= 5, "{packing}");
        assert_eq!(header.file_bytes(200_000), bytes.len() as u64);
        assert_eq!(Reader::new(&bytes[..]).unwrap().read_all().unwrap(), boards);
    }
}
