"""The batched environment on the k-in-a-row family (``BatchedEnv(game=...)``): against pgx's
``connect_four`` step by step, against the library's own boards for the games no peer has,
its argument errors, and :func:`selfplay` with batched policies."""

from __future__ import annotations

import numpy as np
import pytest
from pgx_lockstep import lockstep

from tictactoe_rs.envs.batched import BatchedEnv, selfplay
from tictactoe_rs.mnk import Rules


def _actions(env, rng, illegal_rate):
    """Random legal actions, with some others mixed in: a random action, or the first
    illegal one where there is one (a full column of Connect Four)."""
    legal = env.sample_actions().copy()
    mask = env.legal_action_mask.astype(bool)
    wild = rng.integers(0, mask.shape[1], env.num_envs)
    wild = np.where(mask.all(axis=1), wild, (~mask).argmax(axis=1))
    return np.where(rng.random(env.num_envs) < illegal_rate, wild, legal)


def _expected(env):
    """The observation and mask every game should show, rebuilt from its board text."""
    rules = env.game
    first = env.first_player()
    obs = np.zeros((env.num_envs, rules.rows, rules.cols, 2), dtype=bool)
    mask = np.zeros((env.num_envs, rules.actions), dtype=bool)
    for i, text in enumerate(env.boards()):
        grid = np.array([list(row) for row in text.split("/")])
        me = "X" if first[i] == env.current_player[i] else "O"
        them = "O" if me == "X" else "X"
        obs[i, :, :, 0], obs[i, :, :, 1] = grid == me, grid == them
        empty = grid == "."
        mask[i] = empty[0] if rules.gravity else empty.ravel()
    return obs, mask


@pytest.mark.parametrize(
    "game", ["connect-four", "4,4,4", "5,5,4", "gomoku", "5,4,3,gravity", "8,8,5", "19,19,5", "9,9,4,gravity"]
)
@pytest.mark.parametrize("autoreset", ["same_step", "next_step"])
def test_fields_match_the_boards(game, autoreset):
    """Every step, the in-place observation and mask equal the ones rebuilt from the board."""
    n = 64
    env = BatchedEnv(n, game=game, seed=5, autoreset=autoreset)
    rng = np.random.default_rng(3)
    ended = 0
    for t in range(120):
        obs, mask = _expected(env)
        live = ~(env.terminated | env.truncated) if autoreset == "next_step" else np.ones(n, bool)
        np.testing.assert_array_equal(env.observation[live], obs[live], err_msg=f"{game} step {t}")
        np.testing.assert_array_equal(env.legal_action_mask[live], mask[live], err_msg=f"step {t}")
        env.step(_actions(env, rng, 0.05))
        ended += int(env.terminated.sum())
        # The winner's reward is +1 and the loser's -1; a draw gives 0 to both.
        assert (env.rewards.sum(axis=1)[env.terminated & ~env.truncated] == 0).all()
    assert ended > 20


def test_differential_against_pgx_connect_four():
    """pgx ``connect_four`` with ``auto_reset`` under ``jit(vmap)`` on CPU: the same actions
    (some illegal), seats copied from pgx's draw at every new game, observation, mask,
    rewards, termination and current player compared at every step; over 2,000 games."""
    env = BatchedEnv(512, convention="pgx", game="connect-four")
    ended, illegal = lockstep("connect_four", env, 110, lambda env, rng: _actions(env, rng, 0.05))
    assert ended >= 2000 and illegal > 50


def test_pettingzoo_convention_shapes_and_illegal_moves():
    env = BatchedEnv(3, convention="pettingzoo", game="connect-four", seed=0)
    assert (env.observation.dtype, env.observation.shape) == (np.int8, (3, 6, 7, 2))
    assert (env.legal_action_mask.dtype, env.legal_action_mask.shape) == (np.int8, (3, 7))
    assert env.current_player.tolist() == [0, 0, 0]  # player_0 moves first
    for _ in range(6):
        env.step(np.array([0, 1, 2]))
    assert env.legal_action_mask[:, :3].tolist() == [[0, 1, 1], [1, 0, 1], [1, 1, 0]]
    env.step(np.array([0, 1, 2]))  # full columns: player_0 loses, truncated too
    assert env.rewards.tolist() == [[-1.0, 0.0]] * 3
    assert env.terminated.all() and env.truncated.all()


def test_tic_tac_toe_by_name_is_the_three_by_three_kernel():
    env = BatchedEnv(2, game="tic-tac-toe")
    assert env.observation.shape == (2, 3, 3, 2) and env.boards().dtype == np.uint16
    assert env.game == Rules.TIC_TAC_TOE


def test_errors_name_the_argument():
    with pytest.raises(ValueError, match="argument `game`"):
        BatchedEnv(2, game="connect-five")
    with pytest.raises(TypeError, match="argument `game`"):
        BatchedEnv(2, game=7)
    env = BatchedEnv(2, game="connect-four")
    with pytest.raises(ValueError, match=r"argument `actions` holds 7 at game 1, not a column \(0 to 6\)"):
        env.step(np.array([0, 7]))
    with pytest.raises(ValueError, match="argument `actions` must have shape"):
        env.step(np.array([0, 1, 2]))
    with pytest.raises(TypeError, match="argument `actions`"):
        env.step(np.array([0.0, 1.0]))
    with pytest.raises(ValueError, match="not a cell"):
        BatchedEnv(1, game="gomoku").step(np.array([225]))
    with pytest.raises(ValueError, match="read-only"):
        env.observation[0, 0, 0, 0] = True
    assert env.boards().tolist() == ["......./......./......./......./......./......."] * 2


def _snapshot(env):
    return (env.boards().tolist(), env.observation.copy(), env.legal_action_mask.copy(),
            env.rewards.copy(), env.current_player.copy())


def _bad_policies(n):
    def raises(obs, mask):
        raise RuntimeError("policy failed")

    first = lambda obs, mask: mask.argmax(axis=1)  # noqa: E731
    full = lambda obs, mask: (~mask.astype(bool)).argmax(axis=1)  # noqa: E731
    return [
        (raises, RuntimeError, "policy failed"),
        (lambda o, m: np.zeros(n + 1, np.int64), ValueError, r"policy_1 must return shape"),
        (lambda o, m: np.zeros(n), TypeError, "integer array, got dtype float64"),
        (lambda o, m: [0] * n, TypeError, "numpy integer array"),
        (lambda o, m: np.full(n, 9), ValueError, "not one of 0 to 6"),
        (full, ValueError, "which its mask forbids"),
        (first, None, None),
    ]


def test_selfplay_rejects_a_bad_policy_and_leaves_the_games_as_they_were():
    n = 32
    env = BatchedEnv(n, game="connect-four", seed=2)
    first = lambda obs, mask: mask.argmax(axis=1)  # noqa: E731
    # Six moves fill column 0 of every game: `full` (the first full column) is illegal.
    selfplay(env, first, first, 6)
    for policy, error, message in _bad_policies(n):
        before = _snapshot(env)
        if error is None:
            selfplay(env, first, policy, 1)
            continue
        with pytest.raises(error, match=message):
            selfplay(env, first, policy, 1)
        after = _snapshot(env)
        assert before[0] == after[0]
        for a, b in zip(before[1:], after[1:]):
            np.testing.assert_array_equal(a, b)


def test_selfplay_calls_each_policy_once_a_step_and_scores_the_games():
    n = 128
    env = BatchedEnv(n, game="4,4,3", seed=4)
    calls = []

    def counted(obs, mask):
        calls.append(obs.shape)
        rng = np.random.default_rng(len(calls))
        return (rng.random(mask.shape) * mask).argmax(axis=1)

    result = selfplay(env, counted, counted, 20)
    assert calls == [(n, 4, 4, 2)] * 40
    assert result.steps == 20 and result.games > n
    # Zero-sum: what one player wins the other loses.
    assert result.returns.sum() == 0 and result.returns[0] != 0
