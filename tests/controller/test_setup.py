"""Finding the board to play when a game lights the tile under the pointer, or a dialog veils it."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from captured_screen import CapturedScreen
from pictures import read_picture

from controller.errors import SetupError
from controller.mouse import Mouse
from controller.setup import _locate_first
from solver import Tile
from vision.geometry import Rect
from vision.skin import Image, Skin
from vision.synthetic import draw, make_skin

SKIN = make_skin(16, seed=5, name="drawn")
SCREEN = Rect(0, 0, 400, 300)


class LitScreen:
    """A 9x9 fresh board (cells a pixel wider in the first columns and rows with ``uneven``)
    whose tile under the pointer is drawn lit, in a window; and that pointer."""

    def __init__(self, pointer: tuple[int, int], uneven: bool = False) -> None:
        self.skin = SKIN
        edges = None
        if uneven:
            self.skin = replace(SKIN, slack=(1, 1))
            edges = (
                tuple(16 * i + min(i, 3) for i in range(10)),
                tuple(16 * i + min(i, 2) for i in range(10)),
            )
        tiles = np.full((9, 9), Tile.HIDDEN, dtype=np.uint8)
        self.scene = draw(self.skin, tiles, (40, 50), edges=edges)
        self.screen = SCREEN
        self.window = Rect(20, 30, 200, 200)
        self.pointer = pointer
        self.left: list[Rect] = []

    def grab(self, region: Rect | None = None) -> Image:
        shown = self.scene.screen.copy()
        cell = self.scene.geometry.cell_at(*self.pointer)
        if cell is not None:
            tile = self.scene.geometry.tile_rect(cell)
            shown[tile.top : tile.bottom, tile.left : tile.right] //= 2
        region = region or SCREEN
        return shown[region.top : region.bottom, region.left : region.right]

    def hovers(self, area: Rect) -> bool:
        assert self.window.contains_rect(area)
        return self.window.contains(*self.pointer)

    def leave(self, area: Rect) -> None:
        self.left.append(area)
        self.pointer = (self.window.left - 4, self.pointer[1])


@pytest.fixture(autouse=True)
def no_redraw_wait(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("controller.setup.REDRAW_AFTER_MOVE", 0.0)


@pytest.mark.parametrize("shape", [(9, 9), None], ids=["shape-given", "any-shape"])
@pytest.mark.parametrize("uneven", [False, True], ids=["even", "uneven"])
def test_a_board_lit_under_the_pointer_is_found_whole_once_the_pointer_leaves_its_window(
    uneven: bool, shape: tuple[int, int] | None
) -> None:
    # Lit at row 4, an uneven board is walked out to 4 rows only (or not found at all).
    screen = LitScreen(pointer=(120, 130), uneven=uneven)
    skin, geometry = _locate_first(screen, [screen.skin], screen, shape=shape)
    assert geometry == screen.scene.geometry and skin is screen.skin
    assert len(screen.left) == 1 and not screen.window.contains(*screen.pointer)


def test_a_pointer_outside_the_window_is_left_where_it_is() -> None:
    screen = LitScreen(pointer=(5, 5))
    _, geometry = _locate_first(screen, [SKIN], screen, shape=(9, 9))
    assert geometry == screen.scene.geometry
    assert screen.left == [] and screen.pointer == (5, 5)


def test_a_board_that_is_not_found_for_another_reason_leaves_the_pointer_alone() -> None:
    screen = LitScreen(pointer=(5, 5))
    screen.scene.screen[100:120, 100:120] = (0, 0, 255)  # something over the board
    with pytest.raises(SetupError, match="no Minesweeper board"):
        _locate_first(screen, [SKIN], screen, shape=(9, 9))
    assert screen.left == [] and screen.pointer == (5, 5)


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


def test_a_board_veiled_by_a_dialog_at_the_start_is_said_to_be() -> None:
    """Play started while a page's dialog (a browser's prompt for a best time's name) dims the
    board used to say only "only plain tiles matched"; it names the dialog's button and where
    it is, and clicks nothing."""
    folder = Path(__file__).parent.parent / "data" / "web98"
    skin = Skin.load(folder / "skin")
    screen = CapturedScreen(read_picture(folder / "prompt.png"))
    with pytest.raises(SetupError, match=r"a dialog's 'cancel' button shows at \(424, 158\)"):
        _locate_first(screen, [skin], screen)
    assert screen.clicks == []


def test_a_board_opened_to_an_edge_line_of_0s_is_found_at_the_size_its_skin_learned() -> None:
    """With no level asked, a board whose edge line is all 0s (a start that opened a corner)
    was found a line short, and its first game played so; the skin's calibrated size is tried
    first, and any size only if the board is not that."""
    skin = replace(SKIN, extra={**SKIN.extra, "board": "9x12x10"})
    tiles = np.full((9, 12), Tile.HIDDEN, dtype=np.uint8)
    tiles[:, 0] = Tile.ZERO
    tiles[:, 1] = Tile.ONE
    screen = LitScreen(pointer=(5, 5))
    screen.skin, screen.scene = skin, draw(skin, tiles, (40, 50))
    screen.window = Rect(20, 30, 260, 200)
    _, geometry = _locate_first(screen, [skin], screen)
    assert geometry == screen.scene.geometry

    elsewhere = replace(SKIN, extra={**SKIN.extra, "board": "16x30x99"})
    _, geometry = _locate_first(screen, [elsewhere], screen)
    assert (geometry.rows, geometry.columns) == (9, 11)  # any size: as found
