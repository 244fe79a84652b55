"""What the Gymnasium environments share: the family's (:class:`~tictactoe_rs.envs.gymnasium.MnkEnv`,
:class:`~tictactoe_rs.envs.gymnasium.MnkVectorEnv`) and ultimate's
(:class:`~tictactoe_rs.envs._ultimate_gym.UltimateEnv`, ``UltimateVectorEnv``) run the same
loop over a native kernel of the gym convention; each subclass says how its kernel is made,
how an action is checked, how a callable opponent is asked (``_settle``) and how a game is
drawn.

- :class:`SingleEnv`: one game; ``reset``, ``step`` and ``action_masks``.
- :class:`VectorEnv`: ``num_envs`` games in one kernel, what ``SyncVectorEnv`` over single
  envs returns (seeds, ``reset_mask``, the three ``AutoresetMode``\\ s); ``reset``, ``step``,
  ``action_masks`` and ``sample_actions``.
- :func:`play_batch`: one call of a batched callable opponent for every game that waits for it,
  its answer checked.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

import gymnasium as gym
import numpy as np
from gymnasium.vector import AutoresetMode
from gymnasium.vector import VectorEnv as _GymVectorEnv

from tictactoe_rs import _checks
from tictactoe_rs.envs._views import views

__all__ = ["AUTORESET", "SEATS", "SingleEnv", "VectorEnv", "autoreset_mode", "play_batch"]

#: The kernel's seat of the agent: the agent is player id 0, the opponent id 1.
SEATS: dict[str, Literal[0, 1, "random"]] = {"x": 0, "o": 1, "random": "random"}
#: ``BatchedEnv``'s (and the kernel's) spelling of each ``AutoresetMode``.
AUTORESET = {
    AutoresetMode.NEXT_STEP: "next_step",
    AutoresetMode.SAME_STEP: "same_step",
    AutoresetMode.DISABLED: "disabled",
}


def seat(agent: Any) -> Literal[0, 1, "random"]:
    """The kernel's seat of ``agent`` (``"x"``, ``"o"`` or ``"random"``), else ``ValueError``."""
    if not isinstance(agent, str) or agent not in SEATS:
        raise ValueError(f"argument `agent` must be 'x', 'o' or 'random', got {agent!r}")
    return SEATS[agent]


def autoreset_mode(value: Any) -> AutoresetMode:
    """An ``AutoresetMode`` from itself, its value (``"NextStep"``) or ``BatchedEnv``'s
    spelling (``"next_step"``)."""
    if isinstance(value, AutoresetMode):
        return value
    for mode, name in AUTORESET.items():
        if value in (mode.value, name):
            return mode
    names = ", ".join(repr(v) for m, n in AUTORESET.items() for v in (m.value, n))
    raise ValueError(f"argument `autoreset_mode` must be an AutoresetMode or one of {names}, got {value!r}")


def play_batch(
    kernel: Any,
    opponent: Callable[[np.ndarray, np.ndarray], Any],
    pending: np.ndarray,
    observations: np.ndarray,
    masks: np.ndarray,
) -> None:
    """One call of the opponent for every game of ``pending``, from its own view (id 1): its
    answer must be an integer array of one action (below ``masks.shape[1]``) a game, each legal
    (the kernel's ``finish`` checks that)."""
    k, bound = len(pending), masks.shape[1]
    moves = opponent(observations.view(np.int8), masks.view(np.int8))
    if not isinstance(moves, np.ndarray) or moves.dtype == np.bool_ or moves.dtype.kind not in "iu":
        got = f"dtype {moves.dtype}" if isinstance(moves, np.ndarray) else type(moves).__name__
        raise TypeError(f"the opponent must return an integer array of shape ({k},), got {got}")
    if moves.shape != (k,):
        raise ValueError(f"the opponent must return shape ({k},), got {moves.shape}")
    if ((moves < 0) | (moves >= bound)).any():
        bad = int(np.flatnonzero((moves < 0) | (moves >= bound))[0])
        raise ValueError(
            f"the opponent's move {int(moves[bad])} in game {int(pending[bad])} is not an action (0 to {bound - 1})"
        )
    actions = np.zeros(len(kernel), dtype=np.int64)
    actions[pending] = moves
    kernel.finish(actions)


class SingleEnv(gym.Env):
    """One game against an opponent over a native kernel of one game (see the module docs).
    A subclass sets ``_kernel``, ``opponent`` and ``render_mode``, then calls
    :meth:`_bind`; it defines ``_settle`` (ask a callable opponent), ``_action`` (check an
    action) and ``render``."""

    # An instance attribute in gymnasium.Env, so no ClassVar.
    metadata: dict[str, Any] = {"render_modes": ["human", "rgb_array", "ansi"], "render_fps": 1}  # noqa: RUF012

    _kernel: Any

    def _check_render_mode(self, render_mode: Any) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"argument `render_mode` must be one of {self.metadata['render_modes']} or None, got {render_mode!r}"
            )

    def _bind(self, obs_as_int8: bool = True, readonly: bool = True) -> None:
        """The views of the kernel's fields, once."""
        self._fields = views(self._kernel, readonly=readonly)
        self._obs = self._fields["obs"].view(np.int8) if obs_as_int8 else self._fields["obs"]
        self._mask = self._fields["mask"].view(np.int8)
        self._seeded = False

    def _settle(self) -> None:
        raise NotImplementedError

    def _action(self, action: Any) -> int:
        raise NotImplementedError

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
        self._settle()
        if self.render_mode == "human":
            self.render()
        return self._obs[0].copy(), {"action_mask": self._mask[0].copy()}

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """The agent plays ``action``, then the opponent answers."""
        self._kernel.step(np.array([self._action(action)], dtype=np.int64))
        self._settle()
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
        """The actions the agent may play now (bool, ``(actions,)``)."""
        return self._mask[0].astype(bool)


class VectorEnv(_GymVectorEnv):
    """``num_envs`` games against an opponent in one native kernel (see the module docs). A
    subclass sets ``num_envs``, ``copy``, ``_kernel`` and ``_num_actions``, then calls
    :meth:`_bind`; it defines ``_settle``."""

    _kernel: Any
    _num_actions: int
    copy: bool

    def _bind(self, mode: AutoresetMode, obs_as_int8: bool = True, readonly: bool = True) -> None:
        """The views of the kernel's fields, once, and the autoreset mode."""
        self._fields = views(self._kernel, readonly=readonly)
        obs, final = self._fields["obs"], self._fields["final_obs"]
        self._obs = obs.view(np.int8) if obs_as_int8 else obs
        self._final = final.view(np.int8) if obs_as_int8 else final
        self._mask = self._fields["mask"].view(np.int8)
        self._mode = mode
        self._seeded = False

    def _settle(self) -> None:
        raise NotImplementedError

    def _out(self, array: np.ndarray) -> np.ndarray:
        return array.copy() if self.copy else array

    def reset(
        self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Resets every game, or those of ``options["reset_mask"]``; an int ``seed`` seeds
        game ``i`` with ``seed + i``, a list seeds game ``i`` with ``seed[i]``."""
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
                [fresh[i] if s is None else _checks.seed(f"seed[{i}]", s) for i, s in enumerate(seed)],
                np.uint64,
            )
        elif seed is not None:
            seeds = (np.arange(n, dtype=np.uint64) + np.uint64(_checks.seed("seed", seed))).astype(np.uint64)
        elif not self._seeded:
            seeds = np.random.default_rng().integers(2**63, size=n).astype(np.uint64)
        self._seeded = True
        self._kernel.reset(seeds, mask)
        self._settle()
        rows = np.ones(n, bool) if mask is None else mask.copy()
        masks = np.zeros((n, self._num_actions), np.int8)
        masks[rows] = self._mask[rows]
        return self._out(self._obs), {"action_mask": masks, "_action_mask": rows}

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """One action of the agent and the opponent's answer in every game. In ``DISABLED``
        autoreset mode, a step while a game is over raises ``ValueError`` (``SyncVectorEnv``
        asserts the same): reset those games first (``options={"reset_mask": ...}``)."""
        actions = _checks.integers("actions", actions)
        if self._mode == AutoresetMode.DISABLED and self._fields["terminated"].any():
            over = np.flatnonzero(self._fields["terminated"])
            raise ValueError(
                f"{len(over)} games are over (first: {over[:5].tolist()}) and autoreset_mode is "
                "DISABLED: reset them first (options={'reset_mask': ...}), as SyncVectorEnv requires"
            )
        self._kernel.step(actions)
        self._settle()
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
        """A uniformly random legal action per game (int64), drawn natively from each game's
        own stream, into ``out`` when given."""
        if out is None:
            out = np.empty(self.num_envs, dtype=np.int64)
        self._kernel.sample_actions(out)
        return out
