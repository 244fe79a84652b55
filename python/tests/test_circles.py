"""scripts/check-circles: finds import circles in Rust and Python, and the repository has none."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "check-circles"


def run(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), str(root)], capture_output=True, text=True, check=False
    )


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_the_repository_has_no_circle() -> None:
    result = run(ROOT)
    assert result.returncode == 0, result.stdout
    assert result.stdout.rstrip().endswith(" 0 circles")


def test_a_rust_circle_through_a_reexport_is_found(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "k/Cargo.toml": "[package]\nname = 'k'\n",
            # The face re-exports both; a uses b's name through the face, b uses a's directly.
            "k/src/lib.rs": "mod a;\nmod b;\npub use a::A;\npub use b::B;\n",
            "k/src/a.rs": "use crate::B;\npub struct A(B);\n",
            "k/src/b.rs": "pub struct B;\nfn f() { let _ = super::a::A; }\n",
            "k/src/c.rs": "// use crate::a::A; in a comment is no arrow\n",
        },
    )
    result = run(tmp_path)
    assert result.returncode == 1
    assert "circle 1: k/src/a.rs, k/src/b.rs" in result.stdout
    assert "k/src/a.rs -> k/src/b.rs: B" in result.stdout
    assert "k/src/b.rs -> k/src/a.rs: A" in result.stdout


def test_test_modules_comments_and_faces_are_no_arrows(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "k/Cargo.toml": "[package]\nname = 'k'\n",
            "k/src/lib.rs": "mod a;\nmod b;\npub use a::A;\npub use b::B;\n",
            "k/src/a.rs": "use crate::B;\npub struct A(B);\n",
            "k/src/b.rs": (
                "pub struct B;\n/* crate::a::A */\n"
                "#[cfg(test)]\nmod tests {\n    use crate::a::A;\n}\n"
            ),
        },
    )
    result = run(tmp_path)
    assert result.returncode == 0, result.stdout


def test_a_python_circle_is_found(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "pkg/__init__.py": "from pkg.one import f\n",
            "pkg/one.py": "def f():\n    from pkg.two import g\n    return g\n",
            "pkg/two.py": "from pkg import one\n\ndef g():\n    return one\n",
        },
    )
    result = run(tmp_path)
    assert result.returncode == 1
    assert "pkg/one.py -> pkg/two.py: g" in result.stdout
    assert "pkg/two.py -> pkg/one.py: one" in result.stdout
