"""The family's analysis over arrays (``tictactoe_rs.mnk.status``, ``legal_moves``, ``solve`` with a
numpy array): each item answered as the library's ``Position`` answers it, in the shape of the
3 x 3 API, and every bad argument named."""

from __future__ import annotations

import doctest

import numpy as np
import pytest

import tictactoe_rs as t
from tictactoe_rs import _native, mnk
from tictactoe_rs.mnk import Position, Rules

GAMES = ["tic-tac-toe", "4,4,4", "connect-four", "6,7,4,gravity", "8,8,5", "gomoku", "19,19,5"]


def playouts(game: str, n: int, seed: int) -> list[Position]:
    """``n`` positions of random games of ``game``, stopped at random plies (some finished)."""
    rng = np.random.default_rng(seed)
    positions = []
    for _ in range(n):
        position = Position(game)
        stop = int(rng.integers(0, position.rules.cells + 1))
        while position.status == t.ONGOING and position.plies < stop:
            position.play(int(rng.choice(position.legal_actions())))
        positions.append(position)
    return positions


def board_array(positions: list[Position]) -> np.ndarray:
    return np.stack([p.cells() for p in positions]).astype(np.int8)


@pytest.mark.parametrize("game", GAMES)
def test_status_and_legal_moves_match_the_positions(game):
    positions = playouts(game, 60, seed=len(game))
    boards = board_array(positions)
    status = mnk.status(boards, game)
    assert status.dtype == np.int8 and status.shape == (60,)
    assert status.tolist() == [p.status for p in positions]
    legal = mnk.legal_moves(boards, game)
    assert legal.dtype == np.int8 and legal.shape == (60, Rules(game).actions)
    for row, position in zip(legal, positions):
        assert row.astype(bool).tolist() == position.legal_mask().tolist()
    # Any leading shape: the answers keep it.
    shaped = boards.reshape(3, 20, -1)
    assert mnk.status(shaped, game).shape == (3, 20)
    assert (mnk.status(shaped, game).ravel() == status).all()
    assert mnk.legal_moves(shaped, game).shape == (3, 20, Rules(game).actions)


def test_tic_tac_toe_matches_the_3x3_api_on_every_grid():
    grids = t.decode(np.arange(3**9), "base3")
    assert (mnk.status(grids, "tic-tac-toe") == t.status(grids)).all()
    reachable = t.status(grids) >= 0
    masks = t.masks_to_cells(t.legal_moves(grids[reachable]))
    assert (mnk.legal_moves(grids[reachable], "tic-tac-toe").astype(bool) == masks).all()
    assert (mnk.legal_moves(grids[~reachable], "tic-tac-toe") == -1).all()


@pytest.mark.parametrize("game", ["connect-four", "4,4,4"])
def test_keys_answer_as_the_boards_they_encode(game):
    keys = np.array([_native.mnk_root_key(game)], np.int64)
    layers = [keys]
    for _ in range(5):
        _, keys, _ = _native.mnk_expand(game, np.unique(keys))
        layers.append(keys)
    keys = np.unique(np.concatenate(layers))
    status = mnk.status(keys, game, "keys")
    legal = mnk.legal_moves(keys, game, "keys")
    assert status.shape == keys.shape and legal.shape == (len(keys), Rules(game).actions)
    assert (status == 0).all()
    # Depth 5 of 4,4,4 and Connect Four: every position still has moves.
    assert (legal.sum(axis=1) > 0).all()
    # The key of no position answers -1, as a board that is no position does.
    bad = np.array([-1, 2**62], np.int64)
    assert mnk.status(bad, game, "keys").tolist() == [-1, -1]
    assert (mnk.legal_moves(bad, game, "keys") == -1).all()


def test_items_that_are_no_positions_answer_minus_one():
    boards = np.zeros((4, 42), np.int8)
    boards[0, 0] = 1  # a floating mark in Connect Four's top row
    boards[1, 41] = 2  # O moved first
    boards[2, 40] = 3  # not a mark
    status = mnk.status(boards, "connect-four")
    assert status.tolist() == [-1, -1, -1, 0]
    legal = mnk.legal_moves(boards, "connect-four")
    assert (legal[:3] == -1).all() and legal[3].tolist() == [1] * 7


def test_out_is_written_in_place_and_checked():
    boards = board_array(playouts("connect-four", 8, seed=1))
    out = np.full(8, 9, np.int8)
    assert mnk.status(boards, "connect-four", out=out) is out
    assert out.tolist() == mnk.status(boards, "connect-four").tolist()
    out = np.zeros((8, 7), np.int8)
    assert mnk.legal_moves(boards, "connect-four", out=out) is out
    with pytest.raises(ValueError, match="argument `out` is read-only"):
        frozen = np.zeros(8, np.int8)
        frozen.flags.writeable = False
        mnk.status(boards, "connect-four", out=frozen)
    with pytest.raises(ValueError, match=r"argument `out` must have shape \[8\]"):
        mnk.status(boards, "connect-four", out=np.zeros(7, np.int8))
    with pytest.raises(TypeError, match="argument `out` must be a numpy array of dtype int8"):
        mnk.status(boards, "connect-four", out=np.zeros(8, np.int16))


def test_bad_arguments_are_named():
    boards = np.zeros((2, 42), np.int8)
    with pytest.raises(TypeError, match="argument `x` must have dtype int8, got float64"):
        mnk.status(boards.astype(float), "connect-four")
    with pytest.raises(ValueError, match=r"argument `x` must have shape \(\.\.\., 42\)"):
        mnk.legal_moves(boards[:, :41], "connect-four")
    with pytest.raises(ValueError, match="argument `encoding` must be \"boards\" or \"keys\""):
        mnk.status(boards, "connect-four", "rank")
    with pytest.raises(ValueError, match="argument `game`"):
        mnk.status(boards, "7,7,9")
    with pytest.raises(ValueError, match="argument `game`: the keys of gomoku do not fit an int64"):
        mnk.status(np.zeros(2, np.int64), "gomoku", "keys")
    with pytest.raises(TypeError, match="argument `x` must be an integer array"):
        mnk.status(np.zeros(2), "connect-four", "keys")
    with pytest.raises(TypeError, match="argument `game` is needed"):
        mnk.solve(boards)
    # Other integer dtypes are read as int8 (a value that does not fit is no cell).
    wide = boards.astype(np.int64)
    wide[0, 0] = 257
    assert mnk.status(wide, "connect-four").tolist() == [-1, 0]


def test_solve_over_an_array_equals_solve_over_positions():
    positions = playouts("4,4,3", 12, seed=3)
    boards = board_array(positions).reshape(3, 4, -1)
    labels = mnk.solve(boards, "4,4,3")
    reference = mnk.solve(positions)
    assert labels.value.shape == (3, 4) and labels.best.shape == (3, 4, 16)
    assert (labels.value.ravel() == reference.value).all()
    assert (labels.distance.ravel() == reference.distance).all()
    assert (labels.score.ravel() == reference.score).all()
    assert (labels.best.reshape(12, 16) == reference.best).all()
    weak = mnk.solve(boards, "4,4,3", weak=True)
    assert weak.distance is None and (weak.value == labels.value).all()
    bad = board_array(positions)
    bad[5, 0] = 7
    with pytest.raises(ValueError, match="argument `positions`: item 5 is not a position of 4,4,3"):
        mnk.solve(bad, "4,4,3")
    keys = np.array([_native.mnk_root_key("connect-four")], np.int64)
    _, children, _ = _native.mnk_expand("connect-four", keys)
    _, grandchildren, _ = _native.mnk_expand("connect-four", children)
    with pytest.raises(ValueError, match="argument `max_nodes` must be at least 1"):
        mnk.solve(grandchildren, "connect-four", encoding="keys", max_nodes=0)
    unsolved = mnk.solve(grandchildren[:2], "connect-four", encoding="keys", max_nodes=1)
    assert unsolved.value.tolist() == [-1, -1]


def test_docstring_examples_run():
    runner = doctest.DocTestRunner()
    parser = doctest.DocTestParser()
    for name, obj in [("mnk", mnk), ("status", mnk.status), ("legal_moves", mnk.legal_moves)]:
        assert ">>>" in (obj.__doc__ or ""), name
        runner.run(parser.get_doctest(obj.__doc__ or "", {}, name, None, 0))
    assert runner.failures == 0
