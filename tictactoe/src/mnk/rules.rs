//! The rules of one game of the family: board size, line length, gravity.

use core::fmt;
use core::str::FromStr;

use super::Square;

/// The largest number of rows or columns.
pub const MAX_SIDE: u8 = 19;

/// The rules of an m,n,k-game: `rows` × `cols` cells, `k` marks in a row win, and with
/// `gravity` a move names a column and the mark drops to its lowest empty cell.
///
/// A line of `k` **or more** of one player's marks, horizontal, vertical or diagonal, wins and
/// ends the game; a full board without one is a draw; X moves first.
///
/// ```
/// use tictactoe::mnk::Rules;
/// let c4: Rules = "connect-four".parse()?;
/// assert_eq!((c4.rows(), c4.cols(), c4.k(), c4.gravity()), (6, 7, 4, true));
/// assert_eq!(c4, "6,7,4,gravity".parse()?);
/// assert_eq!(c4.to_string(), "connect-four");
/// assert_eq!(Rules::new(4, 4, 4, false)?.to_string(), "4x4");
/// assert_eq!(Rules::new(5, 5, 4, false)?.to_string(), "5,5,4");
/// # Ok::<(), tictactoe::mnk::RulesError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rules {
    /// `rows | cols << 8 | k << 16 | gravity << 24`: one word, so that the presets' fast
    /// paths recognise their rules by one 32-bit compare on every move.
    word: u32,
}

impl fmt::Debug for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Rules")
            .field("rows", &self.rows())
            .field("cols", &self.cols())
            .field("k", &self.k())
            .field("gravity", &self.gravity())
            .finish()
    }
}

/// Why a set of rules or a game spec was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RulesError {
    /// Rows or columns outside 1..=19.
    #[error("{what} must be from 1 to {MAX_SIDE}, got {value}")]
    Side {
        /// `rows` or `cols`.
        what: &'static str,
        /// The value given.
        value: u32,
    },
    /// `k` outside 1..=max(rows, cols).
    #[error("k must be from 1 to {max} (the longer side), got {k}")]
    K {
        /// The value given.
        k: u32,
        /// The longer side.
        max: u8,
    },
    /// Text that is neither a preset name nor `ROWS,COLS,K[,gravity]`.
    #[error(
        "unknown game {spec:?}: expected tic-tac-toe, 4x4, connect-four, gomoku, or ROWS,COLS,K with an optional ,gravity (e.g. 6,7,4,gravity)"
    )]
    Spec {
        /// The text given (at most 40 characters of it).
        spec: heapless_str::Short,
    },
}

/// A short copy of a bad spec, without an allocator.
mod heapless_str {
    use core::fmt;

    /// At most 40 bytes of text, cut at a character boundary.
    #[derive(Clone, Copy, PartialEq, Eq)]
    pub struct Short {
        bytes: [u8; 40],
        len: u8,
    }

    impl Short {
        pub(crate) fn new(text: &str) -> Short {
            let mut len = text.len().min(40);
            while !text.is_char_boundary(len) {
                len -= 1;
            }
            let mut bytes = [0; 40];
            bytes[..len].copy_from_slice(&text.as_bytes()[..len]);
            Short {
                bytes,
                len: len as u8,
            }
        }

        /// The text.
        #[must_use]
        pub fn as_str(&self) -> &str {
            core::str::from_utf8(&self.bytes[..usize::from(self.len)]).unwrap_or("")
        }
    }

    impl fmt::Debug for Short {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            fmt::Debug::fmt(self.as_str(), f)
        }
    }
}

/// A named game of the family.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Preset {
    /// 3 × 3, three in a row.
    TicTacToe,
    /// 4 × 4, four in a row.
    FourByFour,
    /// 6 rows × 7 columns, four in a row, with gravity.
    ConnectFour,
    /// 15 × 15, five or more in a row (freestyle).
    Gomoku,
}

impl Preset {
    /// Every preset.
    pub const ALL: [Preset; 4] = [
        Preset::TicTacToe,
        Preset::FourByFour,
        Preset::ConnectFour,
        Preset::Gomoku,
    ];

    /// The name a spec uses: `tic-tac-toe`, `4x4`, `connect-four`, `gomoku`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Preset::TicTacToe => "tic-tac-toe",
            Preset::FourByFour => "4x4",
            Preset::ConnectFour => "connect-four",
            Preset::Gomoku => "gomoku",
        }
    }

    /// The rules it names.
    #[must_use]
    pub const fn rules(self) -> Rules {
        match self {
            Preset::TicTacToe => Rules::TIC_TAC_TOE,
            Preset::FourByFour => Rules::FOUR_BY_FOUR,
            Preset::ConnectFour => Rules::CONNECT_FOUR,
            Preset::Gomoku => Rules::GOMOKU,
        }
    }
}

impl fmt::Display for Preset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Rules {
    /// Tic-tac-toe: (3,3,3).
    pub const TIC_TAC_TOE: Rules = Rules::preset(3, 3, 3, false);
    /// 4 × 4, four in a row: (4,4,4).
    pub const FOUR_BY_FOUR: Rules = Rules::preset(4, 4, 4, false);
    /// Connect Four: 6 rows, 7 columns, four in a row, gravity.
    pub const CONNECT_FOUR: Rules = Rules::preset(6, 7, 4, true);
    /// Freestyle gomoku: (15,15,5), five or more in a row.
    pub const GOMOKU: Rules = Rules::preset(15, 15, 5, false);

    const fn preset(rows: u8, cols: u8, k: u8, gravity: bool) -> Rules {
        Rules {
            word: rows as u32 | (cols as u32) << 8 | (k as u32) << 16 | (gravity as u32) << 24,
        }
    }

    /// Checked rules: `rows` and `cols` from 1 to 19, `k` from 1 to the longer side.
    ///
    /// # Errors
    /// [`RulesError::Side`] or [`RulesError::K`] for a value out of range.
    pub const fn new(rows: u32, cols: u32, k: u32, gravity: bool) -> Result<Rules, RulesError> {
        if rows == 0 || rows > MAX_SIDE as u32 {
            return Err(RulesError::Side {
                what: "rows",
                value: rows,
            });
        }
        if cols == 0 || cols > MAX_SIDE as u32 {
            return Err(RulesError::Side {
                what: "cols",
                value: cols,
            });
        }
        let max = if rows > cols { rows } else { cols } as u8;
        if k == 0 || k > max as u32 {
            return Err(RulesError::K { k, max });
        }
        Ok(Rules::preset(rows as u8, cols as u8, k as u8, gravity))
    }

    /// Whether `self` and `other` are the same rules: one 32-bit compare, which the presets'
    /// fast paths ask on every move.
    #[must_use]
    #[inline(always)]
    pub(crate) const fn is(self, other: Rules) -> bool {
        self.word == other.word
    }

    /// Rows (top to bottom in text).
    #[must_use]
    #[inline]
    pub const fn rows(self) -> u32 {
        self.word & 0xff
    }

    /// Columns.
    #[must_use]
    #[inline]
    pub const fn cols(self) -> u32 {
        (self.word >> 8) & 0xff
    }

    /// Marks in a row that win (or more).
    #[must_use]
    #[inline]
    pub const fn k(self) -> u32 {
        (self.word >> 16) & 0xff
    }

    /// Whether a mark drops to the lowest empty cell of the column named by the move.
    #[must_use]
    #[inline]
    pub const fn gravity(self) -> bool {
        self.word >> 24 != 0
    }

    /// `rows × cols`.
    #[must_use]
    #[inline]
    pub const fn cells(self) -> u32 {
        self.rows() * self.cols()
    }

    /// How many moves there are: a column each with gravity, a cell each without.
    #[must_use]
    #[inline]
    pub const fn actions(self) -> u32 {
        if self.gravity() {
            self.cols()
        } else {
            self.cells()
        }
    }

    /// Whether rows and columns are equal.
    #[must_use]
    #[inline]
    pub const fn is_square(self) -> bool {
        self.rows() == self.cols()
    }

    /// The preset these rules are, if any.
    #[must_use]
    pub fn preset_name(self) -> Option<Preset> {
        Preset::ALL.into_iter().find(|p| p.rules() == self)
    }

    /// Bits per column in the bitboards: the rows and one empty guard bit above them.
    #[must_use]
    #[inline]
    pub const fn stride(self) -> u32 {
        self.rows() + 1
    }

    /// Bits a bitboard spans: `cols × (rows + 1)`, at most 380.
    #[must_use]
    #[inline]
    pub const fn bits(self) -> u32 {
        self.cols() * self.stride()
    }

    /// 64-bit words a bitboard needs: 1 for Connect Four, 4 for gomoku, 6 for 19 × 19.
    #[must_use]
    #[inline]
    pub const fn words(self) -> usize {
        self.bits().div_ceil(64) as usize
    }

    /// The square at `row` (0 at the top) and `col` (0 at the left), if on the board.
    #[must_use]
    #[inline]
    pub const fn square(self, row: u32, col: u32) -> Option<Square> {
        if row < self.rows() && col < self.cols() {
            Some(Square::new(row as u8, col as u8))
        } else {
            None
        }
    }

    /// The square of cell index `index = row × cols + col` (row 0 at the top), if on the board.
    #[must_use]
    #[inline]
    pub const fn square_at(self, index: u32) -> Option<Square> {
        if index < self.cells() {
            Some(Square::new(
                (index / self.cols()) as u8,
                (index % self.cols()) as u8,
            ))
        } else {
            None
        }
    }

    /// Cell index `row × cols + col` of a square (row 0 at the top).
    #[must_use]
    #[inline]
    pub const fn index(self, square: Square) -> u32 {
        square.row() * self.cols() + square.col()
    }

    /// The bit of `square` in a bitboard: column-major, row 0 of a column at the bottom.
    #[must_use]
    #[inline]
    pub const fn bit(self, square: Square) -> u32 {
        square.col() * self.stride() + (self.rows() - 1 - square.row())
    }

    /// The square of bitboard bit `bit`, if it is a cell (not a guard bit, not past the end).
    #[must_use]
    #[inline]
    pub const fn square_of_bit(self, bit: u32) -> Option<Square> {
        let (col, up) = (bit / self.stride(), bit % self.stride());
        if col < self.cols() && up < self.rows() {
            Some(Square::new((self.rows() - 1 - up) as u8, col as u8))
        } else {
            None
        }
    }

    /// The bitboard shifts of the four directions: up a column (1), across a row
    /// (`rows + 1`), and the two diagonals (`rows + 2`, `rows`).
    #[must_use]
    #[inline]
    pub const fn directions(self) -> [u32; 4] {
        let s = self.stride();
        [1, s, s + 1, s - 1]
    }
}

impl fmt::Display for Rules {
    /// The preset's name if there is one, else `ROWS,COLS,K` with `,gravity` when on.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.preset_name() {
            Some(preset) => f.write_str(preset.name()),
            None => {
                write!(f, "{},{},{}", self.rows(), self.cols(), self.k())?;
                if self.gravity() {
                    f.write_str(",gravity")?;
                }
                Ok(())
            }
        }
    }
}

impl FromStr for Rules {
    type Err = RulesError;

    /// A preset name (`tic-tac-toe`, `tictactoe`, `ttt`, `4x4`, `connect-four`, `connect4`,
    /// `gomoku`; any case, `_` for `-`) or `ROWS,COLS,K` with an optional `,gravity`.
    fn from_str(text: &str) -> Result<Rules, RulesError> {
        let spec = text.trim();
        let bad = || RulesError::Spec {
            spec: heapless_str::Short::new(text),
        };
        let mut name = [0u8; 16];
        if spec.len() <= name.len() {
            for (slot, byte) in name.iter_mut().zip(spec.bytes()) {
                *slot = match byte.to_ascii_lowercase() {
                    b'_' => b'-',
                    other => other,
                };
            }
            let name = &name[..spec.len()];
            let preset = match name {
                b"tic-tac-toe" | b"tictactoe" | b"ttt" => Some(Preset::TicTacToe),
                b"4x4" => Some(Preset::FourByFour),
                b"connect-four" | b"connect4" | b"connectfour" => Some(Preset::ConnectFour),
                b"gomoku" => Some(Preset::Gomoku),
                _ => None,
            };
            if let Some(preset) = preset {
                return Ok(preset.rules());
            }
        }
        let mut parts = spec.split(',').map(str::trim);
        let mut number = || -> Result<u32, RulesError> {
            let part = parts.next().ok_or_else(bad)?;
            if part.is_empty() || part.len() > 3 || !part.bytes().all(|b| b.is_ascii_digit()) {
                return Err(bad());
            }
            part.parse().map_err(|_| bad())
        };
        let (rows, cols, k) = (number()?, number()?, number()?);
        let gravity = match parts.next() {
            None => false,
            Some(word) if word.eq_ignore_ascii_case("gravity") => true,
            Some(_) => return Err(bad()),
        };
        if parts.next().is_some() {
            return Err(bad());
        }
        Rules::new(rows, cols, k, gravity)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_parse_and_print() {
        for preset in Preset::ALL {
            let rules: Rules = preset.name().parse().unwrap();
            assert_eq!(rules, preset.rules());
            assert_eq!(rules.to_string(), preset.name());
        }
        assert_eq!(
            "Connect_Four".parse::<Rules>().unwrap(),
            Rules::CONNECT_FOUR
        );
        assert_eq!(" 3, 3 ,3 ".parse::<Rules>().unwrap(), Rules::TIC_TAC_TOE);
        assert_eq!("15,15,5".parse::<Rules>().unwrap(), Rules::GOMOKU);
        let r: Rules = "5,4,4,GRAVITY".parse().unwrap();
        assert_eq!((r.rows(), r.cols(), r.k(), r.gravity()), (5, 4, 4, true));
        assert_eq!(r.to_string(), "5,4,4,gravity");
    }

    #[test]
    fn bad_specs_say_why() {
        for bad in [
            "",
            "chess",
            "3,3",
            "3,3,3,3",
            "3,3,3,gravity,x",
            "a,b,c",
            "-1,3,3",
            "3,,3",
        ] {
            assert!(
                matches!(bad.parse::<Rules>(), Err(RulesError::Spec { .. })),
                "{bad}"
            );
        }
        assert_eq!(
            "20,3,3".parse::<Rules>(),
            Err(RulesError::Side {
                what: "rows",
                value: 20
            })
        );
        assert_eq!(
            "3,0,3".parse::<Rules>(),
            Err(RulesError::Side {
                what: "cols",
                value: 0
            })
        );
        assert_eq!(
            "3,4,5".parse::<Rules>(),
            Err(RulesError::K { k: 5, max: 4 })
        );
        let long = "x".repeat(100);
        let err = long.parse::<Rules>().unwrap_err();
        let RulesError::Spec { spec } = err else {
            panic!("{err:?}")
        };
        assert_eq!(spec.as_str().len(), 40);
    }

    #[test]
    fn bits_and_squares_agree() {
        for rules in [Rules::TIC_TAC_TOE, Rules::CONNECT_FOUR, Rules::GOMOKU] {
            for index in 0..rules.cells() {
                let square = rules.square_at(index).unwrap();
                assert_eq!(rules.index(square), index);
                assert_eq!(rules.square_of_bit(rules.bit(square)), Some(square));
            }
            assert_eq!(rules.square_at(rules.cells()), None);
        }
        assert_eq!(Rules::CONNECT_FOUR.words(), 1);
        assert_eq!(Rules::GOMOKU.words(), 4);
        assert_eq!(Rules::new(19, 19, 5, false).unwrap().words(), 6);
    }
}
