"""The shared bases of the environments (``envs/_gym_base.py``, ``envs/_aec_base.py``): the family's
and ultimate's Gymnasium and PettingZoo environments behave alike where they share code, and
each still says what is its own."""

from __future__ import annotations

import numpy as np
import pytest

gym = pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from gymnasium.vector import AutoresetMode  # noqa: E402

from tictactoe_rs.envs import _aec_base, _gym_base  # noqa: E402
from tictactoe_rs.envs import gymnasium as ours_gym  # noqa: E402
from tictactoe_rs.envs import pettingzoo as ours_pz  # noqa: E402

GAMES = ["tic-tac-toe", "connect-four", "gomoku", "ultimate"]


@pytest.mark.parametrize("game", GAMES)
def test_pettingzoo_render_modes(game, capsys):
    for mode in ("ansi", "rgb_array", "human"):
        env = ours_pz.raw_env(render_mode=mode, game=game)
        assert isinstance(env, _aec_base.RawEnv)
        env.reset()
        env.step(4)
        capsys.readouterr()
        drawn = env.render()
        if mode == "ansi":
            assert isinstance(drawn, str) and ("X" in drawn or "x" in drawn)
        elif mode == "rgb_array":
            assert isinstance(drawn, np.ndarray) and drawn.dtype == np.uint8 and drawn.shape[2] == 3
        else:
            assert drawn is None and capsys.readouterr().out.strip()
    env = ours_pz.raw_env(game=game)
    with pytest.warns(UserWarning, match="without specifying any render mode"):
        assert env.render() is None
    with pytest.raises(ValueError, match="argument `render_mode` must be one of"):
        ours_pz.raw_env(render_mode="svg", game=game)


@pytest.mark.parametrize("game", GAMES)
def test_pettingzoo_agents_restart_on_reset(game):
    env = ours_pz.raw_env(game=game)
    env.reset()
    first = env.agent_selection
    space = env.action_space(first)
    assert env.observation_space(first)["action_mask"].shape == (space.n,)
    env.step(4)
    assert env.agent_selection != first
    env.reset()
    assert env.agent_selection == first and env.agents == env.possible_agents
    assert set(env.rewards.values()) == {0} and not any(env.terminations.values())


@pytest.mark.parametrize("game", GAMES)
def test_gymnasium_single_env_shares_reset_and_step(game):
    opponent = "random"
    env = ours_gym.MnkEnv(opponent=opponent, game=game, render_mode="ansi")
    assert isinstance(env, _gym_base.SingleEnv)
    obs, info = env.reset(seed=3)
    again, _ = ours_gym.MnkEnv(opponent=opponent, game=game).reset(seed=3)
    assert (obs == again).all() and obs.dtype == np.int8
    assert (env.action_masks() == info["action_mask"].astype(bool)).all()
    action = int(np.flatnonzero(info["action_mask"])[0])
    obs, reward, terminated, truncated, info = env.step(action)
    assert isinstance(reward, float) and isinstance(terminated, bool) and not truncated
    assert isinstance(env.render(), str)
    with pytest.raises(ValueError, match="argument `render_mode` must be one of"):
        ours_gym.MnkEnv(game=game, render_mode="svg")


@pytest.mark.parametrize("game", ["connect-four", "ultimate"])
def test_gymnasium_vector_envs_share_reset_step_and_autoreset(game):
    n = 6
    envs = ours_gym.MnkVectorEnv(n, opponent="random", game=game, autoreset_mode="same_step")
    assert isinstance(envs, _gym_base.VectorEnv)
    obs, infos = envs.reset(seed=[1, None, 2, None, 3, None])
    assert obs.shape[0] == n and infos["_action_mask"].all()
    finals = 0
    for _ in range(200):
        obs, rewards, terminated, truncated, infos = envs.step(envs.sample_actions())
        assert rewards.dtype == np.float64 and not truncated.any()
        if terminated.any():
            finals += 1
            assert (infos["_final_obs"] == terminated).all()
            assert all(infos["final_obs"][i] is not None for i in np.flatnonzero(terminated))
    assert finals > 0
    mask = np.zeros(n, bool)
    mask[2] = True
    _, infos = envs.reset(options={"reset_mask": mask})
    assert infos["_action_mask"].tolist() == mask.tolist()
    assert (infos["action_mask"][~mask] == 0).all()
    with pytest.raises(ValueError, match="with a True"):
        envs.reset(options={"reset_mask": np.zeros(n, bool)})
    with pytest.raises(ValueError, match=f"argument `seed` must hold {n} seeds"):
        envs.reset(seed=[1, 2])
    with pytest.raises(ValueError, match="argument `autoreset_mode` must be an AutoresetMode or one of"):
        ours_gym.MnkVectorEnv(2, game=game, autoreset_mode="sometimes")
    disabled = ours_gym.MnkVectorEnv(2, opponent="random", game=game, autoreset_mode=AutoresetMode.DISABLED)
    disabled.reset(seed=0)
    with pytest.raises(ValueError, match="autoreset_mode is DISABLED"):
        for _ in range(400):
            disabled.step(disabled.sample_actions())


@pytest.mark.parametrize(("game", "bound"), [("connect-four", 7), ("ultimate", 81)])
def test_a_batched_opponent_is_checked_alike(game, bound):
    def far(observations, masks):
        return np.full(len(masks), bound)

    env = ours_gym.MnkEnv(opponent=far, game=game)
    env.reset(seed=0)
    with pytest.raises(ValueError, match=rf"is not an action \(0 to {bound - 1}\)"):
        env.step(3)
    with pytest.raises(ValueError, match="argument `agent` must be 'x', 'o' or 'random'"):
        ours_gym.MnkEnv(game=game, agent="first")
