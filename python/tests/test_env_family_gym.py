"""Gymnasium environments on the k-in-a-row family (``game=``): the env checker, every native
opponent on every game size, the batched callable opponent and its rollback, the vector env."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

gym = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from gymnasium.vector import AutoresetMode  # noqa: E402

from tictactoe_rs.envs.gymnasium import ENV_ID, ENV_IDS, MnkEnv, MnkVectorEnv, TicTacToeEnv  # noqa: E402


def lowest_open(observations, masks):
    """A batched callable opponent: the first action with room in each game."""
    return masks.argmax(axis=1)


@pytest.mark.parametrize("game", ["connect-four", "4,4,4", "gomoku"])
@pytest.mark.parametrize("opponent", ["random", "heuristic", lowest_open])
@pytest.mark.parametrize("agent", ["x", "o"])
def test_check_env(game, opponent, agent):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(MnkEnv(opponent=opponent, agent=agent, game=game), skip_render_check=True)


# The preset of each id, its class names and its board.
PRESETS = {
    "tictactoe_rs/TicTacToe-v0": ("TicTacToeEnv", "TicTacToeVectorEnv", (3, 3, 2)),
    "tictactoe_rs/FourByFour-v0": ("FourByFourEnv", "FourByFourVectorEnv", (4, 4, 2)),
    "tictactoe_rs/ConnectFour-v0": ("ConnectFourEnv", "ConnectFourVectorEnv", (6, 7, 2)),
    "tictactoe_rs/Gomoku-v0": ("GomokuEnv", "GomokuVectorEnv", (15, 15, 2)),
    "tictactoe_rs/Mnk-v0": ("MnkEnv", "MnkVectorEnv", (3, 3, 2)),
    "tictactoe_rs/Ultimate-v0": ("UltimateEnv", "UltimateVectorEnv", (3, 9, 9)),
}


def test_every_game_has_its_registered_name_and_classes():
    assert set(ENV_IDS.values()) == set(PRESETS)
    for env_id, (single, vector, shape) in PRESETS.items():
        env = gym.make(env_id)
        assert type(env.unwrapped).__name__ == single and env.observation_space.shape == shape
        envs = gym.make_vec(env_id, num_envs=3, vectorization_mode="vector_entry_point")
        assert type(envs.unwrapped).__name__ == vector
        assert envs.single_observation_space.shape == shape
    assert gym.make("tictactoe_rs/Mnk-v0", game="5,5,4").observation_space.shape == (5, 5, 2)


@pytest.mark.parametrize("env_id", list(PRESETS))
@pytest.mark.parametrize("render_mode", [None, "ansi", "rgb_array", "human"])
def test_check_env_with_every_render_mode_through_gym_make(env_id, render_mode, capsys):
    """Gymnasium's env checker, its render check included, on what ``gym.make`` builds: every
    mode listed in the metadata renders, for every game."""
    env = gym.make(env_id, render_mode=render_mode)
    assert env.metadata["render_modes"] == ["human", "rgb_array", "ansi"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped)
    env.reset(seed=0)
    frame = env.render() if render_mode is not None else None
    if render_mode == "rgb_array":
        assert isinstance(frame, np.ndarray) and frame.dtype == np.uint8 and frame.ndim == 3
        if env_id.endswith("ConnectFour-v0"):
            assert frame.shape == (86 * 9, 99 * 9, 3)  # connect_four_v3's frame, as PettingZoo's
    elif render_mode == "ansi":
        assert isinstance(frame, str) and frame.count("\n") >= 2


def test_the_render_modes_are_pettingzoos():
    pettingzoo = pytest.importorskip("tictactoe_rs.envs.pettingzoo")
    for game in ["tic-tac-toe", "4x4", "connect-four", "gomoku"]:
        ours = gym.make(ENV_IDS[game]).metadata["render_modes"]
        assert pettingzoo.raw_env(game=game).metadata["render_modes"] == ours


@pytest.mark.parametrize(
    ("game", "opponent"),
    [
        ("connect-four", "mcts"),
        ("connect-four", "alphabeta"),
        ("connect-four", "perfect"),
        ("4,4,4", "perfect"),
        ("5,5,4", "alphabeta"),
        ("gomoku", "mcts"),
        ("3,4,3", "perfect"),
    ],
)
def test_search_opponents_answer_natively(game, opponent):
    env = MnkEnv(opponent=opponent, agent="x", game=game)
    obs, info = env.reset(seed=1)
    for _ in range(2):
        # The middle legal action: on Connect Four the centre.
        legal = np.flatnonzero(info["action_mask"])
        action = int(legal[len(legal) // 2])
        obs, _, terminated, _, info = env.step(action)
        # The agent's marks and the opponent's: one each a step.
        assert obs[:, :, 0].sum() == obs[:, :, 1].sum()
        if terminated:
            break


def test_perfect_opponent_wins_small_games_against_random():
    """On 3 x 4 with three in a row (a first-player win), the solver as X never loses."""
    env = MnkVectorEnv(64, opponent="perfect", agent="o", game="3,4,3")
    env.reset(seed=0)
    rewards = []
    for _ in range(12):
        _, reward, terminated, _, _ = env.step(env.sample_actions())
        rewards.extend(reward[terminated])
    assert len(rewards) > 50 and max(rewards) <= 0


def test_heuristic_beats_random_at_connect_four():
    env = MnkVectorEnv(128, opponent="heuristic", agent="random", game="connect-four")
    env.reset(seed=0)
    total = []
    for _ in range(60):
        _, reward, terminated, _, _ = env.step(env.sample_actions())
        total.extend(reward[terminated])
    assert len(total) > 100 and np.mean(total) < -0.5


def test_batched_opponent_is_called_once_a_step_and_undone_when_it_fails():
    calls = []

    def opponent(observations, masks):
        calls.append(len(masks))
        if len(calls) == 3:
            return masks.argmin(axis=1)  # a full column where there is one: or legal
        if len(calls) == 4:
            raise RuntimeError("opponent failed")
        return masks.argmax(axis=1)

    n = 16
    env = MnkVectorEnv(n, opponent=opponent, agent="x", game="connect-four")
    env.reset(seed=0)
    assert calls == []  # the agent opens: no call
    env.step(np.zeros(n, np.int64))
    assert calls == [n]  # one call for the whole batch
    before = env._obs.copy(), env._kernel.boards()
    env.step(np.zeros(n, np.int64))
    assert calls == [n, n]
    before = env._obs.copy(), env._kernel.boards()
    with pytest.raises(RuntimeError, match="opponent failed"):
        calls.append(0)  # the next call is the fourth
        env.step(np.ones(n, np.int64))
    np.testing.assert_array_equal(env._obs, before[0])
    assert env._kernel.boards() == before[1]


@pytest.mark.parametrize(
    ("answer", "error", "message"),
    [
        (lambda o, m: np.zeros(len(m) + 1, np.int64), ValueError, "must return shape"),
        (lambda o, m: np.zeros(len(m)), TypeError, "integer array"),
        (lambda o, m: 7, TypeError, "integer array"),
        (lambda o, m: np.full(len(m), 7), ValueError, r"not an action \(0 to 6\)"),
    ],
)
def test_bad_opponent_answers_raise_and_leave_the_games(answer, error, message):
    env = MnkVectorEnv(4, opponent=answer, agent="x", game="connect-four")
    # The opponent is called only after the agent's first move.
    env.reset(seed=3)
    before = env._obs.copy(), env._kernel.boards()
    with pytest.raises(error, match=message):
        env.step(np.array([0, 1, 2, 3]))
    np.testing.assert_array_equal(env._obs, before[0])
    assert env._kernel.boards() == before[1]


def test_illegal_opponent_move_raises_and_is_undone():
    env = MnkVectorEnv(2, opponent=lambda o, m: np.zeros(len(m), np.int64), agent="x",
                             game="connect-four")
    env.reset(seed=0)
    for _ in range(2):
        env.step(np.array([0, 0]))  # fills column 0 with the opponent's answers
    env.step(np.array([0, 0]))
    before = env._kernel.boards()
    with pytest.raises(ValueError, match="illegal"):
        env.step(np.array([1, 1]))  # the opponent answers 0 again, full by now
    assert env._kernel.boards() == before


def test_vector_env_spaces_and_autoreset():
    env = gym.make_vec("tictactoe_rs/Gomoku-v0", num_envs=8, vectorization_mode="vector_entry_point",
                       opponent="random",
                       autoreset_mode=AutoresetMode.SAME_STEP)
    obs, info = env.reset(seed=0)
    assert obs.shape == (8, 15, 15, 2) and info["action_mask"].shape == (8, 225)
    assert env.single_action_space.n == 225
    ended = 0
    for _ in range(150):
        obs, _, terminated, _, info = env.step(env.unwrapped.sample_actions())
        ended += int(terminated.sum())
        for i in np.flatnonzero(terminated):
            assert info["final_obs"][i].shape == (15, 15, 2)
    assert ended > 0


def test_errors_name_the_argument():
    with pytest.raises(ValueError, match="argument `game`"):
        MnkEnv(game="7,7")
    with pytest.raises(ValueError, match="argument `opponent`"):
        MnkEnv(opponent="eps:0.2", game="connect-four")
    env = MnkEnv(game="connect-four")
    env.reset(seed=0)
    with pytest.raises(ValueError, match=r"argument `action` must be an action, 0 to 6, got 7"):
        env.step(7)
    with pytest.raises(ValueError, match=r"argument `render_mode` must be one of \['human', 'rgb_array', 'ansi'\] or None, got 'rgb'"):
        MnkEnv(game="connect-four", render_mode="rgb")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"argument `game`: the TicTacToe env plays tic-tac-toe, not connect-four: make tictactoe_rs/ConnectFour-v0"):
        TicTacToeEnv(game="connect-four")
    with pytest.raises(ValueError, match=r"not 5,5,4: make tictactoe_rs/Mnk-v0 with game='5,5,4'"):
        gym.make(ENV_ID, game="5,5,4")
    assert TicTacToeEnv(game="tic-tac-toe").game == TicTacToeEnv().game
    text = MnkEnv(game="4,4,4", render_mode="ansi")
    text.reset(seed=0)
    assert text.render() == "\n".join([". . . ."] * 4)


def test_tic_tac_toe_batched_opponent_plays_as_the_per_game_callable():
    """``BatchedOpponent`` on the 3 x 3 kernel: one call per step, the same games as the plain
    callable that answers game by game."""
    from tictactoe_rs.envs.gymnasium import BatchedOpponent

    calls = []

    def lowest_batch(observations, masks):
        calls.append(len(masks))
        return masks.argmax(axis=1)

    def lowest_one(observation, mask):
        return int(np.flatnonzero(mask)[0])

    n = 32
    batched = MnkVectorEnv(n, opponent=BatchedOpponent(lowest_batch), agent="random",
                                 autoreset_mode=AutoresetMode.SAME_STEP)
    single = MnkVectorEnv(n, opponent=lowest_one, agent="random",
                                autoreset_mode=AutoresetMode.SAME_STEP)
    for env in (batched, single):
        env.reset(seed=7)
    rng = np.random.default_rng(0)
    for _ in range(30):
        masks = batched.action_masks()
        actions = (rng.random(masks.shape) * masks).argmax(axis=1)
        a = batched.step(actions)
        b = single.step(actions)
        np.testing.assert_array_equal(a[0], b[0])
        np.testing.assert_array_equal(a[1], b[1])
    assert 0 < len(calls) <= 2 * 31  # at most two rounds a step (a game restarting with O)
    with pytest.raises(TypeError, match="callable"):
        BatchedOpponent(3)


def test_perfect_is_refused_where_its_solver_has_no_time_bound():
    """``perfect`` has no budget: on gomoku it would search for ever, so it is refused."""
    with pytest.raises(ValueError, match=r"perfect does not play gomoku.*use \"alphabeta\""):
        MnkEnv(opponent="perfect", game="gomoku")
