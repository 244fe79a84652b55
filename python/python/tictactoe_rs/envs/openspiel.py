"""Interop with OpenSpiel's games of the family: ``tic_tac_toe``, ``connect_four``, ``mnk`` and
``gomoku`` (numpy only; ``pyspiel`` is imported by the functions that take or make its games and
states).

``game=`` says which: a spec (``"connect-four"``, ``"gomoku"``, ``"4,4,4"``, ``"6,7,4,gravity"``),
a :class:`~tictactoe_rs.mnk.Rules`, or a ``pyspiel`` game of one of those four (or the
``python_tictactoe_rs`` game of :mod:`tictactoe_rs.envs.openspiel_game`). A spec or rules stand
for the pyspiel game :func:`pyspiel_game` loads: tic-tac-toe for ``tic_tac_toe``, a gravity game
for ``connect_four(rows, columns, x_in_row)``, the gomoku preset for ``gomoku(size=15,
connect=5)`` and every other game for ``mnk(m=cols, n=rows, k)``; pass a pyspiel game to pick
another (``mnk(m=15, n=15, k=5)`` is our gomoku too). The default is tic-tac-toe.

Boards are int8 ``(..., rows * cols)`` arrays, row-major from the top, 0 empty, 1 X, 2 O (for
tic-tac-toe the package's ``(..., 9)`` boards). OpenSpiel's player 0 is X and moves first, and
its actions are ours: the cell ``row * cols + col`` (row 0 at the top), or the column with
gravity. Observation tensors are float32 in pyspiel's shape, the same for both players:

======================  =========================  ===========================================
pyspiel game            shape                      planes
======================  =========================  ===========================================
``tic_tac_toe``, mnk    ``(3, rows, cols)``        empty, O, X; row 0 at the top
``connect_four``        ``(3, rows, cols)``        X, O, empty; row 0 at the **bottom**
``gomoku``              ``(3, rows * cols)``       X (black), O (white), all ones while the game
                                                   goes on with X to move, else zeros
======================  =========================  ===========================================

>>> import numpy as np
>>> from tictactoe_rs.envs.openspiel import observation_tensor
>>> observation_tensor(np.array([0, 1, 0, 0, 2, 0, 0, 0, 0], np.int8))[2].tolist()
[[0.0, 1.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]
>>> board = np.zeros(42, np.int8)
>>> board[38] = 1                                    # X in the bottom row, column 3
>>> observation_tensor(board, game="connect-four")[0, 0].tolist()
[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0]
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

import tictactoe_rs as t
from tictactoe_rs import _native
from tictactoe_rs.envs import _family
from tictactoe_rs.mnk import Position, Rules

__all__ = [
    "board_from_state",
    "moves_to",
    "observation_tensor",
    "pyspiel_game",
    "rules_from_game",
    "state_from_board",
]

# The Python game of ours (tictactoe_rs.envs.openspiel_game) and its `game` parameter.
OUR_GAME = "python_tictactoe_rs"


def _is_pyspiel_game(game: Any) -> bool:
    return hasattr(game, "new_initial_state") and hasattr(game, "get_type")


def _peer(rules: Rules) -> tuple[str, dict[str, Any]]:
    """The pyspiel game (name, parameters) a spec or rules stand for."""
    if rules == Rules.TIC_TAC_TOE:
        return "tic_tac_toe", {}
    if rules.gravity:
        return "connect_four", {"rows": rules.rows, "columns": rules.cols, "x_in_row": rules.k}
    if rules == Rules.GOMOKU:
        return "gomoku", {"size": rules.rows, "connect": rules.k}
    return "mnk", {"m": rules.cols, "n": rules.rows, "k": rules.k}


def rules_from_game(game: Any) -> Rules:
    """The :class:`~tictactoe_rs.mnk.Rules` of a ``pyspiel`` game of the family (its type and
    parameters); a game outside the family (or ``gomoku`` with ``dims``, ``wrap`` or ``anti``
    set) is a ``ValueError`` naming ``game``."""
    name = game.get_type().short_name
    params = game.get_parameters()
    if name == "tic_tac_toe":
        return Rules.TIC_TAC_TOE
    if name == "connect_four":
        return Rules.of(params["rows"], params["columns"], params["x_in_row"], gravity=True)
    if name == "mnk":
        return Rules.of(params["n"], params["m"], params["k"])
    if name == "gomoku" and params.get("dims", 2) == 2 and not params.get("wrap") and not params.get("anti"):
        return Rules.of(params["size"], params["size"], params["connect"])
    if name == OUR_GAME:
        return game.rules
    raise ValueError(f"argument `game`: {game} is not a game of the family (tic_tac_toe, connect_four, mnk, gomoku)")


def _resolve(game: Any) -> tuple[Rules, str]:
    """``game`` as (our rules, the name of the pyspiel game whose layout it has)."""
    if _is_pyspiel_game(game):
        rules = rules_from_game(game)
        name = game.get_type().short_name
        if name == "connect_four" and game.get_parameters().get("egocentric_obs_tensor"):
            raise ValueError("argument `game`: connect_four with egocentric_obs_tensor is not supported")
        return rules, (_peer(rules)[0] if name == OUR_GAME else name)
    rules = _family.rules(game)
    return rules, _peer(rules)[0]


def pyspiel_game(game: Rules | str = "tic-tac-toe") -> Any:
    """The ``pyspiel`` game a spec or rules stand for (see the module docs), loaded.

    >>> pyspiel_game("5,5,4")  # doctest: +SKIP
    mnk(k=4,m=5,n=5)
    """
    import pyspiel

    name, params = _peer(_family.rules(game))
    return pyspiel.load_game(name, params)


def _boards(boards: npt.ArrayLike, rules: Rules) -> npt.NDArray[np.int8]:
    """``boards`` as int8 ``(..., cells)``; ``TypeError`` / ``ValueError`` naming ``boards``."""
    array = np.asarray(boards)
    if array.dtype.kind not in "iu":
        raise TypeError(f"argument `boards` must hold integers, got dtype {array.dtype}")
    if array.ndim == 0 or array.shape[-1] != rules.cells:
        raise ValueError(
            f"argument `boards` must have {rules.cells} cells in its last axis for {rules}, "
            f"got shape {array.shape}"
        )
    if array.size and (array.min() < 0 or array.max() > 2):
        raise ValueError("argument `boards` must hold 0 (empty), 1 (X) or 2 (O)")
    return array.astype(np.int8, copy=False)


def observation_tensor(
    boards: npt.ArrayLike, out: npt.NDArray[np.float32] | None = None, game: Any = "tic-tac-toe"
) -> npt.NDArray[np.float32]:
    """``state.observation_tensor()`` of each board, float32 of shape ``(...,) + `` pyspiel's
    ``observation_tensor_shape()`` (see the module docs), written into ``out`` when given."""
    rules, name = _resolve(game)
    if name == "tic_tac_toe":
        return t.boards_to_planes(boards, "openspiel", out=out)
    cells = _boards(boards, rules)
    lead = cells.shape[:-1]
    if name == "gomoku":
        lines = _native.mnk_lines(rules, np.ascontiguousarray(cells.reshape(-1, rules.cells)))
        marks = (cells != 0).sum(axis=-1)
        ongoing = (lines.reshape(lead) == 0) & (marks < rules.cells)
        black = np.broadcast_to((ongoing & (marks % 2 == 0))[..., None], cells.shape)
        tensor = np.stack([cells == 1, cells == 2, black], axis=-2)
    else:
        grid = cells.reshape(*lead, rules.rows, rules.cols)
        if name == "connect_four":
            grid = grid[..., ::-1, :]
            tensor = np.stack([grid == 1, grid == 2, grid == 0], axis=-3)
        else:
            tensor = np.stack([grid == 0, grid == 2, grid == 1], axis=-3)
    if out is None:
        return tensor.astype(np.float32)
    if out.dtype != np.float32 or out.shape != tensor.shape:
        raise ValueError(f"argument `out` must be float32 of shape {tensor.shape}, got {out.dtype} {out.shape}")
    out[...] = tensor
    return out


def board_from_state(state: Any) -> npt.NDArray[np.int8]:
    """The int8 ``(rows * cols,)`` board of a ``pyspiel`` state of a game of the family
    (replays its history); a state of another game raises ``ValueError`` naming ``state``."""
    game = state.get_game()
    name = game.get_type().short_name
    if name == "tic_tac_toe":
        board = np.zeros(9, dtype=np.int8)
        for ply, action in enumerate(state.history()):
            board[action] = 1 + ply % 2
        return board
    try:
        rules = rules_from_game(game)
    except ValueError:
        raise ValueError(
            f"argument `state` must be a state of tic_tac_toe, connect_four, mnk or gomoku, got one of {name}"
        ) from None
    position = Position(rules)
    for action in state.history():
        position.play(action)
    return position.cells()


def moves_to(board: npt.ArrayLike, game: Any = "tic-tac-toe") -> list[int]:
    """A move order (actions, X first) that reaches ``board``, a reachable position of
    ``game``, without passing through a finished one. The winner's last mark is one whose
    removal leaves no line (at the top of its column with gravity), and no subset of a set of
    marks without a line has one; with gravity the columns are stacked by a depth-first search
    over their heights. Raises ``ValueError`` for a board that is not a reachable position."""
    rules = _resolve(game)[0]
    if rules == Rules.TIC_TAC_TOE:
        return _moves_to_3x3(board)
    cells = _boards(board, rules).reshape(rules.cells)
    text = "/".join("".join(".XO"[v] for v in row) for row in cells.reshape(rules.rows, rules.cols).tolist())
    try:
        winner = Position.from_board(rules, text).winner
    except ValueError as error:
        raise ValueError(f"argument `board`: not a reachable position: {error}") from None
    last_candidates = []
    if winner:
        mark = winner  # 1 X, 2 O
        mine = np.flatnonzero(cells == mark)
        without = np.repeat(cells[None], mine.size, axis=0)
        without[np.arange(mine.size), mine] = 0
        last_candidates = mine[_native.mnk_lines(rules, without) == 0].tolist()
    if not rules.gravity:
        xs, os = np.flatnonzero(cells == 1).tolist(), np.flatnonzero(cells == 2).tolist()
        if last_candidates:
            last = xs if winner == 1 else os
            last.remove(last_candidates[0])
            last.append(last_candidates[0])
        return [xs[i // 2] if i % 2 == 0 else os[i // 2] for i in range(len(xs) + len(os))]
    grid = cells.reshape(rules.rows, rules.cols)
    stacks = [[int(v) for v in grid[::-1, c] if v] for c in range(rules.cols)]
    if not winner:
        order = _stack_order(stacks)
    else:
        order = None
        for cell in last_candidates:
            col = cell % rules.cols
            if cell // rules.cols != rules.rows - len(stacks[col]):
                continue  # not the top of its column
            below = [s[:-1] if c == col else s for c, s in enumerate(stacks)]
            order = _stack_order(below)
            if order is not None:
                order.append(col)
                break
    if order is None:  # from_board found an order, so one exists
        raise ValueError(f"argument `board`: no move order found for {text}")
    return order


def _stack_order(stacks: list[list[int]]) -> list[int] | None:
    """Columns to play, X (1) first and alternating, that stack every column as ``stacks``
    lists it from the bottom; ``None`` when there is none. Depth first, remembering the column
    heights from which it failed (the side to move follows from them)."""
    heights = [0] * len(stacks)
    total = sum(map(len, stacks))
    failed: set[tuple[int, ...]] = set()
    order: list[int] = []

    def extend(placed: int) -> bool:
        if placed == total:
            return True
        key = tuple(heights)
        if key in failed:
            return False
        player = 1 + placed % 2
        for col, stack in enumerate(stacks):
            if heights[col] < len(stack) and stack[heights[col]] == player:
                heights[col] += 1
                order.append(col)
                if extend(placed + 1):
                    return True
                heights[col] -= 1
                order.pop()
        failed.add(key)
        return False

    return order if extend(0) else None


def _moves_to_3x3(board: npt.ArrayLike) -> list[int]:
    """:func:`moves_to` for tic-tac-toe, on the package's 3 × 3 functions."""
    cells = np.asarray(board, dtype=np.int8).reshape(9)
    if not t.is_position(cells[None])[0]:
        raise ValueError(f"argument `board`: not a reachable position: {cells.tolist()}")
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
    """A ``pyspiel`` state at ``board``: of ``game`` when it is a pyspiel game, else of
    :func:`pyspiel_game` of ``game`` (a spec or rules; ``None`` is tic-tac-toe)."""
    if not _is_pyspiel_game(game):
        game = pyspiel_game("tic-tac-toe" if game is None else game)
    state = game.new_initial_state()
    for action in moves_to(board, game):
        state.apply_action(action)
    return state
