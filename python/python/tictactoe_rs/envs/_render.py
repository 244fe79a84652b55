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


def grid_ansi(grid: np.ndarray) -> str:
    """The lines of a ``(rows, cols)`` grid of 0 empty, 1 X, 2 O as ``X``, ``O`` and ``.``."""
    return "".join(" ".join(".XO"[v] for v in row) + "\n" for row in grid.tolist())


def _disc(tile: int, radius: float, inner: float = 0.0) -> np.ndarray:
    """A ``(tile, tile)`` bool mask: the ring between ``inner`` and ``radius`` around the centre."""
    yy, xx = np.mgrid[0:tile, 0:tile].astype(np.float32) + 0.5 - tile / 2
    distance = np.hypot(yy, xx)
    return (distance < radius) & (distance >= inner)


def grid_rgb(grid: np.ndarray, height: int = 300) -> np.ndarray:
    """A ``(height, width, 3)`` uint8 picture of a ``(rows, cols)`` grid (0 empty, 1 X, 2 O):
    square tiles of ``height // rows`` pixels, grid lines, red crosses and blue circles, each
    drawn once as a sprite and copied into its tile."""
    rows, cols = grid.shape
    tile = max(1, height // rows)
    image = np.full((tile * rows, tile * cols, 3), 255, dtype=np.uint8)
    width = max(1, tile // 20)
    for r in range(1, rows):
        image[r * tile - width : r * tile + width, :] = 0
    for c in range(1, cols):
        image[:, c * tile - width : c * tile + width] = 0
    yy, xx = np.mgrid[0:tile, 0:tile].astype(np.float32) + 0.5 - tile / 2
    inside = (np.abs(yy) < tile * 0.35) & (np.abs(xx) < tile * 0.35)
    cross = inside & ((np.abs(yy - xx) < width * 1.5) | (np.abs(yy + xx) < width * 1.5))
    circle = _disc(tile, tile * 0.3 + width * 1.2, tile * 0.3 - width * 1.2)
    for (r, c), v in np.ndenumerate(grid):
        if v:
            view = image[r * tile : (r + 1) * tile, c * tile : (c + 1) * tile]
            view[cross if v == 1 else circle] = (200, 30, 30) if v == 1 else (30, 60, 200)
    return image


def drop_rgb(grid: np.ndarray, scaling: int = 9) -> np.ndarray:
    """A picture of a gravity game's ``(rows, cols)`` grid (row 0 at the top) laid out as
    PettingZoo's ``connect_four_v3`` lays its own: tiles of ``13 * scaling`` pixels inside a
    margin of ``4 * scaling``, so Connect Four's picture is ``(86 * scaling, 99 * scaling, 3)``;
    a blue board with white holes, red discs for the first player and black for the second."""
    rows, cols = grid.shape
    tile, margin = 13 * scaling, 4 * scaling
    image = np.empty((rows * tile + 2 * margin, cols * tile + 2 * margin, 3), dtype=np.uint8)
    image[:] = (20, 60, 180)
    hole = _disc(tile, tile * 9 / 26)
    colours = {0: (255, 255, 255), 1: (210, 30, 30), 2: (25, 25, 25)}
    for (r, c), v in np.ndenumerate(grid):
        y, x = margin + r * tile, margin + c * tile
        image[y : y + tile, x : x + tile][hole] = colours[int(v)]
    return image
