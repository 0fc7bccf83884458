"""Setting up the game to play (controller/setup.py): the board found when a game lights the tile
under the pointer or a dialog veils it, when a virtual display and an X authority file are needed,
and ``play`` with no skin stored learning the open window's first."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from captured_screen import CapturedScreen
from conftest import LaunchGame
from pictures import read_picture

from controller.cli import main
from controller.errors import SetupError
from controller.outcomes import OutcomeLog, Result
from controller.setup import _locate_first, check_x_authority, needs_virtual_display
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


@pytest.mark.realgame
@pytest.mark.slow
def test_play_with_no_skin_stored_learns_the_open_window_first(
    launch: LaunchGame,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("AUTOSWEEPER_SKINS", str(tmp_path / "skins"))
    launch("winemine", "beginner")
    db = tmp_path / "outcomes.db"
    code = main(["play", "--games", "3", "--mines", "10", "--db", str(db)])
    output = capsys.readouterr()
    assert code == 0, output.err
    assert "no stored skin: learning one from 'WineMine'" in output.out
    assert (tmp_path / "skins" / "WineMine" / "skin.json").is_file()
    with OutcomeLog(db) as log:
        assert [game.result in (Result.WON, Result.LOST) for game in log.games()] == [True] * 3


def test_a_virtual_display_is_needed_only_on_linux_without_display() -> None:
    assert needs_virtual_display("linux", {})
    assert needs_virtual_display("linux", {"DISPLAY": ""})
    assert not needs_virtual_display("linux", {"DISPLAY": ":0"})
    assert not needs_virtual_display("win32", {})
    assert not needs_virtual_display("darwin", {})


def test_no_x_authority_file_is_named_with_the_display_and_the_remedy(tmp_path: Path) -> None:
    home = {"DISPLAY": ":7", "HOME": str(tmp_path)}
    with pytest.raises(SetupError) as missing:
        check_x_authority("linux", home)
    message = str(missing.value)
    assert "\n" not in message
    assert message.startswith("display :7: no readable X authority file")
    assert f"create an empty {tmp_path / '.Xauthority'}" in message
    with pytest.raises(SetupError, match="XAUTHORITY names /nowhere/auth"):
        check_x_authority("linux", {**home, "XAUTHORITY": "/nowhere/auth"})
    with pytest.raises(SetupError, match="HOME and XAUTHORITY are unset"):
        check_x_authority("linux", {"DISPLAY": ":7"})
    (tmp_path / ".Xauthority").touch()
    check_x_authority("linux", home)
    check_x_authority("win32", {})
