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


#: The game structure of a states dataset, checked by ``validate_*`` (the recipes call it):
#: one row per ply, plies 0 .. n without gaps, each state holding as many marks as its ply,
#: and consecutive states one move apart (joined with ``transitions``: the mover marks an
#: empty cell of a game not yet over). The first problem by game and ply, or nothing:
#: ``(kind, game, ply, a, b)``, see ``_bad_structure``.
VALIDATE_SQL = """
        WITH dup AS (
            SELECT game, ply, count(*) AS n FROM states GROUP BY game, ply HAVING count(*) > 1),
        span AS (
            SELECT game, min(ply) AS lo, max(ply) AS hi, count(DISTINCT ply) AS plies
            FROM states GROUP BY game
            HAVING min(ply) <> 0 OR max(ply) + 1 <> count(DISTINCT ply)),
        marks AS (
            SELECT s.game, s.ply, s.rank, p.marks FROM states s JOIN positions p ON p.rank = s.rank
            WHERE p.marks <> s.ply),
        steps AS (
            SELECT game, ply, rank,
                   lead(ply) OVER (PARTITION BY game ORDER BY ply) AS next_ply,
                   lead(rank) OVER (PARTITION BY game ORDER BY ply) AS next_rank
            FROM states),
        jumps AS (
            SELECT m.game, m.ply, m.rank, m.next_rank FROM steps m
            LEFT JOIN transitions e ON e.rank = m.rank AND e.next_rank = m.next_rank
            WHERE m.next_ply = m.ply + 1 AND e.rank IS NULL)
        SELECT kind, game, ply, a, b FROM (
            SELECT 1 AS kind, CAST(game AS BIGINT) AS game, CAST(ply AS BIGINT) AS ply,
                   CAST(n AS BIGINT) AS a, CAST(NULL AS BIGINT) AS b FROM dup
            UNION ALL SELECT 2, CAST(game AS BIGINT), CAST(lo AS BIGINT), CAST(hi AS BIGINT),
                   CAST(plies AS BIGINT) FROM span
            UNION ALL SELECT 3, CAST(game AS BIGINT), CAST(ply AS BIGINT), CAST(rank AS BIGINT),
                   CAST(marks AS BIGINT) FROM marks
            UNION ALL SELECT 4, CAST(game AS BIGINT), CAST(ply AS BIGINT), CAST(rank AS BIGINT),
                   CAST(next_rank AS BIGINT) FROM jumps) problems
        ORDER BY game, ply, kind
        LIMIT 1"""

#: The columns of a states dataset; each must have an integer type (codes are never cast
#: from a float, a string or a boolean).
STATES_COLUMNS = ("game", "ply", "rank")


def _integer_columns(name: str, types: dict[str, str], integer: Any) -> None:
    """A ``DataError`` naming the dataset unless ``game``, ``ply`` and ``rank`` are present
    with integer types (``integer``: the engine's test of a type)."""
    from tictactoe_rs.data._io import DataError

    for column in STATES_COLUMNS:
        if column not in types:
            raise DataError(f"{name}: no column {column!r} (columns: {', '.join(types)})")
        if not integer(types[column]):
            raise DataError(
                f"{name}: column {column!r} has type {types[column]}, not an integer type "
                "(codes are never cast from floats, strings or booleans)"
            )


def _bad_structure(name: str, row: Any) -> None:
    """The ``DataError`` of the first row of ``VALIDATE_SQL``, if any."""
    from tictactoe_rs.data._io import DataError

    if row is None:
        return
    kind, game, ply, a, b = (None if v is None else int(v) for v in row)
    if kind == 1:
        what = f"game {game} ply {ply}: {a} rows (one row per ply)"
    elif kind == 2:
        what = f"game {game}: plies {ply} to {a} in {b} distinct plies (0 to n without gaps)"
    elif kind == 3:
        what = f"game {game} ply {ply}: rank {a} has {b} marks, not {ply}"
    else:
        what = f"game {game} ply {ply} to {(ply or 0) + 1}: rank {a} to rank {b} is not one move"
    raise DataError(f"{name}: {what}")


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


#: Recipes of code-only files (``selfplay --layout codes``: one game code per game, column
#: ``code``), joined on ``game_facts`` (255,168 rows, broadcast): no window, no shuffle.
#: ``outcomes``: games, blunders and blunders per game by result.
CODES_SQL = {
    "outcomes": """
        SELECT f.result, count(*) AS games, CAST(sum(f.blunders) AS BIGINT) AS blunders,
               avg(CAST(f.blunders AS DOUBLE)) AS blunders_per_game
        FROM codes c JOIN game_facts f ON f.game = c.code
        GROUP BY f.result
        ORDER BY f.result""",
}


def duckdb_codes(codes: Any, con: Any = None, name: str = "codes") -> Any:
    """A DuckDB connection with ``codes`` (an Arrow table, or a ``read_parquet(...)`` string
    of code-only files) and ``game_facts`` registered; the ``code`` column checked (an integer
    type, every value a game code: a ``DataError`` naming ``name`` otherwise)."""
    import duckdb

    from tictactoe_rs.data._io import DataError

    con = con or duckdb.connect()
    con.register("game_facts", tb.game_facts())
    if isinstance(codes, str):
        con.execute(f"CREATE OR REPLACE VIEW codes AS SELECT * FROM {codes}")
    else:
        con.register("codes", codes)
    rel = con.sql("SELECT code FROM codes")
    if str(rel.types[0]) not in _DUCKDB_INTEGERS:
        raise DataError(f"{name}: column 'code' has type {rel.types[0]}, not an integer type")
    bad = con.sql("SELECT code FROM codes WHERE code IS NULL OR code < 0 OR code >= 255168 LIMIT 1").fetchall()
    if bad:
        raise DataError(f"{name}: column 'code': {bad[0][0]} is not a game code (0 to 255,167)")
    return con


# ---------------------------------------------------------------------------------------------
# DuckDB


def duckdb_connect(states: Any, con: Any = None) -> Any:
    """A DuckDB connection with ``positions`` (from Arrow, no copy) and ``states`` (anything
    DuckDB reads: an Arrow table, a Polars frame, a relation, a ``read_parquet`` string
    such as ``"read_parquet('runs/*.parquet')"``) registered as views."""
    import duckdb

    con = con or duckdb.connect()
    con.register("positions", tb.positions())
    con.register("transitions", tb.transitions())
    if isinstance(states, str):
        con.execute(f"CREATE OR REPLACE VIEW states AS SELECT * FROM {states}")
    else:
        con.register("states", states)
    return con


def duckdb_check(con: Any, name: str = "states") -> None:
    """The checks of every DuckDB recipe on ``states``: integer columns, then rank codes."""
    rel = con.sql("SELECT * FROM states")
    types = {c: str(ty) for c, ty in zip(rel.columns, rel.types)}
    _integer_columns(name, types, lambda ty: ty in _DUCKDB_INTEGERS)
    _bad_state(name, next(iter(con.sql(CHECK_SQL).fetchall()), None))


_DUCKDB_INTEGERS = {"TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT", "UTINYINT",
                    "USMALLINT", "UINTEGER", "UBIGINT", "UHUGEINT"}


def duckdb_validate(con: Any, name: str = "states") -> None:
    """``duckdb_check``, then the game structure (``VALIDATE_SQL``): a ``DataError`` naming
    the dataset and the first game that breaks it."""
    duckdb_check(con, name)
    _bad_structure(name, next(iter(con.sql(VALIDATE_SQL).fetchall()), None))


def duckdb_recipe(con: Any, recipe: str, code: str = "base3", check: bool = True, name: str = "states") -> Any:
    """Runs a recipe on a ``duckdb_connect`` connection; returns an Arrow table. ``check``:
    first ``duckdb_validate``, a ``DataError`` naming the dataset (``name``) and the first
    column of the wrong type, state whose rank is not a code, or game whose structure is
    broken. Column types are checked even with ``check=False``."""
    sql(recipe, code)
    if check:
        duckdb_validate(con, name)
    else:
        rel = con.sql("SELECT * FROM states")
        _integer_columns(name, {c: str(ty) for c, ty in zip(rel.columns, rel.types)},
                         lambda ty: ty in _DUCKDB_INTEGERS)
    return con.sql(sql(recipe, code)).to_arrow_table()


# ---------------------------------------------------------------------------------------------
# Polars


def polars_positions() -> Any:
    import polars as pl

    return pl.from_arrow(tb.positions())


def _polars_types(states: Any, name: str) -> None:
    schema = states.collect_schema()
    _integer_columns(name, {c: schema[c] for c in schema.names()}, lambda ty: ty.is_integer())


def polars_validate(states: Any, name: str = "states") -> None:
    """The checks of every Polars recipe (as ``duckdb_validate``): integer columns, rank
    codes, game structure."""
    import polars as pl

    s = states.lazy()
    _polars_types(s, name)
    bad = (
        s.filter(pl.col("rank").is_null() | (pl.col("rank") < 0) | (pl.col("rank") >= 5478))
        .sort("game", "ply").head(1).collect()
    )
    _bad_state(name, bad.row(0) if bad.height else None)
    i64 = pl.Int64
    dup = (
        s.group_by("game", "ply").agg(pl.len().alias("a"))
        .filter(pl.col("a") > 1)
        .select(pl.lit(1).alias("kind"), "game", "ply", "a", pl.lit(None, i64).alias("b"))
    )
    span = (
        s.group_by("game").agg(
            pl.col("ply").min().alias("lo"), pl.col("ply").max().alias("hi"),
            pl.col("ply").n_unique().alias("plies"),
        )
        .filter((pl.col("lo") != 0) | (pl.col("hi").cast(i64) + 1 != pl.col("plies")))
        .select(pl.lit(2).alias("kind"), "game", pl.col("lo").alias("ply"),
                pl.col("hi").alias("a"), pl.col("plies").alias("b"))
    )
    marks = (
        s.join(polars_positions().lazy().select("rank", "marks"), on="rank")
        .filter(pl.col("marks").cast(i64) != pl.col("ply").cast(i64))
        .select(pl.lit(3).alias("kind"), "game", "ply", pl.col("rank").alias("a"), pl.col("marks").alias("b"))
    )
    edges = pl.DataFrame(tb.transitions()).lazy().select("rank", "next_rank", pl.lit(True).alias("edge"))
    jumps = (
        s.sort("game", "ply")
        .with_columns(
            pl.col("ply").shift(-1).over("game").alias("next_ply"),
            pl.col("rank").shift(-1).over("game").alias("next_rank"),
        )
        .filter(pl.col("next_ply").cast(i64) == pl.col("ply").cast(i64) + 1)
        .join(edges, on=["rank", "next_rank"], how="left")
        .filter(pl.col("edge").is_null())
        .select(pl.lit(4).alias("kind"), "game", "ply", pl.col("rank").alias("a"), pl.col("next_rank").alias("b"))
    )
    cast = [pl.col(c).cast(i64) for c in ("kind", "game", "ply", "a", "b")]
    first = (
        pl.concat([q.select(cast) for q in (dup, span, marks, jumps)])
        .sort("game", "ply", "kind").head(1).collect()
    )
    _bad_structure(name, first.row(0) if first.height else None)


def polars_recipe(states: Any, recipe: str, code: str = "base3", check: bool = True, name: str = "states") -> Any:
    """Runs a recipe on a Polars ``DataFrame`` or ``LazyFrame`` of states; returns a
    ``DataFrame`` (``check``, ``name``: as ``duckdb_recipe``)."""
    import polars as pl

    sql(recipe, code)
    s = states.lazy()
    if check:
        polars_validate(s, name)
    else:
        _polars_types(s, name)
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

    from tictactoe_rs.data._io import spark_driver_python

    spark_driver_python(spark)
    return F.broadcast(spark.createDataFrame(tb.positions()))


def _spark_types(states: Any, name: str) -> None:
    from pyspark.sql.types import IntegralType

    types = {f.name: f.dataType for f in states.schema.fields}
    _integer_columns(name, types, lambda ty: isinstance(ty, IntegralType))


def spark_validate(states: Any, name: str = "states") -> None:
    """The checks of every Spark recipe (as ``duckdb_validate``): integer columns, rank
    codes, game structure (``VALIDATE_SQL`` on temporary views: two jobs)."""
    from pyspark.sql import functions as F

    from tictactoe_rs.data._io import spark_driver_python

    spark_driver_python(states.sparkSession)
    _spark_types(states, name)
    r = F.col("rank")
    bad = (
        states.where(r.isNull() | (r < 0) | (r >= 5478))
        .orderBy("game", "ply")
        .select("game", "ply", "rank")
        .head(1)
    )
    _bad_state(name, tuple(bad[0]) if bad else None)
    spark = states.sparkSession
    # Views private to this check, so that the caller's own `states` view is left alone.
    states.createOrReplaceTempView("ttt_validate_states")
    spark_positions(spark).createOrReplaceTempView("ttt_validate_positions")
    F.broadcast(spark.createDataFrame(tb.transitions())).createOrReplaceTempView("ttt_validate_transitions")
    query = (
        VALIDATE_SQL.replace("FROM states", "FROM ttt_validate_states")
        .replace("JOIN positions", "JOIN ttt_validate_positions")
        .replace("JOIN transitions", "JOIN ttt_validate_transitions")
    )
    row = spark.sql(query).head(1)
    _bad_structure(name, tuple(row[0]) if row else None)


def spark_recipe(states: Any, recipe: str, code: str = "base3", check: bool = True, name: str = "states") -> Any:
    """Runs a recipe on a Spark ``DataFrame`` of states (DataFrame API); returns a
    DataFrame. ``spark.sql(sql(recipe))`` with the views ``states`` and ``positions`` gives
    the same answer. ``check``, ``name``: as ``duckdb_recipe`` (one extra job, a scan)."""
    from pyspark.sql import Window
    from pyspark.sql import functions as F

    from tictactoe_rs.data._io import spark_driver_python

    spark_driver_python(states.sparkSession)
    sql(recipe, code)
    if check:
        spark_validate(states, name)
    else:
        _spark_types(states, name)

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
    from tictactoe_rs.data._io import spark_driver_python, unpack_blocks, unpack_blocks_schema

    spark_driver_python(blocks.sparkSession)
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
