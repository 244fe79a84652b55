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


def test_a_peer_that_cannot_be_imported_is_skipped_with_the_reason():
    """``--quick`` in a venv with the ``[pettingzoo]`` extra but no pygame: PettingZoo's
    ``tictactoe_v3`` imports pygame, so that peer is skipped, named, and the rest runs."""
    import subprocess
    import sys

    code = ("import sys; sys.modules['pygame'] = None\n"
            "from tictactoe_rs import bench\n"
            "sys.exit(bench.main(['--batches', '1', '--envs', 'ours,pettingzoo', '--rounds', '1',"
            " '--seconds', '0.001']))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert "pettingzoo: skipped, pygame cannot be imported" in result.stderr
    assert "| 1 |" in result.stdout


def test_family_games_run_and_peers_without_them_are_skipped(capsys):
    assert bench.main(["--game", "gomoku", "--batches", "1,8", "--envs", "ours,ours-selfplay,pgx,pyspiel",
                       "--rounds", "1", "--seconds", "0.001"]) == 0
    captured = capsys.readouterr()
    assert "pgx: skipped, pgx has no gomoku" in captured.err
    assert captured.out.startswith("python -m tictactoe_rs.bench --game gomoku")
    assert "| 8 |" in captured.out and "ours-selfplay at its best batch" in captured.out
    rows = bench.run(batches=[4], envs=["ours"], rounds=1, seconds=0.001, game="connect-four")
    assert list(rows["ours"]) == [4]
