use super::*;
use crate::packed::tests_support::sample;

fn write(boards: &[Board], packing: Packing, per_block: u32) -> Vec<u8> {
    let mut writer = Writer::with_records_per_block(Vec::new(), packing, per_block).unwrap();
    writer.extend(boards).unwrap();
    writer.finish().unwrap()
}

fn write_seekable(boards: &[Board], packing: Packing, per_block: u32) -> Vec<u8> {
    let cursor = std::io::Cursor::new(Vec::new());
    let mut writer = Writer::with_records_per_block(cursor, packing, per_block).unwrap();
    writer.extend(boards).unwrap();
    writer.finish_seekable().unwrap().into_inner()
}

fn read(bytes: &[u8]) -> Result<Vec<Board>, FileError> {
    Reader::new(bytes)?.read_all()
}

use crate::Board;
use std::io::Write;

#[test]
fn round_trip_every_packing_streamed_and_seekable() {
    for packing in Packing::ALL {
        for len in [0, 1, 6, 7, 20, 21] {
            let boards = sample(len, len as u64);
            for bytes in [
                write(&boards, packing, 7),
                write_seekable(&boards, packing, 7),
            ] {
                assert_eq!(read(&bytes).unwrap(), boards, "{packing} {len}");
                let header = *Reader::new(&bytes[..]).unwrap().header();
                assert_eq!(header.file_bytes(len as u64), bytes.len() as u64);
            }
            let header = *Reader::new(&write_seekable(&boards, packing, 7)[..])
                .unwrap()
                .header();
            assert_eq!(header.count, Some(len as u64));
        }
    }
}

#[test]
fn default_blocks_fill_64_kib() {
    for packing in Packing::ALL {
        let per = Header::default_records_per_block(packing);
        let bytes = BLOCK_HEAD_BYTES + packing.bytes_for(per as usize);
        assert!(bytes <= MAX_BLOCK_BYTES, "{packing}");
        assert!(bytes + 2 * 8 > MAX_BLOCK_BYTES, "{packing} {bytes}");
        let max = Header::max_records_per_block(packing);
        assert!(BLOCK_HEAD_BYTES + packing.bytes_for(max as usize + 1) > MAX_BLOCK_BYTES);
    }
    assert_eq!(Header::default_records_per_block(Packing::Base4), 29_120);
    assert_eq!(
        Header::default_records_per_block(Packing::MixedRadix),
        40_955
    );
}

/// Every single-bit flip of every byte of small files is detected, as an error.
#[test]
fn every_bit_flip_is_detected() {
    for packing in Packing::ALL {
        let boards = sample(23, 3);
        for bytes in [
            write(&boards, packing, 5),
            write_seekable(&boards, packing, 5),
        ] {
            for bit in 0..bytes.len() * 8 {
                let mut damaged = bytes.clone();
                damaged[bit / 8] ^= 1 << (bit % 8);
                assert!(read(&damaged).is_err(), "{packing} bit {bit} not detected");
                // Salvage never fails past the header, and never returns a wrong record.
                if let Ok(reader) = Reader::new(&damaged[..]) {
                    let mut reader = reader.salvage();
                    let salvaged = reader.read_all_salvaged().unwrap();
                    assert!(!reader.lost().is_empty(), "{packing} bit {bit}");
                    assert!(salvaged.len() <= boards.len());
                    let mut rest = boards.iter();
                    for board in &salvaged {
                        assert!(rest.any(|b| b == board), "{packing} bit {bit}");
                    }
                }
            }
        }
    }
}

/// Every truncation of a small file is detected, as an error.
#[test]
fn every_truncation_is_detected() {
    for packing in Packing::ALL {
        let boards = sample(23, 4);
        for bytes in [
            write(&boards, packing, 5),
            write_seekable(&boards, packing, 5),
        ] {
            for len in 0..bytes.len() {
                let error = read(&bytes[..len]).unwrap_err();
                let format = error.format().unwrap();
                assert!(
                    matches!(format, FormatError::Truncated { offset, .. } if offset == len as u64),
                    "{packing} {len}: {format}"
                );
            }
            let mut longer = bytes.clone();
            longer.push(0);
            assert_eq!(
                read(&longer).unwrap_err().format(),
                Some(FormatError::TrailingData {
                    offset: bytes.len() as u64
                })
            );
        }
    }
}

#[test]
fn damaged_block_is_named_with_its_records_and_salvage_skips_it() {
    let boards = sample(23, 5);
    let bytes = write_seekable(&boards, Packing::Rank, 5);
    // Block 2 starts after the header and two blocks of 8 + 9 bytes (5 x 13 bits).
    let start = HEADER_BYTES + 2 * (8 + 9);
    let mut damaged = bytes.clone();
    damaged[start + 10] ^= 0x10;
    let error = read(&damaged).unwrap_err();
    assert_eq!(
        error.to_string(),
        "block 2 (records 10 to 14) is damaged: checksum mismatch"
    );
    let mut reader = Reader::new(&damaged[..]).unwrap().salvage();
    let salvaged = reader.read_all_salvaged().unwrap();
    let mut expected = boards.clone();
    expected.drain(10..15);
    assert_eq!(salvaged, expected);
    assert_eq!(reader.lost().len(), 1);
    assert_eq!(
        (reader.lost()[0].first, reader.lost()[0].end),
        (10, Some(15))
    );
}

#[test]
fn header_errors_are_each_their_own() {
    let bytes = write_seekable(&sample(3, 6), Packing::Base3, 5);
    let format = |bytes: &[u8]| read(bytes).unwrap_err().format().unwrap();

    let mut wrong = bytes.clone();
    wrong[..4].copy_from_slice(b"PK\x03\x04");
    assert!(matches!(format(&wrong), FormatError::WrongMagic { .. }));
    assert!(matches!(format(b"hello"), FormatError::WrongMagic { .. }));
    assert_eq!(
        format(&bytes[..5]),
        FormatError::Truncated {
            offset: 5,
            part: Part::Header
        }
    );

    let mut version = bytes.clone();
    version[8] = 3;
    assert_eq!(format(&version), FormatError::UnknownVersion { version: 3 });
    version[8] = 0;
    assert_eq!(format(&version), FormatError::UnknownVersion { version: 0 });

    let mut checksum = bytes.clone();
    checksum[10] = 9;
    assert_eq!(format(&checksum), FormatError::HeaderChecksum);

    // A header that claims a different count (checksum recomputed): the trailer disagrees.
    let header = Header {
        count: Some(4),
        ..*Reader::new(&bytes[..]).unwrap().header()
    };
    let mut count = bytes.clone();
    count[..HEADER_BYTES].copy_from_slice(&header.to_bytes());
    assert_eq!(
        format(&count),
        FormatError::CountMismatch {
            source_: "header",
            stated: 4,
            found: 3
        }
    );
    let header = Header {
        count: Some(2),
        ..header
    };
    count[..HEADER_BYTES].copy_from_slice(&header.to_bytes());
    assert_eq!(
        format(&count),
        FormatError::CountMismatch {
            source_: "header",
            stated: 2,
            found: 3
        }
    );
}

#[test]
fn count_mismatch_between_header_and_trailer() {
    let boards = sample(10, 8);
    let bytes = write_seekable(&boards, Packing::Base4, 5);
    // The header says 10; rewrite the trailer to say 11 with a valid checksum.
    let mut forged = bytes.clone();
    let at = forged.len() - TRAILER_BYTES;
    let count = 11u64.to_le_bytes();
    let crc = crc32c(&[&2u64.to_le_bytes(), &[0; 4], &count]);
    forged[at + 4..at + 8].copy_from_slice(&crc.to_le_bytes());
    forged[at + 8..].copy_from_slice(&count);
    assert_eq!(
        read(&forged).unwrap_err().format(),
        Some(FormatError::CountMismatch {
            source_: "header",
            stated: 10,
            found: 11
        })
    );
    // Streamed (count unknown in the header): the trailer disagrees with the blocks.
    let mut streamed = write(&boards, Packing::Base4, 5);
    let at = streamed.len() - TRAILER_BYTES;
    streamed[at + 4..at + 8].copy_from_slice(&crc.to_le_bytes());
    streamed[at + 8..].copy_from_slice(&count);
    assert_eq!(
        read(&streamed).unwrap_err().format(),
        Some(FormatError::CountMismatch {
            source_: "trailer",
            stated: 11,
            found: 10
        })
    );
}

#[test]
fn writer_refuses_what_the_packing_cannot_hold() {
    let mut writer = Writer::new(Vec::new(), Packing::MixedRadix).unwrap();
    writer.push(Board::EMPTY).unwrap();
    let full: Board = "XXX/XXX/XXX".parse().unwrap();
    assert!(matches!(
        writer.push(full),
        Err(FileError::Pack(crate::packed::PackError::Unencodable {
            index: 1,
            ..
        }))
    ));
    assert_eq!(read(&writer.finish().unwrap()).unwrap(), vec![Board::EMPTY]);
    assert!(Writer::with_records_per_block(Vec::new(), Packing::Base4, 0).is_err());
    let max = Header::max_records_per_block(Packing::Base4);
    assert!(Writer::with_records_per_block(Vec::new(), Packing::Base4, max).is_ok());
    assert!(Writer::with_records_per_block(Vec::new(), Packing::Base4, max + 1).is_err());
}

#[test]
fn atomic_file_appears_only_on_commit() {
    let dir = std::env::temp_dir().join(format!("ttt-atomic-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let target = dir.join("a.ttt");
    {
        let file = AtomicFile::create(&target).unwrap();
        let mut writer = Writer::new(file, Packing::Rank).unwrap();
        writer.push(Board::EMPTY).unwrap();
        // Dropped without finishing: neither the target nor the temporary file remains.
    }
    assert!(!target.exists());
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
    let file = AtomicFile::create(&target).unwrap();
    let mut writer = Writer::new(file, Packing::Rank).unwrap();
    writer.push(Board::EMPTY).unwrap();
    writer.finish_seekable().unwrap().commit().unwrap();
    let bytes = std::fs::read(&target).unwrap();
    assert_eq!(read(&bytes).unwrap(), vec![Board::EMPTY]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn crc_is_crc32c() {
    // The standard check value of CRC-32C (Castagnoli).
    assert_eq!(crc32c(&[b"123456789"]), 0xE306_9283);
    assert_eq!(crc32c(&[b"1234", b"56789"]), 0xE306_9283);
}

#[test]
fn sizes_of_forged_counts_saturate() {
    let header = Header {
        version: VERSION,
        packing: Packing::Base4,
        records_per_block: 1,
        count: Some(u64::MAX - 1),
    };
    assert_eq!(header.file_bytes(u64::MAX - 1), u64::MAX);
    assert_eq!(header.blocks_for(u64::MAX - 1), u64::MAX - 1);
}

/// Issue 14, defect 6: a failed rename (the target is a directory) left the temporary file,
/// because the handle was cleared before the rename.
#[test]
fn failed_rename_leaves_no_temporary_file() {
    let dir = std::env::temp_dir().join(format!("ttt-atomic-rename-{}", std::process::id()));
    let target = dir.join("taken");
    std::fs::create_dir_all(&target).unwrap();
    // Made a directory after the temporary file: only the rename can fail.
    let dir2 = dir.join("later");
    let mut file = AtomicFile::create(&dir2).unwrap();
    std::fs::create_dir(&dir2).unwrap();
    std::fs::write(dir2.join("inside"), b"x").unwrap();
    file.write_all(b"data").unwrap();
    let temp = file.temp_path().to_path_buf();
    let error = file.commit().unwrap_err();
    assert!(error.to_string().contains("cannot rename"), "{error}");
    assert!(error.to_string().contains("later"), "{error}");
    assert!(
        !temp.exists(),
        "the temporary file survived the failed rename"
    );
    // A directory, or a path ending in '/', is refused before anything is written.
    for path in [target.clone(), dir.join("new/")] {
        let error = AtomicFile::create(&path).unwrap_err();
        assert_eq!(error.kind(), std::io::ErrorKind::InvalidInput, "{error}");
        assert!(error.to_string().contains("directory"), "{error}");
    }
    let left: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left.len(), 2, "{left:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Issue 14, defect 7: a device node or a symbolic link was replaced by a regular file.
#[cfg(unix)]
#[test]
fn non_regular_targets_are_refused_and_links_followed() {
    let dir = std::env::temp_dir().join(format!("ttt-atomic-special-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // A symbolic link to a device: refused, and the link is untouched.
    let link = dir.join("null-link");
    std::os::unix::fs::symlink("/dev/null", &link).unwrap();
    // Only through the link: a regression must not create files in /dev.
    {
        let error = AtomicFile::create(&link).unwrap_err();
        assert_eq!(error.kind(), std::io::ErrorKind::InvalidInput, "{error}");
        assert!(error.to_string().contains("not a regular file"), "{error}");
    }
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    // A symbolic link to a regular file: the file is replaced, the link stays.
    let real = dir.join("real.ttt");
    std::fs::write(&real, b"old").unwrap();
    let to_real = dir.join("to-real.ttt");
    std::os::unix::fs::symlink(&real, &to_real).unwrap();
    let mut file = AtomicFile::create(&to_real).unwrap();
    file.write_all(b"new").unwrap();
    file.commit().unwrap();
    assert!(
        std::fs::symlink_metadata(&to_real)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(std::fs::read(&real).unwrap(), b"new");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Issue 14, defect 8: a write error did not name the file.
#[cfg(target_os = "linux")]
#[test]
fn write_errors_name_the_file() {
    let dir = std::env::temp_dir().join(format!("ttt-atomic-names-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let target = dir.join("out.ttt");
    let mut file = AtomicFile::create(&target).unwrap();
    // Swap the open file for /dev/full: every flush now fails with ENOSPC.
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    file.replace_file_for_test(full);
    let error = file.write_all(&[0; 1 << 18]).unwrap_err();
    assert_eq!(error.raw_os_error(), None);
    assert!(error.to_string().contains("out.ttt"), "{error}");
    assert!(error.to_string().contains("No space left"), "{error}");
    drop(file);
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A version-1 file (block checksums without the header prefix), written by hand from the
/// specification in `docs/format.md` (not by this crate): base3, 3 records per block, the boards
/// `.........`, `X........`, `....X....`, `X.O/..O/.X.` (codes 0, 1, 81, 2692), count in the header.
const VERSION_1_BASE3: &str = "895454540d0a1a0a0100020003000000040000000000000000000000745c1933\
    03000000e2f2bb4900800040140001000000b3baf713840a00000000293b5ff30400000000000000";

fn version_1_file() -> Vec<u8> {
    let hex = VERSION_1_BASE3.replace(' ', "");
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
        .collect()
}

/// Issue 25: version-1 files, written before the blocks were bound to the header, still read,
/// strictly, by salvage and by `check_layout`.
#[test]
fn version_1_files_still_read() {
    let bytes = version_1_file();
    let boards: Vec<Board> = [".........", "X........", "....X....", "X.O/..O/.X."]
        .iter()
        .map(|b| b.parse().unwrap())
        .collect();
    let reader = Reader::new(&bytes[..]).unwrap();
    assert_eq!(reader.header().version, 1);
    assert_eq!(reader.header().packing, Packing::Base3);
    assert_eq!(read(&bytes).unwrap(), boards);
    let mut salvaging = Reader::new(&bytes[..]).unwrap().salvage();
    assert_eq!(salvaging.read_all_salvaged().unwrap(), boards);
    assert!(salvaging.lost().is_empty());
    let header = *Reader::new(&bytes[..]).unwrap().header();
    assert_eq!(
        check_layout(&mut std::io::Cursor::new(&bytes), &header).unwrap(),
        4
    );
    // Its blocks do not pass under version 2: the versions are told apart by their checksums.
    let mut as_2 = bytes.clone();
    as_2[..HEADER_BYTES].copy_from_slice(
        &Header {
            version: 2,
            ..header
        }
        .to_bytes(),
    );
    assert!(matches!(
        read(&as_2).unwrap_err().format(),
        Some(FormatError::DamagedBlock {
            damage: Damage::Checksum,
            ..
        })
    ));
    // What this crate writes is version 2.
    assert_eq!(write(&boards, Packing::Base3, 3)[8..10], [2, 0]);
}

/// Issue 25: a header whose encoding id is changed (rank to count-rank, same width, its own
/// checksum recomputed) read every block as other boards; the block checksums now cover the
/// encoding, so every block fails, strictly, in salvage and in `check_layout`.
#[test]
fn an_encoding_swapped_in_the_header_fails_every_block() {
    for (from, to) in [
        (Packing::Rank, Packing::CountRank),
        (Packing::CountRank, Packing::Rank),
        (Packing::Base3, Packing::Base4),
    ] {
        let boards = sample(20, 3);
        for bytes in [write(&boards, from, 7), write_seekable(&boards, from, 7)] {
            let header = *Reader::new(&bytes[..]).unwrap().header();
            let mut forged = bytes.clone();
            forged[..HEADER_BYTES].copy_from_slice(
                &Header {
                    packing: to,
                    ..header
                }
                .to_bytes(),
            );
            assert_eq!(Reader::new(&forged[..]).unwrap().header().packing, to);
            assert!(
                matches!(
                    read(&forged).unwrap_err().format(),
                    Some(FormatError::DamagedBlock { .. } | FormatError::Truncated { .. })
                ),
                "{from} as {to}"
            );
            let mut salvaging = Reader::new(&forged[..]).unwrap().salvage();
            assert_eq!(
                salvaging.read_all_salvaged().unwrap(),
                vec![],
                "{from} as {to}"
            );
            assert!(!salvaging.lost().is_empty());
            let forged_header = *Reader::new(&forged[..]).unwrap().header();
            assert!(check_layout(&mut std::io::Cursor::new(&forged), &forged_header).is_err());
        }
    }
}

#[test]
fn block_first_record_places_blocks_read_out_of_order() {
    let boards = sample(23, 5);
    let bytes = write_seekable(&boards, Packing::Rank, 5);
    // Blocks 1 and 3 swapped: each whole block is 8 + 9 bytes (5 x 13 bits).
    let block = 8 + 9;
    let at = |k: usize| HEADER_BYTES + k * block;
    let mut moved = bytes.clone();
    moved[at(1)..at(2)].copy_from_slice(&bytes[at(3)..at(4)]);
    moved[at(3)..at(4)].copy_from_slice(&bytes[at(1)..at(2)]);
    let mut plain = Reader::new(&bytes[..]).unwrap();
    let mut reader = Reader::new(&moved[..])
        .unwrap()
        .input_len(moved.len() as u64)
        .salvage();
    let (mut firsts, mut plain_firsts, mut out) = (Vec::new(), Vec::new(), Vec::new());
    while reader.read_block(&mut out).unwrap() {
        let n = out.len() - firsts.iter().map(|&(_, n)| n).sum::<usize>();
        firsts.push((reader.block_first_record(), n));
    }
    while plain.read_block(&mut Vec::new()).unwrap() {
        plain_firsts.push(plain.block_first_record());
    }
    assert_eq!(plain_firsts, [0, 5, 10, 15, 20]);
    let mut placed = vec![Board::EMPTY; boards.len()];
    let mut start = 0;
    for &(first, n) in &firsts {
        let first = usize::try_from(first).unwrap();
        placed[first..first + n].copy_from_slice(&out[start..start + n]);
        start += n;
    }
    assert_eq!(
        firsts.iter().map(|&(f, _)| f).collect::<Vec<_>>(),
        [0, 15, 10, 5, 20]
    );
    assert_eq!(placed, boards);
}
