"""The library's per-code functions inside the engines, on whole Arrow batches (no per-row
Python): a Polars expression namespace ``ttt``, DuckDB functions and SQL macros, Spark column
functions, and ``.ttt`` files read in place (``read_ttt``: a streamed Arrow scan;
``spark_read_ttt``: split by block among Spark's tasks). See ``docs/data.md``, "Functions
inside the engines".

Every function takes a column of integer codes and the name of their encoding (default
``base3``) and gives what the core function of the same name gives for them
(``tictactoe_rs.status`` etc.), including its -1 (or 0xFFFF) for a code that is not a
reachable position. A null gives a null. A column that does not hold integers (float, string,
bool) is a ``TypeError``, a code outside its encoding's range a ``DataError``, each naming
the function; never a truncated or wrapped value. ``is_valid`` alone answers ``False`` for
any integer that is not a code, since that is its question.

Engines are imported only by the functions that use them.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Literal, cast

import numpy as np
import numpy.typing as npt

import tictactoe_rs as t
from tictactoe_rs import _native
from tictactoe_rs._types import Encoding
from tictactoe_rs.data import _tables as tb
from tictactoe_rs.data._io import DataError, spark_driver_python

Kernel = Callable[[npt.NDArray[Any], Encoding], npt.NDArray[Any]]


@dataclass(frozen=True)
class Function:
    """One function of the engines: its kernel (numpy codes and encoding to numpy answers),
    the answer's type (a numpy dtype name; ``cells`` for the nine int8 cells, ``board`` for
    the nine-character string), whether codes out of range are an error, and its sentinel
    test: whether an answer holds the kernel's answer for a non-position (which a code out of
    range also gets), so the range is checked only then (``None``: always)."""

    kernel: Kernel
    dtype: str
    checked: bool = True
    doc: str = ""
    sentinel: Callable[[npt.NDArray[Any]], bool] | None = None


def _as_is(f: Callable[..., Any]) -> Kernel:
    return lambda c, e: f(c, e)


def _widen(f: Callable[..., Any], dtype: str) -> Kernel:
    return lambda c, e: f(c, e).astype(dtype)


_BOARD_CHARS = np.frombuffer(b".XO", np.uint8)


def _board(codes: npt.NDArray[Any], encoding: Encoding) -> npt.NDArray[Any]:
    cells = t.decode(codes, encoding)
    # Every code is in range (checked), so every cell is 0, 1 or 2 ... except the -1 row of a
    # code with a hole in its encoding (base4, bitboards, oriented): '?' there.
    chars = np.where(cells >= 0, _BOARD_CHARS[np.clip(cells, 0, 2)], ord("?")).astype(np.uint8)
    return np.ascontiguousarray(chars).view("S9").reshape(-1)


def _negative(out: npt.NDArray[Any]) -> bool:
    return bool(out.size) and bool(out.min() < 0)


def _false(out: npt.NDArray[Any]) -> bool:
    return not bool(out.all())


def _equal(value: int) -> Callable[[npt.NDArray[Any]], bool]:
    return lambda out: bool(out.size) and bool(out.max() == value)


#: The functions, by name (the Polars method, the DuckDB and Spark names are ``ttt_NAME``).
FUNCTIONS: dict[str, Function] = {
    "is_valid": Function(_as_is(t.is_valid), "bool", checked=False,
                         doc="whether the integer is a code of the encoding"),
    "is_position": Function(_as_is(t.is_position), "bool", sentinel=_false, doc="whether it is a reachable position"),
    "violations": Function(_widen(t.violations, "int16"), "int16", sentinel=_equal(255),
                           doc="the rules broken, bit flags (0 for positions, 255 not a grid)"),
    "status": Function(_as_is(t.status), "int8", sentinel=_negative, doc="0 ongoing, 1 X won, 2 O won, 3 draw; -1"),
    "winner": Function(_as_is(t.winner), "int8", sentinel=_negative, doc="0 nobody (yet), 1 X, 2 O; -1"),
    "to_move": Function(_as_is(t.to_move), "int8", sentinel=_negative, doc="1 X, 2 O, 0 game over; -1"),
    "legal_moves": Function(_widen(t.legal_moves, "int32"), "int32", sentinel=_equal(0xFFFF),
                           doc="mask of cells; 65535"),
    "value": Function(_as_is(t.value), "int8", sentinel=_negative, doc="perfect play: 1 X wins, 2 O wins, 3 draw; -1"),
    "distance": Function(_as_is(t.distance), "int8", sentinel=_negative, doc="moves to the end under perfect play; -1"),
    "best_moves": Function(_widen(t.best_moves, "int32"), "int32", sentinel=_equal(0xFFFF),
                          doc="mask of best cells; 65535"),
    "canonical": Function(_as_is(t.canonical), "int32", sentinel=_negative, doc="symmetry class (canonical code); -1"),
    "symmetry": Function(_as_is(t.symmetry_of), "int8", sentinel=_negative,
                         doc="symmetry from the class representative; -1"),
    "decode": Function(_as_is(t.decode), "cells", doc="the nine cells (0 empty, 1 X, 2 O)"),
    "board": Function(_board, "board", doc="nine characters '.', 'X', 'O', as positions.board"),
}

#: The types of the answers in Spark.
_SPARK = {"bool": "boolean", "int8": "byte", "int16": "short", "int32": "int",
          "cells": "array<byte>", "board": "string"}


def _pa() -> Any:
    import pyarrow

    return pyarrow


def _encoding(encoding: str, argument: str = "encoding") -> Encoding:
    if encoding not in t.ENCODINGS:
        raise ValueError(f"argument `{argument}` must be one of {', '.join(map(repr, t.ENCODINGS))}, got {encoding!r}")
    return cast(Encoding, encoding)


def check_range(codes: npt.NDArray[Any], encoding: str, where: str) -> None:
    """A ``DataError`` naming ``where`` and the first code outside ``0 .. CODE_RANGE - 1``."""
    if not len(codes):
        return
    limit = tb.CODE_RANGE[encoding]
    if codes.min() < 0 or codes.max() >= limit:
        i = int(np.flatnonzero((codes < 0) | (codes >= limit))[0])
        raise DataError(
            f"{where}: item {i} of the batch: {int(codes[i])} is not a {encoding} code (0 to {limit - 1:,})"
        )


def compute(name: str, values: Any, encoding: str = "base3", to: str | None = None) -> Any:
    """Function ``name`` (``FUNCTIONS``, or ``convert`` with ``to``) of an Arrow array of codes
    (any integer type, nulls allowed) as an Arrow array: the kernel every engine runs."""
    pa = _pa()
    enc = _encoding(encoding)
    where = f"ttt.{name}({encoding!r}{', ' + repr(to) if to else ''})"
    if isinstance(values, pa.ChunkedArray):
        values = values.combine_chunks()
    if not pa.types.is_integer(values.type):
        raise TypeError(f"{where}: the codes must be integers, got {values.type} (never truncated to codes)")
    mask = None
    if values.null_count:
        mask = values.is_null().to_numpy(zero_copy_only=False)
        values = values.fill_null(0)
    codes = values.to_numpy()
    if name == "convert":
        target = _encoding(cast(str, to), "to")
        converted = t.convert(codes, enc, target)
        if _negative(converted):
            check_range(codes, enc, where)
        return pa.array(converted, mask=mask)
    if name not in FUNCTIONS:
        raise ValueError(f"unknown function {name!r} (one of {', '.join([*FUNCTIONS, 'convert'])})")
    f = FUNCTIONS[name]
    if f.checked and f.sentinel is None:
        check_range(codes, enc, where)
    out = f.kernel(codes, enc)
    if f.checked and f.sentinel is not None and f.sentinel(out):
        check_range(codes, enc, where)
    if f.dtype == "cells":
        flat = pa.array(np.ascontiguousarray(out).reshape(-1))
        return pa.FixedSizeListArray.from_arrays(flat, 9, mask=None if mask is None else pa.array(mask))
    if f.dtype == "board":
        return pa.array(out.astype(str), pa.string(), mask=mask)
    return pa.array(out, mask=mask)


# ---------------------------------------------------------------------------------------------
# Polars

#: The environment variable ``register_polars`` reads the compiled plugin's path from when it
#: is given none (``scripts/polars-plugin`` builds the plugin and prints the path).
POLARS_PLUGIN_ENV = "TICTACTOE_POLARS_PLUGIN"

#: The plugin the ``ttt`` namespace calls (``None``: ``map_batches``), once registered.
_polars_namespace: tuple[str | None] | None = None

_POLARS_TYPES = {"bool": "Boolean", "int8": "Int8", "int16": "Int16", "int32": "Int32", "board": "String"}


def _polars_where(name: str, encoding: str, to: str | None) -> str:
    return f"ttt.{name}({encoding!r}{', ' + repr(to) if to else ''})"


def _polars_dtype(name: str) -> Any:
    import polars as pl

    if name == "convert":
        return pl.Int32
    kind = FUNCTIONS[name].dtype
    return pl.Array(pl.Int8, 9) if kind == "cells" else getattr(pl, _POLARS_TYPES[kind])


def _batches_expr(expr: Any, name: str, encoding: str, to: str | None = None) -> Any:
    """Function ``name`` of the codes of ``expr`` through ``map_batches``: ``compute`` on each
    batch (elementwise, so it streams and parallelises as Polars likes)."""
    import polars as pl

    _encoding(encoding)
    if to is not None:
        _encoding(to, "to")
    where = _polars_where(name, encoding, to)

    def run(s: Any) -> Any:
        if not s.dtype.is_integer():
            raise TypeError(f"{where}: the codes must be integers, got {s.dtype} (never truncated to codes)")
        return pl.Series(s.name, compute(name, s.to_arrow(), encoding, to))

    return expr.map_batches(run, return_dtype=_polars_dtype(name), is_elementwise=True)


def _plugin_expr(expr: Any, name: str, encoding: str, to: str | None, plugin: str) -> Any:
    """Function ``name`` of the codes of ``expr`` in the compiled plugin at path ``plugin``
    (``_polars_plugin_NAME``, the encodings as keyword arguments)."""
    from polars.plugins import register_plugin_function

    _encoding(encoding)
    kwargs = {"encoding": encoding}
    if to is not None:
        kwargs["to"] = _encoding(to, "to")
    return register_plugin_function(
        plugin_path=plugin, function_name=name, args=expr, kwargs=kwargs, is_elementwise=True
    )


def _installed_plugin() -> str | None:
    """The plugin of the ``tictactoe-rs-polars`` wheel, if installed."""
    try:
        import tictactoe_rs_polars
    except ImportError:
        return None
    return str(tictactoe_rs_polars.PLUGIN)


def register_polars(plugin: str | os.PathLike[str] | None = None) -> None:
    """Registers the expression namespace ``ttt`` (``pl.col("code").ttt.status("base3")``).

    ``plugin``: the compiled expression plugin (``extensions/polars/``, built by ``scripts/polars-plugin``,
    which prints its path); default the path in the environment variable
    ``TICTACTOE_POLARS_PLUGIN``, if set, else the plugin of the ``tictactoe-rs-polars`` wheel
    (``tictactoe_rs_polars.PLUGIN``), if installed. With it, each method runs the plugin's Rust inside
    Polars' engine (``polars.plugins.register_plugin_function``); without it, ``compute`` on
    each batch through ``map_batches``. The answers, types, nulls and errors are the same.
    ``polars_backend()`` says which is in use. Registering again with the same plugin (or none)
    does nothing; with another, replaces the namespace."""
    global _polars_namespace
    path = os.fspath(plugin) if plugin is not None else os.environ.get(POLARS_PLUGIN_ENV) or _installed_plugin()
    if path is not None and not os.path.isfile(path):
        source = "argument `plugin`" if plugin is not None else f"environment variable {POLARS_PLUGIN_ENV}"
        raise FileNotFoundError(f"{source}: no plugin library at {path!r} (scripts/polars-plugin builds it)")
    if path is not None:
        path = os.path.abspath(path)  # the queries may run after a change of directory
    if _polars_namespace == (path,):
        return
    import warnings

    import polars as pl

    def expression(expr: Any, name: str, encoding: str, to: str | None = None) -> Any:
        if path is None:
            return _batches_expr(expr, name, encoding, to)
        return _plugin_expr(expr, name, encoding, to, path)

    def method(name: str) -> Any:
        def call(self: Any, encoding: str = "base3") -> Any:
            return expression(self._expr, name, encoding)

        call.__name__ = name
        call.__doc__ = f"{FUNCTIONS[name].doc} (codes of `encoding`)"
        return call

    def convert(self: Any, encoding: str, to: str) -> Any:
        """Codes of ``encoding`` as codes of ``to`` (-1 where ``to`` cannot hold the board)."""
        return expression(self._expr, "convert", encoding, to)

    def init(self: Any, expr: Any) -> None:
        self._expr = expr

    namespace = type(
        "TttNamespace",
        (),
        {"__init__": init, "convert": convert, **{name: method(name) for name in FUNCTIONS}},
    )
    with warnings.catch_warnings():
        # Replacing our own namespace (another backend) is what was asked for.
        warnings.filterwarnings("ignore", "overriding existing custom namespace 'ttt'", UserWarning)
        pl.api.register_expr_namespace("ttt")(namespace)
    _polars_namespace = (path,)


def polars_backend() -> Literal["plugin", "map_batches"] | None:
    """What the ``ttt`` namespace runs: ``"plugin"`` (the compiled plugin), ``"map_batches"``
    (``compute`` per batch), or ``None`` before ``register_polars``."""
    if _polars_namespace is None:
        return None
    return "map_batches" if _polars_namespace[0] is None else "plugin"


# ---------------------------------------------------------------------------------------------
# DuckDB

#: SQL macros for the common questions, over the functions (DuckDB).
DUCKDB_MACROS = {
    "ttt_status_name": "(code, encoding := 'base3') AS "
    "['ongoing', 'x-won', 'o-won', 'draw'][ttt_status(code, encoding) + 1]",
    "ttt_value_name": "(code, encoding := 'base3') AS "
    "[NULL, 'x-wins', 'o-wins', 'draw'][ttt_value(code, encoding) + 1]",
    "ttt_is_over": "(code, encoding := 'base3') AS ttt_status(code, encoding) > 0",
    "ttt_ply": "(code, encoding := 'base3') AS "
    "CAST(length(replace(ttt_board(code, encoding), '.', '')) AS TINYINT)",
    "ttt_blunder": "(code, next_code, encoding := 'base3') AS "
    "ttt_value(code, encoding) <> ttt_value(next_code, encoding)",
}


#: The functions the loadable extension (``extensions/duckdb/``) provides natively.
EXTENSION_FUNCTIONS = (
    "is_valid", "is_position", "violations", "status", "winner", "to_move", "legal_moves",
    "value", "distance", "best_moves", "canonical", "symmetry",
)


def register_duckdb(con: Any, extension: str | os.PathLike[str] | None = None) -> Any:
    """Registers the functions on DuckDB connection ``con`` (and returns it):
    ``ttt_NAME(code, encoding := 'base3')`` for every name of ``FUNCTIONS``,
    ``ttt_convert(code, encoding, to_encoding)``, and the macros of ``DUCKDB_MACROS``.

    ``extension``: the loadable extension built by ``scripts/duckdb-extension`` (or installed
    with the ``tictactoe-rs-duckdb`` wheel: ``tictactoe_rs_duckdb.EXTENSION``), loaded into
    ``con`` (which must allow unsigned extensions: ``duckdb.connect(config={"allow_unsigned_extensions": "true"})``);
    it gives ``EXTENSION_FUNCTIONS`` natively and the table function ``read_ttt(path)``
    (``read_ttt(path, salvage := true)`` skips damaged blocks, as ``ttt unpack --salvage``).
    Without it, and for the other functions, each is a SQL macro that looks the answer up in
    a list built from the native module's tables (``__ttt_tables``, one row, about 2 MB):
    DuckDB runs it natively on its vectors, with no Python during the query. Either way the
    code's type is checked (integers only), its range too (an error naming the function and
    the code), and a null gives a null."""
    native: tuple[str, ...] = ()
    if extension:
        con.execute(f"LOAD {_sql_str(os.fspath(extension))}")
        native = EXTENSION_FUNCTIONS
    pa = _pa()
    grids = _GRIDS
    columns: dict[str, Any] = {}
    for enc in t.ENCODINGS:
        if enc != "base3":
            grid = t.convert(np.arange(tb.CODE_RANGE[enc]), cast(Encoding, enc), "base3")
            columns[f"grid_{_sql_name(enc)}"] = pa.array([np.where(grid < 0, len(grids) - 1, grid).astype(np.int16)])
        columns[f"to_{_sql_name(enc)}"] = pa.array([t.convert(grids, "base3", cast(Encoding, enc))])
    for name, f in FUNCTIONS.items():
        out = f.kernel(grids, "base3")
        if f.dtype == "cells":
            cells = pa.FixedSizeListArray.from_arrays(pa.array(out.reshape(-1)), 9)
            columns[name] = pa.ListArray.from_arrays(pa.array([0, len(cells)], pa.int32()), cells)
        elif f.dtype == "board":
            columns[name] = pa.array([out.astype(str).tolist()])
        else:
            columns[name] = pa.array([out])
    con.register("__ttt_tables_arrow", pa.table(columns))
    con.execute("CREATE OR REPLACE TEMP TABLE __ttt_tables AS SELECT * FROM __ttt_tables_arrow")
    con.unregister("__ttt_tables_arrow")
    for name in FUNCTIONS:
        if name in native:
            continue
        con.execute(
            f"CREATE OR REPLACE TEMP MACRO ttt_{name}(code, encoding := 'base3') AS "
            f"(SELECT {name} FROM __ttt_tables)[{_grid_sql('code', 'encoding', name)} + 1]"
        )
    targets = " ".join(
        f"WHEN to_encoding = '{enc}' THEN (SELECT to_{_sql_name(enc)} FROM __ttt_tables)" for enc in t.ENCODINGS
    )
    con.execute(
        "CREATE OR REPLACE TEMP MACRO ttt_convert(code, encoding, to_encoding) AS "
        f"(CASE {targets} ELSE error({_sql_str(_choices('to'))} || to_encoding) END)"
        f"[{_grid_sql('code', 'encoding', 'convert')} + 1]"
    )
    for name, body in DUCKDB_MACROS.items():
        con.execute(f"CREATE OR REPLACE TEMP MACRO {name}{body}")
    return con


#: Every grid index, and the one of "not a grid" (19,683).
_GRIDS = np.arange(tb.CODE_RANGE["base3"] + 1)


def _sql_name(encoding: str) -> str:
    return encoding.replace("-", "_")


def _sql_str(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _choices(argument: str) -> str:
    return f"argument `{argument}` must be one of {', '.join(map(repr, t.ENCODINGS))}, got "


#: DuckDB's integer types (``typeof``), and ``NULL`` for an untyped null literal.
_DUCKDB_INTEGERS = (
    "TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT",
    "UTINYINT", "USMALLINT", "UINTEGER", "UBIGINT", "UHUGEINT", "NULL",
)


def _grid_sql(code: str, encoding: str, name: str) -> str:
    """SQL: the grid index (0 to 19,683, the last for a code that is not a grid) of ``code``
    in ``encoding`` (a constant: DuckDB folds the choice), or an error naming the function
    for a column that does not hold integers, a code out of range (``is_valid``: the last
    index) or an unknown encoding."""
    ints = ", ".join(f"'{x}'" for x in _DUCKDB_INTEGERS)
    value = f"CAST({code} AS BIGINT)"
    branches = []
    for enc in t.ENCODINGS:
        limit = tb.CODE_RANGE[enc]
        lookup = value if enc == "base3" else f"(SELECT grid_{_sql_name(enc)} FROM __ttt_tables)[{value} + 1]"
        message = f"'ttt.{name}(''{enc}''): ' || {code} || ' is not a {enc} code (0 to {limit - 1:,})'"
        outside = f"error({message})" if FUNCTIONS.get(name, FUNCTIONS["status"]).checked else str(len(_GRIDS) - 1)
        branches.append(
            f"WHEN {encoding} = '{enc}' THEN CASE WHEN {value} >= 0 AND {value} < {limit} "
            f"THEN {lookup} ELSE {outside} END"
        )
    return (
        f"(CASE WHEN typeof({code}) NOT IN ({ints}) "
        f"THEN error('ttt.{name}: the codes must be integers, got ' || typeof({code})) "
        f"WHEN {code} IS NULL THEN NULL "
        + " ".join(branches)
        + f" ELSE error({_sql_str(_choices('encoding'))} || {encoding}) END)"
    )


# ---------------------------------------------------------------------------------------------
# .ttt files read in place


def read_ttt_schema() -> Any:
    pa = _pa()
    return pa.schema([pa.field("record", pa.int64(), nullable=False), tb.code_field("base3", "base3")])


def read_ttt(path: str | os.PathLike[str], salvage: bool = False) -> Any:
    """A ``.ttt`` file as a ``pyarrow.RecordBatchReader`` of ``(record, base3)``, one batch
    per block read when the engine asks for it: memory is one block whatever the file's size.
    DuckDB scans it by name (``SELECT ... FROM reader``, a replacement scan) or after
    ``con.register``; a reader is consumed by one scan, so make one per query. Damage is a
    ``ValueError`` naming the file and block (``salvage=True`` skips damaged blocks)."""
    pa = _pa()
    reader = _native.TttReader(os.fspath(path), salvage)
    schema = read_ttt_schema()

    def batches() -> Iterator[Any]:
        while (block := reader.read_block()) is not None:
            first, codes = block
            record = np.arange(first, first + len(codes), dtype=np.int64)
            yield pa.RecordBatch.from_arrays([pa.array(record), pa.array(codes.astype(np.int16))], schema=schema)

    return pa.RecordBatchReader.from_batches(schema, batches())


# ---------------------------------------------------------------------------------------------
# Spark


def spark_function(name: str, column: Any, encoding: str = "base3", to: str | None = None) -> Any:
    """Function ``name`` (``FUNCTIONS``, or ``convert`` with ``to``) of a Spark column of codes,
    as an Arrow-batched UDF (``arrow_udf``: ``compute`` on each Arrow batch)."""
    from pyspark.sql.functions import arrow_udf
    from pyspark.sql.pandas.functions import ArrowUDFType

    spark_driver_python()
    _encoding(encoding)
    if name == "convert":
        _encoding(cast(str, to), "to")
        dtype = "int"
    elif name in FUNCTIONS:
        dtype = _SPARK[FUNCTIONS[name].dtype]
    else:
        raise ValueError(f"unknown function {name!r} (one of {', '.join([*FUNCTIONS, 'convert'])})")

    def run(codes: Any) -> Any:
        out = compute(name, codes, encoding, to)
        # Spark has no fixed-size lists: the nine cells as a list
        return out.cast(_pa().list_(_pa().int8())) if name == "decode" else out

    return arrow_udf(run, dtype, ArrowUDFType.SCALAR)(column).alias(f"ttt_{name}")


def spark_read_ttt(spark: Any, path: str | os.PathLike[str], blocks_per_task: int = 64) -> Any:
    """A ``.ttt`` file as a Spark DataFrame ``(record, base3)``, split by block: one row per
    range of ``blocks_per_task`` blocks, each range read by its task (``mapInArrow``) from its
    own offset. ``path`` must be readable at the same name by every executor (shared storage).
    Every block is checked; damage fails the job with a message naming the file and block."""
    spark_driver_python(spark)
    name = os.fspath(path)
    _, _, _, blocks = _native.ttt_layout(name)
    per = max(1, int(blocks_per_task))
    ranges = spark.range(0, max(blocks, 1), per, numPartitions=max(1, (blocks + per - 1) // per))

    def read(batches: Iterator[Any]) -> Iterator[Any]:
        pa = _pa()
        schema = read_ttt_schema()
        for batch in batches:
            for start in batch.column(0).to_pylist():
                first, codes = _native.read_ttt_blocks(name, start, per)
                record = np.arange(first, first + len(codes), dtype=np.int64)
                yield pa.RecordBatch.from_arrays([pa.array(record), pa.array(codes.astype(np.int16))], schema=schema)

    return ranges.mapInArrow(read, "record long, base3 short")


def spark_bucket_states(states: Any, table: str, buckets: int) -> Any:
    """Writes a states DataFrame ``(game, ply, rank)`` as table ``table`` bucketed by ``game``
    and sorted by ``(game, ply)`` (``bucketBy``/``sortBy``) and returns it read back: a window
    by game over it needs no shuffle (``spark_blunders``)."""
    spark_driver_python(states.sparkSession)
    (
        states.write.mode("overwrite")
        .bucketBy(buckets, "game")
        .sortBy("game", "ply")
        .saveAsTable(table)
    )
    return states.sparkSession.table(table)


def spark_blunders(bucketed: Any) -> Any:
    """The per-ply blunder rate (``recipes.SQL["blunders"]``) over a table written by
    ``spark_bucket_states``: each state's successor by a window by game (no shuffle: the
    buckets already hold each game whole), its value by ``ttt_value`` on the rank column."""
    from pyspark.sql import Window
    from pyspark.sql import functions as F

    w = Window.partitionBy("game").orderBy("ply")
    value = spark_function("value", F.col("rank"), "rank")
    moves = (
        bucketed.withColumn("value", value)
        .withColumn("next_value", F.lead("value").over(w))
        .where(F.col("next_value").isNotNull())
    )
    blunder = (F.col("value") != F.col("next_value")).cast("int")
    return (
        moves.groupBy("ply")
        .agg(
            F.count("*").alias("moves"),
            F.sum(blunder).cast("long").alias("blunders"),
            F.avg(blunder.cast("double")).alias("rate"),
        )
        .orderBy("ply")
    )
