"""OpenSpiel interop on the family: against pyspiel's ``connect_four``, ``mnk`` and ``gomoku``,
state by state over random games.

Each case plays seeded random games in pyspiel and replays them in
:class:`tictactoe_rs.mnk.Position`. On every state it compares the observation tensor (of the
player whose turn the ply is, alternating, and of both players at the end), the legal actions,
the current player and, at the end, the returns; it checks :func:`board_from_state` on the last
state and :func:`state_from_board` round trips on the last board and on one board from the
middle of each game. 2,000 games each for Connect Four, mnk (4,4,4) and (5,5,4) and gomoku,
300 for the orientation checks (3 rows x 5 columns; Connect Four on 5 rows x 6 columns).
``TICTACTOE_FAMILY_GAMES=N`` sets every count to ``N``."""

from __future__ import annotations

import os
import random

import numpy as np
import pytest

from tictactoe_rs.envs.openspiel import (
    board_from_state,
    moves_to,
    observation_tensor,
    pyspiel_game,
    rules_from_game,
    state_from_board,
)
from tictactoe_rs.mnk import Position, Rules

pytest.importorskip("pyspiel")

import pyspiel
from open_spiel.python.observation import make_observation


def _games(default: int) -> int:
    override = os.environ.get("TICTACTOE_FAMILY_GAMES")
    return int(override) if override else default


# (our spec, pyspiel game name, its parameters, games)
CASES = [
    ("connect-four", "connect_four", {}, 2_000),
    ("4,4,4", "mnk", {"m": 4, "n": 4, "k": 4}, 2_000),
    ("5,5,4", "mnk", {"m": 5, "n": 5, "k": 4}, 2_000),
    ("gomoku", "gomoku", {}, 2_000),
    ("3,5,3", "mnk", {"m": 5, "n": 3, "k": 3}, 300),
    ("5,6,4,gravity", "connect_four", {"rows": 5, "columns": 6, "x_in_row": 4}, 300),
]


def _tensor(observation, state, player):
    """``state.observation_tensor(player)`` as a numpy copy, through pyspiel's observer."""
    observation.set_from(state, player)
    return observation.tensor.copy()


def test_specs_stand_for_the_peers():
    for spec, name, params, _ in CASES:
        game = pyspiel.load_game(name, params)
        assert pyspiel_game(spec).get_type().short_name == name
        assert pyspiel_game(spec).get_parameters() == game.get_parameters()
        assert rules_from_game(game) == Rules(spec)
    assert rules_from_game(pyspiel.load_game("mnk", {"m": 15, "n": 15, "k": 5})) == Rules.GOMOKU
    with pytest.raises(ValueError, match="not a game of the family"):
        rules_from_game(pyspiel.load_game("kuhn_poker"))
    with pytest.raises(ValueError, match="not a game of the family"):
        rules_from_game(pyspiel.load_game("gomoku", {"wrap": True}))


@pytest.mark.parametrize(("spec", "name", "params", "games"), CASES, ids=[c[0] for c in CASES])
def test_random_games_against_pyspiel(spec, name, params, games):
    game = pyspiel.load_game(name, params)
    rules = Rules(spec)
    shape = tuple(game.observation_tensor_shape())
    returns = set()
    seen = make_observation(game)  # pyspiel's tensor, written into numpy in place
    for g in range(_games(games)):
        rng = random.Random(f"{spec}:{g}")
        state = game.new_initial_state()
        ours = Position(rules)
        boards, tensors = [ours.cells()], [_tensor(seen, state, 0)]
        while not state.is_terminal():
            legal = state.legal_actions()
            # (An assert's message is built only when it fails.)
            assert ours.legal_actions() == legal, f"{spec} game {g} after {state.history()}"
            assert state.current_player() == ours.to_move - 1, f"{spec} game {g} after {state.history()}"
            action = rng.choice(legal)
            state.apply_action(action)
            ours.play(action)
            boards.append(ours.cells())
            tensors.append(_tensor(seen, state, (len(boards) - 1) % 2))
        where = f"{spec} game {g} after {state.history()}"
        assert ours.status != 0 and ours.legal_actions() == [], where
        expected = {1: [1.0, -1.0], 2: [-1.0, 1.0], 0: [0.0, 0.0]}[ours.winner]
        assert state.returns() == expected, where
        returns.add(tuple(expected))
        mine = observation_tensor(np.array(boards), game=spec)
        assert mine.dtype == np.float32 and mine.shape == (len(boards), *shape), where
        np.testing.assert_array_equal(mine.reshape(len(boards), -1), np.array(tensors), err_msg=where)
        assert tensors[-1].tolist() == state.observation_tensor(0), where
        assert mine[-1].ravel().tolist() == state.observation_tensor(1), where
        assert board_from_state(state).tolist() == boards[-1].tolist(), where
        for board in (boards[-1], boards[len(boards) // 2]):
            again = state_from_board(board, game)
            assert board_from_state(again).tolist() == board.tolist(), where
            assert again.is_terminal() == (board is boards[-1]), where
    # Wins of both players in every case, and draws where random play reaches them.
    if _games(games) >= 300:
        assert {(1.0, -1.0), (-1.0, 1.0)} <= returns, returns
    if spec == "4,4,4" and _games(games) >= 300:
        assert (0.0, 0.0) in returns, returns


def test_moves_to_takes_a_spec_and_refuses_what_no_game_reaches():
    # A lone O: O moved first.
    with pytest.raises(ValueError, match="not a reachable position"):
        moves_to(np.r_[np.zeros(35), [2, 0, 0, 0, 0, 0, 0]].astype(np.int8), "connect-four")
    board = np.zeros(16, np.int8)
    board[[0, 5, 10, 15]] = 1
    board[[1, 2, 3]] = 2
    order = moves_to(board, "4,4,4")
    assert order[-1] in (0, 5, 10, 15) and sorted(order) == [0, 1, 2, 3, 5, 10, 15]
    state = state_from_board(board, "4,4,4")
    assert state.is_terminal() and state.returns() == [1.0, -1.0]
    with pytest.raises(ValueError, match="argument `boards`"):
        observation_tensor(np.zeros(41, np.int8), game="connect-four")
    with pytest.raises(ValueError, match="argument `boards`"):
        observation_tensor(np.full(42, 3, np.int8), game="connect-four")
    with pytest.raises(ValueError, match="argument `game`"):
        observation_tensor(np.zeros(42, np.int8), game=pyspiel.load_game("connect_four", {"egocentric_obs_tensor": True}))
    out = np.empty((2, 3, 225), np.float32)
    assert observation_tensor(np.zeros((2, 225), np.int8), out=out, game="gomoku") is out
    assert out[:, 2].all() and not out[:, :2].any()


def _has_line_slow(grid, mark, k):
    """The slow twin: every run of ``k`` cells in each of the four directions, cell by cell."""
    rows, cols = grid.shape
    for r in range(rows):
        for c in range(cols):
            for dr, dc in [(0, 1), (1, 0), (1, 1), (1, -1)]:
                if all(0 <= r + i * dr < rows and 0 <= c + i * dc < cols and grid[r + i * dr, c + i * dc] == mark
                       for i in range(k)):
                    return True
    return False


@pytest.mark.parametrize("spec", ["connect-four", "4,4,4", "3,5,3", "7,7,5", "2,9,3"])
def test_native_lines_against_a_slow_twin(spec):
    from tictactoe_rs._native import mnk_lines

    rules = Rules(spec)
    rng = np.random.default_rng(7)
    # Random fillings (reachable or not: the function reads boards as they are) at every density.
    boards = np.concatenate([
        rng.choice(3, size=(400, rules.cells), p=[1 - d, d / 2, d / 2]).astype(np.int8)
        for d in (0.2, 0.5, 0.8, 1.0)
    ])
    lines = mnk_lines(rules, boards)
    assert lines.dtype == np.uint8 and lines.shape == (len(boards),)
    for board, got in zip(boards, lines.tolist()):
        grid = board.reshape(rules.rows, rules.cols)
        assert got == _has_line_slow(grid, 1, rules.k) | _has_line_slow(grid, 2, rules.k) << 1, board
    assert {0, 1, 2, 3} <= set(lines.tolist())
    with pytest.raises(ValueError, match=r"argument `boards`: board 1 has 3 at cell 0"):
        mnk_lines(rules, np.r_[boards[:1], np.full((1, rules.cells), 3, np.int8)])
    with pytest.raises(ValueError, match="argument `boards` must have"):
        mnk_lines(rules, boards[:, 1:])
