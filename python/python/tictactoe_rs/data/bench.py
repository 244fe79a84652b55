"""Measures the data layer: ``python -m tictactoe_rs.data.bench [--states N] [--engines ...]``.

Prints Markdown tables (for docs/data.md): generation throughput; bits per state of each
storage layout (Parquet by code and compression, game codes, .ttt by encoding) against the
empirical and exact entropy of random self-play; the time of each recipe on DuckDB, Polars
and Spark ``local[2]``.
"""

from __future__ import annotations

import argparse
import functools
import math
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import numpy as np

import tictactoe_rs as t
import tictactoe_rs.data as td
from tictactoe_rs import _native
from tictactoe_rs._types import Packing
from tictactoe_rs.data import recipes


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    out = fn()
    return time.perf_counter() - start, out


def entropy(counts: np.ndarray) -> float:
    p = counts[counts > 0] / counts.sum()
    return float(-(p * np.log2(p)).sum())


def exact_game_entropy() -> tuple[float, float]:
    """Entropy (bits) of a game of uniformly random play, and its expected number of states
    (plies + 1): game of length L has probability (9 - L)! / 9! (every empty cell is legal
    until the end)."""
    lengths = td.games().column("length").to_numpy().astype(np.int64)
    logp = np.array([-math.log2(math.factorial(9) // math.factorial(9 - k)) for k in range(10)])
    p = np.exp2(logp[lengths])
    return float(-(p * logp[lengths]).sum()), float((p * (lengths + 1)).sum())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tictactoe_rs.data.bench")
    ap.add_argument("--states", type=float, default=1e7, help="states of random self-play")
    ap.add_argument("--engines", default="duckdb,polars,spark")
    ap.add_argument("--recipe-states", type=float, default=None, help="states for the recipes (default: --states)")
    ap.add_argument("--dir", default=None)
    args = ap.parse_args(argv)
    states_wanted = int(args.states)
    games_n = int(states_wanted / 8.67) + 1
    tmp = Path(args.dir or tempfile.mkdtemp(prefix="ttt-data-bench-"))
    tmp.mkdir(parents=True, exist_ok=True)
    print(f"cores: {os.cpu_count()}, dir: {tmp}")

    # --- generation
    dt_sp, sp = timed(lambda: t.selfplay(games_n, seed=1))
    dt_st, states = timed(lambda: td.states_of(sp.moves, sp.lengths))
    n = states.num_rows
    dt_w, _ = timed(lambda: td.write_parquet(states, tmp / "states.parquet"))
    dt_all, _ = timed(
        lambda: td.selfplay_to_parquet(tmp / "parts", games_n, seed=1, games_per_file=1 << 18, progress=False)
    )
    print("\n## Generation\n")
    print(f"{games_n:,} games, {n:,} states ({n / games_n:.3f} states per game)\n")
    print("| step | seconds | states/s |\n|---|---|---|")
    for name, dt in [("selfplay (games, all cores)", dt_sp), ("states (game, ply, rank) as Arrow", dt_st),
                     ("Parquet zstd write, one file", dt_w), ("selfplay_to_parquet, end to end", dt_all)]:
        print(f"| {name} | {dt:.2f} | {n / dt:,.0f} |")

    # --- bits per state
    pq = __import__("pyarrow.parquet").parquet
    pa = __import__("pyarrow")
    rank = states.column("rank").to_numpy()
    h_marg = entropy(np.bincount(rank, minlength=5478))
    h_game_emp = entropy(np.bincount(sp.codes, minlength=255168)) / (n / games_n)
    h_exact, states_per_game = exact_game_entropy()
    rows: list[tuple[str, float]] = []

    def size_bits(path: Path) -> float:
        total = sum(f.stat().st_size for f in path.rglob("*")) if path.is_dir() else path.stat().st_size
        return 8 * total / n

    base3 = t.convert(rank, "rank", "base3")
    for code in ("rank", "base3", "base4", "oriented", "canonical"):
        col = rank if code == "rank" else t.convert(rank, "rank", code)
        typ = td._tables.code_type(code)
        table = pa.table({code: pa.array(col.astype(typ.to_pandas_dtype()), typ)})
        for comp in ("none", "snappy", "zstd"):
            p = tmp / f"col-{code}-{comp}.parquet"
            pq.write_table(table, p, compression=comp)
            rows.append((f"Parquet, {code} column only, {comp}", size_bits(p)))
    for comp in ("snappy", "zstd"):
        p = tmp / f"states-{comp}.parquet"
        pq.write_table(states, p, compression=comp)
        rows.append((f"Parquet, states (game, ply, rank), {comp}", size_bits(p)))
        p = tmp / f"games-{comp}.parquet"
        pq.write_table(pa.table({"code": pa.array(sp.codes)}), p, compression=comp)
        rows.append((f"Parquet, game codes only (int32), {comp}", size_bits(p)))
        g = pa.table({"game": pa.array(np.arange(games_n, dtype=np.int64)), "code": pa.array(sp.codes)})
        p = tmp / f"gamesid-{comp}.parquet"
        pq.write_table(g, p, compression=comp)
        rows.append((f"Parquet, (game, code), {comp}", size_bits(p)))
    p = tmp / "games-sorted-delta.parquet"
    pq.write_table(pa.table({"code": pa.array(np.sort(sp.codes))}), p, compression="zstd",
                   use_dictionary=False, column_encoding={"code": "DELTA_BINARY_PACKED"})
    rows.append(("Parquet, game codes sorted (a bag of games), delta + zstd", size_bits(p)))
    p = tmp / "states-delta.parquet"
    pq.write_table(states, p, compression="zstd", use_dictionary=["rank"],
                   column_encoding={"game": "DELTA_BINARY_PACKED", "ply": "DELTA_BINARY_PACKED"})
    rows.append(("Parquet, states, game and ply delta-encoded, rank dictionary, zstd", size_bits(p)))
    rows.append(("game codes raw, 18 bits per game", 18 * games_n / n))
    for enc in td._io.TTT_ENCODINGS:
        p = tmp / f"states-{enc}.ttt"
        src = base3.astype(np.int32)
        w = _native.TttWriter(str(p), cast(Packing, enc))
        w.write(src)
        w.close()
        rows.append((f".ttt {enc}", size_bits(p)))
    print("\n## Bits per state\n")
    print(f"Empirical entropy of the rank distribution (marginal, states as independent draws): "
          f"{h_marg:.3f} bits/state")
    print(f"Empirical entropy of the game-code distribution / states per game: {h_game_emp:.3f} bits/state")
    print(f"Exact entropy of a uniformly random game / expected states per game: "
          f"{h_exact:.3f} / {states_per_game:.3f} = {h_exact / states_per_game:.3f} bits/state\n")
    print("| layout | bits/state |\n|---|---|")
    for name, bits in rows:
        print(f"| {name} | {bits:.3f} |")

    # --- recipes
    rn = int(args.recipe_states or n)
    rstates = states.slice(0, rn)
    rpath = tmp / "recipe-states.parquet"
    pq.write_table(rstates, rpath, compression="zstd")
    print(f"\n## Recipes ({rstates.num_rows:,} states; from Parquet; results materialised)\n")
    engines = args.engines.split(",")
    results: dict[str, dict[str, float]] = {r: {} for r in recipes.RECIPES}
    if "duckdb" in engines:
        import duckdb

        con: Any = duckdb.connect()
        con.execute("SET threads = 2")
        recipes.duckdb_connect(f"read_parquet('{rpath}')", con)
        for r in recipes.RECIPES:
            results[r]["duckdb"] = min(
                timed(functools.partial(recipes.duckdb_recipe, con, r, check=False))[0] for _ in range(2)
            )
        def value_udf(r: Any) -> Any:
            return pa.array(t.value(r.to_numpy(), "rank"))

        con.create_function(
            "ttt_value", value_udf,
            [duckdb.sqltype("SMALLINT")], duckdb.sqltype("TINYINT"), type="arrow",
        )
        udf_sql = "SELECT ttt_value(rank) AS value, count(*) FROM states GROUP BY ALL"
        join_sql = "SELECT p.value, count(*) FROM states s JOIN positions p ON p.rank = s.rank GROUP BY ALL"
        results.setdefault("value per state: join", {})["duckdb"] = min(
            timed(lambda: con.sql(join_sql).fetchall())[0] for _ in range(2))
        results.setdefault("value per state: Arrow UDF / mapInArrow", {})["duckdb"] = min(
            timed(lambda: con.sql(udf_sql).fetchall())[0] for _ in range(2))
    if "polars" in engines:
        import polars as pl

        results.setdefault("value per state: join", {})["polars"] = min(timed(
            lambda: pl.scan_parquet(rpath).join(recipes.polars_positions().lazy(), on="rank")
            .group_by("value").len().collect())[0] for _ in range(2))
        results.setdefault("value per state: Arrow UDF / mapInArrow", {})["polars"] = min(timed(
            lambda: pl.scan_parquet(rpath).select(pl.col("rank").map_batches(
                lambda r: pl.Series(t.value(r.to_numpy(), "rank")), return_dtype=pl.Int8).alias("value"))
            .group_by("value").len().collect())[0] for _ in range(2))

        for r in recipes.RECIPES:
            results[r]["polars"] = min(
                timed(functools.partial(recipes.polars_recipe, pl.scan_parquet(rpath), r, check=False))[0]
                for _ in range(2)
            )
    if "spark" in engines:
        os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
        from pyspark.sql import SparkSession

        spark = (
            SparkSession.builder.master("local[2]")
            .config("spark.ui.enabled", "false")
            .config("spark.sql.shuffle.partitions", "4")
            .config("spark.driver.memory", "2g")
            .getOrCreate()
        )
        spark.sparkContext.setLogLevel("ERROR")
        df = spark.read.parquet(str(rpath))
        for r in recipes.RECIPES:
            q = recipes.spark_recipe(df, r, check=False)
            q.write.format("noop").mode("overwrite").save()  # warm-up
            results[r]["spark"] = timed(q.write.format("noop").mode("overwrite").save)[0]
        from pyspark.sql import functions as F

        def values(batches: Any) -> Any:
            for b in batches:
                yield pa.RecordBatch.from_arrays(
                    [pa.array(t.value(b.column("rank").to_numpy(), "rank"))], ["value"])

        jq = df.join(recipes.spark_positions(spark), "rank").groupBy("value").agg(F.count("*"))
        uq = df.select("rank").mapInArrow(values, "value tinyint").groupBy("value").agg(F.count("*"))
        for name, q in (("value per state: join", jq), ("value per state: Arrow UDF / mapInArrow", uq)):
            q.write.format("noop").mode("overwrite").save()
            results.setdefault(name, {})["spark"] = timed(q.write.format("noop").mode("overwrite").save)[0]
        spark.stop()
    print("| recipe | " + " | ".join(f"{e} (s)" for e in engines) + " |")
    print("|---|" + "---|" * len(engines))
    for r in results:
        print(f"| {r} | " + " | ".join(f"{results[r].get(e, float('nan')):.3f}" for e in engines) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
