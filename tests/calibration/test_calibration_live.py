"""Calibration against real games under Xvfb: learn each skin by playing, then read live games.

Each game is calibrated once per test session (tests/conftest.py), with its windows away from
the screen's top-left corner. The skin must then read every cell right, during play and on the
final reveal of a lost game, in a window at yet another place and after that window moved
mid-game, and on boards of other sizes than the ones it was calibrated on.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from conftest import Calibrations, LaunchGame, read_when_settled, start_new_game

from calibration.catalogue import HIDDEN_ID, Catalogue
from calibration.grid import find_lattice
from calibration.meanings import check_counting
from controller.learning import CALIBRATION_BOARDS
from controller.mouse import Mouse
from solver import Tile
from solver.engine import neighbour_counts
from vision.capture import ScreenGrabber
from vision.geometry import BoardGeometry, Rect
from vision.locate import locate_on_screen
from vision.read import BoardReader, Reading
from vision.skin import Skin
from vision.stable import wait_stable

pytestmark = pytest.mark.realgame

PITCH = {"winemine": (16, 16), "xdemineur": (21, 21)}
TILE_SIZE = {"winemine": (16, 16), "xdemineur": (20, 20)}
GAMES_TO_READ = 4


@pytest.mark.parametrize("game", ["winemine", "xdemineur"])
def test_calibration_learns_every_tile_face_and_the_geometry(
    game: str, calibrations: Calibrations
) -> None:
    result = calibrations.of(game)
    assert result.complete, result.describe_missing()
    skin = result.skin
    assert skin.missing_tiles() == []
    assert skin.pitch == PITCH[game]
    assert skin.tile_size == TILE_SIZE[game]
    assert sorted(skin.faces) == ["lost", "playing", "won"]
    assert skin.new_game.kind in ("key", "face")
    assert 0 < skin.threshold <= 0.1


@pytest.mark.parametrize(
    ("level", "shape"), [((8, 8, 10), (8, 8)), ("expert", (16, 30))], ids=["small", "expert"]
)
def test_the_grid_of_a_board_whose_cells_differ_in_size_is_found(
    launch: LaunchGame, level: tuple[int, int, int] | str, shape: tuple[int, int]
) -> None:
    # gnome-mines hands a window's leftover pixels to its first rows and columns, a pixel each.
    window = launch("gnome-mines", level)
    area = Rect(*window.geometry)
    # The pointer off the board (a tile under it is lit), at the window's bottom right.
    Mouse([area]).move(area.right - 5, area.bottom - 5)
    fresh = wait_stable(ScreenGrabber(), area)
    lattice = find_lattice(fresh)
    grid = lattice.grid(lattice.ranked[0])  # a fresh board: its most common picture is hidden
    assert (grid.rows, grid.columns) == shape
    sizes = [np.diff(axis.starts) for axis in grid.spacing]
    assert grid.edges is not None and any(len(set(axis)) == 2 for axis in sizes)
    assert all(axis.max() - axis.min() <= 1 for axis in sizes)
    # Every cell's picture is the hidden tile: exactly, but for the first row and column, whose
    # gap pixels lie on the board's edge (the gaps' crossings are drawn inside it).
    pictures = grid.pictures(fresh)
    assert (pictures[1:, 1:] == grid.hidden).all()
    catalogue = Catalogue(grid.hidden)
    catalogue.learn_spread(pictures)  # calibration takes the edge ones as variants
    assert (catalogue.ids(pictures) == HIDDEN_ID).all()


def guarded_mouse(geometry: BoardGeometry) -> Mouse:
    """A mouse allowed on the board and its face only."""
    assert geometry.face is not None
    return Mouse((geometry.rect, geometry.face))


def play_at_random(
    grabber: ScreenGrabber, reader: BoardReader, mouse: Mouse, mines: int, chooser: random.Random
) -> list[Reading]:
    """Open random hidden cells until the game ends; the reading after every click."""
    readings = [read_when_settled(grabber, reader, mines)[1]]
    assert readings[0].outcome == "playing"
    while readings[-1].outcome == "playing":
        hidden = np.argwhere(readings[-1].board.tiles == Tile.HIDDEN)
        row, column = hidden[chooser.randrange(len(hidden))]
        before = grabber.grab(reader.region)
        mouse.click(*reader.geometry.cell_centre((int(row), int(column))))
        readings.append(read_when_settled(grabber, reader, mines, before)[1])
    return readings


def check_against_reveal(readings: list[Reading]) -> None:
    """Every number read during play counts the mines the lost board finally shows, and every
    opened cell reads the same from when it opened to the end."""
    final = readings[-1].board
    check_counting(final, "the final reveal")
    mines = np.isin(final.tiles, (Tile.MINE, Tile.EXPLODED, Tile.FLAG))
    counts = neighbour_counts(mines)
    for number, reading in enumerate(readings[:-1]):
        tiles = reading.board.tiles
        opened = tiles <= Tile.EIGHT
        assert (tiles[opened] == counts[opened]).all(), f"reading {number} miscounts a number"
        assert (tiles[opened] == final.tiles[opened]).all(), f"cells of reading {number} changed"


def locate_window(
    grabber: ScreenGrabber, skin: Skin, shape: tuple[int, int]
) -> tuple[BoardGeometry, BoardReader]:
    wait_stable(grabber, grabber.screen, timeout=5.0)
    geometry = locate_on_screen(grabber, skin, shape=shape)
    return geometry, BoardReader(skin, geometry)


@pytest.mark.parametrize("game", ["winemine", "xdemineur"])
def test_skin_reads_boards_during_play_as_the_final_reveal_confirms(
    game: str, calibrations: Calibrations, launch: LaunchGame
) -> None:
    skin = calibrations.of(game).skin
    rows, columns, mines = CALIBRATION_BOARDS[game][0]
    launch(game, (rows, columns, mines)).move(420, 380)
    chooser = random.Random(11)
    with ScreenGrabber() as grabber:
        geometry, reader = locate_window(grabber, skin, (rows, columns))
        mouse = guarded_mouse(geometry)
        lost = 0
        for _ in range(GAMES_TO_READ):
            readings = play_at_random(grabber, reader, mouse, mines, chooser)
            if readings[-1].outcome == "lost":
                lost += 1
                check_against_reveal(readings)
            start_new_game(skin, reader, mouse, grabber)
    assert lost, f"none of {GAMES_TO_READ} random games of {game} was lost: nothing checked"


@pytest.mark.parametrize("game", ["winemine", "xdemineur"])
def test_a_moved_window_reads_the_same_board(
    game: str, calibrations: Calibrations, launch: LaunchGame
) -> None:
    skin = calibrations.of(game).skin
    rows, columns, mines = CALIBRATION_BOARDS[game][0]
    window = launch(game, (rows, columns, mines))
    window.move(90, 60)
    with ScreenGrabber() as grabber:
        geometry, reader = locate_window(grabber, skin, (rows, columns))
        hidden = np.argwhere(
            read_when_settled(grabber, reader, mines)[1].board.tiles == Tile.HIDDEN
        )
        row, column = hidden[len(hidden) // 2]
        before = grabber.grab(reader.region)
        guarded_mouse(geometry).click(*geometry.cell_centre((int(row), int(column))))
        here = read_when_settled(grabber, reader, mines, before)[1]
        window.move(610, 470)
        moved, reader = locate_window(grabber, skin, (rows, columns))
        there = read_when_settled(grabber, reader, mines)[1]
    assert (moved.left - geometry.left, moved.top - geometry.top) == (520, 410)
    assert np.array_equal(there.board.tiles, here.board.tiles)
    assert not here.board.is_fresh
