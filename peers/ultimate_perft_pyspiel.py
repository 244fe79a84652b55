"""Perft of pyspiel's ``ultimate_tic_tac_toe``, counted in moves, not actions.

OpenSpiel splits a move into two actions when the mover may choose the board ("choose local
board b", then the cell); this counts each such pair as one move, so the figures compare with
``tictactoe::ultimate::Position::perft``. The test ``perft_matches_pyspiel`` in
``tictactoe/tests/ultimate.rs`` holds the figures this prints.

    .venv/bin/python peers/ultimate_perft_pyspiel.py 7
"""

import sys
import time

import pyspiel


def children(state):
    """The states after each legal move (one or two actions each)."""
    if state.is_terminal():
        return
    choose = state.legal_actions()
    if state.action_to_string(state.current_player(), choose[0]).startswith("Choose"):
        for board in choose:
            chosen = state.child(board)
            for cell in chosen.legal_actions():
                yield chosen.child(cell)
    else:
        for cell in choose:
            yield state.child(cell)


def count_moves(state):
    if state.is_terminal():
        return 0
    choose = state.legal_actions()
    if state.action_to_string(state.current_player(), choose[0]).startswith("Choose"):
        return sum(len(state.child(board).legal_actions()) for board in choose)
    return len(choose)


def perft(state, depth):
    if state.is_terminal():
        return int(depth == 0)
    if depth == 0:
        return 1
    if depth == 1:
        return count_moves(state)
    return sum(perft(child, depth - 1) for child in children(state))


def main():
    depth = int(sys.argv[1]) if len(sys.argv) > 1 else 7
    root = pyspiel.load_game("ultimate_tic_tac_toe").new_initial_state()
    for d in range(depth + 1):
        start = time.perf_counter()
        print(d, perft(root, d), f"({time.perf_counter() - start:.1f} s)", flush=True)


if __name__ == "__main__":
    main()
