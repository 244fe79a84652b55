//! The one width dispatch of the family: which bitboard width a game runs at, and how code
//! written once for every width `W` is run at the width the rules need.
//!
//! A family board is a [`Bits<W>`](super::bits::Bits) per player, `W` 64-bit words, and `W` is
//! a const generic: the compiler makes one copy of the engine per width. The family uses four
//! widths, 1, 2, 4 and 6 words ([`WIDTHS`]), and a game runs at the narrowest that holds its
//! bits ([`width`]: tic-tac-toe and Connect Four 1, 8 × 8 2, gomoku 4, 19 × 19 6). Code that
//! reads the game at run time picks the copy here, and only here:
//!
//! - [`for_width!`](crate::for_width) runs a block with a `const` bound to the width of some
//!   rules;
//! - [`each_width!`](crate::each_width) runs a block on the value inside an enum with one
//!   variant per width (`W1`, `W2`, `W4`, `W6`: [`AnyBoard`](super::AnyBoard),
//!   [`AnyPosition`](super::AnyPosition), and the Python binding's own), optionally with the
//!   width as a `const`;
//! - [`width_enum!`](crate::width_enum) declares such an enum, with a `From` for each width;
//! - [`Pick`] reaches one of four values kept side by side, one per width (a search's tables).
//!
//! ```
//! use tictactoe::for_width;
//! use tictactoe::mnk::{Position, Rules, width};
//! let rules = Rules::GOMOKU;
//! assert_eq!(width(rules), 4);
//! let legal = for_width!(rules, W => Position::<W>::new(rules).map(|p| p.legal_count()));
//! assert_eq!(legal, Ok(225));
//! ```

use super::Rules;

/// The widths the family runs at, in words of 64 bits.
pub const WIDTHS: [usize; 4] = [1, 2, 4, 6];

/// The narrowest of [`WIDTHS`] that holds a board of `rules`.
#[must_use]
#[inline]
pub const fn width(rules: Rules) -> usize {
    match rules.words() {
        0 | 1 => 1,
        2 => 2,
        3 | 4 => 4,
        _ => 6,
    }
}

/// `$body` with the `const $w: usize` set to [`width`]`($rules)`, so that the body, written
/// once, runs the copy of the engine of that width.
///
/// ```
/// use tictactoe::for_width;
/// use tictactoe::mnk::{Board, Rules};
/// let words = for_width!(Rules::CONNECT_FOUR, W => Board::<W>::empty(Rules::CONNECT_FOUR).map(|_| W));
/// assert_eq!(words, Ok(1));
/// ```
#[macro_export]
macro_rules! for_width {
    ($rules:expr, $w:ident => $body:expr) => {
        match $crate::mnk::width($rules) {
            1 => {
                const $w: usize = 1;
                $body
            }
            2 => {
                const $w: usize = 2;
                $body
            }
            4 => {
                const $w: usize = 4;
                $body
            }
            _ => {
                const $w: usize = 6;
                $body
            }
        }
    };
}

/// `$body` with `$v` bound to the value inside `$value`, an enum `$any` of the variants `W1`,
/// `W2`, `W4` and `W6` (see [`width_enum!`](crate::width_enum)), and, when given, the
/// `const $w: usize` set to the variant's width.
///
/// ```
/// use tictactoe::each_width;
/// use tictactoe::mnk::{AnyPosition, Rules};
/// let position = AnyPosition::new(Rules::GOMOKU);
/// assert_eq!(each_width!(AnyPosition, &position, p, W => (p.legal_count(), W)), (225, 4));
/// ```
#[macro_export]
macro_rules! each_width {
    ($any:ident, $value:expr, $v:ident $(, $w:ident)? => $body:expr) => {
        match $value {
            $any::W1($v) => {
                $(const $w: usize = 1;)?
                $body
            }
            $any::W2($v) => {
                $(const $w: usize = 2;)?
                $body
            }
            $any::W4($v) => {
                $(const $w: usize = 4;)?
                $body
            }
            $any::W6($v) => {
                $(const $w: usize = 6;)?
                $body
            }
        }
    };
}

/// Declares `enum $name { W1($inner<1>), W2($inner<2>), W4($inner<4>), W6($inner<6>) }` with a
/// `From<$inner<W>>` for each width, so that a body of [`for_width!`](crate::for_width) or
/// [`each_width!`](crate::each_width) makes the variant of its width with `$name::from`.
#[macro_export]
macro_rules! width_enum {
    ($(#[$meta:meta])* $vis:vis enum $name:ident($inner:ident)) => {
        $(#[$meta])*
        #[allow(missing_docs)]
        $vis enum $name {
            W1($inner<1>),
            W2($inner<2>),
            W4($inner<4>),
            W6($inner<6>),
        }

        $crate::width_enum!(@from $name, $inner, W1 1, W2 2, W4 4, W6 6);
    };
    (@from $name:ident, $inner:ident, $($variant:ident $w:literal),*) => {
        $(
            impl ::core::convert::From<$inner<$w>> for $name {
                #[inline]
                fn from(value: $inner<$w>) -> $name {
                    $name::$variant(value)
                }
            }
        )*
    };
}

/// One of four values kept side by side, one per width (`(A, B, C, D)` for widths 1, 2, 4 and
/// 6), reached by the width: in a body of [`each_width!`](crate::each_width),
/// `Pick::<W>::pick(&mut tables)` is the table of the body's width.
pub trait Pick<const W: usize> {
    /// The value of width `W`.
    type Value;
    /// The value of width `W`.
    fn pick(&mut self) -> &mut Self::Value;
}

macro_rules! pick {
    ($($w:literal => $index:tt: $ty:ident),*) => {
        $(
            impl<A, B, C, D> Pick<$w> for (A, B, C, D) {
                type Value = $ty;
                #[inline]
                fn pick(&mut self) -> &mut $ty {
                    &mut self.$index
                }
            }
        )*
    };
}

pick!(1 => 0: A, 2 => 1: B, 4 => 2: C, 6 => 3: D);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_width_is_the_narrowest_that_holds_the_board() {
        for rows in 1..=19 {
            for cols in 1..=19 {
                let rules = Rules::new(rows, cols, 1, false).unwrap();
                let w = width(rules);
                assert!(WIDTHS.contains(&w));
                assert!(rules.words() <= w, "{rules}: {w}");
                let narrower = WIDTHS.iter().rev().find(|&&n| n < w);
                assert!(narrower.is_none_or(|&n| rules.words() > n), "{rules}: {w}");
                assert_eq!(for_width!(rules, W => W), w);
            }
        }
    }
}
