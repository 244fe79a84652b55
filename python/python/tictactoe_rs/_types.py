"""The string choices of the package as ``Literal`` types (for annotations; the native module
checks every value at run time and lists the valid ones when it is not)."""

from __future__ import annotations

from typing import Literal, TypeAlias

#: The encodings of boards (``tictactoe_rs.ENCODINGS``).
Encoding: TypeAlias = Literal["base4", "base3", "bitboards", "count-rank", "rank", "canonical", "oriented"]
#: What the functions on items read: boards, or codes of an encoding.
Items: TypeAlias = Literal["boards", "base4", "base3", "bitboards", "count-rank", "rank", "canonical", "oriented"]
#: The encodings of games.
GameEncoding: TypeAlias = Literal["game", "prefix"]
#: Observation plane layouts.
Layout: TypeAlias = Literal["pettingzoo", "pgx", "openspiel"]
#: The packings of ``.ttt`` files.
Packing: TypeAlias = Literal["base4", "base3", "count-rank", "rank", "mixed-radix"]
#: The conventions of the environment kernel.
Convention: TypeAlias = Literal["pgx", "pettingzoo", "gym"]
#: Auto-reset modes: this package's spelling and Gymnasium's ``AutoresetMode`` values.
Autoreset: TypeAlias = Literal["next_step", "same_step", "disabled", "NextStep", "SameStep", "Disabled"]
#: Who plays X in the kernel: player id 0 or 1, or a draw per game.
Seat: TypeAlias = Literal[0, 1, "random"]
