"""Vision on real pixels: screenshots of xdemineur and Wine's winemine (taken under Xvfb) and skins
cut from them by hand (tests/data/vision_real). Each game was captured mid-game and again after
it was lost in the same game, so the two reads must agree, and the lost board shows every mine,
so every number read must count its neighbouring mines.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from conftest import TESTS
from hypothesis import given, settings
from hypothesis import strategies as st
from pictures import read_picture

from solver import Board, Tile
from vision.errors import UnreadableCellError
from vision.geometry import BoardGeometry
from vision.locate import locate
from vision.read import BoardReader, Reading
from vision.skin import Image, Skin

DATA = TESTS / "data" / "vision_real"
LEVELS = {"xdemineur": (16, 30, 99), "winemine": (9, 9, 10)}
"""The (rows, columns, mines) each game was started with for the screenshots."""
CANVAS = (1024, 1280)
MINES_SHOWN = (Tile.MINE, Tile.EXPLODED, Tile.FLAG)


def screenshot(game: str, state: str) -> Image:
    return read_picture(DATA / f"{game}-{state}.png")


def on_canvas(image: Image, at: tuple[int, int], background: int) -> Image:
    """``image`` pasted at ``at`` (x, y) on a full screen of one grey level."""
    canvas = np.full((*CANVAS, 3), background, dtype=np.uint8)
    canvas[at[1] : at[1] + image.shape[0], at[0] : at[0] + image.shape[1]] = image
    return canvas


def read_at(skin: Skin, geometry: BoardGeometry, screen: Image, tmp_path: Path) -> Reading:
    reader = BoardReader(skin, geometry, crops_dir=tmp_path)
    region = reader.region
    frame = screen[region.top : region.bottom, region.left : region.right]
    return reader.read(np.ascontiguousarray(frame), mines=0)


def read_screenshot(game: str, state: str, tmp_path: Path) -> tuple[Reading, BoardGeometry]:
    skin = Skin.load(DATA / game)
    screen = screenshot(game, state)
    geometry = locate(skin, screen, shape=LEVELS[game][:2])
    return read_at(skin, geometry, screen, tmp_path), geometry


@pytest.mark.parametrize("game", sorted(LEVELS))
def test_lost_board_numbers_count_the_mines_shown(game: str, tmp_path: Path) -> None:
    reading, _ = read_screenshot(game, "lost", tmp_path)
    board = reading.board
    assert (reading.face, reading.outcome) == ("lost", "lost")
    assert int((board.tiles == Tile.EXPLODED).sum()) == 1
    mines = np.isin(board.tiles, MINES_SHOWN)
    padded = np.pad(mines, 1).astype(int)
    around = np.zeros(board.tiles.shape, dtype=int)
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if dr or dc:
                around += padded[1 + dr : 1 + dr + board.rows, 1 + dc : 1 + dc + board.columns]
    numbers = board.tiles <= Tile.EIGHT
    assert numbers.sum() > 20
    assert np.array_equal(board.tiles[numbers], around[numbers])


@pytest.mark.parametrize("game", sorted(LEVELS))
def test_mid_game_read_agrees_with_the_end_of_the_same_game(game: str, tmp_path: Path) -> None:
    playing, geometry = read_screenshot(game, "playing", tmp_path)
    lost, lost_geometry = read_screenshot(game, "lost", tmp_path)
    assert geometry == lost_geometry
    assert (playing.face, playing.outcome) == ("playing", "playing")
    assert geometry.shape == LEVELS[game][:2]
    opened = playing.board.tiles <= Tile.EIGHT
    assert opened.any() and (playing.board.tiles == Tile.HIDDEN).any()
    assert np.array_equal(playing.board.tiles[opened], lost.board.tiles[opened])


@settings(max_examples=6, deadline=None)
@given(
    st.sampled_from(sorted(LEVELS)),
    st.integers(0, 500),
    st.integers(0, 500),
    st.sampled_from([0, 179, 255]),
)
def test_a_moved_window_is_found_and_read_the_same(
    tmp_path_factory: pytest.TempPathFactory, game: str, x: int, y: int, background: int
) -> None:
    """The board moves with the window, on a black, grey or white desktop."""
    tmp_path = tmp_path_factory.mktemp("crops")
    skin = Skin.load(DATA / game)
    image = screenshot(game, "playing")
    at_origin = locate(skin, image, shape=LEVELS[game][:2])
    screen = on_canvas(image, (x, y), background)
    moved = locate(skin, screen, shape=LEVELS[game][:2])
    assert moved.face is not None and at_origin.face is not None
    assert (moved.left, moved.top) == (at_origin.left + x, at_origin.top + y)
    assert (moved.face.left, moved.face.top) == (at_origin.face.left + x, at_origin.face.top + y)
    expected = read_at(skin, at_origin, image, tmp_path).board
    assert read_at(skin, moved, screen, tmp_path).board == expected


@pytest.mark.parametrize("game", sorted(LEVELS))
def test_a_tile_the_skin_lacks_is_refused_where_it_is(game: str, tmp_path: Path) -> None:
    full, geometry = read_screenshot(game, "lost", tmp_path)
    skin = Skin.load(DATA / game)
    lacking = replace(skin, templates={t: i for t, i in skin.templates.items() if t != Tile.TWO})
    with pytest.raises(UnreadableCellError) as raised:
        read_at(lacking, geometry, screenshot(game, "lost"), tmp_path)
    assert full.board[raised.value.cell] == Tile.TWO
    crop = read_picture(raised.value.crop_path)
    assert np.array_equal(crop, skin.templates[Tile.TWO])


def test_the_whole_board_needs_no_shape_on_a_fresh_looking_edge(tmp_path: Path) -> None:
    """Without the shape, a board whose edge lines all show distinctive tiles is found whole."""
    reading, geometry = read_screenshot("xdemineur", "playing", tmp_path)
    board: Board = reading.board
    edges = [board.tiles[0], board.tiles[-1], board.tiles[:, 0], board.tiles[:, -1]]
    assert all((edge != Tile.ZERO).any() for edge in edges)
    skin = Skin.load(DATA / "xdemineur")
    assert locate(skin, screenshot("xdemineur", "playing")) == geometry


def test_a_won_board_with_no_hidden_tile_left_is_found(tmp_path: Path) -> None:
    """A won board of a browser clone (every mine flagged by the game, no hidden tile left): the
    hidden tile's picture nearly matches opened cells one pixel off, which must not hide the board
    the numbers and flags show. The skin and capture come from calibrating that page."""
    folder = TESTS / "data" / "web98"
    skin = Skin.load(folder / "skin")
    window = read_picture(folder / "won.png")
    expected = Board.from_text((folder / "won.txt").read_text(encoding="utf-8"))
    assert not (expected.tiles == Tile.HIDDEN).any()
    geometry = locate(skin, window, shape=expected.tiles.shape)
    assert np.array_equal(read_at(skin, geometry, window, tmp_path).board.tiles, expected.tiles)
    assert locate(skin, window) == geometry
