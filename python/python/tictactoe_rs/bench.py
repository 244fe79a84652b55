"""Environment steps per second against batch size, for ours and for the peers installed.

``python -m tictactoe_rs.bench`` steps ``N`` games together with uniformly random legal actions
and auto-reset, for each batch size ``N`` and each environment, interleaved: every round runs
one trial of every (batch, environment) pair in turn, and the table shows the median trial of
the rounds. One env-step is one move in one game. By default the process is pinned to one CPU
(``--cpus`` to change) and trials are timed by the CPU time of the process (``--clock wall``
for wall time), so the figures are per core, peers included (XLA then runs one thread), and
other programs on a busy machine do not count against them.

Environments (the peers are skipped when not installed):

- ``ours``: :class:`tictactoe_rs.envs.batched.BatchedEnv` (pgx convention), actions drawn by
  its native ``sample_actions``.
- ``ours-gym`` (only with ``--envs``): :class:`~tictactoe_rs.envs.gymnasium.MnkVectorEnv`
  against the random opponent, ``copy=False``; one env-step is the agent's move and the
  opponent's answer, with the Gymnasium return values (infos included) built every step.
- ``ours-selfplay`` (only with ``--envs``): :func:`tictactoe_rs.envs.batched.selfplay` with
  both seats a numpy policy (``mask.argmax(axis=1)``, called once per step with the batch);
  one env-step is one agent-step, the move of one policy in one game.
- ``pgx``: ``pgx.make("tic_tac_toe")`` on CPU, ``jax.jit(jax.vmap(auto_reset(step, init)))``
  with the actions drawn in the same jitted function (``jax.random.categorical`` over the
  mask), one Python call per batched step.
- ``envpool``: ``envpool.make("TicTacToe-v1", env_type="gymnasium", num_threads=1)``, actions
  drawn with numpy from its ``legal_action_mask``.
- ``pettingzoo`` (``tictactoe_v3.env()``) and ``pyspiel`` (``tic_tac_toe``): one Python object
  per game, stepped in a loop; their rate does not depend on the batch, so they run only up to
  ``--loop-max`` games.

``--game`` picks the game: ``tic-tac-toe`` (default), ``connect-four`` (ours with
``game="connect-four"``, pgx ``connect_four``, PettingZoo ``connect_four_v3``, pyspiel
``connect_four``), ``gomoku`` (ours with ``game="gomoku"``, pyspiel ``gomoku``; pgx, envpool
and PettingZoo have none) or ``ultimate`` (ours with ``game="ultimate"``, pyspiel
``ultimate_tic_tac_toe``, whose env-step is one move: a board choice and a cell when the mover
chooses, two pyspiel actions). For these games pyspiel's loop also builds each state's
``observation_tensor()``, as ours and pgx build observations on every step.

>>> from tictactoe_rs import bench
>>> rows = bench.run(batches=[1, 64], envs=["ours"], rounds=1, seconds=0.01)
>>> sorted(rows["ours"])
[1, 64]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

BATCHES = [1, 4, 16, 64, 256, 1024, 4096, 16384, 65536]
QUICK_BATCHES = [1, 64, 4096]
ENVS = ["ours", "pgx", "envpool", "pettingzoo", "pyspiel"]
GAMES = ["tic-tac-toe", "connect-four", "gomoku", "ultimate"]
#: The peers' names of each game; a peer without the game is skipped.
PEER_GAMES = {
    "pgx": {"tic-tac-toe": "tic_tac_toe", "connect-four": "connect_four"},
    "envpool": {"tic-tac-toe": "TicTacToe-v1"},
    "pettingzoo": {"tic-tac-toe": "tictactoe", "connect-four": "connect_four"},
    "pyspiel": {
        "tic-tac-toe": "tic_tac_toe",
        "connect-four": "connect_four",
        "gomoku": "gomoku",
        "ultimate": "ultimate_tic_tac_toe",
    },
}
#: Also measured on request (``--envs``): ours through the Gymnasium vector env, ours in
#: self-play with two numpy policies, and pyspiel's loop without observation tensors.
EXTRA_ENVS = ["ours-gym", "ours-selfplay", "pyspiel-moves"]

Runner = Callable[[int], None]


def _ours(n: int, game: str = "tic-tac-toe") -> Runner:
    from tictactoe_rs.envs.batched import BatchedEnv

    env = BatchedEnv(n, convention="pgx", seed=0, game=game)
    actions = np.zeros(n, dtype=np.int64)
    sample, step = env.sample_actions, env.step

    def run(steps: int) -> None:
        for _ in range(steps):
            sample(actions)
            step(actions)

    return run


def _ours_gym(n: int, game: str = "tic-tac-toe") -> Runner:
    from tictactoe_rs.envs.gymnasium import MnkVectorEnv

    env = MnkVectorEnv(n, opponent="random", agent="random", copy=False, game=game)
    env.reset(seed=0)
    actions = np.zeros(n, dtype=np.int64)

    def run(steps: int) -> None:
        for _ in range(steps):
            env.sample_actions(actions)
            env.step(actions)

    return run


def _ours_selfplay(n: int, game: str = "tic-tac-toe") -> Runner:
    from tictactoe_rs.envs.batched import BatchedEnv, selfplay

    env = BatchedEnv(n, convention="pgx", seed=0, game=game)

    def lowest(observation: np.ndarray, mask: np.ndarray) -> np.ndarray:
        return mask.argmax(axis=1)

    def run(steps: int) -> None:
        selfplay(env, lowest, lowest, steps)

    return run


def _pgx(n: int, game: str = "tic-tac-toe") -> Runner:
    import jax
    import jax.numpy as jnp
    import pgx
    from pgx.experimental import auto_reset

    jax.config.update("jax_platforms", "cpu")
    env = pgx.make(PEER_GAMES["pgx"][game])
    step = jax.vmap(auto_reset(env.step, env.init))

    @jax.jit
    def play(state: Any, key: Any) -> Any:
        key, k1, k2 = jax.random.split(key, 3)
        logits = jnp.where(state.legal_action_mask, 0.0, -jnp.inf)
        actions = jax.random.categorical(k1, logits, axis=-1)
        return step(state, actions, jax.random.split(k2, n)), key

    key = jax.random.PRNGKey(0)
    state = jax.jit(jax.vmap(env.init))(jax.random.split(key, n))
    holder = [state, key]
    jax.block_until_ready(play(state, key))  # compile outside the timing

    def run(steps: int) -> None:
        state, key = holder
        for _ in range(steps):
            state, key = play(state, key)
        jax.block_until_ready(state)
        holder[:] = [state, key]

    return run


def _envpool(n: int, game: str = "tic-tac-toe") -> Runner:
    import envpool

    env = envpool.make(
        "TicTacToe-v1", env_type="gymnasium", num_envs=n, batch_size=n, seed=0, num_threads=1
    )
    _, info = env.reset()
    rng = np.random.default_rng(0)
    holder = [info["legal_action_mask"]]

    def run(steps: int) -> None:
        mask = holder[0]
        for _ in range(steps):
            actions = (rng.random(mask.shape) * mask).argmax(axis=1)
            *_, info = env.step(actions)
            mask = info["legal_action_mask"]
        holder[0] = mask

    return run


def _pettingzoo(n: int, game: str = "tic-tac-toe") -> Runner:
    import importlib

    name = PEER_GAMES["pettingzoo"][game]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        module = importlib.import_module(f"pettingzoo.classic.{name}.{name}")

    envs = [module.env() for _ in range(n)]
    for env in envs:
        env.reset()
    rng = np.random.default_rng(0)

    def run(steps: int) -> None:
        for _ in range(steps):
            for env in envs:
                obs, _, terminated, truncated, _ = env.last()
                if terminated or truncated:
                    env.reset()
                    obs, *_ = env.last()
                legal = np.flatnonzero(obs["action_mask"])
                env.step(int(legal[rng.integers(len(legal))]))

    return run


def _pyspiel(n: int, game: str = "tic-tac-toe", observe: bool | None = None) -> Runner:
    import random

    import pyspiel

    spiel = pyspiel.load_game(PEER_GAMES["pyspiel"][game])
    states = [spiel.new_initial_state() for _ in range(n)]
    rng = random.Random(0)
    if observe is None:
        observe = game != "tic-tac-toe"
    # Ultimate: one env-step is one move, which is two pyspiel actions when the mover chooses
    # the board (the same player acts twice).
    two_step = game == "ultimate"

    def run(steps: int) -> None:
        for _ in range(steps):
            for i, state in enumerate(states):
                if state.is_terminal():
                    state = states[i] = spiel.new_initial_state()
                player = state.current_player()
                state.apply_action(rng.choice(state.legal_actions()))
                if two_step and state.current_player() == player:
                    state.apply_action(rng.choice(state.legal_actions()))
                if observe:
                    state.observation_tensor(0)

    return run


def _pyspiel_moves(n: int, game: str = "tic-tac-toe") -> Runner:
    """pyspiel's loop without observation tensors: its moves alone."""
    return _pyspiel(n, game, observe=False)


MAKERS: dict[str, Callable[[int, str], Runner]] = {
    "ours": _ours,
    "ours-gym": _ours_gym,
    "ours-selfplay": _ours_selfplay,
    "pgx": _pgx,
    "envpool": _envpool,
    "pettingzoo": _pettingzoo,
    "pyspiel": _pyspiel,
    "pyspiel-moves": _pyspiel_moves,
}
#: Environments stepped game by game in Python.
LOOPS = {"pettingzoo", "pyspiel", "pyspiel-moves"}


#: What each environment imports to run here: the peers' own modules, which need more than
#: their package (PettingZoo's ``tictactoe_v3`` imports pygame and gymnasium; pgx imports jax).
NEEDS = {
    "ours": ["tictactoe_rs"],
    "ours-gym": ["gymnasium"],
    "ours-selfplay": ["tictactoe_rs"],
    "pgx": ["jax", "pgx"],
    "envpool": ["envpool"],
    "pettingzoo": ["gymnasium", "pygame", "pettingzoo.classic.tictactoe.tictactoe"],
    "pyspiel": ["pyspiel"],
    "pyspiel-moves": ["pyspiel"],
}


def _missing(name: str, game: str = "tic-tac-toe") -> str | None:
    """Why environment ``name`` cannot run ``game`` here (the peer has no such game, or the
    first module that fails to import, and its error), or ``None`` when it can."""
    peer = "pyspiel" if name == "pyspiel-moves" else name
    if peer in PEER_GAMES and game not in PEER_GAMES[peer]:
        return f"{peer} has no {game}"
    needs = NEEDS.get(name, [name])
    if name == "pettingzoo":
        needs = [*needs[:-1], f"pettingzoo.classic.{PEER_GAMES[name][game]}.{PEER_GAMES[name][game]}"]
    for module in needs:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                __import__(module)
        except Exception as error:
            return f"{module} cannot be imported ({type(error).__name__}: {error})"
    return None


CLOCKS = {"cpu": time.process_time, "wall": time.perf_counter}


def _trial(run: Runner, n: int, seconds: float, clock: Callable[[], float]) -> float:
    """Env-steps per second of one trial lasting at least ``seconds`` of ``clock``."""
    steps = 1
    while True:
        start = clock()
        run(steps)
        elapsed = clock() - start
        if elapsed >= seconds:
            return steps * n / elapsed
        steps = max(steps * 2, int(steps * seconds / max(elapsed, 1e-9) * 1.2))


def run(
    batches: list[int] = BATCHES,
    envs: list[str] = ENVS,
    rounds: int = 5,
    seconds: float = 0.2,
    loop_max: int = 1024,
    log: Callable[[str], None] | None = None,
    clock: str = "cpu",
    game: str = "tic-tac-toe",
) -> dict[str, dict[int, float]]:
    """``{env: {batch: median env-steps/s}}`` over ``rounds`` interleaved rounds of ``game``."""
    if game not in GAMES:
        raise ValueError(f"argument `game` must be one of {GAMES}, got {game!r}")
    runners: dict[tuple[str, int], Runner] = {}
    for name in envs:
        reason = _missing(name, game)
        if reason is not None:
            if log:
                log(f"{name}: skipped, {reason}")
            continue
        for n in batches:
            if name in LOOPS and n > loop_max:
                continue
            runners[name, n] = MAKERS[name](n, game)
            runners[name, n](1)  # warm up
    trials: dict[tuple[str, int], list[float]] = {key: [] for key in runners}
    for r in range(rounds):
        for key, runner in runners.items():
            trials[key].append(_trial(runner, key[1], seconds, CLOCKS[clock]))
        if log:
            log(f"round {r + 1}/{rounds} done")
    table: dict[str, dict[int, float]] = {}
    for (name, n), values in trials.items():
        table.setdefault(name, {})[n] = statistics.median(values)
    return table


def _si(rate: float) -> str:
    for unit, scale in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if rate >= scale:
            return f"{rate / scale:.3g}{unit}"
    return f"{rate:.3g}"


def report(table: dict[str, dict[int, float]], batches: list[int]) -> str:
    """The table of rates, ours over each peer per batch, and best against best."""
    names = [name for name in ENVS + EXTRA_ENVS if name in table]
    lines = ["env-steps/s (median of rounds; one env-step = one move in one game)", ""]
    lines.append("| batch | " + " | ".join(names) + " | " +
                 " | ".join(f"ours/{p}" for p in names if p != "ours") + " |")
    lines.append("|" + "---|" * (1 + 2 * len(names) - ("ours" in names)))
    for n in batches:
        rates = [table[name].get(n) for name in names]
        cells = [_si(r) if r else "-" for r in rates]
        ours = table.get("ours", {}).get(n)
        ratios = []
        for name in names:
            if name == "ours":
                continue
            peer = table[name].get(n)
            ratios.append(f"{ours / peer:.3g}x" if ours and peer else "-")
        lines.append(f"| {n} | " + " | ".join(cells) + " | " + " | ".join(ratios) + " |")
    if "ours" in table:
        best_n, best = max(table["ours"].items(), key=lambda kv: kv[1])
        lines.append("")
        lines.append(f"ours at its best batch ({best_n}): {_si(best)}/s")
        for name in names:
            if name == "ours":
                continue
            peer_n, peer = max(table[name].items(), key=lambda kv: kv[1])
            lines.append(
                f"{name} at its best batch ({peer_n}): {_si(peer)}/s; ours best / {name} best "
                f"= {best / peer:.3g}x"
            )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Command line: see ``python -m tictactoe_rs.bench --help``."""
    parser = argparse.ArgumentParser(prog="python -m tictactoe_rs.bench", description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help=f"batches {QUICK_BATCHES}, 3 rounds of 0.1 s")
    parser.add_argument("--batches", type=lambda s: [int(v) for v in s.split(",")], default=None)
    parser.add_argument("--envs", type=lambda s: s.split(","), default=ENVS, help=",".join(ENVS + EXTRA_ENVS))
    parser.add_argument("--rounds", type=int, default=None)
    parser.add_argument("--seconds", type=float, default=None, help="minimum length of a trial")
    parser.add_argument("--loop-max", type=int, default=1024)
    parser.add_argument("--cpus", type=lambda s: {int(v) for v in s.split(",")}, default=None,
                        help="CPUs to run on (default: the first allowed one)")
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="cpu",
                        help="time trials by process CPU time (default) or wall time")
    parser.add_argument("--game", choices=GAMES, default="tic-tac-toe", help="the game to step")
    parser.add_argument("--json", help="also write the table to this file")
    args = parser.parse_args(argv)
    batches = args.batches or (QUICK_BATCHES if args.quick else BATCHES)
    rounds = args.rounds or (3 if args.quick else 5)
    seconds = args.seconds or (0.1 if args.quick else 0.2)
    allowed = os.sched_getaffinity(0) if hasattr(os, "sched_setaffinity") else None
    cpus = (args.cpus or {min(allowed)}) if allowed else None
    if cpus:
        os.sched_setaffinity(0, cpus)
    try:
        _main(args, argv, batches, rounds, seconds, cpus)
    finally:
        if allowed:
            os.sched_setaffinity(0, allowed)
    return 0


def _main(
    args: argparse.Namespace,
    argv: list[str] | None,
    batches: list[int],
    rounds: int,
    seconds: float,
    cpus: set[int] | None,
) -> None:

    def log(message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    table = run(batches, args.envs, rounds, seconds, args.loop_max, log, args.clock, args.game)
    print(f"python -m tictactoe_rs.bench {' '.join(argv if argv is not None else sys.argv[1:])}")
    print(f"{args.game}: {platform.processor() or platform.machine()}, CPUs {sorted(cpus) if cpus else 'all'}, "
          f"{rounds} rounds, trials of at least {seconds} s of {args.clock} time")
    print(report(table, batches))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({name: {str(n): r for n, r in rows.items()} for name, rows in table.items()}, f, indent=1)


if __name__ == "__main__":
    raise SystemExit(main())
