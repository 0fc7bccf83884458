"""Telling a board gone at a game's end (calibration/vanished.py)."""

from __future__ import annotations

import numpy as np

from calibration.catalogue import HIDDEN_ID, Catalogue
from calibration.record import ClickKind, Step
from calibration.vanished import board_vanished, gone_outcome
from solver import GameState


def pictures() -> tuple[Catalogue, int, int]:
    """A catalogue of a bevelled hidden tile, a plain picture and a number's."""
    hidden = np.full((16, 16, 3), 190, dtype=np.uint8)
    hidden[:2] = hidden[:, :2] = 255
    catalogue = Catalogue(hidden)
    plain = catalogue.add(np.full((16, 16, 3), 236, dtype=np.uint8))
    number = np.full((16, 16, 3), 236, dtype=np.uint8)
    number[4:12, 7:9] = (200, 0, 0)
    return catalogue, plain, catalogue.add(number)


def test_a_click_that_paints_opened_cells_plain_too_took_the_board_away() -> None:
    catalogue, plain, number = pictures()
    before = np.full((9, 9), HIDDEN_ID)
    before[:3, :3] = number
    after = np.full((9, 9), plain)
    step = Step(ClickKind.OPEN, (5, 5), before, after)
    assert board_vanished(step, catalogue, {number})
    assert gone_outcome(step, {number}, 10) is GameState.LOST  # 72 cells left, 10 mines
    assert gone_outcome(step, {number}, 71) is GameState.PLAYING  # the last safe cell, maybe


def test_a_first_click_that_opens_a_whole_board_of_plain_zeros_takes_nothing_away() -> None:
    catalogue, plain, _ = pictures()
    step = Step(ClickKind.OPEN, (5, 5), np.full((9, 9), HIDDEN_ID), np.full((9, 9), plain))
    assert not board_vanished(step, catalogue, set())
