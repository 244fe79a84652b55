//! The two players.

use core::fmt;

/// A player. X moves first.
///
/// ```
/// use tictactoe::Player;
/// assert_eq!(Player::X.opponent(), Player::O);
/// assert_eq!(Player::O.to_char(), 'O');
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Player {
    /// The first player.
    X,
    /// The second player.
    O,
}

impl Player {
    /// Both players, X first.
    pub const BOTH: [Player; 2] = [Player::X, Player::O];

    /// The other player.
    #[must_use]
    #[inline]
    pub const fn opponent(self) -> Player {
        match self {
            Player::X => Player::O,
            Player::O => Player::X,
        }
    }

    /// `'X'` or `'O'`.
    #[must_use]
    #[inline]
    pub const fn to_char(self) -> char {
        match self {
            Player::X => 'X',
            Player::O => 'O',
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_char())
    }
}
