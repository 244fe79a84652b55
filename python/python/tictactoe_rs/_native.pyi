"""Type stubs of the native module (hand-written, checked by ``mypy.stubtest``)."""

from typing import Any, Literal

import numpy as np
import numpy.typing as npt

ENCODINGS: tuple[str, ...]
SYMMETRIES: tuple[str, ...]
CODE_RANGE: dict[str, int]
__version__: str
__all__ = [
    "CODE_RANGE",
    "ENCODINGS",
    "EnvKernel",
    "FamilyKernel",
    "SYMMETRIES",
    "apply_symmetry",
    "apply_symmetry_to_masks",
    "apply_symmetry_to_moves",
    "apply_symmetry_to_planes",
    "best_moves",
    "boards_to_planes",
    "canonical",
    "cells_to_masks",
    "convert",
    "decode",
    "decode_games",
    "distance",
    "encode",
    "encode_games",
    "is_position",
    "is_valid",
    "legal_moves",
    "masks_to_cells",
    "planes_to_boards",
    "play_move",
    "selfplay",
    "status",
    "symmetry_inverses",
    "symmetry_of",
    "symmetry_permutations",
    "to_move",
    "value",
    "violations",
    "winner",
]

_Ints = npt.ArrayLike
_Symmetry = int | npt.ArrayLike

from tictactoe_rs._types import Autoreset as _Autoreset
from tictactoe_rs._types import Convention as _Convention
from tictactoe_rs._types import Encoding as _Encoding
from tictactoe_rs._types import GameEncoding as _GameEncoding
from tictactoe_rs._types import Items as _Items
from tictactoe_rs._types import Layout as _Layout
from tictactoe_rs._types import Packing as _Packing
from tictactoe_rs._types import Seat as _Seat

def encode(
    boards: npt.ArrayLike, encoding: _Encoding, *, out: npt.NDArray[np.int32] | None = None
) -> npt.NDArray[np.int32]: ...
def decode(
    codes: _Ints, encoding: _Encoding, *, out: npt.NDArray[np.int8] | None = None
) -> npt.NDArray[np.int8]: ...
def convert(
    codes: _Ints,
    from_encoding: _Encoding,
    to_encoding: _Encoding,
    *,
    out: npt.NDArray[np.int32] | None = None,
) -> npt.NDArray[np.int32]: ...
def is_valid(
    x: npt.ArrayLike, encoding: _Items = "boards", *, out: npt.NDArray[np.bool_] | None = None
) -> npt.NDArray[np.bool_]: ...
def is_position(
    x: npt.ArrayLike, encoding: _Items = "boards", *, out: npt.NDArray[np.bool_] | None = None
) -> npt.NDArray[np.bool_]: ...
def violations(
    x: npt.ArrayLike, encoding: _Items = "boards", *, out: npt.NDArray[np.uint8] | None = None
) -> npt.NDArray[np.uint8]: ...
def status(
    x: npt.ArrayLike, encoding: _Items = "boards", *, out: npt.NDArray[np.int8] | None = None
) -> npt.NDArray[np.int8]: ...
def to_move(
    x: npt.ArrayLike, encoding: _Items = "boards", *, out: npt.NDArray[np.int8] | None = None
) -> npt.NDArray[np.int8]: ...
def winner(
    x: npt.ArrayLike, encoding: _Items = "boards", *, out: npt.NDArray[np.int8] | None = None
) -> npt.NDArray[np.int8]: ...
def legal_moves(
    x: npt.ArrayLike, encoding: _Items = "boards", *, out: npt.NDArray[np.uint16] | None = None
) -> npt.NDArray[np.uint16]: ...
def value(
    x: npt.ArrayLike, encoding: _Items = "boards", *, out: npt.NDArray[np.int8] | None = None
) -> npt.NDArray[np.int8]: ...
def distance(
    x: npt.ArrayLike, encoding: _Items = "boards", *, out: npt.NDArray[np.int8] | None = None
) -> npt.NDArray[np.int8]: ...
def best_moves(
    x: npt.ArrayLike, encoding: _Items = "boards", *, out: npt.NDArray[np.uint16] | None = None
) -> npt.NDArray[np.uint16]: ...
def canonical(
    x: npt.ArrayLike, encoding: _Items = "boards", *, out: npt.NDArray[np.int32] | None = None
) -> npt.NDArray[np.int32]: ...
def symmetry_of(
    x: npt.ArrayLike, encoding: _Items = "boards", *, out: npt.NDArray[np.int8] | None = None
) -> npt.NDArray[np.int8]: ...
def apply_symmetry(
    boards: npt.ArrayLike, symmetry: _Symmetry, *, out: npt.NDArray[np.int8] | None = None
) -> npt.NDArray[np.int8]: ...
def apply_symmetry_to_moves(
    moves: _Ints, symmetry: _Symmetry, *, out: npt.NDArray[np.int8] | None = None
) -> npt.NDArray[np.int8]: ...
def apply_symmetry_to_masks(
    masks: npt.ArrayLike, symmetry: _Symmetry, *, out: npt.NDArray[Any] | None = None
) -> npt.NDArray[Any]: ...
def apply_symmetry_to_planes(
    planes: npt.ArrayLike,
    symmetry: _Symmetry,
    layout: _Layout = "pettingzoo",
    *,
    out: npt.NDArray[Any] | None = None,
) -> npt.NDArray[Any]: ...
def symmetry_permutations() -> npt.NDArray[np.int8]: ...
def symmetry_inverses() -> npt.NDArray[np.int8]: ...
def boards_to_planes(
    boards: npt.ArrayLike,
    layout: _Layout = "pettingzoo",
    perspective: _Symmetry | None = None,
    *,
    out: npt.NDArray[Any] | None = None,
) -> npt.NDArray[Any]: ...
def planes_to_boards(
    planes: npt.ArrayLike,
    layout: _Layout = "pettingzoo",
    perspective: _Symmetry | None = None,
    *,
    out: npt.NDArray[np.int8] | None = None,
) -> npt.NDArray[np.int8]: ...
def masks_to_cells(
    masks: npt.ArrayLike, *, out: npt.NDArray[np.bool_] | None = None
) -> npt.NDArray[np.bool_]: ...
def cells_to_masks(
    cells: npt.ArrayLike, *, out: npt.NDArray[np.uint16] | None = None
) -> npt.NDArray[np.uint16]: ...
def encode_games(
    moves: npt.ArrayLike, encoding: _GameEncoding = "game", *, out: npt.NDArray[np.int32] | None = None
) -> npt.NDArray[np.int32]: ...
def decode_games(
    codes: _Ints, encoding: _GameEncoding = "game"
) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int8]]: ...
def selfplay(
    n: int, seed: int = 0
) -> tuple[
    npt.NDArray[np.int8], npt.NDArray[np.int8], npt.NDArray[np.int8], npt.NDArray[np.int32]
]: ...

# Environment kernels (python/src/env/): their stubs go below, kept with env/mod.rs.

from typing import final

class _Kernel:
    """The methods the three kernel classes share (a name of these stubs only: at run time
    each class defines them itself)."""

    def __len__(self) -> int: ...
    def reset(
        self,
        seeds: npt.NDArray[np.uint64] | None = None,
        mask: npt.NDArray[np.bool_] | None = None,
    ) -> None: ...
    def step(self, actions: npt.NDArray[np.integer[Any]]) -> None: ...
    def sample_actions(self, out: npt.NDArray[np.int64]) -> None: ...
    def rollback(self) -> bool: ...
    def pending(self) -> npt.NDArray[np.bool_]: ...
    def finish(self, actions: npt.NDArray[np.integer[Any]]) -> None: ...
    def first(self) -> npt.NDArray[np.int32]: ...
    def set_first(self, first: npt.NDArray[np.int32], mask: npt.NDArray[np.bool_]) -> None: ...
    @property
    def buffer(self) -> npt.NDArray[np.uint8]: ...
    def fields(self) -> list[tuple[str, int, str, list[int]]]: ...

@final
class EnvKernel(_Kernel):
    """``n`` games stepped together in place (see ``tictactoe_rs.envs``)."""

    def __new__(
        cls,
        n: int,
        convention: _Convention,
        autoreset: _Autoreset | Any | None = None,
        seat: _Seat | None = None,
        opponent: str = "random",
        illegal_reward: float | None = ...,
        seed: int = ...,
    ) -> EnvKernel: ...
    def bits(self) -> npt.NDArray[np.uint16]: ...

@final
class FamilyKernel(_Kernel):
    """``n`` games of a family game stepped together in place (see ``tictactoe_rs.envs``)."""

    def __new__(
        cls,
        n: int,
        game: Rules | str,
        convention: _Convention,
        autoreset: _Autoreset | Any | None = None,
        seat: _Seat | None = None,
        opponent: str = "random",
        illegal_reward: float | None = ...,
        seed: int = ...,
    ) -> FamilyKernel: ...
    @property
    def rules(self) -> Rules: ...
    def views(self, viewer: int) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8]]: ...
    def boards(self) -> list[str]: ...

def play_move(x: int, o: int, cell: int) -> tuple[int, int, int]: ...

# .ttt files for the data layer (python/src/data.rs): their stubs go below, kept with data.rs.

import os

@final
class TttReader:
    """A ``.ttt`` file read block by block, records as base3 codes."""

    def __new__(cls, path: str | os.PathLike[str], salvage: bool = False) -> TttReader: ...
    def read_block(self) -> tuple[int, npt.NDArray[np.int32]] | None: ...
    @property
    def encoding(self) -> _Packing: ...
    @property
    def count(self) -> int | None: ...
    @property
    def records_per_block(self) -> int: ...
    @property
    def lost(self) -> list[str]: ...
    @property
    def lost_records(self) -> tuple[int, bool]: ...
    @staticmethod
    def unpack(payload: bytes, n: int, encoding: _Packing) -> npt.NDArray[np.int32]: ...

@final
class TttWriter:
    """A ``.ttt`` file written atomically from base3 codes."""

    def __new__(cls, path: str | os.PathLike[str], encoding: _Packing) -> TttWriter: ...
    def write(self, codes: npt.NDArray[np.int32]) -> None: ...
    def close(self) -> int: ...
    def abort(self) -> None: ...
    @staticmethod
    def pack(codes: npt.NDArray[np.int32], encoding: _Packing) -> bytes: ...


__all__ += ["TttReader", "TttWriter"]

# .ttt files read by block range (python/src/ranges.rs).

def ttt_layout(path: str | os.PathLike[str]) -> tuple[_Packing, int, int, int]: ...
def read_ttt_blocks(
    path: str | os.PathLike[str], first_block: int, blocks: int
) -> tuple[int, npt.NDArray[np.int32]]: ...

__all__ += ["read_ttt_blocks", "ttt_layout"]

# The k-in-a-row family (python/src/mnk.rs, public as tictactoe_rs.mnk): its stubs go below.

from collections.abc import Iterable
from typing import ClassVar

@final
class Rules:
    """The rules of a game of the family (``tictactoe_rs.mnk.Rules``)."""

    TIC_TAC_TOE: ClassVar[Rules]
    FOUR_BY_FOUR: ClassVar[Rules]
    CONNECT_FOUR: ClassVar[Rules]
    GOMOKU: ClassVar[Rules]
    def __new__(cls, spec: str) -> Rules: ...
    @staticmethod
    def of(
        rows: int | np.integer[Any],
        cols: int | np.integer[Any],
        k: int | np.integer[Any],
        gravity: bool | np.bool_ = False,
    ) -> Rules: ...
    @property
    def rows(self) -> int: ...
    @property
    def cols(self) -> int: ...
    @property
    def k(self) -> int: ...
    @property
    def gravity(self) -> bool: ...
    @property
    def cells(self) -> int: ...
    @property
    def actions(self) -> int: ...
    @property
    def preset(self) -> str | None: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __reduce__(self) -> tuple[Any, ...]: ...

@final
class Position:
    """A reachable position of a game of the family (``tictactoe_rs.mnk.Position``)."""

    def __new__(cls, rules: Rules | str) -> Position: ...
    @classmethod
    def from_board(cls, rules: Rules | str, board: str) -> Position: ...
    @staticmethod
    def violations(rules: Rules | str, board: str) -> list[str]: ...
    @property
    def rules(self) -> Rules: ...
    def play(self, action: int | np.integer[Any]) -> tuple[int, int]: ...
    def undo(self, row: int | np.integer[Any], col: int | np.integer[Any]) -> None: ...
    def is_legal(self, action: int | np.integer[Any]) -> bool: ...
    def legal_actions(self) -> list[int]: ...
    def legal_mask(self) -> npt.NDArray[np.bool_]: ...
    @property
    def status(self) -> int: ...
    @property
    def winner(self) -> int: ...
    @property
    def to_move(self) -> int: ...
    @property
    def plies(self) -> int: ...
    @property
    def board(self) -> str: ...
    def cells(self) -> npt.NDArray[np.int8]: ...
    @property
    def hash(self) -> int: ...
    def copy(self) -> Position: ...
    def __copy__(self) -> Position: ...
    def __deepcopy__(self, memo: Any) -> Position: ...
    def __eq__(self, other: object, /) -> bool: ...
    __hash__: ClassVar[None]  # type: ignore[assignment]
    def __reduce__(self) -> tuple[Any, ...]: ...

def mnk_solve(
    positions: Iterable[Position | str],
    game: Rules | str | None = None,
    *,
    weak: bool | np.bool_ | None = None,
    max_nodes: int | np.integer[Any] | None = None,
) -> tuple[
    npt.NDArray[np.int8],
    npt.NDArray[np.int16] | None,
    npt.NDArray[np.int16] | None,
    npt.NDArray[np.bool_] | None,
]: ...

__all__ += ["Position", "Rules", "mnk_solve"]

# The family's batch functions (python/src/mnk.rs, used by tictactoe_rs.envs.openspiel).

def mnk_lines(rules: Rules | str, boards: npt.NDArray[np.int8]) -> npt.NDArray[np.uint8]: ...

__all__ += ["mnk_lines"]

# The family as data (python/src/family_data.rs, used by tictactoe_rs.data.family).

def mnk_root_key(rules: Rules | str) -> int: ...
def mnk_expand(
    rules: Rules | str, keys: npt.NDArray[np.int64]
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int8]]: ...

__all__ += ["mnk_expand", "mnk_root_key"]

# The family's analysis over arrays (python/src/family_data.rs, public as tictactoe_rs.mnk.status,
# legal_moves and solve).

_MnkEncoding = Literal["boards", "keys"]

def mnk_status(
    x: npt.ArrayLike,
    game: Rules | str,
    encoding: _MnkEncoding = "boards",
    *,
    out: npt.NDArray[np.int8] | None = None,
) -> npt.NDArray[np.int8]: ...
def mnk_legal_moves(
    x: npt.ArrayLike,
    game: Rules | str,
    encoding: _MnkEncoding = "boards",
    *,
    out: npt.NDArray[np.int8] | None = None,
) -> npt.NDArray[np.int8]: ...
def mnk_solve_array(
    x: npt.ArrayLike,
    game: Rules | str,
    encoding: _MnkEncoding = "boards",
    *,
    weak: bool | np.bool_ | None = None,
    max_nodes: int | np.integer[Any] | None = None,
) -> tuple[
    npt.NDArray[np.int8],
    npt.NDArray[np.int16] | None,
    npt.NDArray[np.int16] | None,
    npt.NDArray[np.bool_] | None,
]: ...

__all__ += ["mnk_legal_moves", "mnk_solve_array", "mnk_status"]

# Ultimate tic-tac-toe (python/src/ultimate.rs, public as tictactoe_rs.ultimate).

@final
class UltimatePosition:
    """A position of ultimate tic-tac-toe (``tictactoe_rs.ultimate.Position``)."""

    def __new__(cls) -> UltimatePosition: ...
    @staticmethod
    def from_text(text: str) -> UltimatePosition: ...
    def play(self, move: int | np.integer[Any], /) -> None: ...
    def undo(self) -> None: ...
    def legal_moves(self) -> list[int]: ...
    def legal_mask(self) -> npt.NDArray[np.bool_]: ...
    @property
    def status(self) -> str: ...
    def board_status(self, board: int) -> str: ...
    @property
    def to_move(self) -> str | None: ...
    @property
    def next_board(self) -> int | None: ...
    @property
    def plies(self) -> int: ...
    def returns(self) -> tuple[float, float]: ...
    def perft(self, depth: int) -> int: ...
    def openspiel_actions(self, move: int | np.integer[Any]) -> list[int]: ...
    def openspiel_player(self) -> int: ...
    def openspiel_observation(self) -> npt.NDArray[np.float32]: ...
    def pretty(self) -> str: ...
    def copy(self) -> UltimatePosition: ...
    def __copy__(self) -> UltimatePosition: ...
    def __deepcopy__(self, memo: Any, /) -> UltimatePosition: ...
    @staticmethod
    def from_moves(text: str, moves: list[int]) -> UltimatePosition: ...
    def __reduce__(self) -> tuple[Any, tuple[str, list[int]]]: ...

# The kernel of the ultimate environments (python/src/env/ultimate.rs), kept with the class.

@final
class UltimateKernel(_Kernel):
    """``n`` games of ultimate tic-tac-toe stepped together in place (see ``tictactoe_rs.envs``)."""

    def __new__(
        cls,
        n: int,
        convention: _Convention,
        actions: Literal["flat", "openspiel"] = "flat",
        observation: Literal["planes", "openspiel"] = "planes",
        autoreset: _Autoreset | Any | None = None,
        seat: _Seat | None = None,
        opponent: Literal["random", "external"] = "random",
        illegal_reward: float | None = ...,
        seed: int = ...,
    ) -> UltimateKernel: ...
    @property
    def num_actions(self) -> int: ...
    def views(self, viewer: int) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8]]: ...
    def boards(self) -> list[str]: ...
    def chosen(self) -> npt.NDArray[np.int32]: ...

__all__ += ["UltimateKernel", "UltimatePosition"]
