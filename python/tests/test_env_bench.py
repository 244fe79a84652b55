"""The benchmark command runs and reports (tiny sizes; tests never time)."""

from __future__ import annotations

from tictactoe_rs import bench


def test_bench_runs_and_reports(capsys):
    assert bench.main(["--batches", "1,8", "--envs", "ours,pyspiel", "--rounds", "1",
                       "--seconds", "0.001"]) == 0
    out = capsys.readouterr().out
    assert "| 8 |" in out and "ours at its best batch" in out


def test_report_ratios():
    text = bench.report({"ours": {1: 4e6}, "pgx": {1: 1e6}}, [1])
    assert "| 1 | 4M | 1M | 4x |" in text
    assert "ours best / pgx best = 4x" in text
