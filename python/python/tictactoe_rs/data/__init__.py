"""Tic-tac-toe data for the columnar ecosystem: Arrow tables, Parquet files, `.ttt` conversion
and recipes for DuckDB, Polars and Spark (``docs/data.md``).

Needs ``pyarrow`` (``pip install tictactoe-rs[data]``), imported when this module is;
``import tictactoe_rs`` alone never imports it. DuckDB, Polars and Spark are imported only by
the recipes of each engine (``tictactoe_rs.data.recipes``).

>>> import tictactoe_rs.data as td
>>> td.positions().num_rows, td.grids().num_rows, td.games().num_rows
(5478, 19683, 255168)
"""

from __future__ import annotations

import pyarrow  # noqa: F401  (the data layer's one hard dependency: fail here, clearly)

from tictactoe_rs.data._io import (
    COMPACT_OPTIONS,
    LAYOUTS,
    LOSSY,
    ROW_GROUP_SIZE,
    Converted,
    DataError,
    blocks_schema,
    check_codes,
    codes_schema,
    duckdb_database,
    encoding_of,
    game_codes_schema,
    open_parquet,
    parquet_options,
    parquet_to_ttt,
    part_seed,
    read_codes,
    read_parquet,
    selfplay_states,
    selfplay_to_parquet,
    states_of,
    states_schema,
    ttt_blocks,
    ttt_to_parquet,
    unpack_blocks,
    unpack_blocks_schema,
    unpack_payloads,
    verify_parquet,
    write_parquet,
    write_tables,
)
from tictactoe_rs.data._tables import (
    CODE_RANGE,
    SCHEMA_VERSION,
    game_facts,
    games,
    grids,
    positions,
    transitions,
)
from tictactoe_rs.data.engines import (
    polars_backend,
    read_ttt,
    register_duckdb,
    register_polars,
    spark_blunders,
    spark_bucket_states,
    spark_function,
    spark_read_ttt,
)

__all__ = [
    "CODE_RANGE",
    "COMPACT_OPTIONS",
    "LAYOUTS",
    "LOSSY",
    "ROW_GROUP_SIZE",
    "SCHEMA_VERSION",
    "Converted",
    "DataError",
    "blocks_schema",
    "check_codes",
    "codes_schema",
    "duckdb_database",
    "encoding_of",
    "game_codes_schema",
    "game_facts",
    "games",
    "grids",
    "open_parquet",
    "parquet_options",
    "parquet_to_ttt",
    "part_seed",
    "polars_backend",
    "positions",
    "read_codes",
    "read_parquet",
    "read_ttt",
    "register_duckdb",
    "register_polars",
    "selfplay_states",
    "selfplay_to_parquet",
    "spark_blunders",
    "spark_bucket_states",
    "spark_function",
    "spark_read_ttt",
    "states_of",
    "states_schema",
    "transitions",
    "ttt_blocks",
    "ttt_to_parquet",
    "unpack_blocks",
    "unpack_blocks_schema",
    "unpack_payloads",
    "verify_parquet",
    "write_parquet",
    "write_tables",
]
