"""Interop with OpenSpiel's ``tic_tac_toe`` (numpy only; ``pyspiel`` is imported by the two
functions that take or make its states).

OpenSpiel numbers the actions as the library numbers the cells (action ``c`` marks row
``c // 3``, column ``c % 3``), player 0 plays X (``x``) and moves first, and its observation
tensor is float32 ``[3, 3, 3]``: planes empty, O (``o``), X, seen by nobody in particular (both
players get the same tensor). Boards are the package's int8 ``(..., 9)`` arrays (0 empty, 1 X,
2 O).

>>> import numpy as np
>>> from tictactoe_rs.envs.openspiel import observation_tensor
>>> observation_tensor(np.array([0, 1, 0, 0, 2, 0, 0, 0, 0], np.int8))[2].tolist()
[[0.0, 1.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

import tictactoe_rs as t

__all__ = ["board_from_state", "moves_to", "observation_tensor", "state_from_board"]


def observation_tensor(
    boards: npt.ArrayLike, out: npt.NDArray[np.float32] | None = None
) -> npt.NDArray[np.float32]:
    """``state.observation_tensor()`` of each board, shape ``(..., 3, 3, 3)`` float32."""
    return t.boards_to_planes(boards, "openspiel", out=out)


def board_from_state(state: Any) -> npt.NDArray[np.int8]:
    """The int8 ``(9,)`` board of a ``pyspiel`` ``tic_tac_toe`` state (replays its history);
    a state of another game raises ``ValueError`` naming ``state``."""
    name = state.get_game().get_type().short_name
    if name != "tic_tac_toe":
        raise ValueError(f"argument `state` must be a state of tic_tac_toe, got one of {name}")
    board = np.zeros(9, dtype=np.int8)
    for ply, action in enumerate(state.history()):
        board[action] = 1 + ply % 2
    return board


def moves_to(board: npt.ArrayLike) -> list[int]:
    """A move order (cells, X first) that reaches ``board``, a reachable position, without
    passing through a finished one: the last mover's last mark is one whose removal leaves no
    line, and no subset of a set of marks without a line has one. Raises ``ValueError`` for a
    board that is not a reachable position."""
    cells = np.asarray(board, dtype=np.int8).reshape(9)
    if not t.is_position(cells[None])[0]:
        raise ValueError(f"board: not a reachable position: {cells.tolist()}")
    xs, os = list(np.flatnonzero(cells == 1)), list(np.flatnonzero(cells == 2))
    last = xs if len(xs) > len(os) else os
    if last:
        for cell in last:
            before = cells.copy()
            before[cell] = 0
            if t.status(before[None])[0] == t.ONGOING:
                last.remove(cell)
                last.append(cell)
                break
    order = []
    for i in range(len(xs) + len(os)):
        order.append(int(xs[i // 2] if i % 2 == 0 else os[i // 2]))
    return order


def state_from_board(board: npt.ArrayLike, game: Any = None) -> Any:
    """A ``pyspiel`` state of ``tic_tac_toe`` (``game`` or a new one) at ``board``."""
    if game is None:
        import pyspiel

        game = pyspiel.load_game("tic_tac_toe")
    state = game.new_initial_state()
    for action in moves_to(board):
        state.apply_action(action)
    return state
