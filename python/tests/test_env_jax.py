"""The JAX step: inside ``jit`` and ``lax.scan`` it steps the native games exactly as the
numpy path does, every call, in order."""

from __future__ import annotations

import numpy as np
import pytest

jax = pytest.importorskip("jax")
jnp = jax.numpy

from tictactoe_rs.envs.batched import BatchedEnv  # noqa: E402
from tictactoe_rs.envs.jax import JaxEnv  # noqa: E402


def first_legal(mask):
    return jnp.argmax(mask, axis=1).astype(jnp.int32)


@pytest.mark.parametrize(
    ("convention", "game"), [("pgx", None), ("pettingzoo", None), ("pgx", "connect-four")]
)
def test_scan_equals_the_numpy_path(convention, game):
    n, steps = 32, 40
    env = JaxEnv(n, convention=convention, seed=5, game=game)
    reference = BatchedEnv(n, convention=convention, seed=5, game=game)

    @jax.jit
    def rollout(state):
        def body(state, _):
            state = env.step(first_legal(state.legal_action_mask))
            return state, (state.observation, state.rewards, state.terminated, state.current_player)

        return jax.lax.scan(body, state, None, length=steps)

    state = env.reset()
    reference.reset()
    for _ in range(2):  # a jitted function steps the games every time it runs
        state, (observations, rewards, terminated, players) = rollout(state)
        for t in range(steps):
            reference.step(np.asarray(reference.legal_action_mask).argmax(axis=1))
            np.testing.assert_array_equal(observations[t], reference.observation)
            np.testing.assert_array_equal(rewards[t], reference.rewards)
            np.testing.assert_array_equal(terminated[t], reference.terminated)
            np.testing.assert_array_equal(players[t], reference.current_player)
    assert np.asarray(terminated).any()
    fresh = JaxEnv(n, convention=convention, game=game).state()
    for got, expected in zip(env.state(), fresh, strict=True):
        assert got.shape == expected.shape and got.dtype == expected.dtype


def test_a_step_whose_result_is_unused_still_runs():
    env = JaxEnv(2, seed=0)
    env.reset()

    @jax.jit
    def play(actions):
        env.step(actions)
        return actions + 1

    play(jnp.array([4, 4], jnp.int32)).block_until_ready()
    assert int(np.asarray(env.state().observation).sum()) == 2


def test_reset_with_a_seed_reseeds():
    env = JaxEnv(16, seed=0)
    reference = BatchedEnv(16, seed=7)
    env.reset()
    state = jax.jit(lambda: env.reset(seed=7))()
    np.testing.assert_array_equal(state.current_player, reference.current_player)
    np.testing.assert_array_equal(state.observation, reference.observation)


def test_bad_actions_raise_naming_them():
    env = JaxEnv(2, seed=0)
    env.reset()
    # Eagerly, the env's own errors, not a JaxRuntimeError around them.
    with pytest.raises(ValueError, match=r"argument `actions` holds 9, not a cell \(0 to 8\)") as info:
        env.step(jnp.array([0, 9], jnp.int32))
    assert not isinstance(info.value, jax.errors.JaxRuntimeError)
    with pytest.raises(TypeError, match=r"argument `actions` must be an integer array \(int8 to int64 or uint8 to uint64\), got dtype float32"):
        env.step(jnp.array([0.0, 1.0]))
    # Under jit, a wrong shape or dtype when traced, with the same words.
    with pytest.raises(ValueError, match=r"argument `actions` must have shape \(2,\), got \(3,\)"):
        jax.jit(env.step)(jnp.array([0, 1, 2], jnp.int32))
    with pytest.raises(TypeError, match=r"argument `actions` must be an integer array \(int8 to int64 or uint8 to uint64\), got dtype float32"):
        jax.jit(env.step)(jnp.array([0.0, 1.0]))
    with pytest.raises(TypeError, match=r"argument `seed` must be an int or None, got str"):
        env.reset(seed="1")  # type: ignore[arg-type]
    # A value out of range under jit is known only when it runs: JAX's error quotes ours.
    with pytest.raises(jax.errors.JaxRuntimeError, match=r"argument `actions` holds 9"):
        jax.block_until_ready(jax.jit(env.step)(jnp.array([0, 9], jnp.int32)))
