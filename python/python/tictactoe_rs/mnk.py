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
>>> game.status, game.winner
('x-won', 'X')
"""

from __future__ import annotations

from tictactoe_rs._native import MnkPosition as Position
from tictactoe_rs._native import MnkRules as Rules

#: The presets, in the library's order: tic-tac-toe, 4x4, Connect Four, gomoku.
PRESETS: tuple[Rules, ...] = (
    Rules.TIC_TAC_TOE,
    Rules.FOUR_BY_FOUR,
    Rules.CONNECT_FOUR,
    Rules.GOMOKU,
)

__all__ = ["PRESETS", "Position", "Rules"]
