"""Dataset cards: a markdown file beside each output of the table writers, saying what every
column means, the class labels, the licence and how the data was made (command, versions)."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from tictactoe_rs.data._atomic import _Atomic

#: What the command line was, set by ``python -m tictactoe_rs.data`` (else the Python call).
COMMAND: list[str | None] = [None]

#: Class labels of the small integer columns, shared by every table that has them.
LABELS = {
    "status": "0 ongoing, 1 X won, 2 O won, 3 draw",
    "value": "perfect-play result: 1 X wins, 2 O wins, 3 draw",
    "result": "1 X won, 2 O won, 3 draw",
    "to_move": "1 X, 2 O, 0 when the game is over",
    "winner": "0 nobody (yet), 1 X, 2 O",
    "violations": "bit flags: 1 o-started, 2 x-went-twice, 4 continued-after-win (0 exactly for positions)",
}

_LINES = "bit k set when line k is complete (rows, columns, diagonals 0-4-8, 2-4-6)"
_BOARD = "nine characters X, O or '.', cells 0 to 8 (row by row)"

#: The meaning of every column, by table.
COLUMNS: dict[str, dict[str, str]] = {
    "positions": {
        "rank": "rank code (0 .. 5,477): the key, one row per reachable position",
        "base3": "base-3 code of the board (cell i is digit i: 0 empty, 1 X, 2 O)",
        "base4": "base-4 code (two bits per cell)",
        "bitboards": "x | o << 9: the two 9-bit sets of marks",
        "count_rank": "count-rank code (rank among the boards of the same piece counts)",
        "canonical": "symmetry class, 0 .. 764",
        "oriented": "8 * canonical + symmetry",
        "board": _BOARD,
        "marks": "marks on the board (the ply)",
        "status": LABELS["status"],
        "to_move": LABELS["to_move"],
        "winner": LABELS["winner"],
        "lines": _LINES,
        "legal_moves": "bit i set when cell i is a legal move",
        "value": LABELS["value"],
        "distance": "moves to the end under perfect play",
        "best_moves": "bit i set when the move to cell i keeps value and distance",
        "symmetry": "the symmetry s (0 .. 7) with board = s(representative of canonical)",
    },
    "grids": {
        "base3": "base-3 code: the key, one row per grid (19,683)",
        "base4": "base-4 code",
        "bitboards": "x | o << 9",
        "count_rank": "count-rank code; null when the piece counts are impossible",
        "rank": "rank code; null when the grid is not a reachable position",
        "board": _BOARD,
        "is_position": "the grid is a reachable position",
        "violations": LABELS["violations"],
        "marks_x": "marks of X",
        "marks_o": "marks of O",
        "lines": _LINES,
        "status": LABELS["status"] + "; null for grids that are not positions",
    },
    "games": {
        "game": "game code (0 .. 255,167): the key, one row per complete game",
        "moves": "the cells played, in order",
        "length": "moves in the game, 5 .. 9",
        "result": LABELS["result"],
        "final_rank": "rank code of the final position",
    },
    "game_facts": {
        "game": "game code (0 .. 255,167): the key, one row per complete game",
        "length": "moves in the game, 5 .. 9",
        "result": LABELS["result"],
        "blunders": "moves of the game that change the perfect-play value",
        "first_blunder": "the ply the first such move was played from; null when none",
    },
    "transitions": {
        "rank": "rank code of an ongoing position",
        "cell": "the cell the player to move marks (0 .. 8)",
        "next_rank": "rank code of the position after the move",
    },
    "states": {
        "game": "game number within the run (part k holds games k * games_per_file ..)",
        "ply": "0 (the empty board) .. the game's length (its final position)",
        "rank": "rank code of the position after `ply` moves (join positions on rank)",
    },
    "game_codes": {
        "game": "game number within the run",
        "code": "game code: the whole game (join games on game = code)",
    },
    "codes": {
        "code": "game code: the whole game; game number = tictactoe.first_game + row",
    },
    "records": {
        "record": "the record's place in the source .ttt file (0-based): gaps are lost records",
        "rank": "rank code of the record's board",
        "base3": "base-3 code of the record's board",
        "base4": "base-4 code of the record's board",
        "count_rank": "count-rank code of the record's board",
        "oriented": "oriented code of the record's board",
        "bitboards": "bitboards code of the record's board",
        "canonical": "symmetry class of the record's board (the orientation is lost)",
    },
}

#: What each table is, in a sentence.
ABOUT = {
    "positions": "Every reachable tic-tac-toe position (5,478), with all its codes, its analysis "
    "and its perfect-play solution.",
    "grids": "Every 3x3 grid of X, O and empty (19,683), reachable or not, with what it breaks.",
    "games": "Every complete game of tic-tac-toe (255,168) by game code.",
    "game_facts": "Every complete game (255,168) with what a per-state recipe would find in its "
    "states: join code-only files on game = code.",
    "transitions": "Every move of the game (16,167 edges of the game graph): what a game's "
    "consecutive states must be.",
    "states": "Random self-play games (uniformly random legal moves), one row per state.",
    "game_codes": "Random self-play games (uniformly random legal moves), one row per game.",
    "codes": "Random self-play games (uniformly random legal moves), one game code per game: "
    "the whole game in 18 bits (join games on game = code).",
    "records": "The records of a .ttt file, one row per record, in file order.",
}

LICENCE = (
    "MIT, as the tictactoe project (its LICENSE file). The data is computed by the library; "
    "no third-party data is included."
)


def _command(default: str) -> str:
    return " ".join(str(a) for a in COMMAND if a is not None) if COMMAND[0] else default


def card_path(output: Path) -> Path:
    """Where the card of ``output`` goes: ``_dataset_card.md`` inside a directory, else
    ``_NAME.card.md`` beside the file. The leading underscore makes Spark, pyarrow datasets and
    Hadoop-style readers skip it when they read the directory."""
    if output.is_dir():
        return output / "_dataset_card.md"
    return output.with_name(f"_{output.name}.card.md")


def _type_name(field: Any) -> str:
    return str(field.type) + ("" if field.nullable else ", not null")


def render(
    tables: Iterable[tuple[str, Any, str]], command: str, notes: Iterable[str] = ()
) -> str:
    """The card text: ``tables`` of ``(file, schema, table name)``, made by ``command``."""
    import pyarrow

    import tictactoe_rs
    from tictactoe_rs.data._tables import SCHEMA_VERSION

    tables = list(tables)
    names = sorted({table for _, _, table in tables})
    out = [f"# tictactoe data: {', '.join(names)}", ""]
    for file, schema, table in tables:
        about = ABOUT.get(table, "")
        out += [f"## `{file}`: table `{table}`", "", about, ""]
        out += ["| column | type | meaning |", "|---|---|---|"]
        meanings = COLUMNS.get(table, {})
        meta = schema.metadata or {}
        for field in schema:
            enc = (field.metadata or {}).get(b"tictactoe.encoding")
            meaning = meanings.get(field.name, "")
            if enc is not None and f"`{enc.decode()}`" not in meaning:
                meaning += f" (encoding `{enc.decode()}`)"
            out.append(f"| `{field.name}` | {_type_name(field)} | {meaning} |")
        salvage = meta.get(b"tictactoe.salvage")
        if salvage:
            out += ["", "**Damaged source: records are missing.** Salvage reported:", ""]
            out += [f"    {line}" for line in salvage.decode().splitlines()]
        out.append("")
    used = [c for c in LABELS if any(c in s.names for _, s, _ in tables)]
    if used:
        out += ["## Class labels", ""]
        out += [f"- `{c}`: {LABELS[c]}" for c in used]
        out.append("")
    out += [
        "## How it was made",
        "",
        f"- Command: `{command}`",
        f"- tictactoe_rs {tictactoe_rs.__version__} (the tictactoe library's functions through its "
        f"native module), pyarrow {pyarrow.__version__}, Python {sys.version.split()[0]}",
        f"- Schema version {SCHEMA_VERSION} (key `tictactoe.schema_version`; docs/data.md of the "
        "tictactoe project describes every table)",
        "- Parquet with a CRC on every page (verify with `python -m tictactoe_rs.data verify FILE`)",
        *[f"- {note}" for note in notes],
        "",
        "## Licence",
        "",
        LICENCE,
        "",
    ]
    return "\n".join(out)


def write_card(
    output: Path, tables: Iterable[tuple[str, Any, str]], default_command: str,
    notes: Iterable[str] = (),
) -> Path:
    """Writes the card of ``output`` atomically (``card_path``); returns its path."""

    path = card_path(output)
    atomic = _Atomic(path)
    try:
        atomic.tmp.write_text(render(tables, _command(default_command), notes))
        atomic.commit()
    except BaseException:
        atomic.discard()
        raise
    return path


def call(name: str, *args: Any, **kwargs: Any) -> str:
    """The text of a Python call, for a card's "Command"."""
    parts = [repr(os.fspath(a)) if isinstance(a, os.PathLike) else repr(a) for a in args]
    parts += [f"{k}={v!r}" for k, v in kwargs.items()]
    return f"tictactoe_rs.data.{name}({', '.join(parts)})"
