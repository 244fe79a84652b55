"""The k-in-a-row family as data: every reachable position ply by ply, with its status, as
Parquet, locally (numpy) or on Spark (docs/data.md, "The family at scale").

A layer is the set of distinct positions after ``ply`` moves from the empty board. Positions
are keys (``_native.mnk_expand``: the column-height key with gravity, the base-3 code
without, both the library's encodings, as int64); layer ``p + 1`` is the children of layer
``p``'s ongoing positions, deduplicated by key. Statuses: 0 ongoing, 1 X won, 2 O won, 3 draw.

    python -m tictactoe_rs.data family 4x4 OUT [--plies N]                  # local, numpy
    python -m tictactoe_rs.data family connect-four OUT --plies 12 --spark local[2]
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from tictactoe_rs import _native
from tictactoe_rs.data import _card
from tictactoe_rs.data._io import PathLike, _pa, spark_driver_python, write_parquet


@dataclass(frozen=True)
class Layer:
    """The distinct positions after ``ply`` moves, by status."""

    ply: int
    positions: int
    x_won: int
    o_won: int
    draws: int
    ongoing: int
    seconds: float = 0.0

    @staticmethod
    def of(ply: int, statuses: npt.NDArray[np.int8], seconds: float = 0.0) -> Layer:
        counts = np.bincount(statuses, minlength=4)
        return Layer(ply, len(statuses), int(counts[1]), int(counts[2]), int(counts[3]), int(counts[0]), seconds)

    def counts(self) -> tuple[int, int, int, int, int, int]:
        return (self.ply, self.positions, self.x_won, self.o_won, self.draws, self.ongoing)


def layer_schema(solved: bool = False) -> Any:
    """The ``family_positions`` table: ``ply``, ``key``, ``status``, and with ``solved``
    ``value`` and ``distance`` (the whole game enumerated and solved backwards)."""
    pa = _pa()
    fields = [
        pa.field("ply", pa.int8(), nullable=False),
        pa.field("key", pa.int64(), nullable=False),
        pa.field("status", pa.int8(), nullable=False),
    ]
    if solved:
        fields += [pa.field("value", pa.int8(), nullable=False), pa.field("distance", pa.int16(), nullable=False)]
    return pa.schema(fields)


def layers(
    rules: Any, max_plies: int | None = None
) -> Iterator[tuple[int, npt.NDArray[np.int64], npt.NDArray[np.int8]]]:
    """Layers 0, 1, ... (to ``max_plies``, or until no game goes on) as ``(ply, keys,
    statuses)``, keys sorted; one process, memory: two layers."""
    keys = np.array([_native.mnk_root_key(rules)], np.int64)
    statuses = np.zeros(1, np.int8)
    ply = 0
    while True:
        yield ply, keys, statuses
        if max_plies is not None and ply >= max_plies:
            return
        _, children, child_status = _native.mnk_expand(rules, keys[statuses == 0])
        if len(children) == 0:
            return
        keys, first = np.unique(children, return_index=True)
        statuses = child_status[first]
        ply += 1


@dataclass(frozen=True)
class SolvedLayer:
    """One layer with perfect-play labels: ``value`` 1 X wins, 2 O wins, 3 draw (the
    library's and the 3x3 tables' classes) and ``distance``, the plies to the end under
    perfect play (the winner the fewest, the loser the most; a draw's is the empty cells)."""

    ply: int
    keys: npt.NDArray[np.int64]
    statuses: npt.NDArray[np.int8]
    values: npt.NDArray[np.int8]
    distances: npt.NDArray[np.int16]


def solve_layers(rules: Any) -> list[SolvedLayer]:
    """Every layer of ``rules`` with its positions solved, by retrograde analysis: the last
    layer first, each ongoing position's value and distance from its children's in the next
    layer (``mnk_expand`` again, children found by ``searchsorted`` in the sorted keys).
    Memory: every layer (4 x 4: 9.7 M positions, about 1.2 GB at the peak)."""
    forward = list(layers(rules))
    cells = _native.Rules(str(rules)).cells
    out: list[SolvedLayer] = []
    after: SolvedLayer | None = None
    for ply, keys, statuses in reversed(forward):
        values = np.where(statuses == 0, 0, statuses).astype(np.int8)
        distances = np.zeros(len(keys), np.int16)
        ongoing = np.flatnonzero(statuses == 0)
        if len(ongoing):
            if after is None:
                raise ValueError(f"ply {ply} has ongoing positions but no next layer")
            parents, children, _ = _native.mnk_expand(rules, keys[ongoing])
            at = np.minimum(np.searchsorted(after.keys, children), len(after.keys) - 1)
            if not (after.keys[at] == children).all():
                raise ValueError(f"ply {ply}: a child is missing from ply {ply + 1}")
            child_value = after.values[at]
            child_distance = after.distances[at].astype(np.int32)
            mover = 1 if ply % 2 == 0 else 2
            # The mover's view of each child: a win sooner is better, a loss later is better,
            # a draw (all of them end at the full board) in between.
            score = np.where(child_value == mover, 1000 - child_distance,
                             np.where(child_value == 3, 0, -1000 + child_distance))
            if not (np.diff(parents) >= 0).all():
                raise ValueError("mnk_expand returned children out of parent order")
            starts = np.flatnonzero(np.r_[True, parents[1:] != parents[:-1]])
            best = np.maximum.reduceat(score, starts)
            values[ongoing] = np.where(best > 0, mover, np.where(best == 0, 3, 3 - mover))
            distances[ongoing] = np.where(best > 0, 1001 - best, np.where(best == 0, cells - ply, best + 1001))
        after = SolvedLayer(ply, keys, statuses, values, distances)
        out.append(after)
    out.reverse()
    return out


def count_layers(rules: Any, max_plies: int | None = None) -> list[Layer]:
    """``layers`` counted by status (local)."""
    out = []
    start = time.perf_counter()
    for ply, _, statuses in layers(rules, max_plies):
        out.append(Layer.of(ply, statuses, time.perf_counter() - start))
    return out


def write_positions(
    rules: Any, outdir: PathLike, max_plies: int | None = None, card: bool = True, solve: bool = False
) -> list[Layer]:
    """Every reachable position of ``rules`` (to ``max_plies``) as Parquet: one file per ply,
    ``OUTDIR/ply-NN/part-0.parquet``, rows ``(ply, key, status)`` (not a Hive partition name:
    readers of ``OUTDIR`` take ``ply`` from the files), with ``solve`` also ``value`` and
    ``distance`` (``solve_layers``; the whole game, so no ``max_plies``); a dataset card in
    ``outdir``. Returns the layers' counts."""
    pa = _pa()
    if solve and max_plies is not None:
        raise ValueError("solve needs every layer: drop max_plies")
    out = Path(outdir)
    out.mkdir(parents=True, exist_ok=True)
    result = []
    start = time.perf_counter()
    source: Iterator[tuple[int, npt.NDArray[np.int64], npt.NDArray[np.int8], list[Any]]] = (
        ((s.ply, s.keys, s.statuses, [pa.array(s.values), pa.array(s.distances)]) for s in solve_layers(rules))
        if solve else ((ply, keys, statuses, []) for ply, keys, statuses in layers(rules, max_plies))
    )
    for ply, keys, statuses, labels in source:
        table = pa.Table.from_arrays(
            [pa.array(np.full(len(keys), ply, np.int8)), pa.array(keys), pa.array(statuses), *labels],
            schema=layer_schema(solve),
        )
        part = out / f"ply-{ply:02d}"
        part.mkdir(exist_ok=True)
        write_parquet(table, part / "part-0.parquet")
        result.append(Layer.of(ply, statuses, time.perf_counter() - start))
    if card:
        extra = {"solve": True} if solve else {}
        command = _card.call("family.write_positions", str(rules), outdir, max_plies=max_plies, **extra)
        _write_card(out, rules, result, command, solve)
    return result


def _write_card(out: Path, rules: Any, result: list[Layer], command: str, solved: bool = False) -> None:
    name = str(_native.Rules(str(rules)) if isinstance(rules, str) else rules)
    gravity = _native.Rules(name).gravity
    key = ("the column-height key (mnk::encoding::HeightKey, X stones 1, O stones 0, a marker above "
           "each column's stones)" if gravity else
           "the base-3 code (mnk::encoding::Base3: cell i is digit i in text order, 0 empty, 1 X, 2 O)")
    _card.COLUMNS["family_positions"] = {
        "ply": "moves played (marks on the board)",
        "key": f"the position as {key}",
        "status": _card.LABELS["status"],
    }
    if solved:
        _card.COLUMNS["family_positions"] |= {
            "value": _card.LABELS["value"],
            "distance": "plies to the end under perfect play (the winner the fewest, the loser the most; "
                        "a draw's is the empty cells)",
        }
    labels = "its status and its perfect-play value and distance" if solved else "its status"
    _card.ABOUT["family_positions"] = (
        f"Every position of {name} reachable from the empty board, once per ply, with {labels}."
    )
    totals = ", ".join(f"{layer.ply}: {layer.positions:,}" for layer in result)
    _card.write_card(
        out, [("ply-NN/*.parquet", layer_schema(solved), "family_positions")], command,
        notes=[f"{sum(layer.positions for layer in result):,} positions; by ply: {totals}"],
    )


# ---------------------------------------------------------------------------------------------
# Spark


def _expand_batches(spec: str) -> Any:
    """The ``mapInArrow`` function of a layer: every child of each ongoing position."""

    def run(batches: Any) -> Any:
        import pyarrow as pa

        from tictactoe_rs import _native as native

        rules = native.Rules(spec)
        for batch in batches:
            keys = batch.column("key").to_numpy()
            ply = batch.column("ply").to_numpy()
            _, children, statuses = native.mnk_expand(rules, keys)
            yield pa.RecordBatch.from_arrays(
                [pa.array(np.full(len(children), (ply[0] + 1) if len(ply) else 0, np.int8)),
                 pa.array(children), pa.array(statuses)],
                names=["ply", "key", "status"],
            )

    return run


def spark_write_positions(
    spark: Any, rules: Any, outdir: str, max_plies: int, card: bool = True,
) -> list[Layer]:
    """The layers 0 .. ``max_plies`` of ``rules`` computed by Spark, each written as Parquet
    to ``OUTDIR/ply-NN/`` (any path Spark writes: a local directory, ``hdfs://``, ``s3a://``)
    and read back for the next ply. Ply 1's positions (one per opening) seed the partitions;
    each layer is expanded where it lies (``mapInArrow`` over ``mnk_expand``, no shuffle) and
    deduplicated by key (``dropDuplicates``: the one shuffle per ply). Nothing but
    ``outdir`` and the session's master depends on where it runs."""
    from pyspark.sql import functions as F

    spark_driver_python(spark)
    spec = str(rules)
    schema = "ply byte, key long, status byte"
    root = _native.mnk_root_key(spec)
    base = outdir.rstrip("/")
    spark.createDataFrame([(0, root, 0)], schema).coalesce(1).write.mode("overwrite").parquet(f"{base}/ply-00")
    result = [Layer(0, 1, 0, 0, 0, 1)]
    start = time.perf_counter()
    for ply in range(1, max_plies + 1):
        prev = spark.read.parquet(f"{base}/ply-{ply - 1:02d}").where(F.col("status") == 0)
        layer = prev.mapInArrow(_expand_batches(spec), schema).dropDuplicates(["key"])
        layer.write.mode("overwrite").parquet(f"{base}/ply-{ply:02d}")
        counts = dict(
            spark.read.parquet(f"{base}/ply-{ply:02d}").groupBy("status").count().collect()
        )
        total = sum(counts.values())
        result.append(Layer(ply, total, counts.get(1, 0), counts.get(2, 0), counts.get(3, 0),
                            counts.get(0, 0), time.perf_counter() - start))
        if total == 0 or counts.get(0, 0) == 0:
            break
    if card and "://" not in base:
        _write_card(Path(base), rules, result,
                    _card.call("family.spark_write_positions", "spark", spec, outdir, max_plies))
    return result
