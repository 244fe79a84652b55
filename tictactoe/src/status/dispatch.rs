//! What each [`Method`] runs: the one place that maps a method to its [`Check`] type or to the
//! batch kernels. Apart from `method.rs` so that the checks can name their method without
//! importing the file that imports them.

use super::batch::{self, Kernel};
use super::{
    Base3Table, BoardWord, Check, Masks, Method, Paper, Shift, Table, TableBits, Traditional,
    Verdict,
};
use crate::{Board, Player, Status};

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
    /// finds winners.
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
