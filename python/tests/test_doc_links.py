"""Every relative link in README.md, CHANGELOG.md and docs/*.md leads somewhere: the file exists
and, when the link names a heading (`file.md#heading`), the file has that heading, by the
anchors GitHub makes (lower case, punctuation dropped, spaces to hyphens, `-1`, `-2` for
repeats)."""

from __future__ import annotations

import re
import unicodedata
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = [ROOT / "README.md", ROOT / "CHANGELOG.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)\s]+)\)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading."""
    text = re.sub(r"`([^`]*)`", r"\1", heading)
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text).strip().lower()
    kept = (c for c in text if c in " -_" or unicodedata.category(c)[0] in "LN")
    return "".join(kept).replace(" ", "-")


def outside_code(path: Path) -> list[tuple[int, str]]:
    """The lines of `path` outside fenced code blocks, numbered from 1."""
    lines, fenced = [], False
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced:
            lines.append((number, line))
    return lines


@cache
def anchors(path: Path) -> frozenset[str]:
    seen: dict[str, int] = {}
    found = set()
    for _, line in outside_code(path):
        match = HEADING.match(line)
        if match:
            base = slug(match.group(2))
            repeat = seen.get(base, 0)
            found.add(base if repeat == 0 else f"{base}-{repeat}")
            seen[base] = repeat + 1
    return frozenset(found)


def test_slugs_are_githubs() -> None:
    assert slug("Hints on the 3 × 3 and 4 × 4 boards (2026-11-29)") == ("hints-on-the-3--3-and-4--4-boards-2026-11-29")
    assert slug("Ultimate tic-tac-toe against the peers: `peers/` (2026-11-28)") == (
        "ultimate-tic-tac-toe-against-the-peers-peers-2026-11-28"
    )
    assert slug("`ttt solve --game SPEC POSITION...`") == "ttt-solve---game-spec-position"
    environments = anchors(ROOT / "docs" / "environments.md")
    assert {"ultimate-tic-tac-toe", "ultimate-tic-tac-toe-1"} <= environments


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves(document: Path) -> None:
    broken = []
    for number, line in outside_code(document):
        for target in LINK.findall(line):
            if re.match(r"[a-z]+:", target):
                continue  # https:, mailto:
            name, _, heading = target.partition("#")
            destination = (document.parent / name).resolve() if name else document
            if not destination.exists():
                broken.append(f"{number}: {target}: no such file")
            elif heading and destination.suffix == ".md" and heading not in anchors(destination):
                broken.append(f"{number}: {target}: no such heading")
    assert not broken, broken
