//! Every code of a board, shared by `encode`, `decode` and `analyze`: the codes themselves,
//! the board as nine characters for JSON, and the reason the count rank refuses a board.

use serde::{Serialize, Serializer};
use tictactoe::encoding::{Base3, Base4, BitboardPair, CountRank, Oriented, Rank};
use tictactoe::{Board, InvalidBoard, Player, Position};

/// A board serialized as its nine characters, without allocating.
#[derive(Clone, Copy, Debug)]
pub struct Text(pub Board);

impl Serialize for Text {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        // The nine ASCII bytes directly: `Display` and its formatter machinery took about a tenth
        // of `analyze --json` in a profile.
        let chars = self.0.to_chars();
        let text = std::str::from_utf8(&chars).map_err(serde::ser::Error::custom)?;
        serializer.serialize_str(text)
    }
}

/// Every code of one board; the ranks only when it is a reachable position.
#[derive(Clone, Copy, Debug)]
pub struct Codes {
    pub base4: Base4,
    pub base3: Base3,
    pub bitboards: BitboardPair,
    /// `None` when the piece counts are impossible.
    pub count_rank: Option<CountRank>,
    /// The codes of a position, or every rule the board breaks.
    pub ranks: Result<Ranks, InvalidBoard>,
}

/// The codes only a reachable position has.
#[derive(Clone, Copy, Debug)]
pub struct Ranks {
    pub rank: Rank,
    /// Class and symmetry: the canonical code is the class.
    pub oriented: Oriented,
}

impl Codes {
    /// All codes of `board`.
    #[must_use]
    pub fn of(board: Board) -> Codes {
        Codes {
            base4: Base4::from_board(board),
            base3: Base3::from_board(board),
            bitboards: BitboardPair::from_board(board),
            count_rank: CountRank::try_from_board(board).ok(),
            ranks: Position::try_from(board).map(|position| Ranks {
                rank: Rank::from_position(position),
                oriented: Oriented::from_position(position),
            }),
        }
    }

    /// The exact rank.
    #[must_use]
    pub fn rank(&self) -> Option<u16> {
        self.ranks.ok().map(|r| r.rank.code())
    }

    /// The canonical (class) code.
    #[must_use]
    pub fn canonical(&self) -> Option<u16> {
        self.ranks.ok().map(|r| r.oriented.class().code())
    }

    /// The name of the symmetry carrying the class representative onto the board.
    #[must_use]
    pub fn symmetry(&self) -> Option<&'static str> {
        self.ranks.ok().map(|r| r.oriented.symmetry().name())
    }
}

/// Why the count rank cannot hold a board.
pub fn impossible_counts(board: Board) -> String {
    format!(
        "impossible piece counts: {} X and {} O, but X moves first so has as many marks as O or one more",
        board.count(Player::X),
        board.count(Player::O)
    )
}

/// Every code of a board as JSON, the same object in `encode` (flattened beside `board`) and in
/// `analyze` (its `codes`): null where the board cannot have the code.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct CodesJson {
    pub base4: u32,
    pub base3: u16,
    pub bitboards: u32,
    pub count_rank: Option<u16>,
    pub rank: Option<u16>,
    pub canonical: Option<u16>,
    pub symmetry: Option<&'static str>,
    pub oriented: Option<u16>,
}

impl CodesJson {
    /// The codes of `board`.
    #[must_use]
    pub fn of(board: Board) -> CodesJson {
        let codes = Codes::of(board);
        CodesJson {
            base4: codes.base4.code(),
            base3: codes.base3.code(),
            bitboards: codes.bitboards.code(),
            count_rank: codes.count_rank.map(CountRank::code),
            rank: codes.rank(),
            canonical: codes.canonical(),
            symmetry: codes.symmetry(),
            oriented: codes.ranks.ok().map(|r| r.oriented.code()),
        }
    }
}
