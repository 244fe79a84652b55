//! [`Check`]: the contract every status method type follows (public as `lab::Check`).

use super::Method;
use crate::{Board, Player, Status};

/// A status method: a representation of the board and a check on it.
///
/// `prepare` converts a [`Board`] into the method's representation and is *not* part of
/// the check; whatever a method converts inside [`winner`](Check::winner) (as `paper` does)
/// is.
pub trait Check {
    /// The method, as [`Method`] names it.
    const METHOD: Method;
    /// The representation the check reads.
    type State: Copy;
    /// Bytes per board of [`State`](Check::State).
    const STATE_BYTES: usize = core::mem::size_of::<Self::State>();
    /// Bytes of static tables the check reads.
    const TABLE_BYTES: usize;

    /// The board in this method's representation.
    #[must_use]
    fn prepare(board: Board) -> Self::State;

    /// The player holding a line, if any.
    #[must_use]
    fn winner(state: Self::State) -> Option<Player>;

    /// Ongoing, won or drawn, or `None` when the method (as published) only finds winners.
    #[must_use]
    fn status(state: Self::State) -> Option<Status>;
}
