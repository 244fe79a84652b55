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
- ``opponent``: ``"random"`` (a uniformly random legal move, native) or a callable called ONCE
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
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from tictactoe_rs import _checks, _native
from tictactoe_rs.envs import _ultimate
from tictactoe_rs.envs._views import views

__all__ = ["UltimateEnv", "UltimateVectorEnv"]

Opponent = str | Callable[[np.ndarray, np.ndarray], Any]
_SEATS: dict[str, Literal[0, 1, "random"]] = {"x": 0, "o": 1, "random": "random"}
_MODES = {
    AutoresetMode.NEXT_STEP: "next_step",
    AutoresetMode.SAME_STEP: "same_step",
    AutoresetMode.DISABLED: "disabled",
}


def _make_kernel(
    num_envs: int,
    opponent: Opponent,
    agent: Any,
    illegal_reward: float,
    autoreset: str,
    actions: Any,
    observation: Any,
) -> _native.UltimateKernel:
    if not isinstance(agent, str) or agent not in _SEATS:
        raise ValueError(f"argument `agent` must be 'x', 'o' or 'random', got {agent!r}")
    if callable(opponent):
        name = "external"
    elif opponent == "random":
        name = "random"
    else:
        raise ValueError(f"argument `opponent` must be 'random' or a callable, got {opponent!r}")
    return _ultimate.kernel(
        num_envs,
        "gym",
        actions,
        observation,
        autoreset=autoreset,
        seat=_SEATS[agent],
        opponent=name,
        illegal_reward=illegal_reward,
    )


def _settle(kernel: _native.UltimateKernel, opponent: Opponent) -> None:
    """Asks a callable opponent for a move in every game that waits for one, one call for all
    of them. Atomic: if it raises or answers anything illegal, the kernel goes back to the state
    before the ``reset`` or ``step`` that called it, and the error propagates."""
    if not callable(opponent):
        return
    try:
        # A game that ends in the opponent's move may restart with the opponent to open: twice.
        for _ in range(2):
            pending = np.flatnonzero(kernel.pending())
            if len(pending) == 0:
                return
            observations, masks = kernel.views(1)
            k = len(pending)
            moves = opponent(observations[pending].view(np.int8), masks[pending].view(np.int8))
            if not isinstance(moves, np.ndarray) or moves.dtype == np.bool_ or moves.dtype.kind not in "iu":
                got = f"dtype {moves.dtype}" if isinstance(moves, np.ndarray) else type(moves).__name__
                raise TypeError(f"the opponent must return an integer array of {k} moves, got {got}")
            if moves.shape != (k,):
                raise ValueError(f"the opponent must return shape ({k},), got {moves.shape}")
            outside = (moves < 0) | (moves >= 81)
            if outside.any():
                bad = int(np.flatnonzero(outside)[0])
                raise ValueError(
                    f"the opponent's move {int(moves[bad])} in game {int(pending[bad])} is not a move (0 to 80)"
                )
            actions = np.zeros(len(kernel), dtype=np.int64)
            actions[pending] = moves
            kernel.finish(actions)
    except BaseException:
        kernel.rollback()
        raise


def _autoreset(value: Any) -> AutoresetMode:
    """An ``AutoresetMode`` from itself, its value or ``BatchedEnv``'s spelling."""
    if isinstance(value, AutoresetMode):
        return value
    for mode, name in _MODES.items():
        if value in (mode.value, name):
            return mode
    raise ValueError(f"argument `autoreset_mode` must be an AutoresetMode or its name, got {value!r}")


def _observation_space(observation: str) -> spaces.Box:
    if observation == "planes":
        return spaces.Box(0, 1, (3, 9, 9), np.int8)
    return spaces.Box(0.0, 1.0, (254,), np.float32)


class UltimateEnv(gym.Env):
    """One game of ultimate tic-tac-toe against an opponent (see the module docs);
    ``tictactoe_rs/Ultimate-v0``, and ``MnkEnv(game="ultimate")``."""

    metadata: dict[str, Any] = {"render_modes": ["human", "rgb_array", "ansi"], "render_fps": 1}  # noqa: RUF012

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
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"argument `render_mode` must be one of {self.metadata['render_modes']} or None, got {render_mode!r}"
            )
        self.game = _ultimate.GAME
        self.opponent = opponent
        self.render_mode = render_mode
        self._kernel = _make_kernel(1, opponent, agent, illegal_reward, "disabled", actions, observation)
        self.actions, self.observation = actions, observation
        self.observation_space = _observation_space(observation)
        self.action_space = spaces.Discrete(self._kernel.num_actions)
        fields = views(self._kernel, readonly=True)
        self._fields = fields
        self._obs = fields["obs"] if observation == "openspiel" else fields["obs"].view(np.int8)
        self._mask = fields["mask"].view(np.int8)
        self._seeded = False

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """A new game; with ``seed``, the seat draws and the opponent's choices restart from it."""
        seeds = None
        if seed is not None:
            seeds = np.array([_checks.seed("seed", seed)], dtype=np.uint64)
        super().reset(seed=seed)
        if seeds is None and not self._seeded:
            seeds = np.array([self.np_random.integers(2**63)], dtype=np.uint64)
        self._seeded = True
        self._kernel.reset(seeds)
        _settle(self._kernel, self.opponent)
        if self.render_mode == "human":
            self.render()
        return self._obs[0].copy(), {"action_mask": self._mask[0].copy()}

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """The agent plays ``action`` (a flat move, or an OpenSpiel board or cell), then the
        opponent answers (not after a board choice)."""
        bound = self._kernel.num_actions
        value = _checks.index("action", action)
        if not 0 <= value < bound:
            raise ValueError(f"argument `action` must be an action, 0 to {bound - 1}, got {value}")
        self._kernel.step(np.array([value], dtype=np.int64))
        _settle(self._kernel, self.opponent)
        if self.render_mode == "human":
            self.render()
        return (
            self._obs[0].copy(),
            float(self._fields["rewards"][0, 0]),
            bool(self._fields["terminated"][0]),
            False,
            {"action_mask": self._mask[0].copy()},
        )

    def action_masks(self) -> np.ndarray:
        """The actions the agent may play now (bool)."""
        return self._mask[0].astype(bool)

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


class UltimateVectorEnv(VectorEnv):
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
        mode = _autoreset(autoreset_mode)
        num_envs = _checks.index("num_envs", num_envs)
        self.game = _ultimate.GAME
        self.metadata = {"autoreset_mode": mode, "render_modes": []}
        self.num_envs = num_envs
        self.opponent = opponent
        self.copy = copy
        self._kernel = _make_kernel(num_envs, opponent, agent, illegal_reward, _MODES[mode], actions, observation)
        self.actions, self.observation = actions, observation
        self._num_actions = self._kernel.num_actions
        self.single_observation_space = _observation_space(observation)
        self.single_action_space = spaces.Discrete(self._num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        fields = views(self._kernel, readonly=True)
        self._fields = fields
        planes = observation == "planes"
        self._obs = fields["obs"].view(np.int8) if planes else fields["obs"]
        self._final = fields["final_obs"].view(np.int8) if planes else fields["final_obs"]
        self._mask = fields["mask"].view(np.int8)
        self._mode = mode
        self._seeded = False

    def _out(self, array: np.ndarray) -> np.ndarray:
        return array.copy() if self.copy else array

    def reset(
        self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Resets every game, or those of ``options["reset_mask"]``; an int ``seed`` seeds game
        ``i`` with ``seed + i``, a list seeds game ``i`` with ``seed[i]``."""
        n = self.num_envs
        mask = None
        if options is not None and "reset_mask" in options:
            mask = np.asarray(options["reset_mask"])
            if mask.shape != (n,) or mask.dtype != np.bool_ or not mask.any():
                raise ValueError(f"options['reset_mask']: expected a bool array of shape ({n},) with a True")
        seeds = None
        if isinstance(seed, (list, tuple)):
            if len(seed) != n:
                raise ValueError(f"argument `seed` must hold {n} seeds, got {len(seed)}")
            fresh = np.random.default_rng().integers(2**63, size=n)
            seeds = np.array(
                [fresh[i] if s is None else _checks.seed(f"seed[{i}]", s) for i, s in enumerate(seed)], np.uint64
            )
        elif seed is not None:
            seeds = (np.arange(n, dtype=np.uint64) + np.uint64(_checks.seed("seed", seed))).astype(np.uint64)
        elif not self._seeded:
            seeds = np.random.default_rng().integers(2**63, size=n).astype(np.uint64)
        self._seeded = True
        self._kernel.reset(seeds, mask)
        _settle(self._kernel, self.opponent)
        rows = np.ones(n, bool) if mask is None else mask.copy()
        masks = np.zeros((n, self._num_actions), np.int8)
        masks[rows] = self._mask[rows]
        return self._out(self._obs), {"action_mask": masks, "_action_mask": rows}

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """One action of the agent (and the opponent's answer) in every game. In ``DISABLED``
        mode a step while a game is over raises ``ValueError``: reset it first."""
        actions = _checks.integers("actions", actions)
        if self._mode == AutoresetMode.DISABLED and self._fields["terminated"].any():
            over = np.flatnonzero(self._fields["terminated"])
            raise ValueError(
                f"{len(over)} games are over (first: {over[:5].tolist()}) and autoreset_mode is "
                "DISABLED: reset them first (options={'reset_mask': ...}), as SyncVectorEnv requires"
            )
        self._kernel.step(actions)
        _settle(self._kernel, self.opponent)
        n = self.num_envs
        terminated = self._fields["terminated"].copy()
        infos: dict[str, Any] = {"action_mask": self._mask.copy(), "_action_mask": np.ones(n, bool)}
        if self._mode == AutoresetMode.SAME_STEP and terminated.any():
            final_obs = np.full(n, None, dtype=object)
            final_masks = np.zeros((n, self._num_actions), np.int8)
            for i in np.flatnonzero(terminated):
                final_obs[i] = self._final[i].copy()
                final_masks[i] = 1
            infos["final_obs"], infos["_final_obs"] = final_obs, terminated.copy()
            infos["final_info"] = {"action_mask": final_masks, "_action_mask": terminated.copy()}
            infos["_final_info"] = terminated.copy()
        return (
            self._out(self._obs),
            self._fields["rewards"][:, 0].astype(np.float64),
            terminated,
            np.zeros(n, bool),
            infos,
        )

    def action_masks(self) -> np.ndarray:
        """The actions each agent may play now (bool, ``(num_envs, actions)``)."""
        return self._mask.astype(bool)

    def sample_actions(self, out: np.ndarray | None = None) -> np.ndarray:
        """A uniformly random legal action per game (int64), drawn natively from each game's own
        stream, into ``out`` when given."""
        if out is None:
            out = np.empty(self.num_envs, dtype=np.int64)
        self._kernel.sample_actions(out)
        return out
