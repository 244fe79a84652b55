"""Numpy views of the fields of a native ``EnvKernel`` (one buffer, rewritten in place)."""

from __future__ import annotations

from typing import Any

import numpy as np


def views(kernel: Any, readonly: bool = False) -> dict[str, np.ndarray]:
    """``{name: array}`` for every field of ``kernel.fields()``, each a view of its buffer;
    ``readonly`` views when the kernel updates its fields in place from what they hold."""
    buffer = kernel.buffer
    fields = {}
    for name, offset, dtype, shape in kernel.fields():
        size = int(np.prod(shape)) * np.dtype(dtype).itemsize
        view = buffer[offset : offset + size].view(dtype).reshape(shape)
        if readonly:
            view.flags.writeable = False
        fields[name] = view
    return fields
