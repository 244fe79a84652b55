"""The recipes of ``docs/data.md``, each in DuckDB SQL, Polars and Spark.

Every recipe reads a *states* dataset ``(game, ply, rank)`` (``selfplay_states``,
``selfplay_to_parquet``, or your own) and joins it with the ``positions`` table (5,478 rows,
broadcast everywhere): a per-state function of a rank is a lookup, so a join beats any UDF.
The SQL runs unchanged on DuckDB and Spark SQL (``spark.sql``), with ``states`` and
``positions`` registered as tables/views; the Polars and Spark DataFrame versions say the same.

Engines are imported only by the functions that use them.
"""

from __future__ import annotations

from typing import Any

from tictactoe_rs.data import _tables as tb

#: Recipe SQL (DuckDB and Spark SQL alike). ``{code}``: a code column of ``positions``.
SQL = {
    "status_value": """
        SELECT p.status, p.value, count(*) AS n
        FROM states s JOIN positions p ON p.rank = s.rank
        GROUP BY p.status, p.value
        ORDER BY p.status, p.value""",
    "blunders": """
        WITH moves AS (
            SELECT ply, rank, lead(rank) OVER (PARTITION BY game ORDER BY ply) AS next_rank
            FROM states)
        SELECT m.ply, count(*) AS moves,
               CAST(sum(CASE WHEN a.value <> b.value THEN 1 ELSE 0 END) AS BIGINT) AS blunders,
               avg(CAST(CASE WHEN a.value <> b.value THEN 1 ELSE 0 END AS DOUBLE)) AS rate
        FROM moves m
        JOIN positions a ON a.rank = m.rank
        JOIN positions b ON b.rank = m.next_rank
        GROUP BY m.ply
        ORDER BY m.ply""",
    "coverage": """
        SELECT count(DISTINCT s.rank) AS positions, count(DISTINCT p.canonical) AS classes,
               CAST(count(DISTINCT s.rank) AS DOUBLE) / 5478 AS positions_share,
               CAST(count(DISTINCT p.canonical) AS DOUBLE) / 765 AS classes_share
        FROM states s JOIN positions p ON p.rank = s.rank""",
    "decode": """
        SELECT s.game, s.ply, p.board
        FROM states s JOIN positions p ON p.rank = s.rank
        ORDER BY s.game, s.ply""",
    "convert": """
        SELECT s.game, s.ply, p.{code}
        FROM states s JOIN positions p ON p.rank = s.rank
        ORDER BY s.game, s.ply""",
}

RECIPES = tuple(SQL)

#: The first state whose rank is not a rank code (null, negative or >= 5,478): the inner joins
#: of the recipes would drop it silently, so every recipe function runs this check first.
CHECK_SQL = """
        SELECT game, ply, rank FROM states
        WHERE rank IS NULL OR rank < 0 OR rank >= 5478
        ORDER BY game, ply LIMIT 1"""


def _bad_state(name: str, row: Any) -> None:
    from tictactoe_rs.data._io import DataError

    if row is not None:
        game, ply, rank = row
        raise DataError(
            f"{name}: column 'rank' at game {game} ply {ply}: "
            f"{'null' if rank is None else rank} is not a rank code (0 to 5,477)"
        )


def sql(recipe: str, code: str = "base3") -> str:
    """The SQL text of a recipe (``code``: the target column of ``convert``); an unknown
    recipe raises ``ValueError`` listing the valid names."""
    if recipe not in SQL:
        raise ValueError(f"argument `recipe` must be one of {', '.join(map(repr, SQL))}, got {recipe!r}")
    if code not in tb.CODE_COLUMNS or code in ("game", "prefix"):
        raise ValueError(f"argument `code` must be a code column of positions, got {code!r}")
    return SQL[recipe].format(code=code)


# ---------------------------------------------------------------------------------------------
# DuckDB


def duckdb_connect(states: Any, con: Any = None) -> Any:
    """A DuckDB connection with ``positions`` (from Arrow, no copy) and ``states`` (anything
    DuckDB reads: an Arrow table, a Polars frame, a relation, a ``read_parquet`` string
    such as ``"read_parquet('runs/*.parquet')"``) registered as views."""
    import duckdb

    con = con or duckdb.connect()
    con.register("positions", tb.positions())
    if isinstance(states, str):
        con.execute(f"CREATE OR REPLACE VIEW states AS SELECT * FROM {states}")
    else:
        con.register("states", states)
    return con


def duckdb_recipe(con: Any, recipe: str, code: str = "base3", check: bool = True, name: str = "states") -> Any:
    """Runs a recipe on a ``duckdb_connect`` connection; returns an Arrow table. ``check``:
    first a ``DataError`` naming the dataset (``name``) and the first state whose rank is
    not a code."""
    if check:
        _bad_state(name, next(iter(con.sql(CHECK_SQL).fetchall()), None))
    return con.sql(sql(recipe, code)).to_arrow_table()


# ---------------------------------------------------------------------------------------------
# Polars


def polars_positions() -> Any:
    import polars as pl

    return pl.from_arrow(tb.positions())


def polars_recipe(states: Any, recipe: str, code: str = "base3", check: bool = True, name: str = "states") -> Any:
    """Runs a recipe on a Polars ``DataFrame`` or ``LazyFrame`` of states; returns a
    ``DataFrame`` (``check``, ``name``: as ``duckdb_recipe``)."""
    import polars as pl

    s = states.lazy()
    if check:
        bad = (
            s.filter(pl.col("rank").is_null() | (pl.col("rank") < 0) | (pl.col("rank") >= 5478))
            .sort("game", "ply").head(1).collect()
        )
        _bad_state(name, bad.row(0) if bad.height else None)
    p = polars_positions().lazy()
    joined = s.join(p, on="rank", how="inner")
    if recipe == "status_value":
        q = joined.group_by("status", "value").agg(pl.len().cast(pl.Int64).alias("n")).sort("status", "value")
    elif recipe == "blunders":
        moves = s.sort("game", "ply").with_columns(
            pl.col("rank").shift(-1).over("game").alias("next_rank")
        ).drop_nulls("next_rank")
        pv = p.select("rank", "value")
        q = (
            moves.join(pv, on="rank")
            .join(pv.rename({"rank": "next_rank", "value": "next_value"}), on="next_rank")
            .with_columns((pl.col("value") != pl.col("next_value")).alias("b"))
            .group_by("ply")
            .agg(
                pl.len().cast(pl.Int64).alias("moves"),
                pl.col("b").sum().cast(pl.Int64).alias("blunders"),
                pl.col("b").mean().alias("rate"),
            )
            .sort("ply")
        )
    elif recipe == "coverage":
        q = joined.select(
            pl.col("rank").n_unique().cast(pl.Int64).alias("positions"),
            pl.col("canonical").n_unique().cast(pl.Int64).alias("classes"),
        ).with_columns(
            (pl.col("positions") / 5478.0).alias("positions_share"),
            (pl.col("classes") / 765.0).alias("classes_share"),
        )
    elif recipe == "decode":
        q = joined.select("game", "ply", "board").sort("game", "ply")
    elif recipe == "convert":
        sql(recipe, code)
        q = joined.select("game", "ply", code).sort("game", "ply")
    else:
        raise ValueError(f"unknown recipe {recipe!r} (one of {', '.join(RECIPES)})")
    return q.collect()


# ---------------------------------------------------------------------------------------------
# Spark


def spark_positions(spark: Any) -> Any:
    """``positions`` as a Spark DataFrame (from Arrow), marked for broadcast."""
    from pyspark.sql import functions as F

    return F.broadcast(spark.createDataFrame(tb.positions()))


def spark_recipe(states: Any, recipe: str, code: str = "base3", check: bool = True, name: str = "states") -> Any:
    """Runs a recipe on a Spark ``DataFrame`` of states (DataFrame API); returns a
    DataFrame. ``spark.sql(sql(recipe))`` with the views ``states`` and ``positions`` gives
    the same answer. ``check``, ``name``: as ``duckdb_recipe`` (one extra job, a scan)."""
    from pyspark.sql import Window
    from pyspark.sql import functions as F

    if check:
        r = F.col("rank")
        bad = (
            states.where(r.isNull() | (r < 0) | (r >= 5478))
            .orderBy("game", "ply")
            .select("game", "ply", "rank")
            .head(1)
        )
        _bad_state(name, tuple(bad[0]) if bad else None)

    spark = states.sparkSession
    p = spark_positions(spark)
    joined = states.join(p, on="rank")
    if recipe == "status_value":
        return joined.groupBy("status", "value").agg(F.count("*").alias("n")).orderBy("status", "value")
    if recipe == "blunders":
        w = Window.partitionBy("game").orderBy("ply")
        moves = states.withColumn("next_rank", F.lead("rank").over(w)).where(F.col("next_rank").isNotNull())
        a = p.select("rank", "value")
        b = p.select(F.col("rank").alias("next_rank"), F.col("value").alias("next_value"))
        blunder = (F.col("value") != F.col("next_value")).cast("int")
        return (
            moves.join(a, on="rank")
            .join(b, on="next_rank")
            .groupBy("ply")
            .agg(
                F.count("*").alias("moves"),
                F.sum(blunder).cast("long").alias("blunders"),
                F.avg(blunder.cast("double")).alias("rate"),
            )
            .orderBy("ply")
        )
    if recipe == "coverage":
        return joined.agg(
            F.countDistinct("rank").alias("positions"),
            F.countDistinct("canonical").alias("classes"),
        ).select(
            "positions",
            "classes",
            (F.col("positions") / 5478.0).alias("positions_share"),
            (F.col("classes") / 765.0).alias("classes_share"),
        )
    if recipe == "decode":
        return joined.select("game", "ply", "board").orderBy("game", "ply")
    if recipe == "convert":
        sql(recipe, code)
        return joined.select("game", "ply", code).orderBy("game", "ply")
    raise ValueError(f"unknown recipe {recipe!r} (one of {', '.join(RECIPES)})")


def spark_unpack_blocks(blocks: Any) -> Any:
    """``.ttt`` blocks (a Spark DataFrame with ``ttt_blocks``' columns) unpacked to records
    ``(record, base3)`` by ``mapInArrow`` with ``unpack_blocks``."""
    from tictactoe_rs.data._io import unpack_blocks, unpack_blocks_schema

    def run(batches: Any) -> Any:
        for batch in batches:
            yield unpack_blocks(batch)

    schema = "record long, base3 short"
    assert [f.name for f in unpack_blocks_schema()] == ["record", "base3"]
    return blocks.mapInArrow(run, schema)


def duckdb_unpack_blocks(con: Any, blocks_sql: str = "SELECT * FROM blocks") -> Any:
    """``.ttt`` blocks unpacked in DuckDB: registers the Arrow scalar function
    ``ttt_unpack(payload, n, encoding)`` (a list of base3 codes) and unnests it."""
    import duckdb

    from tictactoe_rs.data._io import unpack_payloads

    try:
        con.create_function(
            "ttt_unpack",
            unpack_payloads,
            [duckdb.sqltype("BLOB"), duckdb.sqltype("INTEGER"), duckdb.sqltype("VARCHAR")],
            duckdb.sqltype("SMALLINT[]"),
            type="arrow",
        )
    except duckdb.Error as error:  # already registered on this connection
        if "already" not in str(error).lower():
            raise
    return con.sql(
        f"""SELECT first_record + generate_subscripts(codes, 1) - 1 AS record,
                   unnest(codes) AS base3
            FROM (SELECT first_record, ttt_unpack(payload, n, encoding) AS codes FROM ({blocks_sql}))
            ORDER BY record"""
    ).to_arrow_table()
