"""OpenSpiel interop, state by state against ``pyspiel`` on all 5,478 positions."""

from __future__ import annotations

import numpy as np
import pytest

import tictactoe_rs as t
from tictactoe_rs.envs.openspiel import (
    board_from_state,
    moves_to,
    observation_tensor,
    state_from_board,
)

pyspiel = pytest.importorskip("pyspiel")


def _every_state():
    """Every distinct position of pyspiel's game, reached by its own moves (breadth first)."""
    game = pyspiel.load_game("tic_tac_toe")
    seen = {}
    frontier = [game.new_initial_state()]
    while frontier:
        following = []
        for state in frontier:
            key = tuple(board_from_state(state))
            if key in seen:
                continue
            seen[key] = state
            if not state.is_terminal():
                for action in state.legal_actions():
                    following.append(state.child(action))
        frontier = following
    return game, seen


def test_all_positions_against_pyspiel():
    _, states = _every_state()
    assert len(states) == 5478
    boards = np.array(list(states), dtype=np.int8)
    ours = observation_tensor(boards)
    assert ours.shape == (5478, 3, 3, 3) and ours.dtype == np.float32
    legal = t.legal_moves(boards)
    to_move, winner = t.to_move(boards), t.winner(boards)
    # Every board pyspiel reaches is a position of ours, and every rank is reached.
    assert sorted(t.encode(boards, "rank").tolist()) == list(range(5478))
    for i, state in enumerate(states.values()):
        for player in (0, 1):
            tensor = np.reshape(state.observation_tensor(player), (3, 3, 3))
            assert ours[i].tolist() == tensor.tolist()
        assert [c for c in range(9) if legal[i] >> c & 1] == (
            [] if state.is_terminal() else state.legal_actions())
        assert state.current_player() == (
            pyspiel.PlayerId.TERMINAL if to_move[i] == 0 else to_move[i] - 1)
        if state.is_terminal():
            x_return = {t.X: 1.0, t.O: -1.0}.get(int(winner[i]), 0.0)
            assert state.returns() == [x_return, -x_return]
        # Action c of pyspiel marks our cell c.
        for action in ([] if state.is_terminal() else state.legal_actions()):
            child = board_from_state(state.child(action))
            expected = boards[i].copy()
            expected[action] = t.X if to_move[i] == t.X else t.O
            assert child.tolist() == expected.tolist()


def test_state_from_board_round_trips_every_position():
    boards = t.decode(np.arange(5478), "rank")
    game = pyspiel.load_game("tic_tac_toe")
    for board in boards:
        state = state_from_board(board, game)
        assert board_from_state(state).tolist() == board.tolist()
    with pytest.raises(ValueError, match="argument `board`: not a reachable position"):
        moves_to([2, 0, 0, 0, 0, 0, 0, 0, 0])
