"""Throughput of the vectorised core API: items per second on arrays of 10^6 entries, one
core, median of several runs, output preallocated (``out=``).

Run ``python -m tictactoe_rs._bench_core`` (``--n``, ``--runs``, ``--against``, ``--only``);
``run()`` returns the rows for other benchmark commands.
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import time
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any, NamedTuple

import numpy as np

from tictactoe_rs import _native


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
    build: str = "this"
    """``"this"``, or ``"against"`` for the other build of ``run(against=...)``."""


def _cases(n: int, rng: np.random.Generator) -> list[tuple[str, str, Callable[[Any], object]]]:
    """The operations, each a call on a build of the native module ``t``."""
    t = _native
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
        ("status", "status(base3 codes)", lambda t: t.status(base3, "base3", out=i8)),
        ("status", "status(bitboards codes)", lambda t: t.status(bitboards, "bitboards", out=i8)),
        ("status", "status(base4 codes)", lambda t: t.status(base4, "base4", out=i8)),
        ("status", "status(rank codes)", lambda t: t.status(ranks, "rank", out=i8)),
        ("status", "status(any grid, base3)", lambda t: t.status(grids, "base3", out=i8)),
        ("status", "status(boards (N, 9))", lambda t: t.status(boards, out=i8)),
        ("cheap", "convert base3 -> bitboards", lambda t: t.convert(base3, "base3", "bitboards", out=i32)),
        ("cheap", "convert bitboards -> base4", lambda t: t.convert(bitboards, "bitboards", "base4", out=i32)),
        ("cheap", "convert base4 -> base3", lambda t: t.convert(base4, "base4", "base3", out=i32)),
        ("cheap", "convert base4 -> bitboards", lambda t: t.convert(base4, "base4", "bitboards", out=i32)),
        ("cheap", "encode boards -> base3", lambda t: t.encode(boards, "base3", out=i32)),
        ("cheap", "decode base3 -> boards", lambda t: t.decode(base3, "base3", out=board_out)),
        ("rank", "convert base3 -> rank", lambda t: t.convert(base3, "base3", "rank", out=i32)),
        ("rank", "convert rank -> base3", lambda t: t.convert(ranks, "rank", "base3", out=i32)),
        ("rank", "convert bitboards -> rank", lambda t: t.convert(bitboards, "bitboards", "rank", out=i32)),
        ("rank", "convert base3 -> count-rank", lambda t: t.convert(base3, "base3", "count-rank", out=i32)),
        ("rank", "convert base3 -> canonical", lambda t: t.convert(base3, "base3", "canonical", out=i32)),
        ("rank", "convert base3 -> oriented", lambda t: t.convert(base3, "base3", "oriented", out=i32)),
        ("rank", "encode boards -> rank", lambda t: t.encode(boards, "rank", out=i32)),
        ("solver", "value(rank codes)", lambda t: t.value(ranks, "rank", out=i8)),
        ("solver", "best_moves(rank codes)", lambda t: t.best_moves(ranks, "rank", out=u16)),
        ("solver", "distance(base3 codes)", lambda t: t.distance(base3, "base3", out=i8)),
        ("solver", "best_moves(boards)", lambda t: t.best_moves(boards, out=u16)),
    ]


def _load(path: str) -> ModuleType:
    """Another build of the native module, from the path of its shared library."""
    spec = importlib.util.spec_from_file_location("tictactoe_rs_against._native", path)
    if spec is None or spec.loader is None:
        raise ImportError(f"not a native module: {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run(
    n: int = 1_000_000,
    runs: int = 15,
    seed: int = 0,
    against: str | None = None,
    only: Sequence[str] = (),
) -> list[Row]:
    """Measures every operation on ``n`` random entries (reachable positions, except the
    "any grid" row): the median of ``runs`` timed calls, interleaved across operations.
    ``only``: the operations whose names contain one of these strings (all when empty).

    ``against``: the path of another build's ``_native`` shared library (an older wheel's
    ``tictactoe_rs/_native.abi3.so``, say). Each call is then timed on both builds in turn, in
    alternating order, so that both see the same load, and the rows of that build follow,
    with ``build="against"``."""
    cases = _cases(n, np.random.default_rng(seed))
    cases = [case for case in cases if not only or any(part in case[1] for part in only)]
    builds: dict[str, Any] = {"this": _native}
    if against is not None:
        builds["against"] = _load(against)
    times: dict[tuple[str, str], list[float]] = {
        (build, name): [] for build in builds for _, name, _ in cases
    }
    for _, _, call in cases:
        for module in builds.values():
            call(module)  # tables built, pages touched
    for r in range(runs):
        order = list(builds.items())[:: 1 if r % 2 == 0 else -1]
        for _, name, call in cases:
            for build, module in order:
                start = time.perf_counter()
                call(module)
                times[build, name].append(time.perf_counter() - start)
    rows = []
    for build in builds:
        for group, name, _ in cases:
            median = statistics.median(times[build, name])
            best = n / min(times[build, name])
            rows.append(Row(group, name, n / median, median / n * 1e9, best, build))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1_000_000, help="entries per call")
    parser.add_argument("--runs", type=int, default=15, help="timed calls per operation")
    parser.add_argument(
        "--against",
        metavar="PATH",
        help="another build's _native shared library, timed call by call in turn with this one",
    )
    parser.add_argument(
        "--only",
        action="append",
        default=[],
        metavar="TEXT",
        help="only the operations whose names contain TEXT (repeatable)",
    )
    args = parser.parse_args()
    print(f"{args.n} entries per call, median (and best) of {args.runs} runs, one thread")
    rows = run(args.n, args.runs, against=args.against, only=args.only)
    other = {row.name: row for row in rows if row.build == "against"}
    extra = f" {'against/s':>10} {'its best/s':>10}" if other else ""
    print(f"{'group':8} {'operation':32} {'items/s':>10} {'ns/item':>8} {'best/s':>10}{extra}")
    for row in rows:
        if row.build != "this":
            continue
        line = (
            f"{row.group:8} {row.name:32} {row.items_per_second:10.2e} {row.ns_per_item:8.3f}"
            f" {row.best_items_per_second:10.2e}"
        )
        if row.name in other:
            theirs = other[row.name]
            line += f" {theirs.items_per_second:10.2e} {theirs.best_items_per_second:10.2e}"
        print(line)


if __name__ == "__main__":
    main()
