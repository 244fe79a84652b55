"""Throughput of the functions inside the engines (docs/data.md, "Functions inside the
engines"): ``status`` of ``n`` random base3 codes on one core, as the core's numpy function,
the Polars namespace over ``map_batches`` and the compiled plugin (when
``TICTACTOE_POLARS_PLUGIN`` names it), DuckDB's function and Spark's Arrow UDF, and
``read_ttt`` scanned by DuckDB. Each figure is the median of ``--repeat`` runs; the results
are materialised (Polars, DuckDB) or aggregated (Spark, a count per status), so nothing is
skipped.

    POLARS_MAX_THREADS=1 TICTACTOE_POLARS_PLUGIN=$(scripts/polars-plugin) \\
        python -m tictactoe_rs.data.bench_engines --codes 100000000

``--spark`` adds Spark ``local[1]`` (its start is not timed).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import tictactoe_rs as t
import tictactoe_rs.data as td
from tictactoe_rs import _native


def median_seconds(run: Callable[[], Any], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--codes", type=int, default=10**7, help="codes per run (default 10^7)")
    parser.add_argument("--repeat", type=int, default=5, help="runs per figure (default 5)")
    parser.add_argument("--spark", action="store_true", help="also Spark local[1]")
    args = parser.parse_args(argv)
    n = args.codes
    codes = np.random.default_rng(0).integers(0, 19683, n, dtype=np.int64)
    rows: list[tuple[str, float]] = []

    def report(name: str, seconds: float, items: int = n) -> None:
        rows.append((name, seconds))
        print(f"{name:<44} {seconds:8.3f} s  {items / seconds:14,.0f} codes/s", flush=True)

    print(f"{n:,} base3 codes, median of {args.repeat} runs, one core", flush=True)
    report("core: tictactoe_rs.status (numpy)", median_seconds(lambda: t.status(codes, "base3"), args.repeat))

    import polars as pl

    from tictactoe_rs.data import engines

    df = pl.DataFrame({"code": codes})
    report(
        "polars: ttt.status('base3'), map_batches",
        median_seconds(lambda: df.select(engines._batches_expr(pl.col("code"), "status", "base3")), args.repeat),
    )
    plugin = os.environ.get(engines.POLARS_PLUGIN_ENV, "")
    if plugin:
        expr = engines._plugin_expr(pl.col("code"), "status", "base3", None, plugin)
        report("polars: ttt.status('base3'), plugin", median_seconds(lambda: df.select(expr), args.repeat))
        report(
            "polars: pl.col('code') % 4 (a native expression)",
            median_seconds(lambda: df.select((pl.col("code") % 4).cast(pl.Int8)), args.repeat),
        )
    else:
        print(f"({engines.POLARS_PLUGIN_ENV} not set: no figures for the Polars plugin)")

    import duckdb
    import pyarrow as pa

    extension = os.environ.get("TTT_DUCKDB_EXTENSION", "")
    for kind, ext in [("sql lookup", ""), ("extension", extension)]:
        if kind == "extension" and not ext:
            print("(TTT_DUCKDB_EXTENSION not set: no figures for the extension)")
            continue
        con = td.register_duckdb(duckdb.connect(config={"allow_unsigned_extensions": "true"}), extension=ext)
        con.execute("SET threads = 1")
        con.register("codes", pa.table({"code": codes}))
        con.execute("CREATE TABLE stored AS SELECT * FROM codes")
        for what, sql in [
            ("ttt_status(code) materialised", "SELECT ttt_status(code) FROM codes"),
            ("code % 4 materialised (a native expression)", "SELECT CAST(code % 4 AS TINYINT) FROM codes"),
            ("ttt_status(code), count per status", "SELECT ttt_status(code) s, count(*) FROM codes GROUP BY s"),
            ("DuckDB table: sum(ttt_status(code))", "SELECT sum(ttt_status(code)) FROM stored"),
            ("DuckDB table: sum(code % 4)", "SELECT sum(CAST(code % 4 AS TINYINT)) FROM stored"),
        ]:
            def run(sql: str = sql, con: Any = con) -> Any:
                return con.sql(sql).to_arrow_table()

            report(f"duckdb ({kind}): {what}", median_seconds(run, args.repeat))

    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "codes.ttt")
        writer = _native.TttWriter(path, "base3")
        positions = t.convert(np.arange(5478), "rank", "base3").astype(np.int32)
        writer.write(positions[codes % 5478])
        writer.close()

        def scan() -> Any:
            reader = td.read_ttt(path)  # noqa: F841 (scanned by name)
            return con.sql("SELECT ttt_status(base3) s, count(*) FROM reader GROUP BY s").fetchall()

        report("duckdb: td.read_ttt (Arrow stream) + ttt_status, count", median_seconds(scan, args.repeat))
        if extension:
            sql = f"SELECT ttt_status(base3) s, count(*) FROM read_ttt('{path}') GROUP BY s"
            report("duckdb: read_ttt() (extension) + ttt_status, count",
                   median_seconds(lambda: con.sql(sql).fetchall(), args.repeat))

        if args.spark:
            from pyspark.sql import SparkSession
            from pyspark.sql import functions as F

            os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
            spark = (
                SparkSession.builder.master("local[1]")
                .config("spark.ui.enabled", "false")
                .config("spark.sql.shuffle.partitions", "1")
                .getOrCreate()
            )
            spark.sparkContext.setLogLevel("ERROR")
            sdf = td.spark_read_ttt(spark, path).cache()
            sdf.count()
            report(
                "spark: ttt_status Arrow UDF, count per status",
                median_seconds(
                    lambda: sdf.groupBy(td.spark_function("status", F.col("base3"))).count().collect(),
                    args.repeat,
                ),
            )
            report(
                "spark: spark_read_ttt, count",
                median_seconds(lambda: td.spark_read_ttt(spark, path).count(), args.repeat),
            )
            spark.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
