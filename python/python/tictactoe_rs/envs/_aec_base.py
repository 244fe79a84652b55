"""What the PettingZoo AEC environments share: the family's ``raw_env``
(:mod:`tictactoe_rs.envs.pettingzoo`) and ultimate's ``UltimateRawEnv``
(:mod:`tictactoe_rs.envs._ultimate_pettingzoo`) keep the same agents' bookkeeping (spaces,
rewards, flags, the agent selector), check ``render_mode`` the same way, and render through one
loop; each subclass says how a move is played and how its game is observed and drawn
(``_picture`` for ``rgb_array``, ``_text`` for ``ansi`` and ``human``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv
from pettingzoo.utils import AgentSelector

__all__ = ["RawEnv"]


class RawEnv(AECEnv, EzPickle):
    """A two-agent turn-based environment (see the module docs). A subclass calls
    :meth:`_check_render_mode` and :meth:`_setup`, and defines ``_picture`` and ``_text``."""

    metadata: dict[str, Any]

    def _check_render_mode(self, render_mode: Any) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"argument `render_mode` must be one of {self.metadata['render_modes']} or None, got {render_mode!r}"
            )

    def _setup(
        self,
        agents: list[str],
        actions: int,
        observation: spaces.Space,
        render_mode: str | None,
        screen_height: int | None,
        screen_scaling: int,
    ) -> None:
        """The agents, their spaces (``Dict(observation=..., action_mask=Box(0, 1, (actions,),
        int8))`` and ``Discrete(actions)``) and their state at the start."""
        self.agents = agents
        self.possible_agents = self.agents[:]
        self.action_spaces = {i: spaces.Discrete(actions) for i in self.agents}
        mask = spaces.Box(low=0, high=1, shape=(actions,), dtype=np.int8)
        self.observation_spaces = {
            i: spaces.Dict({"observation": observation, "action_mask": mask}) for i in self.agents
        }
        self.rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {i: {} for i in self.agents}
        self._agent_selector = AgentSelector(self.agents)
        self.agent_selection = self._agent_selector.reset()
        self.render_mode = render_mode
        self.screen_height = screen_height
        self.screen_scaling = screen_scaling

    def _restart_agents(self) -> None:
        """Every agent back in play, no reward, the first to move."""
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {i: {} for i in self.agents}
        self._agent_selector.reinit(self.agents)
        self.agent_selection = self._agent_selector.reset()

    def observation_space(self, agent: str) -> spaces.Space:
        """``Dict(observation=..., action_mask=Box(0, 1, (actions,), int8))``."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        """``Discrete(actions)``."""
        return self.action_spaces[agent]

    def close(self) -> None:
        """Nothing to release."""

    def _picture(self) -> np.ndarray:
        raise NotImplementedError

    def _text(self) -> str:
        raise NotImplementedError

    def render(self) -> np.ndarray | str | None:
        """The game as a picture (``rgb_array``) or text (``ansi``; ``human`` prints it)."""
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn("You are calling render method without specifying any render mode.")
            return None
        if self.render_mode == "rgb_array":
            return self._picture()
        text = self._text()
        if self.render_mode == "human":
            print(text)
            return None
        return text
