"""The compiled Polars expression plugin (extensions/polars/, built by scripts/polars-plugin) against the
`map_batches` namespace and the core: every function on every code of every encoding and
beyond its range, every integer type, nulls (with values under them), lazy and streaming
queries, bad column types, and the namespace's choice of backend.

They need the built plugin: they run when TICTACTOE_POLARS_PLUGIN names it
(`scripts/polars-plugin --test` builds it and runs them) and are skipped otherwise (CI cannot
build the polars crates in its budget)."""

from __future__ import annotations

import os

import numpy as np
import pytest

pa = pytest.importorskip("pyarrow")
pl = pytest.importorskip("polars")

import tictactoe_rs as t  # noqa: E402
import tictactoe_rs.data as td  # noqa: E402
from tictactoe_rs.data import engines  # noqa: E402

PLUGIN = os.environ.get(engines.POLARS_PLUGIN_ENV)
pytestmark = pytest.mark.skipif(
    not PLUGIN, reason=f"{engines.POLARS_PLUGIN_ENV} is not set (scripts/polars-plugin --test builds the plugin)"
)

NAMES = [*engines.FUNCTIONS, "convert"]
CORE = {
    "is_valid": t.is_valid, "is_position": t.is_position, "violations": t.violations,
    "status": t.status, "winner": t.winner, "to_move": t.to_move, "legal_moves": t.legal_moves,
    "value": t.value, "distance": t.distance, "best_moves": t.best_moves, "canonical": t.canonical,
    "symmetry": t.symmetry_of, "decode": t.decode,
}


def plugin(expr, name, encoding="base3", to=None):
    return engines._plugin_expr(expr, name, encoding, to, PLUGIN)


def batches(expr, name, encoding="base3", to=None):
    return engines._batches_expr(expr, name, encoding, to)


def core(name, codes, enc, to=None):
    """The core's answers (the reference), as Python values."""
    if name == "convert":
        return t.convert(codes, enc, to).tolist()
    if name == "board":
        return ["".join(".XO"[c] if c >= 0 else "?" for c in row) for row in t.decode(codes, enc).tolist()]
    return CORE[name](codes, enc).tolist()


def both(df, name, enc="base3", to=None, col="code"):
    """The answers of the plugin and of the namespace over `map_batches`, as lists."""
    out = df.select(
        plugin(pl.col(col), name, enc, to).alias("plugin"), batches(pl.col(col), name, enc, to).alias("batches")
    )
    assert out.schema["plugin"] == out.schema["batches"] == engines._polars_dtype(name)
    return out["plugin"].to_list(), out["batches"].to_list()


def test_the_reference_is_not_trivial():
    status = t.status(np.arange(19683), "base3")
    assert {-1, 0, 1, 2, 3} == set(status.tolist())
    assert core("board", np.array([2692]), "base3") == ["X.O..O.X."]


@pytest.mark.parametrize("enc", t.ENCODINGS)
def test_every_function_on_every_code_of_every_encoding(enc):
    codes = np.arange(td.CODE_RANGE[enc])
    df = pl.DataFrame({"code": codes})
    for name in engines.FUNCTIONS:
        got, namespace = both(df, name, enc)
        assert got == namespace == core(name, codes, enc), (name, enc)
    for to in t.ENCODINGS:
        got, namespace = both(df, "convert", enc, to)
        assert got == namespace == core("convert", codes, enc, to), (enc, to)


def beyond(enc):
    limit = td.CODE_RANGE[enc]
    return [-1, -(2**40), limit, limit + 5, 2**31, 2**40]


def error_of(df, expr):
    with pytest.raises(Exception) as info:
        df.select(expr)
    return str(info.value)


@pytest.mark.parametrize("enc", t.ENCODINGS)
def test_codes_out_of_range_are_the_same_error_in_both_except_is_valid(enc):
    limit = td.CODE_RANGE[enc]
    for code in beyond(enc):
        df = pl.DataFrame({"code": [0, 1, code]}, schema={"code": pl.Int64})
        got, namespace = both(df, "is_valid", enc)
        assert got == namespace == core("is_valid", np.array([0, 1]), enc) + [False]
        for name in NAMES:
            to = "rank" if name == "convert" else None
            where = f"ttt.{name}({enc!r}{', ' + repr(to) if to else ''})"
            message = f"{where}: item 2 of the batch: {code} is not a {enc} code (0 to {limit - 1:,})"
            if name == "is_valid":
                continue
            assert message in error_of(df, plugin(pl.col("code"), name, enc, to)), (name, code)
            assert message in error_of(df, batches(pl.col("code"), name, enc, to)), (name, code)


INTEGER_TYPES = [pl.Int8, pl.Int16, pl.Int32, pl.Int64, pl.UInt8, pl.UInt16, pl.UInt32, pl.UInt64]


@pytest.mark.parametrize("dtype", INTEGER_TYPES)
def test_every_integer_type(dtype):
    info = np.iinfo(str(dtype).lower())
    codes = np.arange(max(info.min, 0), min(int(info.max), 19682) + 1)
    df = pl.DataFrame({"code": pl.Series(codes).cast(dtype)})
    for name in NAMES:
        got, namespace = both(df, name, "base3", "rank" if name == "convert" else None)
        assert got == namespace == core(name, codes, "base3", "rank"), (name, dtype)
    bad = -1 if info.min < 0 else int(info.max)
    if bad > 19682 or bad < 0:
        df = pl.DataFrame({"code": pl.Series([5, bad], dtype=dtype)})
        message = f"item 1 of the batch: {bad} is not a base3 code"
        assert message in error_of(df, plugin(pl.col("code"), "status"))
        assert message in error_of(df, batches(pl.col("code"), "status"))


def test_nulls_give_nulls_whatever_lies_under_them():
    # Arrow buffers whose null slots hold codes out of range: they must neither error nor show.
    values = np.array([2692, 10**9, 0, -7, 19682], np.int64)
    validity = pa.py_buffer(np.packbits([1, 0, 1, 0, 1], bitorder="little").tobytes())
    arr = pa.Array.from_buffers(pa.int64(), 5, [validity, pa.py_buffer(values.tobytes())])
    df = pl.from_arrow(pa.table({"code": arr}))
    assert df["code"].to_list() == [2692, None, 0, None, 19682]
    valid = np.array([2692, 0, 19682])
    for name in NAMES:
        to = "rank" if name == "convert" else None
        got, namespace = both(df, name, "base3", to)
        want = core(name, valid, "base3", to)
        assert got == namespace == [want[0], None, want[1], None, want[2]], name
    everything_null = pl.DataFrame({"code": pl.Series([None, None], dtype=pl.Int16)})
    assert both(everything_null, "decode") == ([None, None], [None, None])


def test_empty_columns_and_many_chunks():
    empty = pl.DataFrame({"code": pl.Series([], dtype=pl.Int32)})
    for name in NAMES:
        got, namespace = both(empty, name, "base3", "rank" if name == "convert" else None)
        assert got == namespace == []
    parts = [pl.DataFrame({"code": np.arange(i, 19683, 7)}) for i in range(7)]
    chunked = pl.concat(parts, rechunk=False)
    assert chunked["code"].n_chunks() == 7
    codes = chunked["code"].to_numpy()
    got, namespace = both(chunked, "board")
    assert got == namespace == core("board", codes, "base3")


def test_lazy_and_streaming_queries():
    rng = np.random.default_rng(1)
    codes = rng.integers(0, 19683, 200_000)
    lf = pl.DataFrame({"code": codes}).lazy()
    query = lf.select(
        "code",
        plugin(pl.col("code"), "status").alias("status"),
        plugin(pl.col("code"), "convert", "base3", "rank").alias("rank"),
        plugin(pl.col("code"), "decode").alias("cells"),
    ).filter(pl.col("status") >= 0).group_by("status").agg(pl.len(), pl.col("rank").max())
    schema = query.collect_schema()
    assert schema["status"] == pl.Int8 and schema["rank"] == pl.Int32
    eager = query.collect().sort("status")
    streaming = query.collect(engine="streaming").sort("status")
    assert eager.equals(streaming)
    status = t.status(codes, "base3")
    assert eager["len"].to_list() == [int((status == s).sum()) for s in range(4)]
    assert eager["status"].to_list() == [0, 1, 2, 3]


@pytest.mark.parametrize("values,dtype", [
    ([1.0, 2.0], "Float64"),
    ([1.0, 2.0], "Float32"),
    (["1", "2"], "String"),
    ([True, False], "Boolean"),
    ([None, None], "Null"),
])
def test_columns_that_are_not_integers_are_refused_naming_their_type(values, dtype):
    df = pl.DataFrame({"code": pl.Series(values, dtype=getattr(pl, dtype))})
    message = f"ttt.status('base3'): the codes must be integers, got {dtype}"
    assert message in error_of(df, plugin(pl.col("code"), "status"))
    assert message in error_of(df, batches(pl.col("code"), "status"))
    # The plugin refuses when the query is planned, before any data is read.
    with pytest.raises(Exception, match=message.replace("(", r"\(").replace(")", r"\)")):
        df.lazy().select(plugin(pl.col("code"), "status")).collect_schema()


def test_bad_encodings_are_refused_when_the_expression_is_built():
    with pytest.raises(ValueError, match="argument `encoding` must be one of"):
        plugin(pl.col("c"), "status", "base5")
    with pytest.raises(ValueError, match="argument `to` must be one of"):
        plugin(pl.col("c"), "convert", "rank", "boards")


def test_the_namespace_says_which_backend_it_runs(monkeypatch):
    df = pl.DataFrame({"code": [0, 2692, 19682]})
    try:
        td.register_polars(plugin=PLUGIN)
        assert td.polars_backend() == "plugin"
        assert "tictactoe_polars" in df.lazy().select(pl.col("code").ttt.status()).explain()
        monkeypatch.delenv(engines.POLARS_PLUGIN_ENV)
        td.register_polars()
        assert td.polars_backend() == "map_batches"
        assert "tictactoe_polars" not in df.lazy().select(pl.col("code").ttt.status()).explain()
        monkeypatch.setenv(engines.POLARS_PLUGIN_ENV, PLUGIN)
        td.register_polars()
        assert td.polars_backend() == "plugin"
        assert df.select(pl.col("code").ttt.board("base3"))["code"].to_list()[1] == "X.O..O.X."
        with pytest.raises(FileNotFoundError, match="argument `plugin`: no plugin library at"):
            td.register_polars(plugin="/nonexistent/libtictactoe_polars.so")
        monkeypatch.setenv(engines.POLARS_PLUGIN_ENV, "/nonexistent/lib.so")
        with pytest.raises(FileNotFoundError, match=f"environment variable {engines.POLARS_PLUGIN_ENV}"):
            td.register_polars()
    finally:
        td.register_polars(plugin=PLUGIN)
