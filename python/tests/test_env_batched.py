"""The batched environment against its peers, step by step: pgx (same seats, same actions)
and PettingZoo's ``tictactoe_v3`` (one AEC game per row)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pgx_lockstep import lockstep

from tictactoe_rs.envs.batched import BatchedEnv


def _actions(env, rng, illegal_rate):
    """Random legal actions, with some random (often illegal) ones mixed in."""
    legal = env.sample_actions().copy()
    wild = rng.integers(0, 9, env.num_envs)
    return np.where(rng.random(env.num_envs) < illegal_rate, wild, legal)


def test_buffers_are_rewritten_in_place():
    env = BatchedEnv(8, seed=3)
    buffers = [env.observation, env.legal_action_mask, env.rewards, env.terminated]
    for _ in range(20):
        env.step(env.sample_actions())
    assert all(a is b for a, b in zip(buffers, [env.observation, env.legal_action_mask,
                                                 env.rewards, env.terminated]))


def test_errors_name_the_argument():
    env = BatchedEnv(2)
    with pytest.raises(ValueError, match="`actions` holds 9, not a cell"):
        env.step(np.array([0, 9]))
    with pytest.raises(ValueError, match=r"`actions` must have shape \(2,\)"):
        env.step(np.array([0]))
    with pytest.raises(TypeError, match="`actions` must be an integer array"):
        env.step(np.array([0.0, 1.0]))
    with pytest.raises(TypeError, match="`actions` must be an integer array"):
        env.step(["a", "b"])
    with pytest.raises(ValueError, match="convention"):
        BatchedEnv(2, convention="chess")
    with pytest.raises(ValueError, match="`autoreset` must be one of"):
        BatchedEnv(2, autoreset="sometimes")


def test_autoreset_takes_either_spelling():
    from gymnasium.vector import AutoresetMode

    from tictactoe_rs.envs.gymnasium import TicTacToeVectorEnv

    for ours, theirs in (("next_step", AutoresetMode.NEXT_STEP), ("same_step", AutoresetMode.SAME_STEP),
                         ("disabled", AutoresetMode.DISABLED)):
        for spelling in (ours, theirs, theirs.value):
            env = BatchedEnv(1, convention="pettingzoo", autoreset=spelling)
            for cell in (0, 3, 1, 4, 2):  # X wins
                env.step(np.array([cell]))
            after_win = env.boards().tolist()
            env.step(np.array([5]))
            after_next = env.boards().tolist()
            expected = {"same_step": ([[0, 0]], [[1 << 5, 0]]),
                        "next_step": ([[7, 24]], [[0, 0]]),
                        "disabled": ([[7, 24]], [[7, 24]])}[ours]
            assert (after_win, after_next) == expected, spelling
            assert TicTacToeVectorEnv(2, autoreset_mode=spelling).metadata["autoreset_mode"] == theirs
    with pytest.raises(ValueError, match="autoreset_mode"):
        TicTacToeVectorEnv(2, autoreset_mode="never")


def test_seeds_reproduce_and_seats_are_drawn():
    a, b = BatchedEnv(256, seed=7), BatchedEnv(256, seed=7)
    for _ in range(30):
        a.step(a.sample_actions())
        b.step(b.sample_actions())
        np.testing.assert_array_equal(a.observation, b.observation)
    first = a.first_player()
    assert 0.35 < first.mean() < 0.65


def test_random_play_outcomes():
    """Random legal play: X wins about 58.5%, O 28.8%, draws 12.7% (255,168 games)."""
    env = BatchedEnv(4096, convention="pettingzoo", seed=1)
    totals = np.zeros(3)
    for _ in range(200):
        env.step(env.sample_actions())
        done = env.terminated
        totals += [(env.rewards[done, 0] > 0).sum(), (env.rewards[done, 1] > 0).sum(),
                   (env.rewards[done, 0] == 0).sum()]
    share = totals / totals.sum()
    np.testing.assert_allclose(share, [0.585, 0.288, 0.127], atol=0.01)


@pytest.mark.parametrize("autoreset", ["same_step", "disabled"])
def test_differential_against_pettingzoo(autoreset):
    pytest.importorskip("pygame")
    pytest.importorskip("pettingzoo")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from pettingzoo.classic.tictactoe import tictactoe as peer

    n = 32
    rng = np.random.default_rng(5)
    env = BatchedEnv(n, convention="pettingzoo", autoreset=autoreset)
    peers = [peer.env() for _ in range(n)]
    for p in peers:
        p.reset()
    agents = ["player_1", "player_2"]
    ended = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for step in range(150):
            disabled = autoreset == "disabled"
            if disabled and step % 10 == 0 and env.terminated.any():
                done = env.terminated.copy()
                env.reset(mask=done)
                for i in np.flatnonzero(done):
                    peers[i].reset()
            was_done = env.terminated.copy() if disabled else np.zeros(n, bool)
            actions = _actions(env, rng, 0.1)
            for i, p in enumerate(peers):
                if not was_done[i]:
                    p.step(int(actions[i]))
            env.step(actions)
            for i, p in enumerate(peers):
                if was_done[i]:
                    continue
                u = p.unwrapped
                where = f"step {step} game {i}"
                assert env.terminated[i] == u.terminations["player_1"], where
                assert env.truncated[i] == u.truncations["player_1"], where
                np.testing.assert_array_equal(
                    env.rewards[i], [u.rewards[a] for a in agents], err_msg=where)
                if env.terminated[i]:
                    ended += 1
                    if not disabled:
                        p.reset()
                obs = p.observe(p.agent_selection)
                assert env.current_player[i] == agents.index(p.agent_selection), where
                np.testing.assert_array_equal(env.observation[i], obs["observation"], err_msg=where)
                np.testing.assert_array_equal(env.legal_action_mask[i], obs["action_mask"],
                                              err_msg=where)
    assert ended > 100


def test_differential_against_pgx():
    """pgx with ``auto_reset`` under ``jit(vmap)`` on CPU, the same actions, seats copied from
    pgx's draw at every new game; every field compared at every step."""
    env = BatchedEnv(64, convention="pgx")
    ended, illegal = lockstep("tic_tac_toe", env, 150, lambda env, rng: _actions(env, rng, 0.08))
    assert ended > 500 and illegal > 100
