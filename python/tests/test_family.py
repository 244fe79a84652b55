"""``tictactoe_rs.mnk``: the family's Python API, its errors and its examples."""

from __future__ import annotations

import copy
import doctest
import pickle
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import tictactoe_rs as t
import tictactoe_rs.mnk as mnk
from tictactoe_rs.mnk import PRESETS, Position, Rules


def test_rules_from_specs_and_numbers() -> None:
    assert [str(r) for r in PRESETS] == ["tic-tac-toe", "4x4", "connect-four", "gomoku"]
    assert [r.preset for r in PRESETS] == ["tic-tac-toe", "4x4", "connect-four", "gomoku"]
    for rules in PRESETS:
        assert Rules(str(rules)) == rules
        assert Rules.of(rules.rows, rules.cols, rules.k, rules.gravity) == rules
    c4 = Rules("Connect_Four")
    assert (c4.rows, c4.cols, c4.k, c4.gravity, c4.cells, c4.actions) == (6, 7, 4, True, 42, 7)
    assert c4 == Rules("6,7,4,gravity") == Rules.of(np.int64(6), np.uint8(7), 4, gravity=True)
    assert Rules("4,4,4") == Rules.FOUR_BY_FOUR and Rules("15,15,5") == Rules.GOMOKU
    r = Rules("5,5,4")
    assert (str(r), repr(r), r.preset, r.actions) == ("5,5,4", "Rules('5,5,4')", None, 25)
    assert str(Rules.of(5, 4, 4, True)) == "5,4,4,gravity"
    assert len({Rules("gomoku"), Rules.GOMOKU, Rules("3,3,3")}) == 2
    assert pickle.loads(pickle.dumps(c4)) == c4


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("chess", "argument `spec`: unknown game \"chess\""),
        ("3,3", "argument `spec`: unknown game"),
        ("20,3,3", "argument `spec`: rows must be from 1 to 19, got 20"),
        ("3,4,5", "argument `spec`: k must be from 1 to 4 (the longer side), got 5"),
    ],
)
def test_bad_specs_say_why(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        Rules(spec)


def test_bad_numbers_say_why() -> None:
    with pytest.raises(ValueError, match=r"argument `rows` must be from 1 to 19, got -1"):
        Rules.of(-1, 3, 3)
    with pytest.raises(ValueError, match=r"argument `cols` must be from 1 to 19, got 0"):
        Rules.of(3, 0, 3)
    with pytest.raises(ValueError, match=r"argument `k` must be from 1 to 3 \(the longer side\), got 4"):
        Rules.of(3, 3, 4)
    with pytest.raises(ValueError, match=r"got 99999999999999999999"):
        Rules.of(3, 3, 99999999999999999999)


@pytest.mark.parametrize("bad", [3.0, True, np.bool_(True), "3", np.float64(3), np.array(3), None])
def test_integer_arguments_take_ints_only(bad: object) -> None:
    game = Position("tic-tac-toe")
    for call, name in [
        (lambda: Rules.of(bad, 3, 3), "rows"),  # type: ignore[arg-type]
        (lambda: Rules.of(3, 3, bad), "k"),  # type: ignore[arg-type]
        (lambda: game.play(bad), "action"),  # type: ignore[arg-type]
        (lambda: game.is_legal(bad), "action"),  # type: ignore[arg-type]
        (lambda: game.undo(bad, 0), "row"),  # type: ignore[arg-type]
        (lambda: game.undo(0, bad), "col"),  # type: ignore[arg-type]
    ]:
        with pytest.raises(TypeError, match=f"argument `{name}` must be an int, got"):
            call()
    assert game == Position("tic-tac-toe")
    with pytest.raises(TypeError, match="argument `rules` must be a Rules or a game spec str, got"):
        Position(3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="argument `spec` must be a str, got"):
        Rules(3)  # type: ignore[arg-type]


def test_numpy_integers_are_ints() -> None:
    game = Position("4x4")
    dtypes: list[type[np.integer[Any]]] = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]
    for dtype in dtypes:
        action = game.legal_actions()[0]
        assert game.is_legal(dtype(action))
        row, col = game.play(dtype(action))
        assert (row, col) == divmod(action, 4)
    game.undo(np.int64(row), np.uint8(col))
    assert game.plies == 7


def test_a_game_of_connect_four() -> None:
    game = Position(Rules.CONNECT_FOUR)
    assert (game.status, game.winner, game.to_move, game.plies, game.hash) == (t.ONGOING, 0, t.X, 0, 0)
    assert game.legal_actions() == list(range(7))
    for column in [3, 2, 3, 2, 3, 2]:
        game.play(column)
    before = game.copy()
    assert game.play(3) == (2, 3)
    assert (game.status, game.winner, game.to_move) == (t.X_WON, t.X, 0)
    assert game.board == "......./......./...X.../..OX.../..OX.../..OX..."
    assert str(game).split("\n")[2] == ". . . X . . ."
    assert repr(game) == "Position.from_board('connect-four', '" + game.board + "')"
    assert game.legal_actions() == [] and game.legal_mask().tolist() == [False] * 7
    cells = game.cells()
    assert cells.dtype == np.int8 and cells.shape == (42,)
    assert cells.reshape(6, 7)[:, 3].tolist() == [0, 0, 1, 1, 1, 1]
    assert before != game and before.status == t.ONGOING
    game.undo(2, 3)
    assert game == before and game.hash == before.hash


def test_illegal_moves_are_value_errors_and_change_nothing() -> None:
    game = Position("connect-four")
    for _ in range(6):
        game.play(0)
    snapshot = game.copy()
    for action, message in [
        (0, "argument `action`: column 0 is full"),
        (7, "argument `action`: move 7 is off the board: expected 0 to 6"),
        (-1, "argument `action`: move -1 is off the board: expected 0 to 6"),
        (2**70, "off the board"),
    ]:
        with pytest.raises(ValueError, match=re.escape(message)):
            game.play(action)
        assert not game.is_legal(action)
        assert game == snapshot
    ttt = Position("tic-tac-toe")
    ttt.play(4)
    with pytest.raises(ValueError, match="argument `action`: cell 4 is taken"):
        ttt.play(4)
    won = Position.from_board("tic-tac-toe", "XXX/OO./...")
    with pytest.raises(ValueError, match=r"argument `action`: the game is over \(x-won\)"):
        won.play(8)


def test_undo_checks_the_mark() -> None:
    game = Position("tic-tac-toe")
    game.play(0)
    game.play(4)
    for (row, col), message in [
        ((0, 0), "argument `row`, `col`: r0c0 does not hold a mark of the last mover"),
        ((2, 2), "argument `row`, `col`: r2c2 does not hold a mark of the last mover"),
        ((3, 0), "argument `row`, `col`: (3, 0) is off the 3 × 3 board"),
        ((-1, 0), "argument `row`, `col`: (-1, 0) is off the 3 × 3 board"),
    ]:
        with pytest.raises(ValueError, match=re.escape(message)):
            game.undo(row, col)
    game.undo(1, 1)
    game.undo(0, 0)
    assert game == Position("tic-tac-toe")
    c4 = Position("connect-four")
    c4.play(3)
    c4.play(3)
    c4.play(3)
    with pytest.raises(ValueError, match="leaves a board no game reaches"):
        c4.undo(5, 3)  # X's bottom mark, under two others


def test_from_board_names_every_violation() -> None:
    board = "XXX/OO./X.."
    with pytest.raises(ValueError) as info:
        Position.from_board("tic-tac-toe", board)
    text = str(info.value)
    assert text.startswith("argument `board`: XXX/OO./X.. is not a reachable position: ")
    codes = Position.violations("tic-tac-toe", board)
    assert codes and all(code in ("x-went-twice", "continued-after-win") for code in codes)
    assert "wrong turn order: X went twice" in text
    assert Position.violations("connect-four", "......./......./......./......./...X.../.......") == [
        "floating-mark"
    ]
    assert Position.violations("3,3,3", "X../.O./...") == []
    for bad, message in [
        ("XX/OO./...", "row 1 has 2 cells, expected 3"),
        ("XXQ/OO./...", "bad character 'Q' at index 2"),
        ("XXX/OO.", "2 rows, expected 3 for a tic-tac-toe board"),
    ]:
        with pytest.raises(ValueError, match=re.escape(f"argument `board`: {message}")):
            Position.from_board("tic-tac-toe", bad)
    position = Position.from_board(Rules.GOMOKU, "/".join(["." * 15] * 7 + ["..X" + "." * 12] + ["." * 15] * 7))
    assert (position.to_move, position.plies) == (t.O, 1)


def test_copies_and_pickles_are_independent() -> None:
    game = Position("gomoku")
    game.play(112)
    for other in [game.copy(), copy.copy(game), copy.deepcopy(game), pickle.loads(pickle.dumps(game))]:
        assert other == game and other.hash == game.hash and other.rules == game.rules
        other.play(0)
        assert other != game and game.plies == 1
    with pytest.raises(TypeError):
        hash(game)


def test_hashes_follow_the_board() -> None:
    a, b = Position("5,5,4"), Position("5,5,4")
    for action in [0, 6, 12]:
        a.play(action)
    for action in [12, 6, 0]:
        b.play(action)
    assert a == b and a.hash == b.hash != 0
    assert Position.from_board("5,5,4", a.board).hash == a.hash


def test_docstring_examples_run() -> None:
    runner = doctest.DocTestRunner()
    parser = doctest.DocTestParser()
    for name, obj in [("mnk", mnk), ("Rules", Rules), ("Position", Position)]:
        assert ">>>" in (obj.__doc__ or ""), name
        runner.run(parser.get_doctest(obj.__doc__ or "", {}, name, None, 0))
    assert runner.failures == 0


def test_python_examples_of_the_docs_run() -> None:
    docs = Path(__file__).resolve().parents[2] / "docs"
    for page in (docs / "family.md", docs / "solver.md"):
        text = page.read_text()
        blocks = [b for b in re.findall(r"```python\n(.*?)```", text, re.S) if "tictactoe_rs.mnk" in b]
        assert blocks, page
        for block in blocks:
            exec(compile(block, str(page), "exec"), {})


def test_the_names_users_see() -> None:
    """``help`` and ``repr`` show the names the package exports, and the package's namespace
    holds no ``np`` or ``npt`` of its own imports."""
    import pydoc

    for cls, name in [(Position, "Position"), (Rules, "Rules")]:
        assert (cls.__name__, cls.__qualname__, cls.__module__) == (name, name, "tictactoe_rs.mnk")
        assert f"class {name}" in pydoc.render_doc(cls) and "Mnk" not in pydoc.render_doc(cls)
    for module in (t, mnk):
        assert not {"np", "npt"} & set(dir(module)), module.__name__


def test_status_and_players_speak_the_3x3_numbers() -> None:
    """The family's status, winner and side to move are the numbers of the 3 x 3 API, on the
    same boards: every reachable tic-tac-toe position."""
    grid = t.decode(np.arange(5478), "rank")  # every reachable position
    family = [Position.from_board("tic-tac-toe", "".join(".XO"[c] for c in cells)) for cells in grid.tolist()]
    assert [p.status for p in family] == t.status(grid).tolist()
    assert [p.winner for p in family] == t.winner(grid).tolist()
    assert [p.to_move for p in family] == t.to_move(grid).tolist()
