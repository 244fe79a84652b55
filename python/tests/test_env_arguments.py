"""One argument vocabulary across the environments: ``game=None`` is the default game
(tic-tac-toe) for every env, and a list of actions is read as numpy reads it wherever an
integer array is taken (the Gymnasium vector env, ``BatchedEnv``, on every game)."""

from __future__ import annotations

import numpy as np
import pytest

from tictactoe_rs.envs.batched import BatchedEnv


def test_game_none_is_tic_tac_toe_everywhere():
    assert BatchedEnv(2, game=None).observation.shape == (2, 3, 3, 2)
    gymnasium = pytest.importorskip("tictactoe_rs.envs.gymnasium")
    assert gymnasium.MnkEnv(game=None).observation_space.shape == (3, 3, 2)
    assert gymnasium.MnkVectorEnv(2, game=None).single_observation_space.shape == (3, 3, 2)
    assert gymnasium.TicTacToeEnv(game=None).observation_space.shape == (3, 3, 2)
    pettingzoo = pytest.importorskip("tictactoe_rs.envs.pettingzoo")
    for make in (pettingzoo.env, pettingzoo.raw_env, pettingzoo.parallel_env):
        env = make(game=None)
        assert env.unwrapped.rules == pettingzoo.Rules.TIC_TAC_TOE
    assert pettingzoo.raw_env(game=None).metadata["name"] == "tictactoe_v3"


@pytest.mark.parametrize("game", [None, "connect-four", "gomoku"])
def test_a_list_of_actions_is_an_array_of_actions(game):
    envs = [BatchedEnv(3, game=game, seed=1) for _ in range(2)]
    actions = [0, 1, 2]
    envs[0].step(actions)
    envs[1].step(np.array(actions))
    assert np.array_equal(envs[0].observation, envs[1].observation)
    assert np.array_equal(envs[0].current_player, envs[1].current_player)
    with pytest.raises(TypeError, match=r"argument `actions` must be an integer array .* got dtype float64"):
        envs[0].step([0.0, 1.0, 2.0])
    with pytest.raises(ValueError, match=r"argument `actions` must have shape \(3,\), got \[2\]"):
        envs[0].step([0, 1])
    gymnasium = pytest.importorskip("tictactoe_rs.envs.gymnasium")
    vector = gymnasium.MnkVectorEnv(3, opponent="random", game=game)
    vector.reset(seed=0)
    obs, *_ = vector.step(actions)
    assert obs.shape[0] == 3
