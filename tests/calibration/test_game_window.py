"""The game's window during calibration (calibration/game_window.py): what a right-click drew."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, cast

from captured_screen import CapturedScreen
from drawn_boards import WINDOWS
from pictures import read_picture

from calibration.game_window import GameWindow
from vision.geometry import Rect


def test_a_flag_whose_button_frame_reaches_past_its_cell_is_no_menu() -> None:
    """UXBgtk 1.1 (GTK 3) draws a flagged cell's button frame 3 to 4 pixels past its cell of
    38: calibration took every first right-click for a context menu over the board, pressed
    Escape, and stopped ("drew past the cell (a menu over the board?)"). The line looked at
    lies past a frame as deep as a toolkit draws (a FRAME_SHARE of a cell), not 3 pixels out.
    Captured around the cell flagged: 38 px cells, that one's centre at (62, 61)."""
    before = read_picture(WINDOWS / "uxbgtk_flag_before.png")
    after = CapturedScreen(read_picture(WINDOWS / "uxbgtk_flag_after.png"))
    view = SimpleNamespace(
        relayout=None,
        window=Rect(0, 0, 130, 130),
        grabber=after,
        grid=SimpleNamespace(pitch=(38, 38)),
        cell_point=lambda cell: (62, 61),
    )
    window = GameWindow(cast(Any, None), cast(Any, view), cast(Any, None))
    assert not window._drew_past(cast(Any, SimpleNamespace(cell=(5, 2))), before)
