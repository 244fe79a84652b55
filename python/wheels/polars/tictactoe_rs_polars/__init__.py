"""The Polars expression plugin of tictactoe-rs: the tic-tac-toe functions compiled into
Polars' engine (the ``extensions/polars/`` crate of the tictactoe repository, built by
``scripts/wheels``). ``PLUGIN`` is the path of the plugin library; with this package installed,
``tictactoe_rs.data.register_polars()`` uses it when given no other path (docs/data.md)::

    import polars as pl, tictactoe_rs.data as td
    td.register_polars()                      # the installed plugin
    pl.DataFrame({"code": [0, 2692]}).select(pl.col("code").ttt.status("base3"))"""

from __future__ import annotations

from pathlib import Path

#: The plugin library (pyo3-polars; polars.plugins.register_plugin_function loads it by path).
PLUGIN: str = str(next(Path(__file__).parent.glob("libtictactoe_polars.*")))

__all__ = ["PLUGIN"]
