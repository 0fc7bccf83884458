"""Calibration of drawn games whose ends bring up dialogs: over a dimmed window, late, over a
lost board, or drawn by a page over the board undimmed (Minesweeper Classic's best-time box, then
its best-times table; played too); each answered by its button that keeps the game, and none
clicked otherwise."""

from __future__ import annotations

from pathlib import Path

import pytest
from drawn_game import (
    DRAWN_BOARD_AT,
    DRAWN_WINDOW,
    DrawnGame,
    GuardedMouse,
    assert_learned_truly,
    calibrated,
    played_to_the_end,
    quick_waits,  # noqa: F401 (autouse: calibration's quick waits on a virtual clock)
)

from controller.screen_table import ScreenTable
from solver import Tile
from vision.geometry import Rect
from vision.locate import locate
from vision.new_game import NewGame


def test_a_dialog_drawn_over_the_dimmed_window_at_a_game_s_end_is_answered() -> None:
    """A game drawn in a browser dims its window under a dialog when a game ends: calibration
    answers it with its "Cancel" (never "OK" first), and learns the won face and the face as
    the new-game way as if there were no dialog."""
    screen = DrawnGame(seed=2, veiled_dialog_on_end=("Cancel", "OK"))
    result = calibrated(screen, max_games=8)
    assert screen.answers and set(screen.answers) == {"Cancel"}
    assert sorted(result.skin.faces) == ["lost", "playing", "won"]
    assert result.skin.new_game == NewGame("face")
    assert_learned_truly(result, screen, result.skin.templates)


def test_a_late_ok_only_dialog_and_no_mark_before_a_game_begins_do_not_stop_calibration() -> None:
    """A game in a browser that says "Boom!" in a dialog with only an "OK" a moment after a
    loss is drawn, and takes no flag before its first click: calibration answers the dialog,
    and marks cells only once a game has begun."""
    screen = DrawnGame(
        seed=2, veiled_dialog_on_end=("OK",), veiled_dialog_after=0.3, marks_before_start=False
    )
    result = calibrated(screen, max_games=8)
    assert screen.answers and set(screen.answers) == {"OK"}
    assert result.skin.new_game == NewGame("face")
    assert {Tile.FLAG, Tile.MINE, Tile.EXPLODED} <= set(result.skin.templates)
    assert_learned_truly(result, screen, result.skin.templates)


def test_a_dialog_over_a_lost_board_is_closed_before_the_board_is_read_or_clicked() -> None:
    screen = DrawnGame(seed=2, dialog_on_loss=True)
    result = calibrated(screen, max_games=8)
    assert screen.losses > 0 and screen.dialogs_closed == screen.losses
    assert result.usable and result.skin.new_game == NewGame("face")
    assert_learned_truly(result, screen, result.skin.templates)
    assert result.skin.extra.get("first_click") in (None, "safe")


BOARD_SIDE = 16 * 9
"""Pixels a side of the drawn game's board."""
OVER_THE_BOARD = Rect(
    DRAWN_BOARD_AT[0] - 6, DRAWN_BOARD_AT[1] - 6, BOARD_SIDE + 12, BOARD_SIDE + 12
)
"""A page's own window over the whole board."""
OVER_ITS_LEFT_PART = Rect(DRAWN_BOARD_AT[0] - 10, DRAWN_BOARD_AT[1] + 30, 110, 80)
"""A page's own window over part of the board and past its left edge (a best-time box drawn at
the game window's left edge, over an Expert board)."""


class MouseOfAWindow(GuardedMouse):
    """The play loop's mouse on a drawn game in its window (:data:`DRAWN_WINDOW`): the page
    around the board, most of which a dialog drawn over the board leaves as it was."""

    def window_of(self, area: Rect) -> Rect:
        return DRAWN_WINDOW


@pytest.mark.parametrize("box", [OVER_THE_BOARD, OVER_ITS_LEFT_PART], ids=["whole", "part"])
def test_a_dialog_a_page_draws_over_the_board_undimmed_at_a_game_s_end_is_answered(
    tmp_path: Path, box: Rect
) -> None:
    """No veil tells such a dialog, but its "OK" answers it: calibration and play click it (a
    click anywhere else while it shows fails the test), and the board under it is not taken for
    one that shows every cell."""
    screen = DrawnGame(seed=2, veiled_dialog_on_end=("OK",), unveiled_dialog=box)
    result = calibrated(screen, max_games=8)
    assert screen.answers and set(screen.answers) == {"OK"}
    assert result.skin.new_game == NewGame("face")
    assert sorted(result.skin.faces) == ["lost", "playing", "won"]
    assert_learned_truly(result, screen, result.skin.templates)
    answered = len(screen.answers)
    geometry = locate(result.skin, screen.grab(), shape=(9, 9))
    mouse = MouseOfAWindow(screen)
    table = ScreenTable(screen, result.skin, geometry, mouse, 10, game="drawn", first_click="safe")
    records = played_to_the_end(table, 4, tmp_path)
    assert len(screen.answers) - answered == len(records) == 4
