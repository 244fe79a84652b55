"""Ultimate tic-tac-toe: nine tic-tac-toe boards in a 3 x 3 meta-board, OpenSpiel's rules.

A move is ``9 * board + cell`` (both numbered row-major from the top left); a move in cell
``c`` sends the opponent to board ``c``, or anywhere open when board ``c`` is won or full.
``Position.openspiel_actions`` turns a move into OpenSpiel's actions (a board choice first
when the mover may choose), and ``openspiel_observation`` is pyspiel's observation tensor of
``ultimate_tic_tac_toe``. The rules and the engine are in ``docs/ultimate.md``.

>>> from tictactoe_rs.ultimate import Position
>>> game = Position()
>>> game.play(40)
>>> game.next_board, game.status
(4, 'ongoing')
"""

from __future__ import annotations

from tictactoe_rs._native import UltimatePosition as Position

__all__ = ["Position"]
