"""The Connect Four worked example (python/examples/train_connect_four.py) runs end to end on
a short budget: it trains, evaluates, and draws its curve."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("jax")
pytest.importorskip("optax")
pytest.importorskip("matplotlib")
pytest.importorskip("gymnasium")

SCRIPT = Path(__file__).resolve().parents[2] / "python" / "examples" / "train_connect_four.py"


def _script():
    spec = importlib.util.spec_from_file_location("train_connect_four", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_short_run_trains_and_draws_the_curve(tmp_path):
    out = tmp_path / "curve.png"
    figures = _script().main(["--iterations", "4", "--envs", "64", "--horizon", "16",
                              "--eval-every", "2", "--eval-games", "100", "--out", str(out)])
    assert out.stat().st_size > 10_000
    assert figures["agent_steps"] == 4 * 64 * 16
    assert figures["win"] + figures["draw"] + figures["loss"] == pytest.approx(1.0)


def test_advantages_match_a_direct_sum():
    """Generalised advantage estimation with lambda = 1 and gamma = 1 is the return to the end
    of the game (or the bootstrap value at the rollout's end) minus the value."""
    module = _script()
    rng = np.random.default_rng(0)
    rewards = rng.normal(size=(6, 3)).astype(np.float32)
    values = rng.normal(size=(6, 3)).astype(np.float32)
    dones = (rng.random((6, 3)) < 0.3).astype(np.float32)
    last = rng.normal(size=3).astype(np.float32)
    adv, target = module.advantages(rewards, values, dones, last, gamma=1.0, lam=1.0)
    for t in range(6):
        for i in range(3):
            ret, s = 0.0, t
            while True:
                ret += rewards[s, i]
                if dones[s, i]:
                    break
                s += 1
                if s == 6:
                    ret += last[i]
                    break
            assert adv[t, i] == pytest.approx(ret - values[t, i], abs=1e-5)
            assert target[t, i] == pytest.approx(ret, abs=1e-5)
