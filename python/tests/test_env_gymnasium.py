"""Gymnasium environments: the env checker, registration, and the vector env against
``SyncVectorEnv`` over the single env in every autoreset mode."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

gym = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env, data_equivalence  # noqa: E402
from gymnasium.vector import AutoresetMode, SyncVectorEnv  # noqa: E402

from tictactoe_rs.envs.gymnasium import ENV_ID, TicTacToeEnv, TicTacToeVectorEnv  # noqa: E402

OPPONENTS = ["random", "heuristic", "perfect", "eps:0.3"]


def first_legal(observation, mask):
    """A callable opponent: the lowest empty cell."""
    return int(np.flatnonzero(mask)[0])


@pytest.mark.parametrize("opponent", OPPONENTS + [first_legal])
@pytest.mark.parametrize("agent", ["x", "o", "random"])
def test_check_env(opponent, agent):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(TicTacToeEnv(opponent=opponent, agent=agent), skip_render_check=True)


def test_make_and_make_vec():
    env = gym.make(ENV_ID, opponent="perfect", agent="o")
    obs, info = env.reset(seed=1)
    assert obs.shape == (3, 3, 2) and obs.sum() == 1  # the opponent opened
    assert info["action_mask"].sum() == 8
    venv = gym.make_vec(ENV_ID, num_envs=3, opponent="random")
    assert isinstance(venv.unwrapped, TicTacToeVectorEnv)
    obs, info = venv.reset(seed=0)
    assert obs.shape == (3, 3, 3, 2)


def test_render_modes():
    env = TicTacToeEnv(render_mode="ansi", agent="x", opponent=first_legal)
    env.reset(seed=0)
    env.step(4)  # X in the centre, then O in cell 0
    assert env.render() == "O . .\n. X .\n. . .\n"
    env = TicTacToeEnv(render_mode="rgb_array")
    env.reset(seed=0)
    assert env.render().shape == (300, 300, 3)


def test_illegal_move_ends_the_game():
    env = TicTacToeEnv(opponent="heuristic", agent="x", illegal_reward=-2.0)
    env.reset(seed=0)
    env.step(4)
    occupied = int(np.flatnonzero(env.action_masks() == 0)[1])
    _, reward, terminated, truncated, info = env.step(occupied)
    assert (reward, terminated, truncated) == (-2.0, True, False)
    assert info["action_mask"].tolist() == [1] * 9


@pytest.mark.parametrize("opponent", ["perfect", "eps:0.0"])
def test_perfect_opponent_never_loses(opponent):
    venv = TicTacToeVectorEnv(512, opponent=opponent, agent="random")
    venv.reset(seed=0)
    rng = np.random.default_rng(0)
    wins = losses = 0
    for _ in range(60):
        masks = venv.action_masks()
        actions = (rng.random(masks.shape) * masks).argmax(axis=1)
        _, rewards, _, _, _ = venv.step(actions)
        wins += int((rewards > 0).sum())
        losses += int((rewards < 0).sum())
    assert wins == 0 and losses > 1000


def test_heuristic_opponent_beats_random():
    venv = TicTacToeVectorEnv(1024, opponent="heuristic", agent="x")
    venv.reset(seed=0)
    rng = np.random.default_rng(1)
    total = np.zeros(3)
    for _ in range(60):
        masks = venv.action_masks()
        _, rewards, terminated, _, _ = venv.step((rng.random(masks.shape) * masks).argmax(axis=1))
        total += [(rewards > 0).sum(), (terminated & (rewards == 0)).sum(), (rewards < 0).sum()]
    assert total[2] > total[0]


@pytest.mark.parametrize("mode", list(AutoresetMode))
@pytest.mark.parametrize(
    "opponent, agent", [("random", "random"), ("heuristic", "o"), ("eps:0.2", "x"),
                        ("perfect", "random"), (first_legal, "random")])
def test_vector_env_matches_sync_vector_env(mode, opponent, agent):
    n = 6
    kwargs = dict(opponent=opponent, agent=agent)
    ours = TicTacToeVectorEnv(n, autoreset_mode=mode, **kwargs)
    sync = SyncVectorEnv([lambda: TicTacToeEnv(**kwargs) for _ in range(n)], autoreset_mode=mode)
    rng = np.random.default_rng(3)
    for seed in (10, [5, 6, 7, 8, 9, 10]):
        assert data_equivalence(ours.reset(seed=seed), sync.reset(seed=seed))
        for t in range(60):
            done = sync._terminations | sync._truncations
            if mode == AutoresetMode.DISABLED and done.any():
                # SyncVectorEnv refuses to step a finished game: restart those first.
                got = ours.reset(seed=t, options={"reset_mask": done.copy()})
                want = sync.reset(seed=t, options={"reset_mask": done.copy()})
                assert data_equivalence(got, want), t
            actions = rng.integers(0, 9, n)
            got, want = ours.step(actions), sync.step(actions)
            assert data_equivalence(got, want), (t, got, want)
