"""The Q-learning tutorial: its code is the example script's, and the script runs (small)."""

from __future__ import annotations

import importlib.util
import re
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "python" / "examples" / "q_learning.py"
DOC = ROOT / "docs" / "tutorial-q-learning.md"


def _script():
    spec = importlib.util.spec_from_file_location("q_learning", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_code_block_of_the_tutorial_is_in_the_script():
    source = SCRIPT.read_text()
    pieces = [textwrap.dedent(p).rstrip()
              for _, p in re.findall(r"# --- (\w+) ---\n(.*?)# --- end \1 ---", source, re.S)]
    # A block marked `<!-- not in the script -->` is a reader's line (a call of the script's
    # functions with their defaults); the doc test (test_docs.py) still runs it.
    blocks = re.findall(r"(<!-- not in the script -->\n)?```python\n(.*?)```", DOC.read_text(), re.S)
    assert len(blocks) >= 5
    for exempt, block in blocks:
        assert exempt or block.rstrip() in pieces, block[:80]


def test_script_trains_and_draws_the_curve(tmp_path):
    pytest.importorskip("matplotlib")
    pytest.importorskip("gymnasium")
    out = tmp_path / "curve.png"
    figures = _script().main(["--steps", "240", "--eval-every", "60", "--eval-games", "300",
                              "--out", str(out)])
    assert out.stat().st_size > 10_000
    # Against the heuristic the greedy policy learns to draw every game.
    assert figures["draw_heuristic"] == 1.0 and figures["loss_heuristic"] == 0.0
    assert figures["masked_illegal"] == 0 and figures["masked_games"] > 10_000
    assert 0.5 < figures["agrees_with_solver"] <= 1.0
