"""Reinforcement-learning environments over the native kernel.

Each framework lives in its own submodule and imports that framework only when the submodule
is imported, so ``import tictactoe_rs`` needs numpy alone:

- :mod:`tictactoe_rs.envs.batched`: :class:`~tictactoe_rs.envs.batched.BatchedEnv`, ``N``
  games stepped together in place (pgx or PettingZoo conventions); numpy only.
- :mod:`tictactoe_rs.envs.pettingzoo`: AEC and parallel environments for every game of the
  family (``game=``), with the semantics of ``pettingzoo.classic.tictactoe_v3`` and
  ``connect_four_v3``.
- :mod:`tictactoe_rs.envs.gymnasium`: a single-agent ``Env`` and a ``VectorEnv`` against a
  built-in opponent, registered as ``tictactoe_rs/TicTacToe-v0``.
- :mod:`tictactoe_rs.envs.openspiel`: the observation tensors and action numbering of
  OpenSpiel's ``tic_tac_toe``, ``connect_four``, ``mnk`` and ``gomoku`` (``game=``); numpy only.
- :mod:`tictactoe_rs.envs.openspiel_game`: ``python_tictactoe_rs``, every game of the family as
  a ``pyspiel`` game on our engine.

Each of them also takes ``game="ultimate"``: ultimate tic-tac-toe, with ``actions="flat"`` (81
moves) or ``"openspiel"`` (OpenSpiel's two steps) and ``observation="planes"`` or
``"openspiel"`` (``tictactoe_rs.envs._ultimate``; the Gymnasium id ``tictactoe_rs/Ultimate-v0``).
"""
