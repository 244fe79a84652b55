"""Spark's Python workers: for a local master, every Spark helper of ``tictactoe_rs.data`` runs
them on the driver's interpreter (``sys.executable``, which has numpy and tictactoe_rs), not on
PySpark's default ``python3`` from ``PATH``; an explicit ``PYSPARK_PYTHON`` still wins."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

pytest.importorskip("pyarrow")
pytest.importorskip("pyspark")

from tictactoe_rs.data._io import spark_driver_python


def _session(master: str, python: str = "python3", conf: dict[str, str] | None = None) -> SimpleNamespace:
    """What ``spark_driver_python`` reads of a session: its context's master, conf and
    ``pythonExec``."""
    settings = dict(conf or {})
    context = SimpleNamespace(
        master=master, pythonExec=python, getConf=lambda: SimpleNamespace(get=settings.get)
    )
    return SimpleNamespace(sparkContext=context)


def test_a_local_master_runs_the_drivers_python(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PYSPARK_PYTHON", raising=False)
    for master in ["local", "local[2]", "local[*]", "local-cluster[2,1,1024]"]:
        session = _session(master)
        spark_driver_python(session)
        assert session.sparkContext.pythonExec == sys.executable, master
    # A cluster's executors do not have this interpreter: left alone.
    for master in ["yarn", "spark://host:7077", "k8s://https://host:443"]:
        session = _session(master)
        spark_driver_python(session)
        assert session.sparkContext.pythonExec == "python3", master


def test_an_explicit_python_wins(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PYSPARK_PYTHON", raising=False)
    chosen = _session("local[2]", conf={"spark.pyspark.python": "/opt/python"})
    spark_driver_python(chosen)
    assert chosen.sparkContext.pythonExec == "python3"
    changed = _session("local[2]", python="/opt/python")
    spark_driver_python(changed)
    assert changed.sparkContext.pythonExec == "/opt/python"
    monkeypatch.setenv("PYSPARK_PYTHON", "python3")
    session = _session("local[2]")
    spark_driver_python(session)
    assert session.sparkContext.pythonExec == "python3"


def _family_job(tmp_path: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """``python -m tictactoe_rs.data family 4x4 OUT --spark local[1] --plies 1`` as
    docs/data.md shows it, in a child process with ``env``."""
    return subprocess.run(
        [sys.executable, "-m", "tictactoe_rs.data", "family", "4x4", str(tmp_path / "out"),
         "--spark", "local[1]", "--plies", "1"],
        env=env, capture_output=True, text=True, timeout=600,
    )


def test_the_family_spark_job_runs_without_pyspark_python(tmp_path: Path) -> None:
    """The documented ``--spark`` job, with no ``PYSPARK_PYTHON`` and a ``python3`` on ``PATH``
    that cannot run a worker (as a system Python without numpy cannot): the workers run the
    driver's interpreter, so the job succeeds; then with ``PYSPARK_PYTHON`` naming a wrapper,
    the wrapper runs the workers."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake = bin_dir / "python3"
    fake.write_text("#!/bin/sh\necho 'not the driver python' >&2\nexit 97\n")
    fake.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if k != "PYSPARK_PYTHON"}
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    done = _family_job(tmp_path, env)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "| 1 | 16 |" in done.stdout and "total: 17 positions" in done.stdout, done.stdout

    marker = tmp_path / "wrapper-ran"
    wrapper = bin_dir / "worker-python"
    wrapper.write_text(f'#!/bin/sh\ntouch "{marker}"\nexec "{sys.executable}" "$@"\n')
    wrapper.chmod(0o755)
    done = _family_job(tmp_path, {**env, "PYSPARK_PYTHON": str(wrapper)})
    assert done.returncode == 0, done.stderr[-3000:]
    assert marker.exists(), "PYSPARK_PYTHON was not used for the workers"
