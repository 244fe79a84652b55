"""Tabular Q-learning on the exact rank index, against the heuristic opponent.

The code of ``docs/tutorial-q-learning.md``: every block of the tutorial is a piece of this file
(a test checks it), and ``python python/examples/q_learning.py`` draws the tutorial's picture.

Run: ``python python/examples/q_learning.py [--steps N] [--out docs/tutorial-q-learning.png]``.
"""

from __future__ import annotations

import argparse

# --- imports ---
import numpy as np

import tictactoe_rs as t
from tictactoe_rs.envs.gymnasium import TicTacToeVectorEnv

# --- end imports ---

# --- states ---
def state_index(obs: np.ndarray) -> np.ndarray:
    """The rank (0 to 5,477) of the position behind each observation.

    The planes are the agent's marks and the opponent's; ``planes_to_boards`` tells X from O by
    the counts (the agent is to move), and ``encode(..., "rank")`` numbers the 5,478 positions.
    """
    return t.encode(t.planes_to_boards(obs), "rank")
# --- end states ---


# --- policy ---
def greedy(q: np.ndarray, states: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """The legal action of highest value in each state (ties to the lowest cell)."""
    return np.where(masks, q[states], -np.inf).argmax(axis=1)


def random_legal(rng: np.random.Generator, masks: np.ndarray) -> np.ndarray:
    """A uniformly random legal action per row."""
    return (rng.random(masks.shape) * masks).argmax(axis=1)
# --- end policy ---


# --- evaluate ---
def evaluate(q: np.ndarray, games: int = 2000, opponent: str = "heuristic", seed: int = 1) -> np.ndarray:
    """Win, draw and loss shares of the greedy policy over ``games`` games (random seats)."""
    # Next-step auto-reset: a game's first result counts, the games after it are ignored (a
    # DISABLED vector env refuses a step while a game is over, as SyncVectorEnv does).
    env = TicTacToeVectorEnv(games, opponent=opponent, agent="random",
                             autoreset_mode="NextStep")
    obs, _ = env.reset(seed=seed)
    results = np.zeros(games)
    finished = np.zeros(games, dtype=bool)
    while not finished.all():
        actions = greedy(q, state_index(obs), env.action_masks())
        obs, rewards, terminated, _, _ = env.step(actions)
        new = terminated & ~finished
        results[new] = rewards[new]
        finished |= terminated
    return np.array([(results > 0).mean(), (results == 0).mean(), (results < 0).mean()])
# --- end evaluate ---


# --- train ---
def train(steps: int = 400, envs: int = 8, alpha: float = 0.2, epsilon: float = 0.2,
          eval_every: int = 4, eval_games: int = 2000, seed: int = 0):
    """Q-learning with ``envs`` games in parallel against the heuristic opponent.

    Returns the table, the visit count of each state, and the learning curve: one row per
    evaluation with the batched step, then win, draw and loss shares of the greedy policy
    against the heuristic opponent and against the random one.
    """
    rng = np.random.default_rng(seed)
    q = np.zeros((5478, 9))
    visits = np.zeros(5478, dtype=np.int64)
    env = TicTacToeVectorEnv(envs, opponent="heuristic", agent="random",
                             autoreset_mode="SameStep")
    obs, _ = env.reset(seed=seed)
    states = state_index(obs)

    def point(step: int) -> tuple:
        return (step, *evaluate(q, eval_games), *evaluate(q, eval_games, "random"))

    curve = [point(0)]
    for step in range(1, steps + 1):
        masks = env.action_masks()
        explore = rng.random(envs) < epsilon
        actions = np.where(explore, random_legal(rng, masks), greedy(q, states, masks))
        obs, rewards, terminated, _, _ = env.step(actions)
        # Same-step auto-reset: where a game ended, obs is already the next game's, and the
        # target is the reward alone.
        following = state_index(obs)
        best_next = np.where(env.action_masks(), q[following], -np.inf).max(axis=1)
        target = rewards + np.where(terminated, 0.0, best_next)
        q[states, actions] += alpha * (target - q[states, actions])
        np.add.at(visits, states, 1)
        states = following
        if step % eval_every == 0:
            curve.append(point(step))
    return q, visits, np.array(curve)
# --- end train ---


# --- plot ---
def plot(curve: np.ndarray, path: str, envs: int) -> None:
    """Win, draw and loss shares of the greedy policy against training moves, one panel per
    opponent it is evaluated against."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(9, 3.6), dpi=100, sharey=True)
    moves = np.maximum(curve[:, 0] * envs, 1)
    for ax, first, title in ((axes[0], 1, "against the heuristic (trained on)"),
                             (axes[1], 4, "against the random opponent")):
        for k, (label, colour) in enumerate((("win", "tab:green"), ("draw", "tab:blue"),
                                            ("loss", "tab:red"))):
            ax.plot(moves, curve[:, first + k], label=label, color=colour)
        ax.set_xscale("log")
        ax.set_xlabel("agent moves played in training")
        ax.set_title(title, fontsize=10)
        ax.set_ylim(-0.02, 1.02)
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("share of 2,000 greedy games")
    axes[0].legend()
    fig.suptitle("Tabular Q-learning on the 5,478 ranks", fontsize=11)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
# --- end plot ---


# --- masked ---
def masked_policy_games(q: np.ndarray, games: int = 4096, steps: int = 40,
                        epsilon: float = 0.1, seed: int = 2) -> dict[str, float]:
    """An epsilon-soft masked policy from the Q-table, run on the vector env with next-step
    auto-reset (the default). Probability ``1 - epsilon`` goes to the greedy legal cell and
    ``epsilon`` is spread over the legal cells only: illegal cells get probability 0. An ended
    game's mask is all ones, so its (ignored) action is always well defined."""
    rng = np.random.default_rng(seed)
    env = TicTacToeVectorEnv(games, opponent="heuristic", agent="random")
    obs, _ = env.reset(seed=seed)
    wins = draws = losses = illegal = 0
    for _ in range(steps):
        masks = env.action_masks()
        probs = epsilon * masks / masks.sum(axis=1, keepdims=True)
        probs[np.arange(games), greedy(q, state_index(obs), masks)] += 1 - epsilon
        actions = (probs.cumsum(axis=1) > rng.random((games, 1))).argmax(axis=1)
        illegal += int((~masks[np.arange(games), actions]).sum())
        obs, rewards, terminated, _, _ = env.step(actions)
        wins += int((rewards > 0).sum())
        draws += int((terminated & (rewards == 0)).sum())
        losses += int((rewards < 0).sum())
    total = wins + draws + losses
    return {"games": total, "win": wins / total, "draw": draws / total,
            "loss": losses / total, "illegal": illegal}
# --- end masked ---


def main(argv: list[str] | None = None) -> dict[str, float]:
    """Train, draw the curve, print and return the final figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=400)
    parser.add_argument("--envs", type=int, default=8)
    parser.add_argument("--eval-every", type=int, default=4)
    parser.add_argument("--eval-games", type=int, default=2000)
    parser.add_argument("--out", default="docs/tutorial-q-learning.png")
    args = parser.parse_args(argv)
    q, visits, curve = train(args.steps, args.envs, eval_every=args.eval_every,
                             eval_games=args.eval_games)
    plot(curve, args.out, args.envs)
    heuristic, random = curve[-1, 1:4], curve[-1, 4:7]
    # --- solver ---
    boards = t.decode(np.arange(5478), "rank")
    seen = (visits > 0) & (t.status(boards) == t.ONGOING)
    best = t.best_moves(boards[seen])  # a 9-bit set of best cells per position
    choice = greedy(q, np.flatnonzero(seen), t.masks_to_cells(t.legal_moves(boards[seen])))
    agrees = float(((best >> choice.astype(np.uint16)) & 1).mean())
    # --- end solver ---
    masked = masked_policy_games(q)
    figures = {"win_heuristic": heuristic[0], "draw_heuristic": heuristic[1],
               "loss_heuristic": heuristic[2], "win_random": random[0],
               "draw_random": random[1], "loss_random": random[2], "visited": int(seen.sum()),
               "agrees_with_solver": agrees, **{f"masked_{k}": v for k, v in masked.items()}}
    for name, value in figures.items():
        print(f"{name}: {value:.3f}" if isinstance(value, float) else f"{name}: {value}")
    return figures


if __name__ == "__main__":
    main()
