//! [`Method`]: every status method named at run time.

use core::fmt;
use core::str::FromStr;

use super::batch::{self, Kernel};
use super::{
    Base3Table, BoardWord, Check, Masks, Paper, Shift, Table, TableBits, Traditional, Verdict,
};
use crate::{Board, Player, Status};

/// One of the status methods, chosen at run time (`ttt bench --method`).
///
/// The first seven check one board at a time; the three `batch` methods check slices (see
/// [`batch`]) and, asked about one board, check a slice of copies of it.
///
/// ```
/// use tictactoe::{Board, Player, status::Method};
/// let board: Board = "XXX/OO./...".parse()?;
/// for method in Method::ALL {
///     let expected = if method == Method::Paper { None } else { Some(Player::X) };
///     assert_eq!(method.winner(board), expected, "{method}");
/// }
/// assert_eq!(Method::Base3.state_bytes(), 2);
/// assert!("boolean".parse::<Method>().is_err());
/// # Ok::<(), tictactoe::ParseBoardError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Method {
    /// Sums of a 3x3 `i8` array.
    Traditional,
    /// The paper's Boolean method as printed (with its defect).
    Paper,
    /// AND with the 8 line masks.
    Masks,
    /// One byte of a 512-entry table per player.
    Table,
    /// One bit of a 512-bit table per player.
    TableBits,
    /// Shift-AND of both players in one word.
    Shift,
    /// The status of every base-3 code, 2 bits each.
    Base3,
    /// [`batch::verdicts_split`] on the widest kernel the CPU has.
    Batch,
    /// [`batch::verdicts_split_with`] on [`Kernel::Portable`].
    BatchPortable,
    /// [`batch::verdicts`]: one [`BoardWord`] per board.
    BatchPacked,
}

/// Text that names no status method.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown status method: expected traditional, paper, masks, table, table-bits, shift, base3, batch, batch-portable or batch-packed"
)]
pub struct ParseMethodError;

/// `$single` with the type alias `$C` naming the method's [`Check`] type, for the seven
/// single-board methods, and `$batch` for the three batch ones: the one place that maps a
/// method to its type.
macro_rules! by_method {
    ($method:expr, $C:ident => $single:expr, batch => $batch:expr) => {
        match $method {
            Method::Traditional => {
                type $C = Traditional;
                $single
            }
            Method::Paper => {
                type $C = Paper;
                $single
            }
            Method::Masks => {
                type $C = Masks;
                $single
            }
            Method::Table => {
                type $C = Table;
                $single
            }
            Method::TableBits => {
                type $C = TableBits;
                $single
            }
            Method::Shift => {
                type $C = Shift;
                $single
            }
            Method::Base3 => {
                type $C = Base3Table;
                $single
            }
            Method::Batch | Method::BatchPortable | Method::BatchPacked => $batch,
        }
    };
}

impl Method {
    /// Every method, in reporting order.
    pub const ALL: [Method; 10] = [
        Method::Traditional,
        Method::Paper,
        Method::Masks,
        Method::Table,
        Method::TableBits,
        Method::Shift,
        Method::Base3,
        Method::Batch,
        Method::BatchPortable,
        Method::BatchPacked,
    ];

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

    /// The name on the command line and in reports.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Method::Traditional => "traditional",
            Method::Paper => "paper",
            Method::Masks => "masks",
            Method::Table => "table",
            Method::TableBits => "table-bits",
            Method::Shift => "shift",
            Method::Base3 => "base3",
            Method::Batch => "batch",
            Method::BatchPortable => "batch-portable",
            Method::BatchPacked => "batch-packed",
        }
    }

    /// Whether the method checks slices rather than one board.
    #[must_use]
    pub const fn is_batch(self) -> bool {
        matches!(
            self,
            Method::Batch | Method::BatchPortable | Method::BatchPacked
        )
    }

    /// Bytes per board of the representation the method reads.
    #[must_use]
    pub const fn state_bytes(self) -> usize {
        by_method!(self, C => C::STATE_BYTES, batch => batch::STATE_BYTES)
    }

    /// Bytes of static tables the method reads.
    #[must_use]
    pub const fn table_bytes(self) -> usize {
        by_method!(self, C => C::TABLE_BYTES, batch => batch::TABLE_BYTES)
    }

    /// The player holding a line on `board` by this method (conversion included).
    #[must_use]
    #[inline]
    pub fn winner(self, board: Board) -> Option<Player> {
        by_method!(
            self,
            C => C::winner(C::prepare(board)),
            batch => self.batch_verdict(board).winner()
        )
    }

    /// Ongoing, won or drawn by this method, or `None` for a method that (as published) only
    /// finds winners (`paper`).
    #[must_use]
    #[inline]
    pub fn status(self, board: Board) -> Option<Status> {
        by_method!(
            self,
            C => C::status(C::prepare(board)),
            batch => Some(self.batch_verdict(board).status())
        )
    }

    /// A batch method's verdict on enough copies of `board` that the wide kernels' vector
    /// loops run, not only their tails.
    fn batch_verdict(self, board: Board) -> Verdict {
        const COPIES: usize = 64;
        let mut out = [Verdict::default(); COPIES];
        if self == Method::BatchPacked {
            batch::verdicts(&[BoardWord::from_board(board); COPIES], &mut out);
        } else {
            let kernel = if self == Method::BatchPortable {
                Kernel::Portable
            } else {
                Kernel::best()
            };
            let (xs, os) = ([board.x().bits(); COPIES], [board.o().bits(); COPIES]);
            batch::verdicts_split_with(kernel, &xs, &os, &mut out);
        }
        out[COPIES - 1]
    }
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Method {
    type Err = ParseMethodError;
    fn from_str(text: &str) -> Result<Method, ParseMethodError> {
        Method::ALL
            .into_iter()
            .find(|method| method.name() == text)
            .ok_or(ParseMethodError)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Position;

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
