//! Fuzzes the `.ttt` reader two ways, chosen by the first byte:
//!
//! - raw bytes: reading never panics; a salvaging read of a file that reads cleanly returns
//!   the same records and loses nothing; and a file that reads cleanly is canonical (writing
//!   its records again gives the same bytes);
//! - a valid file built from the input, then damaged at input-chosen places (bit flips, a cut,
//!   an inserted byte): the damage is always detected, or the file is unchanged.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tictactoe::Board;
use tictactoe::encoding::Rank;
use tictactoe::file::{Reader, Writer};
use tictactoe::packed::Packing;

fn rewrite(data: &[u8], boards: &[Board]) -> Vec<u8> {
    let header = *Reader::new(data).unwrap().header();
    let cursor = std::io::Cursor::new(Vec::new());
    let mut writer =
        Writer::with_records_per_block(cursor, header.packing, header.records_per_block).unwrap();
    writer.extend(boards).unwrap();
    match header.count {
        Some(_) => writer.finish_seekable().unwrap().into_inner(),
        None => writer.finish().unwrap().into_inner(),
    }
}

fn raw(data: &[u8]) {
    let strict = Reader::new(data).and_then(Reader::read_all);
    let Ok(reader) = Reader::new(data) else {
        return;
    };
    let mut reader = reader.salvage();
    let salvaged = reader
        .read_all_salvaged()
        .expect("salvage reads slices without error");
    if let Ok(boards) = strict {
        assert_eq!(salvaged, boards);
        assert!(reader.lost().is_empty());
        assert_eq!(rewrite(data, &boards), data, "a clean file is canonical");
    }
}

fn damaged(data: &[u8]) {
    let [packing, per_block, seekable, len, rest @ ..] = data else {
        return;
    };
    let packing = Packing::ALL[usize::from(*packing) % 5];
    let per_block = u32::from(*per_block % 32) + 1;
    let boards: Vec<Board> = (0..u32::from(*len))
        .map(|i| {
            let code = (i * 7_919 + u32::from(*len) * 13) % Rank::COUNT;
            Rank::try_from_code(code).unwrap().to_position().board()
        })
        .collect();
    let cursor = std::io::Cursor::new(Vec::new());
    let mut writer = Writer::with_records_per_block(cursor, packing, per_block).unwrap();
    writer.extend(&boards).unwrap();
    let good = if seekable % 2 == 0 {
        writer.finish_seekable().unwrap().into_inner()
    } else {
        writer.finish().unwrap().into_inner()
    };
    let mut file = good.clone();
    for step in rest.chunks_exact(3) {
        let at = usize::from(u16::from_le_bytes([step[0], step[1]]));
        match step[2] % 4 {
            0 if !file.is_empty() => file.truncate(at % file.len()),
            1 => file.insert(at % (file.len() + 1), step[2]),
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
}

fuzz_target!(|data: &[u8]| {
    match data.split_first() {
        Some((mode, rest)) if mode % 2 == 0 => raw(rest),
        Some((_, rest)) => damaged(rest),
        None => {}
    }
});
