//! Exhaustive verification of the library against independent, slow references.
//!
//! Nothing here trusts the code under test to define what is right: reachability comes from
//! playing every game on raw [`Board`]s, the rules (docs/encodings.md#validity-rules) are
//! restated cell by cell, the symmetry classes come from coordinate maps written out below, and
//! the counts (docs/encodings.md#counts) are recomputed from those references before being
//! compared with the published figures.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use tictactoe::encoding::{
    Base3, Base4, BitboardPair, Canonical, CountRank, DecodeError, DecodeReason, Encoding,
    Oriented, Rank,
};
use tictactoe::{Board, Cell, Player, Position, Status, Symmetry};

// ---------------------------------------------------------------------------------------------
// Slow references
// ---------------------------------------------------------------------------------------------

/// Marks of `player`, counted cell by cell.
fn marks_of(board: Board, player: Player) -> usize {
    Cell::ALL
        .iter()
        .filter(|&&cell| board.at(cell) == Some(player))
        .count()
}

/// The eight lines as (row, column) triples, written out by hand.
const LINES: [[(u8, u8); 3]; 8] = [
    [(0, 0), (0, 1), (0, 2)],
    [(1, 0), (1, 1), (1, 2)],
    [(2, 0), (2, 1), (2, 2)],
    [(0, 0), (1, 0), (2, 0)],
    [(0, 1), (1, 1), (2, 1)],
    [(0, 2), (1, 2), (2, 2)],
    [(0, 0), (1, 1), (2, 2)],
    [(0, 2), (1, 1), (2, 0)],
];

fn cell_at(row: u8, column: u8) -> Cell {
    Cell::new(row * 3 + column).expect("row and column below 3")
}

/// The complete lines of `player`, as sets of cell indices.
fn lines_of(board: Board, player: Player) -> Vec<BTreeSet<u8>> {
    LINES
        .iter()
        .filter(|line| {
            line.iter()
                .all(|&(r, c)| board.at(cell_at(r, c)) == Some(player))
        })
        .map(|line| line.iter().map(|&(r, c)| r * 3 + c).collect())
        .collect()
}

/// Whether some cell lies on every line in `lines` (true when there is no line).
fn lines_share_a_cell(lines: &[BTreeSet<u8>]) -> bool {
    (0..9).any(|cell| lines.iter().all(|line| line.contains(&cell)))
}

/// The violation codes of the validity rules (docs/encodings.md#validity-rules), read literally.
fn slow_violations(board: Board) -> BTreeSet<&'static str> {
    let (xs, os) = (marks_of(board, Player::X), marks_of(board, Player::O));
    let (x_lines, o_lines) = (lines_of(board, Player::X), lines_of(board, Player::O));
    let mut codes = BTreeSet::new();
    // "#X - #O is 0 or 1", split by the side it fails on.
    if os > xs {
        codes.insert("o-started");
    }
    if xs > os + 1 {
        codes.insert("x-went-twice");
    }
    // "not both players have a line; if X has a line then #X = #O + 1, and if O has a line
    // then #X = #O; and all lines of the winner share one cell (the last move)".
    let both = !x_lines.is_empty() && !o_lines.is_empty();
    let x_late = !x_lines.is_empty() && xs != os + 1;
    let o_late = !o_lines.is_empty() && xs != os;
    let scattered = !lines_share_a_cell(&x_lines) || !lines_share_a_cell(&o_lines);
    if both || x_late || o_late || scattered {
        codes.insert("continued-after-win");
    }
    codes
}

/// Whose turn it is on a board reached by play, from the counts alone.
fn mover(board: Board) -> Player {
    if marks_of(board, Player::X) == marks_of(board, Player::O) {
        Player::X
    } else {
        Player::O
    }
}

/// Whether play stops here: a line for someone, or no empty cell.
fn game_over(board: Board) -> bool {
    let full = Cell::ALL.iter().all(|&cell| board.at(cell).is_some());
    full || !lines_of(board, Player::X).is_empty() || !lines_of(board, Player::O).is_empty()
}

/// Every position reached by legal play from the empty board, by breadth-first search on
/// [`Board`] alone (no validation, no [`Position`]).
fn reachable() -> HashSet<Board> {
    let mut seen = HashSet::from([Board::EMPTY]);
    let mut frontier = vec![Board::EMPTY];
    while !frontier.is_empty() {
        let mut next = Vec::new();
        for board in frontier.into_iter().filter(|&b| !game_over(b)) {
            for cell in Cell::ALL.into_iter().filter(|&c| board.at(c).is_none()) {
                let child = board.with(cell, Some(mover(board)));
                if seen.insert(child) {
                    next.push(child);
                }
            }
        }
        frontier = next;
    }
    seen
}

/// The status of a reached board, from the references.
fn slow_status(board: Board) -> Status {
    match (
        lines_of(board, Player::X).is_empty(),
        lines_of(board, Player::O).is_empty(),
    ) {
        (false, _) => Status::Won(Player::X),
        (_, false) => Status::Won(Player::O),
        _ if game_over(board) => Status::Draw,
        _ => Status::Ongoing,
    }
}

/// A map of (row, column) to (row, column).
type CoordinateMap = fn(u8, u8) -> (u8, u8);

/// The eight symmetries of the square as maps of (row, column), independent of [`Symmetry`].
const MAPS: [CoordinateMap; 8] = [
    |r, c| (r, c),
    |r, c| (c, 2 - r),
    |r, c| (2 - r, 2 - c),
    |r, c| (2 - c, r),
    |r, c| (r, 2 - c),
    |r, c| (2 - r, c),
    |r, c| (c, r),
    |r, c| (2 - c, 2 - r),
];

/// The eight images of a board, cell by cell.
fn images(board: Board) -> [Board; 8] {
    MAPS.map(|map| {
        let mut image = Board::EMPTY;
        for cell in Cell::ALL {
            let (r, c) = map(cell.row(), cell.column());
            image.set(cell_at(r, c), board.at(cell));
        }
        image
    })
}

/// A name for the symmetry class of a board: its least image as text.
fn class_name(board: Board) -> String {
    images(board)
        .iter()
        .map(ToString::to_string)
        .min()
        .expect("eight images")
}

/// How many boards in `boards` have each number of marks, 0 to 9.
fn by_marks<'a>(boards: impl Iterator<Item = &'a Board>) -> [usize; 10] {
    let mut counts = [0; 10];
    for board in boards {
        counts[marks_of(*board, Player::X) + marks_of(*board, Player::O)] += 1;
    }
    counts
}

// ---------------------------------------------------------------------------------------------
// (a) Validation equals reachability
// ---------------------------------------------------------------------------------------------

#[test]
fn a_board_is_valid_exactly_when_play_reaches_it() {
    let reached = reachable();
    let mut grids = 0;
    for board in Board::all() {
        grids += 1;
        assert_eq!(
            board.violations().is_empty(),
            reached.contains(&board),
            "{board}: violations {:?}",
            board.violations()
        );
        assert_eq!(
            Position::try_from(board).is_ok(),
            reached.contains(&board),
            "{board}"
        );
    }
    assert_eq!(grids, 19_683);
    let positions: HashSet<Board> = Position::all().map(Position::board).collect();
    assert_eq!(positions, reached);
}

#[test]
fn every_violation_is_the_documented_rule() {
    let mut seen = BTreeMap::new();
    for board in Board::all() {
        let codes: BTreeSet<&str> = board
            .violations()
            .iter()
            .map(tictactoe::Violation::code)
            .collect();
        assert_eq!(codes, slow_violations(board), "{board}");
        for code in codes {
            *seen.entry(code).or_insert(0) += 1;
        }
    }
    // Each rule fires somewhere, so none of the comparisons above is vacuous.
    assert_eq!(
        seen.keys().copied().collect::<Vec<_>>(),
        ["continued-after-win", "o-started", "x-went-twice"]
    );
}

#[test]
fn status_of_every_position_matches_the_lines_and_the_count() {
    for position in Position::all() {
        let board = position.board();
        assert_eq!(position.status(), slow_status(board), "{board}");
        let expected_mover = (!game_over(board)).then(|| mover(board));
        assert_eq!(position.to_move(), expected_mover, "{board}");
    }
}

// ---------------------------------------------------------------------------------------------
// (b) The counts of docs/encodings.md#counts, by enumeration
// ---------------------------------------------------------------------------------------------

#[test]
fn counts_of_grids_and_positions() {
    let grids: HashSet<Board> = Board::all().collect();
    assert_eq!(grids.len(), 19_683);
    let possible = grids
        .iter()
        .filter(|&&b| {
            let (xs, os) = (marks_of(b, Player::X), marks_of(b, Player::O));
            xs == os || xs == os + 1
        })
        .count();
    assert_eq!(possible, 6_046);

    let reached = reachable();
    assert_eq!(reached.len(), 5_478);
    let mut statuses = HashMap::new();
    for board in &reached {
        *statuses.entry(slow_status(*board)).or_insert(0) += 1;
    }
    assert_eq!(statuses[&Status::Ongoing], 4_520);
    assert_eq!(statuses[&Status::Won(Player::X)], 626);
    assert_eq!(statuses[&Status::Won(Player::O)], 316);
    assert_eq!(statuses[&Status::Draw], 16);
    assert_eq!(
        by_marks(reached.iter()),
        [1, 9, 72, 252, 756, 1260, 1520, 1140, 390, 78]
    );
}

#[test]
fn counts_up_to_symmetry() {
    let mut classes: BTreeMap<String, Board> = BTreeMap::new();
    for board in reachable() {
        classes.entry(class_name(board)).or_insert(board);
    }
    assert_eq!(classes.len(), 765);
    let mut finished = HashMap::new();
    for board in classes.values() {
        let status = slow_status(*board);
        if status != Status::Ongoing {
            *finished.entry(status).or_insert(0) += 1;
        }
    }
    assert_eq!(finished.values().sum::<usize>(), 138);
    assert_eq!(finished[&Status::Won(Player::X)], 91);
    assert_eq!(finished[&Status::Won(Player::O)], 44);
    assert_eq!(finished[&Status::Draw], 3);
    assert_eq!(
        by_marks(classes.values()),
        [1, 3, 12, 38, 108, 174, 204, 153, 57, 15]
    );
}

// ---------------------------------------------------------------------------------------------
// (c) Every encoding, through the Encoding trait
// ---------------------------------------------------------------------------------------------

/// Which boards an encoding holds, and whether decoding gives the board back or a stand-in.
#[derive(Clone, Copy)]
enum Holds {
    /// Every grid, decoded exactly.
    AllGrids,
    /// Boards with #X = #O or #O + 1, decoded exactly.
    PossibleCounts,
    /// Reachable positions, decoded exactly.
    Reachable,
    /// Reachable positions, decoded to a member of the same symmetry class.
    ReachableUpToSymmetry,
}

impl Holds {
    fn contains(self, board: Board, reached: &HashSet<Board>) -> bool {
        let (xs, os) = (marks_of(board, Player::X), marks_of(board, Player::O));
        match self {
            Holds::AllGrids => true,
            Holds::PossibleCounts => xs == os || xs == os + 1,
            Holds::Reachable | Holds::ReachableUpToSymmetry => reached.contains(&board),
        }
    }

    fn same(self, decoded: Board, board: Board) -> bool {
        match self {
            Holds::ReachableUpToSymmetry => class_name(decoded) == class_name(board),
            _ => decoded == board,
        }
    }
}

/// Encodes every grid: held exactly as `holds` says, codes below `LIMIT`, decoded back to the
/// board (or its class), and `VALID` distinct codes in all.
fn check_every_grid<E: Encoding>(holds: Holds, reached: &HashSet<Board>) -> HashSet<u32> {
    let mut codes = HashSet::new();
    for board in Board::all() {
        let encoded = E::encode(board);
        assert_eq!(
            encoded.is_ok(),
            holds.contains(board, reached),
            "{} {board}",
            E::KIND
        );
        let Ok(encoded) = encoded else { continue };
        let code: u32 = encoded.code().into();
        assert!(code < E::LIMIT, "{} {board}: {code}", E::KIND);
        let decoded = E::decode(code).unwrap_or_else(|e| panic!("{board}: {e}"));
        assert_eq!(decoded, encoded, "{} {board}", E::KIND);
        assert!(holds.same(decoded.to_board(), board), "{} {board}", E::KIND);
        codes.insert(code);
    }
    assert_eq!(codes.len(), E::COUNT as usize, "{}", E::KIND);
    codes
}

/// Decodes every integer below `2^BITS` plus a margin, and some far beyond: each decodes to a
/// value that encodes back to the same code, or is rejected with an error naming the encoding
/// and the code. Returns the codes that decoded.
fn check_every_code<E: Encoding>() -> HashSet<u32> {
    assert!(
        E::COUNT <= E::LIMIT && E::LIMIT <= 1 << E::BITS,
        "{}",
        E::KIND
    );
    assert!(
        E::LIMIT > 1 << (E::BITS - 1),
        "{}: BITS is not tight",
        E::KIND
    );
    let margin = 1u32 << E::BITS;
    let far = [u32::MAX, u32::MAX - 1, 1 << 31, 1 << 24, 1 << 20];
    let mut decoded = HashSet::new();
    for code in (0..(1 << E::BITS) + margin).chain(far) {
        match E::decode(code) {
            Ok(value) => {
                assert!(code < E::LIMIT, "{} {code}", E::KIND);
                assert_eq!(Into::<u32>::into(value.code()), code, "{}", E::KIND);
                assert_eq!(E::encode(value.to_board()), Ok(value), "{} {code}", E::KIND);
                decoded.insert(code);
            }
            Err(error) => {
                assert_eq!((error.encoding, error.code), (E::KIND, u64::from(code)));
                if code >= E::LIMIT {
                    let limit = u64::from(E::LIMIT);
                    assert_eq!(error.reason, DecodeReason::OutOfRange { limit });
                }
            }
        }
    }
    assert_eq!(decoded.len(), E::COUNT as usize, "{}", E::KIND);
    decoded
}

/// Both directions: the codes produced by encoding are exactly the codes that decode.
fn check_encoding<E: Encoding>(holds: Holds) {
    let reached = reachable();
    let encoded = check_every_grid::<E>(holds, &reached);
    let decoded = check_every_code::<E>();
    assert_eq!(encoded, decoded, "{}", E::KIND);
}

#[test]
fn base4_through_the_trait() {
    check_encoding::<Base4>(Holds::AllGrids);
}

#[test]
fn base3_through_the_trait() {
    check_encoding::<Base3>(Holds::AllGrids);
}

#[test]
fn bitboards_through_the_trait() {
    check_encoding::<BitboardPair>(Holds::AllGrids);
}

#[test]
fn count_rank_through_the_trait() {
    check_encoding::<CountRank>(Holds::PossibleCounts);
}

#[test]
fn rank_through_the_trait() {
    check_encoding::<Rank>(Holds::Reachable);
}

#[test]
fn canonical_through_the_trait() {
    check_encoding::<Canonical>(Holds::ReachableUpToSymmetry);
}

#[test]
fn oriented_through_the_trait() {
    check_encoding::<Oriented>(Holds::Reachable);
}

#[test]
fn decode_errors_read_as_one_line_naming_encoding_and_code() {
    let errors: [DecodeError; 4] = [
        Base4::decode(3).unwrap_err(),
        BitboardPair::decode(1 | 1 << 9).unwrap_err(),
        Rank::decode(5_478).unwrap_err(),
        Oriented::decode(1).unwrap_err(),
    ];
    for error in errors {
        let text = error.to_string();
        assert!(!text.contains('\n') && !text.ends_with('.'), "{text}");
        assert!(text.starts_with(&format!("{} code {} ", error.encoding, error.code)));
    }
}

#[test]
fn rank_is_a_bijection_onto_the_first_5478_integers() {
    let mut ranks: Vec<u32> = Position::all()
        .map(|p| u32::from(Rank::from_position(p).code()))
        .collect();
    ranks.sort_unstable();
    assert!(ranks.iter().copied().eq(0..5_478));
    for code in 0..5_478 {
        let position = Rank::decode(code).expect("in range").to_position();
        assert_eq!(u32::from(Rank::from_position(position).code()), code);
    }
}

#[test]
fn canonical_is_a_bijection_onto_the_symmetry_classes() {
    // Class name (independent of the library) -> class code, and class sizes.
    let mut code_of_name: HashMap<String, u16> = HashMap::new();
    let mut sizes: BTreeMap<u16, usize> = BTreeMap::new();
    for position in Position::all() {
        let class = Canonical::from_position(position);
        let name = class_name(position.board());
        let previous = code_of_name.insert(name.clone(), class.code());
        assert!(previous.is_none_or(|p| p == class.code()), "{position}");
        assert_eq!(class_name(class.to_position().board()), name);
        *sizes.entry(class.code()).or_insert(0) += 1;
    }
    let codes: BTreeSet<u16> = code_of_name.values().copied().collect();
    assert_eq!(code_of_name.len(), codes.len(), "two classes share a code");
    assert!(codes.iter().copied().eq(0..765));
    assert_eq!(sizes.values().sum::<usize>(), 5_478);
    assert!(sizes.values().all(|size| 8 % size == 0));
}

#[test]
fn canonical_form_is_shared_by_all_eight_images_of_every_grid() {
    for board in Board::all() {
        let (representative, symmetry) = Canonical::canonical_form(board);
        let images = images(board);
        assert!(images.contains(&representative), "{board}");
        assert_eq!(symmetry.apply(representative), board, "{board}");
        for image in images {
            assert_eq!(
                Canonical::canonical_form(image).0,
                representative,
                "{image}"
            );
        }
    }
    // The coordinate maps above are the same group as the library's symmetries.
    let probe: Board = "XO./.X./..O".parse().expect("a board");
    let mine: BTreeSet<Board> = images(probe).into_iter().collect();
    let theirs: BTreeSet<Board> = Symmetry::ALL.iter().map(|s| s.apply(probe)).collect();
    assert_eq!(mine, theirs);
    assert_eq!(mine.len(), 8);
}
