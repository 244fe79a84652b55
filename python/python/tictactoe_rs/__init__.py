"""Vectorised tic-tac-toe for numpy, from the ``tictactoe`` Rust library.

Every function takes and returns numpy arrays, works on any number of items at once, releases
the GIL, reads C-contiguous input in place and writes into ``out=`` when given. Items that are
not what a function needs (a code that does not decode, a board that is not a reachable
position) get a documented sentinel, never a wrong value. Boards are int8 arrays of shape
``(..., 9)``: cell ``i`` is row ``i // 3``, column ``i % 3``; 0 empty, 1 X, 2 O.

The reference is ``docs/python.md``. The environments live in ``tictactoe_rs.envs``, imported
only on request (this module imports numpy and nothing else).

>>> import numpy as np, tictactoe_rs as t
>>> boards = t.decode(np.arange(5478), "rank")
>>> int((t.status(boards) == 0).sum())
4520
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from tictactoe_rs import _native
from tictactoe_rs._native import (
    ENCODINGS,
    SYMMETRIES,
    __version__,
    apply_symmetry,
    apply_symmetry_to_masks,
    apply_symmetry_to_moves,
    apply_symmetry_to_planes,
    best_moves,
    boards_to_planes,
    canonical,
    cells_to_masks,
    convert,
    decode,
    decode_games,
    distance,
    encode,
    encode_games,
    is_position,
    is_valid,
    legal_moves,
    masks_to_cells,
    planes_to_boards,
    status,
    symmetry_inverses,
    symmetry_of,
    symmetry_permutations,
    to_move,
    value,
    violations,
    winner,
)

if TYPE_CHECKING:  # for annotations only: `np` and `npt` are no names of the package
    import numpy as np
    import numpy.typing as npt

#: Status numbers (``status``, and the results of ``selfplay``).
ONGOING, X_WON, O_WON, DRAW = 0, 1, 2, 3
#: Player numbers (cells of boards, ``to_move``, ``winner``).
EMPTY, X, O = 0, 1, 2
#: Violation bits (``violations``), in the library's order.
O_STARTED, X_WENT_TWICE, CONTINUED_AFTER_WIN = 1, 2, 4
#: The sentinel of the uint16 move masks (``legal_moves``, ``best_moves``).
NO_MASK = 0xFFFF


class SelfPlay(NamedTuple):
    """Games of random self-play (see ``selfplay``)."""

    moves: npt.NDArray[np.int8]
    """``(n, 9)`` cells played in order, padded with -1."""
    lengths: npt.NDArray[np.int8]
    """``(n,)`` number of moves, 5 to 9."""
    results: npt.NDArray[np.int8]
    """``(n,)`` final status: 1 X won, 2 O won, 3 draw."""
    codes: npt.NDArray[np.int32]
    """``(n,)`` the library's ``game`` code of each game (0 to 255,167)."""


def selfplay(n: int, seed: int = 0) -> SelfPlay:
    """``n`` games of uniformly random legal moves, generated on all cores.

    Game ``i`` depends only on ``seed`` and ``i``, whatever the number of cores.

    >>> import tictactoe_rs as t
    >>> games = t.selfplay(1000, seed=1)
    >>> games.moves.shape, int(games.lengths.min()) >= 5
    ((1000, 9), True)
    """
    return SelfPlay(*_native.selfplay(n, seed))


# Written out, not built from `_native.__all__`: type checkers and stubtest read a literal list,
# and the package's face differs from the native module's (status constants, no kernels).
__all__ = [
    "CONTINUED_AFTER_WIN",
    "DRAW",
    "EMPTY",
    "ENCODINGS",
    "NO_MASK",
    "ONGOING",
    "O_STARTED",
    "O_WON",
    "SYMMETRIES",
    "X_WENT_TWICE",
    "X_WON",
    "O",
    "SelfPlay",
    "X",
    "__version__",
    "apply_symmetry",
    "apply_symmetry_to_masks",
    "apply_symmetry_to_moves",
    "apply_symmetry_to_planes",
    "best_moves",
    "boards_to_planes",
    "canonical",
    "cells_to_masks",
    "convert",
    "decode",
    "decode_games",
    "distance",
    "encode",
    "encode_games",
    "is_position",
    "is_valid",
    "legal_moves",
    "masks_to_cells",
    "planes_to_boards",
    "selfplay",
    "status",
    "symmetry_inverses",
    "symmetry_of",
    "symmetry_permutations",
    "to_move",
    "value",
    "violations",
    "winner",
]
