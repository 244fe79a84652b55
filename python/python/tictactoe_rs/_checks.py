"""Argument checks shared by the Python layer: integers stay integers (no float, string or
bool is truncated or coerced into one), and every error names the argument."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt


def index(name: str, value: Any) -> int:
    """``value`` as a Python ``int`` when it is a Python or numpy integer of any width (or a
    0-d integer array); a float, string, bool or anything else raises ``TypeError`` naming
    ``name``."""
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"argument `{name}` must be an integer, got a bool ({value!r})")
    if isinstance(value, np.ndarray) and value.ndim == 0 and value.dtype.kind in "iu":
        return int(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    raise TypeError(f"argument `{name}` must be an integer, got {type(value).__name__} ({value!r})")


def cell(name: str, value: Any) -> int:
    """:func:`index`, then ``ValueError`` naming ``name`` unless the value is a cell, 0 to 8."""
    action = index(name, value)
    if not 0 <= action <= 8:
        raise ValueError(f"argument `{name}` must be a cell, 0 to 8, got {action}")
    return action


def integers(name: str, value: Any) -> npt.NDArray[np.integer[Any]]:
    """``value`` as a numpy array of an integer dtype (any width, no copy when it already is
    one); floats, bools, strings and objects raise ``TypeError`` naming ``name``."""
    array = np.asarray(value)
    if array.dtype.kind not in "iu":
        raise TypeError(f"argument `{name}` must hold integers, got dtype {array.dtype}")
    return array


def seed(name: str, value: Any) -> int:
    """A seed: an integer 0 to 2**64 - 1 (``TypeError`` / ``ValueError`` naming ``name``)."""
    number = index(name, value)
    if not 0 <= number < 2**64:
        raise ValueError(f"argument `{name}` must be 0 to 2**64 - 1, got {number}")
    return number
