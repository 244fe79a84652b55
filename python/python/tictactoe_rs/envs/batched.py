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

``game=`` picks a game of the k-in-a-row family (``"connect-four"``, ``"gomoku"``, ``"4,4,4"``,
``"6,7,4,gravity"`` or a :class:`tictactoe_rs.mnk.Rules`), default tic-tac-toe. The fields keep
their names and rules; observations are ``(rows, cols, 2)`` (row 0 at the top) and the mask has
one entry per action: a column with gravity (pgx ``connect_four``, PettingZoo
``connect_four_v3``), a cell ``row * cols + col`` without. The family's observation arrays are
read-only views (the kernel updates them in place).

``game="ultimate"`` steps ultimate tic-tac-toe (``env.game == "ultimate"``): actions are the
81 moves ``9 * board + cell`` (``actions="openspiel"``: OpenSpiel's two steps, 9 actions) and
observations ``(3, 9, 9)`` planes ``[plane, board, cell]``, the mover's marks, the other's and
the legal moves (``observation="openspiel"``: pyspiel's float32 ``(254,)`` tensor); see
:mod:`tictactoe_rs.envs._ultimate`. ``actions`` and ``observation`` are refused for other games.

:func:`selfplay` steps a batch where both seats are policies, each called once per step with
the whole batch.

>>> import numpy as np
>>> from tictactoe_rs.envs.batched import BatchedEnv
>>> env = BatchedEnv(4, convention="pgx", seed=0)
>>> env.reset()
>>> env.observation.shape, env.observation.dtype
((4, 3, 3, 2), dtype('bool'))
>>> env.step(np.array([4, 4, 4, 4]))
>>> env.legal_action_mask[:, 4].tolist()
[False, False, False, False]
>>> c4 = BatchedEnv(2, game="connect-four", seed=0)
>>> c4.observation.shape, c4.legal_action_mask.shape
((2, 6, 7, 2), (2, 7))
>>> ultimate = BatchedEnv(2, game="ultimate", seed=0)
>>> ultimate.observation.shape, ultimate.legal_action_mask.shape
((2, 3, 9, 9), (2, 81))
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from tictactoe_rs import _checks, _native
from tictactoe_rs.envs import _family, _ultimate
from tictactoe_rs.envs._views import views

__all__ = ["BatchedEnv", "Policy", "SelfPlayResult", "game_rules", "selfplay"]

#: A batched policy: ``(observation, legal_action_mask) -> actions``, one call for the whole
#: batch (``(N, ...)`` arrays in, an integer array of shape ``(N,)`` out).
Policy = Callable[[np.ndarray, np.ndarray], Any]


def game_rules(game: Any) -> _native.Rules | None:
    """``game`` parsed as every environment's ``game=`` is (:func:`._family.rules`); ``None``
    for tic-tac-toe, which runs on the 3 x 3 kernel."""
    rules = _family.rules(game)
    return None if rules == _native.Rules.TIC_TAC_TOE else rules


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
        *,
        game: str | _native.Rules | None = None,
        actions: _ultimate.Actions = "flat",
        observation: _ultimate.Observation = "planes",
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
        ultimate = _ultimate.is_ultimate(game)
        if not ultimate:
            _ultimate.refuse_options(game, actions, observation)
        rules = None if ultimate else game_rules(game)
        #: The game's rules (``Rules.TIC_TAC_TOE`` by default), or ``"ultimate"``.
        self.game: _native.Rules | str = "ultimate" if ultimate else rules or _native.Rules.TIC_TAC_TOE
        k: _native.EnvKernel | _native.FamilyKernel | _native.UltimateKernel
        seed = _checks.seed("seed", seed)
        if ultimate:
            k = _ultimate.kernel(num_envs, convention, actions, observation, autoreset=autoreset, seat=seat, seed=seed)
        elif rules is None:
            k = _native.EnvKernel(num_envs, convention, autoreset=autoreset, seat=seat, seed=seed)
        else:
            k = _native.FamilyKernel(num_envs, rules, convention, autoreset=autoreset, seat=seat, seed=seed)
        self._kernel = k
        self._autoreset = autoreset
        v = views(k, readonly=rules is not None or ultimate)
        # pyspiel's tensor (ultimate, observation="openspiel") stays float32.
        obs_dtype = dtype if v["obs"].dtype == np.uint8 else v["obs"].dtype
        self.observation: np.ndarray = v["obs"].view(obs_dtype)
        self.legal_action_mask: np.ndarray = v["mask"].view(dtype)
        self.rewards: np.ndarray = v["rewards"]
        self.terminated: np.ndarray = v["terminated"]
        self.truncated: np.ndarray = v["truncated"]
        self.current_player: np.ndarray = v["player"]
        self.final_observation: np.ndarray = v["final_obs"].view(obs_dtype)
        # The native method itself: a step of one game costs one call (see ``step`` below).
        self.step = k.step  # type: ignore[method-assign]
        self._actions = np.zeros(num_envs, dtype=np.int64)
        k.reset()

    def step(self, actions: np.ndarray) -> None:
        """Plays ``actions[i]`` (a numpy array of any integer dtype: cells 0 to 8, or the
        family game's actions, columns with gravity, cells without) in game ``i``
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
        """Tic-tac-toe: the X and O bit sets of every board (bit ``c`` is cell ``c``),
        ``(N, 2)`` uint16. A family game: the boards as text (rows top to bottom separated by
        ``/``, ``X``, ``O``, ``.``), an ``(N,)`` str array."""
        if isinstance(self._kernel, (_native.FamilyKernel, _native.UltimateKernel)):
            return np.array(self._kernel.boards())
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


@dataclass(frozen=True)
class SelfPlayResult:
    """What :func:`selfplay` played: ``steps`` batched steps, ``games`` games ended,
    ``returns[id]`` the rewards player id ``id`` collected (summed over the batch)."""

    steps: int
    games: int
    returns: np.ndarray


def selfplay(env: BatchedEnv, policy_0: Policy, policy_1: Policy, steps: int) -> SelfPlayResult:
    """Plays ``steps`` batched steps of ``env`` where player id 0 follows ``policy_0`` and id 1
    follows ``policy_1``: each step calls each policy ONCE with the whole batch,
    ``policy(env.observation, env.legal_action_mask)`` (the mover's view in every game), and
    plays ``actions[i]`` of the policy whose player moves in game ``i``.

    An action array of the wrong type or shape, a non-integer dtype, or an action the mask
    forbids in a game in play raises (``TypeError`` / ``ValueError`` naming the policy, the
    game and the action) before the step, as does an exception of the policy: the games are
    left exactly as they were before that step (the steps already played stay played).

    >>> import numpy as np
    >>> from tictactoe_rs.envs.batched import BatchedEnv, selfplay
    >>> env = BatchedEnv(256, game="connect-four", seed=1)
    >>> first_open = lambda obs, mask: mask.argmax(axis=1)
    >>> result = selfplay(env, first_open, first_open, steps=100)
    >>> result.games > 0, float(result.returns.sum())
    (True, 0.0)
    """
    steps = _checks.index("steps", steps)
    n = env.num_envs
    rows = np.arange(n)
    returns = np.zeros(2, dtype=np.float64)
    games = 0
    same_step = str(getattr(env._autoreset, "value", env._autoreset)) in ("same_step", "SameStep")
    for _ in range(steps):
        obs, mask = env.observation, env.legal_action_mask
        chosen = [
            _policy_actions(name, policy, obs, mask, n)
            for name, policy in (("policy_0", policy_0), ("policy_1", policy_1))
        ]
        actions = np.where(env.current_player == 0, chosen[0], chosen[1])
        live = rows if same_step else np.flatnonzero(~(env.terminated | env.truncated))
        allowed = mask[live, actions[live]].astype(bool)
        if not allowed.all():
            i = int(live[np.flatnonzero(~allowed)[0]])
            who = "policy_0" if env.current_player[i] == 0 else "policy_1"
            raise ValueError(f"{who} chose action {int(actions[i])} in game {i}, which its mask forbids")
        env.step(actions)
        returns += env.rewards.sum(axis=0)
        games += int(np.count_nonzero(env.terminated | env.truncated))
    return SelfPlayResult(steps=steps, games=games, returns=returns)


def _policy_actions(name: str, policy: Policy, obs: np.ndarray, mask: np.ndarray, n: int) -> np.ndarray:
    """The actions of ``policy`` for the batch, checked: an integer array of shape ``(n,)``."""
    actions = policy(obs, mask)
    if not isinstance(actions, np.ndarray):
        raise TypeError(f"{name} must return a numpy integer array of shape ({n},), got {type(actions).__name__}")
    if actions.dtype == np.bool_ or not np.issubdtype(actions.dtype, np.integer):
        raise TypeError(f"{name} must return an integer array, got dtype {actions.dtype}")
    if actions.shape != (n,):
        raise ValueError(f"{name} must return shape ({n},), got {actions.shape}")
    bound = mask.shape[1]
    if actions.size and (actions.min() < 0 or actions.max() >= bound):
        bad = int(np.flatnonzero((actions < 0) | (actions >= bound))[0])
        raise ValueError(f"{name} chose action {int(actions[bad])} in game {bad}, not one of 0 to {bound - 1}")
    return actions
