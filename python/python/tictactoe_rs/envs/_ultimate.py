"""Ultimate tic-tac-toe in the environments (numpy only): ``game="ultimate"``, its options and
its pictures.

The environments run on the native ``UltimateKernel`` (``python/src/env/ultimate/``). Two
options, each a keyword of every environment that takes ``game="ultimate"``:

``actions``
    ``"flat"`` (default): 81 actions, the move ``9 * board + cell`` (boards and cells numbered
    row-major from the top left). ``"openspiel"``: OpenSpiel's 9 actions; when the mover may
    choose the board, its action chooses it (no mark, the same player moves again, no reward),
    then the next one marks a cell of that board.
``observation``
    ``"planes"`` (default): ``(3, 9, 9)`` indexed ``[plane, board, cell]``: the viewer's marks,
    the other player's, and the legal moves (the board to play, and after an OpenSpiel board
    choice that board's empty cells; none once the game is over). ``"openspiel"``: pyspiel's
    ``observation_tensor`` of ``ultimate_tic_tac_toe``, float32 ``(254,)``.

>>> from tictactoe_rs.envs._ultimate import grid, is_ultimate
>>> is_ultimate("ultimate"), is_ultimate("connect-four")
(True, False)
>>> text = "X" + "." * 80 + " 0"
>>> grid(text)[0, :3].tolist()
[1, 0, 0]
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np

from tictactoe_rs import _checks, _native
from tictactoe_rs.envs import _render

#: The name ``game=`` takes.
GAME = "ultimate"
#: ``actions=``: the flat 81 moves, or OpenSpiel's two steps.
Actions = Literal["flat", "openspiel"]
#: ``observation=``: our planes, or pyspiel's tensor.
Observation = Literal["planes", "openspiel"]
ACTIONS = ("flat", "openspiel")
OBSERVATIONS = ("planes", "openspiel")
#: The number of actions of each convention.
NUM_ACTIONS = {"flat": 81, "openspiel": 9}


def is_ultimate(game: Any) -> bool:
    """Whether ``game`` names ultimate tic-tac-toe (the string ``"ultimate"``)."""
    return isinstance(game, str) and game == GAME


def options(actions: Any, observation: Any) -> tuple[Actions, Observation]:
    """The two options checked: a ``ValueError`` (``TypeError`` for a non-string) naming the
    argument and the choices."""
    for name, value, choices in (("actions", actions, ACTIONS), ("observation", observation, OBSERVATIONS)):
        if not isinstance(value, str):
            raise TypeError(f"argument `{name}` must be a str, one of {list(choices)}, got {type(value).__name__}")
        if value not in choices:
            raise ValueError(f"argument `{name}` must be one of {list(choices)}, got {value!r}")
    return actions, observation


def refuse_options(game: Any, actions: Any, observation: Any) -> None:
    """A ``ValueError`` when ``actions`` or ``observation`` is set for a game other than
    ultimate (they exist only there)."""
    for name, value, default in (("actions", actions, "flat"), ("observation", observation, "planes")):
        if value != default:
            raise ValueError(f"argument `{name}` is an option of game='ultimate' only, got {value!r} for game={game!r}")


def kernel(
    num_envs: int,
    convention: Literal["pgx", "pettingzoo", "gym"],
    actions: Any = "flat",
    observation: Any = "planes",
    **kwargs: Any,
) -> _native.UltimateKernel:
    """A native kernel of ``num_envs`` games (``kwargs``: ``autoreset``, ``seat``, ``opponent``,
    ``illegal_reward``, ``seed``)."""
    actions, observation = options(actions, observation)
    return _native.UltimateKernel(
        _checks.index("num_envs", num_envs), convention, actions=actions, observation=observation, **kwargs
    )


def observation_shape(observation: str) -> tuple[int, ...]:
    """The shape of one observation of the layout."""
    return (3, 9, 9) if observation == "planes" else (254,)


def grid(text: str) -> np.ndarray:
    """The 9 x 9 grid (row-major, as the text form lays it) of a position's text: int8, 0 empty,
    1 X, 2 O."""
    cells = [c for c in text.split(" ")[0] if c in ".XOxo"]
    codes = {".": 0, "X": 1, "x": 1, "O": 2, "o": 2}
    return np.array([codes[c] for c in cells], dtype=np.int8).reshape(9, 9)


def ansi(text: str) -> str:
    """The position drawn on eleven lines: three bands of three rows of boards, a space between
    boards and a rule between bands, then the board to play (``*``: any)."""
    g = grid(text)
    lines = []
    for r in range(9):
        if r in (3, 6):
            lines.append("------+-------+------")
        row = [".XO"[v] for v in g[r].tolist()]
        lines.append(" | ".join(" ".join(row[k : k + 3]) for k in (0, 3, 6)))
    lines.append(f"board to play: {text.split(' ')[-1]}")
    return "\n".join(lines) + "\n"


def rgb(text: str, height: int = 540) -> np.ndarray:
    """A picture of the position: the 9 x 9 grid in square tiles, thick lines between the small
    boards, the board to play (all open boards when free) tinted yellow."""
    g = grid(text)
    image = _render.grid_rgb(g, height)
    tile = image.shape[0] // 9
    width = max(2, tile // 8)
    for k in (3, 6):
        image[k * tile - width : k * tile + width, :] = 0
        image[:, k * tile - width : k * tile + width] = 0
    target = text.split(" ")[-1]
    if target.isdigit():
        b = int(target)
        r, c = 3 * (b // 3) * tile, 3 * (b % 3) * tile
        view = image[r : r + 3 * tile, c : c + 3 * tile]
        white = (view == 255).all(axis=-1)
        view[white] = (255, 245, 170)
    return image
