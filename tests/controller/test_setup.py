"""Finding the board to play when a game lights the tile under the pointer."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from controller.mouse import Mouse
from controller.setup import SetupError, _locate_first
from solver import Tile
from vision.geometry import Rect
from vision.skin import Image
from vision.synthetic import draw, make_skin

SKIN = make_skin(16, seed=5, name="drawn")
SCREEN = Rect(0, 0, 400, 300)


class LitScreen:
    """A 9x9 fresh board whose tile under the pointer is drawn lit, and that pointer."""

    def __init__(self, pointer: tuple[int, int]) -> None:
        self.scene = draw(SKIN, np.full((9, 9), Tile.HIDDEN, dtype=np.uint8), (40, 50))
        self.screen = SCREEN
        self.pointer = pointer
        self.steps_off: list[Rect] = []

    def grab(self, region: Rect | None = None) -> Image:
        shown = self.scene.screen.copy()
        cell = self.scene.geometry.cell_at(*self.pointer)
        if cell is not None:
            tile = self.scene.geometry.tile_rect(cell)
            shown[tile.top : tile.bottom, tile.left : tile.right] //= 2
        region = region or SCREEN
        return shown[region.top : region.bottom, region.left : region.right]

    def position(self) -> tuple[int, int]:
        return self.pointer

    def step_off(self, area: Rect) -> None:
        self.steps_off.append(area)
        self.pointer = (area.left - 4, self.pointer[1])


@pytest.fixture(autouse=True)
def no_redraw_wait(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("controller.setup.REDRAW_AFTER_MOVE", 0.0)


def test_a_board_lit_under_the_pointer_is_found_once_the_pointer_steps_off_it() -> None:
    screen = LitScreen(pointer=(120, 130))
    skin, geometry = _locate_first(screen, [SKIN], screen, shape=(9, 9))  # type: ignore[arg-type]
    assert geometry == screen.scene.geometry and skin is SKIN
    assert len(screen.steps_off) == 1 and screen.steps_off[0].contains_rect(geometry.rect)
    assert geometry.cell_at(*screen.pointer) is None


def test_a_board_that_is_not_found_for_another_reason_leaves_the_pointer_alone() -> None:
    screen = LitScreen(pointer=(5, 5))
    screen.scene.screen[100:120, 100:120] = (0, 0, 255)  # something over the board
    with pytest.raises(SetupError, match="no Minesweeper board"):
        _locate_first(screen, [SKIN], screen, shape=(9, 9))  # type: ignore[arg-type]
    assert screen.steps_off == [] and screen.pointer == (5, 5)


class FakeGui:
    """pyautogui's pointer calls, on a screen of ``size``."""

    def __init__(self, size: tuple[int, int], at: tuple[int, int]) -> None:
        self._size, self.at = size, at

    def size(self) -> tuple[int, int]:
        return self._size

    def position(self) -> tuple[int, int]:
        return self.at

    def moveTo(self, x: int, y: int, **_: Any) -> None:  # noqa: N802 (pyautogui's name)
        self.at = (x, y)


@pytest.mark.parametrize(
    ("at", "to"),
    [((12, 50), (6, 50)), ((95, 50), (103, 50)), ((50, 11), (50, 6)), ((50, 98), (50, 103))],
)
def test_stepping_off_an_area_crosses_its_nearest_side(
    at: tuple[int, int], to: tuple[int, int]
) -> None:
    mouse = Mouse.__new__(Mouse)
    mouse._gui = FakeGui((400, 300), at)
    mouse.step_off(Rect(10, 10, 90, 90))
    assert mouse.position() == to


def test_stepping_off_never_lands_on_a_screen_corner_or_off_the_screen() -> None:
    mouse = Mouse.__new__(Mouse)
    mouse._gui = FakeGui((100, 100), (2, 3))
    mouse.step_off(Rect(0, 0, 60, 60))
    x, y = mouse.position()
    assert 0 <= x < 100 and 0 <= y < 100 and (x, y) not in {(0, 0), (99, 0), (0, 99), (99, 99)}
    assert not Rect(0, 0, 60, 60).contains(x, y)
