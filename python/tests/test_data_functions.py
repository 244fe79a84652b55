"""The functions inside the engines (tictactoe_rs.data.engines) on Polars and DuckDB: every
function against the core's Python function of the same name on every code (all 19,683 base3
grids, all 5,478 ranks; status, validity and conversion on every code of every encoding);
nulls; bad input (float, string and bool columns, codes out of range) as a clear error; the
streamed .ttt scan (read_ttt) against the file's records. Spark: test_data_functions_spark.py."""

from __future__ import annotations

import os

import numpy as np
import pytest

pa = pytest.importorskip("pyarrow")

import tictactoe_rs as t  # noqa: E402
import tictactoe_rs.data as td  # noqa: E402
from tictactoe_rs.data import engines  # noqa: E402

CORE = {
    "is_valid": t.is_valid, "is_position": t.is_position, "violations": t.violations,
    "status": t.status, "winner": t.winner, "to_move": t.to_move, "legal_moves": t.legal_moves,
    "value": t.value, "distance": t.distance, "best_moves": t.best_moves, "canonical": t.canonical,
    "symmetry": t.symmetry_of, "decode": t.decode,
}
#: (encoding, codes) for which every function is checked against the core.
EVERY_FUNCTION = [("base3", 19683), ("rank", 5478)]
#: Every code of every encoding, for status, validity and conversion to base3.
EVERY_ENCODING = [(enc, td.CODE_RANGE[enc]) for enc in t.ENCODINGS]


def expected(name: str, codes: np.ndarray, enc: str) -> list:
    if name == "board":
        cells = t.decode(codes, enc)
        return ["".join(".XO"[c] if c >= 0 else "?" for c in row) for row in cells.tolist()]
    return CORE[name](codes, enc).tolist()


def test_every_core_function_has_an_engine_function():
    assert set(engines.FUNCTIONS) == set(CORE) | {"board"}


def test_the_reference_is_not_trivial():
    status = t.status(np.arange(19683), "base3")
    assert {-1, 0, 1, 2, 3} == set(status.tolist())
    assert expected("board", np.array([2692]), "base3") == ["X.O..O.X."]


# ---------------------------------------------------------------------------------------------
# Polars

pl = pytest.importorskip("polars")
td.register_polars()


@pytest.mark.parametrize("enc,n", EVERY_FUNCTION)
def test_polars_every_function_on_every_code(enc, n):
    codes = np.arange(n)
    df = pl.DataFrame({"code": codes})
    out = df.select(**{name: getattr(pl.col("code").ttt, name)(enc) for name in engines.FUNCTIONS})
    for name in engines.FUNCTIONS:
        got = out[name].to_list()
        want = expected(name, codes, enc)
        assert got == want, name


@pytest.mark.parametrize("enc,n", EVERY_ENCODING)
def test_polars_status_validity_conversion_in_every_encoding(enc, n):
    codes = np.arange(n)
    out = pl.DataFrame({"code": codes}).lazy().select(
        pl.col("code").ttt.status(enc).alias("status"),
        pl.col("code").ttt.convert(enc, "base3").alias("base3"),
        (pl.col("code") + 1).ttt.is_valid(enc).alias("valid_next"),
    ).collect()
    assert out["status"].to_list() == t.status(codes, enc).tolist()
    assert out["base3"].to_list() == t.convert(codes, enc, "base3").tolist()
    assert out["valid_next"].to_list() == t.is_valid(codes + 1, enc).tolist()


def test_polars_types_nulls_and_any_integer_type():
    s = pl.Series("c", [0, None, 2692], dtype=pl.Int16)
    df = pl.DataFrame({"c": s})
    out = df.select(
        pl.col("c").ttt.status().alias("s"),
        pl.col("c").ttt.decode().alias("d"),
        pl.col("c").ttt.convert("base3", "rank").alias("r"),
    )
    assert out.schema == {"s": pl.Int8, "d": pl.Array(pl.Int8, 9), "r": pl.Int32}
    assert out["s"].to_list() == [0, None, 0]
    assert out["d"].to_list()[1] is None
    assert out["d"].to_list()[2] == [1, 0, 2, 0, 0, 2, 0, 1, 0]
    assert out["r"].to_list() == [0, None, 782]
    assert df.with_columns(pl.col("c").cast(pl.UInt64)).select(pl.col("c").ttt.status())["c"].to_list() == [0, None, 0]


@pytest.mark.parametrize("values,message", [
    ([1.0, 2.0], "the codes must be integers, got Float64"),
    (["1", "2"], "the codes must be integers, got String"),
    ([True, False], "the codes must be integers, got Boolean"),
    ([0, 19683], "ttt.status('base3'): item 1 of the batch: 19683 is not a base3 code (0 to 19,682)"),
    ([-1], "item 0 of the batch: -1 is not a base3 code"),
])
def test_polars_bad_codes_are_an_error_never_a_value(values, message):
    with pytest.raises(Exception, match=message.replace("(", r"\(").replace(")", r"\)")):
        pl.DataFrame({"c": values}).select(pl.col("c").ttt.status("base3"))


def test_polars_bad_encoding_is_an_error_when_the_expression_is_built():
    with pytest.raises(ValueError, match="argument `encoding` must be one of"):
        pl.col("c").ttt.status("base5")
    with pytest.raises(ValueError, match="argument `to` must be one of"):
        pl.col("c").ttt.convert("rank", "boards")


def test_is_valid_answers_false_out_of_range_instead_of_failing():
    out = pl.DataFrame({"c": [-1, 0, 3, 262144]}).select(pl.col("c").ttt.is_valid("base4"))
    assert out["c"].to_list() == [False, True, False, False]


# ---------------------------------------------------------------------------------------------
# DuckDB

duckdb = pytest.importorskip("duckdb")


#: The loadable extension (scripts/duckdb-extension; scripts/test builds it and sets the variable).
EXTENSION = os.environ.get("TTT_DUCKDB_EXTENSION")


@pytest.fixture(scope="module", params=["sql", "extension"])
def con(request):
    """A connection with the functions: as SQL lookups, and from the loadable extension."""
    if request.param == "extension" and not EXTENSION:
        pytest.skip("TTT_DUCKDB_EXTENSION is not set (scripts/duckdb-extension builds it)")
    c = duckdb.connect(config={"allow_unsigned_extensions": "true"})
    td.register_duckdb(c, extension=EXTENSION if request.param == "extension" else "")
    native = c.sql("SELECT count(*) FROM duckdb_functions() WHERE function_name = 'ttt_status' "
                   "AND function_type = 'scalar'").fetchall()[0][0]
    assert native == (2 if request.param == "extension" else 0)
    return c


@pytest.mark.parametrize("enc,n", EVERY_FUNCTION)
def test_duckdb_every_function_on_every_code(con, enc, n):
    codes = np.arange(n)
    con.register("codes", pa.table({"i": codes, "code": codes.astype(np.int32)}))
    cols = ", ".join(f"ttt_{name}(code, '{enc}') AS {name}" for name in engines.FUNCTIONS)
    out = con.sql(f"SELECT {cols} FROM codes ORDER BY i").to_arrow_table()
    for name in engines.FUNCTIONS:
        assert out.column(name).to_pylist() == expected(name, codes, enc), name


@pytest.mark.parametrize("enc,n", EVERY_ENCODING)
def test_duckdb_status_validity_conversion_in_every_encoding(con, enc, n):
    codes = np.arange(n)
    con.register("codes", pa.table({"code": codes}))
    out = con.sql(
        f"SELECT ttt_status(code, '{enc}') s, ttt_convert(code, '{enc}', 'base3') b, "
        f"ttt_is_valid(code + 1, '{enc}') v FROM codes ORDER BY code"
    ).to_arrow_table()
    assert out.column("s").to_pylist() == t.status(codes, enc).tolist()
    assert out.column("b").to_pylist() == t.convert(codes, enc, "base3").tolist()
    assert out.column("v").to_pylist() == t.is_valid(codes + 1, enc).tolist()


def test_duckdb_default_encoding_nulls_types_and_macros(con):
    row = con.sql(
        "SELECT ttt_status(2692), ttt_status(NULL::INTEGER), ttt_decode(2692), ttt_board(2692::SMALLINT), "
        "ttt_status_name(0), ttt_status_name(229), ttt_value_name(0, 'rank'), ttt_is_over(229), "
        "ttt_ply(2692), ttt_blunder(0, 1, 'rank'), ttt_convert(2692, 'base3', 'rank')"
    ).fetchall()[0]
    assert row == (0, None, (1, 0, 2, 0, 0, 2, 0, 1, 0), "X.O..O.X.", "ongoing", "x-won", "draw", True, 4, False, 782)
    types = con.sql("SELECT ttt_status(1), ttt_legal_moves(1), ttt_is_position(1), ttt_violations(1)").types
    assert [str(x) for x in types] == ["TINYINT", "INTEGER", "BOOLEAN", "SMALLINT"]


def test_duckdb_macros_give_the_recipes_answers(con):
    # the blunders recipe (a join with positions) and the same question with the macros
    from tictactoe_rs.data import recipes

    states = td.selfplay_states(2000, seed=3)
    rcon = recipes.duckdb_connect(states)
    want = recipes.duckdb_recipe(rcon, "blunders").select(["ply", "moves", "blunders"]).to_pylist()
    con.register("states", states)
    got = con.sql(
        """SELECT ply, count(*) AS moves, CAST(sum(CAST(ttt_blunder(rank, next_rank, 'rank') AS INT)) AS BIGINT) AS blunders
           FROM (SELECT ply, rank, lead(rank) OVER (PARTITION BY game ORDER BY ply) AS next_rank FROM states)
           WHERE next_rank IS NOT NULL GROUP BY ply ORDER BY ply"""
    ).to_arrow_table().to_pylist()
    assert got == want and sum(r["blunders"] for r in got) > 0
    plies = con.sql("SELECT ply, ttt_ply(rank, 'rank') FROM states").fetchall()
    assert all(a == b for a, b in plies)


@pytest.mark.parametrize("sql,message", [
    ("SELECT ttt_status(1.0::DOUBLE)", r"ttt.status: the codes must be integers, got DOUBLE|ttt_status\(DOUBLE\)"),
    ("SELECT ttt_status(x) FROM (VALUES ('12')) v(x)", r"ttt.status: the codes must be integers, got VARCHAR|ttt_status\(VARCHAR\)"),
    ("SELECT ttt_status(true)", r"ttt.status: the codes must be integers, got BOOLEAN|ttt_status\(BOOLEAN\)"),
    ("SELECT ttt_status(x) FROM (VALUES (0), (19683)) v(x)", r"ttt.status\('base3'\): 19683 is not a base3 code \(0 to 19,682\)"),
    ("SELECT ttt_status(-5, 'rank')", r"-5 is not a rank code \(0 to 5,477\)"),
    ("SELECT ttt_status(0, 'base5')", "argument `encoding` must be one of"),
    ("SELECT ttt_convert(0, 'rank', 'boards')", "argument `to` must be one of"),
    ("SELECT ttt_status(x, e) FROM (VALUES (0, 'rank'), (1, 'base5')) v(x, e)", "argument `encoding` must be one"),
    ("SELECT ttt_status(18446744073709551615::UBIGINT)", r"is not a base3 code|out of range|Conversion|ttt_status\(UBIGINT\)"),
])
def test_duckdb_bad_codes_are_an_error_never_a_value(con, sql, message):
    with pytest.raises(duckdb.Error, match=message):
        con.sql(sql).fetchall()


def test_duckdb_encoding_may_vary_by_row(con):
    rows = con.sql("SELECT ttt_convert(x, e, 'base3') FROM (VALUES (1, 'rank'), (1, 'base3')) v(x, e)").fetchall()
    assert rows == [(t.convert(np.array([1]), "rank", "base3").item(),), (1,)]


def test_register_duckdb_twice_is_fine(con):
    td.register_duckdb(con, extension=EXTENSION if con.sql(
        "SELECT count(*) FROM duckdb_functions() WHERE function_name = 'read_ttt'").fetchall()[0][0] else "")
    assert con.sql("SELECT ttt_status(0)").fetchall() == [(0,)]


# ---------------------------------------------------------------------------------------------
# read_ttt: a .ttt file scanned in place


@pytest.fixture(scope="module")
def ttt_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("ttt") / "states.ttt"
    states = td.selfplay_states(20_000, seed=5)  # ~173,000 records, 5 blocks of 40,320 (rank)
    from tictactoe_rs import _native

    w = _native.TttWriter(str(path), "rank")
    base3 = t.convert(states.column("rank").to_numpy(), "rank", "base3").astype(np.int32)
    w.write(base3)
    w.close()
    return path, base3


def test_read_ttt_streams_every_record_in_order(ttt_file):
    path, base3 = ttt_file
    reader = td.read_ttt(path)
    batches = list(reader)
    assert len(batches) > 1  # one batch per block, not the whole file at once
    table = pa.Table.from_batches(batches)
    assert table.column("record").to_pylist() == list(range(len(base3)))
    assert np.array_equal(table.column("base3").to_numpy(), base3)


def test_read_ttt_in_duckdb_with_the_functions(con, ttt_file):
    path, base3 = ttt_file
    reader = td.read_ttt(path)  # noqa: F841 (scanned by name)
    got = con.sql(
        "SELECT ttt_status(base3) AS s, count(*) AS n FROM reader GROUP BY s ORDER BY s"
    ).fetchall()
    values, counts = np.unique(t.status(base3, "base3"), return_counts=True)
    assert got == list(zip(values.tolist(), counts.tolist()))


@pytest.mark.skipif(not EXTENSION, reason="TTT_DUCKDB_EXTENSION is not set (scripts/duckdb-extension builds it)")
def test_the_extensions_read_ttt_streams_the_file_in_sql(ttt_file, tmp_path):
    path, base3 = ttt_file
    c = td.register_duckdb(duckdb.connect(config={"allow_unsigned_extensions": "true"}), extension=EXTENSION)
    got = c.sql(f"SELECT record, base3 FROM read_ttt('{path}') ORDER BY record").to_arrow_table()
    assert got.column("record").to_pylist() == list(range(len(base3)))
    assert np.array_equal(got.column("base3").to_numpy(), base3)
    bad = tmp_path / "bad.ttt"
    data = bytearray(path.read_bytes())
    data[32 + 8 + 100] ^= 1
    bad.write_bytes(bytes(data))
    with pytest.raises(duckdb.Error, match=r"bad\.ttt: block 0 \(records 0 to 40319\) is damaged"):
        c.sql(f"SELECT count(*) FROM read_ttt('{bad}')").fetchall()
    with pytest.raises(duckdb.Error, match=r"missing\.ttt: No such file"):
        c.sql(f"SELECT count(*) FROM read_ttt('{tmp_path / 'missing.ttt'}')").fetchall()


@pytest.mark.skipif(not EXTENSION, reason="TTT_DUCKDB_EXTENSION is not set (scripts/duckdb-extension builds it)")
def test_the_extensions_read_ttt_salvages_as_ttt_unpack_does(ttt_file, tmp_path):
    """``read_ttt(path, salvage := true)``: every intact record, with its place in the file,
    exactly what Python's ``read_ttt(path, salvage=True)`` (the library's salvaging reader, as
    ``ttt unpack --salvage``) returns; ``salvage := false`` is the default, which fails."""
    path, base3 = ttt_file
    c = td.register_duckdb(duckdb.connect(config={"allow_unsigned_extensions": "true"}), extension=EXTENSION)
    intact = c.sql(f"SELECT record, base3 FROM read_ttt('{path}', salvage := true) ORDER BY record").fetchall()
    assert [r for r, _ in intact] == list(range(len(base3)))
    data = bytearray(path.read_bytes())
    data[32 + 8 + 100] ^= 1  # block 0 (records 0 to 40319)
    data[-200] ^= 1  # the last block
    bad = tmp_path / "bad.ttt"
    bad.write_bytes(bytes(data))
    got = c.sql(f"SELECT record, base3 FROM read_ttt('{bad}', salvage := true) ORDER BY record").to_arrow_table()
    python = pa.Table.from_batches(list(td.read_ttt(bad, salvage=True))).sort_by("record")
    assert got.column("record").to_pylist() == python.column("record").to_pylist()
    assert got.column("base3").to_pylist() == python.column("base3").to_pylist()
    records = np.asarray(got.column("record").to_pylist())
    assert 0 < len(records) < len(base3) and records.min() == 40_320
    assert np.array_equal(got.column("base3").to_numpy(), base3[records])
    with pytest.raises(duckdb.Error, match=r"bad\.ttt: block 0 \(records 0 to 40319\) is damaged"):
        c.sql(f"SELECT count(*) FROM read_ttt('{bad}', salvage := false)").fetchall()
    with pytest.raises(duckdb.Error, match=r"salvage must be true or false, got NULL"):
        c.sql(f"SELECT count(*) FROM read_ttt('{bad}', salvage := NULL)").fetchall()


def test_read_ttt_names_the_file_and_block_of_damage(tmp_path, ttt_file):
    path, _ = ttt_file
    bad = tmp_path / "bad.ttt"
    data = bytearray(path.read_bytes())
    data[32 + 8 + 100] ^= 1
    bad.write_bytes(bytes(data))
    with pytest.raises(ValueError, match=r"bad.ttt: block 0 \(records 0 to 40319\) is damaged"):
        pa.Table.from_batches(list(td.read_ttt(bad)))
    con = duckdb.connect()
    reader = td.read_ttt(bad)  # noqa: F841
    with pytest.raises(Exception, match=r"bad\.ttt: block 0"):
        con.sql("SELECT count(*) FROM reader").fetchall()


def test_block_ranges_read_what_the_whole_file_holds(ttt_file, tmp_path):
    from tictactoe_rs import _native

    path, base3 = ttt_file
    enc, per, count, blocks = _native.ttt_layout(str(path))
    assert (enc, count, blocks) == ("rank", len(base3), -(-len(base3) // per))
    parts = [_native.read_ttt_blocks(str(path), k, 2) for k in range(0, blocks, 2)]
    assert [first for first, _ in parts] == [k * per for k in range(0, blocks, 2)]
    assert np.array_equal(np.concatenate([codes for _, codes in parts]), base3)
    first, past_end = _native.read_ttt_blocks(str(path), blocks + 5, 3)
    assert (first, len(past_end)) == (count, 0)
    truncated = tmp_path / "cut.ttt"
    truncated.write_bytes(path.read_bytes()[:-100])
    with pytest.raises(ValueError, match=r"cut\.ttt: "):
        _native.read_ttt_blocks(str(truncated), 0, 1)
    with pytest.raises(OSError, match=r"missing\.ttt: No such file"):
        _native.ttt_layout(str(tmp_path / "missing.ttt"))
    damaged = tmp_path / "d.ttt"
    data = bytearray(path.read_bytes())
    block_bytes = 8 + len(_native.TttWriter.pack(np.zeros(per, np.int32), "rank"))
    data[32 + block_bytes + 8 + 5] ^= 1  # a payload byte of block 1
    damaged.write_bytes(bytes(data))
    with pytest.raises(ValueError, match=rf"d\.ttt: block 1 \(records {per} to {2 * per - 1}\) is damaged: checksum mismatch"):
        _native.read_ttt_blocks(str(damaged), 1, 1)
    assert np.array_equal(_native.read_ttt_blocks(str(damaged), 0, 1)[1], base3[:per])  # a range reads only its blocks


@pytest.mark.skipif(not EXTENSION, reason="TTT_DUCKDB_EXTENSION is not set (scripts/duckdb-extension builds it)")
def test_the_duckdb_cli_loads_the_extension(ttt_file):
    """The DuckDB command-line shell (pip's ``duckdb-cli``, pinned with the data requirements)
    loads the same file and answers the docs' query."""
    import shutil
    import subprocess
    import sys
    from pathlib import Path

    cli = shutil.which("duckdb", path=str(Path(sys.executable).parent)) or shutil.which("duckdb")
    assert cli, "the duckdb CLI (pip install duckdb-cli) is not installed"
    path, base3 = ttt_file
    sql = (
        f"LOAD '{EXTENSION}'; SELECT ttt_status(base3) AS status, count(*) AS n "
        f"FROM read_ttt('{path}') GROUP BY ALL ORDER BY ALL"
    )
    out = subprocess.run([cli, "-unsigned", "-csv", "-noheader", "-c", sql], capture_output=True, text=True, check=True)
    got = [tuple(int(x) for x in line.split(",")) for line in out.stdout.split()]
    values, counts = np.unique(t.status(base3, "base3"), return_counts=True)
    assert got == list(zip(values.tolist(), counts.tolist()))
