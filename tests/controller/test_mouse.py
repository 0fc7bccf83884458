"""The guarded mouse (controller/mouse.py): clicks only inside the areas allowed, and the pointer
stepping off an area or out of the window that holds it. (Its clicks against real games killed or
moved mid-burst: test_mouse_click_safety.py.)"""

from __future__ import annotations

from typing import Any

import pytest

from controller.desktop.games import GameWindow
from controller.errors import ClickOutsideError
from controller.mouse import CLICK_PAUSES, Mouse
from vision.geometry import Rect


@pytest.mark.realgame
def test_mouse_clicks_only_inside_allowed_areas(xdemineur: GameWindow, mouse: Mouse) -> None:
    x, y, width, height = xdemineur.geometry
    mouse.allow(Rect(x + 10, y + 10, 20, 20))
    mouse.click(x + 15, y + 15, "right")
    assert mouse.position() == (x + 15, y + 15)
    with pytest.raises(ClickOutsideError, match=r"\(500, 500\)"):
        mouse.click(500, 500)
    assert mouse.position() == (x + 15, y + 15)
    mouse.allow(Rect(0, 0, 5, 5))
    with pytest.raises(ClickOutsideError, match="corner"):
        mouse.click(0, 0)


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


class FoundWindows:
    """Stands in for the X windows: one game window, ``frame``."""

    def __init__(self, frame: Rect) -> None:
        self.frame = frame
        self.found: list[tuple[int, Rect]] = []

        self.focused: list[int] = []

    def find(self, areas: list[Rect]) -> None:
        """As X does: the window under the middle of an area."""
        self.found = [(1, self.frame)] if any(self.frame.contains(*a.centre) for a in areas) else []

    def focus_at(self, x: int, y: int) -> None:
        self.focused += [window for window, frame in self.found if frame.contains(x, y)]


def test_the_pointer_leaves_the_window_holding_an_area_across_its_nearest_side() -> None:
    mouse = Mouse.__new__(Mouse)
    mouse._gui = FakeGui((400, 300), (60, 200))
    mouse.windows = FoundWindows(Rect(50, 20, 200, 250))  # type: ignore[assignment]
    board = Rect(80, 60, 100, 100)
    assert mouse.hovers(board)
    mouse.leave(board)
    assert mouse.position() == (46, 200) and not mouse.hovers(board)
    # With no window manager the focus follows the pointer, unless a window was given it:
    # gnome-mines paused ("Paused" over its board) when the pointer left its window.
    assert mouse.windows.focused == [1]  # type: ignore[union-attr]


def test_the_pointer_leaves_the_window_of_a_block_found_partly_outside_it() -> None:
    """gnome-mines Expert with the pointer over its board (a lit tile): the block of tiles
    found reached 3 px past the window's left edge, so no window held it, and the pointer only
    stepped off the block onto the board's last row, lighting another tile."""
    mouse = Mouse.__new__(Mouse)
    mouse._gui = FakeGui((1280, 1024), (640, 512))
    mouse.windows = FoundWindows(Rect(0, 0, 842, 600))  # type: ignore[assignment]
    block = Rect(-3, 115, 842, 420)
    mouse.leave(block)
    assert not Rect(0, 0, 842, 600).contains(*mouse.position())
    assert not block.contains(*mouse.position())


def test_clicks_start_with_no_pause_and_slow_down_step_by_step_to_the_longest() -> None:
    mouse = Mouse.__new__(Mouse)
    mouse.pause = CLICK_PAUSES[0]
    assert mouse.pause == 0.0
    paces = [mouse.pause]
    while (pause := mouse.slow_down()) is not None:
        assert pause == mouse.pause
        paces.append(pause)
    assert paces == sorted(set(paces)) == list(CLICK_PAUSES)
    assert mouse.slow_down() is None and mouse.pause == CLICK_PAUSES[-1]


def test_a_pause_learned_before_starts_the_clicks_at_least_that_slow() -> None:
    mouse = Mouse.__new__(Mouse)
    mouse.pause = CLICK_PAUSES[0]
    assert mouse.slow_down(to=0.004) == 0.005
    assert mouse.slow_down(to=0.001) == 0.01  # never faster: the next pause then
    assert mouse.slow_down(to=1.0) is None and mouse.pause == 0.01
