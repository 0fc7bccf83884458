"""The compiled look-ahead (solver._guess_core) is its Python twins: the same classes of
layouts as :func:`solver.guess._classes`, in the same order, on the look-aheads of real games
and on random tables, and the same table rows as ``solver.analysis._layout_rows``."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver import analysis, guess
from solver.board import Cell
from solver.engine import FirstClick, Game
from solver.strategy import next_moves

try:
    from solver import _guess_core as _core
except ImportError:  # not built in this checkout: the tests below are skipped
    _core = None  # type: ignore[assignment]

pytestmark = pytest.mark.skipif(
    _core is None, reason="the compiled look-ahead is not built in this checkout"
)

Classes = list[tuple[int, int, int, list[tuple[Cell, int]]]]


def _both(cell: Cell, unknown: frozenset[Cell], enumerated: list[guess._Layouts]) -> Classes:
    """The compiled classes, checked against the Python's."""
    assert _core is not None
    compiled = _core.layout_classes(cell, unknown, enumerated)
    assert compiled == list(guess._classes(cell, unknown, enumerated))
    return compiled


@pytest.mark.parametrize("rule", [FirstClick.SAFE, FirstClick.OPENING])
def test_compiled_and_python_classes_agree_in_real_games(
    rule: FirstClick, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = []

    def spy(cell: Cell, unknown: frozenset[Cell], enumerated: list[guess._Layouts]) -> Classes:
        calls.append(len(enumerated))
        return _both(cell, unknown, enumerated)

    monkeypatch.setattr(guess, "_core", SimpleNamespace(layout_classes=spy))
    for seed in range(9_200_000, 9_200_030):
        game = Game.level("expert", rule, seed=seed)
        while not game.is_over:
            for move in next_moves(game.board, rule):
                if not game.is_over:
                    game.open(move.cell)
    assert len(calls) >= 100
    assert sum(1 for groups in calls if groups >= 2) >= 3  # combinations of groups were met


@st.composite
def _tables(draw: st.DrawFn) -> tuple[Cell, frozenset[Cell], list[guess._Layouts]]:
    """Random group tables on disjoint cells of a 6x6 board, a cell and its unknown neighbours."""
    cells = draw(st.permutations([(r, c) for r in range(6) for c in range(6)]))
    enumerated = []
    start = 0
    for _ in range(draw(st.integers(0, 3))):
        width = draw(st.integers(1, 5))
        rows = draw(st.integers(0, 6))
        bits = draw(st.lists(st.booleans(), min_size=rows * width, max_size=rows * width))
        mined = np.array(bits, dtype=bool).reshape(rows, width)
        enumerated.append(guess._Layouts(tuple(cells[start : start + width]), mined))
        start += width
    cell = draw(st.sampled_from(cells))
    unknown = frozenset(draw(st.lists(st.sampled_from(cells), max_size=8)))
    return cell, unknown, enumerated


@settings(max_examples=400, deadline=None)
@given(_tables())
def test_compiled_and_python_classes_agree_on_random_tables(
    case: tuple[Cell, frozenset[Cell], list[guess._Layouts]],
) -> None:
    _both(*case)


@st.composite
def _choices(draw: st.DrawFn) -> tuple[list[tuple[int, ...]], list[tuple[int, ...]], int]:
    """Boxes of columns (shuffled over a table's width) and choices of mines per box."""
    sizes = draw(st.lists(st.integers(1, 4), max_size=5))
    width = sum(sizes)
    order = draw(st.permutations(range(width)))
    boxes, start = [], 0
    for size in sizes:
        boxes.append(tuple(order[start : start + size]))
        start += size
    choice = st.tuples(*(st.integers(0, size) for size in sizes))
    return boxes, draw(st.lists(choice, max_size=4)), width


@settings(max_examples=400, deadline=None)
@given(_choices())
def test_compiled_and_python_layout_rows_agree(
    case: tuple[list[tuple[int, ...]], list[tuple[int, ...]], int],
) -> None:
    assert _core is not None
    compiled = _core.layout_rows(*case)
    assert compiled.dtype == bool
    assert np.array_equal(compiled, analysis._layout_rows(*case))
