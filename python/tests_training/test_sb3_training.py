"""Stable-Baselines3 and sb3-contrib on the adapter, with torch: run by scripts/test-training
(its own virtual environment, .venv-train), not by scripts/test."""

from __future__ import annotations

import numpy as np
import pytest
from sb3_contrib import MaskablePPO
from stable_baselines3 import PPO
from stable_baselines3.common.env_checker import check_env
from stable_baselines3.common.vec_env import DummyVecEnv, VecCheckNan, VecEnv, VecMonitor

from tictactoe_rs.envs.gymnasium import TicTacToeEnv
from tictactoe_rs.envs.sb3 import SB3VecEnv
from tictactoe_rs.envs.wrappers import ActionMaskObservation


@pytest.mark.parametrize("wrap", [False, True])
def test_sb3_check_env(wrap):
    env = TicTacToeEnv(opponent="random")
    check_env(ActionMaskObservation(env) if wrap else env, warn=True)


def test_adapter_equals_dummy_vec_env():
    n = 8
    ours = VecMonitor(VecCheckNan(SB3VecEnv.make(n, opponent="heuristic", agent="random")))
    dummy = VecMonitor(
        DummyVecEnv([lambda: TicTacToeEnv(opponent="heuristic", agent="random") for _ in range(n)])
    )
    assert isinstance(ours.unwrapped, VecEnv)
    ours.seed(11)
    dummy.seed(11)
    np.testing.assert_array_equal(ours.reset(), dummy.reset())
    rng = np.random.default_rng(0)
    for _ in range(300):
        masks = np.stack(ours.env_method("action_masks"))
        np.testing.assert_array_equal(masks, np.stack(dummy.env_method("action_masks")))
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, rewards, dones, infos = ours.step(actions)
        d_obs, d_rewards, d_dones, d_infos = dummy.step(actions)
        np.testing.assert_array_equal(obs, d_obs)
        np.testing.assert_array_equal(rewards, d_rewards)
        np.testing.assert_array_equal(dones, d_dones)
        for info, d_info in zip(infos, d_infos, strict=True):
            assert info["TimeLimit.truncated"] == d_info["TimeLimit.truncated"]
            if "terminal_observation" in d_info:
                np.testing.assert_array_equal(info["terminal_observation"], d_info["terminal_observation"])
            assert ("episode" in info) == ("episode" in d_info)


def win_rate(policy, games=2000, seed=123):
    """Wins, draws and losses of ``policy(obs, masks) -> actions`` as X against random."""
    venv = SB3VecEnv.make(200, opponent="random", agent="x")
    venv.seed(seed)
    obs = venv.reset()
    results = []
    while len(results) < games:
        actions = policy(obs, np.stack(venv.env_method("action_masks")))
        obs, rewards, dones, _ = venv.step(actions)
        results.extend(rewards[dones].tolist())
    results = np.array(results[:games])
    return (results > 0).mean(), (results == 0).mean(), (results < 0).mean()


def test_maskable_ppo_beats_random():
    rng = np.random.default_rng(0)

    def random_policy(obs, masks):
        return np.array([rng.choice(np.flatnonzero(m)) for m in masks])

    venv = SB3VecEnv.make(16, opponent="random", agent="x")
    model = MaskablePPO("MlpPolicy", venv, n_steps=128, batch_size=256, seed=0, verbose=0)
    model.learn(60_000)

    def trained(obs, masks):
        return model.predict(obs, action_masks=masks, deterministic=True)[0]

    base = win_rate(random_policy)
    wins, draws, losses = win_rate(trained)
    print(f"random as X: {base}; MaskablePPO as X after 60k steps: {(wins, draws, losses)}")
    assert wins > base[0] + 0.15 and losses < base[2] / 2


def test_ppo_learns_through_the_dict_observation():
    from gymnasium.vector import AutoresetMode

    from tictactoe_rs.envs.gymnasium import TicTacToeVectorEnv
    from tictactoe_rs.envs.wrappers import VectorActionMaskObservation

    venv = SB3VecEnv(
        VectorActionMaskObservation(
            TicTacToeVectorEnv(8, opponent="random", autoreset_mode=AutoresetMode.SAME_STEP)
        )
    )
    model = PPO("MultiInputPolicy", venv, n_steps=32, seed=0, verbose=0)
    model.learn(512)
    obs = venv.reset()
    assert set(obs) == {"observation", "action_mask"}
    actions, _ = model.predict(obs)
    assert actions.shape == (8,)
