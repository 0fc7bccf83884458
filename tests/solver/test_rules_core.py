"""The compiled reading and cheap rules (solver._rules_core) are their Python twins: the same
keys, counts and proven cells, and ``None`` exactly where the Python raises."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver import Board, constraints, deduce
from solver.board import Tile
from solver.constraints import Constraints
from solver.engine import FirstClick, Game, neighbour_counts
from solver.errors import BoardError
from solver.strategy import Action, next_moves

try:
    from solver import _rules_core as _core
except ImportError:  # not built in this checkout: the tests below are skipped
    _core = None  # type: ignore[assignment]

pytestmark = pytest.mark.skipif(
    _core is None, reason="the compiled rules are not built in this checkout"
)


def _game_boards(level: str, rule: FirstClick, seeds: range) -> Iterator[Board]:
    """Every board a real game passes through, flags included (certain mines are flagged)."""
    for seed in seeds:
        game = Game.level(level, rule, seed=seed)
        while not game.is_over:
            if not game.board.is_fresh:
                yield game.board.copy()
            for move in next_moves(game.board, rule, flags=True):
                if game.is_over:
                    break
                if move.action is Action.FLAG:
                    game.flag(move.cell)
                else:
                    game.open(move.cell)


GAME_BOARDS = [
    *_game_boards("expert", FirstClick.SAFE, range(12)),
    *_game_boards("intermediate", FirstClick.OPENING, range(12)),
]


def _python(read: Callable[[], object]) -> object:
    """What the Python twin returns, or ``None`` where it raises BoardError."""
    try:
        return read()
    except BoardError:
        return None


def _compiled_bits(position: Constraints) -> object:
    mask = position.unknown_mask.view(np.uint8)
    return _core.certain_bits(position.keys, position.unknown_count, position.mines_left, mask)


def _python_position(board: Board, monkeypatch: pytest.MonkeyPatch) -> Constraints:
    with monkeypatch.context() as patch:
        patch.setattr(constraints, "_core", None)
        return constraints.read_constraints(board)


def test_game_boards_are_read_and_deduced_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    assert len(GAME_BOARDS) > 300
    assert any((board.tiles == Tile.FLAG).any() for board in GAME_BOARDS)
    for board in GAME_BOARDS:
        keys = _core.number_keys(board.tiles, board.mines)
        assert keys == constraints._number_keys(board)
        position = _python_position(board, monkeypatch)
        compiled = constraints.read_constraints(board)
        assert (compiled.constraints, compiled.bits) == (position.constraints, position.bits)
        assert (compiled.unknown_count, compiled.mines_left) == (
            position.unknown_count,
            position.mines_left,
        )
        assert np.array_equal(compiled.unknown_mask, position.unknown_mask)
        found = _compiled_bits(position)
        assert found is not None and found == deduce._certain_bits(position)


@st.composite
def _boards(draw: st.DrawFn) -> Board:
    """A small board whose numbers come from a real layout, with flags (some wrong), hidden
    and question-marked cells, and sometimes a number or the mine count off by one, or an
    end-of-game tile: consistent and impossible boards alike."""
    rows, columns = draw(st.integers(1, 6)), draw(st.integers(1, 8))
    cells = rows * columns
    mine_list = draw(st.lists(st.booleans(), min_size=cells, max_size=cells))
    layout = np.array(mine_list).reshape(rows, columns)
    shown = neighbour_counts(layout).astype(np.uint8)
    look = draw(st.lists(st.integers(0, 9), min_size=cells, max_size=cells))
    tiles = np.full(cells, Tile.HIDDEN, dtype=np.uint8)
    for i, (mine, choice) in enumerate(zip(layout.ravel(), look, strict=True)):
        if choice == 0:
            tiles[i] = Tile.FLAG
        elif choice == 1:
            tiles[i] = Tile.QUESTION
        elif choice >= 5 and not mine:
            tiles[i] = shown.ravel()[i]
    if draw(st.booleans()):
        i = draw(st.integers(0, cells - 1))
        tiles[i] = draw(st.sampled_from(list(Tile)))
    mines = int(layout.sum()) + draw(st.sampled_from([0, 0, 0, -1, 1]))
    return Board(rows, columns, min(max(mines, 0), cells), tiles.reshape(rows, columns))


@settings(max_examples=400, deadline=None)
@given(_boards())
def test_random_boards_are_read_and_deduced_alike(board: Board) -> None:
    keys = _core.number_keys(board.tiles, board.mines)
    assert keys == _python(lambda: constraints._number_keys(board))
    if keys is None:
        return
    position = Constraints(board, tuple(keys[0]), board.closed, keys[1], board.mines - keys[2])
    assert _compiled_bits(position) == _python(lambda: deduce._certain_bits(position))


@pytest.mark.parametrize(
    ("rows", "mines", "message"),
    [
        (["1F", "FU"], 3, "the 1 has 2 flags around it"),
        (["UUU", "131"], 3, "leave this number unsatisfiable"),
        (["UUU", "121"], 1, "the numbers force 2 of the 1 unflagged mines"),
    ],
)
def test_an_impossible_board_gets_the_python_message(
    rows: list[str], mines: int, message: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    board = Board.from_rows(rows, mines)
    with pytest.raises(BoardError, match=message) as compiled:
        deduce.find_certain(board)
    monkeypatch.setattr(constraints, "_core", None)
    monkeypatch.setattr(deduce, "_core", None)
    with pytest.raises(BoardError) as python:
        deduce.find_certain(board)
    assert str(compiled.value) == str(python.value)
