"""Every fenced ```python block of docs/*.md and python/README.md runs as written.

A document is one session, as a reader follows it: its blocks run in order in one fresh
interpreter, in an empty temporary directory, each compiled under its own file name
(``docs/data.md:195``), so a failure names the block. Nothing is prepended: a block that
needs a name or a file defines or creates it, or an earlier block of the same document does.
A block is skipped only when the document marks it with ``<!-- needs: MODULE -->`` on the line
before the fence and MODULE cannot be imported here (docs/data.md's use of the
``tictactoe_rs_duckdb`` wheel, which ``scripts/test-wheels`` tests instead).
"""

from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = sorted((ROOT / "docs").glob("*.md")) + [ROOT / "python" / "README.md"]
FENCE = re.compile(r"(?:<!-- needs: (?P<needs>[\w.]+) -->\n)?```python\n(?P<code>.*?)```", re.S)

RUNNER = """
import json, sys, warnings
warnings.simplefilter("ignore")
blocks = json.loads(sys.stdin.read())
scope = {"__name__": "__main__"}
for name, code in blocks:
    exec(compile(code, name, "exec"), scope)
"""


def blocks(doc: Path) -> list[tuple[str, str]]:
    text = doc.read_text()
    found = []
    for m in FENCE.finditer(text):
        needs = m.group("needs")
        if needs and importlib.util.find_spec(needs) is None:
            continue
        line = text.count("\n", 0, m.start("code")) + 1
        found.append((f"{doc.relative_to(ROOT)}:{line}", m.group("code")))
    return found


DOCUMENTS = [doc for doc in DOCS if FENCE.search(doc.read_text())]


def test_the_documents_with_python_blocks_are_found() -> None:
    names = {doc.name for doc in DOCUMENTS}
    assert {"python.md", "environments.md", "data.md", "tutorial-q-learning.md"} <= names


@pytest.mark.parametrize("doc", DOCUMENTS, ids=lambda d: d.name)
def test_every_python_block_runs_as_written(doc: Path, tmp_path: Path) -> None:
    code = blocks(doc)
    assert code, doc
    result = subprocess.run(
        [sys.executable, "-c", RUNNER],
        input=json.dumps(code),
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert result.returncode == 0, result.stderr[-4000:]
