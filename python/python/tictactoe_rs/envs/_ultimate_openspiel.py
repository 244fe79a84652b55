"""Ultimate tic-tac-toe as the pyspiel game ``python_tictactoe_rs(game=ultimate)`` of
:mod:`tictactoe_rs.envs.openspiel_game`: states on :class:`tictactoe_rs.ultimate.Position`, with
the actions, players, returns, observation tensor and strings of pyspiel's own
``ultimate_tic_tac_toe`` (OpenSpiel's two steps: when the mover may choose the board, a first
action chooses it, then the cell).

>>> import pyspiel
>>> import tictactoe_rs.envs.openspiel_game
>>> game = pyspiel.load_game("python_tictactoe_rs", {"game": "ultimate"})
>>> state = game.new_initial_state()
>>> state.apply_action(4)                         # choose the centre board
>>> state.action_to_string(0, 4), state.current_player()
('Local board 4: x(1,1)', 0)
>>> game.observation_tensor_shape(), game.max_game_length()
([254], 162)
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from tictactoe_rs.ultimate import Position

__all__ = ["UltimateObserver", "UltimateRsState", "game_info"]

#: pyspiel's ``ultimate_tic_tac_toe``: nine actions, at most 81 moves of two actions each.
MAX_GAME_LENGTH = 162


def game_info() -> pyspiel.GameInfo:
    """The ``GameInfo`` of pyspiel's ``ultimate_tic_tac_toe``."""
    return pyspiel.GameInfo(
        num_distinct_actions=9,
        max_chance_outcomes=0,
        num_players=2,
        min_utility=-1.0,
        max_utility=1.0,
        utility_sum=0.0,
        max_game_length=MAX_GAME_LENGTH,
    )


class UltimateRsState(pyspiel.State):
    """A state: a :class:`~tictactoe_rs.ultimate.Position` and, between OpenSpiel's two steps,
    the board chosen."""

    def __init__(self, game: Any):
        super().__init__(game)
        self.position = Position()
        self.chosen: int | None = None

    def _board(self) -> int | None:
        """The board of the mover's next cell, if it is known (sent there, or chosen)."""
        return self.position.next_board if self.chosen is None else self.chosen

    def current_player(self) -> int:
        """0 (X) or 1 (O) to move, or ``PlayerId.TERMINAL``."""
        return int(self.position.openspiel_player())

    def _legal_actions(self, player: int) -> list[int]:
        moves = self.position.legal_moves()
        board = self._board()
        if board is None:
            return sorted({m // 9 for m in moves})
        return [m % 9 for m in moves if m // 9 == board]

    def _apply_action(self, action: int) -> None:
        board = self._board()
        if board is None:
            self.chosen = action
        else:
            self.position.play(9 * board + action)
            self.chosen = None

    def _action_to_string(self, player: int, action: int) -> str:
        board = self._board()
        if board is None:
            return f"Choose local board {action}"
        return f"Local board {board}: {'xo'[player] if player in (0, 1) else '?'}({action // 3},{action % 3})"

    def is_terminal(self) -> bool:
        return self.position.status != "ongoing"

    def returns(self) -> list[float]:
        return list(self.position.returns())

    def tensor(self) -> np.ndarray:
        """pyspiel's observation tensor, float32 ``(254,)``."""
        values = self.position.openspiel_observation()
        if self.chosen is not None:
            values[244:] = 0.0
            values[244 + self.chosen] = 1.0
        return values

    def __str__(self) -> str:
        values = self.tensor()
        cells = np.where(values[162:243] == 1, "x", np.where(values[81:162] == 1, "o", "."))
        bands = []
        for band in range(3):
            rows = []
            for row in range(3):
                boards = [3 * band + k for k in range(3)]
                rows.append(" ".join("".join(cells[9 * b + 3 * row : 9 * b + 3 * row + 3]) for b in boards))
            bands.append("\n".join(rows))
        forced = int(np.argmax(values[244:]))
        return (
            "\n\n".join(bands)
            + f"\n\nCurrent player: {int(values[243])}\nForced board: {'any' if forced == 9 else forced}"
        )


class UltimateObserver:
    """pyspiel's observation tensor (the same for both players) and string."""

    def __init__(self, params: Any):
        if params:
            raise ValueError(f"argument `params`: observation parameters are not supported, got {params}")
        self.tensor = np.zeros(254, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: UltimateRsState, player: int) -> None:
        """The tensor of ``state``."""
        self.tensor[:] = state.tensor()

    def string_from(self, state: UltimateRsState, player: int) -> str:
        """``str(state)``, as pyspiel's observation string."""
        return str(state)
