"""A calibration's games on a drawn screen (calibration/session.py): the first click, each game
played at random or to win, and how a loss, its message and its repaint are told."""

from __future__ import annotations

import time

import numpy as np
import pytest
from captured_screen import CapturedScreen
from drawn_boards import WINDOWS
from drawn_game import (
    DRAWN_BUTTON,
    DRAWN_WINDOW,
    DrawnGame,
    RefusingPointer,
    quick_waits,  # noqa: F401 (autouse: calibration's quick waits on a virtual clock)
)
from pictures import read_picture

from calibration.catalogue import HIDDEN_ID, Catalogue
from calibration.errors import CalibrationError, OutOfTimeError
from calibration.grid import Grid
from calibration.inference import learn_game
from calibration.learn import WIN_ATTEMPTS
from calibration.meanings import Meanings, new_meanings
from calibration.record import ClickKind, Evidence, PlayedGame
from calibration.session import CalibrationPlayer
from calibration.view import BoardView
from solver import GameState, Tile
from vision.geometry import Rect


def learned_but_three(player: CalibrationPlayer) -> tuple[Meanings, int]:
    """Meanings learned from ``player``'s random games until they show a flag and a 3, the 3
    then forgotten (a number as yet unknown, shown by many games), and the 3's appearance."""
    meanings = new_meanings(player.evidence.catalogue)
    while not {Tile.FLAG, Tile.THREE} <= set(meanings.tiles.values()):
        learn_game(meanings, player.play_game(), player.evidence.safe_appearances)
        player.start_new_game()
    three = meanings.id_of(Tile.THREE)
    assert three is not None
    del meanings.tiles[three]
    return meanings, three


def assert_played_to_the_end_through(
    player: CalibrationPlayer, meanings: Meanings, three: int
) -> None:
    """Games played to win with ``meanings`` end, and some showed the appearance ``three``."""
    games = []
    for _ in range(WIN_ATTEMPTS):
        games.append(player.play_to_win(meanings, 10))
        player.start_new_game()
    assert all(game.finished for game in games)
    assert any(three in step.after for game in games for step in game.steps)


def test_a_number_not_learned_yet_does_not_stop_a_game_played_to_win() -> None:
    """A game played to see the won face reads a number not learned yet, on a cell opened
    without losing, as an opened cell of unknown value. Such a game used to stop: a CI run
    ended xdemineur's calibration without its won face, the random games on its sparse board
    having left a number unseen (locally: a 4, in one run of three)."""
    screen = DrawnGame(seed=2, rule="opening")
    player = CalibrationPlayer.start(screen, screen, DRAWN_WINDOW, seed=1)
    meanings, three = learned_but_three(player)
    games: list[PlayedGame] = []
    while GameState.WON not in player.face_pictures and len(games) < WIN_ATTEMPTS:
        games.append(player.play_to_win(meanings, 10))
        player.start_new_game()
    assert all(game.finished for game in games)
    assert any(three in step.after for game in games for step in game.steps)
    assert GameState.WON in player.face_pictures


def test_a_number_taken_for_a_closed_cells_finished_look_does_not_stop_a_game_played_to_win() -> (
    None
):
    """A game that shows every cell on a loss drew a number no safe click had shown there, and
    it was learned as a closed cell's look on a finished board (UXBgtk: a 1 of the first row's
    wider cells). In the game played to win, the cell a click opened to it read as hidden
    still: the same cell was clicked again ("a click on hidden cell (0, 6) ... changed
    nothing"). A finished game's look never shows in play: opened safely, it is a number."""
    screen = DrawnGame(seed=2, rule="opening")
    player = CalibrationPlayer.start(screen, screen, DRAWN_WINDOW, seed=1)
    meanings, three = learned_but_three(player)
    meanings.finished[three] = HIDDEN_ID
    assert_played_to_the_end_through(player, meanings, three)


def test_a_number_not_learned_yet_does_not_stop_a_game_with_no_face_played_to_win() -> None:
    """With no face, a cell opened without losing is one the probe after it found the game
    going on: minesweeper-mvc's Expert game played to win stopped at a 5 (probed safe), and
    left calibration a game in progress, which only its end could replace."""
    screen = DrawnGame(seed=2, rule="opening", faceless=True, button=DRAWN_BUTTON)
    player = CalibrationPlayer.start(screen, screen, DRAWN_WINDOW, seed=1)
    ways = player.new_games
    ways.method, ways.point_named = ways.point_method(DRAWN_BUTTON.centre), True
    meanings, three = learned_but_three(player)
    assert_played_to_the_end_through(player, meanings, three)


def test_a_number_a_new_game_shows_before_any_click_does_not_stop_a_game_played_to_win() -> None:
    """xdemineur opens a 0 of each new game by itself: the numbers around it show before any
    click. One that the random games had not shown stopped every game played to win at its
    first look, six times on the same board, and a CI run's calibration of xdemineur ended
    without its won face. A cell beside a 0 is opened (the game's flood opened it): an
    appearance not learned there is a number of unknown value."""
    screen = DrawnGame(seed=3, opens_at_start=True)
    player = CalibrationPlayer.start(screen, screen, DRAWN_WINDOW, seed=1)
    meanings = new_meanings(player.evidence.catalogue)
    while not {Tile.FLAG, Tile.EXPLODED, Tile.ONE} <= set(meanings.tiles.values()):
        learn_game(meanings, player.play_game(), player.evidence.safe_appearances)
        player.start_new_game()
    ids = player.view.board_ids(player.view.still_board())
    shown = {int(each): meanings.tiles.get(int(each)) for each in np.unique(ids)}
    numbers = [each for each, tile in shown.items() if tile and Tile.ONE <= tile <= Tile.EIGHT]
    assert numbers, f"the fresh board shows no number: {shown}"
    for each in numbers:
        del meanings.tiles[each]  # numbers as yet unknown, shown before any click
    game = player.play_to_win(meanings, 10)
    assert game.finished and game.steps


def test_a_game_played_to_win_past_its_time_is_left_without_a_click() -> None:
    """An Expert-sized board played by the solver may take hundreds of clicks (ace-minesweeper's
    32x32: a game ran past 400 and calibration failed): the won face is only looked for while
    there is time, and play learns it otherwise."""
    screen = DrawnGame(seed=2, rule="opening")
    player = CalibrationPlayer.start(screen, screen, DRAWN_WINDOW, seed=1)
    meanings = new_meanings(player.evidence.catalogue)
    learn_game(meanings, player.play_game(), player.evidence.safe_appearances)
    player.start_new_game()
    clicks = screen.clicks
    with pytest.raises(OutOfTimeError):
        player.play_to_win(meanings, 10, deadline=time.monotonic())
    assert screen.clicks == clicks


def test_a_focus_ring_moved_off_the_cell_clicked_before_is_not_taken_for_a_loss() -> None:
    """Each click moves a dotted ring from the cell clicked before (an opened one) to the one
    clicked. That change apart from the click is not the mines a loss shows: calibration took
    it for one, and then looked for a new game on a game still going (DangerUXB's tk buttons:
    "cannot start a new game ... the f2 key, the n key ...")."""
    screen = DrawnGame(seed=2, focus_ring=True)
    player = CalibrationPlayer.start(screen, screen, DRAWN_WINDOW, seed=1)
    for _ in range(3):
        game = player.play_game()
        assert game.state is GameState.LOST
        assert screen.game.state is GameState.LOST, f"judged lost after {len(game.steps)} clicks"
        player.start_new_game()
    assert screen.abandoned == 0


def test_making_a_player_clicks_nothing_and_starting_one_plays_its_first_click() -> None:
    screen = DrawnGame(seed=4)
    grid = Grid((100 - 60, 120 - 60), (16, 16), 9, 9, screen.grab(Rect(100, 120, 16, 16)))
    evidence = Evidence(Catalogue(grid.hidden))
    view = BoardView(screen, evidence.catalogue, grid, Rect(60, 60, 240, 240), screen.grab())
    player = CalibrationPlayer(RefusingPointer(), view, evidence)
    assert evidence.games == [] and player.window.face is None
    assert (view.board_ids() == HIDDEN_ID).all()

    started = CalibrationPlayer.start(screen, screen, Rect(60, 60, 240, 240), seed=0)
    assert started.view.grid.origin == (40, 60) and started.view.grid.rows == 9
    [first_game] = started.evidence.games
    first = first_game.steps[0]
    assert first.click == ClickKind.OPEN and first.changed[first.cell]
    # The first click shows pictures never seen on a safe cell, so one probe click on another
    # hidden cell tells whether the game is still on; nothing else is clicked.
    assert screen.clicks == len(first_game.steps) <= 2


@pytest.mark.parametrize("seed", [2, 4, 7])
def test_a_click_that_redraws_a_frame_past_its_cell_finds_the_board_aligned_and_whole(
    seed: int,
) -> None:
    """UXBgtk's GTK buttons draw their frame 3 to 4 pixels past their cells of 38 px: the
    click that found the hidden tile changed a block 45 px wide. Every cut half a cell off saw
    that change in 4 blocks, the aligned cut in 9 (the cell and the frame's strips on its 8
    neighbours), so calibration took the cut half a cell off: a board of 3x7 cells on an 8x8
    one, whose games it then set aside ("no rule of Minesweeper"). A change no deeper than such
    a frame past a cell's edge is not more of the board changed."""
    screen = DrawnGame(seed=seed, frame_spill=2)
    player = CalibrationPlayer.start(screen, screen, DRAWN_WINDOW, seed=0)
    grid = player.view.grid
    assert (grid.origin, grid.rows, grid.columns, grid.pitch) == ((40, 60), 9, 9, (16, 16))


def test_a_window_a_dialog_veils_when_calibration_starts_is_said_to_be() -> None:
    """Started while a page's dialog dims it, calibration clicked tiles that did not change and
    said only "is it a fresh Minesweeper game?"; it names the dialog's button, and clicks none of
    its buttons."""
    page = CapturedScreen(read_picture(WINDOWS.parent / "web98" / "prompt.png"))
    window = page.screen
    with pytest.raises(CalibrationError, match=r"a dialog's 'cancel' button shows at \(424, 158\)"):
        CalibrationPlayer.start(page, page, window)  # type: ignore[arg-type]
    assert not any(Rect(384, 139, 81, 38).contains(*click) for click in page.clicks)
