"""The environments of ultimate tic-tac-toe (``game="ultimate"``): PettingZoo's and Gymnasium's
own checks, and every environment in lockstep with pyspiel's ``ultimate_tic_tac_toe`` over
random games (legal actions, current player, rewards, terminal flags, observations), in the
flat and the OpenSpiel action conventions. ``TICTACTOE_ULTIMATE_GAMES=N`` sets the number of
games of the lockstep tests (default 2,000 for the batched env and the pyspiel game, 1,000
for the others)."""

from __future__ import annotations

import os
import pickle
import random
import warnings

import numpy as np
import pytest

pytest.importorskip("pyspiel")
pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

import gymnasium as gym
import pyspiel
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, render_test, seed_test
from test_ultimate import pyspiel_moves

import tictactoe_rs.envs.gymnasium as ours_gym
import tictactoe_rs.envs.openspiel_game  # noqa: F401  (registers python_tictactoe_rs)
from tictactoe_rs.envs import pettingzoo as ours_pz
from tictactoe_rs.envs.batched import BatchedEnv
from tictactoe_rs.ultimate import Position

PEER = pyspiel.load_game("ultimate_tic_tac_toe")
SCALE = int(os.environ.get("TICTACTOE_ULTIMATE_GAMES", "0"))
MANY = SCALE or 2000
SOME = SCALE or 1000


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def spiel_actions(state, move: int) -> list[int]:
    """pyspiel's actions of flat move ``move`` in ``state``: a board choice first when free."""
    if state.action_to_string(state.current_player(), state.legal_actions()[0]).startswith("Choose"):
        return [move // 9, move % 9]
    return [move % 9]


def expected_planes(state, viewer_is_x: bool, legal: bool) -> np.ndarray:
    """Our ``(3, 9, 9)`` planes of a pyspiel state seen by X or O: its marks, the other's, and
    the legal flat moves when ``legal``."""
    tensor = np.asarray(state.observation_tensor(0), dtype=np.float32)
    x, o = tensor[162:243], tensor[81:162]
    planes = np.zeros((3, 81), np.uint8)
    planes[0], planes[1] = (x, o) if viewer_is_x else (o, x)
    if legal and not state.is_terminal():
        for move in pyspiel_moves(state):
            planes[2, move] = 1
    return planes.reshape(3, 9, 9)


def flat_mask(state) -> np.ndarray:
    mask = np.zeros(81, np.uint8)
    mask[list(pyspiel_moves(state))] = 1
    return mask


def nine_mask(state) -> np.ndarray:
    mask = np.zeros(9, np.uint8)
    mask[state.legal_actions()] = 1
    return mask


# --- the batched env -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("convention", "actions", "observation", "games"),
    [
        ("pgx", "flat", "planes", MANY),
        ("pettingzoo", "flat", "openspiel", SOME),
        ("pgx", "openspiel", "openspiel", MANY),
        ("pettingzoo", "openspiel", "planes", SOME),
    ],
)
def test_batched_in_lockstep_with_pyspiel(convention, actions, observation, games):
    n = 64
    env = BatchedEnv(n, convention=convention, seed=3, game="ultimate", actions=actions, observation=observation)
    states = [PEER.new_initial_state() for _ in range(n)]
    firsts = env.first_player().copy()
    ended = 0
    chosen_seen = 0
    a = np.empty(n, np.int64)
    while ended < games:
        for i, state in enumerate(states):
            where = f"game {i}, {state.history_str()}"
            x_id = int(firsts[i])
            mover_is_x = state.current_player() == 0
            assert env.current_player[i] == (x_id if mover_is_x else 1 - x_id), where
            if observation == "openspiel":
                np.testing.assert_array_equal(env.observation[i], state.observation_tensor(0), err_msg=where)
            else:
                np.testing.assert_array_equal(
                    env.observation[i].astype(np.uint8), expected_planes(state, mover_is_x, True), err_msg=where
                )
            mask = flat_mask(state) if actions == "flat" else nine_mask(state)
            np.testing.assert_array_equal(env.legal_action_mask[i].astype(np.uint8), mask, err_msg=where)
        env.sample_actions(a)
        before = [state.clone() for state in states]
        for i, state in enumerate(states):
            if actions == "flat":
                for action in spiel_actions(state, int(a[i])):
                    state.apply_action(action)
            else:
                chosen_seen += state.action_to_string(state.current_player(), int(a[i])).startswith("Choose")
                state.apply_action(int(a[i]))
        env.step(a)
        for i, state in enumerate(states):
            where = f"game {i}, {state.history_str()}"
            assert bool(env.terminated[i]) == state.is_terminal(), where
            assert not env.truncated[i], where
            x_id = int(firsts[i])
            returns = state.returns()
            by_id = [returns[0], returns[1]] if x_id == 0 else [returns[1], returns[0]]
            assert env.rewards[i].tolist() == by_id, where
            if state.is_terminal():
                ended += 1
                if observation == "openspiel":
                    np.testing.assert_array_equal(env.final_observation[i], state.observation_tensor(0), err_msg=where)
                else:
                    # After the last move the viewer is the player who would move next.
                    viewer_is_x = before[i].current_player() != 0
                    planes = expected_planes(state, viewer_is_x, False)
                    np.testing.assert_array_equal(env.final_observation[i].astype(np.uint8), planes, err_msg=where)
                states[i] = PEER.new_initial_state()
        firsts = env.first_player().copy()
    if convention == "pettingzoo":
        assert (firsts == 0).all()
    else:
        assert 0 < firsts.mean() < 1
    assert actions == "flat" or chosen_seen > 100


def test_batched_illegal_moves_and_autoreset_modes():
    env = BatchedEnv(2, convention="pgx", seed=0, game="ultimate", autoreset="next_step")
    env.set_first_player(np.array([0, 1], np.int32), np.array([True, True]))
    env.step(np.array([40, 40]))
    env.step(np.array([0, 36]))  # game 0: O plays outside board 4 (illegal); game 1: legal
    assert env.terminated.tolist() == [True, False]
    assert env.rewards[0].tolist() == [1.0, -1.0]  # the mover (id 1, O) loses, the other wins
    assert env.legal_action_mask[0].all()
    env.step(np.array([0, 4]))  # next_step: game 0 restarts, its action ignored
    assert env.terminated.tolist() == [False, False] and env.rewards[0].tolist() == [0.0, 0.0]
    assert env.observation[0].sum() == 81  # an empty board: only the legal plane
    pz = BatchedEnv(1, convention="pettingzoo", game="ultimate", autoreset="disabled")
    pz.step(np.array([40]))
    pz.step(np.array([40]))  # occupied
    assert pz.truncated[0] and pz.terminated[0] and pz.rewards[0].tolist() == [0.0, -1.0]


@pytest.mark.parametrize("convention", ["pgx", "pettingzoo"])
def test_batched_samples_the_same_actions_whatever_the_calls_order(convention):
    """The default options draw the next ``sample_actions`` in the step (and take the draws
    back on any other call); ``observation="openspiel"`` does not: in any order of calls both
    sample the same actions and reach the same boards."""
    n = 16
    envs = [
        BatchedEnv(n, convention=convention, seed=3, game="ultimate", observation=o) for o in ("planes", "openspiel")
    ]
    rng = random.Random(4)
    actions = [np.zeros(n, np.int64) for _ in envs]
    for call in range(600):
        kind = rng.randrange(10)
        if kind < 6:
            for _ in range(1 + (kind == 0)):  # sometimes twice in a row
                for env, out in zip(envs, actions):
                    env.sample_actions(out)
                assert actions[0].tolist() == actions[1].tolist(), call
            step = actions[0].copy()
        elif kind < 8:
            step = np.array([rng.randrange(81) for _ in range(n)])  # no sample before: any moves
        else:
            mask = np.array([rng.random() < 0.3 for _ in range(n)])
            for env in envs:
                env.reset(mask=mask)
            continue
        for env in envs:
            env.step(step)
        assert envs[0].boards().tolist() == envs[1].boards().tolist(), call
        assert envs[0].rewards.tolist() == envs[1].rewards.tolist(), call


def test_batched_bad_input_raises_clear_errors():
    env = BatchedEnv(4, game="ultimate")
    with pytest.raises(TypeError, match="`actions` must be an integer array"):
        env.step(np.zeros(4, np.float64))
    with pytest.raises(ValueError, match=r"`actions` holds 81 at game 2, not a move 9 \* board \+ cell \(0 to 80\)"):
        env.step(np.array([0, 1, 81, 2]))
    with pytest.raises(ValueError, match="holds -1 at game 0"):
        env.step(np.array([-1, 1, 2, 3], np.int8))
    with pytest.raises(ValueError, match="must have shape"):
        env.step(np.zeros(3, np.int64))
    with pytest.raises(TypeError, match="int64 array"):
        env.sample_actions(np.zeros(4, np.int32))
    readonly = np.zeros(4, np.int64)
    readonly.flags.writeable = False
    with pytest.raises(ValueError, match="`out`"):
        env.sample_actions(readonly)
    nine = BatchedEnv(2, game="ultimate", actions="openspiel")
    with pytest.raises(ValueError, match=r"holds 9 at game 1, not a board or cell \(0 to 8\)"):
        nine.step(np.array([0, 9]))
    with pytest.raises(ValueError, match="`actions` must be one of"):
        BatchedEnv(2, game="ultimate", actions="two-step")
    with pytest.raises(TypeError, match="`observation` must be a str"):
        BatchedEnv(2, game="ultimate", observation=3)
    with pytest.raises(ValueError, match="option of game='ultimate' only"):
        BatchedEnv(2, game="connect-four", actions="openspiel")
    with pytest.raises(ValueError, match="read-only"):
        env.observation[0, 0, 0, 0] = True
    # Random integers of every width never panic: each is a move or a ValueError.
    rng = np.random.default_rng(0)
    for dtype in (np.int8, np.uint8, np.int16, np.int32, np.int64, np.uint64):
        for _ in range(50):
            actions = rng.integers(0, 100, 4).astype(dtype)
            try:
                env.step(actions)
            except ValueError as error:
                assert "not a move" in str(error)


def test_batched_openspiel_actions_choose_then_mark():
    env = BatchedEnv(1, convention="pettingzoo", game="ultimate", actions="openspiel", observation="openspiel")
    assert env.legal_action_mask[0].tolist() == [1] * 9
    env.step(np.array([4]))  # choose the centre board: no mark, X still to move
    assert env.current_player[0] == 0 and env.observation[0, 244 + 4] == 1 and env.observation[0, :81].all()
    env.step(np.array([0]))  # X in its top-left cell: O is sent to board 0
    assert env.current_player[0] == 1 and env.observation[0, 162 + 36] == 1 and env.observation[0, 244] == 1


# --- PettingZoo --------------------------------------------------------------------------------


@pytest.mark.parametrize(("actions", "observation"), [("flat", "planes"), ("openspiel", "openspiel")])
def test_pettingzoo_own_tests(actions, observation):
    def make(**kwargs):
        return ours_pz.env(game="ultimate", actions=actions, observation=observation, **kwargs)

    for seed in range(3):
        env = make()
        env.reset(seed=seed)
        for i, agent in enumerate(env.possible_agents):
            env.action_space(agent).seed(seed * 2 + i)
        api_test(env, num_cycles=300)
    seed_test(make, num_cycles=300)
    render_test(lambda render_mode=None: make(render_mode=render_mode, screen_height=180))
    parallel_api_test(ours_pz.parallel_env(game="ultimate", actions=actions, observation=observation), num_cycles=300)
    parallel_seed_test(lambda: ours_pz.parallel_env(game="ultimate", actions=actions, observation=observation))
    raw = pickle.loads(pickle.dumps(ours_pz.raw_env(game="ultimate", actions=actions)))
    assert raw.action_space("player_1").n == (81 if actions == "flat" else 9)


@pytest.mark.parametrize("actions", ["flat", "openspiel"])
def test_pettingzoo_in_lockstep_with_pyspiel(actions):
    rng = random.Random(7)
    env = ours_pz.env(game="ultimate", actions=actions)
    for g in range(SOME):
        env.reset()
        state = PEER.new_initial_state()
        while True:
            agent = env.agent_selection
            obs, _reward, terminated, _truncated, _ = env.last()
            where = f"game {g}, {state.history_str()}"
            assert terminated == state.is_terminal(), where
            if terminated:
                returns = state.returns()
                assert env.rewards == {"player_1": returns[0], "player_2": returns[1]}, where
                break
            assert agent == ["player_1", "player_2"][state.current_player()], where
            planes = expected_planes(state, state.current_player() == 0, True)
            np.testing.assert_array_equal(obs["observation"].astype(np.uint8), planes, err_msg=where)
            other = "player_2" if agent == "player_1" else "player_1"
            np.testing.assert_array_equal(env.observe(other)["action_mask"], 0, err_msg=where)
            mask = flat_mask(state) if actions == "flat" else nine_mask(state)
            np.testing.assert_array_equal(obs["action_mask"], mask, err_msg=where)
            action = rng.choice(np.flatnonzero(mask).tolist())
            for spiel in spiel_actions(state, action) if actions == "flat" else [action]:
                state.apply_action(spiel)
            env.step(action)
            assert all(r == 0 for r in env.rewards.values()) or state.is_terminal(), where
        while env.agents:
            env.step(None)


def test_pettingzoo_illegal_move_loses_and_raw_env_raises():
    env = ours_pz.env(game="ultimate")
    env.reset()
    env.step(40)
    env.step(0)  # not in board 4: the wrapper ends the game
    assert env.terminations["player_2"] and env.rewards == {"player_1": 0, "player_2": -1}
    raw = ours_pz.raw_env(game="ultimate")
    raw.reset()
    raw.step(40)
    with pytest.raises(ValueError, match="0 is not legal here"):
        raw.step(0)
    with pytest.raises(TypeError):
        raw.step(4.0)
    with pytest.raises(ValueError, match="0 to 80, got 81"):
        raw.step(81)


# --- Gymnasium ---------------------------------------------------------------------------------


def random_opponent(seed: int, record: list | None = None):
    """A batched callable opponent: a uniformly random legal flat move per waiting game, each
    move appended to ``record``."""
    rng = np.random.default_rng(seed)

    def play(observations, masks):
        moves = np.array([rng.choice(np.flatnonzero(m)) for m in masks], np.int64)
        if record is not None:
            record.append(moves.copy())
        return moves

    return play


@pytest.mark.parametrize(("actions", "observation"), [("flat", "planes"), ("openspiel", "openspiel")])
@pytest.mark.parametrize("agent", ["x", "o", "random"])
def test_gymnasium_check_env(actions, observation, agent):
    # A callable opponent must be deterministic for check_env's seeding check: the first legal move.
    for opponent in ("random", lambda observations, masks: masks.argmax(axis=1)):
        env = ours_gym.UltimateEnv(opponent=opponent, agent=agent, actions=actions, observation=observation)
        check_env(env, skip_render_check=False)
    for mode in ("ansi", "rgb_array"):
        env = ours_gym.UltimateEnv(render_mode=mode)
        env.reset(seed=0)
        check_env(env)


def test_gymnasium_ids_and_game_argument():
    single = gym.make("tictactoe_rs/Ultimate-v0", opponent="random")
    assert type(single.unwrapped).__name__ == "UltimateEnv"
    mnk = gym.make("tictactoe_rs/Mnk-v0", game="ultimate", actions="openspiel")
    assert mnk.action_space.n == 9
    assert isinstance(ours_gym.MnkEnv(game="ultimate"), ours_gym.UltimateEnv)
    vec = gym.make_vec("tictactoe_rs/Ultimate-v0", num_envs=8, vectorization_mode="vector_entry_point")
    assert vec.observation_space.shape == (8, 3, 9, 9)
    assert isinstance(ours_gym.MnkVectorEnv(4, game="ultimate"), ours_gym.UltimateVectorEnv)
    assert ours_gym.ENV_IDS["ultimate"] == "tictactoe_rs/Ultimate-v0"
    with pytest.raises(ValueError, match="argument `opponent`: unknown player"):
        ours_gym.UltimateEnv(opponent="perfect")
    with pytest.raises(ValueError, match="'random', 'heuristic', 'mcts', 'mcts:N' or a callable"):
        ours_gym.UltimateEnv(opponent=3)
    env = ours_gym.UltimateEnv()
    env.reset(seed=0)
    with pytest.raises(TypeError):
        env.step(1.5)
    with pytest.raises(ValueError, match="0 to 80, got 81"):
        env.step(81)


@pytest.mark.parametrize("actions", ["flat", "openspiel"])
def test_gymnasium_single_in_lockstep_with_pyspiel(actions):
    moves: list[np.ndarray] = []
    env = ours_gym.UltimateEnv(opponent=random_opponent(1, moves), agent="random", actions=actions)
    rng = random.Random(5)
    for g in range(SOME):
        moves.clear()
        obs, info = env.reset(seed=g)
        state = PEER.new_initial_state()
        agent_is_x = not moves  # the opponent opened when it is X
        for move in moves:
            for spiel in spiel_actions(state, int(move[0])):
                state.apply_action(spiel)
        terminated = False
        while not terminated:
            where = f"game {g}, {state.history_str()}"
            assert state.current_player() == (0 if agent_is_x else 1), where
            np.testing.assert_array_equal(obs.astype(np.uint8), expected_planes(state, agent_is_x, True), err_msg=where)
            mask = flat_mask(state) if actions == "flat" else nine_mask(state)
            np.testing.assert_array_equal(info["action_mask"], mask, err_msg=where)
            action = rng.choice(np.flatnonzero(mask).tolist())
            moves.clear()
            for spiel in spiel_actions(state, action) if actions == "flat" else [action]:
                state.apply_action(spiel)
            obs, reward, terminated, _truncated, info = env.step(action)
            for move in moves:
                for spiel in spiel_actions(state, int(move[0])):
                    state.apply_action(spiel)
            assert terminated == state.is_terminal(), where
            returns = state.returns()
            assert reward == (returns[0] if agent_is_x else returns[1]), where
        assert info["action_mask"].all()


def test_gymnasium_vector_equals_sync_vector_env():
    from gymnasium.vector import AutoresetMode, SyncVectorEnv

    n = 16
    vec = ours_gym.UltimateVectorEnv(n, opponent="random", agent="random")
    sync = SyncVectorEnv(
        [lambda: ours_gym.UltimateEnv(opponent="random", agent="random") for _ in range(n)],
        autoreset_mode=AutoresetMode.NEXT_STEP,
    )
    (obs, infos), (obs2, infos2) = vec.reset(seed=11), sync.reset(seed=11)
    rng = np.random.default_rng(2)
    ended = 0
    for _ in range(400):
        np.testing.assert_array_equal(obs, obs2)
        np.testing.assert_array_equal(infos["action_mask"], infos2["action_mask"])
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in infos["action_mask"]])
        obs, rewards, terminated, truncated, infos = vec.step(actions)
        obs2, rewards2, terminated2, truncated2, infos2 = sync.step(actions)
        np.testing.assert_array_equal(rewards, rewards2)
        np.testing.assert_array_equal(terminated, terminated2)
        np.testing.assert_array_equal(truncated, truncated2)
        ended += int(terminated.sum())
    assert ended > 50


def test_gymnasium_vector_in_lockstep_with_pyspiel():
    n = 32
    moves: list[np.ndarray] = []
    vec = ours_gym.UltimateVectorEnv(n, opponent=random_opponent(4, moves), agent="x", autoreset_mode="same_step")
    obs, infos = vec.reset(seed=0)
    states = [PEER.new_initial_state() for _ in range(n)]
    rng = random.Random(9)
    ended = 0
    while ended < SOME:
        for i, state in enumerate(states):
            where = f"game {i}, {state.history_str()}"
            np.testing.assert_array_equal(obs[i].astype(np.uint8), expected_planes(state, True, True), err_msg=where)
            np.testing.assert_array_equal(infos["action_mask"][i], flat_mask(state), err_msg=where)
        actions = np.array([rng.choice(sorted(pyspiel_moves(s))) for s in states])
        for i, state in enumerate(states):
            for spiel in spiel_actions(state, int(actions[i])):
                state.apply_action(spiel)
        moves.clear()
        waiting = np.flatnonzero([not s.is_terminal() for s in states])
        obs, rewards, terminated, _truncated, infos = vec.step(actions)
        # The agent is X in every game: one call of the opponent, for the games still going.
        assert len(moves) == (1 if len(waiting) else 0)
        for i, move in zip(waiting, moves[0] if moves else []):
            for spiel in spiel_actions(states[i], int(move)):
                states[i].apply_action(spiel)
        for i in range(n):
            state = states[i]
            where = f"game {i}, {state.history_str()}"
            assert terminated[i] == state.is_terminal(), where
            assert rewards[i] == state.returns()[0], where
            if terminated[i]:
                ended += 1
                np.testing.assert_array_equal(
                    infos["final_obs"][i].astype(np.uint8), expected_planes(state, True, False), err_msg=where
                )
                states[i] = PEER.new_initial_state()


def test_gymnasium_callable_opponent_failures_undo_the_step():
    def illegal(observations, masks):
        return np.zeros(len(masks), np.int64) + 80

    env = ours_gym.UltimateEnv(opponent=illegal)
    env.reset(seed=0)
    before = env._kernel.boards()
    with pytest.raises(ValueError, match="is illegal"):
        env.step(40)
    assert env._kernel.boards() == before
    for bad, error in ((lambda o, m: [1], TypeError), (lambda o, m: np.zeros(2, np.int64), ValueError),
                       (lambda o, m: np.full(len(m), 81), ValueError), (lambda o, m: np.zeros(len(m)), TypeError)):
        env = ours_gym.UltimateEnv(opponent=bad)
        env.reset(seed=0)
        with pytest.raises(error):
            env.step(40)
        assert env._kernel.boards() == before


# --- the pyspiel game --------------------------------------------------------------------------


def test_pyspiel_game_in_lockstep_with_ultimate_tic_tac_toe():
    ours = pyspiel.load_game("python_tictactoe_rs", {"game": "ultimate"})
    assert ours.observation_tensor_shape() == PEER.observation_tensor_shape()
    assert ours.num_distinct_actions() == PEER.num_distinct_actions()
    assert ours.max_game_length() == PEER.max_game_length()
    rng = random.Random(11)
    endings = {0.0: 0, 1.0: 0, -1.0: 0}
    for g in range(MANY):
        a, b = ours.new_initial_state(), PEER.new_initial_state()
        while True:
            where = f"game {g}, {b.history_str()}"
            assert a.is_terminal() == b.is_terminal(), where
            assert a.current_player() == b.current_player(), where
            assert a.returns() == b.returns(), where
            for player in (0, 1):
                np.testing.assert_array_equal(a.observation_tensor(player), b.observation_tensor(player), err_msg=where)
            assert str(a) == str(b), where
            assert a.observation_string(0) == b.observation_string(0), where
            if b.is_terminal():
                endings[b.returns()[0]] += 1
                break
            assert a.legal_actions() == b.legal_actions(), where
            action = rng.choice(b.legal_actions())
            assert a.action_to_string(a.current_player(), action) == b.action_to_string(b.current_player(), action)
            a.apply_action(action)
            b.apply_action(action)
    assert all(count > MANY // 10 for count in endings.values()), endings


def test_pyspiel_game_passes_random_sim_test_and_pickles():
    game = pyspiel.load_game("python_tictactoe_rs(game=ultimate)")
    pyspiel.random_sim_test(game, num_sims=10, serialize=True, verbose=False)
    assert str(pickle.loads(pickle.dumps(game))) == "python_tictactoe_rs(game=ultimate)"
    state = game.new_initial_state()
    for action in (4, 4, 0):
        state.apply_action(action)
    clone = state.clone()
    clone.apply_action(1)
    assert str(state) != str(clone) and state.history() == [4, 4, 0]
    position = Position()
    for move in (40, 36):
        position.play(move)
    copy = pickle.loads(pickle.dumps(position))
    copy.undo()
    assert str(copy) != str(position) and copy.plies == 1


@pytest.mark.parametrize("name", ["_ultimate", "_ultimate_gym", "_ultimate_pettingzoo", "_ultimate_openspiel"])
def test_module_docstring_examples(name):
    import doctest
    import importlib

    module = importlib.import_module(f"tictactoe_rs.envs.{name}")
    result = doctest.testmod(module)
    assert result.failed == 0 and result.attempted > 0


def test_ultimate_md_python_examples_run():
    import re
    from pathlib import Path

    doc = Path(__file__).resolve().parents[2] / "docs" / "ultimate.md"
    blocks = re.findall(r"```python\n(.*?)```", doc.read_text(), re.S)
    assert blocks
    for index, block in enumerate(blocks):
        exec(compile(block, f"ultimate.md block {index}", "exec"), {})


def test_training_adapters_take_ultimate():
    from tictactoe_rs.envs.sb3 import SB3VecEnv
    from tictactoe_rs.envs.wrappers import VectorActionMaskObservation

    venv = SB3VecEnv.make(4, opponent="random", game="ultimate")
    assert venv.reset().shape == (4, 3, 9, 9)
    masks = np.stack(venv.env_method("action_masks"))
    assert masks.shape == (4, 81) and masks.all(axis=1).all()
    venv.step(masks.argmax(axis=1))
    wrapped = VectorActionMaskObservation(ours_gym.MnkVectorEnv(4, opponent="random", game="ultimate"))
    obs, _ = wrapped.reset(seed=0)
    assert obs["action_mask"].shape == (4, 81) and obs["observation"].shape == (4, 3, 9, 9)
    pytest.importorskip("jax")
    import jax.numpy as jnp

    from tictactoe_rs.envs.jax import JaxEnv

    env = JaxEnv(8, game="ultimate", seed=0)
    state = env.reset()
    assert state.observation.shape == (8, 3, 9, 9) and state.legal_action_mask.shape == (8, 81)
    state = env.step(jnp.argmax(state.legal_action_mask, axis=1).astype(jnp.int32))
    assert int(state.legal_action_mask.sum()) < 8 * 81


def test_gymnasium_builtin_players_as_opponents():
    # The heuristic (one player shared by the games, native) beats an agent playing random moves.
    envs = ours_gym.UltimateVectorEnv(64, opponent="heuristic", agent="random", autoreset_mode="same_step")
    envs.reset(seed=0)
    wins = losses = 0
    for _ in range(300):
        _, rewards, _, _, _ = envs.step(envs.sample_actions())
        wins, losses = wins + int((rewards > 0).sum()), losses + int((rewards < 0).sum())
    assert losses > 3 * wins, (wins, losses)

    # mcts:N: the same seed gives the same games (the player is reseeded by reset(seed=...)).
    def game(seed: int) -> list[np.ndarray]:
        env = ours_gym.UltimateEnv(opponent="mcts:64", agent="random")
        obs, info = env.reset(seed=seed)
        seen = [obs]
        for _ in range(12):
            obs, _, terminated, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
            seen.append(obs)
            if terminated:
                break
        return seen

    first, again = game(5), game(5)
    assert all((a == b).all() for a, b in zip(first, again, strict=True))
    assert sum(int(obs[1].sum()) for obs in first) > 0, "the opponent marked"
