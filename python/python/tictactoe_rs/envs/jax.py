"""A step callable from inside ``jax.jit`` and ``jax.lax.scan``, on CPU (needs ``jax``).

:class:`JaxEnv` keeps a :class:`~tictactoe_rs.envs.batched.BatchedEnv` (same keywords) and
exposes its ``reset`` and ``step`` as JAX functions returning a :class:`State` of JAX arrays
(pgx's field names). They go through ``jax.experimental.io_callback`` with ``ordered=True``:
the games live in the native kernel, so a step is a side effect that JAX must neither drop,
repeat nor reorder, which ``jax.pure_callback`` does not promise. A jitted function or a
``lax.scan`` that calls ``step`` therefore steps the games every time it runs, in program order.
Errors surface with their own message, naming ``actions``: called eagerly (outside ``jit``),
``step`` runs on the host directly, so a bad action raises the ``ValueError`` or ``TypeError``
itself; inside ``jit``, a wrong shape or dtype raises the same error when the function is
traced. Only an action value out of range inside ``jit`` (known when it runs) raises inside
the callback, where JAX reports it as a ``JaxRuntimeError`` that quotes the message.
``vmap`` over ``step`` is not supported (the env is already batched).

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

    def step(self, actions: Any) -> State:
        """Plays ``actions`` (integers ``(num_envs,)``, one action per game) and returns the
        new state; callable inside ``jax.jit`` and ``jax.lax.scan``."""
        if not isinstance(actions, jax.core.Tracer):
            # Eager: on the host at once, so that an error is the env's own.
            return State(*(jax.numpy.asarray(a) for a in self._host_step(np.asarray(actions))))
        if actions.shape != (self.num_envs,):
            raise ValueError(f"argument `actions` must have shape ({self.num_envs},), got {actions.shape}")
        if not jax.numpy.issubdtype(actions.dtype, jax.numpy.integer):
            raise TypeError(
                "argument `actions` must be an integer array (int8 to int64 or uint8 to uint64), "
                f"got dtype {actions.dtype}"
            )
        return State(*io_callback(self._host_step, self._shapes, actions, ordered=True))

    def reset(self, seed: int | None = None) -> State:
        """Restarts every game and returns the state; with ``seed`` (a Python int, fixed when
        traced), game ``i`` is reseeded with ``seed + i``, else its random stream goes on."""
        if isinstance(seed, bool) or (seed is not None and not isinstance(seed, int | np.integer)):
            raise TypeError(f"argument `seed` must be an int or None, got {type(seed).__name__}")
        return State(*io_callback(partial(self._host_reset, seed), self._shapes, ordered=True))

    def state(self) -> State:
        """The current state, outside of any traced function."""
        return State(*(jax.numpy.asarray(a) for a in self._copies()))
