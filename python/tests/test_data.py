"""tictactoe_rs.data without an engine: the tables against the library on every row, Parquet
metadata, .ttt <-> Parquet round trips in every encoding, self-play to Parquet, the Arrow batch
function, and every class of bad input (an error naming the file and what is wrong)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

import tictactoe_rs as t  # noqa: E402
import tictactoe_rs.data as td  # noqa: E402
from tictactoe_rs import _native  # noqa: E402
from tictactoe_rs.data import _tables as tb  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def col(table, name):
    return table.column(name).to_numpy()


def lines_ref(board) -> int:
    return sum(1 << k for k, (a, b, c) in enumerate(LINES) if board[a] != 0 and board[a] == board[b] == board[c])


def test_import_of_the_package_does_not_import_pyarrow():
    code = "import sys, tictactoe_rs; assert 'pyarrow' not in sys.modules and 'duckdb' not in sys.modules and 'polars' not in sys.modules and 'pyspark' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)
    code = "import sys, tictactoe_rs.data, tictactoe_rs.data.recipes; assert 'pyarrow' in sys.modules; assert not {'duckdb', 'polars', 'pyspark'} & set(sys.modules)"
    subprocess.run([sys.executable, "-c", code], check=True)


def test_positions_every_row_matches_the_library():
    p = td.positions()
    assert p.num_rows == 5478
    rank = col(p, "rank")
    assert (rank == np.arange(5478)).all()
    boards = t.decode(rank, "rank")
    for name, enc in [("base3", "base3"), ("base4", "base4"), ("bitboards", "bitboards"),
                      ("count_rank", "count-rank"), ("oriented", "oriented")]:
        assert (col(p, name) == t.encode(boards, enc)).all(), name
        assert (t.decode(col(p, name), enc) == boards).all(), name
    assert (col(p, "canonical") == t.canonical(boards)).all()
    for name, fn in [("status", t.status), ("to_move", t.to_move), ("winner", t.winner),
                     ("value", t.value), ("distance", t.distance), ("symmetry", t.symmetry_of)]:
        assert (col(p, name) == fn(boards)).all(), name
    assert (col(p, "legal_moves").astype(np.uint16) == t.legal_moves(boards)).all()
    assert (col(p, "best_moves").astype(np.uint16) == t.best_moves(boards)).all()
    assert (col(p, "marks") == (boards != 0).sum(axis=1)).all()
    strings = p.column("board").to_pylist()
    for b, s, lines in zip(boards.tolist(), strings, col(p, "lines").tolist()):
        assert s == "".join(".XO"[c] for c in b)
        assert lines == lines_ref(b)


def test_grids_every_row_matches_the_library():
    g = td.grids()
    assert g.num_rows == 19683
    boards = t.decode(col(g, "base3"), "base3")
    assert (col(g, "base3") == np.arange(19683)).all()
    assert (col(g, "base4") == t.encode(boards, "base4")).all()
    assert (col(g, "bitboards") == t.encode(boards, "bitboards")).all()
    assert (col(g, "violations") == t.violations(boards)).all()
    pos = t.is_position(boards)
    assert (col(g, "is_position") == pos).all()
    for name, enc in [("rank", "rank"), ("count_rank", "count-rank")]:
        want = t.encode(boards, enc)
        got = g.column(name).to_pylist()
        assert [(-1 if v is None else v) for v in got] == want.tolist(), name
    status = g.column("status").to_pylist()
    assert [(-1 if v is None else v) for v in status] == np.where(pos, t.status(boards), -1).tolist()
    assert (col(g, "marks_x") == (boards == 1).sum(axis=1)).all()
    assert (col(g, "marks_o") == (boards == 2).sum(axis=1)).all()
    assert g.column("board").to_pylist() == ["".join(".XO"[c] for c in b) for b in boards.tolist()]
    assert col(g, "lines").tolist() == [lines_ref(b) for b in boards.tolist()]


def test_games_every_row_matches_the_library():
    g = td.games()
    assert g.num_rows == 255168
    code = col(g, "game")
    assert (code == np.arange(255168)).all()
    moves, lengths = t.decode_games(code, "game")
    assert (col(g, "length") == lengths).all()
    flat = g.column("moves").combine_chunks()
    assert (flat.value_lengths().to_numpy() == lengths).all()
    assert (flat.values.to_numpy() == moves[moves >= 0]).all()
    # re-encoding the moves gives the code back, and the result is the final board's status
    padded = np.full((len(code), 9), -1, np.int8)
    padded[np.arange(9) < lengths[:, None]] = flat.values.to_numpy()
    assert (t.encode_games(padded, "game") == code).all()
    final = tb.final_boards(moves, lengths)
    assert (col(g, "result") == t.status(final)).all()
    assert (col(g, "final_rank") == t.encode(final, "rank")).all()
    assert set(col(g, "result").tolist()) == {1, 2, 3}


def test_column_types_are_signed_and_metadata_names_encodings(tmp_path):
    paths = td.write_tables(tmp_path)
    for path in paths:
        schema = pq.read_schema(path)
        meta = schema.metadata
        assert meta[b"tictactoe.schema_version"] == td.SCHEMA_VERSION.encode()
        assert meta[b"tictactoe.table"] == path.stem.encode()
        for field in schema:
            if pa.types.is_integer(field.type):
                assert pa.types.is_signed_integer(field.type), (path, field)
            if field.name in tb.CODE_COLUMNS or field.name == "final_rank":
                enc = meta[b"tictactoe.encoding." + field.name.encode()].decode()
                assert enc == tb.CODE_COLUMNS.get(field.name, "rank")
                # the raw Parquet key-value metadata holds it too (not only the Arrow schema)
        kv = pq.ParquetFile(path).metadata.metadata
        assert b"tictactoe.encoding." + schema.names[0].encode() in kv
        assert pq.read_table(path).equals(getattr(td, path.stem)())


def test_tables_are_arrow_pycapsule_streams():
    for table in (td.positions(), td.grids(), td.games()):
        assert hasattr(table, "__arrow_c_stream__")
        again = pa.table(pa.RecordBatchReader.from_stream(table))
        assert again.equals(table)


def test_cli_writes_the_tables(tmp_path):
    subprocess.run([sys.executable, "-m", "tictactoe_rs.data", "tables", str(tmp_path)], check=True)
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "_dataset_card.md", "game_facts.parquet", "games.parquet", "grids.parquet", "positions.parquet",
        "transitions.parquet"]
    card = (tmp_path / "_dataset_card.md").read_text()
    assert f"Command: `python -m tictactoe_rs.data tables {tmp_path}`" in card


# ---------------------------------------------------------------------------------------------
# .ttt <-> Parquet


def some_grids(n=100_000, positions_only=True, seed=0):
    rng = np.random.default_rng(seed)
    if positions_only:
        return t.convert(rng.integers(0, 5478, n), "rank", "base3")
    return rng.integers(0, 19683, n).astype(np.int32)


def write_ttt(path, base3, encoding):
    w = _native.TttWriter(str(path), encoding)
    w.write(base3.astype(np.int32))
    return w.close()


@pytest.mark.parametrize("encoding", td._io.TTT_ENCODINGS)
def test_ttt_parquet_round_trip_every_encoding(tmp_path, encoding):
    grids_only = encoding in ("base4", "base3")
    base3 = some_grids(positions_only=not grids_only)
    if encoding == "count-rank":
        base3 = base3[t.is_valid(t.convert(base3, "base3", "count-rank"), "count-rank")]
    assert write_ttt(tmp_path / "a.ttt", base3, encoding) == len(base3)
    n = td.ttt_to_parquet(tmp_path / "a.ttt", tmp_path / "a.parquet").records
    assert n == len(base3)
    table = pq.read_table(tmp_path / "a.parquet")
    enc = td.encoding_of(table.schema, table.schema.names[0])
    assert enc == {"mixed-radix": "rank"}.get(encoding, encoding)
    assert (t.convert(table.column(0).to_numpy(), enc, "base3") == base3).all()
    assert td.parquet_to_ttt(tmp_path / "a.parquet", tmp_path / "b.ttt", encoding) == len(base3)
    assert (tmp_path / "a.ttt").read_bytes() == (tmp_path / "b.ttt").read_bytes()
    # The default packing is the source file's, recorded in the metadata: the same bytes.
    assert td.parquet_to_ttt(tmp_path / "a.parquet", tmp_path / "c.ttt") == len(base3)
    assert (tmp_path / "a.ttt").read_bytes() == (tmp_path / "c.ttt").read_bytes()
    # no temporary file is left behind
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "_a.parquet.card.md", "a.parquet", "a.ttt", "b.ttt", "c.ttt"]


def test_ttt_to_parquet_in_another_code(tmp_path):
    base3 = some_grids(10_000)
    write_ttt(tmp_path / "a.ttt", base3, "rank")
    td.ttt_to_parquet(tmp_path / "a.ttt", tmp_path / "a.parquet", code="oriented")
    table = pq.read_table(tmp_path / "a.parquet")
    assert table.schema.names == ["oriented"]
    assert (t.convert(table.column(0).to_numpy(), "oriented", "base3") == base3).all()


def test_blocks_and_the_batch_function(tmp_path):
    base3 = some_grids(100_000)
    write_ttt(tmp_path / "a.ttt", base3, "mixed-radix")
    blocks = td.ttt_blocks(tmp_path / "a.ttt")
    assert blocks.num_rows == 3 and blocks.column("n").to_pylist() == [40955, 40955, 18090]
    out = pa.Table.from_batches([td.unpack_blocks(b) for b in blocks.to_batches(max_chunksize=2)])
    assert (col(out, "record") == np.arange(len(base3))).all()
    assert (col(out, "base3") == base3).all()
    lists = td.unpack_payloads(blocks.column("payload").combine_chunks(),
                               blocks.column("n").combine_chunks(), blocks.column("encoding").combine_chunks())
    assert (lists.values.to_numpy() == base3).all()
    empty = td.unpack_blocks(pa.RecordBatch.from_pylist([], schema=td.blocks_schema()))
    assert empty.num_rows == 0


def test_selfplay_to_parquet_partitions_and_states(tmp_path):
    paths = td.selfplay_to_parquet(tmp_path / "s", 2500, seed=3, games_per_file=1000, progress=False)
    assert [p.name for p in paths] == ["part-00000.parquet", "part-00001.parquet", "part-00002.parquet"]
    states = pq.read_table(tmp_path / "s")
    games = td.selfplay_to_parquet(tmp_path / "g", 2500, seed=3, layout="games", games_per_file=1000, progress=False)
    codes = pq.read_table(games[1])
    sp = t.selfplay(1000, td.part_seed(3, 1))
    assert (col(codes, "code") == sp.codes).all() and (col(codes, "game") == np.arange(1000, 2000)).all()
    # every state of game 1000 + i is the board after its first `ply` moves
    part = states.filter(pa.compute.equal(states.column("game"), 1000 + 7))
    moves = sp.moves[7]
    board = np.zeros(9, np.int8)
    for ply, rank in zip(col(part, "ply"), col(part, "rank")):
        if ply:
            board[moves[ply - 1]] = 1 if ply % 2 else 2
        assert t.encode(board, "rank") == rank
    assert len(part) == sp.lengths[7] + 1
    assert states.num_rows == sum(int(t.selfplay(n, td.part_seed(3, k)).lengths.sum()) + n
                                  for k, n in enumerate([1000, 1000, 500]))


# ---------------------------------------------------------------------------------------------
# Bad input: an error naming the file and what is wrong


def test_damaged_ttt_names_the_file_and_block(tmp_path):
    path = tmp_path / "d.ttt"
    write_ttt(path, some_grids(100_000), "rank")
    data = bytearray(path.read_bytes())
    data[32 + 8 + 100] ^= 1
    path.write_bytes(bytes(data))
    with pytest.raises(ValueError, match=r"d\.ttt: block 0 \(records 0 to 40319\) is damaged: checksum mismatch"):
        td.ttt_to_parquet(path, tmp_path / "d.parquet")
    assert not list(tmp_path.glob("*.parquet")) and not list(tmp_path.glob(".*tmp"))
    assert td.ttt_to_parquet(path, tmp_path / "d.parquet", salvage=True).records == 100_000 - 40320
    with pytest.raises(ValueError, match=r"d\.ttt: block 0"):
        td.ttt_blocks(path)


def test_truncated_and_foreign_ttt(tmp_path):
    path = tmp_path / "t.ttt"
    write_ttt(path, some_grids(1000), "base3")
    path.write_bytes(path.read_bytes()[:-20])
    with pytest.raises(ValueError, match=r"t\.ttt: the file is truncated"):
        td.ttt_to_parquet(path, tmp_path / "t.parquet")
    (tmp_path / "x.ttt").write_bytes(b"PAR1 not a ttt file at all, more than thirty-two bytes")
    with pytest.raises(ValueError, match=r"x\.ttt: not a \.ttt file"):
        td.ttt_to_parquet(tmp_path / "x.ttt", tmp_path / "x.parquet")
    with pytest.raises(OSError, match=r"missing\.ttt"):
        td.ttt_to_parquet(tmp_path / "missing.ttt", tmp_path / "m.parquet")


def test_parquet_without_column_or_metadata(tmp_path):
    path = tmp_path / "plain.parquet"
    pq.write_table(pa.table({"rank": pa.array([1, 2, 3], pa.int16())}), path)
    with pytest.raises(ValueError, match=r"plain\.parquet: no column with an encoding in its metadata"):
        td.parquet_to_ttt(path, tmp_path / "o.ttt")
    with pytest.raises(ValueError, match=r"plain\.parquet: column 'rank' has no encoding in its metadata"):
        td.parquet_to_ttt(path, tmp_path / "o.ttt", column="rank")
    with pytest.raises(ValueError, match=r"plain\.parquet: no column 'code'"):
        td.parquet_to_ttt(path, tmp_path / "o.ttt", column="code", code="rank")
    # the caller may say what the column holds
    assert td.parquet_to_ttt(path, tmp_path / "o.ttt", column="rank", code="rank") == 3
    (tmp_path / "junk.parquet").write_bytes(b"not parquet")
    with pytest.raises(ValueError, match=r"junk\.parquet: not a Parquet file"):
        td.parquet_to_ttt(tmp_path / "junk.parquet", tmp_path / "o2.ttt")
    assert not (tmp_path / "o2.ttt").exists()


@pytest.mark.parametrize(
    "encoding, values, bad",
    [("rank", [0, 5477, 5478], "row 2: 5478 is not a rank code"),
     ("rank", [-1, 0], "row 0: -1 is not a rank code"),
     ("base4", [0, 3], "row 1: 3 is not a base4 code"),
     ("canonical", [764, 765], "row 1: 765 is not a canonical code")],
)
def test_code_out_of_range_names_file_column_and_row(tmp_path, encoding, values, bad):
    path = tmp_path / "bad.parquet"
    schema = pa.schema([tb.code_field("c", encoding)])
    pq.write_table(pa.table({"c": pa.array(values, schema.field("c").type)}, schema=schema), path)
    lossy = "canonical" if encoding == "canonical" else None  # else refused before any row
    with pytest.raises(ValueError, match=rf"bad\.parquet: column 'c' {bad}"):
        td.parquet_to_ttt(path, tmp_path / "o.ttt", lossy=lossy)
    assert not list(tmp_path.glob("*.ttt")) and not list(tmp_path.glob(".*tmp"))


def test_null_code_and_a_board_the_encoding_cannot_hold(tmp_path):
    path = tmp_path / "n.parquet"
    schema = pa.schema([tb.code_field("rank", "rank", nullable=True)])
    pq.write_table(pa.table({"rank": pa.array([1, None], pa.int16())}, schema=schema), path)
    with pytest.raises(ValueError, match=r"n\.parquet: column 'rank' row 1 is null"):
        td.parquet_to_ttt(path, tmp_path / "o.ttt")
    # a base3 grid that is no position cannot go into a rank file
    g = tmp_path / "g.parquet"
    schema = pa.schema([tb.code_field("base3", "base3")])
    pq.write_table(pa.table({"base3": pa.array([0, 2], pa.int16())}, schema=schema), g)
    with pytest.raises(ValueError, match=r"o\.ttt: .*"):
        td.parquet_to_ttt(g, tmp_path / "o.ttt", "rank")
    assert not (tmp_path / "o.ttt").exists()
    write_ttt(tmp_path / "grids.ttt", np.array([0, 2], np.int32), "base3")
    with pytest.raises(ValueError, match=r"grids\.ttt: record 1 cannot be held by encoding 'rank'"):
        td.ttt_to_parquet(tmp_path / "grids.ttt", tmp_path / "r.parquet", code="rank")


def test_selfplay_progress_bar_and_bad_layout(tmp_path, capsys):
    td.selfplay_to_parquet(tmp_path, 3000, games_per_file=1000, progress=True)
    err = capsys.readouterr().err
    assert "3,000/3,000 games" in err and "games/s" in err
    with pytest.raises(ValueError, match="layout"):
        td.selfplay_to_parquet(tmp_path, 10, layout="boards")


def test_code_range_is_the_librarys():
    assert td.CODE_RANGE == {
        "rank": 5478, "base3": 19683, "base4": 1 << 18, "bitboards": 1 << 18, "count-rank": 6046,
        "canonical": 765, "oriented": 6120, "game": 255168, "prefix": 549946,
    }
    assert td.CODE_RANGE == _native.CODE_RANGE


def test_recipes_sql_lists_the_recipes():
    from tictactoe_rs.data import recipes

    with pytest.raises(ValueError, match="`recipe` must be one of 'status_value', 'blunders'") as info:
        recipes.sql("x")
    assert all(name in str(info.value) for name in recipes.SQL)


def test_version_is_the_crates():
    import re

    cargo = (Path(__file__).resolve().parents[2] / "Cargo.toml").read_text()
    version = re.search(r'^version = "([^"]+)"', cargo, re.M)
    assert version and t.__version__ == version.group(1)
