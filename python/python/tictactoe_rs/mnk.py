"""The k-in-a-row family: m,n,k-games on boards up to 19 x 19, with or without gravity.

Tic-tac-toe, 4 x 4, Connect Four and gomoku in one engine, the library's ``mnk`` module one
position at a time. ``Rules`` says the game (a spec string: ``"connect-four"``, ``"gomoku"``,
``"4,4,4"``, ``"6,7,4,gravity"``); ``Position`` plays it. A line of ``k`` **or more** of one
player's marks wins; a full board without one is a draw; X moves first. A move is an
*action*: the column (0 at the left) with gravity, the cell ``row * cols + col`` (row 0 at the
top) without, as in OpenSpiel's ``mnk``, ``gomoku`` and ``connect_four``.

The reference is the "Python" section of ``docs/family.md``.

>>> from tictactoe_rs.mnk import Position
>>> game = Position("gomoku")
>>> for x, o in [(112, 0), (113, 1), (114, 2), (115, 3)]:
...     _ = game.play(x), game.play(o)
>>> game.play(116)
(7, 11)
>>> import tictactoe_rs as t
>>> game.status == t.X_WON, game.winner == t.X
(True, True)

``status``, ``winner`` and ``to_move`` are the numbers of the 3 x 3 API (``tictactoe_rs.ONGOING``,
``X_WON``, ``O_WON``, ``DRAW``; ``tictactoe_rs.X``, ``O``, 0 for none), and :func:`solve`'s
values the statuses the games end in.

Over arrays, in the shape of the 3 x 3 API (``tictactoe_rs.status(x, encoding)``):
:func:`status`, :func:`legal_moves` and :func:`solve` take numpy arrays of boards (int8
``(..., cells)``, row-major from the top, 0 empty, 1 X, 2 O) or of keys
(``encoding="keys"``: the int64 keys of :mod:`tictactoe_rs.data.family`) and answer each item.

>>> import numpy as np
>>> from tictactoe_rs import mnk
>>> boards = np.zeros((2, 42), np.int8)
>>> boards[1, 35:39] = 1                    # X: four in the bottom row
>>> boards[1, 28:31] = 2                    # O: three on top of them
>>> mnk.status(boards, "connect-four").tolist(), mnk.legal_moves(boards, "connect-four")[1].tolist()
([0, 1], [0, 0, 0, 0, 0, 0, 0])
>>> mnk.solve(np.zeros((1, 9), np.int8), "tic-tac-toe").value.tolist()
[3]
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

from numpy import ndarray as _ndarray

from tictactoe_rs._native import Position, Rules
from tictactoe_rs._native import mnk_legal_moves as legal_moves
from tictactoe_rs._native import mnk_solve as _solve
from tictactoe_rs._native import mnk_solve_array as _solve_array
from tictactoe_rs._native import mnk_status as status

if TYPE_CHECKING:  # for annotations only: `np` and `npt` are no names of the module
    import numpy as np
    import numpy.typing as npt

#: The presets, in the library's order: tic-tac-toe, 4x4, Connect Four, gomoku.
PRESETS: tuple[Rules, ...] = (
    Rules.TIC_TAC_TOE,
    Rules.FOUR_BY_FOUR,
    Rules.CONNECT_FOUR,
    Rules.GOMOKU,
)


class Solutions(NamedTuple):
    """Perfect play for a batch of positions (see :func:`solve`), one entry per position."""

    #: int8: the status the game ends in, 1 X wins (``X_WON``), 2 O wins (``O_WON``), 3 draw
    #: (``DRAW``); -1 when not solved within the node budget.
    value: npt.NDArray[np.int8]
    #: int16: plies to the end under perfect play (a draw's is the number of empty cells);
    #: -1 when unsolved; ``None`` with ``weak=True``.
    distance: npt.NDArray[np.int16] | None
    #: int16: the score for the side to move, positive when it wins: ``(cells + 1) // 2 + 1``
    #: minus the winner's marks at the win (Connect Four: 22 minus them, as in Pons'
    #: benchmark sets), 0 for a draw (and when unsolved); ``None`` with ``weak=True``.
    score: npt.NDArray[np.int16] | None
    #: bool, shape ``(N, rules.actions)``: the moves that keep the value and the distance;
    #: no move when the game is over or unsolved; ``None`` with ``weak=True``.
    best: npt.NDArray[np.bool_] | None


def solve(
    positions: Iterable[Position | str] | npt.NDArray[Any],
    game: Rules | str | None = None,
    *,
    encoding: Literal["boards", "keys"] = "boards",
    weak: bool | np.bool_ = False,
    max_nodes: int | np.integer[Any] | None = None,
) -> Solutions:
    """Solve a batch of positions of one game, without holding the GIL, as label arrays.

    ``positions`` is a sequence (any iterable but a string) of ``Position`` objects or strings:
    a board (rows top to bottom separated by ``/``) or, with gravity, column digits 1-9 played
    from the empty board (``"4453"``); one position is a list of one, and a bare string is a
    ``TypeError``. ``game`` (a ``Rules`` or a spec) is needed for strings; positions must all
    be of it. ``weak=True`` answers only the value, faster. ``max_nodes`` bounds the search of
    each position, Connect Four's included (default 10^8, about a minute; a position not
    solved within it gets the value -1). Ctrl-C stops the search within about a tenth of a
    second (``KeyboardInterrupt``). A bad item is a ``ValueError`` or ``TypeError`` naming its index.

    ``positions`` may also be a numpy array of boards or keys (``encoding``, as in
    :func:`status`; ``game`` is then required): the labels have the items' shape (``best`` one
    more axis, of actions), and an item that is not a position is a ``ValueError`` naming its
    index.

    >>> from tictactoe_rs.mnk import solve
    >>> labels = solve(["4455", "445566"], "connect-four")
    >>> labels.value.tolist(), labels.distance.tolist(), labels.score.tolist()
    ([1, 1], [3, 1], [18, 18])
    >>> labels.best.nonzero()[1].tolist()
    [2, 5, 2, 6]
    """
    if isinstance(positions, _ndarray):
        if game is None:
            raise TypeError("argument `game` is needed to read an array of positions")
        return Solutions(*_solve_array(positions, game, encoding, weak=weak, max_nodes=max_nodes))
    return Solutions(*_solve(positions, game, weak=weak, max_nodes=max_nodes))


__all__ = ["PRESETS", "Position", "Rules", "Solutions", "legal_moves", "solve", "status"]
