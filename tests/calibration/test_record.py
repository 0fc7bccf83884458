"""What calibration's record of its games (calibration/record.py) takes as safely opened."""

from __future__ import annotations

import numpy as np

from calibration.catalogue import HIDDEN_ID, Catalogue
from calibration.record import ClickKind, Evidence, PlayedGame, Step

OPENED_BY_THE_GAME = 7
"""A picture a new game showed by itself (a 0 of a size class only the corner cell has)."""
SHOWN_BY_THE_CLICK = 3


def a_game_that_opened_its_corner_by_itself() -> PlayedGame:
    """A new game that opened its corner cell itself (UXBgtk's hint), then one safe click."""
    before = np.full((3, 3), HIDDEN_ID, dtype=np.int32)
    before[0, 0] = OPENED_BY_THE_GAME
    after = before.copy()
    after[2, 2] = SHOWN_BY_THE_CLICK
    second = after.copy()
    second[2, 1] = SHOWN_BY_THE_CLICK
    return PlayedGame(
        [Step(ClickKind.OPEN, (2, 2), before, after), Step(ClickKind.OPEN, (2, 1), after, second)]
    )


def test_a_picture_a_new_game_showed_by_itself_and_kept_is_a_safe_one() -> None:
    """A game opens no mine by itself: what its fresh board shows besides hidden cells, kept
    through the first click, is a number (on main it counted only where a click opened it, and a
    0 only the corner shows, first uncovered again by a loss, was learned as a closed cell's
    look on a finished board: "cell (0, 1) reads 0 but has 1 hidden neighbours")."""
    evidence = Evidence(Catalogue(np.zeros((8, 8, 3), dtype=np.uint8)))
    game = a_game_that_opened_its_corner_by_itself()
    evidence.games.append(game)
    for step in game.steps:
        evidence.opened_safely(step)
    assert evidence.safe_appearances == {OPENED_BY_THE_GAME, SHOWN_BY_THE_CLICK}


def test_a_picture_the_first_click_changed_on_the_fresh_board_is_not_taken_as_safe() -> None:
    """Only what lasted counts: a fresh board caught mid-draw shows pictures the next capture
    does not."""
    evidence = Evidence(Catalogue(np.zeros((8, 8, 3), dtype=np.uint8)))
    game = a_game_that_opened_its_corner_by_itself()
    game.steps[0].after[0, 0] = HIDDEN_ID
    evidence.games.append(game)
    for step in game.steps:
        evidence.opened_safely(step)
    assert evidence.safe_appearances == {SHOWN_BY_THE_CLICK}
