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
from typing import Any, ClassVar, Literal

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from tictactoe_rs import _checks, _native
from tictactoe_rs._native import EnvKernel, FamilyKernel
from tictactoe_rs.envs import _gym_base, _render
from tictactoe_rs.envs._gym_base import AUTORESET as _AUTORESET
from tictactoe_rs.envs._gym_base import autoreset_mode as _autoreset_mode
from tictactoe_rs.envs._gym_base import play_batch as _play_batch
from tictactoe_rs.envs._ultimate import is_ultimate
from tictactoe_rs.envs._ultimate_gym import UltimateEnv, UltimateVectorEnv
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

_BYTES = ((np.arange(512)[:, None] >> np.arange(9)) & 1).astype(np.int8)


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
    seat = _gym_base.seat(agent)
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
            seat=seat,
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
        seat=seat,
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


class _Family:
    """What :class:`MnkEnv` and :class:`MnkVectorEnv` share: ``game="ultimate"`` makes
    ``_ULTIMATE`` instead (its own class, not a subclass, so that Python then skips this
    class's ``__init__``), the ``game=`` hook of the preset classes, and a callable opponent
    asked after each step."""

    _ULTIMATE: ClassVar[type]
    opponent: Opponent
    _kernel: EnvKernel | FamilyKernel

    def __new__(cls, *args: Any, game: Any = None, **kwargs: Any) -> Any:
        if is_ultimate(game):
            return cls._ULTIMATE(*args, game=game, **kwargs)
        return super().__new__(cls)

    @classmethod
    def _game(cls, game: str | _native.Rules | None) -> str | _native.Rules | None:
        """The game to play, given ``game=`` (a preset class overrides it)."""
        return game

    def _settle(self) -> None:
        if callable(self.opponent):
            _play_external(self._kernel, self.opponent)


class MnkEnv(_Family, _gym_base.SingleEnv):
    """One game of ``game`` (any game of the family, default tic-tac-toe) against a built-in
    opponent (see the module docs for every argument); ``tictactoe_rs/Mnk-v0``."""

    _ULTIMATE = UltimateEnv

    def __init__(
        self,
        opponent: Opponent = "heuristic",
        agent: Agent = "x",
        illegal_reward: float = -1.0,
        render_mode: RenderMode | None = None,
        *,
        game: str | _native.Rules | None = None,
    ) -> None:
        self._check_render_mode(render_mode)
        rules = game_rules(self._game(game))
        self.game: _native.Rules = rules or _native.Rules.TIC_TAC_TOE
        shape = (self.game.rows, self.game.cols, 2)
        self.observation_space = spaces.Box(0, 1, shape, np.int8)
        self.action_space = spaces.Discrete(self.game.actions)
        self.render_mode = render_mode
        self.opponent = opponent
        self._kernel = _kernel(1, opponent, agent, illegal_reward, "disabled", rules)
        self._bind(readonly=rules is not None)

    def _action(self, action: Any) -> int:
        """A cell; with gravity a column."""
        return _action("action", action, self.game.actions)

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


class MnkVectorEnv(_Family, _gym_base.VectorEnv):
    """``num_envs`` games of ``game`` (default tic-tac-toe) against the opponent, stepped
    together by the native kernel; ``tictactoe_rs/Mnk-v0``.

    ``autoreset_mode`` is a ``gymnasium.vector.AutoresetMode`` (or its value); ``copy=False``
    returns the kernel's own buffers, rewritten by the next step, instead of copies.
    """

    _ULTIMATE = UltimateVectorEnv

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
        rules = game_rules(self._game(game))
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
        self._num_actions = self.game.actions
        self._bind(mode, readonly=rules is not None)


def _only_tic_tac_toe(game: Any) -> None:
    """A ``ValueError`` naming the id to make unless ``game`` is ``None`` or tic-tac-toe."""
    rules = game_rules(game)
    if rules is not None:
        name = ENV_IDS.get(rules.preset or "", f"{ENV_IDS[None]} with game={str(rules)!r}")
        raise ValueError(f"argument `game`: the TicTacToe env plays tic-tac-toe, not {rules}: make {name}")


class TicTacToeEnv(MnkEnv):
    """Tic-tac-toe against a built-in opponent: ``tictactoe_rs/TicTacToe-v0``
    (:class:`MnkEnv` with ``game="tic-tac-toe"``)."""

    @classmethod
    def _game(cls, game: str | _native.Rules | None) -> str:
        # `game=` stays for code written before each preset had its class: tic-tac-toe only.
        _only_tic_tac_toe(game)
        return "tic-tac-toe"


class _PresetEnv(MnkEnv):
    """:class:`MnkEnv` with ``game`` fixed to the preset ``_GAME`` (the classes below)."""

    _GAME: ClassVar[str]

    def __init__(
        self,
        opponent: Opponent = "heuristic",
        agent: Agent = "x",
        illegal_reward: float = -1.0,
        render_mode: RenderMode | None = None,
    ) -> None:
        super().__init__(opponent, agent, illegal_reward, render_mode, game=self._GAME)


class FourByFourEnv(_PresetEnv):
    """4 × 4, four in a row, against a built-in opponent: ``tictactoe_rs/FourByFour-v0``
    (:class:`MnkEnv` with ``game="4x4"``)."""

    _GAME = "4x4"


class ConnectFourEnv(_PresetEnv):
    """Connect Four (6 rows, 7 columns, four in a row, gravity) against a built-in opponent:
    ``tictactoe_rs/ConnectFour-v0`` (:class:`MnkEnv` with ``game="connect-four"``)."""

    _GAME = "connect-four"


class GomokuEnv(_PresetEnv):
    """Freestyle gomoku (15 × 15, five or more in a row) against a built-in opponent:
    ``tictactoe_rs/Gomoku-v0`` (:class:`MnkEnv` with ``game="gomoku"``)."""

    _GAME = "gomoku"


class TicTacToeVectorEnv(MnkVectorEnv):
    """``num_envs`` games of tic-tac-toe (:class:`MnkVectorEnv` with ``game="tic-tac-toe"``);
    ``gym.make_vec("tictactoe_rs/TicTacToe-v0", num_envs)``."""

    _game = TicTacToeEnv._game


class _PresetVectorEnv(MnkVectorEnv):
    """:class:`MnkVectorEnv` with ``game`` fixed to the preset ``_GAME`` (the classes below)."""

    _GAME: ClassVar[str]

    def __init__(
        self,
        num_envs: int,
        opponent: Opponent = "heuristic",
        agent: Agent = "x",
        illegal_reward: float = -1.0,
        autoreset_mode: AutoresetMode | AutoresetName = AutoresetMode.NEXT_STEP,
        copy: bool = True,
    ) -> None:
        super().__init__(num_envs, opponent, agent, illegal_reward, autoreset_mode, copy, game=self._GAME)


class FourByFourVectorEnv(_PresetVectorEnv):
    """``num_envs`` games of 4 × 4 (:class:`MnkVectorEnv` with ``game="4x4"``);
    ``gym.make_vec("tictactoe_rs/FourByFour-v0", num_envs)``."""

    _GAME = "4x4"


class ConnectFourVectorEnv(_PresetVectorEnv):
    """``num_envs`` games of Connect Four (:class:`MnkVectorEnv` with ``game="connect-four"``);
    ``gym.make_vec("tictactoe_rs/ConnectFour-v0", num_envs)``."""

    _GAME = "connect-four"


class GomokuVectorEnv(_PresetVectorEnv):
    """``num_envs`` games of freestyle gomoku (:class:`MnkVectorEnv` with ``game="gomoku"``);
    ``gym.make_vec("tictactoe_rs/Gomoku-v0", num_envs)``."""

    _GAME = "gomoku"


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
