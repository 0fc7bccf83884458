"""What a loss does to the flags (calibration/inference.py): most games leave a flag on a mine
standing and cross a wrong one; some do the opposite, and calibration learns which from what
the loss shows around the flags, never from the program's name."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from drawn_game import (
    DrawnGame,
    GuardedMouse,
    calibrated,
    played_to_the_end,
    quick_waits,  # noqa: F401 (autouse: calibration's quick waits on a virtual clock)
    right_flag_look,
    wrong_flag_look,
)

from calibration.learn import Calibration
from controller.outcomes import Result
from controller.screen_table import ScreenTable
from solver import Tile
from vision.locate import locate
from vision.skin import Image, Skin


def cropped(result: Calibration, picture: Image) -> Image:
    """``picture`` (a whole drawn cell) cut to the part of a cell the skin keeps."""
    (x, y), (width, height) = result.skin.tile_offset, result.skin.tile_size
    return picture[y : y + height, x : x + width]


@pytest.mark.parametrize("ink", [True, False], ids=["wrong-flag-inked", "wrong-flag-standing"])
def test_a_loss_that_marks_the_right_flags_and_not_the_wrong_ones_is_learned(ink: bool) -> None:
    """minesweeper-python turns a flag on a mine into a green cross on a loss, and leaves a
    wrong flag a flag (its ink changed by the button's disabled look): every flag the loss
    changed was taken for a wrong one, and calibration stopped at "WRONG_FLAG has two
    appearances". It draws every mine as the one hit, and tells no mine count calibration
    could take. The green cross is learned as a flag on a mine as a finished game draws it,
    and a wrong flag as what the loss leaves on it."""
    screen = DrawnGame(
        seed=2, right_flags_on_loss=True, wrong_flag_ink=ink, mines_drawn_as_hit=True
    )
    result = calibrated(screen, max_games=12, mines=None)  # its count changes from game to game
    assert result.usable and screen.losses
    flag = screen.skin.templates[Tile.FLAG]
    skin = result.skin
    assert np.array_equal(skin.templates[Tile.FLAG], cropped(result, flag))
    crossed = [drawn[Tile.FLAG] for drawn in skin.finished.values() if Tile.FLAG in drawn]
    assert crossed and all(
        np.array_equal(picture, cropped(result, right_flag_look(flag))) for picture in crossed
    )
    if ink:
        expected = cropped(result, wrong_flag_look(flag))
        assert np.array_equal(skin.templates[Tile.WRONG_FLAG], expected)
    else:
        assert Tile.WRONG_FLAG not in skin.templates


def results_with_flags(screen: DrawnGame, skin: Skin, folder: Path) -> set[Result]:
    """The results of 8 games played on ``screen`` with ``skin`` as ``--flags`` plays them, on
    boards of 20 mines (games lost more often, with flags standing); none may end misread."""
    screen.mines = 20
    screen.start_new_game()
    geometry = locate(skin, screen.grab(), shape=(9, 9))
    table = ScreenTable(
        screen, skin, geometry, GuardedMouse(screen), 20, game="drawn", first_click="safe"
    )
    return {record.result for record in played_to_the_end(table, 8, folder, flags=True)}


def test_play_with_flags_reads_the_losses_of_such_a_game(tmp_path: Path) -> None:
    """Play flags proven mines (``--flags``): each loss shows them as green crosses, read as
    flags on mines, and no game ends misread."""
    screen = DrawnGame(
        seed=2, right_flags_on_loss=True, wrong_flag_ink=True, mines_drawn_as_hit=True
    )
    skin = calibrated(screen, max_games=12, mines=None).skin
    assert Result.LOST in results_with_flags(screen, skin, tmp_path)


def test_a_flag_on_a_mine_drawn_in_a_picture_the_skin_lacks_is_read_as_a_loss_shows_it(
    tmp_path: Path,
) -> None:
    """minesweeper-python's green cross over a flag on a mine, where calibration never saw one
    (its random flags seldom stand on a mine at a loss): play, which flags proven mines, read
    such a loss as misread ("matches no template"). A cell play flagged that a loss shows in a
    picture not learned is read as a cell the loss showed, as a hidden cell's is."""
    screen = DrawnGame(seed=2, mines_drawn_as_hit=True)
    skin = calibrated(screen, max_games=12, mines=None).skin
    assert not any(Tile.FLAG in drawn for drawn in skin.finished.values())
    screen.right_flags_on_loss = True
    assert Result.LOST in results_with_flags(screen, skin, tmp_path)
