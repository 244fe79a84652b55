"""Gymnasium wrappers that put the action mask into the observation (needs ``gymnasium``).

Masked policies written in the CleanRL style read the mask from the observation rather than
from ``info``: :class:`ActionMaskObservation` (over a single ``Env``) and
:class:`VectorActionMaskObservation` (over a ``VectorEnv``) turn each observation into a
Gymnasium ``Dict`` with ``"observation"`` (the env's own) and ``"action_mask"`` (int8, one per
action: 1 where the action is legal). The mask is the env's ``info["action_mask"]``, so they
wrap any env that returns one (all the Gymnasium envs of ``tictactoe_rs``, every ``game=``).

>>> import tictactoe_rs.envs.gymnasium as g
>>> from tictactoe_rs.envs.wrappers import ActionMaskObservation
>>> env = ActionMaskObservation(g.TicTacToeEnv(opponent="random"))
>>> obs, info = env.reset(seed=0)
>>> sorted(obs), obs["action_mask"].tolist()
(['action_mask', 'observation'], [1, 1, 1, 1, 1, 1, 1, 1, 1])
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.vector import VectorEnv, VectorWrapper
from gymnasium.vector.utils import batch_space

__all__ = ["ActionMaskObservation", "VectorActionMaskObservation"]


def _mask_space(action_space: gym.Space[Any], name: str) -> spaces.Box:
    if not isinstance(action_space, spaces.Discrete):
        raise TypeError(f"argument `{name}`: its action space must be Discrete, got {action_space}")
    return spaces.Box(0, 1, (int(action_space.n),), np.int8)


def _dict_space(observation_space: gym.Space[Any], action_space: gym.Space[Any], name: str) -> spaces.Dict:
    return spaces.Dict(
        {"observation": observation_space, "action_mask": _mask_space(action_space, name)}
    )


def _mask(info: dict[str, Any], where: str) -> np.ndarray:
    if "action_mask" not in info:
        raise KeyError(f"{where}: the wrapped env returned no info['action_mask']")
    return np.asarray(info["action_mask"], dtype=np.int8)


class ActionMaskObservation(gym.Wrapper[dict[str, Any], Any, Any, Any]):
    """``env``'s observations as ``{"observation": obs, "action_mask": info["action_mask"]}``;
    ``info`` is passed on unchanged."""

    def __init__(self, env: gym.Env[Any, Any]) -> None:
        super().__init__(env)
        self.observation_space = _dict_space(env.observation_space, env.action_space, "env")

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        obs, info = self.env.reset(seed=seed, options=options)
        return {"observation": obs, "action_mask": _mask(info, "reset")}, info

    def step(
        self, action: Any
    ) -> tuple[dict[str, Any], Any, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = self.env.step(action)
        observation = {"observation": obs, "action_mask": _mask(info, "step")}
        return observation, reward, terminated, truncated, info


class VectorActionMaskObservation(VectorWrapper):
    """``envs``' observations as ``{"observation": (N, ...), "action_mask": (N, A)}``, in every
    autoreset mode; with ``SAME_STEP``, each ``infos["final_obs"][i]`` becomes the same kind of
    dict (the mask of a finished game is the env's final ``action_mask``)."""

    def __init__(self, envs: VectorEnv) -> None:
        super().__init__(envs)
        self.single_observation_space = _dict_space(
            envs.single_observation_space, envs.single_action_space, "envs"
        )
        self.observation_space = batch_space(self.single_observation_space, envs.num_envs)
        actions = _mask_space(envs.single_action_space, "envs").shape[0]
        self._last_masks = np.zeros((envs.num_envs, actions), np.int8)

    def _masks(self, infos: dict[str, Any], where: str) -> np.ndarray:
        masks = _mask(infos, where)
        # Games a partial reset left alone are absent from the reset's infos: keep their mask.
        rows = infos.get("_action_mask")
        if rows is not None and not np.all(rows):
            kept = self._last_masks.copy()
            kept[rows] = masks[rows]
            masks = kept
        self._last_masks = masks
        return masks

    def reset(
        self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        # Gymnasium's VectorEnv.reset types ``seed`` as an int; its vector envs take a list too.
        obs, infos = self.env.reset(seed=seed, options=options)  # type: ignore[arg-type]
        return {"observation": obs, "action_mask": self._masks(infos, "reset")}, infos

    def step(
        self, actions: Any
    ) -> tuple[dict[str, np.ndarray], Any, np.ndarray, np.ndarray, dict[str, Any]]:
        obs, rewards, terminated, truncated, infos = self.env.step(actions)
        masks = self._masks(infos, "step")
        if "final_obs" in infos:
            final_obs = infos["final_obs"].copy()
            final_masks = infos["final_info"]["action_mask"]
            for i in np.flatnonzero(infos["_final_obs"]):
                final_obs[i] = {"observation": final_obs[i], "action_mask": final_masks[i]}
            infos = {**infos, "final_obs": final_obs}
        return {"observation": obs, "action_mask": masks}, rewards, terminated, truncated, infos
