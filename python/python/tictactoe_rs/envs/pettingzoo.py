"""PettingZoo AEC environment with the semantics of ``pettingzoo.classic.tictactoe_v3``.

Agents ``player_1`` (X, moves first) and ``player_2`` (O); actions ``Discrete(9)`` with cell
``c`` at ``observation[c // 3, c % 3]``; observations are dicts with int8 ``(3, 3, 2)``
agent-relative planes (own marks, then the other's) and an int8 ``action_mask`` (all zeros for
the agent not to move); rewards +1/-1/0 at the end. :func:`env` wraps :class:`raw_env` in the
same PettingZoo wrappers as ``tictactoe_v3.env()``, so an illegal move ends the game with -1 for
the mover and 0 for the other, terminated and truncated. The moves, the win and draw test are
the library's (``_native.play_move``).

Render modes: ``"ansi"`` returns the board as text, ``"human"`` prints it, ``"rgb_array"`` returns
a picture drawn with numpy (no pygame); both lay cell ``c`` at column ``c // 3`` and row
``c % 3``, as PettingZoo's picture does.

>>> from tictactoe_rs.envs.pettingzoo import env
>>> e = env()
>>> e.reset(seed=0)
>>> e.agent_selection
'player_1'
>>> e.step(4)
>>> e.last()[0]["action_mask"].tolist()
[1, 1, 1, 1, 0, 1, 1, 1, 1]
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv
from pettingzoo.utils import AgentSelector, wrappers

from tictactoe_rs import _checks, _native
from tictactoe_rs.envs import _render

__all__ = ["env", "parallel_env", "raw_env"]

# Bit set of cells -> nine 0/1 int8 values.
_BYTES = ((np.arange(512)[:, None] >> np.arange(9)) & 1).astype(np.int8)


def env(**kwargs: Any) -> AECEnv:
    """The wrapped environment, as ``tictactoe_v3.env()`` builds it."""
    environment: AECEnv = raw_env(**kwargs)
    environment = wrappers.TerminateIllegalWrapper(environment, illegal_reward=-1)
    environment = wrappers.AssertOutOfBoundsWrapper(environment)
    environment = wrappers.OrderEnforcingWrapper(environment)
    return environment


def parallel_env(**kwargs: Any) -> Any:
    """The wrapped environment as a parallel one (``turn_based_aec_to_parallel``)."""
    from pettingzoo.utils.conversions import turn_based_aec_to_parallel

    return turn_based_aec_to_parallel(env(**kwargs))


class raw_env(AECEnv, EzPickle):
    """The unwrapped environment (``tictactoe_v3.raw_env``); use :func:`env`."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["human", "rgb_array", "ansi"],
        "name": "tictactoe_v3",
        "is_parallelizable": True,
        "render_fps": 1,
    }

    def __init__(self, render_mode: str | None = None, screen_height: int | None = 1000):
        super().__init__()
        EzPickle.__init__(self, render_mode, screen_height)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode: expected one of {self.metadata['render_modes']}")
        self._x = 0
        self._o = 0
        self.agents = ["player_1", "player_2"]
        self.possible_agents = self.agents[:]
        self.action_spaces = {i: spaces.Discrete(9) for i in self.agents}
        self.observation_spaces = {
            i: spaces.Dict(
                {
                    "observation": spaces.Box(low=0, high=1, shape=(3, 3, 2), dtype=np.int8),
                    "action_mask": spaces.Box(low=0, high=1, shape=(9,), dtype=np.int8),
                }
            )
            for i in self.agents
        }
        self.rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {i: {} for i in self.agents}
        self._agent_selector = AgentSelector(self.agents)
        self.agent_selection = self._agent_selector.reset()
        self.render_mode = render_mode
        self.screen_height = screen_height

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """Planes of ``agent``'s marks and the other's, and its legal moves."""
        me = self.possible_agents.index(agent)
        mine, theirs = (self._x, self._o) if me == 0 else (self._o, self._x)
        observation = np.empty((3, 3, 2), dtype=np.int8)
        observation[:, :, 0] = _BYTES[mine].reshape(3, 3)
        observation[:, :, 1] = _BYTES[theirs].reshape(3, 3)
        return {"observation": observation, "action_mask": self._get_mask(agent)}

    def _get_mask(self, agent: str) -> np.ndarray:
        # As PettingZoo: the empty cells for the agent to move, even once the game is over.
        if agent != self.agent_selection:
            return np.zeros(9, dtype=np.int8)
        return _BYTES[~(self._x | self._o) & 0x1FF].copy()

    def observation_space(self, agent: str) -> spaces.Space:
        """``Dict(observation=Box(0, 1, (3, 3, 2), int8), action_mask=Box(0, 1, (9,), int8))``."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        """``Discrete(9)``."""
        return self.action_spaces[agent]

    def step(self, action: Any) -> None:
        """Marks cell ``action`` for the agent to move (an occupied cell raises, as PettingZoo's
        board asserts; the wrappers of :func:`env` turn it into a loss first). ``action`` is a
        Python or numpy integer: a float or string raises ``TypeError``, as in
        ``tictactoe_v3.raw_env``, and so does a bool (which ``tictactoe_v3.raw_env`` plays as
        cell 0 or 1 and its wrapped ``env`` rejects)."""
        if self.terminations[self.agent_selection] or self.truncations[self.agent_selection]:
            return self._was_dead_step(action)
        cell = _checks.index("action", action)
        self._x, self._o, status = _native.play_move(self._x, self._o, cell)
        if status != 0:
            if status in (1, 2):
                winner = status - 1
                self.rewards[self.agents[winner]] += 1
                self.rewards[self.agents[winner ^ 1]] -= 1
            self.terminations = dict.fromkeys(self.agents, True)
            self._accumulate_rewards()
        self.agent_selection = self._agent_selector.next()
        if self.render_mode == "human":
            self.render()
        return None

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Empties the board; ``player_1`` moves first. The game has no randomness."""
        self._x = self._o = 0
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {i: {} for i in self.agents}
        self._agent_selector.reinit(self.agents)
        self.agent_selection = self._agent_selector.reset()

    def close(self) -> None:
        """Nothing to release."""

    def render(self) -> np.ndarray | str | None:
        """The board in the render mode (see the module docs)."""
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn(
                "You are calling render method without specifying any render mode."
            )
            return None
        if self.render_mode == "rgb_array":
            return _render.rgb(self._x, self._o, int(self.screen_height or 300), transpose=True)
        text = _render.ansi(self._x, self._o, transpose=True)
        if self.render_mode == "human":
            print(text)
            return None
        return text
