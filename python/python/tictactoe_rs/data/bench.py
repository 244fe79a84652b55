"""Measures the data layer: ``python -m tictactoe_rs.data.bench [--states N] [--engines ...]``.

Prints Markdown tables (for docs/data.md): generation throughput; bits per state of each
storage layout (Parquet by code and compression, game codes, .ttt by encoding) against the
empirical and exact entropy of random self-play; the time of each recipe on DuckDB, Polars
and Spark ``local[2]``.

``--scale`` (``scripts/data-scale``) is the cost model's check instead: each layout written by
the CLI under ``/usr/bin/time -v`` (wall, CPU, maximum RSS, bytes, files, row groups), the
status, blunder and per-game outcome recipes with their CPU seconds, the run scaled to 10^12
states and, with ``--baseline``, a smaller run's prediction against what was measured.
"""

from __future__ import annotations

import argparse
import functools
import math
import os
import resource
import subprocess
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
from tictactoe_rs.data import _tables as tb
from tictactoe_rs.data import recipes


def _local_spark() -> Any:
    """The benchmarks' Spark session: local[2], no UI, 4 shuffle partitions, 2 GB driver."""
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
    return spark


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
    if "--scale" in (sys.argv[1:] if argv is None else argv):
        return scale(argv)
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
        spark = _local_spark()
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


# ---------------------------------------------------------------------------------------------
# The scale check: `--scale`, the layouts the cost model recommends written by the CLI and read
# by the per-state and per-game recipes, for the "checked against 10^9" table of docs/data.md.

#: Layouts of the scale check, in order (``--layouts``).
SCALE_LAYOUTS = ("codes", "compact", "states")


def _tick_seconds(pid: int) -> float:
    """CPU seconds (user + system) of a running process and its living descendants."""
    tick = os.sysconf("SC_CLK_TCK")
    parents: dict[int, int] = {}
    cpu: dict[int, float] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        parents[int(entry)] = int(fields[1])
        cpu[int(entry)] = (int(fields[11]) + int(fields[12])) / tick
    total, todo = 0.0, [pid]
    while todo:
        p = todo.pop()
        total += cpu.get(p, 0.0)
        todo.extend(c for c, parent in parents.items() if parent == p)
    return total


def _cpu_timed(fn: Callable[[], Any], pid: int | None = None) -> tuple[float, float]:
    """Wall and CPU seconds of ``fn()``: this process's CPU, or process ``pid``'s tree."""
    def cpu() -> float:
        if pid is not None:
            return _tick_seconds(pid)
        r = resource.getrusage(resource.RUSAGE_SELF)
        return r.ru_utime + r.ru_stime

    c0, w0 = cpu(), time.perf_counter()
    fn()
    return time.perf_counter() - w0, cpu() - c0


def _time_v(cmd: list[str]) -> dict[str, float]:
    """Runs ``cmd`` under ``/usr/bin/time -v``: wall and CPU seconds, maximum RSS (MB)."""
    out = subprocess.run(["/usr/bin/time", "-v", *cmd], capture_output=True, text=True, check=False)
    if out.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed: {out.stderr[-2000:]}")
    fields = dict(line.strip().rsplit(": ", 1) for line in out.stderr.splitlines() if ": " in line)
    wall = 0.0
    for part in fields["Elapsed (wall clock) time (h:mm:ss or m:ss)"].split(":"):
        wall = 60 * wall + float(part)
    return {
        "wall": wall,
        "cpu": float(fields["User time (seconds)"]) + float(fields["System time (seconds)"]),
        "rss_mb": int(fields["Maximum resident set size (kbytes)"]) / 1024,
    }


def scale(argv: list[str] | None = None) -> int:
    """``--scale``: writes ``--states`` states of self-play in each layout with the CLI (wall,
    CPU, maximum RSS, bytes, files, row groups), runs the status recipe (per state) and the
    per-game outcomes recipe (code-only files, joined on ``game_facts``) on DuckDB and Polars
    over all of it and on DuckDB, Polars and Spark ``local[2]`` over the first
    ``--spark-states`` states; prints Markdown and writes ``scale.json`` into ``--dir``.
    ``--baseline`` (a smaller run's ``scale.json``) adds predicted (scaled linearly by the
    states) against measured. ``--keep`` keeps the written files (deleted by default)."""
    import json
    import shutil

    import duckdb
    import polars as pl

    pq = __import__("pyarrow.parquet").parquet
    ap = argparse.ArgumentParser(prog="python -m tictactoe_rs.data.bench --scale")
    ap.add_argument("--scale", action="store_true")
    ap.add_argument("--states", type=float, default=1e7)
    ap.add_argument("--layouts", default="codes,compact")
    ap.add_argument("--engines", default="duckdb,polars,spark")
    ap.add_argument("--spark-states", type=float, default=1e8, help="states of the three-engine subset")
    ap.add_argument("--recipes", default="status_value", help="per-state recipes over all of it")
    ap.add_argument("--subset-recipes", default="status_value,blunders", help="per-state recipes on the subset")
    ap.add_argument("--games-per-file", type=int, default=1 << 20)
    ap.add_argument("--dir", required=True)
    ap.add_argument("--baseline", default=None, help="scale.json of a smaller run: predicted vs measured")
    ap.add_argument("--keep", action="store_true")
    args = ap.parse_args(argv)
    layouts = args.layouts.split(",")
    engines = args.engines.split(",")
    if unknown := [x for x in layouts if x not in SCALE_LAYOUTS]:
        ap.error(f"--layouts: unknown {unknown}, expected some of {SCALE_LAYOUTS}")
    games = int(args.states / 8.626) + 1
    root = Path(args.dir)
    root.mkdir(parents=True, exist_ok=True)
    result: dict[str, Any] = {"games": games, "games_per_file": args.games_per_file, "layouts": {}, "recipes": {}}
    base = _time_v([sys.executable, "-c", "import tictactoe_rs.data, pyarrow.parquet"])
    result["import_rss_mb"] = base["rss_mb"]
    result["import"] = base  # Python's start and imports: a fixed cost of each CLI run
    print(f"cores: {os.cpu_count()}, dir: {root}, {games:,} games in parts of {args.games_per_file:,}")

    # --- generation: the CLI, one layout at a time
    for layout in layouts:
        out = root / layout
        shutil.rmtree(out, ignore_errors=True)
        run = _time_v([sys.executable, "-m", "tictactoe_rs.data", "selfplay", str(out), "--games", str(games),
                       "--layout", "states" if layout == "states" else layout,
                       "--games-per-file", str(args.games_per_file)])
        files = sorted(out.glob("part-*.parquet"))
        metas = [pq.ParquetFile(f).metadata for f in files]
        run.update(files=len(files), bytes=sum(f.stat().st_size for f in files),
                   rows=sum(m.num_rows for m in metas), row_groups=sum(m.num_row_groups for m in metas))
        result["layouts"][layout] = run
        print(f"{layout}: {run}", flush=True)
    # The states of the run (the code-only layout holds games: its states are the lengths + 1).
    if "codes" in layouts:
        con = recipes.duckdb_codes(f"read_parquet('{root}/codes/*.parquet')")
        states = con.sql("SELECT sum(f.length + 1) FROM codes c JOIN game_facts f ON f.game = c.code").fetchall()[0][0]
    else:
        states = result["layouts"][layouts[0]]["rows"]
    result["states"] = int(states)

    # --- recipes: all of it on DuckDB and Polars; a subset on the three engines
    per_state = next((x for x in ("compact", "states") if x in layouts), None)
    facts = tb.game_facts()

    def outcomes_polars(codes: Any) -> Any:
        return (
            codes.join(pl.from_arrow(facts).lazy(), left_on="code", right_on="game")  # type: ignore[union-attr]
            .group_by("result")
            .agg(games=pl.len(), blunders=pl.col("blunders").cast(pl.Int64).sum(),
                 blunders_per_game=pl.col("blunders").cast(pl.Float64).mean())
            .sort("result").collect()
        )

    def duckdb_outcomes(con: Any) -> Any:
        return con.sql(recipes.CODES_SQL["outcomes"]).fetchall()

    def per_state_recipes(subset: bool) -> list[str]:
        names = [name for name in (args.subset_recipes if subset else args.recipes).split(",") if name]
        for name in names:
            recipes.sql(name)  # an unknown name raises, listing the recipes
        return names

    sub_files = max(1, round(args.spark_states / 8.626 / args.games_per_file))

    def glob(layout: str, subset: bool) -> list[str]:
        files = sorted(str(f) for f in (root / layout).glob("part-*.parquet"))
        return files[:sub_files] if subset else files

    for subset in (False, True):
        scope = "subset" if subset else "all"
        if subset and sub_files * args.games_per_file >= games:
            continue
        rec: dict[str, dict[str, Any]] = result["recipes"].setdefault(scope, {})
        if per_state:
            meta_rows = sum(pq.ParquetFile(f).metadata.num_rows for f in glob(per_state, subset))
            rec["states"] = {"n": meta_rows}
        for engine in engines:
            if engine == "spark" and not subset:
                continue
            if engine == "duckdb":
                con = duckdb.connect()
                con.execute("SET threads = 2")
                if per_state:
                    recipes.duckdb_connect(f"read_parquet({glob(per_state, subset)!r})", con)
                    for name in per_state_recipes(subset):
                        rec.setdefault(name, {})["duckdb"] = _cpu_timed(
                            functools.partial(recipes.duckdb_recipe, con, name, check=False))
                if "codes" in layouts:
                    recipes.duckdb_codes(f"read_parquet({glob('codes', subset)!r})", con)
                    rec.setdefault("outcomes", {})["duckdb"] = _cpu_timed(
                        functools.partial(duckdb_outcomes, con))
                con.close()
            elif engine == "polars":
                if per_state:
                    for name in per_state_recipes(subset):
                        rec.setdefault(name, {})["polars"] = _cpu_timed(functools.partial(
                            recipes.polars_recipe, pl.scan_parquet(glob(per_state, subset)), name, check=False))
                if "codes" in layouts:
                    rec.setdefault("outcomes", {})["polars"] = _cpu_timed(
                        functools.partial(outcomes_polars, pl.scan_parquet(glob("codes", subset))))
            elif engine == "spark":
                spark = _local_spark()
                jvm = cast(Any, spark.sparkContext._gateway).proc.pid  # the JVM (spark-submit execs it)
                jobs: list[tuple[str, Any]] = []
                if per_state:
                    df = spark.read.parquet(*glob(per_state, subset))
                    jobs.extend((name, recipes.spark_recipe(df, name, check=False))
                                for name in per_state_recipes(subset))
                if "codes" in layouts:
                    spark.read.parquet(*glob("codes", subset)).createOrReplaceTempView("codes")
                    recipes.spark_positions(spark)  # the session's Arrow conversion, warmed up
                    spark.createDataFrame(facts).createOrReplaceTempView("game_facts")
                    jobs.append(("outcomes", spark.sql(recipes.CODES_SQL["outcomes"])))
                for name, q in jobs:
                    q.write.format("noop").mode("overwrite").save()  # warm-up
                    rec.setdefault(name, {})["spark"] = _cpu_timed(
                        q.write.format("noop").mode("overwrite").save, jvm)
                spark.stop()
            print(f"{scope}: {rec}", flush=True)
    (root / "scale.json").write_text(json.dumps(result, indent=1))
    _print_scale(result, json.loads(Path(args.baseline).read_text()) if args.baseline else None)
    if not args.keep:
        for layout in layouts:
            shutil.rmtree(root / layout, ignore_errors=True)
    return 0


def _print_scale(r: dict[str, Any], baseline: dict[str, Any] | None) -> None:
    n = r["states"]
    imp = r.get("import", {"cpu": 0.0, "wall": 0.0})
    print(f"\n{r['games']:,} games, {n:,} states, parts of {r['games_per_file']:,} games; "
          f"Python with the data modules imported: {r['import_rss_mb']:.0f} MB RSS, "
          f"{imp['wall']:.2f} s wall, {imp['cpu']:.2f} s CPU (in each row below)\n")
    print("| layout | wall s | CPU s | states/s (wall) | states per CPU-second | max RSS MB | bytes | bits/state "
          "| files | row groups |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for layout, m in r["layouts"].items():
        print(f"| {layout} | {m['wall']:.1f} | {m['cpu']:.1f} | {n / m['wall']:,.0f} | {n / m['cpu']:,.0f} "
              f"| {m['rss_mb']:,.0f} | {m['bytes']:,} | {8 * m['bytes'] / n:.3f} | {m['files']} "
              f"| {m['row_groups']} |")
    for scope, rec in r["recipes"].items():
        sn = rec.get("states", {}).get("n")
        print(f"\nRecipes, {scope} ({sn:,} states): wall s / CPU s, and CPU-seconds per 10^9 states\n"
              if sn else f"\nRecipes, {scope}\n")
        engines = sorted({e for k, v in rec.items() if k != "states" for e in v})
        print("| recipe | " + " | ".join(engines) + " |\n|---|" + "---|" * len(engines))
        for name, by in rec.items():
            if name == "states":
                continue
            states_read = sn  # outcomes reads the games of the same parts
            cells = []
            for e in engines:
                if e not in by:
                    cells.append("")
                    continue
                wall, cpu = by[e]
                per = f", {cpu / states_read * 1e9:,.0f} per 10^9" if states_read else ""
                cells.append(f"{wall:.2f} / {cpu:.2f}{per}")
            print(f"| {name} | " + " | ".join(cells) + " |")
    print("\nScaled linearly to 10^12 states (CPU seconds are core-seconds)\n")
    print("| what | core-hours | bytes |\n|---|---|---|")
    f = 1e12 / n
    for layout, m in r["layouts"].items():
        print(f"| write `--layout {layout}` | {m['cpu'] * f / 3600:,.0f} | {m['bytes'] * f / 1e12:.2f} TB |")
    for scope, rec in r["recipes"].items():
        sn = rec.get("states", {}).get("n")
        for name, by in rec.items() if sn else ():
            for e, (_wall, cpu) in by.items() if name != "states" else ():
                print(f"| {name} on {e} ({scope}) | {cpu * 1e12 / sn / 3600:,.1f} | |")
    if baseline:
        k = n / baseline["states"]
        print(f"\nPredicted (the {baseline['states']:,}-state run scaled by {k:.1f}) against measured\n")
        print("| quantity | predicted | measured | measured / predicted |\n|---|---|---|---|")
        for layout, m in r["layouts"].items():
            b = baseline["layouts"].get(layout)
            if not b:
                continue
            for q, unit in (("cpu", "CPU s"), ("wall", "wall s"), ("bytes", "bytes"), ("rss_mb", "max RSS MB")):
                fixed = baseline.get("import", {}).get(q, 0.0) if q in ("cpu", "wall") else 0.0
                pred = fixed + (b[q] - fixed) * k
                if q == "rss_mb":
                    # The writer holds two parts: the one written and the one generated.
                    def flight(x: dict[str, Any]) -> int:
                        return int(min(x["games"], 2 * x["games_per_file"]))

                    base_mb = baseline["import_rss_mb"]
                    pred = base_mb + (b[q] - base_mb) * flight(r) / flight(baseline)
                d = 0 if q == "bytes" else 1
                print(f"| {layout}: {unit} | {pred:,.{d}f} | {m[q]:,.{d}f} | {m[q] / pred:.2f} |")
        for name, by in r["recipes"].get("all", {}).items():
            bb = baseline["recipes"].get("all", {}).get(name, {})
            for e, (_wall, cpu) in by.items() if name != "states" else ():
                if e in bb:
                    pred = bb[e][1] * k
                    print(f"| {name} on {e}: CPU s | {pred:,.1f} | {cpu:,.1f} | {cpu / pred:.2f} |")


if __name__ == "__main__":
    sys.exit(main())
