"""Ultimate tic-tac-toe against pyspiel's ``ultimate_tic_tac_toe``, in lockstep.

Each game plays uniformly random legal moves of ours; each move goes to pyspiel as its one or
two actions (``openspiel_actions``: a board choice first when the mover may choose), and after
every move both sides must agree on the legal moves (pyspiel's counted through its board
choices), the current player, the terminal flag, the returns and the observation tensor.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from tictactoe_rs.ultimate import Position

pyspiel = pytest.importorskip("pyspiel")

GAME = pyspiel.load_game("ultimate_tic_tac_toe")


def choosing(state) -> bool:
    """Whether pyspiel's next action chooses a board."""
    actions = state.legal_actions()
    return bool(actions) and state.action_to_string(state.current_player(), actions[0]).startswith("Choose")


def pyspiel_moves(state) -> set[int]:
    """pyspiel's legal moves as flat moves ``9 * board + cell``."""
    if state.is_terminal():
        return set()
    if choosing(state):
        return {9 * b + c for b in state.legal_actions() for c in state.child(b).legal_actions()}
    board = int(np.argmax(np.asarray(state.observation_tensor(0))[244:253]))
    return {9 * board + c for c in state.legal_actions()}


def assert_same(ours: Position, state, where: str) -> None:
    assert set(ours.legal_moves()) == pyspiel_moves(state), where
    assert ours.openspiel_player() == state.current_player(), where
    assert (ours.status != "ongoing") == state.is_terminal(), where
    assert ours.returns() == tuple(state.returns()), where
    theirs = np.asarray(state.observation_tensor(0), dtype=np.float32)
    np.testing.assert_array_equal(ours.openspiel_observation(), theirs, err_msg=where)


def test_20000_random_games_in_lockstep_with_pyspiel() -> None:
    rng = random.Random(20261128)
    endings = {"x-won": 0, "o-won": 0, "draw": 0}
    moves = 0
    for g in range(20_000):
        ours, state = Position(), GAME.new_initial_state()
        assert_same(ours, state, f"game {g} start")
        while ours.status == "ongoing":
            move = rng.choice(ours.legal_moves())
            for action in ours.openspiel_actions(move):
                state.apply_action(action)
            ours.play(move)
            moves += 1
            assert_same(ours, state, f"game {g} move {ours.plies} ({move})")
        endings[ours.status] += 1
    assert all(n > 1_000 for n in endings.values()), endings
    assert moves > 20_000 * 40


@pytest.mark.parametrize("depth", range(5))
def test_perft_matches_pyspiel_counted_live(depth: int) -> None:
    def perft(state, d: int) -> int:
        if state.is_terminal():
            return int(d == 0)
        if d == 0:
            return 1
        if choosing(state):
            children = [state.child(b).child(c) for b in state.legal_actions() for c in state.child(b).legal_actions()]
        else:
            children = [state.child(c) for c in state.legal_actions()]
        return sum(perft(child, d - 1) for child in children)

    assert Position().perft(depth) == perft(GAME.new_initial_state(), depth)


def test_errors_name_the_argument_and_the_rule() -> None:
    game = Position()
    with pytest.raises(ValueError, match="from 0 to 80, got 81"):
        game.play(81)
    with pytest.raises(TypeError, match="got bool"):
        game.play(True)
    game.play(1)
    with pytest.raises(ValueError, match="sends the mover to board 1"):
        game.play(0)
    with pytest.raises(ValueError, match="bad character 'Z' at index 3"):
        Position.from_text("...Z")
    with pytest.raises(ValueError, match="no mark of the last mover"):
        Position.from_text("." * 81 + " 4")
    with pytest.raises(ValueError, match="`board` must be from 0 to 8, got -1"):
        game.board_status(-1)
    assert game.board_status(0) == "ongoing"
    game.undo()
    assert str(game) == str(Position())
    with pytest.raises(ValueError, match="no move to undo"):
        game.undo()


def test_text_round_trip_and_undo() -> None:
    rng = random.Random(3)
    game = Position()
    texts = [str(game)]
    while game.status == "ongoing":
        game.play(rng.choice(game.legal_moves()))
        texts.append(str(game))
        assert str(Position.from_text(game.pretty())) == str(game)
    for text in reversed(texts[:-1]):
        game.undo()
        assert str(game) == text


def test_docstring_examples_run() -> None:
    import doctest

    import tictactoe_rs.ultimate as module

    result = doctest.testmod(module)
    assert result.failed == 0 and result.attempted > 0
    parser, runner = doctest.DocTestParser(), doctest.DocTestRunner()
    runner.run(parser.get_doctest(Position.__doc__ or "", {}, "Position", None, 0))
    assert runner.failures == 0 and runner.tries > 5
