"""The compiled search (solver._winprob_core) is the Python search (winprob_search.Search) step
for step: the same values, the same cells, the same layouts looked at, the same point of giving
up; and it lists the same layouts as the Python listing (layouts._part_layouts)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest

from solver import Board, layouts, winprob, winprob_search
from solver.engine import FirstClick, Game
from solver.errors import PositionTooLarge
from solver.settings import current, using
from solver.strategy import next_moves

ENDGAME_LAYOUTS = current().endgame_layouts
"""The most layouts the solver searches in play."""

try:
    from solver import _winprob_core as _core_module
except ImportError:  # not built in this checkout: the tests below are skipped
    _core_module = None  # type: ignore[assignment]

pytestmark = pytest.mark.skipif(
    _core_module is None, reason="the compiled search is not built in this checkout"
)


def _guess_positions(level: str, seeds: range) -> Iterator[Board]:
    """The boards of real games at which the solver guessed with few layouts left."""
    for seed in seeds:
        game = Game.level(level, FirstClick.SAFE, seed=seed)
        while not game.is_over:
            board = game.board
            moves = next_moves(board)
            if moves[-1].is_guess and not board.is_fresh:
                try:
                    index = winprob._index(board)
                    listed = layouts.consistent_layouts(board, index, ENDGAME_LAYOUTS)
                    if len(listed) > 2:
                        yield board.copy()
                except PositionTooLarge:
                    pass
            for move in moves:
                if not game.is_over:
                    game.open(move.cell)


POSITIONS = list(_guess_positions("expert", range(40)))


def _searches(
    board: Board, monkeypatch: pytest.MonkeyPatch, max_visits: int
) -> tuple[winprob_search.Search, winprob_search.Search]:
    """The compiled and the Python search of ``board``."""
    _, compiled, _ = winprob._consistent_search(board, ENDGAME_LAYOUTS, max_visits)
    with monkeypatch.context() as patch:
        patch.setattr(winprob_search, "_core", None)
        patch.setattr(layouts, "_core", None)
        _, python, _ = winprob._consistent_search(board, ENDGAME_LAYOUTS, max_visits)
    assert type(compiled) is not type(python)
    return compiled, python


def _outcome(search: winprob_search.Search, position: int, opened: int) -> object:
    """The best cell and its value, or the give-up, and the layouts still left to look at."""
    try:
        found: object = search.best_cell(position, opened)
    except PositionTooLarge as gave_up:
        found = str(gave_up)
    return found, search.visits_left


def test_enough_guess_positions_are_compared() -> None:
    assert len(POSITIONS) >= 15


@pytest.mark.parametrize("board", POSITIONS)
def test_compiled_and_python_searches_agree_on_every_guess(
    board: Board, monkeypatch: pytest.MonkeyPatch
) -> None:
    compiled, python = _searches(board, monkeypatch, winprob.MAX_VISITS)
    assert compiled.unresolved == python.unresolved
    assert compiled.safe_everywhere() == python.safe_everywhere()
    for cell in compiled.unresolved:
        assert compiled.surviving(cell) == python.surviving(cell)
        assert compiled.won_after(compiled.surviving(cell)) == python.won_after(
            python.surviving(cell)
        )
    assert _outcome(compiled, compiled.everything, 0) == _outcome(python, python.everything, 0)
    # With a budget of a fraction of what the search took, both give up after the same visits.
    used = winprob.MAX_VISITS - _searches(board, monkeypatch, winprob.MAX_VISITS)[0].visits_left
    for share in (0.1, 0.35, 0.7, 0.95):
        compiled, python = _searches(board, monkeypatch, int(used * share))
        assert _outcome(compiled, compiled.everything, 0) == _outcome(python, python.everything, 0)


@pytest.mark.parametrize("rule", ["none", "safe", "xp", "opening"])
def test_compiled_and_python_agree_on_weighted_fresh_boards(
    rule: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    board = Board.empty(3, 4, 3)
    compiled = winprob.win_probability(board, rule=rule)
    monkeypatch.setattr(winprob_search, "_core", None)
    assert winprob.win_probability(board, rule=rule) == compiled


@pytest.mark.parametrize("board", POSITIONS[::3])
def test_compiled_and_python_list_the_same_layouts_after_the_same_steps(
    board: Board, monkeypatch: pytest.MonkeyPatch
) -> None:
    def listed() -> object:
        try:
            return layouts.consistent_layouts(board, winprob._index(board), ENDGAME_LAYOUTS)
        except PositionTooLarge as gave_up:
            return str(gave_up)

    compiled = listed()
    monkeypatch.setattr(layouts, "_core", None)
    assert listed() == compiled
    for cap in (3, 20, 60):
        with using(replace(current(), max_enumeration_steps=cap)):
            python = listed()
            with monkeypatch.context() as patch:
                patch.setattr(layouts, "_core", _core_module)
                assert listed() == python


@pytest.mark.parametrize("board", POSITIONS[:20])
def test_the_compiled_neighbour_lists_are_the_python_ones(
    board: Board, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each hidden cell's and each number's neighbours with a bit, as both list them, in the
    same order (the search and the listing are set up from them)."""
    index = winprob._index(board)
    numbers = [(r, c) for r in range(board.rows) for c in range(board.columns) if board[r, c] < 9]
    cells = list(index) + numbers
    compiled = layouts.hidden_neighbours(board, cells, index)
    with monkeypatch.context() as patch:
        patch.setattr(layouts, "_core", None)
        assert layouts.hidden_neighbours(board, cells, index) == compiled
    assert any(compiled)
