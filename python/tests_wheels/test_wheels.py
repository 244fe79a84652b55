"""The wheels as a pip user installs them (``scripts/test-wheels``: a clean virtual environment,
no source checkout on the path): ``tictactoe_rs``, the DuckDB extension of
``tictactoe_rs_duckdb`` and the Polars plugin of ``tictactoe_rs_polars`` load and answer as the
package does."""

from __future__ import annotations

import importlib.util
import os
import sysconfig
from pathlib import Path

import numpy as np
import pytest

import tictactoe_rs as t
import tictactoe_rs.data as td
from tictactoe_rs import _native

SITE = Path(sysconfig.get_paths()["platlib"]).resolve()


# The wheels scripts/test-wheels built and installed ("python duckdb polars", or a subset): a
# test of one of them fails, never skips, when its package does not import.
BUILT = os.environ.get("TTT_WHEELS", "").split()


def absent(part: str) -> bool:
    """Whether the wheel of `part` was neither built by this run nor installed otherwise."""
    return part not in BUILT and importlib.util.find_spec(f"tictactoe_rs_{part}") is None


def test_the_package_is_the_installed_wheel() -> None:
    assert Path(t.__file__).resolve().is_relative_to(SITE), t.__file__
    assert t.status(np.array([[1, 1, 1, 2, 2, 0, 0, 0, 0]], dtype=np.int8)).tolist() == [t.X_WON]


@pytest.fixture
def ttt_file(tmp_path: Path) -> tuple[Path, np.ndarray]:
    """A .ttt file of every reachable position (rank order) 20 times over, three blocks of the
    rank packing (40,320 records each), and its base3 codes."""
    path = tmp_path / "positions.ttt"
    base3 = np.tile(t.convert(np.arange(5478), "rank", "base3").astype(np.int32), 20)
    writer = _native.TttWriter(str(path), "rank")
    writer.write(base3)
    writer.close()
    return path, base3


@pytest.mark.skipif(absent("duckdb"), reason="the DuckDB extension wheel is not installed")
def test_the_duckdb_extension_loads_and_answers(ttt_file: tuple[Path, np.ndarray], tmp_path: Path) -> None:
    import duckdb
    import tictactoe_rs_duckdb

    extension = Path(tictactoe_rs_duckdb.EXTENSION)
    assert extension.is_file() and extension.resolve().is_relative_to(SITE)
    con = duckdb.connect(config={"allow_unsigned_extensions": "true"})
    td.register_duckdb(con, extension=tictactoe_rs_duckdb.EXTENSION)
    native = con.sql(
        "SELECT count(*) FROM duckdb_functions() WHERE function_name = 'ttt_status' AND function_type = 'scalar'"
    ).fetchall()[0][0]
    assert native == 2  # the extension's overloads, not the SQL macro
    path, base3 = ttt_file
    rows = con.sql(f"SELECT record, base3, ttt_status(base3) FROM read_ttt('{path}') ORDER BY record").fetchall()
    assert [r[0] for r in rows] == list(range(len(base3)))
    assert [r[1] for r in rows] == base3.tolist()
    assert [r[2] for r in rows] == t.status(base3, "base3").tolist()
    # salvage := true, as `ttt unpack --salvage`: the intact records of a damaged file.
    data = bytearray(path.read_bytes())
    data[32 + 8 + 100] ^= 1  # block 0 (records 0 to 40319)
    bad = tmp_path / "bad.ttt"
    bad.write_bytes(bytes(data))
    with pytest.raises(duckdb.Error, match="is damaged"):
        con.sql(f"SELECT count(*) FROM read_ttt('{bad}')").fetchall()
    salvaged = con.sql(f"SELECT record FROM read_ttt('{bad}', salvage := true) ORDER BY record").fetchall()
    python = [int(r) for batch in td.read_ttt(bad, salvage=True) for r in batch.column(0).to_pylist()]
    assert [r[0] for r in salvaged] == sorted(python) == list(range(40_320, len(base3)))


@pytest.mark.skipif(absent("polars"), reason="the Polars plugin wheel is not installed")
def test_register_polars_finds_the_installed_plugin() -> None:
    import polars as pl
    import tictactoe_rs_polars

    plugin = Path(tictactoe_rs_polars.PLUGIN)
    assert plugin.is_file() and plugin.resolve().is_relative_to(SITE)
    td.register_polars()
    assert td.polars_backend() == "plugin"
    codes = t.convert(np.arange(5478), "rank", "base3").astype(np.int32)
    out = pl.DataFrame({"code": codes}).select(
        pl.col("code").ttt.status("base3").alias("status"),
        pl.col("code").ttt.convert("base3", "rank").alias("rank"),
    )
    assert out["status"].to_list() == t.status(codes, "base3").tolist()
    assert out["rank"].to_list() == list(range(5478))
