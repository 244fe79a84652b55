"""Drawing a board as text or as an RGB picture (numpy only)."""

from __future__ import annotations

import numpy as np


def cells(x: int, o: int) -> list[int]:
    """The nine cells of the board given by X and O bit sets: 0 empty, 1 X, 2 O."""
    return [(x >> c & 1) + 2 * (o >> c & 1) for c in range(9)]


def ansi(x: int, o: int, transpose: bool = False) -> str:
    """Three lines of ``X``, ``O`` and ``.``; cell ``c`` at row ``c // 3`` and column ``c % 3``,
    or at column ``c // 3`` and row ``c % 3`` with ``transpose`` (PettingZoo's picture)."""
    marks = [".XO"[v] for v in cells(x, o)]
    rows = []
    for r in range(3):
        row = [marks[3 * c + r] if transpose else marks[3 * r + c] for c in range(3)]
        rows.append(" ".join(row))
    return "\n".join(rows) + "\n"


def rgb(x: int, o: int, size: int = 300, transpose: bool = False) -> np.ndarray:
    """A ``(size, size, 3)`` uint8 picture: grid lines, red crosses and blue circles."""
    image = np.full((size, size, 3), 255, dtype=np.uint8)
    tile = size / 3
    width = max(1, size // 60)
    for k in (1, 2):
        at = int(k * tile)
        image[max(0, at - width) : at + width, :] = 0
        image[:, max(0, at - width) : at + width] = 0
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float32)
    for c, v in enumerate(cells(x, o)):
        if v == 0:
            continue
        row, col = (c % 3, c // 3) if transpose else (c // 3, c % 3)
        cy, cx = (row + 0.5) * tile, (col + 0.5) * tile
        dy, dx = yy - cy, xx - cx
        inside = (np.abs(dy) < tile * 0.35) & (np.abs(dx) < tile * 0.35)
        if v == 1:
            shape = inside & (
                (np.abs(dy - dx) < width * 1.5) | (np.abs(dy + dx) < width * 1.5)
            )
            image[shape] = (200, 30, 30)
        else:
            radius = np.hypot(dy, dx)
            image[np.abs(radius - tile * 0.3) < width * 1.2] = (30, 60, 200)
    return image
