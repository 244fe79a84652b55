"""A plain pure-Python reference of everything the core API computes, written from the rules
and the documented layouts (not from the Rust library), for the exhaustive tests.

Boards are tuples of 9 ints: 0 empty, 1 X, 2 O; cell ``i`` is row ``i // 3``, column ``i % 3``.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
GRIDS = 3**9

Board = tuple[int, ...]


def board_of_grid(grid: int) -> Board:
    return tuple(grid // 3**i % 3 for i in range(9))


ALL_BOARDS: list[Board] = [board_of_grid(g) for g in range(GRIDS)]


def has_line(board: Board, player: int) -> bool:
    return any(all(board[c] == player for c in line) for line in LINES)


def lines_of(board: Board, player: int) -> list[tuple[int, int, int]]:
    return [line for line in LINES if all(board[c] == player for c in line)]


def violations(board: Board) -> int:
    """Bits: 1 O started, 2 X went twice, 4 play continued after a win."""
    xs, os = board.count(1), board.count(2)
    bits = 0
    if os > xs:
        bits |= 1
    if xs > os + 1:
        bits |= 2
    x_line, o_line = has_line(board, 1), has_line(board, 2)
    continued = (x_line and o_line) or (x_line and xs != os + 1) or (o_line and xs != os)
    for player in (1, 2):
        lines = lines_of(board, player)
        if lines and not set.intersection(*(set(line) for line in lines)):
            continued = True
    if continued:
        bits |= 4
    return bits


def reachable() -> set[Board]:
    """Every board reached by legal play from the empty board (stopping at wins)."""
    seen = {(0,) * 9}
    frontier = [(0,) * 9]
    while frontier:
        nxt = []
        for board in frontier:
            if has_line(board, 1) or has_line(board, 2):
                continue
            player = 1 if board.count(0) % 2 == 1 else 2
            for c in range(9):
                if board[c] == 0:
                    child = board[:c] + (player,) + board[c + 1 :]
                    if child not in seen:
                        seen.add(child)
                        nxt.append(child)
        frontier = nxt
    return seen


POSITIONS = reachable()


def status(board: Board) -> int:
    """0 ongoing, 1 X won, 2 O won, 3 draw."""
    if has_line(board, 1):
        return 1
    if has_line(board, 2):
        return 2
    return 3 if 0 not in board else 0


def mover(board: Board) -> int:
    return 1 if (9 - board.count(0)) % 2 == 0 else 2


def play(board: Board, cell: int) -> Board:
    return board[:cell] + (mover(board),) + board[cell + 1 :]


def legal(board: Board) -> int:
    if status(board) != 0:
        return 0
    return sum(1 << c for c in range(9) if board[c] == 0)


@cache
def solve(board: Board) -> tuple[int, int, int]:
    """(value, distance, best-move mask): value 1 X wins, 2 O wins, 3 draw; the winner takes
    the fastest win, the loser the slowest loss."""
    s = status(board)
    if s != 0:
        return (s, 0, 0)
    me = mover(board)

    def score(value: int, dist: int) -> int:
        if value == 3:
            return 10
        return 20 - dist if value == me else dist

    results = {}
    for c in range(9):
        if board[c] == 0:
            value, dist, _ = solve(play(board, c))
            results[c] = (value, dist + 1, score(value, dist + 1))
    best = max(r[2] for r in results.values())
    cells = [c for c, r in results.items() if r[2] == best]
    value, dist, _ = results[cells[0]]
    return (value, dist, sum(1 << c for c in cells))


@cache
def games_below(board: Board) -> int:
    """Complete games continuing from this position."""
    if status(board) != 0:
        return 1
    return sum(games_below(play(board, c)) for c in range(9) if board[c] == 0)


def game_code(moves: list[int]) -> int:
    """Index of a complete game among all complete games, children in increasing cell order."""
    board: Board = (0,) * 9
    code = 0
    for m in moves:
        code += sum(games_below(play(board, c)) for c in range(m) if board[c] == 0)
        board = play(board, m)
    return code


@cache
def nodes_below(board: Board) -> int:
    """Game-tree nodes from this position down, itself included."""
    if status(board) != 0:
        return 1
    return 1 + sum(nodes_below(play(board, c)) for c in range(9) if board[c] == 0)


def prefix_code(moves: list[int]) -> int:
    """Index of a game (finished or not) in preorder, children in increasing cell order."""
    board: Board = (0,) * 9
    code = 0
    for m in moves:
        code += 1 + sum(nodes_below(play(board, c)) for c in range(m) if board[c] == 0)
        board = play(board, m)
    return code


# Encodings -------------------------------------------------------------------------------


def base3(board: Board) -> int:
    return sum(d * 3**i for i, d in enumerate(board))


def base4(board: Board) -> int:
    return sum(d << (2 * i) for i, d in enumerate(board))


def bitboards(board: Board) -> int:
    x = sum(1 << i for i in range(9) if board[i] == 1)
    o = sum(1 << i for i in range(9) if board[i] == 2)
    return x | o << 9


def lex_rank(subset: tuple[int, ...], m: int) -> int:
    return list(combinations(range(m), len(subset))).index(subset)


def mask_order_rank(subset: tuple[int, ...], m: int) -> int:
    """Rank among the same-size subsets of ``range(m)`` in increasing mask order."""
    masks = sorted(sum(1 << c for c in s) for s in combinations(range(m), len(subset)))
    return masks.index(sum(1 << c for c in subset))


def _count_rank_offsets() -> list[int]:
    from math import comb

    offsets = [0]
    for n in range(10):
        offsets.append(offsets[-1] + comb(9, n) * comb(n, n // 2))
    return offsets


COUNT_RANK_OFFSETS = _count_rank_offsets()


def count_rank(board: Board) -> int | None:
    from math import comb

    n = 9 - board.count(0)
    k = n // 2
    if board.count(2) != k:
        return None
    occupied = tuple(c for c in range(9) if board[c] != 0)
    o_among = tuple(i for i, c in enumerate(occupied) if board[c] == 2)
    return COUNT_RANK_OFFSETS[n] + lex_rank(occupied, 9) * comb(n, k) + lex_rank(o_among, n)


def _line_free_sets() -> dict[int, list[int]]:
    by_size: dict[int, list[int]] = {}
    for mask in range(512):
        cells = {c for c in range(9) if mask >> c & 1}
        if not any(set(line) <= cells for line in LINES):
            by_size.setdefault(len(cells), []).append(mask)
    return by_size


LINE_FREE = _line_free_sets()


def _rank_offsets() -> list[int]:
    counts = [0] * 10
    for board in POSITIONS:
        counts[9 - board.count(0)] += 1
    offsets = [0]
    for n in range(10):
        offsets.append(offsets[-1] + counts[n])
    return offsets


RANK_OFFSETS = _rank_offsets()


def rank(board: Board) -> int | None:
    from math import comb

    if board not in POSITIONS:
        return None
    n = 9 - board.count(0)
    waiting = mover(board)
    w, l = n // 2, n - n // 2
    w_mask = sum(1 << c for c in range(9) if board[c] == waiting)
    free = [c for c in range(9) if board[c] != waiting]
    l_among = tuple(i for i, c in enumerate(free) if board[c] == 3 - waiting)
    return (
        RANK_OFFSETS[n]
        + LINE_FREE[w].index(w_mask) * comb(9 - w, l)
        + mask_order_rank(l_among, 9 - w)
    )


# Symmetries: SYMMETRY_MAPS[s](r, c) is the image of cell (r, c), in the documented order.
SYMMETRY_MAPS = [
    lambda r, c: (r, c),
    lambda r, c: (c, 2 - r),
    lambda r, c: (2 - r, 2 - c),
    lambda r, c: (2 - c, r),
    lambda r, c: (r, 2 - c),
    lambda r, c: (2 - r, c),
    lambda r, c: (c, r),
    lambda r, c: (2 - c, 2 - r),
]
PERMUTATIONS = [
    [3 * f(i // 3, i % 3)[0] + f(i // 3, i % 3)[1] for i in range(9)] for f in SYMMETRY_MAPS
]


def apply(s: int, board: Board) -> Board:
    out = [0] * 9
    for i in range(9):
        out[PERMUTATIONS[s][i]] = board[i]
    return tuple(out)


def representative(board: Board) -> Board:
    return min((apply(s, board) for s in range(8)), key=bitboards)


def _classes() -> dict[Board, int]:
    reps = sorted({representative(b) for b in POSITIONS}, key=lambda b: rank(b) or 0)
    return {rep: i for i, rep in enumerate(reps)}


CLASSES = _classes()
REPRESENTATIVES = {i: rep for rep, i in CLASSES.items()}


def canonical(board: Board) -> int | None:
    if board not in POSITIONS:
        return None
    return CLASSES[representative(board)]


def symmetry_of(board: Board) -> int | None:
    if board not in POSITIONS:
        return None
    rep = representative(board)
    return next(s for s in range(8) if apply(s, rep) == board)


def oriented(board: Board) -> int | None:
    c, s = canonical(board), symmetry_of(board)
    return None if c is None or s is None else 8 * c + s


ENCODERS = {
    "base4": base4,
    "base3": base3,
    "bitboards": bitboards,
    "count-rank": count_rank,
    "rank": rank,
    "canonical": canonical,
    "oriented": oriented,
}
LIMITS = {
    "base4": 1 << 18,
    "base3": 3**9,
    "bitboards": 1 << 18,
    "count-rank": 6046,
    "rank": 5478,
    "canonical": 765,
    "oriented": 6120,
}


@cache
def decoder(encoding: str) -> dict[int, Board]:
    """code -> board for every code of the encoding (canonical: the representative)."""
    if encoding == "canonical":
        return dict(REPRESENTATIVES)
    table = {}
    for board in ALL_BOARDS:
        code = ENCODERS[encoding](board)
        if code is not None:
            table[code] = board
    return table
