"""A game whose end takes its board away: it paints its window over with a message ("YOU
LOSE!", no mine shown) and then shows a menu, where a labelled button brings a board back.

Such an end is told from the board the click left: no cell shows a picture seen on the board
before (the hidden tile, a number), the cells opened or marked before changed too (a first click
that opens a whole board of plain 0s takes nothing away), and most cells show one plain colour,
the window's ground.
How the game ended is told from the board before the click, never guessed: a click that may
have opened the last safe cell (as many cells left unopened as mines, the clicked one aside)
ended it either way; any other click hit a mine.
"""

from __future__ import annotations

import numpy as np

from calibration.catalogue import HIDDEN_ID, Catalogue
from calibration.record import Step
from solver import GameState

PLAIN_SHARE = 0.5
"""Share of a board's cells that must show one plain colour for the board to have gone."""


def board_vanished(step: Step, catalogue: Catalogue, known: set[int]) -> bool:
    """Whether the board after ``step`` shows no board: no cell shows the hidden tile or one of
    the ``known`` appearances, the cells not hidden before changed, and at least
    :data:`PLAIN_SHARE` of the cells show a picture of one plain colour."""
    ids = step.after
    if np.isin(ids, [HIDDEN_ID, *known]).any():
        return False
    if not (step.changed & (step.before != HIDDEN_ID)).any():
        return False
    plain = [appearance for appearance in np.unique(ids).tolist() if _plain(catalogue, appearance)]
    return bool(np.isin(ids, plain).mean() >= PLAIN_SHARE)


def _plain(catalogue: Catalogue, appearance: int) -> bool:
    picture = catalogue.images[appearance]
    return bool((picture == picture[:1, :1]).all())


def gone_outcome(step: Step, safe: set[int], mines: int | None) -> GameState:
    """How the click ``step`` ended a game whose board then vanished: LOST where the cells
    it left unopened outnumber the mines by more than the clicked one (it hit a mine); else
    PLAYING, not told: it may have opened the last safe cell, or the mine count is not known."""
    unopened = int(np.isin(step.before, list(safe), invert=True).sum())
    if mines is None or unopened - 1 == mines:
        return GameState.PLAYING
    return GameState.LOST
