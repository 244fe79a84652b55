"""``python_tictactoe_rs``, the pyspiel game on our engine: OpenSpiel's own checks for Python
games, and random games in lockstep with pyspiel's native game of the same rules."""

from __future__ import annotations

import pickle
import random

import numpy as np
import pytest

pytest.importorskip("pyspiel")

import pyspiel
from open_spiel.python.algorithms.get_all_states import get_all_states
from open_spiel.python.observation import make_observation

from tictactoe_rs.envs.openspiel import board_from_state, observation_tensor, pyspiel_game, state_from_board
from tictactoe_rs.envs.openspiel_game import TicTacToeRsGame
from tictactoe_rs.mnk import Rules

SPECS = ["tic-tac-toe", "connect-four", "4,4,4", "3,5,3", "5,6,4,gravity", "gomoku"]


def _ours(spec):
    return pyspiel.load_game("python_tictactoe_rs", {"game": spec})


@pytest.mark.parametrize("spec", SPECS)
def test_openspiel_random_sim_test(spec):
    game = _ours(spec)
    native = pyspiel_game(spec)
    assert game.num_distinct_actions() == native.num_distinct_actions()
    assert game.max_game_length() == native.max_game_length()
    assert game.observation_tensor_shape() == native.observation_tensor_shape()
    pyspiel.random_sim_test(game, num_sims=10 if spec == "gomoku" else 30, serialize=True, verbose=False)
    # The game string loads the same game back (a spec's commas as colons), and so does pickle.
    assert pyspiel.load_game(str(game)).get_parameters() == game.get_parameters()
    assert str(pickle.loads(pickle.dumps(game))) == str(game)
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])
    assert str(pickle.loads(pickle.dumps(state))) == str(state)


def test_loads_with_the_default_and_by_string():
    assert str(pyspiel.load_game("python_tictactoe_rs").new_initial_state()) == "...\n...\n..."
    game = pyspiel.load_game("python_tictactoe_rs(game=connect-four)")
    assert game.num_distinct_actions() == 7 and isinstance(game, TicTacToeRsGame)
    game = pyspiel.load_game("python_tictactoe_rs(game=5:6:4:gravity)")
    assert game.rules == Rules("5,6,4,gravity") and str(game) == "python_tictactoe_rs(game=5:6:4:gravity)"
    assert pyspiel.load_game("python_tictactoe_rs", {"game": "5,6,4,gravity"}).rules == game.rules
    with pytest.raises(ValueError, match="argument `game`"):
        _ours("chess")


@pytest.mark.parametrize("spec", ["5,6,4,gravity", "3,5,3"])
def test_the_converters_take_our_game(spec):
    game = _ours(spec)
    state = game.new_initial_state()
    for action in [1, 2, 3]:
        state.apply_action(action)
    board = board_from_state(state)
    again = state_from_board(board, game)
    assert again.get_game() is not None and str(again) == str(state)
    assert observation_tensor(board, game=game).ravel().tolist() == state.observation_tensor(0)


def test_every_tic_tac_toe_state_as_the_native_game():
    """As OpenSpiel's own test of its Python tic-tac-toe: every state, its history, returns and
    observation tensor, against the native game."""
    ours, native = _ours("tic-tac-toe"), pyspiel.load_game("tic_tac_toe")
    our_obs, native_obs = make_observation(ours), make_observation(native)
    our_states = get_all_states(ours, to_string=str)
    native_states = get_all_states(native, to_string=str)
    assert sorted(our_states) == sorted(native_states) and len(our_states) == 5478
    for key, theirs in native_states.items():
        mine = our_states[key]
        assert mine.history() == theirs.history() and mine.returns() == theirs.returns()
        for player in (0, 1):
            our_obs.set_from(mine, player)
            native_obs.set_from(theirs, player)
            np.testing.assert_array_equal(our_obs.tensor, native_obs.tensor)


@pytest.mark.parametrize("spec", SPECS[1:])
def test_random_games_in_lockstep_with_the_native_game(spec):
    ours, native = _ours(spec), pyspiel_game(spec)
    obs = make_observation(ours)
    for g in range(50 if spec == "gomoku" else 200):
        rng = random.Random(f"{spec}:{g}")
        a, b = ours.new_initial_state(), native.new_initial_state()
        while True:
            where = f"{spec} game {g} after {b.history()}"
            assert a.current_player() == b.current_player() and a.is_terminal() == b.is_terminal(), where
            assert a.observation_tensor(0) == b.observation_tensor(0), where
            obs.set_from(a, 1)
            assert obs.tensor.tolist() == b.observation_tensor(1), where
            if b.is_terminal():
                assert a.returns() == b.returns() and a.legal_actions() == [], where
                break
            assert a.legal_actions() == b.legal_actions(), where
            action = rng.choice(b.legal_actions())
            a.apply_action(action)
            b.apply_action(action)
        clone = a.clone()
        assert clone.history() == a.history() and str(clone) == str(a)


def test_module_docstring_example():
    import doctest

    import tictactoe_rs.envs.openspiel_game as module

    result = doctest.testmod(module)
    assert result.failed == 0 and result.attempted > 0
