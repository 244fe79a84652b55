"""The Stable-Baselines3 adapter without SB3 or torch: against SB3's own ``VecEnv`` interface
(its methods and their parameters, written out below) and, game by game, against the single
Gymnasium env under ``DummyVecEnv``'s rules. ``scripts/test-training`` runs it under the real
SB3 and trains MaskablePPO on it."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("cloudpickle")

from tictactoe_rs.envs.gymnasium import MnkVectorEnv, TicTacToeEnv, TicTacToeVectorEnv
from tictactoe_rs.envs.sb3 import SB3VecEnv

# SB3 2.9.2's ``VecEnv`` interface, as ``inspect.signature`` shows it: every public method with
# its parameters (name, kind, default; "-" for none), and the properties (None). Written out so
# that CI checks the adapter without SB3 and torch; ``scripts/test-training`` checks it against
# the installed SB3 itself (``check_env``, its wrappers).
P, V, K, VK = "POSITIONAL_OR_KEYWORD", "VAR_POSITIONAL", "KEYWORD_ONLY", "VAR_KEYWORD"
SB3_VEC_ENV = {
    "_get_indices": [("indices", P, "-")],
    "_reset_options": [],
    "_reset_seeds": [],
    "close": [],
    "env_is_wrapped": [("wrapper_class", P, "-"), ("indices", P, None)],
    "env_method": [
        ("method_name", P, "-"),
        ("method_args", V, "-"),
        ("indices", K, None),
        ("method_kwargs", VK, "-"),
    ],
    "get_attr": [("attr_name", P, "-"), ("indices", P, None)],
    "get_images": [],
    "getattr_depth_check": [("name", P, "-"), ("already_found", P, "-")],
    "has_attr": [("attr_name", P, "-")],
    "render": [("mode", P, None)],
    "reset": [],
    "seed": [("seed", P, None)],
    "set_attr": [("attr_name", P, "-"), ("value", P, "-"), ("indices", P, None)],
    "set_options": [("options", P, None)],
    "step": [("actions", P, "-")],
    "step_async": [("actions", P, "-")],
    "step_wait": [],
    "unwrapped": None,
}


def test_every_method_of_the_interface_with_its_parameters():
    for name, expected in SB3_VEC_ENV.items():
        ours = inspect.getattr_static(SB3VecEnv, name)
        if expected is None:
            assert isinstance(ours, property), name
            continue
        got = [
            (p.name, p.kind.name, "-" if p.default is inspect.Parameter.empty else p.default)
            for p in list(inspect.signature(ours).parameters.values())[1:]
        ]
        assert got == expected, name
    venv = SB3VecEnv.make(4)
    for attribute in ["num_envs", "observation_space", "action_space", "reset_infos", "render_mode", "metadata"]:
        assert hasattr(venv, attribute), attribute


def test_what_sb3_and_maskable_ppo_call():
    venv = SB3VecEnv.make(5, opponent="random")
    assert venv.unwrapped is venv and venv.render_mode is None
    venv.seed(3)
    obs = venv.reset()
    assert obs.shape == (5, 3, 3, 2)
    masks = np.stack(venv.env_method("action_masks"))  # what MaskablePPO calls
    assert masks.shape == (5, 9) and masks.dtype == bool and masks.all()
    assert venv.has_attr("action_masks") and not venv.has_attr("no_such_thing")
    assert venv.get_attr("opponent", indices=[1, 2]) == ["random", "random"]
    assert venv.env_is_wrapped(object) == [False] * 5
    obs, rewards, dones, infos = venv.step(np.zeros(5, np.int64))
    assert rewards.dtype == np.float32 and dones.dtype == bool and len(infos) == 5


def legal_and_some_illegal(rng, masks):
    """A random legal action per game, and in 5% of the games any action (often illegal)."""
    n, actions = masks.shape
    legal = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
    return np.where(rng.random(n) < 0.05, rng.integers(0, actions, n), legal)


@pytest.mark.parametrize(
    ("opponent", "agent"), [("heuristic", "random"), ("random", "o"), ("eps:0.3", "x")]
)
def test_equals_single_envs_under_dummy_vec_env_rules(opponent, agent):
    """Each game against its own ``TicTacToeEnv`` stepped as ``DummyVecEnv.step_wait`` steps
    it: same observations, rewards, dones, terminal observations and truncation flags."""
    n, steps = 16, 200
    venv = SB3VecEnv.make(n, opponent=opponent, agent=agent)
    singles = [TicTacToeEnv(opponent=opponent, agent=agent) for _ in range(n)]
    venv.seed(7)
    obs = venv.reset()
    single_obs = np.stack([e.reset(seed=7 + i)[0] for i, e in enumerate(singles)])
    np.testing.assert_array_equal(obs, single_obs)
    rng = np.random.default_rng(0)
    for _ in range(steps):
        actions = legal_and_some_illegal(rng, np.stack(venv.env_method("action_masks")))
        obs, rewards, dones, infos = venv.step(actions)
        for i, env in enumerate(singles):
            o, r, terminated, truncated, _ = env.step(int(actions[i]))
            assert rewards[i] == r and dones[i] == (terminated or truncated)
            assert infos[i]["TimeLimit.truncated"] == (truncated and not terminated)
            if dones[i]:
                np.testing.assert_array_equal(infos[i]["terminal_observation"], o)
                o, _ = env.reset()
            np.testing.assert_array_equal(obs[i], o)


@pytest.mark.parametrize(("game", "opponent"), [("connect-four", "heuristic"), ("4,4,3", "random")])
def test_family_games_in_sb3_terms(game, opponent):
    """Over a family game (whose vector env draws the opponent's moves from one stream, so it
    is compared with its own twin rather than with single envs): SB3's view of each step of
    the Gymnasium vector env."""
    n = 16
    venv = SB3VecEnv.make(n, opponent=opponent, agent="random", game=game)
    twin = MnkVectorEnv(n, opponent, "random", autoreset_mode="SameStep", game=game)
    venv.seed(3)
    np.testing.assert_array_equal(venv.reset(), twin.reset(seed=[3 + i for i in range(n)])[0])
    assert venv.observation_space == twin.single_observation_space
    rng = np.random.default_rng(1)
    ended = 0
    for _ in range(200):
        masks = np.stack(venv.env_method("action_masks"))
        np.testing.assert_array_equal(masks, twin.action_masks())
        actions = legal_and_some_illegal(rng, masks)
        obs, rewards, dones, infos = venv.step(actions)
        t_obs, t_rewards, terminated, truncated, t_infos = twin.step(actions)
        np.testing.assert_array_equal(obs, t_obs)
        np.testing.assert_array_equal(rewards, t_rewards.astype(np.float32))
        np.testing.assert_array_equal(dones, terminated | truncated)
        for i in range(n):
            assert infos[i]["TimeLimit.truncated"] == bool(truncated[i] and not terminated[i])
            assert ("terminal_observation" in infos[i]) == bool(dones[i])
            if dones[i]:
                np.testing.assert_array_equal(infos[i]["terminal_observation"], t_infos["final_obs"][i])
        ended += int(dones.sum())
    assert ended > 50


def test_seeds_options_and_errors():
    venv = SB3VecEnv.make(3, opponent="random", agent="random")
    assert venv.seed(5) == [5, 6, 7]
    first = venv.reset()
    venv.seed(5)
    np.testing.assert_array_equal(venv.reset(), first)
    assert venv.reset_infos[0]["action_mask"].shape == (9,)
    with pytest.raises(ValueError, match="share"):
        venv.set_attr("opponent", "perfect", indices=[0])
    venv.set_attr("copy", True)
    with pytest.raises(TypeError, match="one row per game"):
        venv.env_method("reset")
    with pytest.raises(AttributeError):
        venv.get_attr("no_such_thing")
    with pytest.raises(ValueError, match="SAME_STEP"):
        SB3VecEnv(TicTacToeVectorEnv(3))
    with pytest.raises(RuntimeError, match="step_async"):
        venv.step_wait()
    with pytest.raises(ValueError, match="actions"):
        venv.step(np.array([0, 1, 9]))
