"""Vectorised tic-tac-toe for numpy (the `tictactoe` Rust library)."""

from tictactoe_rs import _native

__all__ = ["_native"]
