"""Damage detected or reported, never silent (docs/data.md, "Integrity"): Parquet page
checksums, ttt2parquet --salvage's report and record column, lossy conversions refused unless
named, code columns of the wrong type and broken game structure rejected by the recipes on
DuckDB and Polars (Spark: test_data_engines.py, which holds the one Spark session); dataset
cards and the DuckDB database of the dimension tables."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

import tictactoe_rs as t  # noqa: E402
import tictactoe_rs.data as td  # noqa: E402
from tictactoe_rs import _native  # noqa: E402
from tictactoe_rs.data import _io, recipes  # noqa: E402


def cli(*args):
    return subprocess.run([sys.executable, "-m", "tictactoe_rs.data", *map(str, args)],
                          capture_output=True, text=True)


def write_ttt(path, base3, encoding="rank"):
    w = _native.TttWriter(str(path), encoding)
    w.write(np.asarray(base3, np.int32))
    return w.close()


def ranks(n, seed=0):
    return np.random.default_rng(seed).integers(0, 5478, n)


# ---------------------------------------------------------------------------------------------
# Page checksums


def flip_a_page_bit(path):
    """Flips one bit in the middle of the first data page of the first column."""
    col = pq.ParquetFile(path).metadata.row_group(0).column(0)
    data = bytearray(path.read_bytes())
    data[col.data_page_offset + col.total_compressed_size // 2] ^= 0x10
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("compression", ["none", "zstd"])
def test_a_flipped_bit_in_a_page_is_an_error_naming_the_file(tmp_path, compression):
    path = tmp_path / "r.parquet"
    write_ttt(tmp_path / "r.ttt", t.convert(ranks(100_000), "rank", "base3"))
    td.ttt_to_parquet(tmp_path / "r.ttt", path, compression=compression)
    good = pq.read_table(path)
    assert pq.ParquetFile(path).metadata.row_group(0).column(0).total_compressed_size > 1000
    flip_a_page_bit(path)
    # Without verification the bit goes unnoticed: wrong records, no error.
    assert not pq.read_table(path).equals(good)
    want = r"r\.parquet: row group 0 is damaged \(.*CRC checksum verification failed"
    with pytest.raises(td.DataError, match=want):
        td.read_parquet(path)
    with pytest.raises(td.DataError, match=want):
        td.verify_parquet(path)
    with pytest.raises(td.DataError, match=want):
        td.parquet_to_ttt(path, tmp_path / "o.ttt")
    assert not (tmp_path / "o.ttt").exists()
    for args in (("verify", path), ("parquet2ttt", path, tmp_path / "o.ttt")):
        run = cli(*args)
        assert run.returncode == 1 and "r.parquet: row group 0 is damaged" in run.stderr


def test_every_writer_writes_page_checksums_in_even_row_groups(tmp_path, monkeypatch):
    monkeypatch.setattr(_io, "ROW_GROUP_SIZE", 30_000)
    write_ttt(tmp_path / "a.ttt", t.convert(ranks(100_000), "rank", "base3"))
    td.ttt_to_parquet(tmp_path / "a.ttt", tmp_path / "a.parquet")  # blocks of 40,320 records
    td.selfplay_to_parquet(tmp_path / "s", 10_000, games_per_file=10_000, progress=False)
    td.write_tables(tmp_path / "t")
    for path, total in ((tmp_path / "a.parquet", 100_000), (tmp_path / "s" / "part-00000.parquet", None),
                        (tmp_path / "t" / "grids.parquet", 19_683)):
        meta = pq.ParquetFile(path).metadata
        sizes = [meta.row_group(i).num_rows for i in range(meta.num_row_groups)]
        assert sizes[:-1] == [30_000] * (len(sizes) - 1) and 0 < sizes[-1] <= 30_000
        assert total is None or sum(sizes) == total
        assert td.verify_parquet(path) == sum(sizes)
        flip_a_page_bit(path)
        with pytest.raises(td.DataError, match="is damaged"):
            td.verify_parquet(path)


# ---------------------------------------------------------------------------------------------
# Salvage: what was lost, reported as `ttt unpack --salvage` does, with a record column


def test_salvage_reports_losses_as_ttt_unpack_and_exits_3(tmp_path):
    src = tmp_path / "d.ttt"
    base3 = t.convert(ranks(100_000), "rank", "base3")
    write_ttt(src, base3)
    data = bytearray(src.read_bytes())
    data[32 + 8 + 100] ^= 1  # block 0's payload (40,320 records of 13 bits)
    src.write_bytes(bytes(data))
    run = cli("ttt2parquet", "--salvage", src, tmp_path / "d.parquet")
    assert run.returncode == 3, run.stderr
    assert run.stderr.splitlines() == [
        f"{src}: records 0 to 40319 lost (40320): block 0 (records 0 to 40319) is damaged: checksum mismatch",
        f"{src}: salvaged 59680 records, lost 40320",
    ]
    table = pq.read_table(tmp_path / "d.parquet")
    assert table.schema.names == ["record", "rank"]
    assert (table.column("record").to_numpy() == np.arange(40320, 100_000)).all()
    assert (t.convert(table.column("rank").to_numpy(), "rank", "base3") == base3[40320:]).all()
    meta = pq.ParquetFile(tmp_path / "d.parquet").metadata.metadata[b"tictactoe.salvage"].decode()
    assert meta.endswith("salvaged 59680 records, lost 40320")
    card = (tmp_path / "_d.parquet.card.md").read_text()
    assert "Damaged source: records are missing" in card and "lost 40320" in card
    # A file with records missing is not written back as if whole, unless asked for.
    with pytest.raises(td.DataError, match=r"d\.parquet: refusing a lossy conversion: the file was salvaged"):
        td.parquet_to_ttt(tmp_path / "d.parquet", tmp_path / "back.ttt")
    assert td.parquet_to_ttt(tmp_path / "d.parquet", tmp_path / "back.ttt", lossy="salvaged") == 59680
    # An intact file salvages to exit 0 and no report.
    write_ttt(tmp_path / "ok.ttt", base3)
    run = cli("ttt2parquet", "--salvage", tmp_path / "ok.ttt", tmp_path / "ok.parquet")
    assert run.returncode == 0 and run.stderr == ""


def test_salvage_record_column_shows_blocks_out_of_order(tmp_path):
    src = tmp_path / "m.ttt"
    base3 = t.convert(ranks(100_000, seed=1), "rank", "base3")
    write_ttt(src, base3)
    data = bytearray(src.read_bytes())
    size = 8 + 65_520  # a block: head and 40,320 records of 13 bits
    a, b = 32, 32 + size
    data[a:a + size], data[b:b + size] = data[b:b + size], data[a:a + size]
    src.write_bytes(bytes(data))
    done = td.ttt_to_parquet(src, tmp_path / "m.parquet", salvage=True)
    table = pq.read_table(tmp_path / "m.parquet")
    record = table.column("record").to_numpy()
    assert list(record[[0, 40320]]) == [40320, 0]  # block 1 stood first in the file
    assert sorted(record) == list(range(100_000))
    placed = np.empty(100_000, np.int64)
    placed[record] = t.convert(table.column("rank").to_numpy(), "rank", "base3")
    assert (placed == base3).all()
    assert done.records == 100_000 and done.lost_records == 0 and done.damaged
    assert any("out of place" in lost or "moved" in lost for lost in done.lost), done.lost


# ---------------------------------------------------------------------------------------------
# Lossy conversions: refused unless asked for by name


def test_lossy_canonical_is_refused_unless_named(tmp_path):
    write_ttt(tmp_path / "a.ttt", t.convert(ranks(10_000), "rank", "base3"))
    want = r"a\.ttt: refusing a lossy conversion: canonical codes hold the symmetry class only"
    with pytest.raises(td.DataError, match=want):
        td.ttt_to_parquet(tmp_path / "a.ttt", tmp_path / "c.parquet", code="canonical")
    assert not (tmp_path / "c.parquet").exists()
    run = cli("ttt2parquet", "--code", "canonical", tmp_path / "a.ttt", tmp_path / "c.parquet")
    assert run.returncode == 1 and "--lossy canonical" in run.stderr
    run = cli("ttt2parquet", "--code", "canonical", "--lossy", "canonical", tmp_path / "a.ttt", tmp_path / "c.parquet")
    assert run.returncode == 0, run.stderr
    # Back to a full encoding: the class representatives, not the boards: refused unless named.
    with pytest.raises(td.DataError, match=r"c\.parquet: refusing a lossy conversion: canonical"):
        td.parquet_to_ttt(tmp_path / "c.parquet", tmp_path / "b.ttt")
    run = cli("parquet2ttt", tmp_path / "c.parquet", tmp_path / "b.ttt")
    assert run.returncode == 1 and "--lossy canonical" in run.stderr and not (tmp_path / "b.ttt").exists()
    assert td.parquet_to_ttt(tmp_path / "c.parquet", tmp_path / "b.ttt", lossy="canonical") == 10_000
    with pytest.raises(ValueError, match="argument `lossy` must be one of 'canonical', 'salvaged', got 'x'"):
        td.ttt_to_parquet(tmp_path / "a.ttt", tmp_path / "c.parquet", code="canonical", lossy="x")


# ---------------------------------------------------------------------------------------------
# Code columns of the wrong type, and game structure, in the recipes of DuckDB and Polars


def states_table(game, ply, rank, rank_type=None):
    return pa.table({"game": pa.array(game, pa.int64()), "ply": pa.array(ply, pa.int8()),
                     "rank": pa.array(rank, rank_type or pa.int16())})


def one_game():
    """A whole game as states: X 4, O 0, X 8, ... (ranks from the library)."""
    moves = [4, 0, 8, 2, 1, 7, 6, 3, 5]
    board = np.zeros(9, np.int8)
    out = [0]
    for i, cell in enumerate(moves):
        board[cell] = 1 if i % 2 == 0 else 2
        out.append(int(t.encode(board, "rank")))
    return out


WRONG_TYPES = [
    (pa.float64(), [0.0, 1.0]),
    (pa.string(), ["0", "1"]),
    (pa.bool_(), [False, True]),
]


def broken_games():
    """(states, the message naming what is wrong) for each kind of broken structure."""
    r = one_game()
    return [
        (states_table([0, 0, 0], [0, 1, 1], r[:2] + [r[1]]), "game 0 ply 1: 2 rows (one row per ply)"),
        (states_table([0, 0, 0], [0, 1, 3], [r[0], r[1], r[3]]), "game 0: plies 0 to 3 in 3 distinct plies"),
        (states_table([0, 0], [1, 2], r[1:3]), "game 0: plies 1 to 2 in 2 distinct plies"),
        (states_table([0, 0], [0, 1], [r[1], r[2]]), f"game 0 ply 0: rank {r[1]} has 1 marks, not 0"),
        # the first problem by ply: the repeated state is no move (its marks are wrong after)
        (states_table([0, 0, 0], [0, 1, 2], [r[0], r[1], r[1]]),
         f"game 0 ply 1 to 2: rank {r[1]} to rank {r[1]} is not one move"),
    ]


def a_jump():
    """Consecutive states with the right marks that are not one move apart (X moved twice)."""
    boards = np.zeros((3, 9), np.int8)
    boards[1, 4] = 1
    boards[2, [0, 8]] = [1, 2]  # X at 0 (not 4), O at 8
    rk = t.encode(boards, "rank").tolist()
    return states_table([0, 0, 0], [0, 1, 2], rk), f"game 0 ply 1 to 2: rank {rk[1]} to rank {rk[2]} is not one move"


def test_the_validator_passes_real_games():
    duckdb = pytest.importorskip("duckdb")
    pl = pytest.importorskip("polars")
    states = td.selfplay_states(300, seed=5)
    recipes.duckdb_validate(recipes.duckdb_connect(states, duckdb.connect()))
    recipes.polars_validate(pl.from_arrow(states))
    r = one_game()
    whole = states_table([0] * 10, list(range(10)), r)
    recipes.duckdb_validate(recipes.duckdb_connect(whole, duckdb.connect()))


@pytest.mark.parametrize("case", range(6))
def test_broken_game_structure_is_an_error_in_duckdb_and_polars(case):
    duckdb = pytest.importorskip("duckdb")
    pl = pytest.importorskip("polars")
    # (A move after the end of a game has no rank: the rank check rejects it first.)
    states, want = (broken_games() + [a_jump()])[case]
    with pytest.raises(td.DataError, match="run3: " + want.replace("(", r"\(").replace(")", r"\)")):
        recipes.duckdb_recipe(recipes.duckdb_connect(states, duckdb.connect()), "blunders", name="run3")
    with pytest.raises(td.DataError, match="run3: " + want.replace("(", r"\(").replace(")", r"\)")):
        recipes.polars_recipe(pl.from_arrow(states), "blunders", name="run3")


@pytest.mark.parametrize("typ, values", WRONG_TYPES)
def test_code_columns_of_a_wrong_type_are_rejected_by_every_path(tmp_path, typ, values):
    duckdb = pytest.importorskip("duckdb")
    pl = pytest.importorskip("polars")
    states = states_table([0, 0], [0, 1], values, typ)
    want = r"run5: column 'rank' has type \w+.*, not an integer type"
    for check in (True, False):
        with pytest.raises(td.DataError, match=want):
            recipes.duckdb_recipe(recipes.duckdb_connect(states, duckdb.connect()), "status_value",
                                  name="run5", check=check)
        with pytest.raises(td.DataError, match=want):
            recipes.polars_recipe(pl.from_arrow(states), "status_value", name="run5", check=check)
    # A Parquet code column of that type, with the encoding in its metadata
    path = tmp_path / "f.parquet"
    field = pa.field("rank", typ, metadata={b"tictactoe.encoding": b"rank"})
    pq.write_table(pa.table({"rank": pa.array(values, typ)}, schema=pa.schema([field])), path)
    with pytest.raises(td.DataError, match=rf"f\.parquet: column 'rank' has type {typ}, not an integer type"):
        td.parquet_to_ttt(path, tmp_path / "f.ttt")
    with pytest.raises(td.DataError, match=rf"f\.parquet: column 'rank' has type {typ}"):
        td.check_codes(pa.array(values, typ), "rank", path, "rank")


# ---------------------------------------------------------------------------------------------
# Dataset cards and the DuckDB database


def test_every_writer_puts_a_dataset_card_beside_its_output(tmp_path):
    td.write_tables(tmp_path / "t")
    td.selfplay_to_parquet(tmp_path / "s", 100, seed=2, games_per_file=50, progress=False)
    write_ttt(tmp_path / "a.ttt", t.convert(ranks(100), "rank", "base3"), "mixed-radix")
    td.ttt_to_parquet(tmp_path / "a.ttt", tmp_path / "a.parquet")
    cards = {
        "t": (tmp_path / "t" / "_dataset_card.md").read_text(),
        "s": (tmp_path / "s" / "_dataset_card.md").read_text(),
        "a": (tmp_path / "_a.parquet.card.md").read_text(),
    }
    for card in cards.values():
        assert "## Licence" in card and "MIT" in card and f"tictactoe_rs {t.__version__}" in card
        assert "- Command: `tictactoe_rs.data." in card
    positions = cards["t"]
    for field in td.positions().schema:
        assert f"| `{field.name}` |" in positions
    assert "- `status`: 0 ongoing, 1 X won, 2 O won, 3 draw" in positions
    assert "- `value`: perfect-play result: 1 X wins, 2 O wins, 3 draw" in positions
    assert "| `rank` | int16, not null | rank code (0 .. 5,477)" in positions
    assert "seed part_seed(2, k)" in cards["s"] and "| `ply` | int8, not null |" in cards["s"]
    assert "Source: " in cards["a"] and "(mixed-radix .ttt file), 100 records" in cards["a"]
    # Readers of the directory skip the card (a leading underscore): pyarrow and Spark alike.
    assert pq.read_table(tmp_path / "s").num_rows == td.selfplay_states(50, td.part_seed(2, 0)).num_rows + \
        td.selfplay_states(50, td.part_seed(2, 1)).num_rows


def test_duckdb_database_of_the_dimension_tables(tmp_path):
    duckdb = pytest.importorskip("duckdb")
    path = tmp_path / "ttt.duckdb"
    run = cli("duckdb-db", path)
    assert run.returncode == 0, run.stderr
    con = duckdb.connect(str(path), read_only=True)
    counts = {name: con.sql(f"SELECT count(*) FROM {name}").fetchall()[0][0]
              for name in ("positions", "grids", "games", "transitions", "game_facts")}
    assert counts == {"positions": 5478, "grids": 19683, "games": 255168, "transitions": 16167,
                      "game_facts": 255168}
    assert con.sql("SELECT count(*) FROM games g JOIN positions p ON p.rank = g.final_rank "
                   "WHERE p.status <> g.result").fetchall() == [(0,)]
    comment = con.sql("SELECT comment FROM duckdb_columns() WHERE table_name = 'positions' "
                      "AND column_name = 'status'").fetchall()[0][0]
    assert comment == "0 ongoing, 1 X won, 2 O won, 3 draw"
    assert con.sql("SELECT * FROM positions ORDER BY rank").to_arrow_table().equals(
        td.positions().replace_schema_metadata(None).cast(
            con.sql("SELECT * FROM positions LIMIT 0").to_arrow_table().schema))
    card = (tmp_path / "_ttt.duckdb.card.md").read_text()
    assert f"Command: `python -m tictactoe_rs.data duckdb-db {path}`" in card
    assert not list(tmp_path.glob(".*tmp"))


# ---------------------------------------------------------------------------------------------
# Layouts: compact per-state and code-only files, and the per-game recipe


def test_compact_and_code_only_layouts_hold_the_same_games(tmp_path):
    duckdb = pytest.importorskip("duckdb")
    for layout in td.LAYOUTS:
        run = cli("selfplay", tmp_path / layout, "--games", 3000, "--seed", 4, "--layout", layout,
                  "--games-per-file", 2000)
        assert run.returncode == 0, run.stderr
    states = pq.read_table(tmp_path / "states")
    compact = pq.read_table(tmp_path / "compact")
    assert compact.equals(states)
    encodings = pq.ParquetFile(tmp_path / "compact" / "part-00000.parquet").metadata.row_group(0)
    assert "DELTA_BINARY_PACKED" in encodings.column(0).encodings  # game
    codes = pq.read_table(tmp_path / "codes")
    assert codes.schema.names == ["code"]
    games = pq.read_table(tmp_path / "games")
    assert (codes.column("code").to_numpy() == games.column("code").to_numpy()).all()
    meta = pq.ParquetFile(tmp_path / "codes" / "part-00001.parquet").schema_arrow.metadata
    assert meta[b"tictactoe.first_game"] == b"2000"
    # The per-game recipe on code-only files agrees with the per-state blunder recipe.
    con = recipes.duckdb_codes(f"read_parquet('{tmp_path / 'codes'}/*.parquet')")
    outcomes = con.sql(recipes.CODES_SQL["outcomes"]).fetchall()
    assert sum(row[1] for row in outcomes) == 3000
    per_state = recipes.duckdb_recipe(recipes.duckdb_connect(states, duckdb.connect()), "blunders")
    assert sum(row[2] for row in outcomes) == sum(per_state.column("blunders").to_pylist()) > 0
    results = pa.compute.value_counts(td.games().take(codes.column("code")).column("result")).to_pylist()
    assert sorted((r["values"], r["counts"]) for r in results) == [(row[0], row[1]) for row in outcomes]
    # game_facts against the states of the same games, game by game
    facts = td.game_facts().take(codes.column("code"))
    g, v = states.column("game").to_numpy(), t.value(states.column("rank").to_numpy(), "rank")
    for game in range(0, 3000, 37):
        values = v[g == game]
        changes = np.flatnonzero(values[:-1] != values[1:])
        assert facts.column("first_blunder")[game].as_py() == (int(changes[0]) if len(changes) else None)
        assert facts.column("blunders")[game].as_py() == len(changes)
        assert facts.column("length")[game].as_py() == len(values) - 1
    with pytest.raises(td.DataError, match=r"bad: column 'code': 255168 is not a game code"):
        recipes.duckdb_codes(pa.table({"code": pa.array([0, 255168], pa.int32())}), name="bad")
