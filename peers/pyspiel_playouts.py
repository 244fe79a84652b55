"""Random playouts through OpenSpiel's pyspiel: the cross-language peer of the family's
playout rows in `peers/` (`cargo run --release --manifest-path peers/Cargo.toml -- gomoku c4`,
and the per-move groups `gomoku-moves c4-moves ttt-moves`: this loop is their shape). `mnk_4x4` is
OpenSpiel's m,n,k-game at m = n = k = 4, the 4 × 4 preset's rules.

Each game starts from the empty board and plays uniformly random legal moves to the end:
`state.legal_actions()`, a `random.Random` pick, `state.apply_action`, `state.is_terminal()`,
the loop a Python user of pyspiel writes. Rounds alternate between the games; the median round
is reported with the range, in moves per second and ns per move, on this process's CPU time.

    python3 -m venv .venv && .venv/bin/pip install open-spiel==2.0.2 numpy
    .venv/bin/python peers/pyspiel_playouts.py [--rounds 7] [--games 40]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import pyspiel

GAMES = {
    "gomoku": "gomoku",
    "connect_four": "connect_four",
    "tic_tac_toe": "tic_tac_toe",
    "mnk_4x4": "mnk(m=4,n=4,k=4)",
}


def playouts(game: pyspiel.Game, games: int, rng: random.Random) -> tuple[int, float]:
    """Plays `games` random games; returns the moves played and the CPU seconds taken."""
    moves = 0
    start = time.process_time()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            moves += 1
    return moves, time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--games", type=int, default=40, help="games per round (gomoku)")
    args = parser.parse_args()
    loaded = {name: pyspiel.load_game(spec) for name, spec in GAMES.items()}
    # Connect Four and tic-tac-toe games are shorter: more of them per round.
    per_round = {
        "gomoku": args.games,
        "connect_four": 10 * args.games,
        "tic_tac_toe": 25 * args.games,
        "mnk_4x4": 15 * args.games,
    }
    rng = random.Random(2021)
    rates: dict[str, list[float]] = {name: [] for name in loaded}
    lengths: dict[str, float] = {}
    for _ in range(args.rounds):
        for name, game in loaded.items():
            moves, seconds = playouts(game, per_round[name], rng)
            rates[name].append(moves / seconds)
            lengths[name] = moves / per_round[name]
    print(f"pyspiel {pyspiel.__version__ if hasattr(pyspiel, '__version__') else ''} random playouts,"
          f" {args.rounds} rounds, process CPU time")
    print("| game | moves per game | M moves/s (median) | range | ns per move | ns per game |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, r in rates.items():
        med = statistics.median(r)
        print(
            f"| {name} | {lengths[name]:.1f} | {med / 1e6:.4f} | {min(r) / 1e6:.4f}-{max(r) / 1e6:.4f}"
            f" | {1e9 / med:.0f} | {1e9 / med * lengths[name]:.0f} |"
        )


if __name__ == "__main__":
    main()
