"""Type stubs of the native module (hand-written, checked by ``mypy.stubtest``)."""

from typing import Any

import numpy as np
import numpy.typing as npt

ENCODINGS: tuple[str, ...]
SYMMETRIES: tuple[str, ...]
__all__: list[str]

_Ints = npt.ArrayLike
_Symmetry = int | npt.ArrayLike

def encode(
    boards: npt.ArrayLike, encoding: str, *, out: npt.NDArray[np.int32] | None = None
) -> npt.NDArray[np.int32]: ...
def decode(
    codes: _Ints, encoding: str, *, out: npt.NDArray[np.int8] | None = None
) -> npt.NDArray[np.int8]: ...
def convert(
    codes: _Ints,
    from_encoding: str,
    to_encoding: str,
    *,
    out: npt.NDArray[np.int32] | None = None,
) -> npt.NDArray[np.int32]: ...
def is_valid(
    x: npt.ArrayLike, encoding: str = "boards", *, out: npt.NDArray[np.bool_] | None = None
) -> npt.NDArray[np.bool_]: ...
def is_position(
    x: npt.ArrayLike, encoding: str = "boards", *, out: npt.NDArray[np.bool_] | None = None
) -> npt.NDArray[np.bool_]: ...
def violations(
    x: npt.ArrayLike, encoding: str = "boards", *, out: npt.NDArray[np.uint8] | None = None
) -> npt.NDArray[np.uint8]: ...
def status(
    x: npt.ArrayLike, encoding: str = "boards", *, out: npt.NDArray[np.int8] | None = None
) -> npt.NDArray[np.int8]: ...
def to_move(
    x: npt.ArrayLike, encoding: str = "boards", *, out: npt.NDArray[np.int8] | None = None
) -> npt.NDArray[np.int8]: ...
def winner(
    x: npt.ArrayLike, encoding: str = "boards", *, out: npt.NDArray[np.int8] | None = None
) -> npt.NDArray[np.int8]: ...
def legal_moves(
    x: npt.ArrayLike, encoding: str = "boards", *, out: npt.NDArray[np.uint16] | None = None
) -> npt.NDArray[np.uint16]: ...
def value(
    x: npt.ArrayLike, encoding: str = "boards", *, out: npt.NDArray[np.int8] | None = None
) -> npt.NDArray[np.int8]: ...
def distance(
    x: npt.ArrayLike, encoding: str = "boards", *, out: npt.NDArray[np.int8] | None = None
) -> npt.NDArray[np.int8]: ...
def best_moves(
    x: npt.ArrayLike, encoding: str = "boards", *, out: npt.NDArray[np.uint16] | None = None
) -> npt.NDArray[np.uint16]: ...
def canonical(
    x: npt.ArrayLike, encoding: str = "boards", *, out: npt.NDArray[np.int32] | None = None
) -> npt.NDArray[np.int32]: ...
def symmetry_of(
    x: npt.ArrayLike, encoding: str = "boards", *, out: npt.NDArray[np.int8] | None = None
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
    layout: str = "pettingzoo",
    *,
    out: npt.NDArray[Any] | None = None,
) -> npt.NDArray[Any]: ...
def symmetry_permutations() -> npt.NDArray[np.int8]: ...
def symmetry_inverses() -> npt.NDArray[np.int8]: ...
def boards_to_planes(
    boards: npt.ArrayLike,
    layout: str = "pettingzoo",
    perspective: _Symmetry | None = None,
    *,
    out: npt.NDArray[Any] | None = None,
) -> npt.NDArray[Any]: ...
def planes_to_boards(
    planes: npt.ArrayLike,
    layout: str = "pettingzoo",
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
def selfplay(
    n: int, seed: int = 0
) -> tuple[
    npt.NDArray[np.int8], npt.NDArray[np.int8], npt.NDArray[np.int8], npt.NDArray[np.int32]
]: ...

# Environment kernels (python/src/env.rs): their stubs go below, kept with env.rs.
