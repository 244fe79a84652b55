"""Our ultimate tic-tac-toe MCTS against OpenSpiel's own MCTSBot, at equal wall time per move.

Ours: ``tictactoe/examples/ultimate_engine.rs`` (UCT with random playouts on the engine's fast
path, one thread, exploration 0.5 on results in 0..1), a subprocess that answers each position
with the move it finds in SECONDS of wall time.

Theirs: ``open_spiel.python.algorithms.mcts.MCTSBot`` on pyspiel's ``ultimate_tic_tac_toe`` with
``RandomRolloutEvaluator(n_rollouts=ROLLOUTS)``, ``uct_c=UCT_C``, its defaults otherwise
(``solve=True``). MCTSBot has a simulation budget, not a clock, so its budget follows its own
measured speed: before each of its searches, ``max_simulations`` is set to the simulations its
last search ran per second times the time allowed, which is the mean wall time ours has taken
per move so far, pipe and process switch included (a move that takes two OpenSpiel actions, a
board choice and then a cell, gets half of it per action). The measured wall time per move of
both sides is printed, so the equality can be checked.

Colours alternate: ours is X in even games and O in odd ones. A move of ours is flat
``9 * board + cell``; OpenSpiel takes it as two actions (board, then cell) when the mover may
choose the board, else as the cell alone (docs/ultimate.md, python/tests/test_ultimate.py). The
score is wins plus half the draws over the games, with its Wilson 95% interval.

    cargo build --release -p tictactoe-kit --example ultimate_engine
    .venv/bin/python peers/ultimate_mcts_pyspiel.py --games 40 --seconds 0.1
"""

from __future__ import annotations

import argparse
import math
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

ROOT = Path(__file__).resolve().parent.parent
ENGINE = ROOT / "target" / "release" / "examples" / "ultimate_engine"


def choosing(state) -> bool:
    """Whether pyspiel's next action chooses a board."""
    actions = state.legal_actions()
    return state.action_to_string(state.current_player(), actions[0]).startswith(
        "Choose"
    )


def forced_board(state) -> int:
    """The board the mover must play in (from the observation's one-hot, index 9 = free)."""
    return int(np.argmax(np.asarray(state.observation_tensor(0))[244:254]))


def wilson(score: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson interval of a proportion ``score`` over ``n`` trials."""
    if n == 0:
        return (0.0, 1.0)
    centre = (score + z * z / (2 * n)) / (1 + z * z / n)
    half = (
        z * math.sqrt(score * (1 - score) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    )
    return (max(0.0, centre - half), min(1.0, centre + half))


class Theirs:
    """MCTSBot with a simulation budget that follows its measured speed."""

    def __init__(self, game, rollouts: int, uct_c: float, seed: int) -> None:
        rng = np.random.RandomState(seed)
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=rollouts, random_state=rng)
        self.bot = mcts.MCTSBot(
            game,
            uct_c=uct_c,
            max_simulations=100,
            evaluator=evaluator,
            random_state=rng,
        )
        # Simulations a second: a guess until the first search is timed, then the last
        # search's rate (rollouts shorten as the game goes on, so the latest is the best guess).
        self.rate = 1000.0
        self.simulations = 0
        self.time = 0.0

    def step(self, state, allowed: float) -> int:
        self.bot.max_simulations = max(1, int(self.rate * allowed))
        start = time.perf_counter()
        action = self.bot.step(state)
        took = time.perf_counter() - start
        self.rate = self.bot.max_simulations / max(took, 1e-6)
        self.time += took
        self.simulations += self.bot.max_simulations
        return action


def play(
    game,
    engine,
    seconds: float,
    rollouts: int,
    uct_c: float,
    ours_first: bool,
    seed: int,
    clocks: dict,
) -> float:
    """One game; returns ours's result, 1 a win, 0.5 a draw, 0 a loss."""
    theirs = Theirs(game, rollouts, uct_c, seed)
    state = game.new_initial_state()
    moves: list[int] = []
    ours_player = 0 if ours_first else 1
    while not state.is_terminal():
        start = time.perf_counter()
        if state.current_player() == ours_player:
            engine.stdin.write(" ".join(map(str, moves)) + "\n")
            engine.stdin.flush()
            answer = engine.stdout.readline().split()
            if not answer or answer[0] == "error:":
                raise RuntimeError(f"engine: {' '.join(answer)} after {moves}")
            flat, playouts = int(answer[0]), int(answer[1])
            board, cell = divmod(flat, 9)
            if choosing(state):
                state.apply_action(board)
            elif forced_board(state) != board:
                raise RuntimeError(
                    f"engine played {flat} outside board {forced_board(state)}"
                )
            state.apply_action(cell)
            clocks["ours"].append(time.perf_counter() - start)
            clocks["playouts"].append(playouts)
        else:
            before = theirs.simulations
            # The wall time ours has taken per move so far (SECONDS before its first move).
            allowed = float(np.mean(clocks["ours"])) if clocks["ours"] else seconds
            if choosing(state):
                board = theirs.step(state, allowed / 2)
                state.apply_action(board)
                cell = theirs.step(state, allowed / 2)
            else:
                board = forced_board(state)
                cell = theirs.step(state, allowed)
            state.apply_action(cell)
            flat = 9 * board + cell
            clocks["theirs"].append(time.perf_counter() - start)
            clocks["simulations"].append(theirs.simulations - before)
        moves.append(flat)
    returns = state.returns()
    mine = returns[ours_player]
    return 1.0 if mine > 0 else 0.5 if mine == 0 else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seconds", type=float, default=0.1, help="wall time per move")
    parser.add_argument(
        "--rollouts", type=int, default=1, help="RandomRolloutEvaluator rollouts"
    )
    parser.add_argument("--uct-c", type=float, default=2.0, help="MCTSBot's uct_c")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if not ENGINE.exists():
        sys.exit(
            f"build the engine first: cargo build --release -p tictactoe-kit "
            f"--example ultimate_engine ({ENGINE} is missing)"
        )
    game = pyspiel.load_game("ultimate_tic_tac_toe")
    engine = subprocess.Popen(
        [str(ENGINE), str(args.seconds), str(args.seed)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    clocks: dict = {"ours": [], "theirs": [], "playouts": [], "simulations": []}
    wins = draws = losses = 0
    for n in range(args.games):
        result = play(
            game,
            engine,
            args.seconds,
            args.rollouts,
            args.uct_c,
            n % 2 == 0,
            args.seed + n,
            clocks,
        )
        wins += result == 1.0
        draws += result == 0.5
        losses += result == 0.0
        print(
            f"game {n + 1}: ours as {'X' if n % 2 == 0 else 'O'}: "
            f"{['loss', 'draw', 'win'][int(result * 2)]}",
            file=sys.stderr,
            flush=True,
        )
    engine.stdin.close()
    engine.wait()
    games = wins + draws + losses
    score = (wins + draws / 2) / games
    low, high = wilson(score, games)
    print(
        f"{games} games, {args.seconds} s a move, MCTSBot uct_c={args.uct_c}, "
        f"RandomRolloutEvaluator n_rollouts={args.rollouts}, solve=True; colours alternated"
    )
    print(
        f"ours: {wins} wins, {draws} draws, {losses} losses; score {score:.3f}, "
        f"95% interval {low:.3f} to {high:.3f}"
    )
    print(
        f"wall time per move, median: ours {np.median(clocks['ours']) * 1e3:.1f} ms, "
        f"MCTSBot {np.median(clocks['theirs']) * 1e3:.1f} ms"
    )
    print(
        f"search size per move, median: ours {np.median(clocks['playouts']):,.0f} playouts, "
        f"MCTSBot {np.median(clocks['simulations']):,.0f} simulations"
    )


if __name__ == "__main__":
    main()
