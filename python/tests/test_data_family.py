"""The family as data (tictactoe_rs.data.family): every reachable position by ply with its
status. Tic-tac-toe against the positions table (the 3x3 library, an independent
implementation), 4 x 3 (k = 3) against a plain walk of tictactoe_rs.mnk.Position, 4 x 4 to
9 plies against docs/family.md's counts (the library's exhaustive grid walk); the full 4 x 4
table and Connect Four to 12 plies are the second command of docs/data.md (Spark to 5 plies
is in test_data_engines.py, which holds the Spark session)."""

from __future__ import annotations

import numpy as np
import pytest

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

import tictactoe_rs.data as td  # noqa: E402
from tictactoe_rs import _native  # noqa: E402
from tictactoe_rs.data import family  # noqa: E402
from tictactoe_rs.mnk import Position  # noqa: E402

#: docs/family.md, "Counts", 4 x 4, k = 4: (marks, positions, X won, O won, draws, ongoing).
FOUR_BY_FOUR = [
    (0, 1, 0, 0, 0, 1), (1, 16, 0, 0, 0, 16), (2, 240, 0, 0, 0, 240), (3, 1680, 0, 0, 0, 1680),
    (4, 10920, 0, 0, 0, 10920), (5, 43680, 0, 0, 0, 43680), (6, 160160, 0, 0, 0, 160160),
    (7, 400400, 2200, 0, 0, 398200), (8, 895950, 0, 4924, 0, 891026),
    (9, 1433520, 39392, 0, 0, 1394128),
]
#: docs/family.md, "Counts", Connect Four: distinct positions by ply.
CONNECT_FOUR = [1, 7, 49, 238, 1120, 4263, 16422, 54859, 184275, 558186, 1662623, 4568683, 12236101]


def test_tic_tac_toe_layers_are_the_positions_table():
    positions = td.positions()
    marks = positions.column("marks").to_numpy()
    status = positions.column("status").to_numpy()
    base3 = positions.column("base3").to_numpy()
    seen = 0
    for ply, keys, statuses in family.layers("tic-tac-toe"):
        here = marks == ply
        # the family's base-3 key is the 3x3 library's base3 code (cell i is digit i)
        order = np.argsort(base3[here])
        assert (keys == base3[here][order]).all()
        assert (statuses == status[here][order]).all()
        seen += len(keys)
    assert seen == 5478


def walk(spec):
    """Every reachable position by ply, by play (one tictactoe_rs.mnk.Position at a time):
    per ply, the count of each status 0 ongoing, 1 X won, 2 O won, 3 draw."""
    layer = {Position(spec).board: Position(spec)}
    out = []
    while layer:
        codes = [p.status for p in layer.values()]
        out.append(tuple(np.bincount(codes, minlength=4)))
        nxt = {}
        for p in layer.values():
            if p.status != 0:
                continue
            for action in p.legal_actions():
                child = p.copy()
                child.play(action)
                nxt.setdefault(child.board, child)
        layer = nxt
    return out


def test_four_by_three_matches_a_walk_by_play():
    want = walk("4,3,3")
    got = [(layer.ongoing, layer.x_won, layer.o_won, layer.draws) for layer in family.count_layers("4,3,3")]
    assert got == want
    assert sum(map(sum, want)) > 50_000 and any(w[1] for w in want) and any(w[2] for w in want)


def test_four_by_four_to_nine_plies_matches_the_library_counts():
    got = [layer.counts() for layer in family.count_layers("4x4", max_plies=9)]
    assert got == FOUR_BY_FOUR


def test_written_layers_read_back_as_one_table(tmp_path):
    layers = family.write_positions("4x4", tmp_path / "f", max_plies=5)
    assert [layer.counts() for layer in layers] == FOUR_BY_FOUR[:6]
    table = pq.read_table(tmp_path / "f")  # every ply-NN directory; the card is skipped
    assert table.num_rows == sum(row[1] for row in FOUR_BY_FOUR[:6])
    assert td.verify_parquet(next((tmp_path / "f" / "ply-05").iterdir())) == 43680
    card = (tmp_path / "f" / "_dataset_card.md").read_text()
    assert "Every position of 4x4 reachable" in card and "base-3 code" in card
    assert "- `status`: 0 ongoing, 1 X won, 2 O won, 3 draw" in card


def test_connect_four_locally_to_six_plies():
    assert [layer.positions for layer in family.count_layers("connect-four", max_plies=6)] == CONNECT_FOUR[:7]


def test_bad_keys_and_rules_are_errors():
    with pytest.raises(ValueError, match=r"keys\[1\]: -5 is negative"):
        _native.mnk_expand("4x4", np.array([0, -5], np.int64))
    with pytest.raises(ValueError, match=r"keys\[0\]: 43046721 is not a base-3 code of 4x4"):
        _native.mnk_expand("4x4", np.array([3**16], np.int64))
    with pytest.raises(ValueError, match=r"keys\[0\]: 2 is not a position"):
        _native.mnk_expand("4x4", np.array([2], np.int64))  # O on the board before X
    with pytest.raises(ValueError, match="argument `rules`: the keys of gomoku do not fit an int64"):
        _native.mnk_root_key("gomoku")


def test_the_family_command_writes_and_prints_the_layers(tmp_path):
    import subprocess
    import sys

    run = subprocess.run([sys.executable, "-m", "tictactoe_rs.data", "family", "4,3,3", str(tmp_path / "o")],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    total = sum(layer.positions for layer in family.count_layers("4,3,3"))
    assert f"total: {total:,} positions" in run.stdout
    assert pq.read_table(tmp_path / "o").num_rows == total
    card = (tmp_path / "o" / "_dataset_card.md").read_text()
    assert f"Command: `python -m tictactoe_rs.data family 4,3,3 {tmp_path / 'o'}`" in card
    run = subprocess.run([sys.executable, "-m", "tictactoe_rs.data", "family", "gomoku", str(tmp_path / "g")],
                         capture_output=True, text=True)
    assert run.returncode == 1 and "the keys of gomoku do not fit an int64" in run.stderr


def _board(key: int, rules: str) -> str:
    """A base-3 key (cell i is digit i in text order: 0 empty, 1 X, 2 O) as board text."""
    r = _native.Rules(rules)
    cells = []
    for _ in range(r.cells):
        key, digit = divmod(key, 3)
        cells.append(".XO"[digit])
    return "/".join("".join(cells[row * r.cols:(row + 1) * r.cols]) for row in range(r.rows))


def test_solved_tic_tac_toe_layers_are_the_positions_tables_values():
    positions = td.positions()
    base3 = positions.column("base3").to_numpy()
    value = dict(zip(base3.tolist(), positions.column("value").to_numpy().tolist()))
    distance = dict(zip(base3.tolist(), positions.column("distance").to_numpy().tolist()))
    solved = family.solve_layers("tic-tac-toe")
    assert sum(len(layer.keys) for layer in solved) == 5478
    for layer in solved:
        assert [value[k] for k in layer.keys.tolist()] == layer.values.tolist(), layer.ply
        assert [distance[k] for k in layer.keys.tolist()] == layer.distances.tolist(), layer.ply


def test_solved_layers_agree_with_the_solver():
    """4 x 3, k = 3: every position's value and distance against the family's own search
    (``tictactoe_rs.mnk.solve``, an alpha-beta solver, not this retrograde walk)."""
    from tictactoe_rs.mnk import solve

    solved = family.solve_layers("4,3,3")
    keys = np.concatenate([layer.keys for layer in solved])
    values = np.concatenate([layer.values for layer in solved])
    distances = np.concatenate([layer.distances for layer in solved])
    pick = np.random.default_rng(3).choice(len(keys), 3000, replace=False)
    labels = solve([_board(int(k), "4,3,3") for k in keys[pick]], "4,3,3")
    assert (labels.value == values[pick]).all()
    assert labels.distance is not None and (labels.distance == distances[pick]).all()
    # Every class occurs, and the root is the game's value.
    assert set(np.unique(values).tolist()) == {1, 2, 3}
    root = solve([_board(0, "4,3,3")], "4,3,3")
    assert (solved[0].values[0], solved[0].distances[0]) == (root.value[0], root.distance[0])


def test_solved_positions_are_written_with_their_labels(tmp_path):
    layers = family.write_positions("tic-tac-toe", tmp_path / "s", solve=True)
    assert sum(layer.positions for layer in layers) == 5478
    table = pq.read_table(tmp_path / "s")
    assert table.column_names == ["ply", "key", "status", "value", "distance"]
    positions = td.positions()
    by_key = dict(zip(positions.column("base3").to_pylist(), positions.column("value").to_pylist()))
    assert [by_key[k] for k in table.column("key").to_pylist()] == table.column("value").to_pylist()
    card = (tmp_path / "s" / "_dataset_card.md").read_text()
    assert "- `value`: perfect-play result: 1 X wins, 2 O wins, 3 draw" in card
    assert "with its status and its perfect-play value and distance." in card
    with pytest.raises(ValueError, match="solve needs every layer"):
        family.write_positions("tic-tac-toe", tmp_path / "t", max_plies=3, solve=True)
