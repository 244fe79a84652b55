//! Bits per state of ultimate tic-tac-toe's encodings against the information limit.
//!
//! The exact number of reachable states is not known; this bounds it from above by counting
//! the states that keep two of the rules of `docs/ultimate.md#validity` exactly: each small
//! board one of the grids a game can leave (not both players with a line, the winner's lines
//! sharing a cell; counted over all 19,683 grids), turn order over the whole board (X's marks
//! minus O's is 0 or 1: a convolution of the nine boards' differences), times the ten values
//! of the board to play. Then it plays random games and counts the states the 116-bit
//! `Ranks` code holds.
//!
//! ```text
//! cargo run --release -p tictactoe-kit --example ultimate_bits
//! ```

use tictactoe::ultimate::encoding::{Base3, Base4, Ranks};
use tictactoe::ultimate::{Position, Setup, Violation};
use tictactoe::{Board, Cell, Player};

fn main() {
    // Small boards a game can leave, by X's marks minus O's (-9..=9 at index + 9).
    let mut by_difference = [0u128; 19];
    let mut boards = 0u32;
    let first = Cell::ALL[0];
    for board in Board::all() {
        let mut setup = Setup::EMPTY;
        setup.boards[0] = board;
        let violations = setup.violations();
        if violations.contains(Violation::BothLines(first))
            || violations.contains(Violation::ContinuedAfterBoardWon(first))
        {
            continue;
        }
        boards += 1;
        let difference = board.count(Player::X) as i32 - board.count(Player::O) as i32;
        by_difference[(difference + 9) as usize] += 1;
    }
    // Nine boards: the distribution of the total difference (-81..=81 at index + 81).
    let mut total = vec![0u128; 163];
    total[81] = 1;
    for _ in 0..9 {
        let mut next = vec![0u128; 163];
        for (t, &ways) in total.iter().enumerate() {
            for (d, &count) in by_difference.iter().enumerate() {
                if ways > 0 && count > 0 {
                    next[t + d - 9] += ways * count;
                }
            }
        }
        total = next;
    }
    let per_board = 9.0 * f64::from(boards).log2() + 10f64.log2();
    let turn_order = ((total[81] + total[82]) as f64).log2() + 10f64.log2();
    println!(
        "small boards a game can leave: {boards} of 19683 ({:.2} bits)",
        f64::from(boards).log2()
    );
    println!("limit, nine such boards and the board to play: {per_board:.2} bits");
    println!("limit, with turn order (X - O in 0..=1): {turn_order:.2} bits");
    println!(
        "codes: Base4 {} bits, Base3 {} bits, Ranks {} bits",
        Base4::BITS,
        Base3::BITS,
        Ranks::BITS
    );

    // States of random games: how many the Ranks code holds.
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed as u32
    };
    let (mut states, mut ranked) = (0u64, 0u64);
    for _ in 0..10_000 {
        let mut position = Position::EMPTY;
        loop {
            states += 1;
            ranked += u64::from(Ranks::from_position(&position).is_ok());
            match position.pick(next()) {
                Some(played) => {
                    position.play_unchecked(played);
                }
                None => break,
            }
        }
    }
    println!(
        "states of 10,000 random games: {states}; Ranks holds {ranked} ({:.1}%)",
        100.0 * ranked as f64 / states as f64
    );
}
