//! Game codes: whole move sequences as integers, both exact bijections.
//!
//! | type | bits | codes | what it holds |
//! |---|---|---|---|
//! | [`GameCode`] | 18 | `0..255,168` | a complete game (won or drawn), `2^17 < 255,168 <= 2^18` |
//! | [`PrefixCode`] | 20 | `0..549,946` | any game, finished or not, the empty game included, `2^19 < 549,946 <= 2^20` |
//!
//! # Construction
//!
//! Order the game tree with the children of each position in increasing cell order.
//! A [`PrefixCode`] is a game's index in *preorder* (a game before its continuations), and a
//! [`GameCode`] is a complete game's index among the leaves in the same order. Both are sums
//! of subtree sizes along the game's path: at each move, add the sizes of the subtrees of the
//! smaller legal cells (and, for prefixes, 1 for the node itself):
//!
//! ```text
//! prefix(m1..mk) = sum over i of [ 1 + sum over legal c < mi of nodes(child c) ]
//! game(m1..mk)   = sum over i of [     sum over legal c < mi of games(child c) ]
//! ```
//!
//! Decoding walks down the tree, subtracting subtree sizes until the remainder falls inside
//! one. The sizes depend only on the position, so they sit in two tables indexed by [`Rank`],
//! built by a `const fn` retrograde pass (children before parents, as in
//! [`solver`](crate::solver)). Below the empty board no subtree holds more than 63,905 nodes,
//! so `u16` entries suffice (the build checks it); the whole tree's totals are two `u32`:
//!
//! | table | entries | bytes |
//! |---|---|---|
//! | `nodes`: game-tree nodes below and including each position | 5,478 x u16 | 10,956 |
//! | `games`: complete games below each position | 5,478 x u16 | 10,956 |
//! | totals of the whole tree | 2 x u32 | 8 |
//!
//! Cost: at most 9 moves x 8 smaller siblings, each a move, a [`Rank`] and a lookup.

use super::Game;
use crate::choice::choice_enum;
use crate::encoding::Rank;
use crate::encoding::rank::RankIndex;
use crate::{Cell, Position};

choice_enum! {
/// Which game code: [`GameCode`] or [`PrefixCode`].
///
/// ```
/// use tictactoe::game::CodeKind;
/// assert_eq!("prefix".parse::<CodeKind>()?, CodeKind::Prefix);
/// assert_eq!(CodeKind::Game.to_string(), "game");
/// assert!("games".parse::<CodeKind>().is_err());
/// # Ok::<(), tictactoe::game::ParseCodeKindError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CodeKind {
    /// [`GameCode`]: a complete game, 18 bits.
    Game = "game",
    /// [`PrefixCode`]: any game, finished or not, 20 bits.
    Prefix = "prefix",
}
parse_error: |_text| -> ParseCodeKindError { ParseCodeKindError }
}

/// Text that names no game code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown game code: expected game or prefix")]
pub struct ParseCodeKindError;

impl CodeKind {
    /// Codes lie in `0..count()`, and every one of them decodes.
    #[must_use]
    pub const fn count(self) -> u32 {
        match self {
            CodeKind::Game => GameCode::COUNT,
            CodeKind::Prefix => PrefixCode::COUNT,
        }
    }

    /// `code` when it is below [`count`](Self::count), else the error naming this kind.
    const fn check(self, code: u32) -> Result<u32, CodeError> {
        if code < self.count() {
            Ok(code)
        } else {
            Err(CodeError { kind: self, code })
        }
    }

    /// Bits needed to store any code.
    #[must_use]
    pub const fn bits(self) -> u32 {
        match self {
            CodeKind::Game => GameCode::BITS,
            CodeKind::Prefix => PrefixCode::BITS,
        }
    }
}

/// An integer that is not a game code: every code below the count decodes, so the only
/// reason is the range.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{kind} code {code} is invalid: out of range (codes are 0 to {})", kind.count() - 1)]
pub struct CodeError {
    /// Which game code.
    pub kind: CodeKind,
    /// The rejected code.
    pub code: u32,
}

/// A complete game as its index among all 255,168 complete games.
///
/// ```
/// use tictactoe::{Game, game::GameCode};
/// let won: Game = "03142".parse()?;
/// let code = GameCode::from_game(&won).expect("won games have a code");
/// assert_eq!(code.to_game(), won);
/// assert_eq!(GameCode::from_game(&"04".parse()?), None); // not finished
/// assert!(GameCode::try_from(255_168).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct GameCode(u32);

/// Any game, complete or not, as its preorder index among all 549,946 games.
///
/// ```
/// use tictactoe::{Game, game::PrefixCode};
/// assert_eq!(PrefixCode::from_game(&Game::EMPTY).code(), 0);
/// assert_eq!(PrefixCode::from_game(&"0".parse()?).code(), 1);
/// let game: Game = "40".parse()?;
/// assert_eq!(PrefixCode::from_game(&game).to_game(), game);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PrefixCode(u32);

/// Subtree sizes by [`Rank`]. Below the empty board every subtree is small (at most 63,905
/// nodes and 29,592 complete games, after a first move on an edge), so they fit in `u16`; the
/// totals of the whole tree are kept apart.
struct Subtrees {
    nodes: [u16; Rank::COUNT as usize],
    games: [u16; Rank::COUNT as usize],
    total_nodes: u32,
    total_games: u32,
}

static SUBTREES: Subtrees = {
    let index = RankIndex::build();
    // Summed in u32, then narrowed after a check (a failed check stops the build).
    let mut nodes = [0u32; Rank::COUNT as usize];
    let mut games = [0u32; Rank::COUNT as usize];
    let mut table = Subtrees {
        nodes: [0; Rank::COUNT as usize],
        games: [0; Rank::COUNT as usize],
        total_nodes: 0,
        total_games: 0,
    };
    let mut rank = Rank::COUNT as usize;
    while rank > 0 {
        rank -= 1;
        let position = Position::from_board_unchecked(index.boards[rank]);
        (nodes[rank], games[rank]) = (1, 0);
        if position.status().is_finished() {
            games[rank] = 1;
        } else {
            let children = index.child_ranks(rank);
            let mut cell = 0;
            while cell < 9 {
                if children[cell] != u16::MAX {
                    nodes[rank] += nodes[children[cell] as usize];
                    games[rank] += games[children[cell] as usize];
                }
                cell += 1;
            }
        }
        if rank > 0 {
            assert!(nodes[rank] <= u16::MAX as u32 && games[rank] <= u16::MAX as u32);
            table.nodes[rank] = nodes[rank] as u16;
            table.games[rank] = games[rank] as u16;
        }
    }
    table.total_nodes = nodes[0];
    table.total_games = games[0];
    table
};

/// Bytes of the two subtree-size tables and the two totals.
pub(crate) const TABLE_BYTES: usize = core::mem::size_of::<Subtrees>();

/// Game-tree nodes in the subtree of `position`, itself included.
fn nodes(position: Position) -> u32 {
    match Rank::from_position(position).code() as usize {
        0 => SUBTREES.total_nodes,
        rank => SUBTREES.nodes[rank].into(),
    }
}

/// Complete games in the subtree of `position`.
fn games(position: Position) -> u32 {
    match Rank::from_position(position).code() as usize {
        0 => SUBTREES.total_games,
        rank => SUBTREES.games[rank].into(),
    }
}

/// Sum over the moves of `game` of `per_node` plus `size` of the smaller siblings' subtrees.
fn rank_path(game: &Game, per_node: u32, size: fn(Position) -> u32) -> u32 {
    let mut position = Position::EMPTY;
    let mut code = 0;
    for cell in game.moves() {
        code += per_node;
        for (sibling, child) in position.children() {
            if sibling >= cell {
                break;
            }
            code += size(child);
        }
        position = position.play_unchecked(cell);
    }
    code
}

/// The child of `position` whose subtree holds remainder `code`, and the remainder inside it.
fn descend(position: Position, mut code: u32, size: fn(Position) -> u32) -> Option<(Cell, u32)> {
    for (cell, child) in position.children() {
        let below = size(child);
        if code < below {
            return Some((cell, code));
        }
        code -= below;
    }
    None
}

impl GameCode {
    /// Which encoding this is.
    pub const KIND: CodeKind = CodeKind::Game;
    /// `2^17 < 255,168 <= 2^18`.
    pub const BITS: u32 = 18;
    /// Complete games, counted by the table.
    pub const COUNT: u32 = SUBTREES.total_games;

    /// The code of a complete game, or `None` while it is not finished.
    #[must_use]
    pub fn from_game(game: &Game) -> Option<GameCode> {
        game.status()
            .is_finished()
            .then(|| GameCode(rank_path(game, 0, games)))
    }

    /// The game of the code.
    #[must_use]
    pub fn to_game(self) -> Game {
        let mut game = Game::EMPTY;
        let mut code = self.0;
        while let Some((cell, rest)) = descend(game.position(), code, games) {
            game.push_unchecked(cell);
            code = rest;
        }
        game
    }

    /// The integer, below 255,168.
    #[must_use]
    pub const fn code(self) -> u32 {
        self.0
    }
}

impl TryFrom<u32> for GameCode {
    type Error = CodeError;
    fn try_from(code: u32) -> Result<GameCode, CodeError> {
        GameCode::KIND.check(code).map(GameCode)
    }
}

impl PrefixCode {
    /// Which encoding this is.
    pub const KIND: CodeKind = CodeKind::Prefix;
    /// `2^19 < 549,946 <= 2^20`.
    pub const BITS: u32 = 20;
    /// Games of any length, the empty game included, counted by the table.
    pub const COUNT: u32 = SUBTREES.total_nodes;

    /// The code of any game.
    #[must_use]
    pub fn from_game(game: &Game) -> PrefixCode {
        PrefixCode(rank_path(game, 1, nodes))
    }

    /// The game of the code.
    #[must_use]
    pub fn to_game(self) -> Game {
        let mut game = Game::EMPTY;
        let mut code = self.0;
        // Code 0 below a node is the node itself; the children's subtrees follow.
        while code > 0 {
            let Some((cell, rest)) = descend(game.position(), code - 1, nodes) else {
                break;
            };
            game.push_unchecked(cell);
            code = rest;
        }
        game
    }

    /// The integer, below 549,946.
    #[must_use]
    pub const fn code(self) -> u32 {
        self.0
    }
}

impl TryFrom<u32> for PrefixCode {
    type Error = CodeError;
    fn try_from(code: u32) -> Result<PrefixCode, CodeError> {
        PrefixCode::KIND.check(code).map(PrefixCode)
    }
}

const _: () = assert!(GameCode::COUNT <= 1 << GameCode::BITS);
const _: () = assert!(PrefixCode::COUNT <= 1 << PrefixCode::BITS);

#[cfg(test)]
mod tests {
    use super::*;

    /// Every game in preorder, children in cell order: the order both codes are defined by.
    fn preorder(game: &mut Game, out: &mut Vec<Game>) {
        out.push(*game);
        for cell in game.position().legal_moves() {
            let mut next = *game;
            next.push_unchecked(cell);
            preorder(&mut next, out);
        }
    }

    #[test]
    fn codes_are_the_preorder_indices_of_every_game() {
        let mut all = Vec::new();
        preorder(&mut Game::new(), &mut all);
        assert_eq!(all.len(), 549_946);
        assert_eq!(PrefixCode::COUNT as usize, all.len());
        let mut complete = 0u32;
        for (index, game) in all.iter().enumerate() {
            let prefix = PrefixCode::from_game(game);
            assert_eq!(prefix.code() as usize, index, "{game}");
            assert_eq!(
                PrefixCode::try_from(prefix.code()).map(PrefixCode::to_game),
                Ok(*game)
            );
            match GameCode::from_game(game) {
                Some(code) => {
                    assert_eq!(code.code(), complete, "{game}");
                    assert_eq!(
                        GameCode::try_from(complete).map(GameCode::to_game),
                        Ok(*game)
                    );
                    complete += 1;
                }
                None => assert!(!game.status().is_finished()),
            }
        }
        assert_eq!(complete, 255_168);
        assert_eq!(GameCode::COUNT, complete);
        assert!(GameCode::try_from(complete).is_err());
        assert_eq!(
            PrefixCode::try_from(549_946).unwrap_err().to_string(),
            "prefix code 549946 is invalid: out of range (codes are 0 to 549945)"
        );
        assert_eq!(TABLE_BYTES, 21_920);
    }
}
