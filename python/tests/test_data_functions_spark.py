"""The functions inside Spark (local[2], one session for the module): every function as an
Arrow-batched UDF against the core's Python function on every base3 and rank code; bad code
columns as a clear error; a .ttt file read split by block (against its records, and damage
named); the bucketed-by-game blunder recipe without a shuffle, against the join recipe."""

from __future__ import annotations

import sys

import numpy as np
import pytest

pa = pytest.importorskip("pyarrow")
pytest.importorskip("pyspark")

import tictactoe_rs as t  # noqa: E402
import tictactoe_rs.data as td  # noqa: E402
from tictactoe_rs import _native  # noqa: E402
from tictactoe_rs.data import engines, recipes  # noqa: E402

CORE = {
    "is_valid": t.is_valid, "is_position": t.is_position, "violations": t.violations,
    "status": t.status, "winner": t.winner, "to_move": t.to_move, "legal_moves": t.legal_moves,
    "value": t.value, "distance": t.distance, "best_moves": t.best_moves, "canonical": t.canonical,
    "symmetry": t.symmetry_of, "decode": t.decode,
}


def expected(name: str, codes: np.ndarray, enc: str) -> list:
    """The core function's answers (``board``: the decoded cells as '.XO' characters)."""
    if name == "board":
        return ["".join(".XO"[c] for c in row) for row in t.decode(codes, enc).tolist()]
    return CORE[name](codes, enc).tolist()


@pytest.fixture(scope="module")
def spark(tmp_path_factory):
    from pyspark.sql import SparkSession

    # the Python workers run this interpreter, which has tictactoe_rs (on a cluster: install
    # the wheel on the executors)
    monkeypatch = pytest.MonkeyPatch()
    monkeypatch.setenv("PYSPARK_PYTHON", sys.executable)
    session = (
        SparkSession.builder.master("local[2]")
        .appName("tictactoe-functions-tests")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.sql.execution.arrow.pyspark.enabled", "true")
        .config("spark.sql.warehouse.dir", str(tmp_path_factory.mktemp("warehouse")))
        .config("spark.driver.memory", "1g")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()
    monkeypatch.undo()


def test_spark_every_function_on_every_code(spark):
    """All 19,683 base3 codes (the 5,478 positions among them) in one job: every function,
    and the conversion to rank codes."""
    from pyspark.sql import functions as F

    codes = np.arange(19683)
    df = spark.createDataFrame(pa.table({"code": codes.astype(np.int32)})).repartition(2)
    cols = [engines.spark_function(name, F.col("code")).alias(name) for name in engines.FUNCTIONS]
    conv = engines.spark_function("convert", F.col("code"), "base3", "rank").alias("rank")
    out = df.select("code", *cols, conv).orderBy("code").toArrow()
    assert out.column("code").to_pylist() == codes.tolist()
    for name in engines.FUNCTIONS:
        assert out.column(name).to_pylist() == expected(name, codes, "base3"), name
    assert out.column("rank").to_pylist() == t.convert(codes, "base3", "rank").tolist()


def test_spark_nulls_and_types(spark):
    from pyspark.sql import functions as F

    df = spark.createDataFrame(pa.table({"c": pa.array([2692, None], pa.int16())}))
    out = df.select(engines.spark_function("status", F.col("c")), engines.spark_function("decode", F.col("c")))
    assert dict(out.dtypes) == {"ttt_status": "tinyint", "ttt_decode": "array<tinyint>"}
    assert [tuple(r) for r in out.collect()] == [(0, [1, 0, 2, 0, 0, 2, 0, 1, 0]), (None, None)]


@pytest.mark.parametrize("values,message", [
    (pa.array([1.0]), "the codes must be integers, got double"),
    (pa.array(["1"]), "the codes must be integers, got string"),
    (pa.array([True]), "the codes must be integers, got bool"),
    (pa.array([19683]), "19683 is not a base3 code"),
])
def test_spark_bad_codes_are_an_error_never_a_value(spark, values, message):
    from pyspark.sql import functions as F

    df = spark.createDataFrame(pa.table({"c": values}))
    with pytest.raises(Exception, match=message):
        df.select(engines.spark_function("status", F.col("c"))).collect()


@pytest.fixture(scope="module")
def ttt_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("ttt") / "states.ttt"
    states = td.selfplay_states(20_000, seed=5)
    base3 = t.convert(states.column("rank").to_numpy(), "rank", "base3").astype(np.int32)
    w = _native.TttWriter(str(path), "rank")
    w.write(base3)
    w.close()
    return path, base3


def test_spark_reads_a_ttt_file_split_by_block(spark, ttt_file):
    path, base3 = ttt_file
    _, per, count, blocks = _native.ttt_layout(str(path))
    assert count == len(base3) and blocks == -(-count // per) and blocks >= 4
    df = td.spark_read_ttt(spark, path, blocks_per_task=2)
    assert df.rdd.getNumPartitions() == -(-blocks // 2)
    out = df.orderBy("record").toArrow()
    assert out.column("record").to_pylist() == list(range(count))
    assert np.array_equal(out.column("base3").to_numpy(), base3)


def test_spark_read_ttt_names_the_damaged_block(spark, tmp_path, ttt_file):
    path, _ = ttt_file
    bad = tmp_path / "bad.ttt"
    data = bytearray(path.read_bytes())
    _, per, _, _ = _native.ttt_layout(str(path))
    block = 32 + 8 + _native.TttWriter.pack(np.zeros(per, np.int32), "rank").__len__()
    data[block * 2 + 8 + 3] ^= 4  # a payload byte of block 2
    bad.write_bytes(bytes(data))
    with pytest.raises(Exception, match=r"bad.ttt: block 2 \(records 80640 to 120959\) is damaged: checksum mismatch"):
        td.spark_read_ttt(spark, bad, blocks_per_task=1).count()


def test_the_bucketed_blunder_recipe_runs_without_a_shuffle(spark):
    from pyspark.sql import Window
    from pyspark.sql import functions as F

    states = td.selfplay_states(1000, seed=7)
    bucketed = td.spark_bucket_states(spark.createDataFrame(states), "states_by_game", buckets=4)
    # the window by game over the bucketed table: no exchange (shuffle) of the states
    window = bucketed.withColumn("next", F.lead("ply").over(Window.partitionBy("game").orderBy("ply")))
    plan = window._jdf.queryExecution().executedPlan().toString()
    assert "Window" in plan and "Exchange" not in plan, plan
    # the same over the DataFrame it was written from shuffles: the check can fail
    unbucketed = spark.createDataFrame(states).withColumn(
        "next", F.lead("ply").over(Window.partitionBy("game").orderBy("ply")))
    assert "Exchange hashpartitioning(game" in unbucketed._jdf.queryExecution().executedPlan().toString()
    want = recipes.duckdb_recipe(recipes.duckdb_connect(states), "blunders").to_pylist()
    got = [r.asDict() for r in td.spark_blunders(bucketed).collect()]
    assert [(r["ply"], r["moves"], r["blunders"]) for r in got] == [(r["ply"], r["moves"], r["blunders"]) for r in want]
    assert [r["rate"] for r in got] == pytest.approx([r["rate"] for r in want])
