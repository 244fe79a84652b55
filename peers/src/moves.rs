//! The per-move API: whole random games played the way a user writes MCTS, a search or an
//! environment on an engine, move after move: ask for the legal moves, pick one, play it, look
//! at the status. Every contender is driven through its own public move API:
//!
//! | engine | the legal moves | play | the status |
//! |---|---|---|---|
//! | ours, Connect Four (`mnk::ConnectFour`) | `legal_moves()` (a `Copy` set), `pick` | `play_move` | `status()` |
//! | ours, Connect Four, the bit API | `playable()` (a `Bits`), `nth` | `play_bit` | `status()` |
//! | ours, Connect Four, the bit API on the move set | `legal_moves()`, `len`, `nth`, `bit()` | `play_bit` | `status()` |
//! | ours, family (`mnk::Position`) | `legal_moves()` (a `Copy` set), `pick` | `play_move` | `status()` |
//! | ours, family, the checked calls | `legal_actions()` into a list | `play(action)` | `status()` |
//! | ours, family, the bit API | `playable()`, `nth` | `play_bit` | `status()` |
//! | ours, 3×3 core (`Position`) | `legal_moves()` (a `Bitboard`), `pick` | `play(cell)` | `status()` |
//! | `board-game` 0.8 | `available_moves()` into a list | `play(mv)` | `is_done()` |
//! | `connect-four-solver` 0.2 | `legal_moves()` into a list | `play(column)` | `is_over()` |
//! | `connect-four-ai` 1.0 | `possible()` (a mask of cells), a set bit's column | `play(col)` | `is_won_position()`, `get_moves()` |
//! | `tic-tac-toe-board` 0.2 | `open_fields()` into a list | `play_move` | `state()` |
//! | `norts` 1.1 | `is_valid_move` over the 9 cells into a list | `play` | `is_in_play()` |
//!
//! Every contender draws from the same generator (xorshift64, [`Xorshift`]) and picks the
//! same way: one 32-bit draw, multiplied by the number of legal moves, the high half
//! ([`Xorshift::pick`]; ours does that multiply inside `pick`). A list is a stack array the
//! library's iterator fills. Games start from the empty board and the same seed every run.

use std::hint::black_box;

use board_game::games::connect4::Connect4;
use board_game::games::ttt::TTTBoard;
use connect_four_ai::Position as AiPosition;
use connect_four_solver::{Column, ConnectFour};
use internal_iterator::InternalIterator as _;
use tic_tac_toe_board::TicTacToe;
use tictactoe::mnk::{ConnectFour as MnkConnectFour, Position as MnkPosition, Rules};
use tictactoe::{Position as CorePosition, Status};

use crate::{Case, case, group, status_code};

/// Marsaglia's xorshift64 (shifts 13, 7, 17), the generator every contender here draws from.
pub struct Xorshift(u64);

impl Xorshift {
    pub fn new(seed: u64) -> Xorshift {
        Xorshift(seed | 1)
    }

    #[inline(always)]
    pub fn next_u32(&mut self) -> u32 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        (x >> 32) as u32
    }

    /// A uniform index below `n` (bias below `n / 2^32`).
    #[inline(always)]
    pub fn pick(&mut self, n: usize) -> usize {
        ((u64::from(self.next_u32()) * n as u64) >> 32) as usize
    }
}

/// A list of up to `N` moves on the stack, filled from an engine's iterator.
struct List<T, const N: usize> {
    items: [T; N],
    len: usize,
}

impl<T: Copy, const N: usize> List<T, N> {
    #[inline(always)]
    fn new(fill: T) -> Self {
        List {
            items: [fill; N],
            len: 0,
        }
    }

    #[inline(always)]
    fn push(&mut self, item: T) {
        self.items[self.len] = item;
        self.len += 1;
    }

    #[inline(always)]
    fn pick(&self, rng: &mut Xorshift) -> T {
        self.items[rng.pick(self.len)]
    }
}

/// `games` games, each by `game` from one generator seeded 11 (the same games every run),
/// the sum of the codes it returns.
#[inline(always)]
fn games(games: usize, mut game: impl FnMut(&mut Xorshift) -> u64) -> u64 {
    let mut rng = Xorshift::new(11);
    (0..games).map(|_| game(&mut rng)).sum()
}

/// One game of the bit API's loop (`legal_moves`, `len` + `nth`, `play_bit`, `status`) from
/// `rng`, from the empty board to its end: the row "ours ... play_bit" and its floors.
#[inline(always)]
fn bit_api_game(rng: &mut Xorshift) -> MnkConnectFour {
    let mut p = MnkConnectFour::new();
    while p.status() == Status::Ongoing {
        let moves = p.legal_moves();
        let k = rng.pick(moves.len());
        p.play_bit(moves.nth(k).expect("in range").bit());
    }
    p
}

/// The moves of the bit API's game from `seed` and the columns it filled (a filled column
/// stays filled: its top cell, bit `7c + 5`, is occupied at the end).
fn moves_and_fills(seed: u64) -> (u32, u32) {
    let end = bit_api_game(&mut Xorshift::new(seed));
    let occupied = end.board().occupied();
    let fills = (0..7).filter(|c| occupied.contains(7 * c + 5)).count();
    (end.plies(), fills as u32)
}

/// The floors of the bit API's loop that say what its branches cost: the same loop with a
/// generator seeded anew each game, over every game, over games that fill no column (the
/// branch on a filled column never taken: only the game's end is mispredicted), and one game
/// replayed (every branch predicted once it is learned). Prints the moves a game of each.
fn bit_api_floors(games: usize) -> Vec<Case<'static>> {
    let mut draws = Xorshift::new(99);
    // The seeds kept, and their games' mean moves and filled columns.
    let mut seeds = |keep: fn(u32) -> bool| -> (Vec<u64>, f64, f64) {
        let mut kept = Vec::with_capacity(games);
        let (mut moves, mut filled) = (0u64, 0u64);
        while kept.len() < games {
            let seed = u64::from(draws.next_u32()) | 1 << 40;
            let (plies, fills) = moves_and_fills(seed);
            if keep(fills) {
                kept.push(seed);
                moves += u64::from(plies);
                filled += u64::from(fills);
            }
        }
        let n = games as f64;
        (kept, moves as f64 / n, filled as f64 / n)
    };
    let (all, all_moves, all_fills) = seeds(|_| true);
    let (unfilled, unfilled_moves, _) = seeds(|fills| fills == 0);
    // A game of 21 moves, the length nearest the mean.
    let replayed_moves = 21;
    let replayed = *all
        .iter()
        .find(|&&seed| moves_and_fills(seed).0 == replayed_moves)
        .expect("a game of 21 moves among 20,000");
    println!(
        "Moves a game in the seeded floors: every game {all_moves:.2} ({all_fills:.2} columns \
         filled), games that fill no column {unfilled_moves:.2}, the replayed game \
         {replayed_moves}."
    );
    let seeded = |seeds: Vec<u64>| {
        move || {
            seeds
                .iter()
                .map(|&seed| status_code(bit_api_game(&mut Xorshift::new(seed)).status()))
                .sum()
        }
    };
    vec![
        case(
            "floor: ours mnk::ConnectFour bit API loop, the generator seeded for each game (every game)",
            games,
            seeded(all),
        ),
        case(
            "floor: ours mnk::ConnectFour bit API loop, the generator seeded for each game (games that fill no column)",
            games,
            seeded(unfilled),
        ),
        case(
            "floor: ours mnk::ConnectFour bit API loop, the generator seeded for each game (one game of 21 moves replayed: every branch predicted)",
            games,
            seeded(vec![replayed; games]),
        ),
    ]
}

/// `games` games of a `board-game` board through its per-move API: `available_moves()` into a
/// list, a pick, `play`, until `is_done()`.
#[inline(always)]
fn board_game_games<B, const N: usize>(n: usize) -> u64
where
    B: board_game::board::Board + Default,
    for<'a> B: board_game::board::BoardMoves<'a, B>,
{
    let first = B::all_possible_moves().nth(0).expect("a move");
    games(n, |rng| {
        let mut b = B::default();
        let mut moves = List::<B::Move, N>::new(first);
        while !b.is_done() {
            moves.len = 0;
            b.available_moves()
                .expect("not done")
                .for_each(|mv| moves.push(mv));
            b.play(moves.pick(rng)).expect("legal");
        }
        u64::from(b.outcome().is_some())
    })
}

/// A family position of `rules` on `W` words.
fn empty<const W: usize>(rules: Rules) -> MnkPosition<W> {
    MnkPosition::new(rules).expect("wide enough")
}

/// Our family engine's three shapes on `rules` at width `W`, as cases.
fn family_cases<'a, const W: usize>(
    rules: Rules,
    n: usize,
    label: &'static [&'static str; 3],
) -> Vec<crate::Case<'a>> {
    vec![
        case(label[0], n, move || {
            games(n, |rng| {
                let mut p = empty::<W>(rules);
                while p.status() == Status::Ongoing {
                    let mv = p.legal_moves().pick(rng.next_u32()).expect("ongoing");
                    p.play_move(mv);
                }
                status_code(p.status())
            })
        }),
        case(label[1], n, move || {
            games(n, |rng| {
                let mut p = empty::<W>(rules);
                let mut moves = List::<usize, 361>::new(0);
                while p.status() == Status::Ongoing {
                    moves.len = 0;
                    for action in p.legal_actions() {
                        moves.push(action);
                    }
                    p.play(moves.pick(rng)).expect("legal");
                }
                status_code(p.status())
            })
        }),
        case(label[2], n, move || {
            games(n, |rng| {
                let mut p = empty::<W>(rules);
                while p.status() == Status::Ongoing {
                    let playable = p.playable();
                    let k = rng.pick(playable.count() as usize);
                    p.play_bit(playable.nth(k as u32).expect("in range"));
                }
                status_code(p.status())
            })
        }),
    ]
}

fn connect_four() {
    const GAMES: usize = 20_000;
    let mut cases = vec![
        case(
            "ours mnk::ConnectFour legal_moves().pick + play_move + status",
            GAMES,
            || {
                games(GAMES, |rng| {
                    let mut p = MnkConnectFour::new();
                    while p.status() == Status::Ongoing {
                        let mv = p.legal_moves().pick(rng.next_u32()).expect("ongoing");
                        p.play_move(mv);
                    }
                    status_code(p.status())
                })
            },
        ),
        case(
            "ours mnk::ConnectFour playable().nth + play_bit + status",
            GAMES,
            || {
                games(GAMES, |rng| {
                    let mut p = MnkConnectFour::new();
                    while p.status() == Status::Ongoing {
                        let playable = p.playable();
                        let k = rng.pick(playable.count() as usize);
                        p.play_bit(playable.nth(k as u32).expect("in range"));
                    }
                    status_code(p.status())
                })
            },
        ),
        case(
            "ours mnk::ConnectFour legal_moves() len + nth(pick) + play_bit + status",
            GAMES,
            || games(GAMES, |rng| status_code(bit_api_game(rng).status())),
        ),
    ];
    // The floors of the shape (not contenders): what the loop costs without the generator,
    // with a pick that needs no count, and what the generator alone costs.
    let mut draws = Xorshift::new(11);
    let buffer: Vec<u32> = (0..1 << 16).map(|_| draws.next_u32()).collect();
    // Each game's length, from the bit API's loop above run once untimed: the same games
    // replayed by a counted loop.
    let lengths: Vec<u32> = {
        let mut rng = Xorshift::new(11);
        (0..GAMES).map(|_| bit_api_game(&mut rng).plies()).collect()
    };
    cases.extend([
        case(
            "floor: ours mnk::ConnectFour legal_moves().pick + play_move + status, the draws read from an array (no generator)",
            GAMES,
            move || {
                let mut i = 0;
                games(GAMES, |_| {
                    let mut p = MnkConnectFour::new();
                    while p.status() == Status::Ongoing {
                        let mv = p.legal_moves().pick(buffer[i & 0xffff]).expect("ongoing");
                        i += 1;
                        p.play_move(mv);
                    }
                    status_code(p.status())
                })
            },
        ),
        case(
            "floor: ours mnk::ConnectFour legal_move(column: 6 bits of a draw, again while full) + play_move + status",
            GAMES,
            || {
                games(GAMES, |rng| {
                    let mut p = MnkConnectFour::new();
                    while p.status() == Status::Ongoing {
                        let mv = loop {
                            let value = rng.next_u32() & 63;
                            if value < 63
                                && let Ok(mv) = p.legal_move(value as usize / 9)
                            {
                                break mv;
                            }
                        };
                        p.play_move(mv);
                    }
                    status_code(p.status())
                })
            },
        ),
        case(
            "floor: ours mnk::ConnectFour legal_moves() len + nth(pick) + play_bit, the same games, each played for its length known in advance (the status tested every move, the game's end taken from the count: its exit waits on no line check)",
            GAMES,
            move || {
                let mut lengths = lengths.iter();
                games(GAMES, |rng| {
                    let mut p = MnkConnectFour::new();
                    for _ in 0..*lengths.next().expect("a length a game") {
                        // Never true (each game ends at its length), as the status loop's
                        // test: the moves then need no select of an empty move set.
                        if p.status() != Status::Ongoing {
                            break;
                        }
                        let moves = p.legal_moves();
                        let k = rng.pick(moves.len());
                        p.play_bit(moves.nth(k).expect("in range").bit());
                    }
                    status_code(p.status())
                })
            },
        ),
        case(
            "floor: the generator alone, 21 draws a game (xorshift64, next_u32)",
            GAMES,
            || {
                games(GAMES, |rng| {
                    let mut sum = 0u64;
                    for _ in 0..21 {
                        sum = sum.wrapping_add(u64::from(rng.next_u32()));
                    }
                    sum & 3
                })
            },
        ),
    ]);
    cases.extend(bit_api_floors(GAMES));
    cases.extend(family_cases::<1>(
        Rules::CONNECT_FOUR,
        GAMES,
        &[
            "ours mnk::Position<1> legal_moves().pick + play_move + status",
            "ours mnk::Position<1> legal_actions() list + play(action) + status",
            "ours mnk::Position<1> playable().nth + play_bit + status",
        ],
    ));
    cases.extend([
        case(
            "board-game Connect4 available_moves() list + play + is_done",
            GAMES,
            || board_game_games::<Connect4, 7>(GAMES),
        ),
        case(
            "connect-four-solver legal_moves() list + play + is_over",
            GAMES,
            || {
                games(GAMES, |rng| {
                    let mut p = ConnectFour::new();
                    let mut moves = List::<Column, 7>::new(Column::from_index(0));
                    while !p.is_over() {
                        moves.len = 0;
                        for column in p.legal_moves() {
                            moves.push(column);
                        }
                        p.play(moves.pick(rng));
                    }
                    u64::from(p.is_victory())
                })
            },
        ),
        case(
            "connect-four-ai possible() bit + play + is_won_position",
            GAMES,
            || {
                games(GAMES, |rng| {
                    let mut p = AiPosition::new();
                    loop {
                        let mut possible = p.possible();
                        for _ in 0..rng.pick(possible.count_ones() as usize) {
                            possible &= possible - 1;
                        }
                        p.play(possible.trailing_zeros() as usize / 7);
                        if p.is_won_position() {
                            return 1;
                        }
                        if p.get_moves() == AiPosition::BOARD_SIZE {
                            return 3;
                        }
                    }
                })
            },
        ),
    ]);
    group(
        &format!(
            "Connect Four through the per-move API: {GAMES} random games from the empty board per run"
        ),
        "game",
        cases,
    );
}

fn gomoku() {
    const GAMES: usize = 400;
    let cases = family_cases::<4>(
        Rules::GOMOKU,
        GAMES,
        &[
            "ours mnk::Position<4> legal_moves().pick + play_move + status",
            "ours mnk::Position<4> legal_actions() list + play(action) + status",
            "ours mnk::Position<4> playable().nth + play_bit + status",
        ],
    );
    group(
        &format!(
            "Gomoku 15x15 through the per-move API: {GAMES} random games from the empty board per run"
        ),
        "game",
        cases,
    );
    const SMALL: usize = 20_000;
    let cases = family_cases::<1>(
        Rules::FOUR_BY_FOUR,
        SMALL,
        &[
            "ours mnk::Position<1> legal_moves().pick + play_move + status",
            "ours mnk::Position<1> legal_actions() list + play(action) + status",
            "ours mnk::Position<1> playable().nth + play_bit + status",
        ],
    );
    group(
        &format!(
            "4x4 (4,4,4) through the per-move API: {SMALL} random games from the empty board per run"
        ),
        "game",
        cases,
    );
}

fn tic_tac_toe() {
    const GAMES: usize = 20_000;
    let mut cases = vec![case(
        "ours 3x3 core Position legal_moves().pick + play + status",
        GAMES,
        || {
            games(GAMES, |rng| {
                let mut p = CorePosition::EMPTY;
                while p.status() == Status::Ongoing {
                    let cell = p.legal_moves().pick(rng.next_u32()).expect("ongoing");
                    p = p.play(cell).expect("legal");
                }
                status_code(p.status())
            })
        },
    )];
    cases.extend(family_cases::<1>(
        Rules::TIC_TAC_TOE,
        GAMES,
        &[
            "ours family mnk::Position<1> (3,3,3) legal_moves().pick + play_move + status",
            "ours family (3,3,3) legal_actions() list + play(action) + status",
            "ours family (3,3,3) playable().nth + play_bit + status",
        ],
    ));
    cases.extend([
        case(
            "board-game TTTBoard available_moves() list + play + is_done",
            GAMES,
            || board_game_games::<TTTBoard, 9>(GAMES),
        ),
        case(
            "tic-tac-toe-board open_fields() list + play_move + state",
            GAMES,
            || {
                games(GAMES, |rng| {
                    let mut t = TicTacToe::new();
                    let mut moves = List::<_, 9>::new(tic_tac_toe_board::CellIndex::new(0));
                    while !t.state().is_terminal() {
                        moves.len = 0;
                        for cell in t.open_fields() {
                            moves.push(cell);
                        }
                        t.play_move(&moves.pick(rng));
                    }
                    u64::from(t.state().is_terminal())
                })
            },
        ),
        case(
            "norts is_valid_move list + play + is_in_play",
            GAMES,
            || {
                games(GAMES, |rng| {
                    let mut b = norts::Board::new();
                    let mut moves = List::<i8, 9>::new(0);
                    while b.is_in_play() {
                        moves.len = 0;
                        for square in 0..9 {
                            if b.is_valid_move(square) {
                                moves.push(square);
                            }
                        }
                        b.play(moves.pick(rng)).expect("legal");
                    }
                    black_box(u64::from(b.situation() != 0))
                })
            },
        ),
    ]);
    group(
        &format!(
            "Tic-tac-toe through the per-move API: {GAMES} random games from the empty board per run"
        ),
        "game",
        cases,
    );
}

/// The per-move groups: `c4-moves`, `gomoku-moves`, `ttt-moves`.
pub fn run(run: impl Fn(&str) -> bool) {
    if run("c4-moves") {
        connect_four();
    }
    if run("gomoku-moves") {
        gomoku();
    }
    if run("ttt-moves") {
        tic_tac_toe();
    }
}
