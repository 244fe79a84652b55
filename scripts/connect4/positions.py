#!/usr/bin/env python3
"""Random Connect Four positions for the solver's tests and benchmark (issue 22).

Usage: scripts/connect4/positions.py MIN MAX COUNT SEED > FILE

Each position is a move sequence of column digits 1-7 (the convention of Pascal Pons' benchmark
sets), made by random play from the empty board. The number of stones is drawn uniformly from
MIN..=MAX; a sequence in which a move completes four in a row (the game is over) is rejected and
drawn again, as are duplicates. The output is deterministic for a given SEED.
"""

import random
import sys

WIDTH, HEIGHT = 7, 6


def wins(grid, col, row, player):
    for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
        run = 1
        for sign in (1, -1):
            c, r = col + sign * dc, row + sign * dr
            while 0 <= c < WIDTH and 0 <= r < HEIGHT and grid[c][r] == player:
                run += 1
                c, r = c + sign * dc, r + sign * dr
        if run >= 4:
            return True
    return False


def sample(rng, stones):
    grid = [[None] * HEIGHT for _ in range(WIDTH)]
    heights = [0] * WIDTH
    moves = []
    for ply in range(stones):
        col = rng.choice([c for c in range(WIDTH) if heights[c] < HEIGHT])
        row = heights[col]
        grid[col][row] = ply % 2
        heights[col] += 1
        moves.append(str(col + 1))
        if wins(grid, col, row, ply % 2):
            return None
    return "".join(moves)


def main():
    low, high, count, seed = (int(a) for a in sys.argv[1:5])
    rng = random.Random(seed)
    seen = set()
    while len(seen) < count:
        seq = sample(rng, rng.randint(low, high))
        if seq is not None and seq not in seen:
            seen.add(seq)
            print(seq)


if __name__ == "__main__":
    main()
