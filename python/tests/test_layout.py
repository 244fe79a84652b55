"""The repository's top-level folders shadow no Python package: with the repository root on
``sys.path`` (``python`` run from the root) and a package not installed, ``import duckdb`` must
fail, not import a folder of ours as an empty namespace package (issue 34: the DuckDB extension
and the Polars plugin live under ``extensions/``)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# The packages the data layer, the environments and their tests import.
PACKAGES = ["duckdb", "polars", "pyarrow", "pyspark", "numpy", "jax", "gymnasium", "pettingzoo"]


def test_the_repository_root_holds_no_package_of_those_names() -> None:
    # Only the root on the path: what a name finds there, it would find first from the root.
    code = (
        "import importlib.util, json, sys\n"
        f"sys.path[:] = [{str(ROOT)!r}]\n"
        f"print(json.dumps({{n: importlib.util.find_spec(n) is not None for n in {PACKAGES!r}}}))"
    )
    result = subprocess.run(
        [sys.executable, "-S", "-c", code], capture_output=True, text=True, check=True
    )
    found = [name for name, spec in json.loads(result.stdout).items() if spec]
    assert not found, f"folders at {ROOT} import as packages: {found}"


def test_the_extensions_live_under_extensions() -> None:
    for name in ("duckdb", "polars"):
        assert (ROOT / "extensions" / name / "Cargo.toml").is_file()
        assert not (ROOT / name).exists()
