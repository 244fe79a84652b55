//! The checks behind the `ttt_reader` and `constructors` fuzz targets, shared with a stable
//! harness (`tictactoe/tests/fuzz_stable.rs`) that runs them on pseudo-random inputs where
//! libFuzzer is not available.

use std::collections::BTreeSet;
use std::io::Cursor;

use tictactoe::Board;
use tictactoe::encoding::{Base3, Base4, CountRank, Rank};
use tictactoe::file::{HEADER_BYTES, Header, Lost, Reader, Writer, check_layout};
use tictactoe::packed::{MixedRadix, PackedArray, Packing};

fn rewrite(data: &[u8], boards: &[Board]) -> Vec<u8> {
    let header = *Reader::new(data).unwrap().header();
    let cursor = Cursor::new(Vec::new());
    let mut writer =
        Writer::with_records_per_block(cursor, header.packing, header.records_per_block).unwrap();
    writer.extend(boards).unwrap();
    match header.count {
        Some(_) => writer.finish_seekable().unwrap().into_inner(),
        None => writer.finish().unwrap().into_inner(),
    }
}

/// A salvaging read, block by block: the blocks' boards and the reports.
fn salvage(data: &[u8], sized: bool) -> Option<(Vec<Vec<Board>>, Vec<Lost>)> {
    let reader = Reader::new(data).ok()?;
    let reader = if sized {
        reader.input_len(data.len() as u64)
    } else {
        reader
    };
    let mut reader = reader.salvage();
    let mut blocks = Vec::new();
    loop {
        let mut chunk = Vec::new();
        if !reader
            .read_block(&mut chunk)
            .expect("salvage reads slices without error")
        {
            assert!(chunk.is_empty());
            break;
        }
        blocks.push(chunk);
    }
    Some((blocks, reader.lost().to_vec()))
}

/// Raw bytes: reading never panics; a file that reads cleanly salvages identically (both
/// ways) and is canonical (writing its records again gives the same bytes), and
/// `check_layout` agrees with it.
pub fn raw(data: &[u8]) {
    let strict = Reader::new(data).and_then(Reader::read_all);
    for sized in [false, true] {
        let Some((blocks, lost)) = salvage(data, sized) else {
            return;
        };
        if let Ok(boards) = &strict {
            assert_eq!(&blocks.concat(), boards);
            assert!(lost.is_empty(), "{lost:?}");
        }
    }
    if let Ok(boards) = strict {
        assert_eq!(rewrite(data, &boards), data, "a clean file is canonical");
        let header = *Reader::new(data).unwrap().header();
        let count = check_layout(&mut Cursor::new(data), &header).unwrap();
        assert_eq!(count, boards.len() as u64);
    } else if let Ok(reader) = Reader::new(data) {
        // Never a panic, whatever the bytes.
        let _ = check_layout(&mut Cursor::new(data), reader.header());
    }
}

/// A valid file built from the input (any packing, 1 to the largest records per block,
/// streamed or seekable), damaged at input-chosen places (bit flips, cuts, inserted bytes,
/// blocks dropped, repeated or swapped): strict reading detects the damage or the file is
/// unchanged; salvage outputs whole original blocks, none twice, and its lost ranges cover
/// exactly the records it did not output.
pub fn damaged(data: &[u8]) {
    let [packing, per_lo, per_hi, seekable, len_lo, len_hi, rest @ ..] = data else {
        return;
    };
    let packing = Packing::ALL[usize::from(*packing) % 5];
    let max = Header::max_records_per_block(packing);
    // Small blocks most of the time, up to the largest now and then.
    let per_raw = u32::from(u16::from_le_bytes([*per_lo, *per_hi]));
    let per = if per_hi & 0x80 == 0 {
        per_raw % 64 + 1
    } else {
        per_raw % max + 1
    };
    // At most one of each reachable position, so that every block's records are its own
    // and an output block names the original block it came from.
    let len = usize::from(u16::from_le_bytes([*len_lo, *len_hi])) % (Rank::COUNT as usize + 1);
    let boards: Vec<Board> = (0..len as u32)
        .map(|i| {
            let code = (i * 7_919 + len as u32 * 13) % Rank::COUNT;
            Rank::try_from_code(code).unwrap().to_position().board()
        })
        .collect();
    let cursor = Cursor::new(Vec::new());
    let mut writer = Writer::with_records_per_block(cursor, packing, per).unwrap();
    writer.extend(&boards).unwrap();
    let good = if seekable % 2 == 0 {
        writer.finish_seekable().unwrap().into_inner()
    } else {
        writer.finish().unwrap().into_inner()
    };
    let originals: Vec<&[Board]> = boards.chunks(per as usize).collect();
    let block_bytes = |k: usize| {
        let full = 8 + packing.bytes_for(per as usize);
        let start = HEADER_BYTES + k * full;
        start..start + 8 + packing.bytes_for(originals[k].len())
    };
    let mut file = good.clone();
    for step in rest.chunks_exact(3) {
        let at = usize::from(u16::from_le_bytes([step[0], step[1]]));
        match step[2] % 8 {
            0 if !file.is_empty() => file.truncate(at % file.len()),
            1 => file.insert(at % (file.len() + 1), step[2]),
            // Whole blocks of the good file: dropped, repeated, swapped (on the good layout,
            // before other damage moves things).
            2..=4 if file == good && !originals.is_empty() => {
                let k = at % originals.len();
                let j = usize::from(step[2] / 8) % originals.len();
                let mut order: Vec<usize> = (0..originals.len()).collect();
                match step[2] % 8 {
                    2 => drop(order.remove(k)),
                    3 => order.insert(j, k),
                    _ => order.swap(j, k),
                }
                let mut bytes = good[..HEADER_BYTES].to_vec();
                for k in order {
                    bytes.extend_from_slice(&good[block_bytes(k)]);
                }
                bytes.extend_from_slice(&good[good.len() - 16..]);
                file = bytes;
            }
            _ if !file.is_empty() => {
                let len = file.len();
                file[at % len] ^= step[2] | 1;
            }
            _ => {}
        }
    }
    match Reader::new(&file[..]).and_then(Reader::read_all) {
        Ok(read) => {
            assert_eq!(file, good, "damage went undetected");
            assert_eq!(read, boards);
        }
        Err(_) => assert_ne!(file, good),
    }
    for sized in [false, true] {
        let Some((blocks, lost)) = salvage(&file, sized) else {
            continue;
        };
        let order = block_numbers(&originals, &blocks, "");
        let lens: Vec<usize> = originals.iter().map(|b| b.len()).collect();
        assert_lost_covers(&lens, per as usize, &order, &lost, "");
        if file == good {
            assert!(lost.is_empty());
        }
    }
}

/// Arbitrary lengths and bytes into every public constructor that takes them: never a panic;
/// what is accepted round-trips.
pub fn constructors(data: &[u8]) {
    let [l0, l1, l2, l3, l4, l5, l6, l7, rest @ ..] = data else {
        return;
    };
    let len = u64::from_le_bytes([*l0, *l1, *l2, *l3, *l4, *l5, *l6, *l7]);
    // Lengths near the input's size (the interesting ones), and anything up to 2^64.
    let lens = [
        usize::try_from(len).unwrap_or(usize::MAX),
        (len % (rest.len() as u64 * 8 / 12 + 2)) as usize,
    ];
    for len in lens {
        fixed::<Base4>(rest, len);
        fixed::<Base3>(rest, len);
        fixed::<CountRank>(rest, len);
        fixed::<Rank>(rest, len);
        if let Ok(array) = MixedRadix::from_bytes(rest, len) {
            assert_eq!(array.len(), len);
            let boards = array.to_boards();
            assert_eq!(MixedRadix::from_boards(&boards).unwrap(), array);
            let _ = array.get(len.saturating_sub(1));
        }
        for packing in Packing::ALL {
            let mut out = Vec::new();
            if packing.decode(rest, len, &mut out).is_ok() {
                assert_eq!(out.len(), len);
                let mut bytes = Vec::new();
                packing.encode(&out, &mut bytes).unwrap();
                assert_eq!(bytes, rest);
            } else {
                assert!(out.is_empty());
            }
            let _ = packing.bytes_for(len);
        }
        // Capacities are hints: bounded here so that the fuzzer's memory limit holds.
        let capacity = len % (1 << 20);
        assert!(PackedArray::<Rank>::with_capacity(capacity).is_empty());
        assert!(MixedRadix::with_capacity(capacity).is_empty());
    }
    if let Ok(bytes) = <[u8; HEADER_BYTES]>::try_from(&rest[..rest.len().min(HEADER_BYTES)])
        && let Ok(header) = Header::from_bytes(&bytes)
    {
        let _ = header.file_bytes(len);
        let _ = header.blocks_for(len);
        assert_eq!(Header::from_bytes(&header.to_bytes()), Ok(header));
    }
}

/// The original block of each output block: whole blocks, none twice (found by content).
pub fn block_numbers(originals: &[&[Board]], output: &[Vec<Board>], what: &str) -> Vec<usize> {
    let mut used = BTreeSet::new();
    let mut order = Vec::new();
    for chunk in output {
        // The block after the last one first (the usual case), then any.
        let after = order.last().map_or(0, |&k: &usize| k + 1);
        let k = (after..originals.len())
            .chain(0..after)
            .find(|&k| !used.contains(&k) && originals[k] == &chunk[..])
            .unwrap_or_else(|| panic!("{what}: output {} records of no block", chunk.len()));
        used.insert(k);
        order.push(k);
    }
    order
}

/// The lost ranges are disjoint, pass no end, miss every output record, and with the output
/// blocks (`order`, of lengths `lens`, `per` to a block) cover every record.
pub fn assert_lost_covers(lens: &[usize], per: usize, order: &[usize], lost: &[Lost], what: &str) {
    let count = lens.iter().sum::<usize>() as u64;
    let mut covered: Vec<(u64, u64)> = order
        .iter()
        .map(|&k| {
            let first = (k * per) as u64;
            (first, first + lens[k] as u64)
        })
        .collect();
    for l in lost {
        match l.end {
            Some(end) => {
                assert!(end <= count, "{what}: {l} past the end {count}");
                if end > l.first {
                    covered.push((l.first, end));
                }
            }
            None => covered.push((l.first, u64::MAX)),
        }
    }
    covered.sort_unstable();
    let mut at = 0;
    for &(first, end) in &covered {
        assert_eq!(
            first, at,
            "{what}: gap or overlap at record {at}: {lost:?} {order:?}"
        );
        at = end;
    }
    assert!(
        at >= count,
        "{what}: records {at} to {count} neither output nor lost"
    );
}

fn fixed<E: tictactoe::packed::Packable>(bytes: &[u8], len: usize) {
    let _ = PackedArray::<E>::bytes_for(len);
    if let Ok(array) = PackedArray::<E>::from_bytes(bytes, len) {
        assert_eq!(array.len(), len);
        assert_eq!(array.as_bytes(), bytes);
        let boards = array.to_boards();
        assert_eq!(PackedArray::<E>::from_boards(&boards).unwrap(), array);
        let _ = array.get(len.saturating_sub(1));
    }
}
