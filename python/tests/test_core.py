"""The vectorised core API against the pure-Python reference, exhaustively: all 19,683 grids,
all 5,478 positions, every code of every encoding (and codes around and outside the ranges)."""

from __future__ import annotations

import numpy as np
import pytest
import reference as ref

import tictactoe_rs as t

BOARDS = np.array(ref.ALL_BOARDS, dtype=np.int8)
POSITION_MASK = np.array([b in ref.POSITIONS for b in ref.ALL_BOARDS])
# Boards that are not grids: a cell outside 0, 1, 2.
BAD_BOARDS = np.array([[3, 0, 0, 0, 0, 0, 0, 0, 0], [0] * 8 + [-1], [0] * 4 + [127] + [0] * 4], np.int8)


def codes_to_try(encoding: str) -> np.ndarray:
    limit = ref.LIMITS[encoding]
    extra = [-1, -(2**31), limit, limit + 1, 2**18, 2**20, 2**31 - 1]
    return np.concatenate([np.arange(limit, dtype=np.int64), np.array(extra, dtype=np.int64)])


def test_counts() -> None:
    assert len(ref.POSITIONS) == 5478
    assert len(ref.CLASSES) == 765
    assert int(t.is_position(BOARDS).sum()) == 5478
    assert t.ENCODINGS == ("base4", "base3", "bitboards", "count-rank", "rank", "canonical", "oriented")


@pytest.mark.parametrize("encoding", ref.ENCODERS)
def test_encode_every_grid(encoding: str) -> None:
    expected = [ref.ENCODERS[encoding](b) for b in ref.ALL_BOARDS]
    expected_arr = np.array([-1 if c is None else c for c in expected], np.int32)
    got = t.encode(BOARDS, encoding)
    assert got.dtype == np.int32 and got.shape == (19683,)
    np.testing.assert_array_equal(got, expected_arr)
    np.testing.assert_array_equal(t.encode(BAD_BOARDS, encoding), [-1, -1, -1])


@pytest.mark.parametrize("encoding", ref.ENCODERS)
def test_decode_every_code(encoding: str) -> None:
    codes = codes_to_try(encoding)
    table = ref.decoder(encoding)
    expected = np.array([table.get(int(c), (-1,) * 9) for c in codes], np.int8)
    got = t.decode(codes, encoding)
    assert got.dtype == np.int8 and got.shape == (len(codes), 9)
    np.testing.assert_array_equal(got, expected)
    valid = np.array([int(c) in table for c in codes])
    np.testing.assert_array_equal(t.is_valid(codes, encoding), valid)


@pytest.mark.parametrize("source", ref.ENCODERS)
def test_convert_every_code_to_every_encoding(source: str) -> None:
    codes = codes_to_try(source)
    table = ref.decoder(source)
    boards = [table.get(int(c)) for c in codes]
    for target in ref.ENCODERS:
        expected = []
        for board in boards:
            code = None if board is None else ref.ENCODERS[target](board)
            expected.append(-1 if code is None else code)
        np.testing.assert_array_equal(t.convert(codes, source, target), np.array(expected, np.int32))


@pytest.mark.parametrize(
    "dtype", [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]
)
def test_code_dtypes(dtype: type) -> None:
    info = np.iinfo(dtype)
    values = sorted(v for v in {0, 1, 100, 5477, 5478, 19682, 19683, 2**31, info.max, info.min} if info.min <= v <= info.max)
    codes = np.array(values, dtype)
    expected = [ref.rank(ref.ALL_BOARDS[v]) if 0 <= v < 3**9 else None for v in values]
    expected_arr = np.array([-1 if r is None else r for r in expected], np.int32)
    np.testing.assert_array_equal(t.convert(codes, "base3", "rank"), expected_arr)


def test_shapes_are_kept() -> None:
    codes = np.arange(24).reshape(2, 3, 4)
    assert t.decode(codes, "rank").shape == (2, 3, 4, 9)
    assert t.status(codes, "rank").shape == (2, 3, 4)
    assert t.encode(t.decode(codes, "rank"), "rank").shape == (2, 3, 4)
    scalar = t.status(np.int64(0), "rank")
    assert scalar.shape == () and int(scalar) == 0
    assert t.decode(7, "rank").shape == (9,)
    np.testing.assert_array_equal(t.status([0, 1], "rank"), [0, 0])


def test_validation_every_grid() -> None:
    boards = ref.ALL_BOARDS
    np.testing.assert_array_equal(t.violations(BOARDS), [ref.violations(b) for b in boards])
    # The rules are exact: no violation exactly for the boards reached in play.
    np.testing.assert_array_equal(t.violations(BOARDS) == 0, POSITION_MASK)
    np.testing.assert_array_equal(t.is_position(BOARDS), POSITION_MASK)
    np.testing.assert_array_equal(t.is_valid(BOARDS), np.ones(19683, bool))
    status = [ref.status(b) if p else -1 for b, p in zip(boards, POSITION_MASK)]
    np.testing.assert_array_equal(t.status(BOARDS), status)
    to_move = [
        (ref.mover(b) if ref.status(b) == 0 else 0) if p else -1 for b, p in zip(boards, POSITION_MASK)
    ]
    np.testing.assert_array_equal(t.to_move(BOARDS), to_move)
    winner = [(ref.status(b) if ref.status(b) in (1, 2) else 0) if p else -1 for b, p in zip(boards, POSITION_MASK)]
    np.testing.assert_array_equal(t.winner(BOARDS), winner)
    legal = [ref.legal(b) if p else 0xFFFF for b, p in zip(boards, POSITION_MASK)]
    np.testing.assert_array_equal(t.legal_moves(BOARDS), np.array(legal, np.uint16))
    for fn, sentinel in [
        (t.violations, 255),
        (t.status, -1),
        (t.to_move, -1),
        (t.winner, -1),
        (t.legal_moves, 0xFFFF),
        (t.value, -1),
        (t.distance, -1),
        (t.best_moves, 0xFFFF),
        (t.canonical, -1),
        (t.symmetry_of, -1),
    ]:
        np.testing.assert_array_equal(fn(BAD_BOARDS), [sentinel] * 3)
    np.testing.assert_array_equal(t.is_valid(BAD_BOARDS), [False] * 3)


def test_answers_from_codes_match_answers_from_boards() -> None:
    for encoding in ref.ENCODERS:
        codes = codes_to_try(encoding)
        boards = t.decode(codes, encoding)
        for fn in (t.status, t.violations, t.legal_moves, t.value, t.best_moves, t.symmetry_of, t.is_position):
            np.testing.assert_array_equal(fn(codes, encoding), fn(boards), err_msg=f"{fn.__name__} {encoding}")


def test_perfect_play_every_position() -> None:
    boards = ref.ALL_BOARDS
    solved = [ref.solve(b) if p else (-1, -1, 0xFFFF) for b, p in zip(boards, POSITION_MASK)]
    np.testing.assert_array_equal(t.value(BOARDS), [s[0] for s in solved])
    np.testing.assert_array_equal(t.distance(BOARDS), [s[1] for s in solved])
    np.testing.assert_array_equal(t.best_moves(BOARDS), np.array([s[2] for s in solved], np.uint16))
    assert ref.solve((0,) * 9) == (3, 9, 0x1FF)


def test_symmetry_classes_every_position() -> None:
    boards = ref.ALL_BOARDS
    canonical = [ref.canonical(b) for b in boards]
    symmetry = [ref.symmetry_of(b) for b in boards]
    np.testing.assert_array_equal(t.canonical(BOARDS), [-1 if c is None else c for c in canonical])
    np.testing.assert_array_equal(t.symmetry_of(BOARDS), [-1 if s is None else s for s in symmetry])


def test_symmetry_tables() -> None:
    np.testing.assert_array_equal(t.symmetry_permutations(), ref.PERMUTATIONS)
    inverses = [next(u for u in range(8) if ref.apply(u, ref.apply(s, tuple(range(9)))) == tuple(range(9))) for s in range(8)]
    np.testing.assert_array_equal(t.symmetry_inverses(), inverses)
    assert t.SYMMETRIES[:2] == ("identity", "rot90")


def test_apply_symmetry_every_grid() -> None:
    for s in range(8):
        expected = np.array([ref.apply(s, b) for b in ref.ALL_BOARDS], np.int8)
        np.testing.assert_array_equal(t.apply_symmetry(BOARDS, s), expected)
        np.testing.assert_array_equal(t.apply_symmetry(BOARDS, np.int8(s)), expected)
    per_item = np.arange(19683) % 8
    expected = np.array([ref.apply(int(s), b) for s, b in zip(per_item, ref.ALL_BOARDS)], np.int8)
    np.testing.assert_array_equal(t.apply_symmetry(BOARDS, per_item), expected)
    # A board's class and symmetry rebuild it from the representative.
    positions = BOARDS[POSITION_MASK]
    reps = t.decode(t.canonical(positions), "canonical")
    np.testing.assert_array_equal(t.apply_symmetry(reps, t.symmetry_of(positions)), positions)


def test_apply_symmetry_to_moves_and_masks() -> None:
    moves = np.array(list(range(-2, 12)) * 8)
    syms = np.repeat(np.arange(8), 14)
    expected = [ref.PERMUTATIONS[s][m] if 0 <= m < 9 else -1 for m, s in zip(moves, syms)]
    np.testing.assert_array_equal(t.apply_symmetry_to_moves(moves, syms), expected)
    masks = np.arange(512, dtype=np.uint16)
    for s in range(8):
        expected_masks = [sum(1 << ref.PERMUTATIONS[s][c] for c in range(9) if m >> c & 1) for m in range(512)]
        np.testing.assert_array_equal(t.apply_symmetry_to_masks(masks, s), expected_masks)
        cells = t.masks_to_cells(masks)
        np.testing.assert_array_equal(
            t.apply_symmetry_to_masks(cells, s), t.masks_to_cells(np.array(expected_masks, np.uint16))
        )
    np.testing.assert_array_equal(t.apply_symmetry_to_masks(np.array([0xFFFF], np.uint16), 3), [0xFFFF])


def reference_planes(board: ref.Board, layout: str, me: int) -> np.ndarray:
    if layout == "openspiel":
        planes = np.zeros((3, 3, 3), np.float32)
        for c, v in enumerate(board):
            planes[{0: 0, 2: 1, 1: 2}[v], c // 3, c % 3] = 1.0
        return planes
    planes = np.zeros((3, 3, 2), np.int8)
    for c, v in enumerate(board):
        if v == me:
            planes[c // 3, c % 3, 0] = 1
        elif v != 0:
            planes[c // 3, c % 3, 1] = 1
    return planes.astype(bool) if layout == "pgx" else planes


@pytest.mark.parametrize("layout", ["pettingzoo", "pgx", "openspiel"])
def test_planes_every_grid(layout: str) -> None:
    movers = [ref.mover(b) for b in ref.ALL_BOARDS]
    expected = np.array([reference_planes(b, layout, m) for b, m in zip(ref.ALL_BOARDS, movers)])
    got = t.boards_to_planes(BOARDS, layout)
    assert got.dtype == expected.dtype and got.shape == expected.shape
    np.testing.assert_array_equal(got, expected)
    for me in (1, 2):
        fixed = np.array([reference_planes(b, layout, me) for b in ref.ALL_BOARDS])
        np.testing.assert_array_equal(t.boards_to_planes(BOARDS, layout, me), fixed)
        np.testing.assert_array_equal(t.boards_to_planes(BOARDS, layout, np.full(19683, me)), fixed)
    # Inverse: exact on every grid when the perspective is given; inferred on positions.
    perspective = np.array(movers)
    np.testing.assert_array_equal(t.planes_to_boards(got, layout, perspective), BOARDS)
    np.testing.assert_array_equal(t.planes_to_boards(got[POSITION_MASK], layout), BOARDS[POSITION_MASK])
    # Symmetries act on planes as on boards.
    for s in (1, 6):
        np.testing.assert_array_equal(
            t.apply_symmetry_to_planes(got, s, layout),
            t.boards_to_planes(t.apply_symmetry(BOARDS, s), layout, perspective),
        )


def test_planes_that_are_not_boards() -> None:
    pz = np.zeros((3, 3, 3, 2), np.int8)
    pz[0, 0, 0] = [1, 1]  # a cell in both planes
    pz[1, 0, 0, 0] = 2  # not 0 or 1
    pz[2, 0, 0, 1] = 1  # counts fit no player to move (opponent 1, me 0 is fine: O to move)
    pz[2, 0, 1, 1] = 1  # opponent 2, me 0: no
    np.testing.assert_array_equal(t.planes_to_boards(pz), -np.ones((3, 9), np.int8))
    os_ = np.zeros((2, 3, 3, 3), np.float32)
    os_[1, 0] = 1.0
    os_[1, 1, 0, 0] = 1.0  # cell 0 both empty and O
    np.testing.assert_array_equal(t.planes_to_boards(os_, "openspiel"), -np.ones((2, 9), np.int8))


def test_masks_cells_round_trip() -> None:
    masks = np.arange(512, dtype=np.uint16)
    cells = t.masks_to_cells(masks)
    expected = np.array([[m >> c & 1 for c in range(9)] for m in range(512)], bool)
    np.testing.assert_array_equal(cells, expected)
    np.testing.assert_array_equal(t.cells_to_masks(cells), masks)


def test_selfplay_games_are_legal_random_games() -> None:
    games = t.selfplay(5000, seed=3)
    again = t.selfplay(5000, seed=3)
    for a, b in zip(games, again):
        np.testing.assert_array_equal(a, b)
    assert not np.array_equal(t.selfplay(5000, seed=4).moves, games.moves)
    # Reproducible by prefix: the first games do not depend on how many are asked for.
    np.testing.assert_array_equal(t.selfplay(1500, seed=3).moves, games.moves[:1500])
    np.testing.assert_array_equal(t.encode_games(games.moves, "game"), games.codes)
    for moves, length, result, code in zip(*games):
        board: ref.Board = (0,) * 9
        played = [int(m) for m in moves[:length]]
        assert all(m == -1 for m in moves[length:])
        for m in played:
            assert ref.status(board) == 0 and board[m] == 0
            board = ref.play(board, m)
        assert ref.status(board) == result != 0
        assert ref.game_code(played) == code
    results = np.bincount(games.results, minlength=4)[1:] / len(games.results)
    # Random play: X wins about 58.5%, O 28.8%, draws 12.7%.
    assert abs(results[0] - 0.585) < 0.03 and abs(results[1] - 0.288) < 0.03


@pytest.mark.parametrize(("encoding", "count"), [("game", 255_168), ("prefix", 549_946)])
def test_game_codes_every_code(encoding: str, count: int) -> None:
    codes = np.arange(-2, count + 2)
    moves, lengths = t.decode_games(codes, encoding)
    valid = (codes >= 0) & (codes < count)
    np.testing.assert_array_equal(lengths < 0, ~valid)
    assert (moves[~valid] == -1).all()
    # Every code decodes to a different game, which encodes back to it.
    np.testing.assert_array_equal(t.encode_games(moves[valid], encoding), codes[valid])
    # Against the reference, on a sample: the game is legal, finished for "game", and its code
    # is its index in the tree order.
    rng = np.random.default_rng(0)
    encode = ref.game_code if encoding == "game" else ref.prefix_code
    for i in rng.choice(np.flatnonzero(valid), 3000, replace=False):
        played = [int(m) for m in moves[i, : lengths[i]]]
        assert (moves[i, lengths[i] :] == -1).all()
        board: ref.Board = (0,) * 9
        for m in played:
            assert ref.status(board) == 0 and board[m] == 0
            board = ref.play(board, m)
        assert encoding == "prefix" or ref.status(board) != 0
        assert encode(played) == codes[i]


def test_encode_games_rejects_what_is_not_a_game() -> None:
    pad = [-1] * 9
    rows = np.array(
        [
            [0, 0] + pad[:7],  # occupied cell
            [0, 3, 1, 4, 2, 5] + pad[:3],  # move after the win
            [0, -1, 1] + pad[:6],  # move after the padding
            [9] + pad[:8],  # not a cell
            [0, 1] + pad[:7],  # unfinished: a prefix, not a complete game
            pad,  # the empty game
        ],
        np.int8,
    )
    np.testing.assert_array_equal(t.encode_games(rows, "game"), [-1] * 6)
    np.testing.assert_array_equal(t.encode_games(rows, "prefix")[:4], [-1] * 4)
    assert t.encode_games(rows, "prefix")[5] == 0
    assert t.encode_games(rows, "prefix")[4] == ref.prefix_code([0, 1])
