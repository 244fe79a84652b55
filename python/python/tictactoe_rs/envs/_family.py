"""The ``game=`` argument of the environments: a game of the family, parsed by the library."""

from __future__ import annotations

from typing import Any

from tictactoe_rs.mnk import Rules


def rules(value: Any, name: str = "game") -> Rules:
    """``value`` as :class:`~tictactoe_rs.mnk.Rules`: a ``Rules``, a spec string such as
    ``"connect-four"``, ``"gomoku"``, ``"4,4,4"`` or ``"6,7,4,gravity"`` (the library's
    ``FromStr``), or ``None``, the default game: tic-tac-toe (as every env takes it); anything
    else is a ``TypeError``, a bad spec a ``ValueError``, both naming ``name``."""
    if value is None:
        return Rules.TIC_TAC_TOE
    if isinstance(value, Rules):
        return value
    if not isinstance(value, str):
        raise TypeError(f"argument `{name}` must be a Rules or a game spec str, got {type(value).__name__}")
    try:
        return Rules(value)
    except ValueError as error:
        message = str(error).removeprefix("argument `spec`: ")
        raise ValueError(f"argument `{name}`: {message}") from None
