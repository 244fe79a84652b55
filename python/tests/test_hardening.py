"""Issue 25: no call kills the interpreter or panics, no argument is silently truncated or
coerced, and a failing opponent leaves the game as it was."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import numpy as np
import pytest

import tictactoe_rs as t
from tictactoe_rs import _native
from tictactoe_rs.envs.batched import BatchedEnv

BOARD = np.array([[1, 1, 1, 2, 2, 0, 0, 0, 0]], np.int8)


def _panics(exc: BaseException) -> bool:
    return type(exc).__name__ == "PanicException"


# 1. No call aborts or panics --------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "error", "words"),
    [
        (lambda: BatchedEnv(2**62), ValueError, ["n", "games"]),
        (lambda: BatchedEnv(-1), ValueError, ["n", "games"]),
        (lambda: BatchedEnv(0), ValueError, ["n"]),
        (lambda: t.selfplay(2**61), ValueError, ["`n`", "too large"]),
        (lambda: t.selfplay(2**63), OverflowError, ["n"]),
        (lambda: _native.EnvKernel(2**62, "pgx"), ValueError, ["`n`"]),
    ],
)
def test_huge_sizes_raise_instead_of_panicking(call, error, words) -> None:
    try:
        call()
    except BaseException as exc:
        assert not _panics(exc), exc
        assert isinstance(exc, error), repr(exc)
        assert all(w in str(exc) for w in words), str(exc)
    else:
        pytest.fail("did not raise")


def _limited(code: str) -> subprocess.CompletedProcess[str]:
    """Runs ``code`` in a fresh interpreter whose address space is limited to 4 GB (as
    ``ulimit -v 4000000``), after numpy and the package are imported."""
    script = textwrap.dedent(
        """
        import resource, numpy as np, tictactoe_rs as t
        from tictactoe_rs.envs.batched import BatchedEnv
        limit = 4_000_000 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        try:
        {body}
        except MemoryError as e:
            print("MemoryError", e)
        """
    ).format(body=textwrap.indent(textwrap.dedent(code), "    " * 2))
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize(
    "code",
    [
        "BatchedEnv(10**10)",
        "t.selfplay(10**12)",
        "t.selfplay(10**9)",
        "t.decode(np.zeros(2**29, np.int8), 'rank')",
        "t.decode_games(np.zeros(2**29, np.int8))",
        "t.boards_to_planes(np.zeros((2**26, 9), np.int8), layout='openspiel')",
        "t.status(np.zeros((2**29, 9), np.int64))",
    ],
)
def test_allocations_past_the_memory_limit_raise_memory_error(code) -> None:
    result = _limited(code)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.startswith("MemoryError"), (result.stdout, result.stderr[-2000:])


def test_read_only_buffers_are_refused_naming_the_argument() -> None:
    env = BatchedEnv(4)
    actions = np.zeros(4, np.int64)
    actions.setflags(write=False)
    with pytest.raises(ValueError, match="`out` is read-only"):
        env.sample_actions(actions)
    out = np.zeros(4, np.int8)
    out.setflags(write=False)
    with pytest.raises(ValueError, match="`out` is read-only"):
        t.status(np.zeros((4, 9), np.int8), out=out)
    # A read-only input is fine: it is only read.
    env.step(actions)


def test_misaligned_and_big_endian_inputs_are_converted() -> None:
    codes = np.arange(5478)
    big = codes.astype(">i8")
    np.testing.assert_array_equal(t.decode(big, "rank"), t.decode(codes, "rank"))
    raw = np.zeros(5478 * 8 + 1, np.uint8)
    misaligned = raw[1:].view(np.int64)
    misaligned[:] = codes
    assert not misaligned.flags.aligned
    np.testing.assert_array_equal(t.decode(misaligned, "rank"), t.decode(codes, "rank"))
    boards = t.decode(codes, "rank")
    np.testing.assert_array_equal(t.status(boards.astype(">i2")), t.status(boards))
    env = BatchedEnv(2, seed=1)
    env.step(np.array([4, 4], ">i8"))
    assert env.boards().tolist() == [[16, 0], [16, 0]]  # X (the first mover) on cell 4
    out = np.zeros(5478 * 4 + 1, np.uint8)[1:].view(np.int32)
    with pytest.raises(ValueError, match="`out` must be C-contiguous and aligned"):
        t.encode(boards, "rank", out=out)


# 2. No silent truncation or coercion ------------------------------------------------------


def test_lists_and_every_integer_dtype_are_boards() -> None:
    assert t.status([[1, 1, 1, 2, 2, 0, 0, 0, 0]]).tolist() == [t.X_WON]
    for dtype in (np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64, ">i4"):
        assert t.status(BOARD.astype(dtype)).tolist() == [t.X_WON], dtype
        assert t.encode(BOARD.astype(dtype), "base3").tolist() == t.encode(BOARD, "base3").tolist()
    # A value that does not fit int8 is not a cell: it is never wrapped into one.
    wrapped = BOARD.astype(np.int64)
    wrapped[0, 5] = 256 + 1
    assert t.is_valid(wrapped).tolist() == [False]
    assert t.status(wrapped).tolist() == [-1]
    for bad in ([[1.0] * 9], BOARD.astype(bool), BOARD.astype(np.float32), [["1"] * 9]):
        with pytest.raises(TypeError, match="`x`"):
            t.status(bad)


def _single_env():
    from tictactoe_rs.envs.gymnasium import TicTacToeEnv

    env = TicTacToeEnv(opponent="random", agent="x")
    env.reset(seed=0)
    return env


@pytest.mark.parametrize("action", [4.5, "3", True, np.True_, np.float64(4.0), None, [4]])
def test_gymnasium_step_rejects_what_is_not_an_integer(action) -> None:
    env = _single_env()
    with pytest.raises(TypeError, match="`action`"):
        env.step(action)
    assert not env.unwrapped._kernel.bits().any()


@pytest.mark.parametrize("action", [np.int8(4), np.uint64(4), np.array(4), 4])
def test_gymnasium_step_takes_integers_of_any_width(action) -> None:
    env = _single_env()
    env.step(action)
    assert env._kernel.bits()[0, 0] == 1 << 4


def test_vector_env_rejects_floats_and_takes_any_integer_dtype() -> None:
    from tictactoe_rs.envs.gymnasium import TicTacToeVectorEnv

    env = TicTacToeVectorEnv(3, opponent="random")
    env.reset(seed=0)
    with pytest.raises(TypeError, match="`actions`"):
        env.step(np.full(3, 4.7))
    with pytest.raises(TypeError, match="`actions`"):
        env.step(np.ones(3, bool))
    assert not env._kernel.bits().any()
    env.step(np.full(3, 4, np.uint8))
    assert (env._kernel.bits()[:, 0] == 1 << 4).all()
    with pytest.raises(ValueError, match="`actions` holds 9"):
        env.step(np.full(3, 9, np.int16))


@pytest.mark.parametrize("action", [4.5, "3", True, np.float64(4.0)])
def test_pettingzoo_raw_env_rejects_what_is_not_an_integer(action) -> None:
    from tictactoe_rs.envs.pettingzoo import raw_env

    env = raw_env()
    env.reset()
    with pytest.raises(TypeError, match="`action`"):
        env.step(action)
    env.step(np.int16(4))
    assert env._x == 1 << 4


def test_seeds_and_sizes_must_be_integers() -> None:
    from tictactoe_rs.envs.gymnasium import TicTacToeEnv, TicTacToeVectorEnv

    env = BatchedEnv(2)
    for bad in (1.5, "1", True):
        with pytest.raises(TypeError, match="`seed`"):
            env.reset(seed=bad)
        with pytest.raises(TypeError, match="`seed`"):
            TicTacToeEnv().reset(seed=bad)
        with pytest.raises(TypeError, match="`seed`"):
            TicTacToeVectorEnv(2).reset(seed=bad)
    with pytest.raises(ValueError, match="`seed`"):
        env.reset(seed=-1)
    env.reset(seed=np.uint64(2**64 - 1))
    with pytest.raises(TypeError, match="num_envs"):
        BatchedEnv(2.0)
    with pytest.raises(TypeError, match="num_envs"):
        BatchedEnv(True)
    with pytest.raises(TypeError):
        t.selfplay(2.5)
    with pytest.raises(TypeError):
        t.selfplay(True)
    assert len(t.selfplay(np.int8(3)).lengths) == 3


def test_illegal_reward_must_be_a_finite_number() -> None:
    from tictactoe_rs.envs.gymnasium import TicTacToeEnv

    for bad in (True, "1", [1.0]):
        with pytest.raises(TypeError, match="`illegal_reward`"):
            TicTacToeEnv(illegal_reward=bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="`illegal_reward`"):
        TicTacToeEnv(illegal_reward=float("nan"))
    TicTacToeEnv(illegal_reward=-2)
    env = TicTacToeEnv(illegal_reward=np.float32(-2.5))
    env.reset(seed=0)
    env.step(4)
    _, reward, terminated, _, _ = env.step(4)  # taken by the agent's own first move
    assert (reward, terminated) == (-2.5, True)


def test_check_codes_refuses_floats() -> None:
    from tictactoe_rs import data

    with pytest.raises(TypeError, match="integers"):
        data.check_codes(np.array([1.7, 2.2, 5477.9]), "rank", "f", "c")
    assert data.check_codes(np.array([1, 2, 5477], np.uint64), "rank", "f", "c").tolist() == [1, 2, 5477]
    with pytest.raises(data.DataError, match="18446744073709551615"):
        data.check_codes(np.array([2**64 - 1], np.uint64), "rank", "f", "c")


def test_sample_actions_into_the_wrong_dtype_says_what_it_needs() -> None:
    env = BatchedEnv(4)
    with pytest.raises(TypeError, match=r"`out` must be an int64 array of shape \(4,\), got an array of dtype int32"):
        env.sample_actions(np.zeros(4, np.int32))
    with pytest.raises(ValueError, match=r"`out` must have shape \(4,\)"):
        env.sample_actions(np.zeros(5, np.int64))


def test_board_from_state_refuses_other_games() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from tictactoe_rs.envs.openspiel import board_from_state

    state = pyspiel.load_game("breakthrough").new_initial_state()
    with pytest.raises(ValueError, match=r"tic_tac_toe.*breakthrough"):
        board_from_state(state)


def test_disabled_vector_env_refuses_a_step_on_a_finished_game_as_sync_vector_env() -> None:
    from gymnasium.vector import AutoresetMode, SyncVectorEnv

    from tictactoe_rs.envs.gymnasium import TicTacToeEnv, TicTacToeVectorEnv

    ours = TicTacToeVectorEnv(2, opponent="random", autoreset_mode=AutoresetMode.DISABLED)
    theirs = SyncVectorEnv(
        [lambda: TicTacToeEnv(opponent="random")] * 2, autoreset_mode=AutoresetMode.DISABLED
    )
    for env, error in ((ours, ValueError), (theirs, AssertionError)):
        env.reset(seed=0)
        env.step(np.array([0, 0]))
        _, _, terminated, _, _ = env.step(np.array([0, 0]))  # cell 0 is taken: both end
        assert terminated.all()
        with pytest.raises(error):
            env.step(np.array([1, 1]))
        env.reset(options={"reset_mask": np.array([True, True])})
        env.step(np.array([4, 4]))
    assert ours.step(np.array([4, 4]))[2].all()


# 3. A failing opponent leaves the game as it was -------------------------------------------


class _Flaky:
    """Raises (or returns ``bad``) on its first call, then plays the first empty cell."""

    def __init__(self, bad=None, raises=True):
        self.calls, self.bad, self.raises = 0, bad, raises

    def __call__(self, observation, mask):
        self.calls += 1
        if self.calls == 1:
            if self.raises:
                raise RuntimeError("opponent failed")
            return self.bad
        return int(np.flatnonzero(mask)[0])


@pytest.mark.parametrize(
    ("opponent", "error"),
    [
        (_Flaky(), RuntimeError),
        (_Flaky(bad=9, raises=False), ValueError),
        (_Flaky(bad=None, raises=False), TypeError),
        (_Flaky(bad=4.0, raises=False), TypeError),
        (_Flaky(bad=4, raises=False), ValueError),  # the agent's cell: occupied
    ],
)
def test_a_failing_opponent_leaves_the_game_as_it_was(opponent, error) -> None:
    from tictactoe_rs.envs.gymnasium import TicTacToeEnv

    env = TicTacToeEnv(opponent=opponent, agent="x")
    env.reset(seed=0)
    with pytest.raises(error):
        env.step(4)
    assert env._kernel.bits().tolist() == [[0, 0]]
    assert not env._kernel.pending().any()
    obs, _, _, _, info = env.step(0)
    # X on 0 and O on the opponent's first empty cell, 1: the agent's move is the agent's.
    assert env._kernel.bits().tolist() == [[1 << 0, 1 << 1]]
    assert obs[0, 0, 0] == 1 and obs[0, 1, 1] == 1 and obs.sum() == 2
    assert info["action_mask"].tolist() == [0, 0, 1, 1, 1, 1, 1, 1, 1]


def test_a_failing_opponent_in_reset_leaves_the_game_as_it_was() -> None:
    from tictactoe_rs.envs.gymnasium import TicTacToeVectorEnv

    env = TicTacToeVectorEnv(2, opponent=_Flaky(), agent="o")
    with pytest.raises(RuntimeError):
        env.reset(seed=0)
    assert not env._kernel.pending().any()
    env.reset(seed=0)
    assert env._kernel.bits()[:, 0].tolist() == [1, 1]
