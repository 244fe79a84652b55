"""Files: the tables as Parquet, `.ttt` to Parquet and back, self-play to Parquet, `.ttt`
blocks as rows and the Arrow batch function that unpacks them."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import numpy as np
import numpy.typing as npt

import tictactoe_rs as t
from tictactoe_rs import _native
from tictactoe_rs._types import Encoding, Packing
from tictactoe_rs.data import _card
from tictactoe_rs.data import _tables as tb
from tictactoe_rs.data._atomic import _Atomic

PathLike = str | os.PathLike[str]


class DataError(ValueError):
    """A file that is not what it must be; the message names the file and what is wrong."""


#: Schema metadata of ``ttt_to_parquet``'s files: the packing of the source ``.ttt`` file,
#: the default packing of ``parquet_to_ttt``.
KEY_SOURCE_ENCODING = b"tictactoe.source_encoding"
#: Schema metadata of a file written from a damaged ``.ttt`` file (``salvage=True``): what was
#: lost, one line per loss as ``ttt unpack --salvage`` reports it, then the total.
KEY_SALVAGE = b"tictactoe.salvage"

#: Rows per row group of every file this module writes (the last row group holds the rest):
#: row groups of even size, so that engines split the work evenly.
ROW_GROUP_SIZE = 1 << 20

#: Conversions that lose information, each refused unless asked for by name (``lossy=``):
#: the name, and what is lost.
LOSSY = {
    "canonical": "canonical codes hold the symmetry class only, not the board's orientation",
    "salvaged": "the file was salvaged from a damaged .ttt file and has records missing",
}


def _pa() -> Any:
    import pyarrow

    return pyarrow


def _pq() -> Any:
    import pyarrow.parquet

    return pyarrow.parquet


# ---------------------------------------------------------------------------------------------
# Atomic writes


def parquet_options(compression: str = "zstd") -> dict[str, Any]:
    """The ``ParquetWriter`` options of every Parquet file this module writes:
    ``compression`` and a CRC on every page (``write_page_checksum``; ``read_parquet``
    verifies them). Row groups are of ``ROW_GROUP_SIZE`` rows (``write_table``'s
    ``row_group_size``)."""
    return {"compression": compression, "write_page_checksum": True}


def write_parquet(table: Any, path: PathLike, compression: str = "zstd", **kwargs: Any) -> None:
    """``pyarrow.parquet.write_table`` with ``parquet_options`` (page checksums, row groups of
    ``ROW_GROUP_SIZE``) to a temporary file, renamed into place when complete."""
    atomic = _Atomic(path)
    try:
        options = {**parquet_options(compression), "row_group_size": ROW_GROUP_SIZE, **kwargs}
        _pq().write_table(table, atomic.tmp, **options)
        atomic.commit()
    except BaseException:
        atomic.discard()
        raise


def open_parquet(path: PathLike) -> Any:
    """A ``pyarrow.parquet.ParquetFile`` that verifies every page's checksum as it reads
    (pages written without one are read unchecked); a file that is not Parquet is a
    ``DataError`` naming it."""
    try:
        return _pq().ParquetFile(path, page_checksum_verification=True)
    except OSError as error:
        if isinstance(error, FileNotFoundError) or not os.path.exists(path):
            raise OSError(f"{path}: {error.strerror or error}") from error
        raise DataError(f"{path}: not a Parquet file ({error})") from error
    except Exception as error:  # pyarrow's ArrowInvalid for a file that is not Parquet
        raise DataError(f"{path}: not a Parquet file ({error})") from error


def _damaged(path: PathLike, where: str, error: Exception) -> DataError:
    return DataError(f"{path}: {where} is damaged ({error})")


def read_parquet(path: PathLike, columns: list[str] | None = None) -> Any:
    """A Parquet file as an Arrow table, every page's checksum verified: a damaged page is a
    ``DataError`` naming the file and the row group, never wrong records."""
    pf = open_parquet(path)
    tables = []
    for group in range(pf.num_row_groups):
        try:
            tables.append(pf.read_row_group(group, columns=columns))
        except (OSError, ValueError) as error:
            raise _damaged(path, f"row group {group}", error) from error
    if not tables:
        return pf.schema_arrow.empty_table() if columns is None else pf.read(columns=columns)
    return _pa().concat_tables(tables)


def verify_parquet(path: PathLike) -> int:
    """Reads every page of a Parquet file, checksums verified, and returns its row count; a
    damaged page is a ``DataError`` naming the file and the row group. For the engines, which
    do not verify page checksums themselves: DuckDB 2.0 and Spark 4.3 (even with
    ``parquet.page.verify-checksum.enabled``) read a flipped bit as wrong values (tried)."""
    pf = open_parquet(path)
    rows = 0
    for group in range(pf.num_row_groups):
        try:
            rows += pf.read_row_group(group).num_rows
        except (OSError, ValueError) as error:
            raise _damaged(path, f"row group {group}", error) from error
    return rows


#: The dimension tables: name and maker.
DIMENSIONS = (
    ("positions", tb.positions), ("grids", tb.grids), ("games", tb.games),
    ("transitions", tb.transitions), ("game_facts", tb.game_facts),
)


def write_tables(outdir: PathLike, compression: str = "zstd", card: bool = True) -> list[Path]:
    """Writes the dimension tables (``DIMENSIONS``: ``positions.parquet``, ``grids.parquet``,
    ``games.parquet``, ``transitions.parquet``, ``game_facts.parquet``) into ``outdir``, and
    their dataset card ``_dataset_card.md`` (``card``)."""
    out = Path(outdir)
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, make in DIMENSIONS:
        path = out / f"{name}.parquet"
        write_parquet(make(), path, compression=compression)
        paths.append(path)
    if card:
        _card.write_card(
            out, [(p.name, make().schema, name) for p, (name, make) in zip(paths, DIMENSIONS)],
            _card.call("write_tables", outdir, compression=compression),
        )
    return paths


def duckdb_database(path: PathLike, card: bool = True) -> Path:
    """A DuckDB database file at ``path`` holding the dimension tables (``DIMENSIONS``) with
    a comment on every table and column (the dataset card's text), written to a temporary
    file and renamed into place; its dataset card beside it (``card``). Open it with
    ``duckdb.connect(path, read_only=True)``."""
    import duckdb

    target = Path(path)
    atomic = _Atomic(target)
    try:
        con = duckdb.connect(os.fspath(atomic.tmp))
        try:
            for name, make in DIMENSIONS:
                table = make()
                con.register("arrow_source", table)
                con.execute(f"CREATE TABLE {name} AS SELECT * FROM arrow_source")
                con.unregister("arrow_source")
                about = _card.ABOUT[name].replace("'", "''")
                con.execute(f"COMMENT ON TABLE {name} IS '{about}'")
                for column, meaning in _card.COLUMNS[name].items():
                    text = meaning.replace("'", "''")
                    con.execute(f"COMMENT ON COLUMN {name}.{column} IS '{text}'")
            con.execute("CHECKPOINT")
        finally:
            con.close()
        atomic.commit()
    except BaseException:
        atomic.discard()
        raise
    if card:
        _card.write_card(
            target, [(name, make().schema, name) for name, make in DIMENSIONS],
            _card.call("duckdb_database", path),
            notes=["A DuckDB database file (tables named as above); every table and column "
                   "carries this card's text as a comment (`duckdb_columns()`)"],
        )
    return target


# ---------------------------------------------------------------------------------------------
# Reading code columns with checks


def encoding_of(schema: Any, column: str, path: PathLike = "<table>") -> str:
    """The encoding recorded for ``column`` (field or schema metadata), or a ``DataError``."""
    if column not in schema.names:
        raise DataError(f"{path}: no column {column!r} (columns: {', '.join(schema.names)})")
    field = schema.field(column)
    enc = None
    if field.metadata and tb.KEY_ENCODING in field.metadata:
        enc = field.metadata[tb.KEY_ENCODING].decode()
    elif schema.metadata and (tb.KEY_ENCODING + b"." + column.encode()) in schema.metadata:
        enc = schema.metadata[tb.KEY_ENCODING + b"." + column.encode()].decode()
    if enc is None:
        raise DataError(
            f"{path}: column {column!r} has no encoding in its metadata "
            f"(key {tb.KEY_ENCODING.decode()!r}); pass encoding= to say which it is"
        )
    if enc not in tb.CODE_RANGE:
        raise DataError(f"{path}: column {column!r} has unknown encoding {enc!r}")
    return enc


def check_codes(
    values: Any, encoding: str, path: PathLike, column: str, first_row: int = 0
) -> npt.NDArray[np.int64]:
    """The codes of an Arrow array or numpy array as int64, or a ``DataError`` naming the file,
    the column and the first row that holds a null, a value out of range or, for encodings
    with holes (base4, bitboards, oriented), a value that is not a code."""
    pa = _pa()
    if isinstance(values, (pa.Array, pa.ChunkedArray)):
        if not pa.types.is_integer(values.type):
            # A float, string or boolean column is never cast into codes.
            raise DataError(f"{path}: column {column!r} has type {values.type}, not an integer type")
        if values.null_count:
            arr = values.to_numpy(zero_copy_only=False)
            row = int(np.flatnonzero(np.isnan(arr.astype(float)))[0])
            raise DataError(f"{path}: column {column!r} row {first_row + row} is null")
        values = values.to_numpy()
    array = np.asarray(values)
    if array.dtype.kind not in "iu":
        # A float or bool is never silently truncated into a code.
        raise TypeError(
            f"argument `values` ({path}: column {column!r}) must hold integers, got dtype {array.dtype}"
        )
    limit = tb.CODE_RANGE[encoding]
    bad = (array < 0) | (array >= limit)
    if encoding in ("base4", "bitboards", "oriented") and not bad.any():
        bad = ~t.is_valid(array, cast(Encoding, encoding))
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        raise DataError(
            f"{path}: column {column!r} row {first_row + row}: {int(array[row])} is not a "
            f"{encoding} code (0 to {limit - 1:,})"
        )
    return array.astype(np.int64, copy=False)


def read_codes(path: PathLike, column: str, encoding: str | None = None) -> Iterator[npt.NDArray[np.int64]]:
    """Streams a code column of a Parquet file row group by row group (bounded memory),
    checked: page checksums, nulls, types and codes."""
    pf = open_parquet(path)
    schema = pf.schema_arrow
    enc = encoding or encoding_of(schema, column, path)
    if column not in schema.names:
        raise DataError(f"{path}: no column {column!r} (columns: {', '.join(schema.names)})")
    row = 0
    for group in range(pf.num_row_groups):
        try:
            values = pf.read_row_group(group, columns=[column]).column(0)
        except (OSError, ValueError) as error:
            raise _damaged(path, f"row group {group}", error) from error
        codes = check_codes(values, enc, path, column, row)
        row += len(codes)
        yield codes if enc == "base3" else t.convert(codes, cast(Encoding, enc), "base3").astype(np.int64)


# ---------------------------------------------------------------------------------------------
# .ttt <-> Parquet

TTT_ENCODINGS = ("base4", "base3", "count-rank", "rank", "mixed-radix")


def _code_encoding_for(ttt_encoding: str) -> str:
    """The column encoding that holds what a ``.ttt`` encoding holds."""
    return {"mixed-radix": "rank"}.get(ttt_encoding, ttt_encoding)


def _with_file_metadata(path: PathLike) -> Any:
    """The Arrow schema of a Parquet file with all of the file's key-value metadata."""
    pf = _pq().ParquetFile(path)
    meta = {k: v for k, v in (pf.metadata.metadata or {}).items() if k != b"ARROW:schema"}
    return pf.schema_arrow.with_metadata(meta)


@dataclass(frozen=True)
class Converted:
    """What ``ttt_to_parquet`` wrote: ``records`` rows; for a salvaging read, ``lost`` (one
    message per lost range, as ``ttt unpack --salvage`` prints them), ``lost_records`` and
    ``lost_known`` (``False`` when the end of a loss is unknown, so the total is a lower
    bound)."""

    records: int
    lost: tuple[str, ...] = ()
    lost_records: int = 0
    lost_known: bool = True

    @property
    def damaged(self) -> bool:
        return bool(self.lost)

    def summary(self) -> str:
        """``salvaged N records, lost M``: the last line of ``ttt unpack --salvage``."""
        lost = (
            str(self.lost_records) if self.lost_known
            else "unknown" if self.lost_records == 0
            else f"at least {self.lost_records} (the rest unknown)"
        )
        return f"salvaged {self.records} records, lost {lost}"



def spark_driver_python(spark: Any = None) -> None:
    """Runs the Python workers of a local Spark master on the driver's interpreter
    (``sys.executable``), which has tictactoe_rs and numpy, instead of PySpark's default
    ``python3`` from ``PATH``. Every Spark helper of ``tictactoe_rs.data`` calls it before it
    builds a Python function. An explicit choice wins: ``PYSPARK_PYTHON``, the conf
    ``spark.pyspark.python``, or a ``pythonExec`` already changed from the default; a cluster
    master (``yarn``, ``spark://``, ``k8s://``) is left alone: there, install the wheel on the
    executors and set ``PYSPARK_PYTHON``. ``spark`` is a session (default: the active one)."""
    if spark is None:
        from pyspark import SparkContext

        context = SparkContext._active_spark_context
    else:
        context = spark.sparkContext
    if context is None or "PYSPARK_PYTHON" in os.environ:
        return
    if context.getConf().get("spark.pyspark.python") or context.pythonExec != "python3":
        return
    if str(context.master).startswith("local"):
        context.pythonExec = sys.executable

def refuse_lossy(path: PathLike, what: str, lossy: str | None) -> None:
    """A ``DataError`` naming the file unless the loss ``what`` (a key of ``LOSSY``) was
    asked for by name (``lossy``)."""
    if lossy is not None and lossy not in LOSSY:
        raise ValueError(f"argument `lossy` must be one of {', '.join(map(repr, LOSSY))}, got {lossy!r}")
    if lossy != what:
        raise DataError(
            f"{path}: refusing a lossy conversion: {LOSSY[what]}; "
            f"pass lossy={what!r} (--lossy {what}) to ask for it"
        )


def ttt_to_parquet(
    src: PathLike,
    dst: PathLike,
    code: str | None = None,
    compression: str = "zstd",
    salvage: bool = False,
    lossy: str | None = None,
    record_index: bool | None = None,
    card: bool = True,
) -> Converted:
    """Copies the records of ``.ttt`` file ``src`` into Parquet file ``dst``: one column named
    after its encoding (``code``, default: the file's own, ``rank`` for mixed-radix), row
    groups of ``ROW_GROUP_SIZE`` records with page checksums, written block by block (memory:
    one row group) and renamed into place when complete. A damaged file raises ``ValueError``
    naming it and the block.

    ``salvage=True`` skips damaged blocks instead and reports what was lost in the result
    (and in the file's metadata, key ``tictactoe.salvage``); it adds a ``record`` column (int64,
    ``record_index``) holding each record's place in the source, so that lost and reordered
    records show. ``code="canonical"`` loses the orientation: refused unless
    ``lossy="canonical"``. The dataset card is written beside ``dst`` (``card``)."""
    pa = _pa()
    reader = _native.TttReader(os.fspath(src), salvage)
    enc = code or _code_encoding_for(reader.encoding)
    if enc not in tb.CODE_RANGE or enc in ("game", "prefix"):
        raise ValueError(f"argument `code` must be a board encoding, got {enc!r}")
    if enc in LOSSY:
        refuse_lossy(src, enc, lossy)
    with_index = salvage if record_index is None else record_index
    column = enc.replace("-", "_")
    field = tb.code_field(column, enc)
    fields = ([pa.field("record", pa.int64(), nullable=False)] if with_index else []) + [field]
    schema = pa.schema(fields)
    meta = tb.table_metadata("records", schema)
    meta[KEY_SOURCE_ENCODING] = reader.encoding.encode()
    schema = schema.with_metadata(meta)
    atomic = _Atomic(dst)
    count = 0
    pending: list[Any] = []
    pending_rows = 0

    def flush(writer: Any, rows: int) -> None:
        nonlocal pending, pending_rows
        table = pa.Table.from_batches(pending, schema=schema)
        writer.write_table(table.slice(0, rows), row_group_size=ROW_GROUP_SIZE)
        rest = table.slice(rows)
        pending, pending_rows = rest.to_batches(), rest.num_rows

    try:
        # Metadata known only at the end (what salvage lost) goes in the footer: the writer's
        # schema is fixed when it opens, so the lost list is added before it closes.
        writer = _pq().ParquetWriter(atomic.tmp, schema, **parquet_options(compression))
        try:
            while (block := reader.read_block()) is not None:
                first, base3 = block
                codes = base3 if enc == "base3" else t.convert(base3, "base3", cast(Encoding, enc))
                if (codes < 0).any():
                    i = int(np.flatnonzero(codes < 0)[0])
                    raise DataError(f"{src}: record {first + i} cannot be held by encoding {enc!r}")
                arrays = [pa.array(codes.astype(field.type.to_pandas_dtype()))]
                if with_index:
                    arrays.insert(0, pa.array(np.arange(first, first + len(codes), dtype=np.int64)))
                pending.append(pa.RecordBatch.from_arrays(arrays, schema=schema))
                pending_rows += len(codes)
                count += len(codes)
                while pending_rows >= ROW_GROUP_SIZE:
                    flush(writer, ROW_GROUP_SIZE)
            if pending_rows:
                flush(writer, pending_rows)
            lost = tuple(reader.lost)
            result = Converted(count, lost, *reader.lost_records)
            if lost:
                writer.add_key_value_metadata(
                    {KEY_SALVAGE.decode(): "\n".join([*lost, result.summary()])}
                )
        finally:
            writer.close()
        atomic.commit()
    except BaseException:
        atomic.discard()
        raise
    if card:
        _card.write_card(
            Path(dst), [(Path(dst).name, _with_file_metadata(dst), "records")],
            _card.call("ttt_to_parquet", src, dst, code=code, salvage=salvage, lossy=lossy),
            notes=[f"Source: {os.fspath(src)} ({reader.encoding} .ttt file), {count} records"],
        )
    return result


def parquet_to_ttt(
    src: PathLike, dst: PathLike, encoding: str | None = None, column: str | None = None,
    code: str | None = None, lossy: str | None = None,
) -> int:
    """Writes the code column of Parquet file ``src`` (``column``, default: its only code
    column; its encoding from the metadata, or ``code``) as ``.ttt`` file ``dst`` in
    ``encoding``, batch by batch, atomically. Returns the record count. Missing columns or
    metadata, damaged pages and codes out of range raise ``ValueError`` naming the file,
    column and row.

    ``encoding`` defaults to the packing of the ``.ttt`` file the Parquet file was made from
    (``ttt_to_parquet`` records it as ``tictactoe.source_encoding``), so that ``.ttt`` to
    Parquet and back gives the same bytes by default; ``rank`` for any other file.

    Refused unless asked for by name (``lossy``): a ``canonical`` column (its boards would be
    the class representatives, not the boards it came from: ``lossy="canonical"``), a file
    salvaged from a damaged ``.ttt`` file (``lossy="salvaged"``)."""
    pf = open_parquet(src)
    schema = pf.schema_arrow
    if column is None:
        coded = [
            f.name for f in schema
            if (f.metadata and tb.KEY_ENCODING in f.metadata)
            or (schema.metadata and tb.KEY_ENCODING + b"." + f.name.encode() in schema.metadata)
        ]
        if len(coded) != 1 and code is None:
            raise DataError(
                f"{src}: {'no' if not coded else 'more than one'} column with an encoding in its "
                f"metadata ({', '.join(coded) or 'columns: ' + ', '.join(schema.names)}); pass column="
            )
        column = coded[0] if coded else schema.names[0]
    source = code or encoding_of(schema, column, src)
    if source in LOSSY:
        refuse_lossy(src, source, lossy)
    # Written into the footer after the schema (what salvage lost is known at the end only):
    # in the file's key-value metadata, not the Arrow schema's.
    if KEY_SALVAGE in (pf.metadata.metadata or {}):
        refuse_lossy(src, "salvaged", lossy)
    if encoding is None:
        recorded = (schema.metadata or {}).get(KEY_SOURCE_ENCODING)
        encoding = recorded.decode() if recorded else "rank"
    writer = _native.TttWriter(os.fspath(dst), cast(Packing, encoding))
    try:
        for base3 in read_codes(src, column, code):
            writer.write(base3.astype(np.int32))
        return writer.close()
    except BaseException:
        writer.abort()
        raise


# ---------------------------------------------------------------------------------------------
# .ttt blocks as rows, and the Arrow batch function that unpacks them

def blocks_schema() -> Any:
    pa = _pa()
    return pa.schema(
        [
            pa.field("block", pa.int64(), nullable=False),
            pa.field("first_record", pa.int64(), nullable=False),
            pa.field("n", pa.int32(), nullable=False),
            pa.field("encoding", pa.string(), nullable=False),
            pa.field("payload", pa.binary(), nullable=False),
        ],
        metadata={tb.KEY_TABLE: b"ttt_blocks", tb.KEY_VERSION: tb.SCHEMA_VERSION.encode()},
    )


def ttt_blocks(src: PathLike, salvage: bool = False) -> Any:
    """The intact blocks of a ``.ttt`` file as a table (block, first_record, n, encoding,
    payload): each block's payload, checked by the library's reader, repacked as it was."""
    pa = _pa()
    reader = _native.TttReader(os.fspath(src), salvage)
    rows: dict[str, list[Any]] = {k: [] for k in blocks_schema().names}
    r = reader.records_per_block
    while (block := reader.read_block()) is not None:
        first, base3 = block
        rows["block"].append(first // r)
        rows["first_record"].append(first)
        rows["n"].append(len(base3))
        rows["encoding"].append(reader.encoding)
        rows["payload"].append(_native.TttWriter.pack(base3, reader.encoding))
    return pa.Table.from_pydict(rows, schema=blocks_schema())


def unpack_blocks_schema() -> Any:
    pa = _pa()
    return pa.schema(
        [
            pa.field("record", pa.int64(), nullable=False),
            tb.code_field("base3", "base3"),
        ]
    )


def unpack_blocks(batch: Any) -> Any:
    """Arrow batch function: a ``RecordBatch`` of blocks (``first_record``, ``n``,
    ``encoding``, ``payload``) to one of records (``record``, ``base3``). One row in, ``n``
    out: use it with Spark's ``mapInArrow`` or over DuckDB's ``fetch_record_batch``."""
    pa = _pa()
    if batch.num_rows == 0:
        return pa.RecordBatch.from_pylist([], schema=unpack_blocks_schema())
    firsts = batch.column("first_record").to_pylist()
    ns = batch.column("n").to_pylist()
    encs = batch.column("encoding").to_pylist()
    payloads = batch.column("payload").to_pylist()
    records, codes = [], []
    for first, n, enc, payload in zip(firsts, ns, encs, payloads):
        codes.append(_native.TttReader.unpack(payload, n, enc).astype(np.int16))
        records.append(np.arange(first, first + n, dtype=np.int64))
    return pa.RecordBatch.from_arrays(
        [pa.array(np.concatenate(records)), pa.array(np.concatenate(codes))],
        schema=unpack_blocks_schema(),
    )


def unpack_payloads(payload: Any, n: Any, encoding: Any) -> Any:
    """Arrow scalar function (DuckDB ``create_function(..., type="arrow")``): each payload's
    records as a ``list<int16>`` of base3 codes (``UNNEST`` it in SQL)."""
    pa = _pa()
    out = [
        _native.TttReader.unpack(p, k, e).astype(np.int16)
        for p, k, e in zip(payload.to_pylist(), n.to_pylist(), encoding.to_pylist())
    ]
    offsets = np.zeros(len(out) + 1, dtype=np.int32)
    np.cumsum([len(o) for o in out], out=offsets[1:])
    values = np.concatenate(out) if out else np.zeros(0, np.int16)
    return pa.ListArray.from_arrays(pa.array(offsets), pa.array(values))


# ---------------------------------------------------------------------------------------------
# Self-play

def states_schema() -> Any:
    pa = _pa()
    schema = pa.schema(
        [
            pa.field("game", pa.int64(), nullable=False),
            pa.field("ply", pa.int8(), nullable=False),
            tb.code_field("rank", "rank"),
        ]
    )
    return schema.with_metadata(tb.table_metadata("states", schema))


def game_codes_schema() -> Any:
    pa = _pa()
    schema = pa.schema([pa.field("game", pa.int64(), nullable=False), tb.code_field("code", "game")])
    return schema.with_metadata(tb.table_metadata("game_codes", schema))


def codes_schema(first_game: int = 0) -> Any:
    """A code-only part: one ``game`` code per game (int32), game ``first_game + row``
    (schema metadata ``tictactoe.first_game``)."""
    pa = _pa()
    schema = pa.schema([tb.code_field("code", "game")])
    meta = tb.table_metadata("codes", schema)
    meta[KEY_FIRST_GAME] = str(first_game).encode()
    return schema.with_metadata(meta)


#: Schema metadata of a code-only part: the number of its first game.
KEY_FIRST_GAME = b"tictactoe.first_game"

#: Self-play layouts: ``states`` (game, ply, rank); ``compact``, the same rows with ``game`` and
#: ``ply`` delta-encoded and ``rank`` dictionary-encoded (13.8 bits a state against 19.6);
#: ``games`` (game, code); ``codes``, the game codes only (2.8 bits a state).
LAYOUTS = ("states", "compact", "games", "codes")

#: Parquet writer options of the compact per-state layout.
COMPACT_OPTIONS = {
    "use_dictionary": ["rank"],
    "column_encoding": {"game": "DELTA_BINARY_PACKED", "ply": "DELTA_BINARY_PACKED"},
}


def states_of(
    moves: npt.NDArray[np.int8], lengths: npt.NDArray[np.int8], first_game: int = 0
) -> Any:
    """The states of games as an Arrow table ``(game, ply, rank)``: plies 0 (the empty board)
    to the length (the final position), in game then ply order."""
    pa = _pa()
    ranks = tb.ranks_by_ply(moves, lengths)
    keep = np.arange(10) <= lengths[:, None].astype(np.int64)
    ranks = ranks[keep]
    n = len(lengths)
    game = np.repeat(np.arange(first_game, first_game + n, dtype=np.int64), lengths.astype(np.int64) + 1)
    ply = np.broadcast_to(np.arange(10, dtype=np.int8), (n, 10))[keep]
    return pa.Table.from_arrays([pa.array(game), pa.array(ply), pa.array(ranks)], schema=states_schema())


def selfplay_states(n: int, seed: int = 0) -> Any:
    """``n`` random self-play games (``tictactoe_rs.selfplay``) as states ``(game, ply, rank)``."""
    sp = t.selfplay(n, seed)
    return states_of(sp.moves, sp.lengths)


def part_seed(seed: int, part: int) -> int:
    """The seed of part ``part`` of a partitioned run (splitmix64 of seed and part)."""
    z = (seed + (part + 1) * 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    return z ^ (z >> 31)


def selfplay_to_parquet(
    outdir: PathLike,
    games: int,
    seed: int = 0,
    layout: str = "states",
    games_per_file: int = 1 << 20,
    compression: str = "zstd",
    progress: bool | None = None,
    card: bool = True,
) -> list[Path]:
    """Random self-play written as Parquet files ``part-00000.parquet``, ... in ``outdir``:
    ``layout="states"`` rows ``(game, ply, rank)``; ``"compact"`` the same rows, ``game`` and
    ``ply`` delta-encoded and ``rank`` dictionary-encoded (``COMPACT_OPTIONS``); ``"games"``
    rows ``(game, code)`` (game codes); ``"codes"`` the game codes only (``codes_schema``).
    Part ``k`` holds games ``k * games_per_file ...`` generated on all cores from
    ``part_seed(seed, k)``; each file is written atomically, so a run that stops leaves whole
    parts only. ``progress`` (default: stderr is a terminal) draws a progress bar. The dataset
    card ``_dataset_card.md`` is written in ``outdir`` (``card``)."""
    if layout not in LAYOUTS:
        raise ValueError(f"argument `layout` must be one of {', '.join(map(repr, LAYOUTS))}, got {layout!r}")
    out = Path(outdir)
    out.mkdir(parents=True, exist_ok=True)
    show = sys.stderr.isatty() if progress is None else progress
    pa = _pa()
    parts = (games + games_per_file - 1) // games_per_file
    paths = []
    start = time.perf_counter()
    # Part k is written (pyarrow, GIL released) while part k + 1 is generated (rayon, all cores).
    with ThreadPoolExecutor(1) as pool:
        pending: Future[None] | None = None
        for k in range(parts):
            first = k * games_per_file
            n = min(games_per_file, games - first)
            sp = t.selfplay(n, part_seed(seed, k))
            options: dict[str, Any] = {}
            if layout in ("states", "compact"):
                table = states_of(sp.moves, sp.lengths, first)
                options = COMPACT_OPTIONS if layout == "compact" else {}
            elif layout == "games":
                game = np.arange(first, first + n, dtype=np.int64)
                table = pa.Table.from_arrays([pa.array(game), pa.array(sp.codes)], schema=game_codes_schema())
            else:
                table = pa.Table.from_arrays([pa.array(sp.codes)], schema=codes_schema(first))
            path = out / f"part-{k:05d}.parquet"
            if pending is not None:
                pending.result()
            pending = pool.submit(write_parquet, table, path, compression, **options)
            paths.append(path)
            if show:
                done = first + n
                rate = done / max(time.perf_counter() - start, 1e-9)
                bar = "#" * (30 * done // games)
                sys.stderr.write(f"\r[{bar:<30}] {done:,}/{games:,} games, {rate:,.0f} games/s")
                sys.stderr.flush()
        if pending is not None:
            pending.result()
    if show:
        sys.stderr.write("\n")
    if card:
        schema, table_name = {
            "states": (states_schema(), "states"), "compact": (states_schema(), "states"),
            "games": (game_codes_schema(), "game_codes"), "codes": (codes_schema(), "codes"),
        }[layout]
        _card.write_card(
            out, [("part-*.parquet", schema, table_name)],
            _card.call("selfplay_to_parquet", outdir, games, seed=seed, layout=layout,
                       games_per_file=games_per_file),
            notes=[f"{games} games in {parts} parts of {games_per_file} games; part k generated "
                   f"by tictactoe_rs.selfplay with seed part_seed({seed}, k) (splitmix64): "
                   "every part is reproducible alone"],
        )
    return paths
