"""A Stable-Baselines3 ``VecEnv`` over the native vector env (needs ``gymnasium``; SB3 to train).

:class:`SB3VecEnv` speaks SB3's ``VecEnv`` protocol (``reset``, ``step_async``/``step_wait``,
``get_attr``, ``set_attr``, ``env_method``, ``env_is_wrapped``, ``seed``, ``set_options``, ...)
over one Gymnasium vector env stepped in a single native call, so SB3 algorithms train on it
without a ``DummyVecEnv`` of single envs. It follows ``DummyVecEnv``'s conventions: ``dones`` is
``terminated or truncated``, a finished game is reset in the same step, its last observation is
``infos[i]["terminal_observation"]`` and ``infos[i]["TimeLimit.truncated"]`` says whether it was
cut short. ``env_method("action_masks")`` returns one mask per game, which is what
sb3-contrib's ``MaskablePPO`` asks for.

This module does not import SB3 (nor torch); when ``stable_baselines3`` can be imported, the
class is registered as a virtual subclass of its ``VecEnv``, so SB3 uses it as it is.

The games of a vector env share their attributes: ``get_attr(name)`` returns the vector env's
attribute once per game, ``set_attr`` sets it for all games (and refuses a subset), and
``env_method(name)`` calls the vector env's method once and returns the row of each game in its
result (``action_masks``, ``sample_actions``).

>>> from tictactoe_rs.envs.sb3 import SB3VecEnv
>>> venv = SB3VecEnv.make(8, opponent="random")
>>> venv.seed(0)
[0, 1, 2, 3, 4, 5, 6, 7]
>>> obs = venv.reset()
>>> obs.shape, len(venv.env_method("action_masks"))
((8, 3, 3, 2), 8)
"""

from __future__ import annotations

import importlib
import warnings
from collections.abc import Iterable, Sequence
from copy import deepcopy
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv

__all__ = ["SB3VecEnv"]

Indices = None | int | Iterable[int]


class SB3VecEnv:
    """SB3's ``VecEnv`` over ``venv``, a Gymnasium ``VectorEnv`` in ``SAME_STEP`` autoreset
    mode whose infos carry ``final_obs`` (as ``tictactoe_rs``' vector envs do).

    :meth:`make` builds one over ``MnkVectorEnv(num_envs, **kwargs)`` (``game=`` any game).
    """

    def __init__(self, venv: VectorEnv) -> None:
        mode = venv.metadata.get("autoreset_mode")
        if mode != AutoresetMode.SAME_STEP:
            raise ValueError(
                f"venv: expected autoreset_mode AutoresetMode.SAME_STEP (SB3 resets a finished "
                f"game in the step that ends it), got {mode!r}"
            )
        self.venv = venv
        self.num_envs: int = venv.num_envs
        self.observation_space: gym.Space[Any] = venv.single_observation_space
        self.action_space: gym.Space[Any] = venv.single_action_space
        self.reset_infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        self._seeds: list[int | None] = [None] * self.num_envs
        self._options: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        self.render_mode: str | None = getattr(venv, "render_mode", None)
        self.metadata: dict[str, Any] = {"render_modes": []}
        self._actions: np.ndarray | None = None

    @classmethod
    def make(cls, num_envs: int, **kwargs: Any) -> SB3VecEnv:
        """``SB3VecEnv`` over ``MnkVectorEnv(num_envs, **kwargs)`` in ``SAME_STEP`` mode
        (``kwargs`` are its keywords: ``opponent``, ``agent``, ``game``, ...)."""
        from tictactoe_rs.envs.gymnasium import MnkVectorEnv

        return cls(MnkVectorEnv(num_envs, autoreset_mode=AutoresetMode.SAME_STEP, **kwargs))

    # The abstract methods of SB3's VecEnv.

    def reset(self) -> Any:
        """Resets every game, with the seeds of :meth:`seed` and the options of
        :meth:`set_options` if any were given since the last reset (they are used once)."""
        # Only seed() sets seeds, to seed + i for game i: Gymnasium's int seed says the same.
        seed = self._seeds[0]
        options = self._options[0] if self._options[0] else None
        if any(o != self._options[0] for o in self._options):
            raise ValueError("set_options: the games of a vector env take the same options")
        obs, infos = self.venv.reset(seed=seed, options=options)
        self.reset_infos = _split(infos, self.num_envs)
        self._reset_seeds()
        self._reset_options()
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = actions

    def step_wait(self) -> tuple[Any, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        if self._actions is None:
            raise RuntimeError("step_wait: call step_async first")
        actions, self._actions = self._actions, None
        obs, rewards, terminated, truncated, infos = self.venv.step(actions)
        dones = np.logical_or(terminated, truncated)
        cut = np.logical_and(truncated, np.logical_not(terminated))
        out: list[dict[str, Any]] = [{"TimeLimit.truncated": False} for _ in range(self.num_envs)]
        if dones.any():
            final = infos["final_obs"]
            for i in np.flatnonzero(dones):
                out[i]["terminal_observation"] = final[i]
                out[i]["TimeLimit.truncated"] = bool(cut[i])
        return obs, np.asarray(rewards, np.float32), dones, out

    def close(self) -> None:
        self.venv.close()

    def get_attr(self, attr_name: str, indices: Indices = None) -> list[Any]:
        """The vector env's attribute ``attr_name``, once per game of ``indices``."""
        value = getattr(self.venv, attr_name)
        return [value for _ in self._get_indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: Indices = None) -> None:
        """Sets ``attr_name`` of the vector env, which all games share: ``indices`` must be all."""
        if sorted(self._get_indices(indices)) != list(range(self.num_envs)):
            raise ValueError(f"set_attr({attr_name!r}): the games share it; pass indices=None")
        setattr(self.venv, attr_name, value)

    def env_method(
        self, method_name: str, *method_args: Any, indices: Indices = None, **method_kwargs: Any
    ) -> list[Any]:
        """Calls the vector env's ``method_name`` once and returns the row of each game of
        ``indices`` in its result, which must have one row per game."""
        result = getattr(self.venv, method_name)(*method_args, **method_kwargs)
        if not isinstance(result, np.ndarray) or result.shape[:1] != (self.num_envs,):
            raise TypeError(
                f"env_method({method_name!r}): expected an array with one row per game "
                f"({self.num_envs}), got {type(result).__name__}"
            )
        return [result[i] for i in self._get_indices(indices)]

    def env_is_wrapped(self, wrapper_class: type[gym.Wrapper], indices: Indices = None) -> list[bool]:
        """Always false: the games are not single envs, so no ``gym.Wrapper`` wraps them."""
        return [False for _ in self._get_indices(indices)]

    # The concrete methods of SB3's VecEnv, with its semantics.

    def step(self, actions: np.ndarray) -> tuple[Any, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        self.step_async(actions)
        return self.step_wait()

    def has_attr(self, attr_name: str) -> bool:
        return hasattr(self.venv, attr_name)

    def seed(self, seed: int | None = None) -> Sequence[int | None]:
        """Game ``i`` is seeded with ``seed + i`` at the next :meth:`reset` (a random
        ``seed`` when none is given), as SB3 seeds its vector envs."""
        if seed is None:
            seed = int(np.random.randint(0, np.iinfo(np.uint32).max, dtype=np.uint32))
        self._seeds = [seed + i for i in range(self.num_envs)]
        return self._seeds

    def set_options(self, options: list[dict[str, Any]] | dict[str, Any] | None = None) -> None:
        """Options for the next :meth:`reset` (the same for every game)."""
        if options is None:
            options = {}
        if isinstance(options, dict):
            self._options = deepcopy([options] * self.num_envs)
        else:
            self._options = deepcopy(options)

    def _reset_seeds(self) -> None:
        self._seeds = [None] * self.num_envs

    def _reset_options(self) -> None:
        self._options = [{} for _ in range(self.num_envs)]

    def get_images(self) -> Sequence[np.ndarray | None]:
        warnings.warn("get_images: the vector env has no render mode", stacklevel=2)
        return [None for _ in range(self.num_envs)]

    def render(self, mode: str | None = None) -> np.ndarray | None:
        warnings.warn("render: the vector env has no render mode", stacklevel=2)
        return None

    @property
    def unwrapped(self) -> SB3VecEnv:
        return self

    def getattr_depth_check(self, name: str, already_found: bool) -> str | None:
        if hasattr(self, name) and already_found:
            return f"{type(self).__module__}.{type(self).__name__}"
        return None

    def _get_indices(self, indices: Indices) -> Iterable[int]:
        if indices is None:
            return range(self.num_envs)
        if isinstance(indices, int):
            return [indices]
        return indices

    def action_masks(self) -> np.ndarray:
        """The legal actions of every game, bool ``(num_envs, n_actions)``."""
        return np.asarray(self.venv.action_masks(), dtype=bool)  # type: ignore[attr-defined]


def _split(infos: dict[str, Any], n: int) -> list[dict[str, Any]]:
    """Gymnasium's batched infos as SB3's list of one dict per game."""
    out: list[dict[str, Any]] = [{} for _ in range(n)]
    for key, value in infos.items():
        if key.startswith("_"):
            continue
        rows = infos.get("_" + key, np.ones(n, bool))
        for i in np.flatnonzero(rows):
            out[i][key] = value[i]
    return out


def _register() -> None:
    """Makes ``isinstance(SB3VecEnv(...), stable_baselines3...VecEnv)`` true when SB3 is there."""
    try:
        base = importlib.import_module("stable_baselines3.common.vec_env.base_vec_env")
    except ImportError:
        return
    base.VecEnv.register(SB3VecEnv)


_register()
