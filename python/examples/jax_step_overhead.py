"""The cost of stepping the native games from inside JAX: env-steps per second of the same
policy (the first legal action of each game) driven three ways, in one run:

- ``numpy``: a Python loop of ``BatchedEnv.step(mask.argmax(1))``;
- ``jax-scan``: ``jit(lax.scan(...))`` of :meth:`JaxEnv.step` over ``--length`` steps, the
  action computed by JAX from the state (one ordered ``io_callback`` per step);
- ``jax-call``: a jitted step called once per step from Python.

Each round times every (batch, path) pair by process CPU time; the table gives the median round.

Run: ``python python/examples/jax_step_overhead.py [--batches 1,64,1024,4096] [--rounds 5]``.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

import jax
import jax.numpy as jnp

from tictactoe_rs.envs.batched import BatchedEnv
from tictactoe_rs.envs.jax import JaxEnv


def numpy_path(batch: int, game: str | None) -> Callable[[int], None]:
    env = BatchedEnv(batch, seed=0, game=game)

    def run(steps: int) -> None:
        for _ in range(steps):
            env.step(env.legal_action_mask.argmax(axis=1))

    return run


def jax_paths(batch: int, game: str | None, length: int) -> dict[str, Callable[[int], None]]:
    env = JaxEnv(batch, seed=0, game=game)

    def body(state, _):
        return env.step(jnp.argmax(state.legal_action_mask, axis=1).astype(jnp.int32)), None

    scan = jax.jit(lambda s: jax.lax.scan(body, s, None, length=length)[0])
    one = jax.jit(lambda s: body(s, None)[0])
    state = {"s": env.reset()}
    jax.block_until_ready(scan(state["s"]))  # compile outside the timing
    jax.block_until_ready(one(state["s"]))

    def run_scan(steps: int) -> None:
        s = state["s"]
        for _ in range(max(1, steps // length)):
            s = scan(s)
        state["s"] = jax.block_until_ready(s)

    def run_call(steps: int) -> None:
        s = state["s"]
        for _ in range(steps):
            s = one(s)
        state["s"] = jax.block_until_ready(s)

    return {"jax-scan": run_scan, "jax-call": run_call}


def rate(run: Callable[[int], None], batch: int, steps: int) -> float:
    start = time.process_time()
    run(steps)
    return steps * batch / (time.process_time() - start)


def main(argv: list[str] | None = None) -> dict[int, dict[str, float]]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--batches", default="1,64,1024,4096")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--length", type=int, default=100, help="steps per scan")
    parser.add_argument("--game", default=None, help="a game of the family (default tic-tac-toe)")
    parser.add_argument("--games-per-trial", type=float, default=2e6)
    args = parser.parse_args(argv)
    batches = [int(b) for b in args.batches.split(",")]
    paths = {b: {"numpy": numpy_path(b, args.game), **jax_paths(b, args.game, args.length)} for b in batches}
    rates: dict[int, dict[str, list[float]]] = {b: {name: [] for name in paths[b]} for b in batches}
    for _ in range(args.rounds):
        for b in batches:
            steps = max(args.length, int(args.games_per_trial / b) // args.length * args.length)
            steps = min(steps, 20_000)
            for name, run in paths[b].items():
                rates[b][name].append(rate(run, b, steps))
    medians = {b: {name: statistics.median(r) for name, r in rates[b].items()} for b in batches}
    print(f"game {args.game or 'tic-tac-toe'}, median of {args.rounds} rounds, env-steps/s (CPU time)")
    print("| batch | numpy | jax-scan | jax-call | jax-scan/numpy | jax-call/numpy |")
    print("|---|---|---|---|---|---|")
    for b, m in medians.items():
        print(f"| {b} | {m['numpy']:.3g} | {m['jax-scan']:.3g} | {m['jax-call']:.3g} | "
              f"{m['jax-scan'] / m['numpy']:.2f} | {m['jax-call'] / m['numpy']:.2f} |")
    return medians


if __name__ == "__main__":
    main()
