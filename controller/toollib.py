"""ms-toollib, loaded only when a figure needs it, and optional; the figures it gives (3BV).

It computes a finished game's 3BV and writes replays. Its Windows wheel loads a system DLL
(``bcryptprimitives.dll``) that some systems lack (Wine 8, Windows before 10): where it cannot
be loaded, only those figures are lost. The 3BV is then left out of the log with one note on
standard error; a replay is refused with the reason.
"""

from __future__ import annotations

import functools
import importlib
import sys
from types import ModuleType

import numpy as np
import numpy.typing as npt

from solver import Board, Tile
from solver.engine import neighbour_counts

MODULE = "ms_toollib"


class ToollibMissing(Exception):
    """ms-toollib cannot be loaded here; the message says why (one line)."""


@functools.cache
def load() -> ModuleType:
    """The ms_toollib module; :class:`ToollibMissing` naming why it cannot be loaded."""
    try:
        return importlib.import_module(MODULE)
    except (ImportError, OSError) as error:
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise ToollibMissing(f"ms-toollib cannot be loaded here ({reason})") from error


def load_or_note(purpose: str) -> ModuleType | None:
    """The ms_toollib module, or None after one note per run on standard error saying what is
    left out (``purpose``) and why."""
    try:
        return load()
    except ToollibMissing as missing:
        _note_once(f"autosweeper: {purpose} left out: {missing}")
        return None


@functools.cache
def _note_once(note: str) -> None:
    print(note, file=sys.stderr)


def mine_layout(board: Board) -> npt.NDArray[np.bool_] | None:
    """Where every mine is, read from a finished board; ``None`` while any cell is undecided.

    A won board hides mines only under unopened cells. A lost board shows its mines (exploded,
    shown, or correctly flagged); it is fully known only if those add up to the mine count.
    """
    if board.is_won:
        layout = board.unopened
    elif board.is_lost:
        layout = np.isin(board.tiles, (Tile.MINE, Tile.EXPLODED, Tile.FLAG))
    else:
        return None
    return layout if int(layout.sum()) == board.mines else None


def three_bv(board: Board) -> int | None:
    """The board's 3BV (fewest clicks that clear it) by ms-toollib, when its mines are known
    and ms-toollib can be loaded here."""
    layout = mine_layout(board)
    if layout is None:
        return None
    library = load_or_note("3BV")
    return None if library is None else int(library.cal_bbbv(toollib_board(layout)))


def toollib_board(layout: npt.NDArray[np.bool_]) -> list[list[int]]:
    """ms-toollib's board form: ``-1`` for a mine, else the number the cell shows."""
    numbers = neighbour_counts(layout).astype(int)
    numbers[layout] = -1
    return [[int(v) for v in row] for row in numbers]
