//! The fuzz targets' checks (`fuzz/shared/checks.rs`) on pseudo-random inputs, so that they
//! run on a stable toolchain without libFuzzer: `ttt_reader` (raw bytes, and valid files of
//! every packing, both ways, damaged), `constructors` (arbitrary lengths and bytes) and
//! `mnk_decode` (arbitrary bytes through the family's decoders, `fuzz/shared/mnk_encodings.rs`)
//! and `ultimate` (text and codes of ultimate tic-tac-toe, `fuzz/shared/ultimate.rs`).
//! `TTT_FUZZ_CASES` sets the number of cases per check (default 3,000).

#[path = "../../fuzz/shared/checks.rs"]
mod checks;

#[path = "../../fuzz/shared/mnk_encodings.rs"]
mod mnk_encodings;

#[path = "../../fuzz/shared/ultimate.rs"]
mod ultimate;

fn cases() -> usize {
    std::env::var("TTT_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3_000)
}

/// A xorshift byte source.
struct Bytes(u64);

impl Bytes {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn fill(&mut self, len: usize) -> Vec<u8> {
        (0..len).map(|_| self.next() as u8).collect()
    }
}

#[test]
fn ttt_reader_checks_on_random_inputs() {
    let mut bytes = Bytes(0x9e37_79b9_7f4a_7c15);
    let cases = cases();
    for case in 0..cases {
        // Damage steps: up to eight of three bytes each.
        let steps = (bytes.next() % 9) as usize;
        let mut data = bytes.fill(6 + 3 * steps);
        // Mostly small files, so that many cases run.
        data[4] = (bytes.next() % 400) as u8;
        data[5] = u8::from(case % 16 == 0);
        checks::damaged(&data);
        // Raw: a good file with bytes changed, or noise after a valid header.
        let len = (bytes.next() % 200) as usize;
        let mut raw = bytes.fill(len);
        if case % 2 == 0 {
            let mut good =
                tictactoe::file::Writer::new(Vec::new(), tictactoe::packed::Packing::Rank).unwrap();
            good.push(tictactoe::Board::EMPTY).unwrap();
            let mut file = good.finish().unwrap();
            let at = (bytes.next() as usize) % file.len();
            file[at] ^= raw.first().copied().unwrap_or(1);
            raw = file;
        }
        checks::raw(&raw);
    }
    eprintln!("ttt_reader: {cases} damaged files and {cases} raw inputs");
}

#[test]
fn constructor_checks_on_random_lengths_and_bytes() {
    let mut bytes = Bytes(0x2545_f491_4f6c_dd1d);
    let cases = cases() * 10;
    for case in 0..cases {
        let len = 8 + (bytes.next() % 96) as usize;
        let mut data = bytes.fill(len);
        // Lengths near the edges of overflow now and then.
        if case % 4 == 0 {
            let len = u64::MAX - bytes.next() % 1_000_000;
            data[..8].copy_from_slice(&len.to_le_bytes());
        }
        checks::constructors(&data);
    }
    eprintln!("constructors: {cases} inputs");
}

#[test]
fn mnk_decode_checks_on_random_bytes() {
    let mut bytes = Bytes(0x853c_49e6_748f_ea9b);
    let cases = cases() * 10;
    for case in 0..cases {
        let len = (bytes.next() % 110) as usize;
        let mut data = bytes.fill(len);
        // Sparse words now and then, so that codes near zero and near the limits turn up.
        if case % 3 == 0 {
            for byte in data.iter_mut().skip(5) {
                *byte &= (bytes.next() & bytes.next()) as u8;
            }
        }
        mnk_encodings::check(&data);
    }
    eprintln!("mnk_decode: {cases} inputs");
}

#[test]
fn ultimate_checks_on_random_inputs() {
    let mut bytes = Bytes(0x2545_f491_4f6c_dd1d);
    let cases = cases() * 10;
    let cell_chars = b"XO.XO...../ \n*012345678x";
    for case in 0..cases {
        let len = (bytes.next() % 120) as usize;
        let mut data = bytes.fill(len + 1);
        if case % 2 == 0 {
            // Text: mostly cell characters, so that many inputs parse or fail late.
            data[0] &= !1;
            for byte in data.iter_mut().skip(1) {
                *byte = cell_chars[(*byte as usize) % cell_chars.len()];
            }
            if case % 4 == 0 {
                // A well-formed setup with a character or two changed.
                let mut text = tictactoe::ultimate::Position::EMPTY
                    .to_string()
                    .into_bytes();
                let at = (bytes.next() as usize) % text.len();
                text[at] = cell_chars[(bytes.next() as usize) % cell_chars.len()];
                data.truncate(1);
                data.extend_from_slice(&text);
            }
        }
        ultimate::check(&data);
    }
    eprintln!("ultimate: {cases} inputs");
}
