"""The Python examples of docs/environments.md run, and the module docstrings' examples pass."""

from __future__ import annotations

import doctest
import re
import warnings
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "environments.md"
BLOCKS = re.findall(r"```python\n(.*?)```", DOC.read_text(), re.S)


def test_the_doc_has_its_examples():
    assert len(BLOCKS) >= 7


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_doc_example_runs(index):
    pytest.importorskip("gymnasium")
    pytest.importorskip("pettingzoo")
    pytest.importorskip("pyspiel")
    pytest.importorskip("jax")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exec(compile(BLOCKS[index], f"environments.md block {index}", "exec"), {})


@pytest.mark.parametrize(
    "name", ["batched", "pettingzoo", "gymnasium", "openspiel", "sb3", "wrappers", "jax"]
)
def test_module_docstring_examples(name):
    pytest.importorskip("gymnasium")
    pytest.importorskip("pettingzoo")
    pytest.importorskip("jax")
    import importlib

    module = importlib.import_module(f"tictactoe_rs.envs.{name}")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = doctest.testmod(module)
    assert result.failed == 0 and result.attempted > 0


def test_core_import_pulls_in_no_framework():
    import subprocess
    import sys

    code = ("import sys, tictactoe_rs, tictactoe_rs.envs, tictactoe_rs.envs.batched, "
            "tictactoe_rs.envs.openspiel\n"
            "heavy = {'gymnasium', 'pettingzoo', 'pyspiel', 'jax', 'pgx', 'pygame'}\n"
            "print(sorted(heavy & set(sys.modules)))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
