"""The PettingZoo AEC environment of ultimate tic-tac-toe, ``env(game="ultimate")`` of
:mod:`tictactoe_rs.envs.pettingzoo` (PettingZoo has no ultimate tic-tac-toe: this one extends
``tictactoe_v3``'s conventions).

Agents ``player_1`` (X, moves first) and ``player_2``; actions ``Discrete(81)``, the move
``9 * board + cell`` (``actions="openspiel"``: ``Discrete(9)``, OpenSpiel's two steps, a board
choice leaving the same agent to move); observation dicts of ``"observation"`` (int8
``(3, 9, 9)`` planes ``[plane, board, cell]``: the agent's marks, the other's, the agent's legal
moves; ``observation="openspiel"``: pyspiel's float32 ``(254,)`` tensor) and an int8
``"action_mask"``, all zeros for the agent not to move and once the game is over; rewards
+1/-1/0 at the end. The rules are the native kernel's (``UltimateKernel``, one game).

>>> from tictactoe_rs.envs.pettingzoo import env
>>> e = env(game="ultimate")
>>> e.reset(seed=0)
>>> e.step(40)                                    # X: centre of the centre board
>>> e.agent_selection, int(e.last()[0]["action_mask"].sum())
('player_2', 8)
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle

from tictactoe_rs import _checks
from tictactoe_rs.envs import _aec_base, _ultimate
from tictactoe_rs.envs._views import views

__all__ = ["UltimateRawEnv"]


class UltimateRawEnv(_aec_base.RawEnv):
    """The unwrapped AEC environment of ultimate tic-tac-toe (see the module docs); the
    ``raw_env(game="ultimate")`` of :mod:`tictactoe_rs.envs.pettingzoo`. ``screen_height``
    sizes the ``rgb_array`` picture; ``screen_scaling`` is accepted for the family's signature
    and unused."""

    metadata: dict[str, Any] = {  # noqa: RUF012
        "render_modes": ["human", "rgb_array", "ansi"],
        "name": "tictactoe_rs_ultimate",
        "is_parallelizable": True,
        "render_fps": 1,
    }

    def __init__(
        self,
        render_mode: str | None = None,
        screen_height: int | None = 1000,
        game: str = "ultimate",
        screen_scaling: int = 9,
        *,
        actions: _ultimate.Actions = "flat",
        observation: _ultimate.Observation = "planes",
    ):
        super().__init__()
        if not _ultimate.is_ultimate(game):
            raise ValueError(f"argument `game`: UltimateRawEnv plays 'ultimate', got {game!r}")
        EzPickle.__init__(
            self, render_mode, screen_height, game, screen_scaling, actions=actions, observation=observation
        )
        self._check_render_mode(render_mode)
        self._kernel = _ultimate.kernel(1, "pettingzoo", actions, observation, autoreset="disabled", seat=0)
        self.actions, self.observation = actions, observation
        self._fields = views(self._kernel, readonly=True)
        box: spaces.Box
        if observation == "planes":
            box = spaces.Box(low=0, high=1, shape=(3, 9, 9), dtype=np.int8)
        else:
            box = spaces.Box(low=0.0, high=1.0, shape=(254,), dtype=np.float32)
        agents = ["player_1", "player_2"]
        self._setup(agents, self._kernel.num_actions, box, render_mode, screen_height, screen_scaling)
        self._kernel.reset()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The agent's observation and its legal actions (none when it is not to move)."""
        me = self.possible_agents.index(agent)
        if self.observation == "planes":
            observation = self._kernel.views(me)[0][0].view(np.int8)
        else:
            observation = self._fields["obs"][0].copy()
        return {"observation": observation, "action_mask": self._get_mask(agent)}

    def _get_mask(self, agent: str) -> np.ndarray:
        if agent != self.agent_selection or self._fields["terminated"][0]:
            return np.zeros(self._kernel.num_actions, dtype=np.int8)
        return self._fields["mask"][0].view(np.int8).copy()

    def step(self, action: Any) -> None:
        """Plays ``action`` for the agent to move: an illegal one raises ``ValueError`` (the
        wrappers of ``env()`` turn it into a loss first), a float, string or bool
        ``TypeError``."""
        if self.terminations[self.agent_selection] or self.truncations[self.agent_selection]:
            return self._was_dead_step(action)
        value = _checks.index("action", action)
        count = self._kernel.num_actions
        if not 0 <= value < count:
            raise ValueError(f"argument `action` must be an action, 0 to {count - 1}, got {value}")
        if not self._fields["mask"][0, value]:
            raise ValueError(f"argument `action`: {value} is not legal here ({self._kernel.boards()[0]})")
        self._kernel.step(np.array([value], dtype=np.int64))
        rewards = self._fields["rewards"][0]
        for k, name in enumerate(self.agents):
            self.rewards[name] = int(rewards[k])
        if self._fields["terminated"][0]:
            self.terminations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()
        self.agent_selection = self.agents[int(self._fields["player"][0])]
        if self.render_mode == "human":
            self.render()
        return None

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Empties the board; ``player_1`` moves first. The game has no randomness."""
        self._kernel.reset()
        self._restart_agents()

    def _picture(self) -> np.ndarray:
        """The position drawn, the board to play tinted."""
        return _ultimate.rgb(self._kernel.boards()[0], int(self.screen_height or 540))

    def _text(self) -> str:
        """The position as text."""
        return _ultimate.ansi(self._kernel.boards()[0])
