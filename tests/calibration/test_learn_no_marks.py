"""Calibration of a game that takes no right-click mark (issue 49 item 10): a right-click that
changes nothing, or opens a browser's context menu over the board, teaches no flag; the skin
says the game takes none, and play plays it without a flag or a chord."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from drawn_game import (
    DrawnGame,
    GuardedMouse,
    assert_learned_truly,
    calibrated,
    played_to_the_end,
    quick_waits,  # noqa: F401 (autouse: calibration's quick waits on a virtual clock)
)

from controller.outcomes import Result
from controller.screen_table import ScreenTable
from solver import Tile
from vision.locate import locate

LEARNED = (Tile.HIDDEN, Tile.ZERO, Tile.ONE, Tile.TWO, Tile.EXPLODED)


@pytest.mark.parametrize("right_click", ["nothing", "menu"])
def test_a_game_with_no_right_click_mark_is_calibrated_without_flags(right_click: str) -> None:
    """A web game that flags only with Ctrl+click: its right-click did nothing ("a right-click
    ... changed nothing" stopped calibration), or opened the browser's context menu, whose
    corner over the cell was learned as the FLAG. Two cells right-clicked to no mark, the skin
    records that the game takes none, learns no flag, and the menu is closed with Escape."""
    screen = DrawnGame(seed=3, right_click=right_click)
    result = calibrated(screen, max_games=8)
    skin = result.skin
    assert result.usable, result.describe_missing()
    assert skin.extra["right_click_marks"] is False
    assert not {Tile.FLAG, Tile.QUESTION, Tile.WRONG_FLAG} & set(skin.templates)
    assert not {Tile.FLAG, Tile.QUESTION, Tile.WRONG_FLAG} & set(skin.missing_tiles())
    assert_learned_truly(result, screen, LEARNED)
    # Two cells, no more: a right-click that changed nothing is made once more (a missed click).
    assert screen.buttons.count("right") == {"nothing": 4, "menu": 2}[right_click]
    assert screen.menu.at is None
    if right_click == "menu":
        assert screen.menu.opened == 2
        assert screen.keys.count("escape") == 2


def test_a_game_that_takes_flags_is_calibrated_as_one() -> None:
    """The same game with right-click marks: its skin says so, with its flag learned."""
    screen = DrawnGame(seed=3)
    result = calibrated(screen, max_games=8)
    assert result.skin.extra["right_click_marks"] is True
    assert_learned_truly(result, screen, [Tile.FLAG])


def test_play_of_a_game_with_no_right_click_mark_sends_no_flag_and_no_chord(
    tmp_path: Path,
) -> None:
    """Play asked for flags (``--flags``) on such a skin plays every game to its end with left
    clicks alone: no flag (it would open the menu), no chord (a chord needs its flags). Before,
    it flagged and chorded, and the menu stopped the game. A win draws the game's own flags on
    the mines (as the web game does): play reads them as the flag, learned there."""
    screen = DrawnGame(seed=3, right_click="menu")
    skin = calibrated(screen, max_games=8).skin
    screen.start_new_game()
    clicks = len(screen.buttons)
    geometry = locate(skin, screen.grab(), shape=(9, 9))
    table = ScreenTable(
        screen, skin, geometry, GuardedMouse(screen), 10, game="drawn", first_click="safe"
    )
    records = played_to_the_end(table, 6, tmp_path, flags=True)
    assert Result.WON in {record.result for record in records}
    assert set(screen.buttons[clicks:]) == {"left"}
    assert screen.menu.opened == 2  # calibration's two right-clicks
    (x, y), (width, height) = skin.tile_offset, skin.tile_size
    truth = screen.skin.templates[Tile.FLAG][y : y + height, x : x + width]
    assert np.array_equal(skin.templates[Tile.FLAG], truth)
