"""ScreenTable on a skin calibration learned from a drawn game: play reads and starts games as
calibration saw them, and learns what it did not see."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from drawn_game import (
    DRAWN_BUTTON,
    DrawnGame,
    GuardedMouse,
    calibrated,
    dimmed_number,
    played_to_the_end,
    quick_waits,  # noqa: F401 (autouse: calibration's quick waits on a virtual clock)
)

from controller.errors import NotAsRead
from controller.loop import GamePlayer
from controller.outcomes import OutcomeLog, Result
from controller.screen_table import ScreenTable
from solver import Game, GameState, Tile
from vision.errors import UnreadableCellError
from vision.locate import locate


def test_play_learns_a_number_a_loss_draws_darker_as_that_number(tmp_path: Path) -> None:
    """gnome-mines' classic theme redraws the opened numbers darker on a loss: a loss showing
    a number calibration never saw so ended the game misread (4 of 6 runs of 20 games). The
    cell read as that number during play keeps it (an opened cell keeps its number): with
    the rest of the board read lost, play learns the picture as the number a finished game
    draws (:attr:`vision.skin.Skin.finished`), and the game is a loss."""
    screen = DrawnGame(seed=2, darkens_on_loss=True)
    result = calibrated(screen, max_games=8)
    skin = result.skin
    assert result.usable and screen.losses
    assert not any(tile.is_number for drawn in skin.finished.values() for tile in drawn)
    screen.darkens_numbers_on_loss = True  # as calibration never saw it
    screen.mines = 20  # games lost more often
    screen.start_new_game()
    geometry = locate(skin, screen.grab(), shape=(9, 9))
    mouse = GuardedMouse(screen)
    table = ScreenTable(screen, skin, geometry, mouse, 20, game="drawn", first_click="safe")
    records = played_to_the_end(table, 8, tmp_path)
    assert Result.LOST in {record.result for record in records}
    learned = {tile for drawn in skin.finished.values() for tile in drawn if tile.is_number}
    assert learned
    for drawn in skin.finished.values():
        for tile in learned & set(drawn):
            truth = dimmed_number(screen.skin.templates[tile])
            (x, y), (width, height) = skin.tile_offset, skin.tile_size
            assert np.array_equal(drawn[tile], truth[y : y + height, x : x + width]), tile


def test_play_found_on_part_of_a_lost_board_plays_the_whole_board_from_its_new_game(
    tmp_path: Path,
) -> None:
    """A board left lost with a picture the skin lacks on its edge (the mine hit drawn on
    another ground in the corner, gnome-mines' classic theme) is found only in part, the
    cells of that row left out: play went on to start a game there on a 7x8 board of an 8x8
    one. Each new game's board is looked for again: found part of a larger one, the larger
    one is played, from before the game's first click."""
    screen = DrawnGame(seed=2, numbers_per_size=True)  # cells of uneven sizes
    skin = calibrated(screen, max_games=6).skin
    layout = np.zeros((9, 9), dtype=bool)
    layout[0, 0] = layout[5, 5] = True
    screen.game = Game.from_layout(layout)
    screen.odd_losses = frozenset(range(100))  # every loss draws the mine hit unlike the skin's
    screen.click(*screen.scene().geometry.cell_centre((0, 0)))
    assert screen.game.state is GameState.LOST
    part = locate(skin, screen.grab())
    assert part.shape != (9, 9)
    clicks = screen.clicks
    mouse = GuardedMouse(screen)
    table = ScreenTable(screen, skin, part, mouse, 10, game="drawn", first_click="safe")
    with OutcomeLog(tmp_path / "outcomes.sqlite3") as log:
        player = GamePlayer(table, log, one_game_a_second=False)
        report = player.play_game()
        (moves,) = [log.moves(record.id) for record in log.games()]
    record = report.record
    assert (record.rows, record.columns) == (9, 9)
    assert record.result in (Result.WON, Result.LOST), report.reason
    assert screen.clicks == clicks + 1 + len(moves)  # the new game, on the face, then the game's


def test_a_new_game_after_a_loss_whose_corner_shows_a_picture_never_seen_is_started() -> None:
    """The mine hit drawn on another ground in the board's corner (gnome-mines' classic theme)
    reads, on the lost board, as an opened cell of a picture kept for that read only. The
    check before the new-game click, a corner as last read, refused it every time, and play
    stopped ("cell (0, 0) ... matches no tile of the skin"). The other two corners serve."""
    screen = DrawnGame(seed=2)
    skin = calibrated(screen, max_games=6).skin
    screen.start_new_game()
    geometry = locate(skin, screen.grab(), shape=(9, 9))
    layout = np.zeros((9, 9), dtype=bool)
    layout[0, 0] = layout[5, 5] = True
    screen.game = Game.from_layout(layout)
    screen.odd_losses = frozenset(range(100))  # every loss draws the mine hit unlike the skin's
    screen.click(*screen.scene().geometry.cell_centre((0, 0)))
    mouse = GuardedMouse(screen)
    table = ScreenTable(screen, skin, geometry, mouse, 10, game="drawn", first_click="safe")
    with pytest.raises(UnreadableCellError) as unreadable:
        table.look()
    assert unreadable.value.cells == ((0, 0),)
    lost = table.read_lost(unreadable.value.cells, {})
    assert lost is not None and lost.board[0, 0] == Tile.OPENED
    started = screen.new_games["face"]
    table.new_game()
    assert screen.new_games["face"] == started + 1


def test_play_clicks_a_new_game_point_only_while_it_shows_the_button_calibration_saw() -> None:
    screen = DrawnGame(seed=2, button=DRAWN_BUTTON)
    result = calibrated(screen, max_games=4, new_game_at=DRAWN_BUTTON.centre)
    assert result.skin.buttons
    mouse = GuardedMouse(screen)
    geometry = locate(result.skin, screen.grab(), shape=(9, 9))
    table = ScreenTable(screen, result.skin, geometry, mouse, 10, game="drawn", first_click="safe")
    table.look()
    clicked = screen.new_games["button"]
    screen.button_grey = 90  # the window now shows another button there (say, "Quit")
    with pytest.raises(NotAsRead, match=r"new-game button at screen \(265, 280\) differs"):
        table.new_game()
    assert screen.new_games["button"] == clicked
