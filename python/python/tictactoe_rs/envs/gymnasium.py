"""Gymnasium environments: the agent plays one side against a built-in opponent.

:class:`MnkEnv` is a single-agent ``gymnasium.Env`` for any game of the k-in-a-row family
(``game=``) and :class:`MnkVectorEnv` a ``gymnasium.vector.VectorEnv`` of ``num_envs`` of them
in the native kernel (all three ``AutoresetMode``\\ s); the vector env returns what
``SyncVectorEnv`` over ``num_envs`` single envs returns, seeds included (game ``i`` of
``reset(seed=s)`` is seeded with ``s + i``). Each preset has its own classes and name, which
importing this module registers for ``gym.make`` and ``gym.make_vec``:

=============================== ======================= =============================
``gym.make`` id                 class                   vector class
=============================== ======================= =============================
``tictactoe_rs/TicTacToe-v0``   :class:`TicTacToeEnv`   :class:`TicTacToeVectorEnv`
``tictactoe_rs/FourByFour-v0``  :class:`FourByFourEnv`  :class:`FourByFourVectorEnv`
``tictactoe_rs/ConnectFour-v0`` :class:`ConnectFourEnv` :class:`ConnectFourVectorEnv`
``tictactoe_rs/Gomoku-v0``      :class:`GomokuEnv`      :class:`GomokuVectorEnv`
``tictactoe_rs/Mnk-v0``         :class:`MnkEnv`         :class:`MnkVectorEnv`
=============================== ======================= =============================

``Mnk-v0`` takes ``game=`` (any spec, default tic-tac-toe); the others are its presets.

- Observation: int8 ``(3, 3, 2)`` planes seen by the agent (its marks, then the opponent's),
  cell ``c`` at ``[c // 3, c % 3]``; action: ``Discrete(9)``, the cell to mark.
- ``info["action_mask"]`` (int8) and :meth:`TicTacToeEnv.action_masks` (bool, for masked
  policies such as sb3-contrib's ``MaskablePPO``) give the empty cells; all ones once the game
  is over (any action is then ignored).
- Reward: +1 win, -1 loss, 0 draw or game going on; an illegal move ends the game with
  ``illegal_reward`` (default -1).
- ``opponent``: ``"random"``, ``"heuristic"`` (win, block, fork, block a fork, centre, opposite
  corner, corner, side), ``"perfect"`` (the solver's best moves), ``"eps:E"`` (perfect, random
  with probability ``E``), each choosing uniformly among its candidate moves, or a callable
  ``opponent(observation, action_mask) -> int`` given the opponent's own view.
- ``agent``: ``"x"`` (moves first), ``"o"`` (the opponent opens) or ``"random"`` (drawn each
  game).
- ``game``: a game of the k-in-a-row family (``"connect-four"``, ``"gomoku"``, ``"4,4,4"``,
  ``"6,7,4,gravity"`` or a :class:`tictactoe_rs.mnk.Rules`), default tic-tac-toe. The
  observation is then ``(rows, cols, 2)``, the action ``Discrete(actions)`` (a column with
  gravity, the cell ``row * cols + col`` without), and ``opponent`` one of the family's
  players, all native: ``"random"``, ``"heuristic"``, ``"mcts"``, ``"alphabeta"`` or
  ``"perfect"`` (exact play, Connect Four and boards of at most 20 cells only), or a callable
  called ONCE per step with the games that wait for it, ``opponent(observations, masks) ->
  actions`` (int8 ``(k, rows, cols, 2)`` from its own view, int8 ``(k, actions)``, an integer
  array of shape ``(k,)`` back); if it raises or answers a wrong shape, a non-integer or an
  illegal action, the step is undone and the error raised. Tic-tac-toe calls a plain callable
  once per game, and a :class:`BatchedOpponent` once per step like the family.
- ``render_mode``: ``"ansi"`` (the board as text), ``"human"`` (printed after every reset and
  step) or ``"rgb_array"`` (a picture drawn with numpy: the pictures of the PettingZoo
  environments of :mod:`tictactoe_rs.envs.pettingzoo`), for every game.

>>> import gymnasium as gym
>>> import tictactoe_rs.envs.gymnasium
>>> env = gym.make("tictactoe_rs/TicTacToe-v0", opponent="perfect", agent="x")
>>> obs, info = env.reset(seed=0)
>>> info["action_mask"].tolist()
[1, 1, 1, 1, 1, 1, 1, 1, 1]
>>> c4 = gym.make("tictactoe_rs/ConnectFour-v0", render_mode="rgb_array")
>>> type(c4.unwrapped).__name__, c4.observation_space.shape
('ConnectFourEnv', (6, 7, 2))
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from tictactoe_rs import _checks, _native
from tictactoe_rs._native import EnvKernel, FamilyKernel
from tictactoe_rs.envs import _render
from tictactoe_rs.envs._ultimate import is_ultimate
from tictactoe_rs.envs._ultimate_gym import UltimateEnv, UltimateVectorEnv
from tictactoe_rs.envs._views import views
from tictactoe_rs.envs.batched import game_rules

__all__ = [
    "ENV_ID",
    "ENV_IDS",
    "BatchedOpponent",
    "ConnectFourEnv",
    "ConnectFourVectorEnv",
    "FourByFourEnv",
    "FourByFourVectorEnv",
    "GomokuEnv",
    "GomokuVectorEnv",
    "MnkEnv",
    "MnkVectorEnv",
    "TicTacToeEnv",
    "TicTacToeVectorEnv",
    "UltimateEnv",
    "UltimateVectorEnv",
]

#: Tic-tac-toe's id.
ENV_ID = "tictactoe_rs/TicTacToe-v0"
#: The ids by game: each preset's name, and ``None`` for ``Mnk-v0`` (any game, ``game=``).
ENV_IDS: dict[str | None, str] = {
    "tic-tac-toe": ENV_ID,
    "4x4": "tictactoe_rs/FourByFour-v0",
    "connect-four": "tictactoe_rs/ConnectFour-v0",
    "gomoku": "tictactoe_rs/Gomoku-v0",
    "ultimate": "tictactoe_rs/Ultimate-v0",
    None: "tictactoe_rs/Mnk-v0",
}

Opponent = str | Callable[[np.ndarray, np.ndarray], int]
#: The render modes of every env (``metadata["render_modes"]``).
RenderMode = Literal["human", "rgb_array", "ansi"]
#: Who the agent plays: X (moves first), O, or drawn each game.
Agent = Literal["x", "o", "random"]
#: ``autoreset_mode``: an ``AutoresetMode``, its value, or ``BatchedEnv``'s spelling.
AutoresetName = Literal[
    "next_step", "same_step", "disabled", "NextStep", "SameStep", "Disabled"
]

# The kernel's seat: the agent is player id 0, the opponent id 1.
_SEATS: dict[str, Literal[0, 1, "random"]] = {"x": 0, "o": 1, "random": "random"}
_BYTES = ((np.arange(512)[:, None] >> np.arange(9)) & 1).astype(np.int8)
_AUTORESET = {
    AutoresetMode.NEXT_STEP: "next_step",
    AutoresetMode.SAME_STEP: "same_step",
    AutoresetMode.DISABLED: "disabled",
}


class BatchedOpponent:
    """A callable opponent called once per step with every game that waits for it:
    ``fn(observations, masks) -> actions`` (int8 ``(k, rows, cols, 2)`` from the opponent's own
    view, int8 ``(k, actions)``; an integer array of shape ``(k,)`` back). Family games call
    any callable opponent this way; for tic-tac-toe, whose plain callables are called once per
    game, wrap it: ``opponent=BatchedOpponent(fn)``.

    >>> import numpy as np
    >>> from tictactoe_rs.envs.gymnasium import BatchedOpponent, TicTacToeVectorEnv
    >>> envs = TicTacToeVectorEnv(64, opponent=BatchedOpponent(lambda obs, masks: masks.argmax(axis=1)))
    >>> obs, infos = envs.reset(seed=0)
    >>> obs, rewards, terminated, truncated, infos = envs.step(np.full(64, 4))
    >>> obs[0, :, :, 1].tolist()           # the opponent took the first empty cell
    [[1, 0, 0], [0, 0, 0], [0, 0, 0]]
    """

    def __init__(self, fn: Callable[[np.ndarray, np.ndarray], Any]) -> None:
        if not callable(fn):
            raise TypeError(f"argument `fn` must be callable, got {type(fn).__name__}")
        self.fn = fn

    def __call__(self, observations: np.ndarray, masks: np.ndarray) -> Any:
        return self.fn(observations, masks)


def _kernel(
    num_envs: int,
    opponent: Opponent,
    agent: str,
    illegal_reward: float,
    autoreset: str,
    rules: _native.Rules | None = None,
) -> EnvKernel | FamilyKernel:
    if agent not in _SEATS:
        raise ValueError(f"argument `agent` must be 'x', 'o' or 'random', got {agent!r}")
    name = "external" if callable(opponent) else opponent
    if rules is not None:
        if not isinstance(name, str) or (name == "external" and not callable(opponent)):
            raise ValueError(
                "argument `opponent` must be random, heuristic, mcts, alphabeta, perfect or a callable, "
                f"got {opponent!r}"
            )
        return _native.FamilyKernel(
            _checks.index("num_envs", num_envs),
            rules,
            "gym",
            autoreset=autoreset,
            seat=_SEATS[agent],
            opponent=name,
            illegal_reward=illegal_reward,
        )
    if not isinstance(name, str) or (name == "external" and not callable(opponent)):
        raise ValueError(
            f"argument `opponent` must be random, heuristic, perfect, eps:E or a callable, got {opponent!r}"
        )
    return _native.EnvKernel(
        _checks.index("num_envs", num_envs),
        "gym",
        autoreset=autoreset,
        seat=_SEATS[agent],
        opponent=name,
        illegal_reward=illegal_reward,
    )


def _play_external(kernel: EnvKernel | FamilyKernel, opponent: Callable[..., Any]) -> None:
    """Asks the callable opponent for a move in every game that waits for one. Atomic: if
    the opponent raises or answers anything but an empty cell, the kernel goes back to the
    state before the ``reset`` or ``step`` that called it, and the error propagates."""
    try:
        # A game that ends in the opponent's move may restart with the opponent to open: twice.
        for _ in range(2):
            pending = np.flatnonzero(kernel.pending())
            if len(pending) == 0:
                return
            if isinstance(kernel, FamilyKernel):
                observations, masks = kernel.views(1)
                _play_batch(kernel, opponent, pending, observations[pending], masks[pending])
            elif isinstance(opponent, BatchedOpponent):
                _play_batch(kernel, opponent, pending, *_views_3x3(kernel, pending))
            else:
                _play_pending(kernel, opponent, pending)
    except BaseException:
        kernel.rollback()
        raise


def _views_3x3(kernel: EnvKernel, pending: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The planes and masks of the tic-tac-toe games of ``pending`` seen by the opponent."""
    bits, first = kernel.bits()[pending].astype(np.int64), kernel.first()[pending]
    x, o = bits[:, 0], bits[:, 1]
    # The opponent is id 1: it plays X when first == 1.
    mine, theirs = np.where(first == 1, x, o), np.where(first == 1, o, x)
    observations = np.stack([_BYTES[mine], _BYTES[theirs]], axis=-1).reshape(-1, 3, 3, 2)
    return observations, _BYTES[~(x | o) & 0x1FF]


def _play_batch(
    kernel: EnvKernel | FamilyKernel,
    opponent: Callable[[np.ndarray, np.ndarray], Any],
    pending: np.ndarray,
    observations: np.ndarray,
    masks: np.ndarray,
) -> None:
    """One call of the opponent for every game of ``pending``, from its own view (id 1)."""
    k, bound = len(pending), masks.shape[1]
    moves = opponent(observations.view(np.int8), masks.view(np.int8))
    if not isinstance(moves, np.ndarray) or moves.dtype == np.bool_ or moves.dtype.kind not in "iu":
        got = f"dtype {moves.dtype}" if isinstance(moves, np.ndarray) else type(moves).__name__
        raise TypeError(f"the opponent must return an integer array of shape ({k},), got {got}")
    if moves.shape != (k,):
        raise ValueError(f"the opponent must return shape ({k},), got {moves.shape}")
    if ((moves < 0) | (moves >= bound)).any():
        bad = int(np.flatnonzero((moves < 0) | (moves >= bound))[0])
        raise ValueError(
            f"the opponent's move {int(moves[bad])} in game {int(pending[bad])} is not an action (0 to {bound - 1})"
        )
    actions = np.zeros(len(kernel), dtype=np.int64)
    actions[pending] = moves
    kernel.finish(actions)


def _action(name: str, value: Any, bound: int) -> int:
    """An action 0 to ``bound - 1``: ``TypeError`` / ``ValueError`` naming ``name``."""
    action = _checks.index(name, value)
    if not 0 <= action < bound:
        raise ValueError(f"argument `{name}` must be an action, 0 to {bound - 1}, got {action}")
    return action


def _board_text(board: str) -> str:
    """A family board (rows separated by ``/``) drawn on lines, cells separated by spaces."""
    return "\n".join(" ".join(row) for row in board.split("/"))


def _board_grid(board: str) -> np.ndarray:
    """A family board (rows separated by ``/``) as an int8 ``(rows, cols)`` grid: 0 empty,
    1 X, 2 O."""
    codes = {".": 0, "X": 1, "O": 2}
    return np.array([[codes[c] for c in row] for row in board.split("/")], dtype=np.int8)


def _play_pending(
    kernel: EnvKernel, opponent: Callable[[np.ndarray, np.ndarray], int], pending: np.ndarray
) -> None:
    bits, first = kernel.bits(), kernel.first()
    actions = np.zeros(len(kernel), dtype=np.int64)
    for i in pending:
        x, o = int(bits[i, 0]), int(bits[i, 1])
        # The opponent is id 1: it plays X when first == 1.
        mine, theirs = (x, o) if first[i] == 1 else (o, x)
        observation = np.stack([_BYTES[mine], _BYTES[theirs]], axis=-1).reshape(3, 3, 2)
        move = opponent(observation, _BYTES[~(x | o) & 0x1FF].copy())
        actions[i] = _checks.cell("the opponent's move", move)
    kernel.finish(actions)


class MnkEnv(gym.Env):
    """One game of ``game`` (any game of the family, default tic-tac-toe) against a built-in
    opponent (see the module docs for every argument); ``tictactoe_rs/Mnk-v0``."""

    # An instance attribute in gymnasium.Env, so no ClassVar.
    metadata: dict[str, Any] = {"render_modes": ["human", "rgb_array", "ansi"], "render_fps": 1}  # noqa: RUF012

    def __new__(cls, *args: Any, game: Any = None, **kwargs: Any) -> Any:
        # game="ultimate" is its own class (not a subclass: Python then skips this __init__).
        if is_ultimate(game):
            return UltimateEnv(*args, game=game, **kwargs)
        return super().__new__(cls)

    def __init__(
        self,
        opponent: Opponent = "heuristic",
        agent: Agent = "x",
        illegal_reward: float = -1.0,
        render_mode: RenderMode | None = None,
        *,
        game: str | _native.Rules | None = None,
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"argument `render_mode` must be one of {self.metadata['render_modes']} or None, got {render_mode!r}"
            )
        rules = game_rules(game)
        self.game: _native.Rules = rules or _native.Rules.TIC_TAC_TOE
        shape = (self.game.rows, self.game.cols, 2)
        self.observation_space = spaces.Box(0, 1, shape, np.int8)
        self.action_space = spaces.Discrete(self.game.actions)
        self.render_mode = render_mode
        self.opponent = opponent
        self._kernel = _kernel(1, opponent, agent, illegal_reward, "disabled", rules)
        self._fields = views(self._kernel, readonly=rules is not None)
        self._obs = self._fields["obs"].view(np.int8)
        self._mask = self._fields["mask"].view(np.int8)
        self._seeded = False

    def _settle(self) -> None:
        if callable(self.opponent):
            _play_external(self._kernel, self.opponent)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """A new game; with ``seed``, the seat draws and the opponent's choices restart from it."""
        seeds = None
        if seed is not None:
            seeds = np.array([_checks.seed("seed", seed)], dtype=np.uint64)
        super().reset(seed=seed)
        if seeds is None and not self._seeded:
            seeds = np.array([self.np_random.integers(2**63)], dtype=np.uint64)
        self._seeded = True
        self._kernel.reset(seeds)
        self._settle()
        if self.render_mode == "human":
            self.render()
        return self._obs[0].copy(), {"action_mask": self._mask[0].copy()}

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """The agent plays ``action`` (a cell; with gravity a column), then the opponent answers."""
        self._kernel.step(np.array([_action("action", action, self.game.actions)], dtype=np.int64))
        self._settle()
        if self.render_mode == "human":
            self.render()
        return (
            self._obs[0].copy(),
            float(self._fields["rewards"][0, 0]),
            bool(self._fields["terminated"][0]),
            False,
            {"action_mask": self._mask[0].copy()},
        )

    def action_masks(self) -> np.ndarray:
        """The actions the agent may play now (bool, ``(actions,)``)."""
        return self._mask[0].astype(bool)

    def render(self) -> np.ndarray | str | None:
        """The board: text (``ansi``; ``human`` prints it, and does so after every ``reset``
        and ``step``) or a picture (``rgb_array``)."""
        if self.render_mode is None:
            gym.logger.warn("You are calling render method without specifying any render mode.")
            return None
        kernel = self._kernel
        if isinstance(kernel, FamilyKernel):
            board = kernel.boards()[0]
            if self.render_mode == "rgb_array":
                grid = _board_grid(board)
                return _render.drop_rgb(grid) if self.game.gravity else _render.grid_rgb(grid)
            text = _board_text(board)
        else:
            x, o = (int(v) for v in kernel.bits()[0])
            if self.render_mode == "rgb_array":
                return _render.rgb(x, o)
            text = _render.ansi(x, o)
        if self.render_mode == "human":
            print(text)
            return None
        return text


class MnkVectorEnv(VectorEnv):
    """``num_envs`` games of ``game`` (default tic-tac-toe) against the opponent, stepped
    together by the native kernel; ``tictactoe_rs/Mnk-v0``.

    ``autoreset_mode`` is a ``gymnasium.vector.AutoresetMode`` (or its value); ``copy=False``
    returns the kernel's own buffers, rewritten by the next step, instead of copies.
    """

    def __new__(cls, *args: Any, game: Any = None, **kwargs: Any) -> Any:
        # game="ultimate" is its own class (not a subclass: Python then skips this __init__).
        if is_ultimate(game):
            return UltimateVectorEnv(*args, game=game, **kwargs)
        return super().__new__(cls)

    def __init__(
        self,
        num_envs: int,
        opponent: Opponent = "heuristic",
        agent: Agent = "x",
        illegal_reward: float = -1.0,
        autoreset_mode: AutoresetMode | AutoresetName = AutoresetMode.NEXT_STEP,
        copy: bool = True,
        *,
        game: str | _native.Rules | None = None,
    ) -> None:
        mode = _autoreset_mode(autoreset_mode)
        num_envs = _checks.index("num_envs", num_envs)
        rules = game_rules(game)
        self.game: _native.Rules = rules or _native.Rules.TIC_TAC_TOE
        self.metadata = {"autoreset_mode": mode, "render_modes": []}
        self.num_envs = num_envs
        shape = (self.game.rows, self.game.cols, 2)
        self.single_observation_space = spaces.Box(0, 1, shape, np.int8)
        self.single_action_space = spaces.Discrete(self.game.actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.opponent = opponent
        self.copy = copy
        self._kernel = _kernel(num_envs, opponent, agent, illegal_reward, _AUTORESET[mode], rules)
        self._fields = views(self._kernel, readonly=rules is not None)
        self._obs = self._fields["obs"].view(np.int8)
        self._mask = self._fields["mask"].view(np.int8)
        self._final = self._fields["final_obs"].view(np.int8)
        self._mode = mode
        self._seeded = False

    def _settle(self) -> None:
        if callable(self.opponent):
            _play_external(self._kernel, self.opponent)

    def _out(self, array: np.ndarray) -> np.ndarray:
        return array.copy() if self.copy else array

    def reset(
        self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Resets every game, or those of ``options["reset_mask"]``; an int ``seed`` seeds
        game ``i`` with ``seed + i``, a list seeds game ``i`` with ``seed[i]``."""
        n = self.num_envs
        mask = None
        if options is not None and "reset_mask" in options:
            mask = np.asarray(options["reset_mask"])
            if mask.shape != (n,) or mask.dtype != np.bool_ or not mask.any():
                raise ValueError(f"options['reset_mask']: expected a bool array of shape ({n},) with a True")
        seeds = None
        if isinstance(seed, (list, tuple)):
            if len(seed) != n:
                raise ValueError(f"argument `seed` must hold {n} seeds, got {len(seed)}")
            fresh = np.random.default_rng().integers(2**63, size=n)
            seeds = np.array(
                [fresh[i] if s is None else _checks.seed(f"seed[{i}]", s) for i, s in enumerate(seed)],
                np.uint64,
            )
        elif seed is not None:
            seeds = (np.arange(n, dtype=np.uint64) + np.uint64(_checks.seed("seed", seed))).astype(np.uint64)
        elif not self._seeded:
            seeds = np.random.default_rng().integers(2**63, size=n).astype(np.uint64)
        self._seeded = True
        self._kernel.reset(seeds, mask)
        self._settle()
        rows = np.ones(n, bool) if mask is None else mask.copy()
        infos: dict[str, Any] = {}
        if rows.any():
            masks = np.zeros((n, self.game.actions), np.int8)
            masks[rows] = self._mask[rows]
            infos = {"action_mask": masks, "_action_mask": rows}
        return self._out(self._obs), infos

    def step(
        self, actions: Any
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """One move of the agent and one of the opponent in every game. In ``DISABLED``
        autoreset mode, a step while a game is over raises ``ValueError`` (``SyncVectorEnv``
        asserts the same): reset those games first (``options={"reset_mask": ...}``)."""
        actions = _checks.integers("actions", actions)
        if self._mode == AutoresetMode.DISABLED and self._fields["terminated"].any():
            over = np.flatnonzero(self._fields["terminated"])
            raise ValueError(
                f"{len(over)} games are over (first: {over[:5].tolist()}) and autoreset_mode is "
                "DISABLED: reset them first (options={'reset_mask': ...}), as SyncVectorEnv requires"
            )
        self._kernel.step(actions)
        self._settle()
        n = self.num_envs
        terminated = self._fields["terminated"].copy()
        infos: dict[str, Any] = {
            "action_mask": self._mask.copy(),
            "_action_mask": np.ones(n, bool),
        }
        if self._mode == AutoresetMode.SAME_STEP and terminated.any():
            final_obs = np.full(n, None, dtype=object)
            final_masks = np.zeros((n, self.game.actions), np.int8)
            for i in np.flatnonzero(terminated):
                final_obs[i] = self._final[i].copy()
                final_masks[i] = 1
            infos["final_obs"], infos["_final_obs"] = final_obs, terminated.copy()
            infos["final_info"] = {"action_mask": final_masks, "_action_mask": terminated.copy()}
            infos["_final_info"] = terminated.copy()
        return (
            self._out(self._obs),
            self._fields["rewards"][:, 0].astype(np.float64),
            terminated,
            np.zeros(n, bool),
            infos,
        )

    def action_masks(self) -> np.ndarray:
        """The actions each agent may play now (bool, ``(num_envs, actions)``)."""
        return self._mask.astype(bool)

    def sample_actions(self, out: np.ndarray | None = None) -> np.ndarray:
        """A uniformly random legal action per game (int64), drawn natively from each game's
        own stream, into ``out`` when given."""
        if out is None:
            out = np.empty(self.num_envs, dtype=np.int64)
        self._kernel.sample_actions(out)
        return out



def _autoreset_mode(value: Any) -> AutoresetMode:
    """An ``AutoresetMode`` from itself, its value (``"NextStep"``) or ``BatchedEnv``'s
    spelling (``"next_step"``)."""
    if isinstance(value, AutoresetMode):
        return value
    for mode, name in _AUTORESET.items():
        if value in (mode.value, name):
            return mode
    names = ", ".join(repr(v) for m, n in _AUTORESET.items() for v in (m.value, n))
    raise ValueError(f"argument `autoreset_mode` must be an AutoresetMode or one of {names}, got {value!r}")


def _only_tic_tac_toe(game: Any) -> None:
    """A ``ValueError`` naming the id to make unless ``game`` is ``None`` or tic-tac-toe."""
    rules = game_rules(game)
    if rules is not None:
        name = ENV_IDS.get(rules.preset or "", f"{ENV_IDS[None]} with game={str(rules)!r}")
        raise ValueError(f"argument `game`: the TicTacToe env plays tic-tac-toe, not {rules}: make {name}")


class TicTacToeEnv(MnkEnv):
    """Tic-tac-toe against a built-in opponent: ``tictactoe_rs/TicTacToe-v0``
    (:class:`MnkEnv` with ``game="tic-tac-toe"``)."""

    def __init__(
        self,
        opponent: Opponent = "heuristic",
        agent: Agent = "x",
        illegal_reward: float = -1.0,
        render_mode: RenderMode | None = None,
        *,
        game: str | _native.Rules | None = None,
    ) -> None:
        # `game=` stays for code written before each preset had its class: tic-tac-toe only.
        _only_tic_tac_toe(game)
        super().__init__(opponent, agent, illegal_reward, render_mode, game="tic-tac-toe")


class FourByFourEnv(MnkEnv):
    """4 × 4, four in a row, against a built-in opponent: ``tictactoe_rs/FourByFour-v0``
    (:class:`MnkEnv` with ``game="4x4"``)."""

    def __init__(
        self,
        opponent: Opponent = "heuristic",
        agent: Agent = "x",
        illegal_reward: float = -1.0,
        render_mode: RenderMode | None = None,
    ) -> None:
        super().__init__(opponent, agent, illegal_reward, render_mode, game="4x4")


class ConnectFourEnv(MnkEnv):
    """Connect Four (6 rows, 7 columns, four in a row, gravity) against a built-in opponent:
    ``tictactoe_rs/ConnectFour-v0`` (:class:`MnkEnv` with ``game="connect-four"``)."""

    def __init__(
        self,
        opponent: Opponent = "heuristic",
        agent: Agent = "x",
        illegal_reward: float = -1.0,
        render_mode: RenderMode | None = None,
    ) -> None:
        super().__init__(opponent, agent, illegal_reward, render_mode, game="connect-four")


class GomokuEnv(MnkEnv):
    """Freestyle gomoku (15 × 15, five or more in a row) against a built-in opponent:
    ``tictactoe_rs/Gomoku-v0`` (:class:`MnkEnv` with ``game="gomoku"``)."""

    def __init__(
        self,
        opponent: Opponent = "heuristic",
        agent: Agent = "x",
        illegal_reward: float = -1.0,
        render_mode: RenderMode | None = None,
    ) -> None:
        super().__init__(opponent, agent, illegal_reward, render_mode, game="gomoku")


class TicTacToeVectorEnv(MnkVectorEnv):
    """``num_envs`` games of tic-tac-toe (:class:`MnkVectorEnv` with ``game="tic-tac-toe"``);
    ``gym.make_vec("tictactoe_rs/TicTacToe-v0", num_envs)``."""

    def __init__(
        self,
        num_envs: int,
        opponent: Opponent = "heuristic",
        agent: Agent = "x",
        illegal_reward: float = -1.0,
        autoreset_mode: AutoresetMode | AutoresetName = AutoresetMode.NEXT_STEP,
        copy: bool = True,
        *,
        game: str | _native.Rules | None = None,
    ) -> None:
        # `game=` stays for code written before each preset had its class: tic-tac-toe only.
        _only_tic_tac_toe(game)
        super().__init__(num_envs, opponent, agent, illegal_reward, autoreset_mode, copy, game="tic-tac-toe")


class FourByFourVectorEnv(MnkVectorEnv):
    """``num_envs`` games of 4 × 4 (:class:`MnkVectorEnv` with ``game="4x4"``);
    ``gym.make_vec("tictactoe_rs/FourByFour-v0", num_envs)``."""

    def __init__(
        self,
        num_envs: int,
        opponent: Opponent = "heuristic",
        agent: Agent = "x",
        illegal_reward: float = -1.0,
        autoreset_mode: AutoresetMode | AutoresetName = AutoresetMode.NEXT_STEP,
        copy: bool = True,
    ) -> None:
        super().__init__(num_envs, opponent, agent, illegal_reward, autoreset_mode, copy, game="4x4")


class ConnectFourVectorEnv(MnkVectorEnv):
    """``num_envs`` games of Connect Four (:class:`MnkVectorEnv` with ``game="connect-four"``);
    ``gym.make_vec("tictactoe_rs/ConnectFour-v0", num_envs)``."""

    def __init__(
        self,
        num_envs: int,
        opponent: Opponent = "heuristic",
        agent: Agent = "x",
        illegal_reward: float = -1.0,
        autoreset_mode: AutoresetMode | AutoresetName = AutoresetMode.NEXT_STEP,
        copy: bool = True,
    ) -> None:
        super().__init__(num_envs, opponent, agent, illegal_reward, autoreset_mode, copy, game="connect-four")


class GomokuVectorEnv(MnkVectorEnv):
    """``num_envs`` games of freestyle gomoku (:class:`MnkVectorEnv` with ``game="gomoku"``);
    ``gym.make_vec("tictactoe_rs/Gomoku-v0", num_envs)``."""

    def __init__(
        self,
        num_envs: int,
        opponent: Opponent = "heuristic",
        agent: Agent = "x",
        illegal_reward: float = -1.0,
        autoreset_mode: AutoresetMode | AutoresetName = AutoresetMode.NEXT_STEP,
        copy: bool = True,
    ) -> None:
        super().__init__(num_envs, opponent, agent, illegal_reward, autoreset_mode, copy, game="gomoku")


# The classes of each id of ENV_IDS: single, vector.
_CLASSES = {
    "tic-tac-toe": ("TicTacToeEnv", "TicTacToeVectorEnv"),
    "4x4": ("FourByFourEnv", "FourByFourVectorEnv"),
    "connect-four": ("ConnectFourEnv", "ConnectFourVectorEnv"),
    "gomoku": ("GomokuEnv", "GomokuVectorEnv"),
    "ultimate": ("UltimateEnv", "UltimateVectorEnv"),
    None: ("MnkEnv", "MnkVectorEnv"),
}


def _register() -> None:
    for game, env_id in ENV_IDS.items():
        single, vector = _CLASSES[game]
        if env_id not in gym.registry:
            gym.register(
                id=env_id,
                entry_point=f"{__name__}:{single}",
                vector_entry_point=f"{__name__}:{vector}",
            )


_register()
