"""Calibration (calibration/learn.py) of a game whose new games open cells by themselves before
any click, out to the board's edge (issue 49 item 2).

UXBgtk 1.1 (PyPI, GTK 3) opens a uniformly chosen 0 and its flood on each new game (its "hint",
as xdemineur's start). Its grid of GTK buttons hands the leftover pixels to its first row and
column (their hidden tiles differ from the others' by 0.04 to 0.08), and each opened cell's frame
reaches a few pixels into its neighbours. Calibration found its board as the hidden part only
(8x6 of 8x8, or 7x7 a few pixels off), said "the fresh board's hidden tiles differ", or clicked
off the board."""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest
from drawn_game import (
    DRAWN_BUTTON,
    DrawnGame,
    GuardedMouse,
    calibrated,
    played_to_the_end,
    quick_waits,  # noqa: F401 (autouse: calibration's quick waits on a virtual clock)
)

from calibration.errors import CalibrationError
from calibration.session import CalibrationPlayer
from controller.outcomes import Result
from controller.screen_table import ScreenTable
from solver import GameState, Tile
from vision.geometry import Rect
from vision.locate import locate

WINDOW = Rect(60, 60, 240, 240)
"""The drawn game's window; its board of 9x9 cells is at (40, 60) in it."""


def opened_at_start(seed: int, **options: object) -> DrawnGame:
    """A drawn game whose new games open a 0 and its flood by themselves, out to an edge."""
    screen = DrawnGame(seed=seed, opens_at_start=True, **options)  # type: ignore[arg-type]
    opened = screen.game.board.tiles != Tile.HIDDEN
    assert opened[[0, -1]].any() or opened[:, [0, -1]].any(), "the start reaches no edge"
    return screen


def wider_first_cells(seed: int) -> DrawnGame:
    """Its first three columns and two rows a pixel wider than the rest, as a toolkit's grid
    stretched to its window draws them (each tile drawn a line wider in its middle, the same
    picture in every cell, as UXBgtk's buttons show theirs)."""
    screen = opened_at_start(seed, numbers_per_size=True)
    screen.skin.variants = {}
    return screen


@pytest.mark.parametrize("seed", [2, 10])
def test_a_board_a_new_game_opened_past_its_wider_first_cells_is_found_whole(seed: int) -> None:
    """The walk from a hidden cell over the hidden cells, which finds each cell's edges, is
    stopped by the rows the game opened; the even cut's box says how many cells lie past it
    (on main: "the fresh board's hidden tiles differ by up to 0.045")."""
    screen = wider_first_cells(seed)
    grid = CalibrationPlayer.start(screen, screen, WINDOW, seed=0).view.grid
    assert (grid.origin, grid.rows, grid.columns) == ((40, 60), 9, 9)
    assert grid.edges == screen.edges


@pytest.mark.parametrize("seed", [2, 4, 8, 9, 11])
def test_a_board_a_new_game_opened_with_frames_past_its_cells_is_found_whole(seed: int) -> None:
    """Opened cells draw their frame 2 pixels over the hidden cells beside them: those are
    hidden cells but for that rim, and a row of opened cells along the edge is more of the
    board but for the rim along its outer side (on main: 8x9, 9x8, 3x9, or 8x9 a pixel off)."""
    screen = opened_at_start(seed, frame_spill=2)
    grid = CalibrationPlayer.start(screen, screen, WINDOW, seed=0).view.grid
    assert (grid.origin, grid.rows, grid.columns, grid.pitch) == ((40, 60), 9, 9, (16, 16))


@pytest.mark.parametrize("seed", [11, 13])
def test_the_tiles_of_a_border_around_the_board_are_not_clicked(seed: int) -> None:
    """Where the start left few hidden cells, the blocks of the board's frame (the most common
    after the opened 0s) were clicked at their plainest point, on the window's background
    beside the board. Blocks along a border are no board's hidden tiles: calibration may fail
    to find the board there, but clicks nothing off it (the drawn game fails the test)."""
    screen = wider_first_cells(seed)
    with contextlib.suppress(CalibrationError):
        CalibrationPlayer.start(screen, screen, WINDOW, seed=0)
    assert screen.clicks > 0


def test_a_game_that_opens_its_start_is_calibrated_and_played(tmp_path: Path) -> None:
    """Calibration saves a skin of the whole board, and play plays games on it to their end,
    none misread."""
    screen = wider_first_cells(2)
    result = calibrated(screen, max_games=8)
    assert {Tile.HIDDEN, Tile.ZERO, Tile.ONE} <= set(result.skin.templates)
    assert result.skin.extra["board"] == "9x9x10"
    screen.start_new_game()
    geometry = locate(result.skin, screen.grab(), shape=(9, 9))
    mouse = GuardedMouse(screen)
    table = ScreenTable(screen, result.skin, geometry, mouse, 10, game="drawn", first_click="none")
    records = played_to_the_end(table, 6, tmp_path)
    assert len(records) == 6
    assert {record.result for record in records} <= {Result.WON, Result.LOST}


def test_a_first_click_that_loses_starts_a_new_game_at_the_point_named() -> None:
    """A game that opens cells by itself protects no click after: calibration's first click
    lost one UXBgtk game in three and showed every cell, and calibration stopped ("the first
    click ... changed every hidden cell"). Where the user named the new-game point, a new game
    is started there and the board found on it."""
    screen = DrawnGame(seed=10, rule="none", reveal_on_loss=True, button=DRAWN_BUTTON)
    result = calibrated(screen, max_games=6, new_game_at=DRAWN_BUTTON.centre)
    assert screen.endings[0] is GameState.LOST and screen.new_games["button"] >= 1
    assert result.skin.extra["board"] == "9x9x10"
