"""The PettingZoo environments on the rest of the family: PettingZoo's own tests on Connect
Four, gomoku and m,n,k games, and a differential test against
``pettingzoo.classic.connect_four_v3`` (5,000 random games in lockstep, every field)."""

from __future__ import annotations

import pickle
import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("pygame")  # connect_four_v3 itself needs it

from pettingzoo.classic.connect_four import connect_four as peer
from pettingzoo.test import (
    api_test,
    parallel_api_test,
    parallel_seed_test,
    render_test,
    seed_test,
)

from tictactoe_rs.envs import pettingzoo as ours
from tictactoe_rs.mnk import Rules

GAMES = ["connect-four", "gomoku", "4,4,4", "3,5,3", "5,6,4,gravity"]


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


@pytest.mark.parametrize("game", GAMES)
def test_pettingzoo_own_tests(game):
    for seed in range(5):
        env = ours.env(game=game)
        env.reset(seed=seed)
        for i, agent in enumerate(env.possible_agents):
            env.action_space(agent).seed(seed * 2 + i)
        api_test(env, num_cycles=200)
    seed_test(lambda: ours.env(game=game), num_cycles=200)
    render_test(lambda render_mode=None: ours.env(game=game, render_mode=render_mode, screen_height=150, screen_scaling=2))
    parallel_api_test(ours.parallel_env(game=game), num_cycles=200)
    parallel_seed_test(lambda: ours.parallel_env(game=game), num_cycles=200)


def test_spaces_and_agents_extend_the_peers():
    c4 = ours.env(game="connect-four")
    assert c4.possible_agents == ["player_0", "player_1"]
    assert c4.unwrapped.metadata["name"] == "connect_four_v3"
    assert c4.action_space("player_0").n == 7
    assert c4.observation_space("player_1") == peer.env().observation_space("player_1")
    gomoku = ours.env(game=Rules.GOMOKU)
    assert gomoku.possible_agents == ["player_1", "player_2"]
    assert gomoku.action_space("player_1").n == 225
    assert gomoku.observation_space("player_2")["observation"].shape == (15, 15, 2)
    wide = ours.env(game="3,5,3")
    wide.reset()
    wide.step(7)  # row 1, column 2
    obs = wide.observe("player_1")
    assert obs["observation"][1, 2].tolist() == [1, 0]
    assert obs["action_mask"].sum() == 0 and wide.observe("player_2")["action_mask"].sum() == 14
    # The default is tic-tac-toe, given or not.
    assert ours.env(game="tic-tac-toe").unwrapped.metadata == ours.env().unwrapped.metadata
    assert ours.env(game="3,3,3").possible_agents == ["player_1", "player_2"]


def test_bad_game_arguments_name_game():
    with pytest.raises(ValueError, match="argument `game`"):
        ours.env(game="chess")
    with pytest.raises(TypeError, match="argument `game`"):
        ours.raw_env(game=7)
    with pytest.raises(ValueError, match="render_mode"):
        ours.raw_env(game="gomoku", render_mode="video")
    raw = ours.raw_env(game="connect-four")
    raw.reset()
    for _ in range(6):
        raw.step(0)
    with pytest.raises(ValueError, match="argument `action`"):
        raw.step(0)  # the column is full: the board is unchanged
    with pytest.raises(TypeError, match="`action`"):
        raw.step(2.0)
    assert raw._position.plies == 6
    # Past the last column: both wrapped environments assert (AssertOutOfBoundsWrapper).
    for wrapped in (peer.env(), ours.env(game="connect-four")):
        wrapped.reset()
        with pytest.raises(AssertionError):
            wrapped.step(7)


def test_pickles_with_its_game():
    env = ours.env(game="5,6,4,gravity")
    copy = pickle.loads(pickle.dumps(env.unwrapped))
    assert copy.rules == Rules("5,6,4,gravity") and copy.possible_agents == ["player_0", "player_1"]


def test_render_modes_show_the_board():
    env = ours.env(game="connect-four", render_mode="ansi")
    env.reset()
    env.step(3)
    env.step(3)
    text = env.render()
    assert text.splitlines()[-2:] == [". . . O . . .", ". . . X . . ."]
    env = ours.env(game="connect-four", render_mode="rgb_array", screen_scaling=2)
    env.reset()
    image = env.render()
    assert image.shape == (172, 198, 3) and image.dtype == np.uint8
    env.step(0)  # a red disc in the bottom-left hole: tile 26 px, margin 8 px
    after = env.render()
    changed = np.argwhere((after != image).any(axis=2))
    assert changed.min(axis=0).tolist() >= [8 + 5 * 26, 8] and changed.max(axis=0).tolist() < [8 + 6 * 26, 8 + 26]
    assert tuple(after[8 + 5 * 26 + 13, 8 + 13]) == (210, 30, 30)
    env = ours.env(game="gomoku", render_mode="rgb_array", screen_height=150)
    env.reset()
    env.step(16)  # row 1, column 1: tiles of 10 px
    image = env.render()
    assert image.shape == (150, 150, 3)
    drawn = np.argwhere((image != 255).any(axis=2) & (image != 0).any(axis=2))
    assert drawn.min(axis=0).tolist() >= [10, 10] and drawn.max(axis=0).tolist() < [20, 20]


def _fields(env):
    """Every field an agent can read, for every agent, as one comparable tuple (what
    ``last()`` returns is made of these: the observation, cumulative reward, flags and info of
    ``agent_selection``)."""
    u = env.unwrapped
    fields = [
        tuple(u.agents),
        u.agent_selection,
        tuple((k, type(v), v) for k, v in u.rewards.items()),
        tuple((k, type(v), v) for k, v in u._cumulative_rewards.items()),
        tuple(u.terminations.items()),
        tuple(u.truncations.items()),
        repr(u.infos),
    ]
    for agent in u.agents:
        for key, array in u.observe(agent).items():
            fields.append((agent, key, array.dtype.str, array.shape, array.tobytes()))
    return tuple(fields)


def test_differential_against_connect_four_v3():
    """Games through the wrapped environments, each pair reset and reused: a quarter of them
    with illegal moves (a full column) at a 30% rate, every game played to its end and through
    the dead steps of both agents, every field compared before every step and ``last()`` at
    each game's end."""
    rng = np.random.default_rng(2026)
    games, illegal_games, outcomes = 5_000, 0, {}
    a, b = peer.env(), ours.env(game="connect-four")
    for game in range(games):
        a.reset(seed=game)
        b.reset(seed=game)
        illegal_rate = 0.3 if game % 4 == 0 else 0.0
        for step in range(50):
            fields = _fields(a)
            if fields != _fields(b):
                pytest.fail(f"game {game} step {step}: {fields} != {_fields(b)}")
            if not a.agents:
                break
            agent = a.agent_selection
            mask = a.unwrapped.observe(agent)["action_mask"]
            full = np.flatnonzero(mask == 0)
            if a.terminations[agent] or a.truncations[agent]:
                _same_last(a, b, f"game {game} step {step}")
                action = None
            elif full.size and rng.random() < illegal_rate:
                action = int(rng.choice(full))
                illegal_games += 1
            else:
                action = int(rng.choice(np.flatnonzero(mask)))
            a.step(action)
            b.step(action)
            u = a.unwrapped
            if action is not None and all(u.terminations.values()):
                key = (*u.rewards.values(), all(u.truncations.values()))
                outcomes[key] = outcomes.get(key, 0) + 1
        else:
            pytest.fail(f"game {game} did not end")
    # Wins of both players, draws and illegal moves all reached (rewards, truncated).
    assert {(1, -1, False), (-1, 1, False), (0, 0, False)} <= outcomes.keys(), outcomes
    assert illegal_games > 100, illegal_games
    print(outcomes)


def _same_last(a, b, where):
    """``last()`` of the two wrapped environments, types included."""
    (obs_a, *rest_a), (obs_b, *rest_b) = a.last(), b.last()
    assert [(type(v), v) for v in rest_a] == [(type(v), v) for v in rest_b], where
    for key in obs_a:
        np.testing.assert_array_equal(obs_a[key], obs_b[key], err_msg=where, strict=True)
