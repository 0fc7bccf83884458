"""The games as data (controller/desktop/launchers.py): the size each launcher fits a level to, the
sizes it refuses, and its new-game key."""

from __future__ import annotations

import pytest

from controller.desktop.launchers import LAUNCHERS
from controller.desktop.sizes import Size
from vision.new_game import NEW_GAME_KEYS, is_new_game_key


def test_ace_minesweeper_fits_a_level_to_the_board_nearest_its_mine_density() -> None:
    launcher = LAUNCHERS["ace-minesweeper"]
    assert launcher.fitted((9, 9, 10)) == (8, 8, 6)
    assert launcher.fitted((16, 16, 40)) == (11, 11, 20)
    assert launcher.fitted((16, 30, 99)) == (32, 32, 200)
    assert launcher.refusal((9, 9, 10)) is not None


def test_xbomb_fits_a_level_to_its_board_of_that_many_mines() -> None:
    launcher = LAUNCHERS["xbomb"]
    assert launcher.fitted((9, 9, 10)) == (8, 8, 10)
    assert launcher.fitted((16, 30, 99)) == (16, 30, 99)
    assert launcher.refusal((8, 8, 10)) is None


def test_a_launchers_new_game_key_is_one_a_skin_may_keep_and_discovery_does_not_try() -> None:
    keys = {name: launcher.new_game_key for name, launcher in LAUNCHERS.items()}
    assert keys["xbomb"] == "s"
    for name, key in keys.items():
        assert key is None or (is_new_game_key(key) and key not in NEW_GAME_KEYS), name


@pytest.mark.parametrize(
    ("game", "size"),
    [("kmines", (10, 10, 90)), ("kmines", (50, 5, 240)), ("sgt-mines", (9, 9, 72))],
)
def test_the_largest_sizes_a_game_takes_are_not_refused(game: str, size: Size) -> None:
    assert LAUNCHERS[game].refusal(size) is None


@pytest.mark.parametrize(
    ("level", "fitted"),
    [((9, 9, 10), (8, 8, 10)), ((16, 30, 99), (16, 30, 99)), ((9, 9, 11), (9, 9, 11))],
)
def test_gnome_mines_fits_a_level_to_the_size_of_its_mine_count(level: Size, fitted: Size) -> None:
    # Beginner's 10 mines: its 8x8 board; a count it has no size for stays, to be refused.
    launcher = LAUNCHERS["gnome-mines"]
    assert launcher.fitted(level) == fitted
    assert (launcher.refusal(fitted) is None) == (fitted[2] in (10, 99))
