"""PettingZoo AEC and parallel environments for every game of the family: ``game=`` takes a
spec (``"connect-four"``, ``"gomoku"``, ``"4,4,4"``, ``"6,7,4,gravity"``) or a
:class:`~tictactoe_rs.mnk.Rules`; the default, tic-tac-toe, has the semantics of
``pettingzoo.classic.tictactoe_v3`` and Connect Four those of ``connect_four_v3``.

Tic-tac-toe (``tictactoe_v3``): agents ``player_1`` (X, moves first) and ``player_2`` (O);
actions ``Discrete(9)`` with cell ``c`` at ``observation[c // 3, c % 3]``; observations are dicts
with int8 ``(3, 3, 2)`` agent-relative planes (own marks, then the other's) and an int8
``action_mask`` (all zeros for the agent not to move); rewards +1/-1/0 at the end.

Every other game extends one of the two peers. With gravity (Connect Four and any
``"R,C,K,gravity"``) it is ``connect_four_v3``'s: agents ``player_0`` (first) and ``player_1``,
actions ``Discrete(cols)`` (a column), the mask the columns whose top cell is empty. Without
(``"4,4,4"``, gomoku, ...) it is ``tictactoe_v3``'s: agents ``player_1`` and ``player_2``,
actions ``Discrete(rows * cols)`` (cell ``row * cols + col``), the mask the empty cells. In both
the observation is int8 ``(rows, cols, 2)``, row 0 at the top, and the mask is the agent to
move's even once the game is over, as both peers give it.

:func:`env` wraps :class:`raw_env` in the same PettingZoo wrappers as ``tictactoe_v3.env()``
and ``connect_four_v3.env()``, so an illegal move ends the game with -1 for the mover and 0 for
the other, terminated and truncated. The moves, the win and draw test are the library's
(``_native.play_move`` for tic-tac-toe, :class:`~tictactoe_rs.mnk.Position` for the family).

Render modes: ``"ansi"`` returns the board as text, ``"human"`` prints it, ``"rgb_array"`` returns
a picture drawn with numpy (no pygame). Tic-tac-toe lays cell ``c`` at column ``c // 3`` and row
``c % 3``, as PettingZoo's picture does, in a ``screen_height`` square; the other games lay the
board as the observation does, a gravity game on ``connect_four_v3``'s frame
(``screen_scaling``: Connect Four's picture is ``(86 * s, 99 * s, 3)``), the others in square
tiles ``screen_height // rows`` pixels high.

>>> from tictactoe_rs.envs.pettingzoo import env
>>> e = env()
>>> e.reset(seed=0)
>>> e.agent_selection
'player_1'
>>> e.step(4)
>>> e.last()[0]["action_mask"].tolist()
[1, 1, 1, 1, 0, 1, 1, 1, 1]
>>> c4 = env(game="connect-four")
>>> c4.reset()
>>> c4.step(3)
>>> c4.agent_selection, c4.observe("player_0")["observation"][5, 3].tolist()
('player_1', [1, 0])
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from tictactoe_rs import _checks, _native
from tictactoe_rs.envs import _aec_base, _family, _render, _ultimate
from tictactoe_rs.mnk import Position, Rules

__all__ = ["env", "parallel_env", "raw_env"]

# Bit set of cells -> nine 0/1 int8 values.
_BYTES = ((np.arange(512)[:, None] >> np.arange(9)) & 1).astype(np.int8)



def env(**kwargs: Any) -> AECEnv:
    """The wrapped environment, as ``tictactoe_v3.env()`` and ``connect_four_v3.env()``
    build it; ``kwargs`` go to :class:`raw_env` (``game=``, ``render_mode=``, ...)."""
    environment: AECEnv = raw_env(**kwargs)
    environment = wrappers.TerminateIllegalWrapper(environment, illegal_reward=-1)
    environment = wrappers.AssertOutOfBoundsWrapper(environment)
    environment = wrappers.OrderEnforcingWrapper(environment)
    return environment


def parallel_env(**kwargs: Any) -> Any:
    """The wrapped environment as a parallel one (``turn_based_aec_to_parallel``)."""
    from pettingzoo.utils.conversions import turn_based_aec_to_parallel

    return turn_based_aec_to_parallel(env(**kwargs))


def _metadata(rules: Rules) -> dict[str, Any]:
    """The peer's metadata for the game (its name, render rate), with our render modes."""
    if rules == Rules.TIC_TAC_TOE:
        name, fps = "tictactoe_v3", 1
    elif rules == Rules.CONNECT_FOUR:
        name, fps = "connect_four_v3", 2
    else:
        name, fps = f"tictactoe_rs_{rules}", 2 if rules.gravity else 1
    return {
        "render_modes": ["human", "rgb_array", "ansi"],
        "name": name,
        "is_parallelizable": True,
        "render_fps": fps,
    }


class raw_env(_aec_base.RawEnv):
    """The unwrapped environment (``tictactoe_v3.raw_env``, ``connect_four_v3.raw_env``); use
    :func:`env`. ``game`` is a spec or a :class:`~tictactoe_rs.mnk.Rules` (``None``, the default:
    tic-tac-toe);
    ``screen_height`` sizes the picture of a game without gravity, ``screen_scaling`` that of a
    game with gravity (as in ``connect_four_v3``)."""

    metadata = _metadata(Rules.TIC_TAC_TOE)  # each instance sets its game's

    def __new__(cls, *args: Any, **kwargs: Any) -> Any:
        # game="ultimate" is its own class (not a subclass: Python then skips this __init__).
        if _ultimate.is_ultimate(kwargs.get("game", args[2] if len(args) > 2 else None)):
            from tictactoe_rs.envs._ultimate_pettingzoo import UltimateRawEnv

            return UltimateRawEnv(*args, **kwargs)
        return super().__new__(cls)

    def __init__(
        self,
        render_mode: str | None = None,
        screen_height: int | None = 1000,
        game: Rules | str | None = None,
        screen_scaling: int = 9,
    ):
        super().__init__()
        self.rules = _family.rules(game)
        EzPickle.__init__(self, render_mode, screen_height, game=str(self.rules), screen_scaling=screen_scaling)
        self.metadata = _metadata(self.rules)
        self._check_render_mode(render_mode)
        rows, cols, actions = self.rules.rows, self.rules.cols, self.rules.actions
        self._tictactoe = self.rules == Rules.TIC_TAC_TOE
        self._x = 0
        self._o = 0
        self._position = Position(self.rules)
        agents = ["player_0", "player_1"] if self.rules.gravity else ["player_1", "player_2"]
        box = spaces.Box(low=0, high=1, shape=(rows, cols, 2), dtype=np.int8)
        self._setup(agents, actions, box, render_mode, screen_height, screen_scaling)

    def _grid(self) -> np.ndarray:
        """The int8 ``(rows, cols)`` board: 0 empty, 1 the first player's mark, 2 the second's."""
        if self._tictactoe:
            return np.asarray(_render.cells(self._x, self._o), dtype=np.int8).reshape(3, 3)
        return self._position.cells().reshape(self.rules.rows, self.rules.cols)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """Planes of ``agent``'s marks and the other's, and its legal moves."""
        me = self.possible_agents.index(agent)
        if self._tictactoe:
            mine, theirs = (self._x, self._o) if me == 0 else (self._o, self._x)
            observation = np.empty((3, 3, 2), dtype=np.int8)
            observation[:, :, 0] = _BYTES[mine].reshape(3, 3)
            observation[:, :, 1] = _BYTES[theirs].reshape(3, 3)
        else:
            grid = self._grid()
            observation = np.stack([grid == 1 + me, grid == 2 - me], axis=2).astype(np.int8)
        return {"observation": observation, "action_mask": self._get_mask(agent)}

    def _get_mask(self, agent: str) -> np.ndarray:
        # As PettingZoo: the free cells (columns) for the agent to move, even once the game is over.
        if agent != self.agent_selection:
            return np.zeros(self.rules.actions, dtype=np.int8)
        if self._tictactoe:
            return _BYTES[~(self._x | self._o) & 0x1FF].copy()
        grid = self._grid()
        free = grid[0] if self.rules.gravity else grid.reshape(-1)
        return (free == 0).astype(np.int8)

    def _play(self, action: int) -> int:
        """Plays ``action`` for the side to move; the status after it (``_STATUS``)."""
        if self._tictactoe:
            self._x, self._o, status = _native.play_move(self._x, self._o, action)
            return int(status)
        self._position.play(action)
        # The status numbers of play_move: 0 ongoing, 1 X won, 2 O won, 3 draw.
        return self._position.status

    def step(self, action: Any) -> None:
        """Plays ``action`` for the agent to move (an occupied cell or a full column raises
        ``ValueError``, where the peers' boards assert; the wrappers of :func:`env` turn it into
        a loss first). ``action`` is a Python or numpy integer: a float or string raises
        ``TypeError``, as in the peers' ``raw_env``, and so does a bool (which the peers'
        ``raw_env`` plays as action 0 or 1 and their wrapped ``env`` rejects)."""
        if self.terminations[self.agent_selection] or self.truncations[self.agent_selection]:
            return self._was_dead_step(action)
        status = self._play(_checks.index("action", action))
        if status != 0:
            if status in (1, 2):
                winner = status - 1
                self.rewards[self.agents[winner]] += 1
                self.rewards[self.agents[winner ^ 1]] -= 1
            self.terminations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()
        self.agent_selection = self._agent_selector.next()
        if self.render_mode == "human":
            self.render()
        return None

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Empties the board; the first agent moves first. The game has no randomness."""
        self._x = self._o = 0
        self._position = Position(self.rules)
        self._restart_agents()

    def _picture(self) -> np.ndarray:
        """The board drawn (see the module docs)."""
        if self._tictactoe:
            return _render.rgb(self._x, self._o, int(self.screen_height or 300), transpose=True)
        grid = self._grid()
        if self.rules.gravity:
            return _render.drop_rgb(grid, int(self.screen_scaling))
        return _render.grid_rgb(grid, int(self.screen_height or 300))

    def _text(self) -> str:
        """The board as text."""
        if self._tictactoe:
            return _render.ansi(self._x, self._o, transpose=True)
        return _render.grid_ansi(self._grid())
