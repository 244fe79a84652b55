"""The DuckDB loadable extension of tictactoe-rs: the tic-tac-toe functions and ``read_ttt``
natively inside DuckDB (the ``extensions/duckdb/`` crate of the tictactoe repository, built by
``scripts/wheels``). ``EXTENSION`` is the path of the extension file; DuckDB loads it into a
connection that allows unsigned extensions::

    import duckdb, tictactoe_rs_duckdb
    con = duckdb.connect(config={"allow_unsigned_extensions": "true"})
    con.execute(f"LOAD '{tictactoe_rs_duckdb.EXTENSION}'")
    con.sql("SELECT count(*) FROM read_ttt('states.ttt', salvage := true)")

With ``tictactoe_rs.data.register_duckdb(con, extension=tictactoe_rs_duckdb.EXTENSION)`` the
other functions and macros of ``tictactoe_rs.data`` come too (docs/data.md)."""

from __future__ import annotations

from pathlib import Path

#: The extension file (DuckDB's C API, metadata footer for this platform; unsigned).
EXTENSION: str = str(Path(__file__).with_name("tictactoe.duckdb_extension"))

__all__ = ["EXTENSION"]
