//! [`Method`]: every status method named at run time (what each one runs is in `dispatch.rs`).

use crate::choice::choice_enum;

choice_enum! {
/// One of the status methods, chosen at run time (`ttt bench --method`).
///
/// The first seven check one board at a time; the three `batch` methods check slices (see
/// [`batch`](super::batch)) and, asked about one board, check a slice of copies of it.
///
/// ```
/// use tictactoe::{Board, Player, status::Method};
/// let board: Board = "XO./XO./X..".parse()?;
/// for method in Method::ALL {
///     assert_eq!(method.winner(board), Some(Player::X), "{method}");
/// }
/// assert_eq!(Method::Base3.state_bytes(), 2);
/// assert!("boolean".parse::<Method>().is_err());
/// # Ok::<(), tictactoe::ParseBoardError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Method {
    /// Sums of a 3x3 `i8` array.
    Traditional = "traditional",
    // The paper's Boolean method as printed, defect included: measured by `ttt bench`, wrong
    // on 95 positions, so not offered to users of the library.
    #[doc(hidden)]
    Paper = "paper",
    /// AND with the 8 line masks.
    Masks = "masks",
    /// One byte of a 512-entry table per player.
    Table = "table",
    /// One bit of a 512-bit table per player.
    TableBits = "table-bits",
    /// Shift-AND of both players in one word.
    Shift = "shift",
    /// The status of every base-3 code, 2 bits each.
    Base3 = "base3",
    /// [`batch::verdicts_split`](super::batch::verdicts_split) on the widest kernel the CPU has.
    Batch = "batch",
    /// [`batch::verdicts_split_with`](super::batch::verdicts_split_with) on
    /// [`Kernel::Portable`](super::batch::Kernel::Portable).
    BatchPortable = "batch-portable",
    /// [`batch::verdicts`](super::batch::verdicts): one [`BoardWord`](super::BoardWord) per board.
    BatchPacked = "batch-packed",
}
parse_error: |_text| -> ParseMethodError { ParseMethodError }
}

/// Text that names no status method.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown status method: expected traditional, paper, masks, table, table-bits, shift, base3, batch, batch-portable or batch-packed"
)]
pub struct ParseMethodError;

impl Method {
    /// The methods that check one board at a time.
    pub const SINGLE: [Method; 7] = [
        Method::Traditional,
        Method::Paper,
        Method::Masks,
        Method::Table,
        Method::TableBits,
        Method::Shift,
        Method::Base3,
    ];

    /// Whether the method checks slices rather than one board.
    #[must_use]
    pub const fn is_batch(self) -> bool {
        matches!(
            self,
            Method::Batch | Method::BatchPortable | Method::BatchPacked
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Board, Position};

    #[test]
    fn every_method_but_the_paper_is_right_on_every_position() {
        for method in Method::ALL {
            assert_eq!(method.name().parse::<Method>(), Ok(method));
            let wrong = Position::all()
                .filter(|p| method.winner(p.board()) != p.winner())
                .count();
            // The paper's missing top row: 95 of the 5,478 positions.
            assert_eq!(
                wrong,
                if method == Method::Paper { 95 } else { 0 },
                "{method}"
            );
            if method != Method::Paper {
                for position in Position::all() {
                    assert_eq!(method.status(position.board()), Some(position.status()));
                }
            }
        }
        assert_eq!(Method::Paper.status(Board::EMPTY), None);
    }
}
