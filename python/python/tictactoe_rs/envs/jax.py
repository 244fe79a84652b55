"""A step callable from inside ``jax.jit`` and ``jax.lax.scan``, on CPU (needs ``jax``).

:class:`JaxEnv` keeps a :class:`~tictactoe_rs.envs.batched.BatchedEnv` (same keywords) and
exposes its ``reset`` and ``step`` as JAX functions returning a :class:`State` of JAX arrays
(pgx's field names). They go through ``jax.experimental.io_callback`` with ``ordered=True``:
the games live in the native kernel, so a step is a side effect that JAX must neither drop,
repeat nor reorder, which ``jax.pure_callback`` does not promise. A jitted function or a
``lax.scan`` that calls ``step`` therefore steps the games every time it runs, in program order.
An illegal cell index raises inside the callback: JAX reports it as an error whose message
names ``actions``. ``vmap`` over ``step`` is not supported (the env is already batched).

>>> import jax, jax.numpy as jnp
>>> from tictactoe_rs.envs.jax import JaxEnv
>>> env = JaxEnv(4, seed=0)
>>> state = env.reset()
>>> @jax.jit
... def first_legal(state):
...     return env.step(jnp.argmax(state.legal_action_mask, axis=1).astype(jnp.int32))
>>> state = first_legal(state)
>>> state.observation.shape, int(state.observation.sum())
((4, 3, 3, 2), 4)
"""

from __future__ import annotations

from functools import partial
from typing import Any, NamedTuple

import jax
import numpy as np
from jax.experimental import io_callback

from tictactoe_rs.envs.batched import BatchedEnv

__all__ = ["JaxEnv", "State"]


class State(NamedTuple):
    """The fields of :class:`~tictactoe_rs.envs.batched.BatchedEnv` after a step, as JAX
    arrays (copies: the next step does not change them)."""

    observation: jax.Array
    legal_action_mask: jax.Array
    rewards: jax.Array
    terminated: jax.Array
    truncated: jax.Array
    current_player: jax.Array


class JaxEnv:
    """``BatchedEnv(num_envs, **kwargs)`` stepped through JAX callbacks (module docs)."""

    def __init__(self, num_envs: int, **kwargs: Any) -> None:
        self.env = BatchedEnv(num_envs, **kwargs)
        self.num_envs = num_envs
        self._shapes = tuple(jax.ShapeDtypeStruct(a.shape, a.dtype) for a in self._fields())

    def _fields(self) -> tuple[np.ndarray, ...]:
        e = self.env
        return (
            e.observation,
            e.legal_action_mask,
            e.rewards,
            e.terminated,
            e.truncated,
            e.current_player,
        )

    def _copies(self) -> State:
        return State(*(a.copy() for a in self._fields()))

    def _host_step(self, actions: np.ndarray) -> State:
        self.env.step(np.asarray(actions))
        return self._copies()

    def _host_reset(self, seed: int | None) -> State:
        self.env.reset(seed=seed)
        return self._copies()

    def step(self, actions: jax.Array) -> State:
        """Plays ``actions`` (int32 ``(num_envs,)``, one cell per game) and returns the new
        state; callable inside ``jax.jit`` and ``jax.lax.scan``."""
        return State(*io_callback(self._host_step, self._shapes, actions, ordered=True))

    def reset(self, seed: int | None = None) -> State:
        """Restarts every game and returns the state; with ``seed`` (a Python int, fixed when
        traced), game ``i`` is reseeded with ``seed + i``, else its random stream goes on."""
        return State(*io_callback(partial(self._host_reset, seed), self._shapes, ordered=True))

    def state(self) -> State:
        """The current state, outside of any traced function."""
        return State(*(jax.numpy.asarray(a) for a in self._copies()))
