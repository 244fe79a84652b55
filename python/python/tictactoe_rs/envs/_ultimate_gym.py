"""Gymnasium environments of ultimate tic-tac-toe: :class:`UltimateEnv` (one game against an
opponent) and :class:`UltimateVectorEnv` (``num_envs`` of them in the native kernel, what
``SyncVectorEnv`` over single envs returns), registered as ``tictactoe_rs/Ultimate-v0`` by
:mod:`tictactoe_rs.envs.gymnasium`, which also makes them for ``MnkEnv(game="ultimate")``.

- Observation: ``observation="planes"`` (default) int8 ``(3, 9, 9)`` indexed
  ``[plane, board, cell]``: the agent's marks, the opponent's, the agent's legal moves;
  ``"openspiel"``: pyspiel's float32 ``(254,)`` tensor.
- Action: ``actions="flat"`` (default) ``Discrete(81)``, the move ``9 * board + cell``;
  ``"openspiel"``: ``Discrete(9)``, OpenSpiel's two steps (a board choice is a step of its
  own: no reward, the agent moves again, the opponent does not answer).
- ``info["action_mask"]`` (int8) and :meth:`UltimateEnv.action_masks` (bool): the legal
  actions, all ones once the game is over.
- Reward +1 win, -1 loss, 0 otherwise; an illegal move ends the game with ``illegal_reward``.
- ``opponent``: ``"random"`` (a uniformly random legal move from each game's own stream),
  ``"heuristic"`` or ``"mcts:N"`` (``"mcts"``: 10,000 playouts a move), the library's players
  (``tictactoe::ultimate::agents``, one shared by the games, seeded from the reset's seed; a
  search stops on Ctrl-C), all native, or a callable called ONCE
  per step (and per reset where it opens) with every game that waits for it:
  ``opponent(observations, masks) -> moves``, int8 ``(k, 3, 9, 9)`` planes from its own view and
  int8 ``(k, 81)`` legal moves, an integer array of ``k`` flat moves back, whatever the agent's
  ``actions``; if it raises or answers anything illegal the step is undone and the error raised.

>>> from tictactoe_rs.envs._ultimate_gym import UltimateEnv
>>> env = UltimateEnv(opponent="random")
>>> obs, info = env.reset(seed=0)
>>> obs.shape, int(info["action_mask"].sum())
((3, 9, 9), 81)
>>> obs, reward, terminated, truncated, info = env.step(40)
>>> int(obs[0].sum()), int(obs[1].sum())
(1, 1)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from tictactoe_rs import _checks, _native
from tictactoe_rs.envs import _gym_base, _ultimate

__all__ = ["UltimateEnv", "UltimateVectorEnv"]

Opponent = str | Callable[[np.ndarray, np.ndarray], Any]


def _make_kernel(
    num_envs: int,
    opponent: Opponent,
    agent: Any,
    illegal_reward: float,
    autoreset: str,
    actions: Any,
    observation: Any,
) -> _native.UltimateKernel:
    seat = _gym_base.seat(agent)
    if callable(opponent):
        name = "external"
    elif isinstance(opponent, str) and opponent != "external":
        name = opponent  # the kernel reads it: random, heuristic, mcts or mcts:N
    else:
        raise ValueError(
            f"argument `opponent` must be 'random', 'heuristic', 'mcts', 'mcts:N' or a callable, got {opponent!r}"
        )
    return _ultimate.kernel(
        num_envs,
        "gym",
        actions,
        observation,
        autoreset=autoreset,
        seat=seat,
        opponent=name,
        illegal_reward=illegal_reward,
    )


def _settle(kernel: _native.UltimateKernel, opponent: Opponent) -> None:
    """Asks a callable opponent for a move in every game that waits for one, one call for all
    of them (flat moves, whatever the agent's ``actions``). Atomic: if it raises or answers
    anything illegal, the kernel goes back to the state before the ``reset`` or ``step`` that
    called it, and the error propagates."""
    if not callable(opponent):
        return
    try:
        # A game that ends in the opponent's move may restart with the opponent to open: twice.
        for _ in range(2):
            pending = np.flatnonzero(kernel.pending())
            if len(pending) == 0:
                return
            observations, masks = kernel.views(1)
            _gym_base.play_batch(kernel, opponent, pending, observations[pending], masks[pending])
    except BaseException:
        kernel.rollback()
        raise


def _observation_space(observation: str) -> spaces.Box:
    if observation == "planes":
        return spaces.Box(0, 1, (3, 9, 9), np.int8)
    return spaces.Box(0.0, 1.0, (254,), np.float32)


class UltimateEnv(_gym_base.SingleEnv):
    """One game of ultimate tic-tac-toe against an opponent (see the module docs);
    ``tictactoe_rs/Ultimate-v0``, and ``MnkEnv(game="ultimate")``."""

    def __init__(
        self,
        opponent: Opponent = "random",
        agent: Literal["x", "o", "random"] = "x",
        illegal_reward: float = -1.0,
        render_mode: Literal["human", "rgb_array", "ansi"] | None = None,
        *,
        game: str = "ultimate",
        actions: _ultimate.Actions = "flat",
        observation: _ultimate.Observation = "planes",
    ) -> None:
        if not _ultimate.is_ultimate(game):
            raise ValueError(f"argument `game`: UltimateEnv plays 'ultimate', got {game!r}")
        self._check_render_mode(render_mode)
        self.game = _ultimate.GAME
        self.opponent = opponent
        self.render_mode = render_mode
        self._kernel = _make_kernel(1, opponent, agent, illegal_reward, "disabled", actions, observation)
        self.actions, self.observation = actions, observation
        self.observation_space = _observation_space(observation)
        self.action_space = spaces.Discrete(self._kernel.num_actions)
        self._bind(obs_as_int8=observation != "openspiel")

    def _settle(self) -> None:
        _settle(self._kernel, self.opponent)

    def _action(self, action: Any) -> int:
        """A flat move, or an OpenSpiel board or cell."""
        bound = self._kernel.num_actions
        value = _checks.index("action", action)
        if not 0 <= value < bound:
            raise ValueError(f"argument `action` must be an action, 0 to {bound - 1}, got {value}")
        return value

    def render(self) -> np.ndarray | str | None:
        """The position: text (``ansi``; ``human`` prints it after every reset and step) or a
        picture (``rgb_array``, the board to play tinted)."""
        if self.render_mode is None:
            gym.logger.warn("You are calling render method without specifying any render mode.")
            return None
        text = self._kernel.boards()[0]
        if self.render_mode == "rgb_array":
            return _ultimate.rgb(text)
        drawing = _ultimate.ansi(text)
        if self.render_mode == "human":
            print(drawing)
            return None
        return drawing


class UltimateVectorEnv(_gym_base.VectorEnv):
    """``num_envs`` games of ultimate tic-tac-toe against the opponent, stepped together by the
    native kernel; ``gym.make_vec("tictactoe_rs/Ultimate-v0", num_envs)``. Game ``i`` of
    ``reset(seed=s)`` is seeded with ``s + i``, so the games are those of ``SyncVectorEnv``
    over single :class:`UltimateEnv`\\ s."""

    def __init__(
        self,
        num_envs: int,
        opponent: Opponent = "random",
        agent: Literal["x", "o", "random"] = "x",
        illegal_reward: float = -1.0,
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
        copy: bool = True,
        *,
        game: str = "ultimate",
        actions: _ultimate.Actions = "flat",
        observation: _ultimate.Observation = "planes",
    ) -> None:
        if not _ultimate.is_ultimate(game):
            raise ValueError(f"argument `game`: UltimateVectorEnv plays 'ultimate', got {game!r}")
        mode = _gym_base.autoreset_mode(autoreset_mode)
        num_envs = _checks.index("num_envs", num_envs)
        self.game = _ultimate.GAME
        self.metadata = {"autoreset_mode": mode, "render_modes": []}
        self.num_envs = num_envs
        self.opponent = opponent
        self.copy = copy
        autoreset = _gym_base.AUTORESET[mode]
        self._kernel = _make_kernel(num_envs, opponent, agent, illegal_reward, autoreset, actions, observation)
        self.actions, self.observation = actions, observation
        self._num_actions = self._kernel.num_actions
        self.single_observation_space = _observation_space(observation)
        self.single_action_space = spaces.Discrete(self._num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._bind(mode, obs_as_int8=observation == "planes")

    def _settle(self) -> None:
        _settle(self._kernel, self.opponent)
