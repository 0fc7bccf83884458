"""Vision against live games under Xvfb: capture, locate, read, a moved window, a click.

The skins are the hand-cut ones of tests/data/vision_real (the tiles they lack, such as higher
numbers, make a read refuse, which these tests tell apart from a wrong read).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from conftest import TESTS

from controller.desktop.games import GameWindow
from controller.desktop.sizes import Size
from controller.mouse import Mouse
from solver import Tile
from vision.capture import ScreenGrabber
from vision.errors import CaptureError, UnreadableCellError
from vision.geometry import BoardGeometry, Rect
from vision.locate import locate_on_screen
from vision.match import TemplateBank
from vision.read import BoardReader, Reading
from vision.skin import Skin
from vision.stable import wait_stable

DATA = TESTS / "data" / "vision_real"
GAMES: list[tuple[str, Size]] = [("winemine", (9, 9, 10)), ("xdemineur", (9, 12, 10))]
MOVE = (137, 59)

Launch = Callable[[str, "str | Size"], GameWindow]
"""The ``launch`` fixture of tests/conftest.py."""


def read_live(grabber: ScreenGrabber, reader: BoardReader, mines: int) -> Reading:
    return reader.read(wait_stable(grabber, reader.region, watch=reader.watched), mines)


def window_rect(window: GameWindow) -> Rect:
    x, y, width, height = window.refresh()
    return Rect(x, y, width, height)


@pytest.mark.realgame
@pytest.mark.parametrize(("game", "level"), GAMES)
def test_live_board_is_found_read_and_followed_when_moved(
    launch: Launch, game: str, level: Size, tmp_path: Path
) -> None:
    window = launch(game, level)
    skin = Skin.load(DATA / game)
    rows, columns, mines = level
    with ScreenGrabber() as grabber:
        geometry = locate_on_screen(grabber, skin, shape=(rows, columns))
        assert window_rect(window).contains_rect(geometry.rect)
        assert geometry.face is not None and window_rect(window).contains_rect(geometry.face)
        before = read_live(grabber, BoardReader(skin, geometry, crops_dir=tmp_path), mines)
        assert (before.face, before.outcome) == ("playing", "playing")

        old = window_rect(window)
        window.move(old.left + MOVE[0], old.top + MOVE[1])
        new = window_rect(window)
        moved = locate_on_screen(grabber, skin, shape=(rows, columns))
        shift = (new.left - old.left, new.top - old.top)
        assert shift != (0, 0)
        assert (moved.left - geometry.left, moved.top - geometry.top) == shift
        after = read_live(grabber, BoardReader(skin, moved, crops_dir=tmp_path), mines)
        assert after.board == before.board and after.face == before.face


@pytest.mark.realgame
@pytest.mark.parametrize(("game", "level"), GAMES)
def test_a_click_is_seen_once_the_frame_settles(
    launch: Launch, mouse: Mouse, game: str, level: Size, tmp_path: Path
) -> None:
    launch(game, level)
    skin = Skin.load(DATA / game)
    rows, columns, mines = level
    with ScreenGrabber() as grabber:
        geometry = locate_on_screen(grabber, skin, shape=(rows, columns))
        reader = BoardReader(skin, geometry, crops_dir=tmp_path)
        before_frame = wait_stable(grabber, reader.region, watch=reader.watched)
        before = reader.read(before_frame, mines)
        hidden = np.argwhere(before.board.tiles == Tile.HIDDEN)
        cell = (int(hidden[len(hidden) // 2][0]), int(hidden[len(hidden) // 2][1]))
        mouse.allow(geometry.rect)
        mouse.click(*geometry.cell_centre(cell))
        frame = wait_stable(
            grabber, reader.region, watch=reader.watched, differs_from=before_frame, timeout=5
        )
        try:
            after = reader.read(frame, mines)
        except UnreadableCellError as refused:
            assert_truly_unknown(skin, geometry, frame, reader, refused)
            return
        assert after.board[cell] != Tile.HIDDEN


def assert_truly_unknown(
    skin: Skin,
    geometry: BoardGeometry,
    frame: np.ndarray,
    reader: BoardReader,
    refused: UnreadableCellError,
) -> None:
    """A refused cell must really be unlike every template (a tile the hand-cut skin lacks)."""
    tile = reader.tile_images(frame)[refused.cell]
    tiles = sorted(skin.templates)
    bank = TemplateBank(tiles, [skin.templates[t] for t in tiles])
    assert float(bank.distances(tile[None]).min()) > skin.threshold
    assert refused.crop_path.is_file()


@pytest.mark.realgame
def test_grabs_match_the_whole_screen_and_off_screen_is_refused(launch: Launch) -> None:
    launch("xdemineur", (9, 12, 10))
    with ScreenGrabber() as grabber:
        whole = grabber.grab()
        assert whole.shape == (grabber.screen.height, grabber.screen.width, 3)
        region = Rect(5, 7, 200, 100)
        part = grabber.grab(region)
        assert part.dtype == np.uint8 and part.flags["C_CONTIGUOUS"]
        assert np.array_equal(part, whole[7:107, 5:205])
        assert len(np.unique(part.reshape(-1, 3), axis=0)) > 2  # the game, not a blank screen
        with pytest.raises(CaptureError, match="not inside the screen"):
            grabber.grab(Rect(grabber.screen.width - 10, 0, 50, 50))
