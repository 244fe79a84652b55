"""The k-in-a-row family against OpenSpiel: random games in lockstep with ``pyspiel``.

Each case plays seeded random games move by move in ``tictactoe_rs.mnk.Position`` and in the
matching ``pyspiel`` game, and after every move compares the status (ongoing, X won, O won,
draw) and the set of legal moves; at the end of each game it compares the boards and takes
every move back with ``undo``, checking the hashes on the way down. Every win is checked to
run through the last move with ``k`` or more marks, and lines longer than ``k`` must occur.

How OpenSpiel's games line up with ours (read from its sources, ``open_spiel/games/``):

- ``mnk``: ``m`` is the number of **columns**, ``n`` of rows (``NumCols() = m``); action
  ``row * cols + col``, row 0 at the top (``ActionToCoordinates``); a player wins with ``k``
  equal marks in a row, so a longer line wins too (``BoardHasLine`` counts runs of exactly
  ``k`` cells, which every longer run contains): our rules. The non-square case (3 rows,
  5 columns) is there to pin down which of ``m`` and ``n`` is which.
- ``gomoku`` (``size``, ``connect``, ``dims=2``, ``wrap=False``, ``anti=False``): action
  ``coord[0] * size + coord[1]``, printed row by row as ours; the last move wins when its run
  in one of the four directions reaches ``connect`` stones (``FindWinLineFromLastMove`` stops
  counting at ``connect``), so it is **freestyle**, five *or more*, as our ``gomoku``: not the
  exact-five (standard gomoku, renju) variant. Black moves first, as X does. The rules agree
  everywhere, so every move is compared.
- ``connect_four`` (``rows``, ``columns``, ``x_in_row``): action = column, and its row 0 is the
  **bottom** row (a mark drops to the lowest empty row index), where ours is the top; its
  ``ToString`` prints the top row first, as our text does, so the boards compare as printed.
  A line of ``x_in_row`` or more wins; a full board without one is a draw: our rules.

Counts: 2,000 games for each preset (tic-tac-toe, 4x4, Connect Four, gomoku) and for
(4,4,4) given as the spec ``"4,4,4"``, (5,5,4) and (7,7,5), plus 500 for each of the
orientation checks (3 rows x 5 columns; Connect Four on 5 rows x 6 columns): 465,095 moves
in all, 219,586 of them gomoku's. All of it runs by default, in 11 s of CPU on the project
machine (45 s of wall time with its 2 cores shared at load 15), gomoku 70% of it.
``TICTACTOE_FAMILY_GAMES=N`` sets every count to ``N`` (more for a longer soak, fewer for a
quick look). Games are seeded: case ``name`` uses
``random.Random(f"{name}:{game}")``, so a failure names the case and game that reproduce it.
"""

from __future__ import annotations

import os
import random

import pytest

import tictactoe_rs as t
from tictactoe_rs.mnk import Position, Rules

pyspiel = pytest.importorskip("pyspiel")

GAMES = 2_000
SMALL = 500


def _games(default: int) -> int:
    override = os.environ.get("TICTACTOE_FAMILY_GAMES")
    return int(override) if override else default


# (our spec, pyspiel game name, its parameters, games)
CASES = [
    ("tic-tac-toe", "mnk", {"m": 3, "n": 3, "k": 3}, GAMES),
    ("4x4", "mnk", {"m": 4, "n": 4, "k": 4}, GAMES),
    ("4,4,4", "mnk", {"m": 4, "n": 4, "k": 4}, GAMES),
    ("5,5,4", "mnk", {"m": 5, "n": 5, "k": 4}, GAMES),
    ("7,7,5", "mnk", {"m": 7, "n": 7, "k": 5}, GAMES),
    ("3,5,3", "mnk", {"m": 5, "n": 3, "k": 3}, SMALL),
    ("connect-four", "connect_four", {"rows": 6, "columns": 7, "x_in_row": 4}, GAMES),
    ("5,6,4,gravity", "connect_four", {"rows": 5, "columns": 6, "x_in_row": 4}, SMALL),
    ("gomoku", "gomoku", {"size": 15, "connect": 5}, GAMES),
]


def _status(state) -> int:
    """The status of a pyspiel state in our vocabulary (0 ongoing, 1 X won, 2 O won, 3 draw)."""
    if not state.is_terminal():
        return t.ONGOING
    x, o = state.returns()
    if x > o:
        return t.X_WON
    if o > x:
        return t.O_WON
    return t.DRAW


def _board(state, name: str, rows: int) -> str:
    """A pyspiel state's board as our text: rows from the top, ``X``, ``O``, ``.``."""
    lines = str(state).strip().split("\n")
    if name == "gomoku":
        lines = lines[1:]  # the first line is the player to move, B or W
    marks = {"x": "X", "o": "O", "b": "X", "w": "O", ".": "."}
    lines = ["".join(marks[c] for c in line.strip()) for line in lines]
    assert len(lines) == rows, lines
    return "/".join(lines)


def _run_through(board: str, row: int, col: int) -> int:
    """The longest run of the mark at ``(row, col)`` through it, in any of the four directions."""
    grid = board.split("/")
    mark = grid[row][col]

    def same(r: int, c: int) -> bool:
        return 0 <= r < len(grid) and 0 <= c < len(grid[0]) and grid[r][c] == mark

    longest = 0
    for dr, dc in [(0, 1), (1, 0), (1, 1), (1, -1)]:
        run = 1
        for sign in (1, -1):
            r, c = row + sign * dr, col + sign * dc
            while same(r, c):
                run += 1
                r, c = r + sign * dr, c + sign * dc
        longest = max(longest, run)
    return longest


def test_rules_match_the_parameters():
    for spec, name, params, _ in CASES:
        rules = Rules(spec)
        game = pyspiel.load_game(name, params)
        assert game.num_distinct_actions() == rules.actions, spec
        if name == "mnk":
            assert (rules.rows, rules.cols, rules.k) == (params["n"], params["m"], params["k"])
        elif name == "gomoku":
            assert (rules.rows, rules.cols, rules.k) == (params["size"],) * 2 + (params["connect"],)
        else:
            shape = (params["rows"], params["columns"], params["x_in_row"])
            assert (rules.rows, rules.cols, rules.k, rules.gravity) == (*shape, True)
    assert Rules("4,4,4") == Rules("4x4") == Rules.FOUR_BY_FOUR


@pytest.mark.parametrize(("spec", "name", "params", "games"), CASES, ids=[c[0] for c in CASES])
def test_random_games_in_lockstep(spec, name, params, games):
    game = pyspiel.load_game(name, params)
    rules = Rules(spec)
    outcomes = {t.X_WON: 0, t.O_WON: 0, t.DRAW: 0}
    moves = overlines = 0
    for g in range(_games(games)):
        rng = random.Random(f"{spec}:{g}")
        state = game.new_initial_state()
        ours = Position(spec)
        played = []
        hashes = [ours.hash]
        while True:
            status = _status(state)
            where = f"{spec} game {g} after moves {played}"
            assert ours.status == status, where
            legal = state.legal_actions()
            assert ours.legal_actions() == legal, where
            if status != t.ONGOING:
                break
            assert ours.to_move == (t.X if state.current_player() == 0 else t.O), where
            action = rng.choice(legal)
            played.append((action, ours.play(action)))
            hashes.append(ours.hash)
            state.apply_action(action)
        outcomes[status] += 1
        moves += len(played)
        assert ours.board == _board(state, name, rules.rows), where
        assert ours.winner == {t.X_WON: t.X, t.O_WON: t.O, t.DRAW: 0}[status]
        if status != t.DRAW:
            run = _run_through(ours.board, *played[-1][1])
            assert run >= rules.k, where
            overlines += run > rules.k
        for _, (row, col) in reversed(played):
            ours.undo(row, col)
            hashes.pop()
            assert ours.hash == hashes[-1], where
        assert ours == Position(rules)
    # Random play reaches wins of both players, and lines longer than k wherever the board
    # has room for them (the "or more" of the rules, which every peer here shares): a guard
    # against lockstep games that never get to what they compare.
    if sum(outcomes.values()) >= SMALL:
        assert outcomes[t.X_WON] > 0 and outcomes[t.O_WON] > 0, outcomes
        assert (overlines > 0) == (max(rules.rows, rules.cols) > rules.k), overlines
    print(f"{spec}: {sum(outcomes.values())} games, {moves} moves, {outcomes}, {overlines} overlines")
