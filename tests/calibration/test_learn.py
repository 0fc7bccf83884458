"""Calibration (calibration/learn.py): the skin built from what the games taught, its threshold,
and whole calibrations of games drawn in memory, each a quirk a real game showed."""

from __future__ import annotations

import logging
import time
from dataclasses import replace
from pathlib import Path
from typing import Any, cast

import numpy as np
import pytest
from drawn_boards import focus_ring
from drawn_game import (
    DRAWN_BOARD_AT,
    DRAWN_BUTTON,
    DRAWN_SCREEN,
    DRAWN_WINDOW,
    MENU_BUTTONS,
    MESSAGE_SHOWN,
    STUCK_REPAINT,
    WIN_MESSAGE_SHOWN,
    DrawnGame,
    GuardedMouse,
    RefusingPointer,
    assert_learned_truly,
    calibrated,
    played_to_the_end,
    quick_waits,  # noqa: F401 (autouse: calibration's quick waits on a virtual clock)
)

from calibration import hidden_tile, new_game_ways
from calibration import learn as learn_module
from calibration.catalogue import GROUPING_TOLERANCE
from calibration.errors import CalibrationError, OutOfTimeError
from calibration.labels import Word
from calibration.learn import SET_ASIDE, WIN_ATTEMPTS, Calibration, calibrate
from calibration.meanings import Meanings, board_of
from calibration.record import PlayedGame
from calibration.session import CalibrationPlayer
from controller.errors import NotAsRead
from controller.outcomes import Result
from controller.relaid import followed
from controller.screen_table import ScreenTable
from solver import Game, GameState, Tile
from solver.engine import neighbour_counts
from vision import synthetic
from vision.errors import UnreadableCellError
from vision.geometry import Rect
from vision.locate import locate
from vision.match import TemplateBank
from vision.new_game import NewGame
from vision.read import BoardReader
from vision.skin import MAX_SLACK, Skin

# -- a whole calibration on a drawn game ------------------------------------------------------


def test_a_drawn_game_teaches_its_tiles_faces_and_first_click_rule_by_clicks_alone() -> None:
    screen = DrawnGame(seed=2, rule="opening")
    result = calibrated(screen, max_games=8)
    assert result.games > 8, "no game was played to win after the random ones"
    assert screen.clicks > 3
    learned = result.skin.templates
    assert {Tile.HIDDEN, Tile.FLAG, Tile.MINE, Tile.EXPLODED, Tile.ONE} <= set(learned)
    assert_learned_truly(result, screen, learned)
    assert sorted(result.skin.faces) == ["lost", "playing", "won"]
    for state, picture in result.skin.faces.items():
        assert np.array_equal(picture, screen.skin.faces[state]), state
    assert result.missing_faces == []
    assert result.skin.new_game == NewGame("face")
    assert Tile.QUESTION not in result.missing_tiles
    assert result.skin.extra["first_click"] == "opening"
    assert result.skin.mines_for(9, 9) == 10  # the count calibration was told
    assert "animation_still" not in result.skin.extra  # it draws each click at once


@pytest.mark.parametrize("step", [0.1, 0.25])
def test_a_game_that_animates_its_flood_a_ring_at_a_time_is_learned(step: float) -> None:
    """A game that draws what a click opened a ring of cells at a time, ``step`` seconds apart
    (issue 49 item 5): each click is judged by the board once the animation has settled, not
    by its first frame."""
    screen = DrawnGame(seed=2, rule="opening", flood_step=step)
    result = calibrated(screen, max_games=8)
    assert {Tile.HIDDEN, Tile.FLAG, Tile.MINE, Tile.EXPLODED, Tile.ONE} <= set(
        result.skin.templates
    )
    assert result.skin.extra["animation_still"] > step  # play's reads wait that long too
    assert_learned_truly(result, screen, result.skin.templates)


@pytest.mark.parametrize("step", [0.1, 0.25])
def test_a_game_that_animates_its_flood_is_played_from_boards_that_settled(
    step: float, tmp_path: Path
) -> None:
    """Play on the same game (issue 49 item 5, in play): every game ends won or lost as the
    game says, none stopped, from reads of the board once its animation settled."""
    screen = DrawnGame(seed=2, rule="opening", flood_step=step)
    skin = calibrated(screen, max_games=8).skin
    screen.start_new_game()
    geometry = locate(skin, screen.grab(), shape=(9, 9))
    table = ScreenTable(
        screen, skin, geometry, GuardedMouse(screen), 10, game="drawn", first_click="opening"
    )
    ended_before = len(screen.endings)
    records = played_to_the_end(table, 4, tmp_path)
    assert [r.result for r in records] == [
        Result.WON if state is GameState.WON else Result.LOST
        for state in screen.endings[ended_before:]
    ]


def test_a_game_whose_columns_widen_as_their_cells_open_is_learned() -> None:
    """A grid of toolkit buttons sized by their content: a column with an opened cell widens
    (16 -> 21 px) and the columns right of it move (issue 49 item 1). Cells are followed by
    their place in the grid while their pixels move: read at their fresh pixels, a click
    seemed to change cells it never reached, and calibration gave up."""
    screen = DrawnGame(seed=2, button=DRAWN_BUTTON, faceless=True, widen_opened_columns=5)
    result = calibrated(screen, max_games=8, new_game_at=DRAWN_BUTTON.centre)
    assert {Tile.HIDDEN, Tile.FLAG, Tile.ONE} <= set(result.skin.templates)
    assert_learned_truly(result, screen, result.skin.templates)
    assert result.skin.extra["relayout"] is True


def test_a_game_whose_columns_widen_as_their_cells_open_is_played(tmp_path: Path) -> None:
    """Play follows the cells of a board that re-lays itself out, as calibration does: it reads
    each cell at its place in the grid and clicks it where it is now."""
    screen = DrawnGame(seed=2, button=DRAWN_BUTTON, faceless=True, widen_opened_columns=5)
    result = calibrated(screen, max_games=8, new_game_at=DRAWN_BUTTON.centre)
    screen.start_new_game()
    geometry = locate(result.skin, screen.grab(), shape=(9, 9))
    relaid, mouse = followed(screen, GuardedMouse(screen), result.skin, geometry)
    table = ScreenTable(relaid, result.skin, geometry, mouse, 10, game="drawn", first_click="safe")
    records = played_to_the_end(table, 6, tmp_path)
    assert len(records) == 6 and Result.WON in {record.result for record in records}


def test_a_game_whose_face_shows_its_won_picture_at_launch_learns_its_playing_face() -> None:
    """minesweeper 0.1.4 (PyPI) grins at launch as it does on a win, and shows another face
    once a game is under way: taken from the launch frame, the grin stood for "playing", no
    face read during play matched, every click was probed and no cell was ever marked."""
    screen = DrawnGame(seed=2, rule="opening", won_face_at_launch=True)
    result = calibrated(screen, max_games=8)
    assert result.missing_faces == []
    for state, picture in result.skin.faces.items():
        assert np.array_equal(picture, screen.skin.faces[state]), state
    assert Tile.FLAG in result.skin.templates
    assert_learned_truly(result, screen, result.skin.templates)


def test_a_calibration_that_never_marked_a_cell_says_so_instead_of_asking_for_more_games() -> None:
    """Every click probed, no game reached its turn to mark: "try more --max-games" sent the
    user to play longer where more games would have shown no flag either (issue 49 item 8)."""
    never = Calibration(synthetic.make_skin(16), cast(Meanings, None), 28, [Tile.FLAG], probes=40)
    assert "no cell was ever right-clicked" in never.advice()
    assert "40 clicks were probed" in never.advice()
    assert "--max-games" not in never.advice()
    marked = replace(never, marks=3)
    assert "--max-games" in marked.advice()


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


def test_calibration_stops_playing_to_win_when_its_time_is_spent(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(learn_module, "WIN_SECONDS", 0.0)
    screen = DrawnGame(seed=2, rule="opening")
    result = calibrated(screen, max_games=8)
    assert result.games == 8
    assert result.missing_faces == ["won"]
    assert_learned_truly(result, screen, result.skin.templates)


def test_a_game_whose_won_face_is_its_playing_face_is_not_played_to_win_again_and_again() -> None:
    """PyMines keeps its playing face on a won board (it never says a game is won): every game
    calibration played to win waited 5 s for a won face and the next began, until its 45 s
    were spent. Two wins that show no face of their own say the game has none."""
    screen = DrawnGame(seed=2, rule="opening", won_face=False)
    result = calibrated(screen, max_games=8)
    played_to_win = screen.new_games["face"] - 7  # after the random games' new games
    assert result.missing_faces == ["won"]
    assert 2 <= played_to_win < WIN_ATTEMPTS, played_to_win
    assert_learned_truly(result, screen, result.skin.templates)


def test_a_game_left_fresh_for_lack_of_time_is_not_started_anew(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Calibration leaves a fresh board for play: when the time to play to win ran out just as
    a new game began, the board is fresh already. Starting one more found that no way changed
    it, and went on to try every key (PyMines, 12 s)."""

    def out_of_time(
        self: CalibrationPlayer, meanings: Meanings, mines: int, deadline: float
    ) -> PlayedGame:
        time.sleep(max(0.0, deadline - time.monotonic()))
        raise OutOfTimeError("left after 0 clicks")

    monkeypatch.setattr(CalibrationPlayer, "play_to_win", out_of_time)
    monkeypatch.setattr(learn_module, "WIN_SECONDS", 1.0)
    screen = DrawnGame(seed=2, rule="opening")
    result = calibrated(screen, max_games=8)
    assert screen.keys == []
    assert result.skin.new_game == NewGame("face")


def test_a_dialog_drawn_over_the_dimmed_window_at_a_game_s_end_is_answered() -> None:
    """A game drawn in a browser dims its window under a dialog when a game ends: calibration
    answers it with its "Cancel" (never "OK" first), and learns the won face and the face as
    the new-game way as if there were no dialog."""
    screen = DrawnGame(seed=2, veiled_dialog_on_end=("Cancel", "OK"))
    result = calibrated(screen, max_games=8)
    assert screen.answers and set(screen.answers) == {"Cancel"}
    assert sorted(result.skin.faces) == ["lost", "playing", "won"]
    assert result.skin.new_game == NewGame("face")
    assert_learned_truly(result, screen, result.skin.templates)


def test_a_late_ok_only_dialog_and_no_mark_before_a_game_begins_do_not_stop_calibration() -> None:
    """A game in a browser that says "Boom!" in a dialog with only an "OK" a moment after a
    loss is drawn, and takes no flag before its first click: calibration answers the dialog,
    and marks cells only once a game has begun."""
    screen = DrawnGame(
        seed=2, veiled_dialog_on_end=("OK",), veiled_dialog_after=0.3, marks_before_start=False
    )
    result = calibrated(screen, max_games=8)
    assert screen.answers and set(screen.answers) == {"OK"}
    assert result.skin.new_game == NewGame("face")
    assert {Tile.FLAG, Tile.MINE, Tile.EXPLODED} <= set(result.skin.templates)
    assert_learned_truly(result, screen, result.skin.templates)


def test_a_board_a_finished_game_pushes_down_the_window_is_followed() -> None:
    """A page that writes its end message above the board pushes the board down by part of a
    cell when a game ends, and back up on a new game: calibration follows it there and back,
    and learns every tile as drawn."""
    screen = DrawnGame(seed=2, board_drop=11)
    result = calibrated(screen, max_games=8)
    assert {Tile.FLAG, Tile.MINE, Tile.EXPLODED, Tile.ONE} <= set(result.skin.templates)
    assert_learned_truly(result, screen, result.skin.templates)
    assert sorted(result.skin.faces) == ["lost", "playing", "won"]


def test_a_new_game_that_blanks_the_board_a_while_first_is_waited_for() -> None:
    """minesweeper-python's Restart takes the old window's board down and draws a new window a
    moment later: calibration read the blank window as the board "changed into something that is
    not a new game" and stopped. A board gone blank is waited for."""
    screen = DrawnGame(seed=2, blank_new_game=1.0)
    result = calibrated(screen, max_games=4)
    assert result.skin.new_game == NewGame("face")
    assert screen.new_games["face"] >= 2
    assert_learned_truly(result, screen, result.skin.templates)


def test_a_new_game_button_the_user_names_is_the_skins_way_and_play_clicks_it_there() -> None:
    screen = DrawnGame(seed=2, button=DRAWN_BUTTON)
    result = calibrated(screen, max_games=4, new_game_at=DRAWN_BUTTON.centre)
    assert screen.new_games == {"face": 0, "button": screen.new_games["button"]}
    assert screen.new_games["button"] >= 4
    board = screen.scene().geometry
    at = (DRAWN_BUTTON.centre[0] - board.left, DRAWN_BUTTON.centre[1] - board.top)
    assert result.skin.new_game == NewGame("point", at=at)
    # Play, from the board it finds, clicks the button where it is and nowhere else off the board.
    mouse = GuardedMouse(screen)
    geometry = locate(result.skin, screen.grab(), shape=(9, 9))
    table = ScreenTable(screen, result.skin, geometry, mouse, 10, game="drawn", first_click="safe")
    table.look()
    table.new_game()
    assert screen.new_games["button"] >= 5 and screen.new_games["face"] == 0


def test_a_new_game_button_that_shows_how_the_game_ended_is_clicked_after_a_win(
    tmp_path: Path,
) -> None:
    """DangerUXB's Start button is a face: surprised after a loss, grinning after a win. Play
    used to stop after its first win ("differs from the one calibration saw"): calibration kept
    the look of the button before the first click that started a game, after a loss. Now it
    keeps each look that started a game, plays to win to see the button after a win, and play
    clicks the button after either."""
    screen = DrawnGame(seed=2, button=DRAWN_BUTTON, faceless=True, button_shows_state=True)
    result = calibrated(screen, max_games=4, new_game_at=DRAWN_BUTTON.centre)
    geometry = locate(result.skin, screen.grab(), shape=(9, 9))
    mouse = GuardedMouse(screen)
    table = ScreenTable(screen, result.skin, geometry, mouse, 10, game="drawn", first_click="safe")
    records = played_to_the_end(table, 6, tmp_path)
    assert len(records) == 6 and Result.WON in {record.result for record in records}
    assert len(result.skin.buttons) == 2  # after a loss, after a win


def test_a_won_game_under_a_message_that_goes_by_itself_is_told_won(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """kmines writes "Congratulations! You have won!" over its board for four seconds. With no
    face to tell the win, a game played to win read the board under it, met pictures never
    seen, and stopped: calibration never saw a win, nor the button after one. The board is
    now read again once the message has gone."""
    screen = DrawnGame(
        seed=2,
        button=DRAWN_BUTTON,
        faceless=True,
        button_shows_state=True,
        message_on_win=WIN_MESSAGE_SHOWN,
    )
    with caplog.at_level(logging.INFO):
        result = calibrated(screen, max_games=4, new_game_at=DRAWN_BUTTON.centre)
    assert "stopped a game played to win" not in caplog.text
    assert len(result.skin.buttons) == 2  # after a loss, after a win
    assert_learned_truly(result, screen, result.skin.templates)


def test_a_game_won_at_random_under_a_message_is_recorded_as_the_board_shows_after_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A sparse board is won now and then by random clicks, and kmines then writes its message
    over the board for four seconds. Calibration recorded the won board as the message covered
    it, pictures of the message among its cells (a CI run of kmines: the board the last game
    left could then not be found with the skin). A won board is now recorded once a message
    over it has gone: every cell of it shows a picture learned."""
    games: list[PlayedGame] = []
    real_learn = learn_module._Learner._learn

    def learn(learner: Any, player: CalibrationPlayer, game: PlayedGame) -> None:
        games.append(game)
        real_learn(learner, player, game)

    monkeypatch.setattr(learn_module._Learner, "_learn", learn)
    screen = DrawnGame(
        seed=2,
        faceless=True,
        message_on_loss=MESSAGE_SHOWN,
        message_on_win=WIN_MESSAGE_SHOWN,
        mines=3,
        new_game_keys=("f2",),
    )
    result = calibrate(
        "drawn", screen, screen, [DRAWN_WINDOW], mines=[3], max_games=12, seed=1, progress=False
    )
    won = [game for game in games if game.state is GameState.WON]
    assert won
    for game in won:
        board_of(game.steps[-1].after, result.meanings)  # raises on a picture not learned
    assert_learned_truly(result, screen, result.skin.templates)


def test_a_game_played_to_win_left_before_its_end_is_not_started_anew_by_a_button(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """gnome-mines' "Play Again" shows only once a game is over. A game played to win that was
    stopped (out of time, or a picture not learned yet) left a game in progress, and the next
    new game clicked the button there for nothing, then pressed every key and would have
    clicked every place the game had changed ("cannot start a new game"). On a game perhaps not
    over, calibration now tries only the way that worked (kmines' won board, drawn anew, starts
    one), and when it does not, stops playing to win and leaves the board as it is."""
    original = CalibrationPlayer.play_to_win

    def out_of_time_after_a_click(
        self: CalibrationPlayer, meanings: Meanings, mines: int, deadline: float
    ) -> PlayedGame:
        return original(self, meanings, mines, deadline=time.monotonic() + 0.05)

    monkeypatch.setattr(CalibrationPlayer, "play_to_win", out_of_time_after_a_click)
    screen = DrawnGame(seed=2, button=DRAWN_BUTTON, faceless=True, button_only_when_over=True)
    result = calibrated(screen, max_games=4, new_game_at=DRAWN_BUTTON.centre)
    assert result.usable and result.skin.new_game.kind == "point"
    assert screen.game.state is GameState.PLAYING and screen.clicks > 0
    assert screen.keys == [] and 1 <= screen.button_clicks_ignored <= 2


def test_a_button_a_finished_game_relabels_is_found_tried_after_its_message_and_played() -> None:
    """A game with no face and no key: the button beside the board that reads differently once
    a game is over is found by itself, after a click on the message that also appeared there
    did nothing, and play starts each new game there."""
    label = Rect(252, 130, 40, 10)
    screen = DrawnGame(
        seed=2, button=DRAWN_BUTTON, faceless=True, relabel_button=True, end_label=label
    )
    result = calibrated(screen, max_games=4)
    board = screen.scene().geometry
    assert board.face is None
    at = (DRAWN_BUTTON.centre[0] - board.left, DRAWN_BUTTON.centre[1] - board.top)
    assert result.skin.new_game == NewGame("point", at=at)
    assert screen.label_clicks == 1  # tried once, before the button: never again
    assert screen.new_games == {"face": 0, "button": screen.new_games["button"]}
    assert screen.new_games["button"] >= 4
    mouse = GuardedMouse(screen)
    geometry = locate(result.skin, screen.grab(), shape=(9, 9))
    table = ScreenTable(screen, result.skin, geometry, mouse, 10, game="drawn", first_click="safe")
    table.look()
    clicked = screen.new_games["button"]
    with pytest.raises(NotAsRead, match="new-game button"):  # it reads "Start Over" in play
        table.new_game()
    for cell in np.ndindex(9, 9):  # the game ends
        if screen.game.state is GameState.PLAYING:
            screen.click(*geometry.cell_centre(cell))
    table.look()
    table.new_game()
    assert screen.new_games["button"] == clicked + 1


def test_a_game_whose_end_takes_its_board_away_for_a_menu_starts_anew_by_its_button() -> None:
    """A game may paint its whole window over with "YOU LOSE!" (no mine shown), then show a
    menu with no board, whose level button brings a board of the same size back. Calibration
    read the vanished board as a loss that showed every cell, set the game aside, and found no
    way to a new game. Now a board gone ends the game (a loss where more cells than the mines
    were left unopened), and the menu's labelled button, clicked once the menu shows, is the new
    game; no mine is asked of a game that never shows one."""
    screen = DrawnGame(seed=2, faceless=True, menu_on_end=MESSAGE_SHOWN)
    result = calibrated(screen, max_games=4)
    board = screen.scene().geometry
    at = result.skin.new_game.at
    assert result.skin.new_game.kind == "point" and at is not None
    assert MENU_BUTTONS["Easy"].contains(board.left + at[0], board.top + at[1])
    assert screen.new_games["button"] >= 4 and set(screen.menu_clicks) == {"Easy"}
    assert result.usable, result.describe_missing()


def test_play_starts_each_game_by_the_menu_button_of_a_game_whose_end_takes_its_board_away(
    tmp_path: Path,
) -> None:
    """Play reads a board gone after a click as the game's end, as the game ended it (a won
    game with flags on its mines, or finished by a flood, was once read lost), never as a
    misread, and clicks the menu's button once it shows (the drawn game fails a click while
    its message shows). How a loss is told: tests/controller/test_reading.py."""
    screen = DrawnGame(seed=2, faceless=True, menu_on_end=MESSAGE_SHOWN)
    result = calibrated(screen, max_games=4)
    geometry = locate(result.skin, screen.grab(), shape=(9, 9))
    mouse = GuardedMouse(screen)
    table = ScreenTable(screen, result.skin, geometry, mouse, 10, game="drawn", first_click="safe")
    clicked, ended_before = len(screen.menu_clicks), len(screen.endings)
    records = played_to_the_end(table, 8, tmp_path)
    assert [record.result for record in records] == [
        Result.WON if state is GameState.WON else Result.LOST
        for state in screen.endings[ended_before:]
    ]
    assert len(screen.menu_clicks) >= clicked + 7


def test_a_labelled_button_is_tried_before_the_keys_a_browser_takes_for_its_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """In a browser Ctrl+R reloads the page (the game in it starts over as the page likes, its
    settings lost) and Ctrl+N opens another window: a game with a "Restart" button beside its
    board is started there, and neither key is pressed."""
    screen = DrawnGame(
        seed=2, button=DRAWN_BUTTON, faceless=True, new_game_keys=("ctrl+r", "ctrl+n")
    )
    left, top = DRAWN_BUTTON.left - DRAWN_WINDOW.left, DRAWN_BUTTON.top - DRAWN_WINDOW.top
    label = Word("restart", Rect(left + 4, top + 5, 22, 10), (1, 1, 1))
    monkeypatch.setattr(new_game_ways, "read_words", lambda frame, blank: [label])
    result = calibrated(screen, max_games=4)
    board = screen.scene().geometry
    at = (
        label.rect.centre[0] + DRAWN_WINDOW.left - board.left,
        label.rect.centre[1] + DRAWN_WINDOW.top - board.top,
    )
    assert result.skin.new_game == NewGame("point", at=at)
    assert set(screen.keys) == {"f2", "n"}
    assert screen.new_games["button"] >= 4


def test_a_button_that_reads_the_same_during_play_and_after_is_not_clicked_by_itself() -> None:
    screen = DrawnGame(seed=2, button=DRAWN_BUTTON, faceless=True)
    with pytest.raises(CalibrationError, match="cannot start a new game"):
        calibrated(screen, max_games=4)
    assert screen.new_games == {"face": 0, "button": 0}


def test_a_won_game_that_leaves_its_mines_hidden_is_told_by_its_face() -> None:
    """A game whose win leaves the mines not flagged hidden, and then takes no click: only its
    face says it is over, with a picture not seen before; calibration learns that face as the
    won one instead of playing on into a finished game."""
    screen = DrawnGame(seed=2, won_leaves_mines_hidden=True)
    result = calibrated(screen, max_games=8)
    assert result.usable and "won" in result.skin.faces
    assert np.array_equal(result.skin.faces["won"], screen.skin.faces["won"])


def test_a_window_that_shows_part_of_the_board_is_refused_after_its_first_click() -> None:
    # The drawn board spans x 100 to 244: a window ending at x 236 shows half its last column.
    screen = DrawnGame(seed=2)
    with pytest.raises(CalibrationError, match="runs past its right edge .* enlarge the window"):
        calibrated(screen, max_games=4, window=Rect(60, 60, 176, 240))
    assert screen.clicks == 1  # the click that found the hidden tile


def test_a_game_whose_numbers_paint_the_cells_below_is_learned_from_the_rest_of_the_cells() -> None:
    """Each number paints the top 3 lines of the hidden cell below it: calibration leaves
    them out of what it compares (reading the games played so far again), so the hidden tile is one
    appearance, and the skin it saves reads such a board right."""
    screen = DrawnGame(seed=2, paint_below=3)
    result = calibrated(screen, max_games=12)
    skin = result.skin
    assert result.usable and skin.tile_offset[1] >= 3 + 2, skin.tile_offset
    (x, y), (width, height) = skin.tile_offset, skin.tile_size
    for tile, template in skin.templates.items():
        assert np.array_equal(template, screen.skin.templates[tile][y : y + height, x : x + width])
    screen.game = Game(9, 9, 10, rule="opening", seed=7)
    screen.game.open((4, 4))
    tiles = screen.game.board.tiles
    numbers = (tiles[:-1] >= Tile.ONE) & (tiles[:-1] <= Tile.EIGHT)
    assert (numbers & (tiles[1:] == Tile.HIDDEN)).sum() > 3  # hidden cells painted over
    frame = screen.grab()
    reader = BoardReader(skin, locate(skin, frame))
    region = reader.region
    shown = reader.read(frame[region.top : region.bottom, region.left : region.right], 10)
    assert np.array_equal(shown.board.tiles, screen.game.board.tiles)


def test_games_learned_before_calibration_compares_a_smaller_part_of_the_cells_are_kept() -> None:
    """Numbers start painting into the cells below only once the games played to win have
    begun (a paint first caught there). Calibration then compares less of each cell, and reads
    the games played so far again that way: it forgot them all, and with no random game left
    to play, it ended with nothing learned (an xdemineur Expert calibration in a slow test run:
    "the games never showed tiles ZERO, ONE, ..." after its one start-over)."""
    screen = DrawnGame(seed=2, paint_below=3, paint_from_game=7)
    result = calibrated(screen, max_games=6)
    assert screen.games > 7, "no game was played to win after the random ones"
    assert result.skin.tile_offset[1] >= 3 + 2, "calibration compares the painted band still"
    assert result.usable, result.describe_missing()
    (x, y), (width, height) = result.skin.tile_offset, result.skin.tile_size
    for tile, template in result.skin.templates.items():
        expected = screen.skin.templates[tile][y : y + height, x : x + width]
        assert np.array_equal(template, expected), tile


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


def test_a_focus_ring_is_left_out_of_the_tiles_compared_and_play_reads_through_it(
    tmp_path: Path,
) -> None:
    """The ring on the cell clicked last made each tile two appearances ("the number pictures
    cannot show distinct numbers", DangerUXB's tk buttons). Calibration learns the ring's pixels
    from the cell it moves off, leaves them out of every comparison, and saves them as the
    skin's mask; play then reads the cell clicked last, ring and all."""
    screen = DrawnGame(seed=2, focus_ring=True)
    result = calibrated(screen, max_games=8)
    skin = result.skin
    assert result.usable and skin.mask is not None
    (x, y), (width, height) = skin.tile_offset, skin.tile_size
    ringed = np.full((16, 16, 3), 255, dtype=np.uint8)
    focus_ring(ringed[:15, :15])
    ring = (ringed != 255).any(axis=2)[y : y + height, x : x + width]
    assert not (skin.mask & ring).any(), "a pixel of the ring is compared"
    assert skin.mask.mean() >= 0.5
    for tile, template in skin.templates.items():
        expected = screen.skin.templates[tile][y : y + height, x : x + width]
        assert np.array_equal(template[skin.mask], expected[skin.mask]), tile
    screen.start_new_game()
    mouse = GuardedMouse(screen)
    geometry = locate(skin, screen.grab(), shape=(9, 9))
    table = ScreenTable(screen, skin, geometry, mouse, 10, game="drawn", first_click="safe")
    records = played_to_the_end(table, 3, tmp_path)
    assert len(records) == 3 and {r.result for r in records} <= {Result.WON, Result.LOST}


def test_a_new_game_point_not_beside_the_board_in_its_window_is_refused() -> None:
    for point in [(150, 150), (350, 150)]:
        screen = DrawnGame(seed=2, button=DRAWN_BUTTON)
        with pytest.raises(CalibrationError, match=rf"new-game point \({point[0]}, {point[1]}\)"):
            calibrated(screen, max_games=2, new_game_at=point)
        assert screen.clicks <= hidden_tile.HIDDEN_CANDIDATES  # only those that found the board
        assert screen.new_games == {"face": 0, "button": 0}


def test_a_dialog_over_a_lost_board_is_closed_before_the_board_is_read_or_clicked() -> None:
    screen = DrawnGame(seed=2, dialog_on_loss=True)
    result = calibrated(screen, max_games=8)
    assert screen.losses > 0 and screen.dialogs_closed == screen.losses
    assert result.usable and result.skin.new_game == NewGame("face")
    assert_learned_truly(result, screen, result.skin.templates)
    assert result.skin.extra.get("first_click") in (None, "safe")


def test_one_early_game_that_every_later_one_contradicts_is_outvoted(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The first loss draws the mine hit in a way no other shows: each later loss then says
    EXPLODED looks otherwise. Once more games disagree with that one than calibration sets
    aside, the odd game is set aside in their stead and they are learned."""
    screen = DrawnGame(seed=2, odd_losses=frozenset({1}))
    result = calibrated(screen, max_games=12)
    assert screen.losses > learn_module.SET_ASIDE + 2
    assert "outvoted" in caplog.text
    assert_learned_truly(result, screen, result.skin.templates)
    assert Tile.EXPLODED in result.skin.templates


def test_a_board_found_in_part_at_first_is_found_whole_when_a_new_game_shows_the_rest(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The first frame showed only the top six rows (the rest not drawn yet, as a window
    another one lay over may be on a busy machine): the first new game shows hidden tiles
    below the board found, and calibration starts the window over on the whole board, the
    games of the part forgotten (they counted mines they could not see)."""
    screen = DrawnGame(seed=2, rows_covered_at_first=3)
    result = calibrated(screen, max_games=8)
    assert "starts over on the whole board" in caplog.text
    assert result.usable and result.games >= 8
    assert_learned_truly(result, screen, result.skin.templates)


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


def test_a_question_mark_drawn_almost_as_the_flag_is_learned_apart_from_it() -> None:
    screen = DrawnGame(seed=2, question_like_flag=True)
    flag, question = (screen.skin.templates[tile] for tile in (Tile.FLAG, Tile.QUESTION))
    assert 0 < TemplateBank([0], [flag]).distances(question[None])[0, 0] < GROUPING_TOLERANCE
    result = calibrated(screen, max_games=8)
    assert_learned_truly(result, screen, (Tile.FLAG, Tile.QUESTION))


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


def test_numbers_drawn_differently_in_wider_cells_are_learned_per_size_class(
    tmp_path: Path,
) -> None:
    screen = DrawnGame(seed=2, numbers_per_size=True)
    result = calibrate(
        "drawn", screen, screen, [Rect(60, 60, 240, 240)], mines=[10], max_games=8, seed=1
    )
    assert result.usable
    skin, truth = result.skin, screen.skin
    width, height = skin.tile_size
    assert skin.slack == (MAX_SLACK, MAX_SLACK)
    for tile, template in skin.templates.items():
        assert np.array_equal(template, truth.templates[tile][:height, :width]), tile
    assert skin.variants, "no number was learned apart for wider cells"
    for size_class, variants in skin.variants.items():
        for tile, template in variants.items():
            drawn = truth.variants[size_class][tile][:height, :width]
            assert np.array_equal(template, drawn), (size_class, tile)
    scene = synthetic.draw(
        truth, revealed_board(seed=4), DRAWN_BOARD_AT, DRAWN_SCREEN, edges=screen.edges
    )
    skin = Skin.load(skin.save(tmp_path / "drawn"))  # the variants are saved and loaded
    assert {c: set(v) for c, v in skin.variants.items()} == {
        c: set(v) for c, v in result.skin.variants.items()
    }
    assert skin.seen == result.skin.seen
    for size_class, variants in skin.variants.items():  # each class saw its own pictures
        assert set(variants) <= skin.seen[size_class]
    assert Tile.HIDDEN in set.intersection(*skin.seen.values())
    geometry = locate(skin, scene.screen)
    reader = BoardReader(skin, geometry)
    frame = reader.region
    shown = reader.read(scene.screen[frame.top : frame.bottom, frame.left : frame.right], 10)
    assert np.array_equal(shown.board.tiles, revealed_board(seed=4))


def revealed_board(seed: int) -> np.ndarray:
    """A 9x9 board with 10 mines left hidden and every other cell opened: numbers in cells of
    every size class."""
    mines = np.zeros((9, 9), dtype=bool)
    mines.flat[np.random.default_rng(seed).choice(81, 10, replace=False)] = True
    return np.where(mines, Tile.HIDDEN, neighbour_counts(mines)).astype(np.uint8)


def test_no_window_to_calibrate_is_an_error_before_any_click() -> None:
    with pytest.raises(CalibrationError, match="no game window to calibrate"):
        calibrate("none", RefusingPointer(), DrawnGame(seed=0), [], progress=False)


def test_a_first_click_that_loses_the_game_is_told_as_such() -> None:
    """A game with no safe first click may lose on calibration's first click and show every
    cell (DangerUXB at Beginner, one time in six): the board cannot be found from that click,
    and the user is told to start a new game and calibrate again, not that no board is there."""
    screen = DrawnGame(seed=10, rule="none", reveal_on_loss=True)
    lost_on_first_click = r"first click, .* changed every hidden cell .* if it lost the game"
    with pytest.raises(CalibrationError, match=lost_on_first_click):
        calibrated(screen, max_games=2)
    assert screen.clicks == 1


def test_a_mine_count_the_board_cannot_hold_is_refused_before_any_game_is_played() -> None:
    """Told 99 mines for a 9x9 window, calibration played 40 s of random games before saying
    the mines do not fit; it says so once the board is found."""
    screen = DrawnGame(seed=2)
    started = time.monotonic()
    with pytest.raises(CalibrationError, match=r"99 mines do not fit in the 9x9 board in window"):
        calibrate("drawn", screen, screen, [DRAWN_WINDOW], mines=[99], max_games=8, seed=1)
    assert screen.games == 1 and time.monotonic() - started < 5
