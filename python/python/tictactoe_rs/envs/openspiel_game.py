"""Every game of the family as an OpenSpiel game on our engine: importing this module registers
``python_tictactoe_rs`` with ``pyspiel``, a Python game whose states are
:class:`tictactoe_rs.mnk.Position` and whose parameter ``game`` is a spec (default
``"tic-tac-toe"``).

Its actions, players, returns (+1/-1, 0 for a draw, at the end) and observation tensors are
those of the pyspiel game the spec stands for (:func:`tictactoe_rs.envs.openspiel.pyspiel_game`:
``tic_tac_toe``, ``connect_four``, ``gomoku`` or ``mnk``); the state and observation strings are
the board as ``tic_tac_toe`` and ``mnk`` print theirs (``x``, ``o``, ``.``, one row a line from
the top). A game string separates its parameters by commas, so there a spec's commas are written
as colons: ``load_game("python_tictactoe_rs(game=6:7:4:gravity)")``, or
``load_game("python_tictactoe_rs", {"game": "6,7,4,gravity"})``.

>>> import pyspiel
>>> import tictactoe_rs.envs.openspiel_game
>>> game = pyspiel.load_game("python_tictactoe_rs", {"game": "connect-four"})
>>> state = game.new_initial_state()
>>> state.apply_action(3)
>>> state.legal_actions(), game.observation_tensor_shape()
([0, 1, 2, 3, 4, 5, 6], [3, 6, 7])
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.observation import IIGObserverForPublicInfoGame

from tictactoe_rs.envs import _family, _ultimate, _ultimate_openspiel
from tictactoe_rs.envs.openspiel import OUR_GAME, _peer, observation_tensor
from tictactoe_rs.mnk import Position, Rules

__all__ = ["TicTacToeRsGame", "TicTacToeRsState"]

_GAME_TYPE = pyspiel.GameType(
    short_name=OUR_GAME,
    long_name="tictactoe_rs: a game of the k-in-a-row family",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"game": "tic-tac-toe"},
)


class TicTacToeRsGame(pyspiel.Game):
    """The game of ``params["game"]`` (a spec, default tic-tac-toe)."""

    def __init__(self, params: dict[str, Any] | None = None):
        spec = dict(params or {}).get("game", "tic-tac-toe")
        #: ``game="ultimate"``: ultimate tic-tac-toe, as pyspiel's ``ultimate_tic_tac_toe``.
        self.ultimate = _ultimate.is_ultimate(spec)
        if self.ultimate:
            super().__init__(_GAME_TYPE, _ultimate_openspiel.game_info(), {"game": _ultimate.GAME})
            return
        self.rules: Rules = _family.rules(spec.replace(":", ",") if isinstance(spec, str) else spec)
        # The game string separates parameters by commas: the spec keeps colons in it, so that
        # str(game), pickling and pyspiel's serialization load the same game back.
        params = {"game": str(self.rules).replace(",", ":")}
        info = pyspiel.GameInfo(
            num_distinct_actions=self.rules.actions,
            max_chance_outcomes=0,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=self.rules.cells,
        )
        super().__init__(_GAME_TYPE, info, params)

    def new_initial_state(self) -> Any:
        """The empty board, X (player 0) to move."""
        if self.ultimate:
            return _ultimate_openspiel.UltimateRsState(self)
        return TicTacToeRsState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
        """The board observer (perfect information), or OpenSpiel's public-info observer for
        perfect-recall observation types."""
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            if self.ultimate:
                return _ultimate_openspiel.UltimateObserver(params)
            return BoardObserver(self.rules, params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class TicTacToeRsState(pyspiel.State):
    """A state: a :class:`~tictactoe_rs.mnk.Position` of the game's rules."""

    def __init__(self, game: TicTacToeRsGame):
        super().__init__(game)
        self.position = Position(game.rules)

    def current_player(self) -> int:
        """0 (X) or 1 (O) to move, or ``PlayerId.TERMINAL``."""
        to_move = self.position.to_move  # 1 X, 2 O, 0 over
        if to_move == 0:
            return int(pyspiel.PlayerId.TERMINAL)
        return to_move - 1

    def _legal_actions(self, player: int) -> list[int]:
        return self.position.legal_actions()

    def _apply_action(self, action: int) -> None:
        self.position.play(action)

    def _action_to_string(self, player: int, action: int) -> str:
        mark = "xo"[player] if player in (0, 1) else "?"
        rules = self.position.rules
        if rules.gravity:
            return f"{mark}{action}"
        return f"{mark}({action // rules.cols},{action % rules.cols})"

    def is_terminal(self) -> bool:
        return self.position.status != 0  # ONGOING

    def returns(self) -> list[float]:
        winner = self.position.winner
        x = 1.0 if winner == 1 else -1.0 if winner == 2 else 0.0
        return [x, -x]

    def __str__(self) -> str:
        return self.position.board.lower().replace("/", "\n")


class BoardObserver:
    """The observation tensor of the pyspiel game the rules stand for, and the board text."""

    def __init__(self, rules: Rules, params: Any):
        if params:
            raise ValueError(f"argument `params`: observation parameters are not supported, got {params}")
        self.rules = rules
        self.layout = _peer(rules)[0]
        if self.layout == "gomoku":
            shape: tuple[int, ...] = (3, rules.cells)
        else:
            shape = (3, rules.rows, rules.cols)
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: TicTacToeRsState, player: int) -> None:
        """The tensor of ``state`` (the same for both players)."""
        observation_tensor(state.position.cells(), out=self.dict["observation"], game=self.rules)

    def string_from(self, state: TicTacToeRsState, player: int) -> str:
        """The board, as ``str(state)``."""
        return str(state)


pyspiel.register_game(_GAME_TYPE, TicTacToeRsGame)
