"""The lockstep differential test against pgx that the 3 × 3 and family batched envs share:
pgx's game with ``auto_reset`` under ``jit(vmap)`` on CPU and ``BatchedEnv`` stepped with the
same actions (some illegal), seats copied from pgx's draw at every new game, and every field
compared at every step."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from tictactoe_rs.envs.batched import BatchedEnv


def lockstep(game: str, env: BatchedEnv, steps: int,
             actions: Callable[[BatchedEnv, np.random.Generator], np.ndarray]) -> tuple[int, int]:
    """Steps pgx's ``game`` and ``env`` (pgx convention) together for ``steps`` steps with
    ``actions(env, rng)``: the games ended and the illegal actions played."""
    jax = pytest.importorskip("jax")
    pgx = pytest.importorskip("pgx")
    from pgx.experimental import auto_reset

    jax.config.update("jax_platforms", "cpu")
    n = env.num_envs
    peer = pgx.make(game)
    init = jax.jit(jax.vmap(peer.init))
    step = jax.jit(jax.vmap(auto_reset(peer.step, peer.init)))
    key = jax.random.PRNGKey(0)
    key, sub = jax.random.split(key)
    state = init(jax.random.split(sub, n))

    env.set_first_player(np.asarray(state.current_player), np.ones(n, bool))
    rng = np.random.default_rng(11)
    ended = illegal = 0
    for t in range(steps):
        np.testing.assert_array_equal(env.observation, np.asarray(state.observation), err_msg=f"{t}")
        np.testing.assert_array_equal(env.legal_action_mask, np.asarray(state.legal_action_mask))
        np.testing.assert_array_equal(env.current_player, np.asarray(state.current_player))
        chosen = actions(env, rng)
        illegal += int((~env.legal_action_mask[np.arange(n), chosen]).sum())
        key, sub = jax.random.split(key)
        state = step(state, jax.numpy.asarray(chosen, dtype=jax.numpy.int32),
                     jax.random.split(sub, n))
        env.step(chosen)
        done = np.asarray(state.terminated)
        np.testing.assert_array_equal(env.terminated, done, err_msg=f"step {t}")
        np.testing.assert_array_equal(env.rewards, np.asarray(state.rewards), err_msg=f"step {t}")
        np.testing.assert_array_equal(env.truncated, np.asarray(state.truncated))
        # pgx drew the seats of the new games from its keys: follow them.
        env.set_first_player(np.asarray(state.current_player), done)
        ended += int(done.sum())
    return ended, illegal
