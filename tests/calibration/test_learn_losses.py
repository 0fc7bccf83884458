"""Calibration of drawn games by how they draw a loss: a message only, cells left pressed, a
slow repaint, every cell shown and the opened ones redrawn, closed cells darkened, every mine
drawn as the one hit, a focus ring on the mine hit."""

from __future__ import annotations

import numpy as np
import pytest
from drawn_boards import focus_ring
from drawn_game import (
    DRAWN_BOARD_AT,
    DRAWN_SCREEN,
    MESSAGE_SHOWN,
    STUCK_REPAINT,
    DrawnGame,
    GuardedMouse,
    assert_learned_truly,
    calibrated,
    quick_waits,  # noqa: F401 (autouse: calibration's quick waits on a virtual clock)
)

from calibration.errors import CalibrationError
from calibration.learn import SET_ASIDE
from controller.screen_table import ScreenTable
from solver import Game, GameState, Tile
from vision import synthetic
from vision.errors import UnreadableCellError
from vision.locate import locate
from vision.new_game import NewGame
from vision.read import BoardReader


def test_a_game_that_darkens_its_closed_cells_on_a_loss_is_learned() -> None:
    """gnome-mines' classic theme draws every closed cell darker when a game is lost, the
    mines among them as mines: calibration took the darkened cells for a second picture of
    the mine and stopped. More of them than the board has mines, they are no mine."""
    screen = DrawnGame(seed=2, darkens_on_loss=True)
    result = calibrated(screen, max_games=8)
    assert screen.losses
    learned = result.skin.templates
    assert {Tile.HIDDEN, Tile.FLAG, Tile.MINE, Tile.EXPLODED, Tile.ONE} <= set(learned)
    assert_learned_truly(result, screen, learned)


def test_a_focus_ring_on_the_mine_hit_alone_is_learned_from_the_mines_the_loss_shows(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """DangerUXB draws every mine of a loss as the one hit, and the hit sunken with its focus
    ring deeper inside than on a number, unless the focus was elsewhere. The hit then differs
    from the other mines by a ring alone: those pixels are left out of every comparison, and
    every loss draws its mines alike (old code: "the other mines were drawn as the one hit and
    the other way on an earlier loss")."""
    screen = DrawnGame(
        seed=2,
        focus_ring=True,
        mines_drawn_as_hit=True,
        hit_ring_inset=3,
        unfocused_games=frozenset(range(1, 40, 3)),
    )
    result = calibrated(screen, max_games=10)
    assert screen.losses > 3 and result.usable
    assert "set a game aside" not in caplog.text
    skin = result.skin
    assert skin.mask is not None
    (x, y), (width, height) = skin.tile_offset, skin.tile_size
    ringed = np.full((16, 16, 3), 255, dtype=np.uint8)
    focus_ring(ringed[:15, :15], 3)
    ring = (ringed != 255).any(axis=2)[y : y + height, x : x + width]
    assert not (skin.mask & ring).any(), "a pixel of the hit's ring is compared"
    expected = screen.skin.templates[Tile.EXPLODED][y : y + height, x : x + width]
    assert np.array_equal(skin.templates[Tile.EXPLODED][skin.mask], expected[skin.mask])


def test_a_click_on_a_lost_board_that_draws_only_a_message_tells_the_game_is_over() -> None:
    """Before the face is known, a loss is told by a probe click elsewhere: one that changes
    other cells but not the cell probed (a message drawn over the board, as kmines' after its
    "Game Over" dialog closes) is no sign the game goes on."""
    screen = DrawnGame(seed=2, message_on_loss=MESSAGE_SHOWN, message_on_finished_click=True)
    result = calibrated(screen, max_games=6)
    assert result.usable and screen.losses > 2
    assert_learned_truly(result, screen, result.skin.templates)


def test_a_lost_board_that_still_draws_clicked_cells_pressed_is_known_lost() -> None:
    """A page that shows every mine on a loss still draws a clicked hidden cell pressed (as an
    opened cell with no number) after it: a probe click changes the cell it clicked, as if the
    game went on. The mines drawn across the board, apart from the cells the click uncovered,
    say the game is over. Calibration used to go on clicking the lost board and stop on numbers
    that contradicted each other (a page in Chromium, 2026-11-27)."""
    screen = DrawnGame(seed=2, presses_after_loss=True)
    result = calibrated(screen, max_games=6)
    assert result.usable and screen.losses > 2
    assert_learned_truly(result, screen, result.skin.templates)
    assert result.skin.new_game == NewGame("face")


def test_a_lost_board_repainted_with_a_long_pause_is_read_once_repainted() -> None:
    screen = DrawnGame(seed=2, slow_repaints=frozenset(range(5, 40)))
    result = calibrated(screen, max_games=10)
    assert screen.losses > 4 and result.usable
    assert_learned_truly(result, screen, result.skin.templates)


FIRST_HIT_BESIDE = (
    "a first loss on a mine beside the cell clicked, before any loss's picture is known, is "
    "taken as a loss on the cell clicked (not built)"
)


def test_a_loss_drawn_in_full_only_after_a_pause_is_the_click_on_the_mine() -> None:
    """UXBgtk draws its mine hit, and only 200 ms on every other cell and its lost face: once
    the mine hit's picture was known, the click on a mine read as a safe click (the face still
    playing), and the rest of the loss was blamed on the next click ("cannot show distinct
    numbers"). A known mine hit under a playing face is given time for the face to change."""
    screen = DrawnGame(seed=2, rest_of_loss_after=0.3)
    result = calibrated(screen, max_games=8)
    assert screen.losses > 4 and result.usable
    assert_learned_truly(result, screen, result.skin.templates)


@pytest.mark.parametrize(
    "seed",
    [
        4,
        6,
        9,
        pytest.param(1, marks=pytest.mark.xfail(strict=True, reason=FIRST_HIT_BESIDE)),
    ],
)
def test_a_mine_hit_beside_the_cell_clicked_is_the_loss_s_click(seed: int) -> None:
    """UXBgtk opens the other neighbours of a number opened with as many flags around it as
    it counts: calibration's random flags, one wrong, made a click on a safe cell hit a mine
    beside it, drawn (as the rest of its loss 200 ms later) under a playing face. The click
    was taken as safe, its mine hit recorded as a safe picture, and the next click changed
    nothing ("a click on hidden cell ... changed nothing"). A cell the click changed into a
    picture only a loss's click has shown is the mine hit: the game is lost there."""
    screen = DrawnGame(seed=seed, opens_around_flags=True, rest_of_loss_after=0.3)
    result = calibrated(screen, max_games=20)
    assert result.usable
    assert_learned_truly(result, screen, result.skin.templates)


def test_a_lost_board_whose_repaint_outlasts_every_wait_is_set_aside() -> None:
    screen = DrawnGame(seed=2, slow_repaints=frozenset({3}), repaint_pause=STUCK_REPAINT)
    result = calibrated(screen, max_games=8)
    assert screen.losses > 4 and result.usable
    assert_learned_truly(result, screen, result.skin.templates)


def test_a_game_whose_every_loss_breaks_the_rules_stops_calibration() -> None:
    screen = DrawnGame(seed=2, slow_repaints=frozenset(range(1, 40)), repaint_pause=STUCK_REPAINT)
    with pytest.raises(CalibrationError, match="the loss at cell"):
        calibrated(screen, max_games=8)
    assert screen.losses > SET_ASIDE


def test_a_game_that_shows_every_cell_on_a_loss_and_redraws_the_opened_ones_is_learned() -> None:
    """xbomb: a loss leaves no hidden cell, draws the mine hit as any other mine, and redraws
    every cell the player opened with a green grid line. The picture of the mines is learned as
    the sign of a loss (EXPLODED) and MINE is not missing; the redrawn cells read as their
    numbers; a lost board reads as lost."""
    screen = DrawnGame(seed=2, reveal_on_loss=True)
    result = calibrated(screen, max_games=10)
    assert screen.losses > 2 and result.usable
    skin = result.skin
    assert skin.extra["hit_mine_drawn_apart"] is False
    assert Tile.MINE not in skin.templates and Tile.MINE not in result.missing_tiles
    width, height = skin.tile_size
    assert np.array_equal(skin.templates[Tile.EXPLODED], screen.skin.templates[Tile.MINE])
    assert_learned_truly(result, screen, set(skin.templates) - {Tile.EXPLODED})
    screen.seed = 40
    screen.game = Game(9, 9, 10, seed=screen.seed)
    for cell in [(4, 4), *np.ndindex(9, 9)]:
        if screen.game.state is GameState.PLAYING and screen.game.board[cell] == Tile.HIDDEN:
            screen.click(*screen.scene().geometry.cell_centre(cell))
    assert screen.opened_by_player.any()
    frame = screen.grab()
    reader = BoardReader(skin, locate(skin, frame))
    region = reader.region
    shown = reader.read(frame[region.top : region.bottom, region.left : region.right], 10)
    expected = screen.revealed_tiles()
    expected[expected == Tile.MINE] = Tile.EXPLODED
    assert np.array_equal(shown.board.tiles, expected)
    assert shown.outcome is GameState.LOST

    # A number the skin never saw, uncovered by the loss on cells no click opened, leaves the
    # board unreadable; play reads it lost, those cells opened with no number known
    # (ScreenTable.read_lost).
    unopened = expected[~screen.opened_by_player]
    rare = Tile(int(unopened[unopened <= Tile.EIGHT].max()))
    del skin.templates[rare]
    table = ScreenTable(
        screen, skin, reader.geometry, GuardedMouse(screen), 10, game="drawn", first_click="safe"
    )
    with pytest.raises(UnreadableCellError) as unreadable:
        table.look()
    cells = unreadable.value.cells
    assert cells and all(expected[cell] == rare for cell in cells)
    lost = table.read_lost(cells, {})
    assert lost is not None and lost.outcome is GameState.LOST and lost.pictures == {}
    expected[expected == rare] = Tile.OPENED
    assert np.array_equal(lost.board.tiles, expected)


def test_every_mine_drawn_as_the_one_hit_counts_as_a_mine_in_every_size_class() -> None:
    """A game that shows every mine of a loss as the one hit, on a board whose cells differ in
    size: the mines in cells of another size class than the one hit are another appearance of
    its picture. They were taken for numbers, and the numbers around them miscounted
    (DangerUXB: "appearance #8 would be a number from 0 to 0 ... and from 1 to 1")."""
    screen = DrawnGame(seed=2, numbers_per_size=True, reveal_on_loss=True)
    result = calibrated(screen, max_games=8)
    assert result.usable
    assert result.skin.extra["hit_mine_drawn_apart"] is False
    width, height = result.skin.tile_size
    for tile, template in result.skin.templates.items():
        drawn = Tile.MINE if tile == Tile.EXPLODED else tile  # every mine is drawn as a MINE
        assert np.array_equal(template, screen.skin.templates[drawn][:height, :width]), tile


def test_every_mine_counts_as_a_mine_where_wider_cells_are_padded_on_one_side() -> None:
    """As above, but the wider cells are padded next to their edge, not in their middle (a tk
    button centres no picture: DangerUXB): cut in the middle, as every cell is, a mine in a
    wider cell has the part between its middle and the pad a pixel off. Its pictures were 0.12
    to 0.43 apart in DangerUXB, far beyond the grouping tolerance, and were taken for numbers
    ("appearance #2 would be a number from 1 to 1 ... and from 0 to 0")."""
    screen = DrawnGame(seed=2, numbers_per_size=True, reveal_on_loss=True, widened_at=13)
    result = calibrated(screen, max_games=8)
    assert result.usable
    assert result.skin.extra["hit_mine_drawn_apart"] is False
    width, height = result.skin.tile_size
    for tile in result.skin.seen[0]:  # tiles met only on wider cells have those pictures
        drawn = Tile.MINE if tile == Tile.EXPLODED else tile
        expected = screen.skin.templates[drawn][:height, :width]
        assert np.array_equal(result.skin.templates[tile], expected), tile
    # A flag, which play places itself, reads on cells of every size class (each draws it
    # apart): wide along both axes, along y, along x, and neither.
    tiles = np.full((9, 9), Tile.HIDDEN, dtype=np.uint8)
    tiles[[0, 0, 5, 5], [0, 5, 0, 5]] = Tile.FLAG
    tiles[3, 2:8] = Tile.ZERO
    scene = synthetic.draw(
        screen.skin, tiles, DRAWN_BOARD_AT, DRAWN_SCREEN, edges=screen.edges, widened_at=13
    )
    reader = BoardReader(result.skin, locate(result.skin, scene.screen))
    frame = reader.region
    shown = reader.read(scene.screen[frame.top : frame.bottom, frame.left : frame.right], 10)
    assert np.array_equal(shown.board.tiles, tiles)


def test_a_game_that_shows_a_wrong_flag_as_its_number_on_a_loss_learns_no_number_as_one() -> None:
    """mfranceschi-minesweeper's loss shows every cell, a wrong flag as its cell's number:
    calibration kept a 4 first seen so as the WRONG_FLAG, and play stopped where a 4 opened
    ("the board shows WRONG_FLAG: the game is over"). No picture of a number is learned as
    the wrong flag, and every tile learned is the one the game draws. (Seed 36: one of 40 whose
    calibration flags a cell whose number it has not seen opened, and loses.)"""
    screen = DrawnGame(seed=36, reveal_on_loss=True, numbers_on_wrong_flags=True)
    result = calibrated(screen, max_games=10)
    assert screen.losses > 2 and result.usable
    skin = result.skin
    assert Tile.WRONG_FLAG not in skin.templates
    assert_learned_truly(result, screen, set(skin.templates) - {Tile.EXPLODED})
