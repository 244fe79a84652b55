"""``tictactoe_rs.mnk.solve``: perfect-play labels for batches of family positions."""

from __future__ import annotations

import doctest
from pathlib import Path

import numpy as np
import pytest

import tictactoe_rs as t
import tictactoe_rs.mnk as mnk
from tictactoe_rs.mnk import Position, Rules, solve

DATA = Path(__file__).resolve().parents[2] / "tictactoe" / "tests" / "data" / "connect4"


def pons(name: str, n: int) -> list[tuple[str, int]]:
    """The first ``n`` positions of a benchmark set and the scores of Pons' solver."""
    lines = [line for line in (DATA / f"{name}.txt").read_text().splitlines() if line[0] != "#"]
    return [(moves, int(score)) for moves, score in (line.split() for line in lines[:n])]


def test_connect_four_labels_are_pons_scores() -> None:
    positions = pons("end", 12) + pons("middle", 3)
    labels = solve([moves for moves, _ in positions], "connect-four")
    assert labels.score is not None and labels.distance is not None and labels.best is not None
    assert labels.score.dtype == np.int16 and labels.value.dtype == np.int8
    assert labels.best.shape == (15, 7) and labels.best.dtype == np.bool_
    assert labels.score.tolist() == [score for _, score in positions]
    for i, (moves, score) in enumerate(positions):
        mover = 1 if len(moves) % 2 == 0 else 2  # 1 X, 2 O, as value's codes
        expected = 3 if score == 0 else mover if score > 0 else 3 - mover
        assert labels.value[i] == expected, moves
        assert labels.best[i].any()
        # The same position as a Position object gives the same labels.
        game = Position("connect-four")
        for digit in moves:
            game.play(int(digit) - 1)
        again = solve([game])
        assert again.score is not None and again.score[0] == score
    weak = solve([moves for moves, _ in positions], Rules.CONNECT_FOUR, weak=True)
    assert weak.value.tolist() == labels.value.tolist()
    assert weak.distance is None and weak.score is None and weak.best is None


def test_tic_tac_toe_labels_agree_with_the_core_solver() -> None:
    boards = []
    for code in range(19_683):
        cells = [(code // 3**i) % 3 for i in range(9)]
        if t.is_position(np.array([cells], dtype=np.int8))[0]:
            boards.append(cells)
    grid = np.array(boards, dtype=np.int8)
    assert len(grid) == 5_478
    texts = ["".join(".XO"[c] for c in cells) for cells in boards]
    labels = solve(texts, "tic-tac-toe")
    assert labels.distance is not None and labels.best is not None
    assert labels.value.tolist() == t.value(grid).tolist()
    assert labels.distance.tolist() == t.distance(grid).tolist()
    masks = t.best_moves(grid)
    bits = (labels.best.astype(np.uint16) << np.arange(9, dtype=np.uint16)).sum(axis=1)
    assert bits.tolist() == masks.tolist()


def test_small_games_and_the_budget() -> None:
    labels = solve([Position("4,4,3"), "..../..../..../...."], "4,4,3")
    assert labels.value.tolist() == [1, 1]
    assert labels.distance is not None and labels.distance.tolist() == [5, 5]
    assert labels.score is not None and labels.score.tolist() == [6, 6]
    assert labels.best is not None and labels.best[0].nonzero()[0].tolist() == [5, 6, 9, 10]
    assert solve(["XO../..../..../...."], "4x4", weak=True).value.tolist() == [3]
    # A finished game: its value, distance 0 and no best move.
    done = solve(["1212121"], "connect-four")
    assert done.value.tolist() == [1]
    assert done.distance is not None and done.distance.tolist() == [0]
    assert done.score is not None and done.score.tolist() == [-18]
    assert done.best is not None and not done.best.any()
    # Out of budget: -1, and nothing else claimed.
    empty = "/".join(["....."] * 5)
    cut = solve([empty, "X..../...../...../...../....."], "5,5,4", max_nodes=1000)
    assert cut.value.tolist() == [-1, -1]
    assert cut.distance is not None and cut.distance.tolist() == [-1, -1]
    assert cut.score is not None and cut.score.tolist() == [0, 0]
    assert cut.best is not None and not cut.best.any()
    assert solve([empty], "5,5,4", weak=True, max_nodes=np.int64(1000)).value.tolist() == [-1]
    none = solve([], "gomoku")
    assert none.value.shape == (0,) and none.best is not None and none.best.shape == (0, 225)


def test_bad_input_names_the_item() -> None:
    with pytest.raises(ValueError, match=r"item 1 is no position of connect-four: move 3 is column 8"):
        solve(["4453", "448"], "connect-four")
    with pytest.raises(
        ValueError, match=r"item 0 is no position of connect-four: move 7 plays column 1, which is full"
    ):
        solve(["1111111"], "connect-four")
    with pytest.raises(ValueError, match=r"item 0 is no position of 4x4: not a reachable position \(o-started\)"):
        solve(["O.../..../..../...."], "4x4")
    with pytest.raises(ValueError, match=r"item 0 is no position of 4x4: .*"):
        solve(["44"], "4x4")
    with pytest.raises(TypeError, match=r"item 0 is a str: give the game"):
        solve(["4453"])
    with pytest.raises(TypeError, match=r"item 2 must be a Position or a str, got int"):
        solve(["4453", "44", 7], "connect-four")
    with pytest.raises(ValueError, match=r"item 1 is a position of 4x4, not of connect-four"):
        solve([Position("connect-four"), Position("4x4")])
    with pytest.raises(ValueError, match=r"argument `game` is needed when `positions` is empty"):
        solve([])
    with pytest.raises(ValueError, match=r"argument `max_nodes` must be at least 1, got 0"):
        solve(["4453"], "connect-four", max_nodes=0)
    with pytest.raises(TypeError, match=r"argument `max_nodes` must be an int, got bool"):
        solve(["4453"], "connect-four", max_nodes=True)
    with pytest.raises(ValueError, match=r"argument `game`: unknown game \"connect5\""):
        solve(["4453"], "connect5")
    with pytest.raises(TypeError, match=r"argument `game` must be a Rules or a game spec str, got int"):
        solve(["4453"], 7)
    with pytest.raises(TypeError, match=r"argument `weak` must be a bool, got str"):
        solve(["4453"], "connect-four", weak="yes")  # type: ignore[arg-type]
    assert solve(["4453"], "connect-four", weak=np.True_).distance is None


def test_a_bare_string_or_none_is_no_sequence_of_positions() -> None:
    # A str iterates as one-character strs: "4455" would be four positions.
    for bad, name in [("4455", "str"), (b"4455", "bytes"), (None, "NoneType"), (7, "int")]:
        with pytest.raises(TypeError, match=rf"argument `positions` must be a sequence of Positions or strs, got {name}"):
            solve(bad, "connect-four")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"got str: for one position, pass a list of one"):
        solve("4455", "connect-four")
    with pytest.raises(TypeError, match=r"got Position: for one position, pass a list of one"):
        solve(Position("connect-four"))  # type: ignore[arg-type]
    # Any other iterable is a sequence: a tuple, a generator.
    assert solve(("4455",), "connect-four").value.tolist() == [1]
    assert solve((m for m in ["4455", "445566"]), "connect-four").value.tolist() == [1, 1]


def test_the_budget_holds_for_connect_four() -> None:
    # "6411771644" (ten stones) is off the shipped books (the exact book's deepest positions have
    # nine): millions of nodes; the budget stops the search, strong and weak, on moves and on
    # Position objects alike.
    ten = Position("connect-four")
    for digit in "6411771644":
        ten.play(int(digit) - 1)
    for positions in (["6411771644"], [ten]):
        cut = solve(positions, "connect-four", max_nodes=1000)
        assert cut.value.tolist() == [-1]
        assert cut.distance is not None and cut.distance.tolist() == [-1]
        assert cut.best is not None and not cut.best.any()
        assert solve(positions, "connect-four", weak=True, max_nodes=1000).value.tolist() == [-1]
    # The book answers the empty board in a handful of nodes: within a budget of 100.
    empty = solve([Position("connect-four")], max_nodes=100)
    assert empty.value.tolist() == [1] and empty.best is not None
    assert empty.best[0].nonzero()[0].tolist() == [3]
    # A position solved after a cut one in the same call is solved right.
    assert solve(["6411771644", "4455"], "connect-four", max_nodes=1000).value.tolist() == [-1, 1]


_LONG_SOLVE = """
import sys
import tictactoe_rs.mnk as mnk
print("ready", flush=True)
try:
    mnk.solve({positions!r}, {game!r}, max_nodes=10**15)
except BaseException as error:
    print(type(error).__name__, flush=True)
    raise
print("finished", flush=True)
"""


@pytest.mark.parametrize(
    ("positions", "game"),
    [
        (["6411771644", "6774313333", "1277317731", "1256376645"], "connect-four"),
        (["/".join(["." * 15] * 15)], "gomoku"),
    ],
    ids=["connect-four", "gomoku"],
)
def test_ctrl_c_stops_a_long_solve_with_keyboard_interrupt(positions: list[str], game: str) -> None:
    """SIGINT (Ctrl-C) during a search that takes seconds to minutes (four Connect Four
    positions of ten stones, past the shipped books, about 7 * 10^7 nodes in all; the empty
    gomoku board, far more) raises KeyboardInterrupt within seconds."""
    import signal
    import subprocess
    import sys
    import time

    code = _LONG_SOLVE.format(positions=positions, game=game)
    process = subprocess.Popen(
        [sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert process.stdout is not None and process.stdout.readline() == "ready\n"
        time.sleep(1.0)  # well into the search (tables allocated, searching)
        assert process.poll() is None, "the search ended by itself"
        process.send_signal(signal.SIGINT)
        stopped = time.monotonic()
        out, err = process.communicate(timeout=30)
        waited = time.monotonic() - stopped
    finally:
        process.kill()
    assert out.splitlines() == ["KeyboardInterrupt"], (out, err)
    assert "KeyboardInterrupt" in err and "PanicException" not in err, err
    assert process.returncode != 0
    # About a second is the promise; 10 s leaves room for a loaded machine.
    assert waited < 10, waited


def test_the_docstring_runs() -> None:
    failures, tried = doctest.testmod(mnk, verbose=False)[:2]
    assert tried > 0 and failures == 0
