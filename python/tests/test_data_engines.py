"""The recipes of docs/data.md on DuckDB, Polars and Spark (local[2]), each against a plain
Python computation on the same small self-play dataset; the Arrow batch function inside Spark's
mapInArrow and DuckDB; Parquet files with their metadata read by every engine."""

from __future__ import annotations

import sys
from collections import Counter, defaultdict

import numpy as np
import pytest

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

import tictactoe_rs as t  # noqa: E402
import tictactoe_rs.data as td  # noqa: E402
from tictactoe_rs import _native  # noqa: E402
from tictactoe_rs.data import recipes  # noqa: E402

GAMES = 1500


@pytest.fixture(scope="module")
def states():
    return td.selfplay_states(GAMES, seed=11)


@pytest.fixture(scope="module")
def expected(states):
    """Every recipe's answer computed in plain Python, row by row, from the library's
    per-position functions."""
    game = states.column("game").to_pylist()
    ply = states.column("ply").to_pylist()
    rank = states.column("rank").to_pylist()
    value = dict(enumerate(t.value(np.arange(5478), "rank").tolist()))
    status = dict(enumerate(t.status(np.arange(5478), "rank").tolist()))
    klass = dict(enumerate(t.canonical(np.arange(5478), "rank").tolist()))
    boards = t.decode(np.arange(5478), "rank").tolist()
    out = {}
    out["status_value"] = [(s, v, n) for (s, v), n in sorted(Counter((status[r], value[r]) for r in rank).items())]
    moves: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    for i in range(len(rank) - 1):
        if game[i] == game[i + 1]:
            assert ply[i + 1] == ply[i] + 1
            m = moves[ply[i]]
            m[0] += 1
            m[1] += value[rank[i]] != value[rank[i + 1]]
    out["blunders"] = [(p, m, b, b / m) for p, (m, b) in sorted(moves.items())]
    distinct = set(rank)
    out["coverage"] = [(len(distinct), len({klass[r] for r in distinct}),
                        len(distinct) / 5478, len({klass[r] for r in distinct}) / 765)]
    out["decode"] = [(g, p, "".join(".XO"[c] for c in boards[r])) for g, p, r in zip(game, ply, rank)]
    b3 = t.convert(np.array(rank), "rank", "base3").tolist()
    out["convert"] = [(g, p, c) for g, p, c in zip(game, ply, b3)]
    return out


def rows(table) -> list[tuple]:
    cols = table.to_pydict() if hasattr(table, "to_pydict") else table
    return list(zip(*cols.values()))


def check(recipe, got, expected):
    got = rows(got)
    want = expected[recipe]
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g == pytest.approx(w) if isinstance(w[-1], float) else g == w


def test_plain_reference_is_not_trivial(expected):
    assert expected["coverage"][0][0] > 1000
    assert 0 < sum(b for _, _, b, _ in expected["blunders"]) < sum(m for _, m, _, _ in expected["blunders"])


@pytest.mark.parametrize("recipe", recipes.RECIPES)
def test_duckdb(states, expected, recipe):
    pytest.importorskip("duckdb")
    con = recipes.duckdb_connect(states)
    check(recipe, recipes.duckdb_recipe(con, recipe), expected)


@pytest.mark.parametrize("recipe", recipes.RECIPES)
def test_polars(states, expected, recipe):
    pl = pytest.importorskip("polars")
    check(recipe, recipes.polars_recipe(pl.from_arrow(states), recipe).to_arrow(), expected)


def test_duckdb_and_polars_read_the_parquet_files(tmp_path, states, expected):
    duckdb = pytest.importorskip("duckdb")
    pl = pytest.importorskip("polars")
    td.write_parquet(states.slice(0, 5000), tmp_path / "a.parquet")
    td.write_parquet(states.slice(5000), tmp_path / "b.parquet")
    con = recipes.duckdb_connect(f"read_parquet('{tmp_path}/*.parquet')", duckdb.connect())
    check("coverage", recipes.duckdb_recipe(con, "coverage"), expected)
    lazy = pl.scan_parquet(tmp_path / "*.parquet")
    check("status_value", recipes.polars_recipe(lazy, "status_value").to_arrow(), expected)
    # DuckDB sees the key-value metadata naming each column's encoding
    kv = con.sql(f"SELECT key, value FROM parquet_kv_metadata('{tmp_path}/a.parquet')").fetchall()
    assert (b"tictactoe.encoding.rank", b"rank") in kv


def blocks_table(tmp_path):
    base3 = t.convert(np.random.default_rng(0).integers(0, 5478, 90_000), "rank", "base3")
    w = _native.TttWriter(str(tmp_path / "a.ttt"), "rank")
    w.write(base3)
    w.close()
    return base3, td.ttt_blocks(tmp_path / "a.ttt")


def test_duckdb_batch_function_unpacks_blocks(tmp_path):
    duckdb = pytest.importorskip("duckdb")
    base3, blocks = blocks_table(tmp_path)
    con = duckdb.connect()
    con.register("blocks", blocks)
    out = recipes.duckdb_unpack_blocks(con)
    assert out.column("record").to_pylist() == list(range(len(base3)))
    assert (out.column("base3").to_numpy() == base3).all()


# ---------------------------------------------------------------------------------------------
# Spark: one local[2] session for the module


@pytest.fixture(scope="module")
def spark():
    pytest.importorskip("pyspark")
    from pyspark.sql import SparkSession

    # the Python workers run this interpreter, which has tictactoe_rs (on a cluster: install
    # the wheel on the executors); spark.pyspark.python is not honoured by local mode here
    monkeypatch = pytest.MonkeyPatch()
    monkeypatch.setenv("PYSPARK_PYTHON", sys.executable)
    session = (
        SparkSession.builder.master("local[2]")
        .appName("tictactoe-data-tests")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.sql.execution.arrow.pyspark.enabled", "true")
        .config("spark.driver.memory", "1g")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()
    monkeypatch.undo()


@pytest.fixture(scope="module")
def spark_states(spark, states):
    df = spark.createDataFrame(states).cache()
    df.createOrReplaceTempView("states")
    recipes.spark_positions(spark).createOrReplaceTempView("positions")
    return df


def test_spark_reads_signed_types_as_written(spark, tmp_path):
    td.write_tables(tmp_path)
    types = dict(spark.read.parquet(str(tmp_path / "positions.parquet")).dtypes)
    assert types["rank"] == "smallint" and types["base4"] == "int" and types["value"] == "tinyint"
    assert types["best_moves"] == "smallint" and types["board"] == "string"
    games = dict(spark.read.parquet(str(tmp_path / "games.parquet")).dtypes)
    assert games["game"] == "int" and games["moves"] == "array<tinyint>"


@pytest.mark.parametrize("recipe", recipes.RECIPES)
def test_spark_dataframe_and_sql(spark, spark_states, expected, recipe):
    # The validation every recipe runs first (three Spark jobs) once here; its own test below.
    result = recipes.spark_recipe(spark_states, recipe, check=recipe == "blunders")
    check(recipe, result.toArrow(), expected)
    if recipe in ("status_value", "blunders", "coverage"):  # the same SQL text as DuckDB's
        check(recipe, spark.sql(recipes.sql(recipe)).toArrow(), expected)


def test_spark_map_in_arrow_unpacks_blocks(spark, tmp_path):
    base3, blocks = blocks_table(tmp_path)
    df = spark.createDataFrame(blocks).repartition(2)
    out = recipes.spark_unpack_blocks(df).orderBy("record").toArrow()
    assert out.column("record").to_pylist() == list(range(len(base3)))
    assert (out.column("base3").to_numpy() == base3).all()


def bad_states():
    return pa.table({"game": pa.array([0, 0, 1, 1], pa.int64()), "ply": pa.array([0, 1, 0, 1], pa.int8()),
                     "rank": pa.array([0, 3, 0, 5478], pa.int16())})


def test_a_rank_out_of_range_is_an_error_not_a_dropped_row(spark):
    duckdb = pytest.importorskip("duckdb")
    pl = pytest.importorskip("polars")
    want = r"run7: column 'rank' at game 1 ply 1: 5478 is not a rank code"
    with pytest.raises(td.DataError, match=want):
        recipes.duckdb_recipe(recipes.duckdb_connect(bad_states(), duckdb.connect()), "coverage", name="run7")
    with pytest.raises(td.DataError, match=want):
        recipes.polars_recipe(pl.from_arrow(bad_states()), "coverage", name="run7")
    with pytest.raises(td.DataError, match=want):
        recipes.spark_recipe(spark.createDataFrame(bad_states()), "coverage", name="run7")
    nulls = pa.table({"game": pa.array([0], pa.int64()), "ply": pa.array([0], pa.int8()), "rank": pa.array([None], pa.int16())})
    with pytest.raises(td.DataError, match="game 0 ply 0: null is not a rank code"):
        recipes.polars_recipe(pl.from_arrow(nulls), "status_value")


def test_spark_rejects_wrong_types_and_broken_games(spark):
    """The checks of test_data_integrity.py on Spark: a float, string or boolean rank column,
    and broken game structure (the SQL is DuckDB's, tested there case by case: here a
    duplicate, a gap and a jump), are errors naming the dataset."""
    from test_data_integrity import WRONG_TYPES, a_jump, broken_games, states_table

    for typ, values in WRONG_TYPES:  # a schema check: no Spark job
        df = spark.createDataFrame(states_table([0, 0], [0, 1], values, typ))
        for check in (True, False):
            with pytest.raises(td.DataError, match=r"run5: column 'rank' has type \w+.*, not an integer type"):
                recipes.spark_recipe(df, "status_value", name="run5", check=check)
    for states, want in [*broken_games()[:2], a_jump()]:
        with pytest.raises(td.DataError, match="run3: " + want.replace("(", r"\(").replace(")", r"\)")):
            recipes.spark_validate(spark.createDataFrame(states), name="run3")
    recipes.spark_validate(spark.createDataFrame(td.selfplay_states(200, seed=5)))


def test_spark_counts_connect_four_by_ply(spark, tmp_path):
    """The family job of docs/data.md on Spark local[2] to 5 plies (the 12-ply run is its
    second command), against the library's counts (docs/family.md) and the local job."""
    from test_data_family import CONNECT_FOUR

    from tictactoe_rs.data import family

    layers = family.spark_write_positions(spark, "connect-four", str(tmp_path / "c4"), 5)
    assert [layer.positions for layer in layers] == CONNECT_FOUR[:6]
    local = family.count_layers("connect-four", 5)
    assert [layer.counts() for layer in layers] == [layer.counts() for layer in local]
    keys = pq.read_table(tmp_path / "c4" / "ply-05").column("key").to_numpy()
    assert (np.sort(keys) == list(family.layers("connect-four", 5))[-1][1]).all()


def test_benchmark_script_runs_small(tmp_path, capsys):
    pytest.importorskip("duckdb")
    pytest.importorskip("polars")
    from tictactoe_rs.data import bench

    assert bench.main(["--states", "20000", "--engines", "duckdb,polars", "--dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "| .ttt mixed-radix | 12.8" in out and "| blunders |" in out


def test_scale_check_runs_small(tmp_path, capsys):
    pytest.importorskip("duckdb")
    pytest.importorskip("polars")
    import json

    from tictactoe_rs.data import bench

    args = ["--scale", "--states", "20000", "--engines", "duckdb,polars", "--games-per-file", "1000",
            "--spark-states", "5000", "--layouts", "codes,compact,states", "--dir", str(tmp_path)]
    assert bench.main(args) == 0
    r = json.loads((tmp_path / "scale.json").read_text())
    games = r["games"]
    layouts = r["layouts"]
    assert layouts["codes"]["rows"] == games and layouts["codes"]["files"] == -(-games // 1000)
    assert r["states"] == layouts["compact"]["rows"] == layouts["states"]["rows"]
    assert layouts["compact"]["bytes"] < layouts["states"]["bytes"]
    assert all(m["row_groups"] == m["files"] and m["rss_mb"] > 0 for m in layouts.values())
    assert set(r["recipes"]["subset"]["status_value"]) == {"duckdb", "polars"}
    assert r["recipes"]["subset"]["states"]["n"] < r["states"]
    assert not any((tmp_path / x).exists() for x in layouts)  # deleted without --keep
    assert bench.main([*args, "--keep", "--layouts", "codes", "--baseline", str(tmp_path / "scale.json")]) == 0
    assert "| codes: bytes |" in capsys.readouterr().out and (tmp_path / "codes").is_dir()
