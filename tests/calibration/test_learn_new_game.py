"""Calibration of drawn games by how a new game starts and how a finished game looks: a board
that moves or blanks, a button the user names or one that shows the end, a message over a
won board, a menu in place of the board."""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from drawn_game import (
    DRAWN_BUTTON,
    DRAWN_WINDOW,
    MENU_BUTTONS,
    MESSAGE_SHOWN,
    WIN_MESSAGE_SHOWN,
    DrawnGame,
    GuardedMouse,
    assert_learned_truly,
    calibrated,
    played_to_the_end,
    quick_waits,  # noqa: F401 (autouse: calibration's quick waits on a virtual clock)
)

from calibration import learn as learn_module
from calibration import new_game_ways
from calibration.errors import CalibrationError
from calibration.labels import Word
from calibration.learn import calibrate
from calibration.meanings import Meanings, board_of
from calibration.record import PlayedGame
from calibration.session import CalibrationPlayer
from controller.outcomes import Result
from controller.screen_table import ScreenTable
from solver import GameState, Tile
from vision.geometry import Rect
from vision.locate import locate
from vision.new_game import NewGame


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
    assert len(result.skin.buttons) == 3  # after a loss, after a win, in play


def test_a_new_game_button_that_shows_how_the_game_goes_is_clicked_on_a_game_in_progress(
    tmp_path: Path,
) -> None:
    """UXBgtk's new game is its smiley, which frowns on a loss. Calibration kept its looks
    before the clicks that started new games (after games' ends), and play, starting on a board
    a game was going on in, stopped before its first click: "the new-game button ... differs
    from each look calibration saw there". The look a new game leaves at the point (the button
    in play) is the same button: kept too."""
    screen = DrawnGame(seed=2, button=DRAWN_BUTTON, faceless=True, button_shows_state=True)
    result = calibrated(screen, max_games=4, new_game_at=DRAWN_BUTTON.centre)
    geometry = locate(result.skin, screen.grab(), shape=(9, 9))
    screen.click(*geometry.cell_centre((4, 4)), "left")  # a first click: safe
    assert (screen.game.board.tiles != Tile.HIDDEN).any()
    mouse = GuardedMouse(screen)
    table = ScreenTable(screen, result.skin, geometry, mouse, 10, game="drawn", first_click="safe")
    assert table.look().outcome is GameState.PLAYING  # play reads the board it found first
    table.new_game()
    assert (screen.game.board.tiles == Tile.HIDDEN).all()


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
    assert len(result.skin.buttons) == 3  # after a loss, after a win, in play
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
    for _ in range(2):  # in play it reads "Start Over", as each new game left it
        table.look()
        clicked = screen.new_games["button"]
        table.new_game()
        assert screen.new_games["button"] == clicked + 1
        for cell in np.ndindex(9, 9):  # the game ends
            if screen.game.state is GameState.PLAYING:
                screen.click(*geometry.cell_centre(cell))


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


def test_the_menu_button_the_user_names_is_clicked_once_the_end_message_has_given_way() -> None:
    """minesweeper-mvc at HARD: its end message shows 5 s, and a click then is lost; its
    menu's EASY, tried first, brings a board of another size, so its user names HARD
    (``--new-game X,Y``, over where the board was). Calibration refused that point as on the
    board, and once let, clicked it at once, under the message."""
    screen = DrawnGame(seed=2, faceless=True, menu_on_end=5.0)  # past the waits for a loss
    result = calibrated(screen, max_games=4, new_game_at=MENU_BUTTONS["Easy"].centre)
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
