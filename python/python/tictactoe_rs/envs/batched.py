"""``N`` games stepped together in place on preallocated numpy buffers (numpy only).

:class:`BatchedEnv` keeps the state of every game in the native kernel and rewrites the same
arrays on every :meth:`BatchedEnv.step`: ``observation``, ``legal_action_mask``, ``rewards``,
``terminated``, ``truncated`` and ``current_player`` (the names of pgx's ``State``). Games that
end are reset in the same step (pgx's ``auto_reset``): the step's ``rewards`` and ``terminated``
are kept and the observation is the new game's; ``final_observation`` holds the last one.

Two conventions, chosen by ``convention``:

``"pgx"`` (``pgx.make("tic_tac_toe")``)
    bool ``(3, 3, 2)`` planes seen by the player to move (own marks, then the other's); each
    game draws which player id (0 or 1) plays X; ``rewards[:, id]`` by player id; an illegal
    move loses (-1, the other +1); the mask is all ones once a game is over.
``"pettingzoo"`` (``tictactoe_v3``)
    int8 planes and mask; id 0 (``player_1``) is X; an illegal move gives the mover -1 and the
    other 0 and sets ``truncated`` as well; the mask of an ended game is its empty cells.

Without auto-reset (``autoreset="disabled"`` or ``"next_step"``, as in Gymnasium), a game that
ended keeps its last board: an illegal move leaves it unchanged (pgx writes the mark over the
occupied cell; PettingZoo hands the turn to ``player_1``).

>>> import numpy as np
>>> from tictactoe_rs.envs.batched import BatchedEnv
>>> env = BatchedEnv(4, convention="pgx", seed=0)
>>> env.reset()
>>> env.observation.shape, env.observation.dtype
((4, 3, 3, 2), dtype('bool'))
>>> env.step(np.array([4, 4, 4, 4]))
>>> env.legal_action_mask[:, 4].tolist()
[False, False, False, False]
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np

from tictactoe_rs import _checks, _native
from tictactoe_rs.envs._views import views

__all__ = ["BatchedEnv"]

_CONVENTIONS = {"pgx": np.bool_, "pettingzoo": np.int8}
#: ``autoreset``: this package's spelling, Gymnasium's ``AutoresetMode`` values (or members).
Autoreset = Literal["same_step", "next_step", "disabled", "SameStep", "NextStep", "Disabled"]


class BatchedEnv:
    """``num_envs`` games in one native kernel; see the module docs for the conventions.

    ``seed`` seeds game ``i`` with ``seed + i`` (seat draws and :meth:`sample_actions`);
    ``autoreset`` is ``"same_step"`` (default, pgx's ``auto_reset``), ``"next_step"`` or
    ``"disabled"``, or Gymnasium's spelling of the same (``"SameStep"``, an ``AutoresetMode``).
    """

    def __init__(
        self,
        num_envs: int,
        convention: Literal["pgx", "pettingzoo"] = "pgx",
        seed: int = 0,
        autoreset: Autoreset | Any = "same_step",
    ) -> None:
        if convention not in _CONVENTIONS:
            raise ValueError(
                f"argument `convention` must be one of {sorted(_CONVENTIONS)}, got {convention!r}"
            )
        dtype = _CONVENTIONS[convention]
        seat: Literal[0, "random"] = "random" if convention == "pgx" else 0
        num_envs = _checks.index("num_envs", num_envs)
        self.num_envs = num_envs
        self.convention = convention
        self._kernel = _native.EnvKernel(
            num_envs, convention, autoreset=autoreset, seat=seat, seed=_checks.seed("seed", seed)
        )
        k = self._kernel
        v = views(k)
        self.observation: np.ndarray = v["obs"].view(dtype)
        self.legal_action_mask: np.ndarray = v["mask"].view(dtype)
        self.rewards: np.ndarray = v["rewards"]
        self.terminated: np.ndarray = v["terminated"]
        self.truncated: np.ndarray = v["truncated"]
        self.current_player: np.ndarray = v["player"]
        self.final_observation: np.ndarray = v["final_obs"].view(dtype)
        # The native method itself: a step of one game costs one call (see ``step`` below).
        self.step = k.step  # type: ignore[method-assign]
        self._actions = np.zeros(num_envs, dtype=np.int64)
        k.reset()

    def step(self, actions: np.ndarray) -> None:
        """Plays ``actions[i]`` (a numpy array of any integer dtype, cells 0 to 8) in game ``i``
        for the player to move and rewrites the fields in place; a cell out of range raises
        ``ValueError``, another dtype ``TypeError``, both naming ``actions``. (Each instance
        binds the native kernel's ``step`` in its place.)"""
        self._kernel.step(actions)

    def reset(self, seed: int | None = None, mask: np.ndarray | None = None) -> None:
        """Starts the games where ``mask`` is true (all by default); with ``seed``, game ``i``
        is reseeded with ``seed + i``."""
        seeds = None
        if seed is not None:
            seeds = np.arange(self.num_envs, dtype=np.uint64) + np.uint64(_checks.seed("seed", seed))
        if mask is not None:
            mask = _bools("mask", mask)
        self._kernel.reset(seeds, mask)

    def sample_actions(self, out: np.ndarray | None = None) -> np.ndarray:
        """A uniformly random legal action per game (any cell where a game is over), from each
        game's own seeded stream, written into ``out`` (a writeable int64 array of shape
        ``(num_envs,)``; another dtype raises ``TypeError``) when given."""
        if out is None:
            out = self._actions
        self._kernel.sample_actions(out)
        return out

    def boards(self) -> np.ndarray:
        """The X and O bit sets of every board (bit ``c`` is cell ``c``), ``(N, 2)`` uint16."""
        return self._kernel.bits()

    def first_player(self) -> np.ndarray:
        """The player id that plays X in each game, int32."""
        return self._kernel.first()

    def set_first_player(self, first: np.ndarray, mask: np.ndarray) -> None:
        """Sets who plays X in the games of ``mask``, which must be on empty boards: to follow
        another library's seat draw (pgx convention)."""
        first = _checks.integers("first", first)
        if first.size and not ((first == 0) | (first == 1)).all():
            raise ValueError("argument `first` must hold player ids 0 and 1")
        self._kernel.set_first(first.astype(np.int32), _bools("mask", mask))



def _bools(name: str, value: Any) -> np.ndarray:
    """A C-contiguous bool array; other dtypes raise ``TypeError`` naming ``name``."""
    array = np.asarray(value)
    if array.dtype != np.bool_:
        raise TypeError(f"argument `{name}` must be a bool array, got dtype {array.dtype}")
    return np.ascontiguousarray(array)
