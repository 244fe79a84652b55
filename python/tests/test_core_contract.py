"""The contract of the core API beyond its values: errors that name the argument, `out=`
written in place, input read without a copy, the GIL released, docstring examples that run,
and an import that pulls in nothing but numpy."""

from __future__ import annotations

import doctest
import re
import subprocess
import sys
import threading
import time
import tracemalloc
from pathlib import Path

import numpy as np
import pytest

import tictactoe_rs as t
from tictactoe_rs import _native

BOARD = np.zeros((4, 9), np.int8)
CODES = np.arange(4)


# Errors ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "error", "words"),
    [
        (lambda: t.decode(np.zeros(3, np.float64), "rank"), TypeError, ["codes", "integer", "float64"]),
        (lambda: t.status(np.zeros(3, np.float32), "rank"), TypeError, ["`x`", "integer"]),
        (lambda: t.encode(np.zeros((4, 9), np.float64), "rank"), TypeError, ["boards", "int8", "float64"]),
        (lambda: t.status(np.zeros((4, 9), bool)), TypeError, ["`x`", "int8", "bool"]),
        (lambda: t.status([[1.0] * 9]), TypeError, ["`x`", "int8", "float64"]),
        (lambda: t.encode(np.zeros((4, 8), np.int8), "rank"), ValueError, ["boards", "(..., 9)"]),
        (lambda: t.encode(np.zeros(9, np.int8)[:0], "rank"), ValueError, ["boards"]),
        (lambda: t.encode(BOARD, "ranks"), ValueError, ["encoding", '"rank"', '"base4"', '"oriented"']),
        (lambda: t.decode(CODES, "nope"), ValueError, ["encoding", '"count-rank"']),
        (lambda: t.convert(CODES, "rank", "x"), ValueError, ["to_encoding", '"canonical"']),
        (lambda: t.convert(CODES, "x", "rank"), ValueError, ["from_encoding"]),
        (lambda: t.status(CODES, "pieces"), ValueError, ["encoding", '"boards"', '"rank"']),
        (lambda: t.apply_symmetry(BOARD, 8), ValueError, ["symmetry", "0 to 7", "8"]),
        (lambda: t.apply_symmetry(BOARD, -1), ValueError, ["symmetry", "negative"]),
        (lambda: t.apply_symmetry(BOARD, np.zeros(3, int)), ValueError, ["symmetry", "shape"]),
        (lambda: t.apply_symmetry(BOARD, 1.5), TypeError, ["symmetry"]),
        (lambda: t.apply_symmetry(BOARD, True), TypeError, ["symmetry", "bool"]),
        (lambda: t.apply_symmetry(BOARD, np.True_), TypeError, ["symmetry", "bool"]),
        (lambda: t.apply_symmetry_to_masks(np.zeros(4, np.int32), 1), TypeError, ["masks", "uint16"]),
        (lambda: t.apply_symmetry_to_planes(np.zeros((4, 3, 3, 2), np.int16), 1), TypeError, ["planes"]),
        (lambda: t.apply_symmetry_to_planes(np.zeros((4, 3, 2, 2), np.int8), 1), ValueError, ["planes", "(..., 3, 3, C)"]),
        (lambda: t.boards_to_planes(BOARD, "gym"), ValueError, ["layout", '"pgx"']),
        (lambda: t.boards_to_planes(BOARD, perspective=3), ValueError, ["perspective", "1 (X) or 2 (O)"]),
        (lambda: t.boards_to_planes(BOARD + 3), ValueError, ["boards", "0 (empty)"]),
        (lambda: t.planes_to_boards(np.zeros((4, 3, 3, 2), bool)), TypeError, ["planes", "int8"]),
        (lambda: t.planes_to_boards(np.zeros((4, 3, 3, 2), np.int8), "openspiel"), TypeError, ["planes", "float32"]),
        (lambda: t.masks_to_cells(np.array([0xFFFF], np.uint16)), ValueError, ["masks", "0xffff"]),
        (lambda: t.cells_to_masks(np.zeros((2, 9), np.int8)), TypeError, ["cells", "bool"]),
        (lambda: t.selfplay(-1), ValueError, ["`n`"]),
    ],
)
def test_bad_input_raises_naming_the_argument(call, error, words) -> None:
    with pytest.raises(error) as info:
        call()
    for word in words:
        assert word in str(info.value), (word, str(info.value))


@pytest.mark.parametrize(
    ("out", "error", "words"),
    [
        (np.zeros(4, np.int64), TypeError, ["out", "int8"]),
        (np.zeros(5, np.int8), ValueError, ["out", "shape", "[4]"]),
        (np.zeros((4, 1), np.int8), ValueError, ["out", "shape"]),
        (np.zeros(8, np.int8)[::2], ValueError, ["out", "C-contiguous"]),
        ([0, 0, 0, 0], TypeError, ["out"]),
    ],
)
def test_bad_out_raises(out, error, words) -> None:
    with pytest.raises(error) as info:
        t.status(CODES, "rank", out=out)
    for word in words:
        assert word in str(info.value)


def test_read_only_out_and_out_that_is_the_input_raise() -> None:
    out = np.zeros(4, np.int8)
    out.flags.writeable = False
    with pytest.raises(ValueError, match="out"):
        t.status(CODES, "rank", out=out)
    boards = np.zeros((4, 9), np.int8)
    with pytest.raises(ValueError, match="out"):
        t.apply_symmetry(boards, 1, out=boards)


# No copies, out= in place -----------------------------------------------------------------


def test_out_is_written_in_place_and_returned() -> None:
    codes = np.arange(5478, dtype=np.int32)
    out = np.full(5478, 99, np.int8)
    result = t.status(codes, "rank", out=out)
    assert result is out
    np.testing.assert_array_equal(out, t.status(codes, "rank"))
    boards = np.empty((5478, 9), np.int8)
    assert t.decode(codes, "rank", out=boards) is boards
    planes = np.empty((5478, 3, 3, 2), np.int8)
    assert t.boards_to_planes(boards, out=planes) is planes
    back = np.empty((2, 2739, 9), np.int8)
    view = t.planes_to_boards(planes.reshape(2, 2739, 3, 3, 2), out=back)
    assert np.shares_memory(view, back)
    np.testing.assert_array_equal(back.reshape(-1, 9), boards)


def test_contiguous_input_is_not_copied() -> None:
    codes = np.arange(2_000_000, dtype=np.int64) % 5478
    out = np.empty(2_000_000, np.int8)
    t.status(codes, "rank", out=out)  # tables built before measuring
    tracemalloc.start()
    try:
        t.status(codes, "rank", out=out)
        t.convert(codes, "rank", "base4", out=np.empty(2_000_000, np.int32))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # A copy of the 16 MB input would show; the second call's own output is 8 MB.
    assert peak < 9_000_000, peak


def test_non_contiguous_input_is_copied_once_and_correct() -> None:
    codes = np.arange(10_000) % 5478
    strided = codes[::2]
    assert not strided.flags.c_contiguous
    np.testing.assert_array_equal(t.status(strided, "rank"), t.status(codes, "rank")[::2])
    boards = t.decode(codes, "rank")
    fortran = np.asfortranarray(boards)
    np.testing.assert_array_equal(t.encode(fortran, "rank"), codes)


# The GIL ----------------------------------------------------------------------------------


def test_gil_is_released_during_a_big_call() -> None:
    codes = np.arange(20_000_000, dtype=np.int32) % 19683
    out = np.empty(codes.shape, np.int8)
    t.status(codes[:10], "base3")
    ticks = 0
    inside = threading.Event()
    done = threading.Event()

    def work() -> None:
        inside.set()
        for _ in range(3):
            t.status(codes, "base3", out=out)
            t.decode(codes[:3_000_000], "base3")
        done.set()

    thread = threading.Thread(target=work)
    start = time.perf_counter()
    thread.start()
    inside.wait()
    while not done.is_set():
        ticks += 1
    thread.join()
    elapsed = time.perf_counter() - start
    # With the GIL held, this thread would wait out each call (it could only run between
    # calls); released, it counts all along, far more than a few hundred times.
    assert elapsed > 0.01
    assert ticks > 1000, (ticks, elapsed)


# Docs and imports -------------------------------------------------------------------------


def test_every_public_function_has_a_docstring_with_an_example_that_runs() -> None:
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    parser = doctest.DocTestParser()
    names = [name for name in t.__all__ if callable(getattr(t, name))]
    assert len(names) >= 25
    for name in names:
        obj = getattr(t, name)
        doc = obj.__doc__ or ""
        if isinstance(obj, type):
            continue
        assert ">>>" in doc, f"{name} has no example"
        test = parser.get_doctest(doc, {}, name, None, 0)
        runner.run(test)
    module_test = parser.get_doctest(t.__doc__ or "", {}, "tictactoe_rs", None, 0)
    runner.run(module_test)
    assert runner.failures == 0


def test_import_pulls_in_only_numpy() -> None:
    code = (
        "import sys, tictactoe_rs; "
        "bad = [m for m in ('gymnasium', 'pettingzoo', 'pyspiel', 'jax', 'pgx', 'matplotlib') if m in sys.modules]; "
        "print(bad)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"


def test_native_functions_are_all_exported() -> None:
    core = {name for name in _native.__all__ if not name[0].isupper() or name in ("ENCODINGS", "SYMMETRIES")}
    env_names = {"strategy_moves", "best_move_set", "play_move", "mnk_lines"}
    # The data layer's own kernels (tictactoe_rs.data.family, data.engines), not core functions.
    data_names = {"mnk_expand", "mnk_root_key", "read_ttt_blocks", "ttt_layout"}
    # The family's solver and array analysis are tictactoe_rs.mnk.solve, status and legal_moves.
    family_names = {"mnk_solve", "mnk_solve_array", "mnk_status", "mnk_legal_moves"}
    assert core - env_names - data_names - family_names - {"selfplay"} <= set(t.__all__)
    from tictactoe_rs import mnk

    assert {"solve", "status", "legal_moves"} <= set(mnk.__all__)
    assert mnk.status is _native.mnk_status and mnk.legal_moves is _native.mnk_legal_moves


def test_python_examples_of_the_reference_page_run() -> None:
    page = Path(__file__).resolve().parents[2] / "docs" / "python.md"
    blocks = re.findall(r"```python\n(.*?)```", page.read_text(), re.S)
    assert len(blocks) >= 2
    for block in blocks:
        exec(compile(block, str(page), "exec"), {})
