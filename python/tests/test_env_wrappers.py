"""The action mask in the observation: Gymnasium's checkers, and the wrapped envs against the
unwrapped ones (same observations, the mask equal to ``info["action_mask"]``) in every
autoreset mode."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from gymnasium import spaces
from gymnasium.utils.env_checker import check_env
from gymnasium.vector import AutoresetMode

from tictactoe_rs.envs.gymnasium import MnkEnv, MnkVectorEnv, TicTacToeEnv
from tictactoe_rs.envs.wrappers import (
    ActionMaskObservation,
    VectorActionMaskObservation,
)


@pytest.mark.parametrize(("agent", "game", "actions"), [("x", None, 9), ("o", None, 9), ("o", "connect-four", 7)])
def test_check_env(agent, game, actions):
    env = ActionMaskObservation(MnkEnv(opponent="random", agent=agent, game=game))
    assert isinstance(env.observation_space, spaces.Dict)
    assert env.observation_space["action_mask"] == spaces.Box(0, 1, (actions,), np.int8)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        # The checker warns about any wrapper, this one included.
        warnings.filterwarnings("ignore", "(?s).*different from the unwrapped version")
        check_env(env, skip_render_check=True)


def test_single_env_matches_the_unwrapped_one():
    env = ActionMaskObservation(TicTacToeEnv(opponent="heuristic", agent="random"))
    plain = TicTacToeEnv(opponent="heuristic", agent="random")
    obs, _ = env.reset(seed=3)
    plain_obs, info = plain.reset(seed=3)
    rng = np.random.default_rng(1)
    for _ in range(200):
        np.testing.assert_array_equal(obs["observation"], plain_obs)
        np.testing.assert_array_equal(obs["action_mask"], info["action_mask"])
        assert obs in env.observation_space
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, reward, terminated, truncated, _ = env.step(action)
        plain_obs, plain_reward, *flags, info = plain.step(action)
        assert (reward, terminated, truncated) == (plain_reward, *flags)
        if terminated or truncated:
            obs, _ = env.reset()
            plain_obs, info = plain.reset()


@pytest.mark.parametrize("game", [None, "connect-four"])
@pytest.mark.parametrize("mode", list(AutoresetMode))
def test_vector_env_matches_the_unwrapped_one(mode, game):
    n = 8
    envs = VectorActionMaskObservation(
        MnkVectorEnv(n, "random", "random", autoreset_mode=mode, game=game)
    )
    plain = MnkVectorEnv(n, "random", "random", autoreset_mode=mode, game=game)
    obs, _ = envs.reset(seed=0)
    plain_obs, infos = plain.reset(seed=0)
    rng = np.random.default_rng(2)
    for _ in range(100):
        np.testing.assert_array_equal(obs["observation"], plain_obs)
        np.testing.assert_array_equal(obs["action_mask"], infos["action_mask"])
        assert obs in envs.observation_space
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in obs["action_mask"]])
        obs, rewards, terminated, _, wrapped_infos = envs.step(actions)
        plain_obs, plain_rewards, plain_terminated, _, infos = plain.step(actions)
        np.testing.assert_array_equal(rewards, plain_rewards)
        np.testing.assert_array_equal(terminated, plain_terminated)
        if "final_obs" in infos:
            for i in np.flatnonzero(infos["_final_obs"]):
                final = wrapped_infos["final_obs"][i]
                np.testing.assert_array_equal(final["observation"], infos["final_obs"][i])
                assert final in envs.single_observation_space
        if mode == AutoresetMode.DISABLED and terminated.any():
            obs, _ = envs.reset(options={"reset_mask": terminated})
            plain_obs, reset_infos = plain.reset(options={"reset_mask": terminated})
            infos["action_mask"][terminated] = reset_infos["action_mask"][terminated]


def test_an_env_without_a_mask_is_refused():
    class NoMask(TicTacToeEnv):
        def reset(self, *, seed=None, options=None):
            return super().reset(seed=seed, options=options)[0], {}

    with pytest.raises(KeyError, match="action_mask"):
        ActionMaskObservation(NoMask()).reset(seed=0)
