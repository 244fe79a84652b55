//! The k-in-a-row family engine against the 3 × 3 core on every grid, against its slow twin
//! (a plain grid, lines by walking, reachability by taking moves back) on every grid of small
//! boards and on random boards and games of every size, and the counts the docs state.

use std::collections::{BTreeMap, BTreeSet, HashSet};

use tictactoe::lab::mnk::Grid;
use tictactoe::mnk::{
    AnyBoard, AnyPosition, Board, ParseBoardError, PlayError, Position, Rules, Square, Violation,
    count, zobrist,
};
use tictactoe::{Player, Status, Symmetry};

/// xorshift64: a tiny, seeded generator for the random sweeps.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn rules(text: &str) -> Rules {
    text.parse().unwrap()
}

fn lines_of(board: &AnyBoard) -> BTreeSet<Vec<Square>> {
    board
        .lines()
        .map(|line| {
            let mut cells: Vec<Square> = line.cells().collect();
            cells.sort_unstable();
            cells
        })
        .collect()
}

fn slow_lines(grid: &Grid) -> BTreeSet<Vec<Square>> {
    let mut all = grid.lines(Player::X);
    all.extend(grid.lines(Player::O));
    all
}

#[test]
fn family_agrees_with_the_core_on_every_3x3_grid() {
    let ttt = Rules::TIC_TAC_TOE;
    let mut positions = 0;
    for core in tictactoe::Board::all() {
        let text = core.to_string();
        let board = AnyBoard::parse(ttt, &text).unwrap();
        assert_eq!(board.to_string().replace('/', ""), text);
        let violations = board.violations();
        assert_eq!(
            violations.is_empty(),
            core.violations().is_empty(),
            "{text}"
        );
        // The core folds "both won" into "continued after a win".
        let core_continued = core
            .violations()
            .contains(tictactoe::Violation::ContinuedAfterWin);
        let family_continued = violations.contains(Violation::ContinuedAfterWin)
            || violations.contains(Violation::BothWon);
        assert_eq!(core_continued, family_continued, "{text}");
        assert_eq!(
            core.violations().contains(tictactoe::Violation::OStarted),
            violations.contains(Violation::OStarted)
        );
        assert_eq!(
            core.violations().contains(tictactoe::Violation::XWentTwice),
            violations.contains(Violation::XWentTwice)
        );
        let core_lines: BTreeSet<Vec<Square>> = core
            .lines()
            .map(|line| {
                line.to_cells()
                    .iter()
                    .map(|c| Square::new(c.row(), c.column()))
                    .collect()
            })
            .collect();
        assert_eq!(lines_of(&board), core_lines, "{text}");
        let Ok(core_position) = tictactoe::Position::try_from(core) else {
            continue;
        };
        positions += 1;
        let position = AnyPosition::from_board(board).unwrap();
        assert_eq!(position.status(), core_position.status(), "{text}");
        assert_eq!(position.to_move(), core_position.to_move(), "{text}");
        let legal: Vec<usize> = position.legal_actions().collect();
        let core_legal: Vec<usize> = if core_position.status().is_finished() {
            Vec::new()
        } else {
            core.empty_cells()
                .iter()
                .map(tictactoe::Cell::index)
                .collect()
        };
        assert_eq!(legal, core_legal, "{text}");
        for action in legal {
            let mut next = position;
            next.play(action).unwrap();
            let mark = core_position.side_to_move();
            let cell = tictactoe::Cell::new(action as u8).unwrap();
            let core_next = tictactoe::Position::try_from(core.with(cell, Some(mark))).unwrap();
            assert_eq!(next.status(), core_next.status(), "{text} + {action}");
        }
    }
    assert_eq!(positions, 5_478);
}

#[test]
fn symmetries_agree_with_the_core_on_every_3x3_grid() {
    let ttt = Rules::TIC_TAC_TOE;
    for core in tictactoe::Board::all() {
        let board = AnyBoard::parse(ttt, core.to_string()).unwrap();
        for symmetry in Symmetry::ALL {
            let image = board.transform(symmetry).unwrap();
            assert_eq!(
                image.to_string().replace('/', ""),
                symmetry.apply(core).to_string(),
                "{symmetry} {core}"
            );
        }
    }
}

/// The counts of docs/family.md, 4 × 4: every grid classified, and the same positions
/// reached by play from the empty board.
#[test]
fn every_4x4_grid_is_classified_and_matches_play() {
    let counts = count::grids(Rules::FOUR_BY_FOUR).unwrap();
    assert_eq!(counts.grids, 43_046_721);
    let by_play = count::layers(Rules::FOUR_BY_FOUR, 16, 100_000_000).unwrap();
    assert_eq!(by_play.len(), 17);
    for (grid_layer, play_layer) in counts.by_marks.iter().zip(&by_play) {
        let mut play_layer = *play_layer;
        play_layer.sequences = 0;
        assert_eq!(*grid_layer, play_layer);
    }
    let table: Vec<[u64; 5]> = counts
        .by_marks
        .iter()
        .map(|l| [l.positions, l.x_won, l.o_won, l.draws, l.ongoing])
        .collect();
    assert_eq!(table, FOUR_BY_FOUR_BY_MARKS);
    assert_eq!(counts.legal_counts, FOUR_BY_FOUR_LEGAL_COUNTS);
    assert_eq!(counts.positions(), FOUR_BY_FOUR_POSITIONS);
    let perft: Vec<u64> = by_play.iter().map(|l| l.sequences).collect();
    assert_eq!(perft, FOUR_BY_FOUR_PERFT);
}

/// Grids of 4 × 4 with `#X = #O` or `#X = #O + 1`.
const FOUR_BY_FOUR_LEGAL_COUNTS: u64 = 10_165_779;
/// Reachable positions of 4 × 4 (k = 4).
const FOUR_BY_FOUR_POSITIONS: u64 = 9_722_011;
/// By number of marks: positions, X won, O won, draws, ongoing.
const FOUR_BY_FOUR_BY_MARKS: [[u64; 5]; 17] = [
    [1, 0, 0, 0, 1],
    [16, 0, 0, 0, 16],
    [240, 0, 0, 0, 240],
    [1680, 0, 0, 0, 1680],
    [10920, 0, 0, 0, 10920],
    [43680, 0, 0, 0, 43680],
    [160160, 0, 0, 0, 160160],
    [400400, 2200, 0, 0, 398200],
    [895950, 0, 4924, 0, 891026],
    [1433520, 39392, 0, 0, 1394128],
    [1962576, 0, 53984, 0, 1908592],
    [1962576, 161952, 0, 0, 1800624],
    [1543080, 0, 127680, 0, 1415400],
    [881760, 167552, 0, 0, 714208],
    [333792, 0, 63488, 0, 270304],
    [83440, 30000, 0, 0, 53440],
    [8220, 0, 2864, 5356, 0],
];
/// Move sequences by length, stopping at finished games.
const FOUR_BY_FOUR_PERFT: [u64; 17] = [
    1,
    16,
    240,
    3360,
    43680,
    524160,
    5765760,
    57657600,
    516067200,
    4105847808,
    28105620480,
    164902348800,
    777869568000,
    2934973440000,
    7775153971200,
    13732308172800,
    10859692032000,
];

/// The grids of 4 × 4 with counts a game allows, checked one by one against the slow twin:
/// validity, status and lines.
#[test]
fn every_4x4_grid_with_legal_counts_matches_the_slow_twin() {
    let r = Rules::FOUR_BY_FOUR;
    let mut checked = 0u64;
    let stride = if std::env::var_os("TTT_FULL").is_some() {
        1
    } else {
        16
    };
    let mut text = [b'.'; 16];
    let mut valid = 0u64;
    for code in 0..3u64.pow(16) {
        let mut c = code;
        let (mut xs, mut os) = (0, 0);
        for cell in &mut text {
            *cell = match c % 3 {
                0 => b'.',
                1 => {
                    xs += 1;
                    b'X'
                }
                _ => {
                    os += 1;
                    b'O'
                }
            };
            c /= 3;
        }
        if !(xs == os || xs == os + 1) {
            continue;
        }
        // One in 16 of them, spread over the space, keeps the test under a few seconds;
        // TTT_FULL=1 checks all 10,165,779 (docs/family.md, "Verification").
        if code % stride != 5 % stride {
            continue;
        }
        checked += 1;
        let text = std::str::from_utf8(&text).unwrap();
        let board = Board::<1>::parse(r, text).unwrap();
        let grid = Grid::parse(r, text).unwrap();
        let violations = board.violations();
        let slow_valid = slow_structural_validity(&grid);
        assert_eq!(violations.is_empty(), slow_valid, "{text}");
        assert_eq!(
            board.has_line(Player::X),
            grid.has_line(Player::X),
            "{text}"
        );
        assert_eq!(
            board.has_line(Player::O),
            grid.has_line(Player::O),
            "{text}"
        );
        if slow_valid {
            valid += 1;
            let position = Position::from_board(board).unwrap();
            assert_eq!(Some(position.status()), grid.status(), "{text}");
        }
    }
    assert!(checked > 500_000, "{checked}");
    assert!(valid > 100_000, "{valid}");
}

/// Validity of a non-gravity grid by the rules as stated, on the slow twin's lines.
fn slow_structural_validity(grid: &Grid) -> bool {
    let (xs, os) = (grid.count(Player::X), grid.count(Player::O));
    if !(xs == os || xs == os + 1) {
        return false;
    }
    let (xl, ol) = (grid.lines(Player::X), grid.lines(Player::O));
    match (xl.is_empty(), ol.is_empty()) {
        (true, true) => true,
        (false, false) => false,
        (false, true) => xs == os + 1 && shares_a_cell(&xl),
        (true, false) => xs == os && shares_a_cell(&ol),
    }
}

/// Whether one cell lies on every line (so one last move made them all).
fn shares_a_cell(lines: &BTreeSet<Vec<Square>>) -> bool {
    let mut common: Option<BTreeSet<Square>> = None;
    for line in lines {
        let cells: BTreeSet<Square> = line.iter().copied().collect();
        common = Some(match common {
            None => cells,
            Some(c) => c.intersection(&cells).copied().collect(),
        });
    }
    common.is_some_and(|c| !c.is_empty())
}

/// Small boards, with and without gravity: every grid's validity against reachability by
/// taking moves back, and the number of valid grids against the positions play reaches.
#[test]
fn every_grid_of_small_boards_matches_reachability_by_definition() {
    for spec in [
        "3,3,3",
        "3,4,3",
        "4,3,3",
        "2,5,2",
        "3,4,3,gravity",
        "4,3,3,gravity",
        "3,3,2,gravity",
        "4,2,2,gravity",
        "1,7,3",
        "5,2,2,gravity",
    ] {
        let r = rules(spec);
        let cells = r.cells();
        let mut memo = BTreeMap::new();
        let mut valid = 0u64;
        let mut text = vec![b'.'; cells as usize];
        for code in 0..3u64.pow(cells) {
            let mut c = code;
            for cell in &mut text {
                *cell = b".XO"[(c % 3) as usize];
                c /= 3;
            }
            let text = std::str::from_utf8(&text).unwrap();
            let board = AnyBoard::parse(r, text).unwrap();
            let grid = Grid::parse(r, text).unwrap();
            let fast = board.violations().is_empty();
            let slow = grid.reachable(&mut memo);
            assert_eq!(fast, slow, "{spec}: {text} {:?}", board.violations());
            if fast {
                valid += 1;
                let position = AnyPosition::from_board(board).unwrap();
                assert_eq!(Some(position.status()), grid.status(), "{spec}: {text}");
            }
        }
        let by_play: u64 = count::layers(r, cells, 10_000_000)
            .unwrap()
            .iter()
            .map(|l| l.positions)
            .sum();
        assert_eq!(valid, by_play, "{spec}");
        if !r.gravity() {
            assert_eq!(valid, count::grids(r).unwrap().positions(), "{spec}");
        }
    }
}

#[test]
fn gravity_violations_are_named() {
    let c4 = Rules::CONNECT_FOUR;
    let floating = AnyBoard::parse(c4, "......./......./......./...X.../......./.......").unwrap();
    assert!(floating.violations().contains(Violation::Floating));
    // One column X, X, O, O from the bottom: O would have had to play on X's first mark.
    let stacked = AnyBoard::parse(c4, "......./......./...O.../...O.../...X.../...X...").unwrap();
    let found = stacked.violations();
    assert!(found.contains(Violation::NoMoveOrder), "{found:?}");
    assert_eq!(found.iter().count(), 1);
    let fine = AnyBoard::parse(c4, "......./......./......./......./...O.../..XX...").unwrap();
    assert!(fine.violations().is_empty());
    // X won by the top of column 3; the last mark of that column can be the last move.
    let won = AnyBoard::parse(c4, "......./......./...X.../..OX.../..OX.../..OX...").unwrap();
    assert!(won.violations().is_empty());
    // X may have played column 6 before its winning mark: reachable.
    let earlier = AnyBoard::parse(c4, "......./......./...X.../..OX.../..OX.../.OOX..X").unwrap();
    assert!(earlier.violations().is_empty());
    // O moved after X's line.
    let after = AnyBoard::parse(c4, "......./......./...X.../..OX.../..OX.../.OOX...").unwrap();
    assert!(after.violations().contains(Violation::ContinuedAfterWin));
    let both = AnyBoard::parse(rules("4,4,4"), "XXXX/OOOO/X.../....").unwrap();
    assert!(both.violations().contains(Violation::BothWon));
}

/// Random boards of random sizes (up to 19 × 19, k and gravity random): lines and the check
/// through a cell against walking.
#[test]
fn random_boards_match_the_slow_twin() {
    let mut rng = Rng(0x5eed_1234);
    for round in 0..3_000 {
        let rows = 1 + rng.below(19) as u32;
        let cols = 1 + rng.below(19) as u32;
        let k = 1 + rng.below(u64::from(rows.max(cols).min(7))) as u32;
        let r = Rules::new(rows, cols, k, rng.below(2) == 0).unwrap();
        let density = 1 + rng.below(9);
        let text: String = (0..r.cells())
            .map(|_| match rng.below(10) {
                d if d < density / 2 => 'X',
                d if d < density => 'O',
                _ => '.',
            })
            .collect();
        let board = AnyBoard::parse(r, &text).unwrap();
        let grid = Grid::parse(r, &text).unwrap();
        assert_eq!(lines_of(&board), slow_lines(&grid), "{round} {r}: {text}");
        for player in Player::BOTH {
            assert_eq!(board.has_line(player), grid.has_line(player), "{r}: {text}");
        }
        check_wins_through(&board, &grid);
    }
}

fn check_wins_through(board: &AnyBoard, grid: &Grid) {
    fn each<const W: usize>(board: &Board<W>, grid: &Grid) {
        let r = board.rules();
        for index in 0..r.cells() {
            let square = r.square_at(index).unwrap();
            let Some(player) = board.at(square) else {
                continue;
            };
            let fast = tictactoe::mnk::bits::wins_through(board.pieces(player), r.bit(square), r);
            assert_eq!(fast, grid.line_through(square), "{r}: {board} at {square}");
        }
    }
    tictactoe::each_width!(AnyBoard, board, b => each(b, grid));
}

/// Random games of random sizes: after every move the status play keeps equals the slow
/// twin's, the legal moves agree, the hash is the board's, and undoing every move restores
/// the empty board and hash 0.
#[test]
fn random_games_match_the_slow_twin() {
    let mut rng = Rng(0xfeed_beef);
    for _ in 0..400 {
        let rows = 1 + rng.below(12) as u32;
        let cols = 1 + rng.below(12) as u32;
        let k = 1 + rng.below(u64::from(rows.max(cols).min(6))) as u32;
        let r = Rules::new(rows, cols, k, rng.below(2) == 0).unwrap();
        let mut position = AnyPosition::new(r);
        let mut played = Vec::new();
        let mut seen = HashSet::new();
        loop {
            let grid = Grid::parse(r, &position.board().to_string()).unwrap();
            assert_eq!(Some(position.status()), grid.status(), "{r}: {position}");
            let legal: Vec<usize> = position.legal_actions().collect();
            assert_eq!(legal, grid.legal_actions(), "{r}: {position}");
            assert_eq!(legal.len() as u32, position.legal_count());
            assert!(position.board().violations().is_empty(), "{r}: {position}");
            seen.insert(position.hash());
            if legal.is_empty() {
                break;
            }
            let action = legal[rng.below(legal.len() as u64) as usize];
            played.push(position.play(action).unwrap());
        }
        assert_eq!(seen.len(), played.len() + 1, "hash collision in {r}");
        for square in played.into_iter().rev() {
            position.undo(square).unwrap();
        }
        assert_eq!(position, AnyPosition::new(r));
        assert_eq!(position.hash(), 0);
    }
}

#[test]
fn play_and_undo_refuse_with_reasons() {
    let mut c4 = Position::<1>::new(Rules::CONNECT_FOUR).unwrap();
    assert_eq!(
        c4.play(7),
        Err(PlayError::OutOfRange {
            action: 7,
            actions: 7
        })
    );
    for _ in 0..6 {
        c4.play(0).unwrap();
    }
    assert_eq!(c4.play(0), Err(PlayError::ColumnFull { action: 0 }));
    // The bottom mark of column 0 is not on top of its column.
    assert!(c4.undo(Square::new(5, 0)).is_err());
    c4.undo(Square::new(0, 0)).unwrap();
    let mut ttt = Position::<1>::new(Rules::TIC_TAC_TOE).unwrap();
    ttt.play(4).unwrap();
    assert_eq!(ttt.play(4), Err(PlayError::Occupied { action: 4 }));
    for action in [0, 1, 8] {
        ttt.play(action).unwrap();
    }
    let before = ttt;
    assert!(ttt.undo(Square::new(1, 1)).is_err(), "O moved last, not X");
    assert_eq!(ttt, before);
    ttt.undo(Square::new(0, 0)).unwrap();
    ttt.undo(Square::new(0, 1)).unwrap();
    let mut won =
        Position::<1>::from_board(Board::parse(Rules::TIC_TAC_TOE, "XXX/OO./...").unwrap())
            .unwrap();
    assert_eq!(won.status(), Status::Won(Player::X));
    assert!(matches!(won.play(8), Err(PlayError::GameOver { .. })));
    won.undo(Square::new(0, 2)).unwrap();
    assert_eq!(won.status(), Status::Ongoing);
    assert_eq!(won.hash(), zobrist::hash(&won.board()));
}

#[test]
fn parse_errors_name_the_problem() {
    let c4 = Rules::CONNECT_FOUR;
    assert_eq!(
        Board::<1>::parse(c4, "......./......./......./......./......./......"),
        Err(ParseBoardError::RowLength {
            row: 6,
            cells: 6,
            expected: 7
        })
    );
    assert_eq!(
        Board::<1>::parse(c4, "......./......./......./......./......."),
        Err(ParseBoardError::WrongSize {
            what: "rows",
            found: 5,
            expected: 6,
            rules: c4
        })
    );
    assert_eq!(
        Board::<1>::parse(c4, "......./......./......./......./......./...Z..."),
        Err(ParseBoardError::BadChar { index: 43, ch: 'Z' })
    );
    assert!(matches!(
        Board::<1>::parse(Rules::GOMOKU, "."),
        Err(ParseBoardError::Width(_))
    ));
    assert!(matches!(
        Board::<4>::parse(Rules::GOMOKU, "..."),
        Err(ParseBoardError::WrongSize { what: "cells", .. })
    ));
}

#[test]
fn symmetries_keep_validity_and_status_on_random_games() {
    let mut rng = Rng(77);
    for spec in [
        "4,4,4",
        "5,4,4",
        "connect-four",
        "gomoku",
        "4,3,3",
        "6,6,4,gravity",
    ] {
        let r = rules(spec);
        for _ in 0..50 {
            let mut position = AnyPosition::new(r);
            let stop = rng.below(u64::from(r.cells()));
            while position.plies() < stop as u32 && position.legal_count() > 0 {
                let legal: Vec<usize> = position.legal_actions().collect();
                position
                    .play(legal[rng.below(legal.len() as u64) as usize])
                    .unwrap();
            }
            let board = position.board();
            for &symmetry in r.symmetries() {
                let image = board.transform(symmetry).unwrap();
                let moved = AnyPosition::from_board(image).unwrap();
                assert_eq!(moved.status(), position.status(), "{spec} {symmetry}");
                assert_eq!(image.marks(), board.marks());
            }
            for symmetry in Symmetry::ALL {
                if !r.symmetries().contains(&symmetry) {
                    assert!(board.transform(symmetry).is_none(), "{spec} {symmetry}");
                }
            }
        }
    }
}

/// Connect Four from the empty board: distinct positions and move sequences (perft) after
/// each number of plies, to 12.
#[test]
fn connect_four_counts_to_12_plies() {
    let layers = count::layers(Rules::CONNECT_FOUR, 12, 20_000_000).unwrap();
    let positions: Vec<u64> = layers.iter().map(|l| l.positions).collect();
    let sequences: Vec<u64> = layers.iter().map(|l| l.sequences).collect();
    // The first seven are Tromp's published counts.
    assert_eq!(positions[..7], [1, 7, 49, 238, 1120, 4263, 16422]);
    assert_eq!(positions, C4_POSITIONS);
    assert_eq!(sequences, C4_PERFT);
    for layer in &layers {
        assert_eq!(
            layer.positions,
            layer.x_won + layer.o_won + layer.draws + layer.ongoing
        );
    }
}

/// Distinct Connect Four positions after 0 to 12 plies.
const C4_POSITIONS: [u64; 13] = [
    1, 7, 49, 238, 1120, 4263, 16422, 54859, 184275, 558186, 1662623, 4568683, 12236101,
];
/// Connect Four move sequences of 0 to 12 plies, stopping at finished games.
const C4_PERFT: [u64; 13] = [
    1,
    7,
    49,
    343,
    2401,
    16807,
    117649,
    823536,
    5673234,
    39394572,
    268031646,
    1844590828,
    12418296244,
];

/// Perft by walking every sequence, the plain way, against the layers' sums.
#[test]
fn connect_four_perft_by_walking_matches_the_layers() {
    fn walk(position: &mut Position<1>, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut total = 0;
        for action in position.legal_actions() {
            let square = position.play(action).unwrap();
            total += walk(position, depth - 1);
            position.undo(square).unwrap();
        }
        total
    }
    let mut root = Position::<1>::new(Rules::CONNECT_FOUR).unwrap();
    for depth in 0..=8 {
        assert_eq!(walk(&mut root, depth), C4_PERFT[depth as usize], "{depth}");
    }
}
