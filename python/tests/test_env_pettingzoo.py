"""The PettingZoo AEC environment: PettingZoo's own tests and a differential test against
``pettingzoo.classic.tictactoe_v3``."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("pygame")  # tictactoe_v3 itself needs it

from pettingzoo.classic.tictactoe import tictactoe as peer
from pettingzoo.test import (
    api_test,
    parallel_api_test,
    parallel_seed_test,
    render_test,
    seed_test,
)
from pettingzoo.utils.conversions import turn_based_aec_to_parallel

from tictactoe_rs.envs import pettingzoo as ours


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def test_api_test_over_100_seeds():
    for seed in range(100):
        env = ours.env()
        env.reset(seed=seed)
        for i, agent in enumerate(env.possible_agents):
            env.action_space(agent).seed(seed * 2 + i)
        api_test(env, num_cycles=20)


def test_seed_test():
    seed_test(ours.env, num_cycles=100)


def test_render_test():
    render_test(ours.env)


def test_render_modes_show_the_board():
    env = ours.env(render_mode="ansi")
    env.reset()
    env.step(1)  # X at column 0, row 1 of PettingZoo's picture
    assert env.render() == ". . .\nX . .\n. . .\n"
    env = ours.env(render_mode="rgb_array", screen_height=90)
    env.reset()
    env.step(0)
    image = env.render()
    assert image.shape == (90, 90, 3) and image.dtype == np.uint8
    assert (image[:30, :30] != 255).any() and (image[64:, 64:] == 255).all()


def test_parallel_api_and_seed_tests():
    parallel_api_test(turn_based_aec_to_parallel(ours.env()), num_cycles=100)
    parallel_seed_test(lambda: turn_based_aec_to_parallel(ours.env()), num_cycles=100)
    parallel_api_test(ours.parallel_env(), num_cycles=100)


def _snapshot(env):
    """Every field an agent can read, for every agent."""
    u = env.unwrapped
    fields = {
        "agents": list(env.agents),
        "agent_selection": env.agent_selection,
        "rewards": dict(u.rewards),
        "cumulative": dict(u._cumulative_rewards),
        "terminations": dict(u.terminations),
        "truncations": dict(u.truncations),
        "infos": dict(u.infos),
        "last": env.last() if env.agent_selection in env.agents else None,
    }
    for agent in env.possible_agents:
        if agent in env.agents:
            fields["obs_" + agent] = env.observe(agent)
    return fields


def _same(a, b, where):
    if isinstance(a, dict):
        assert isinstance(b, dict) and a.keys() == b.keys(), where
        for k in a:
            _same(a[k], b[k], f"{where}.{k}")
    elif isinstance(a, (tuple, list)):
        assert len(a) == len(b), where
        for k, (x, y) in enumerate(zip(a, b)):
            _same(x, y, f"{where}[{k}]")
    elif isinstance(a, np.ndarray):
        assert isinstance(b, np.ndarray) and a.dtype == b.dtype, where
        np.testing.assert_array_equal(a, b, err_msg=where)
    else:
        assert type(a) is type(b) and a == b, f"{where}: {a!r} != {b!r}"


def test_differential_against_tictactoe_v3():
    rng = np.random.default_rng(2024)
    games = 600
    illegal_games = 0
    for game in range(games):
        a, b = peer.env(), ours.env()
        a.reset(seed=game)
        b.reset(seed=game)
        illegal_rate = 0.15 if game % 2 else 0.0
        for step in range(30):
            _same(_snapshot(a), _snapshot(b), f"game {game} step {step}")
            if not a.agents:
                break
            obs, _, term, trunc, _ = a.last()
            if term or trunc:
                action = None
            elif rng.random() < illegal_rate:
                action = int(rng.integers(0, 9))
                illegal_games += int(obs["action_mask"][action] == 0)
            else:
                action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            a.step(action)
            b.step(action)
    assert illegal_games > 20
