"""Throughput of the vectorised core API: items per second on arrays of 10^6 entries, one
core, median of several runs, output preallocated (``out=``).

Run ``python -m tictactoe_rs._bench_core`` (``--n``, ``--runs``); ``run()`` returns the rows
for other benchmark commands.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import NamedTuple

import numpy as np

import tictactoe_rs as t


class Row(NamedTuple):
    """One measured operation."""

    group: str
    name: str
    items_per_second: float
    """Median over the runs."""
    ns_per_item: float
    """Median over the runs."""
    best_items_per_second: float
    """Fastest run (the least disturbed by other work on the machine)."""


def _cases(n: int, rng: np.random.Generator) -> list[tuple[str, str, Callable[[], object]]]:
    grids = rng.integers(0, 3**9, n, dtype=np.int32)
    ranks = rng.integers(0, 5478, n, dtype=np.int32)
    base3 = t.convert(ranks, "rank", "base3")
    bitboards = t.convert(ranks, "rank", "bitboards")
    base4 = t.convert(ranks, "rank", "base4")
    boards = t.decode(ranks, "rank")
    i8 = np.empty(n, np.int8)
    u16 = np.empty(n, np.uint16)
    i32 = np.empty(n, np.int32)
    board_out = np.empty((n, 9), np.int8)
    return [
        ("status", "status(base3 codes)", lambda: t.status(base3, "base3", out=i8)),
        ("status", "status(bitboards codes)", lambda: t.status(bitboards, "bitboards", out=i8)),
        ("status", "status(base4 codes)", lambda: t.status(base4, "base4", out=i8)),
        ("status", "status(rank codes)", lambda: t.status(ranks, "rank", out=i8)),
        ("status", "status(any grid, base3)", lambda: t.status(grids, "base3", out=i8)),
        ("status", "status(boards (N, 9))", lambda: t.status(boards, out=i8)),
        ("cheap", "convert base3 -> bitboards", lambda: t.convert(base3, "base3", "bitboards", out=i32)),
        ("cheap", "convert bitboards -> base4", lambda: t.convert(bitboards, "bitboards", "base4", out=i32)),
        ("cheap", "convert base4 -> base3", lambda: t.convert(base4, "base4", "base3", out=i32)),
        ("cheap", "encode boards -> base3", lambda: t.encode(boards, "base3", out=i32)),
        ("cheap", "decode base3 -> boards", lambda: t.decode(base3, "base3", out=board_out)),
        ("rank", "convert base3 -> rank", lambda: t.convert(base3, "base3", "rank", out=i32)),
        ("rank", "convert rank -> base3", lambda: t.convert(ranks, "rank", "base3", out=i32)),
        ("rank", "convert bitboards -> rank", lambda: t.convert(bitboards, "bitboards", "rank", out=i32)),
        ("rank", "convert base3 -> count-rank", lambda: t.convert(base3, "base3", "count-rank", out=i32)),
        ("rank", "convert base3 -> canonical", lambda: t.convert(base3, "base3", "canonical", out=i32)),
        ("rank", "convert base3 -> oriented", lambda: t.convert(base3, "base3", "oriented", out=i32)),
        ("rank", "encode boards -> rank", lambda: t.encode(boards, "rank", out=i32)),
        ("solver", "value(rank codes)", lambda: t.value(ranks, "rank", out=i8)),
        ("solver", "best_moves(rank codes)", lambda: t.best_moves(ranks, "rank", out=u16)),
        ("solver", "distance(base3 codes)", lambda: t.distance(base3, "base3", out=i8)),
        ("solver", "best_moves(boards)", lambda: t.best_moves(boards, out=u16)),
    ]


def run(n: int = 1_000_000, runs: int = 15, seed: int = 0) -> list[Row]:
    """Measures every operation on ``n`` random entries (reachable positions, except the
    "any grid" row): the median of ``runs`` timed calls, interleaved across operations."""
    cases = _cases(n, np.random.default_rng(seed))
    times: dict[str, list[float]] = {name: [] for _, name, _ in cases}
    for _, _, call in cases:
        call()  # tables built, pages touched
    for _ in range(runs):
        for _, name, call in cases:
            start = time.perf_counter()
            call()
            times[name].append(time.perf_counter() - start)
    rows = []
    for group, name, _ in cases:
        median = statistics.median(times[name])
        rows.append(Row(group, name, n / median, median / n * 1e9, n / min(times[name])))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1_000_000, help="entries per call")
    parser.add_argument("--runs", type=int, default=15, help="timed calls per operation")
    args = parser.parse_args()
    print(f"{args.n} entries per call, median (and best) of {args.runs} runs, one thread")
    print(f"{'group':8} {'operation':32} {'items/s':>10} {'ns/item':>8} {'best/s':>10}")
    for row in run(args.n, args.runs):
        print(
            f"{row.group:8} {row.name:32} {row.items_per_second:10.2e} {row.ns_per_item:8.3f}"
            f" {row.best_items_per_second:10.2e}"
        )


if __name__ == "__main__":
    main()
