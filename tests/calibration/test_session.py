"""A calibration's games on a drawn screen (calibration/session.py): the first click, each game
played at random or to win, and how a loss, its message and its repaint are told."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt
import pytest
from captured_screen import CapturedScreen
from drawn_boards import WINDOWS, over_gradient
from drawn_game import (
    DRAWN_WINDOW,
    MESSAGE_SHOWN,
    DrawnGame,
    RefusingPointer,
    assert_learned_truly,
    calibrated,
    quick_waits,  # noqa: F401 (autouse: calibration's quick waits on a virtual clock)
)
from hypothesis import given, settings
from hypothesis import strategies as st
from pictures import read_picture

from calibration import session
from calibration.catalogue import HIDDEN_ID, Catalogue
from calibration.errors import CalibrationError, OutOfTimeError
from calibration.grid import Grid
from calibration.inference import learn_game
from calibration.learn import WIN_ATTEMPTS
from calibration.meanings import new_meanings
from calibration.record import ClickKind, Evidence, PlayedGame
from calibration.session import CalibrationPlayer
from calibration.view import BoardView
from solver import Game, GameState, Tile
from vision.geometry import Rect
from vision.synthetic import draw, make_skin


def test_a_number_not_learned_yet_does_not_stop_a_game_played_to_win() -> None:
    """A game played to see the won face reads a number not learned yet, on a cell opened
    without losing, as an opened cell of unknown value. Such a game used to stop: a CI run
    ended xdemineur's calibration without its won face, the random games on its sparse board
    having left a number unseen (locally: a 4, in one run of three)."""
    screen = DrawnGame(seed=2, rule="opening")
    player = CalibrationPlayer.start(screen, screen, DRAWN_WINDOW, seed=1)
    meanings = new_meanings(player.evidence.catalogue)
    while not {Tile.FLAG, Tile.THREE} <= set(meanings.tiles.values()):
        learn_game(meanings, player.play_game(), player.evidence.safe_appearances)
        player.start_new_game()
    three = meanings.id_of(Tile.THREE)
    assert three is not None
    del meanings.tiles[three]  # a number as yet unknown, shown by many games
    games: list[PlayedGame] = []
    while GameState.WON not in player.face_pictures and len(games) < WIN_ATTEMPTS:
        games.append(player.play_to_win(meanings, 10))
        player.start_new_game()
    assert all(game.finished for game in games)
    assert any(three in step.after for game in games for step in game.steps)
    assert GameState.WON in player.face_pictures


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


@dataclass
class LossWatches:
    """How many lost and won boards calibration read, and how many it watched for a message."""

    losses: int = 0
    wins: int = 0
    watches: int = 0


def watched_losses(monkeypatch: pytest.MonkeyPatch) -> LossWatches:
    """Count the lost and won boards calibration reads and the watches it keeps for a
    message."""
    seen = LossWatches()
    real_settled, real_lost, real_won = (
        session.settled,
        CalibrationPlayer._lost,
        CalibrationPlayer._won,
    )

    def settled(*args: Any, **kwargs: Any) -> Any:
        seen.watches += args[3:4] == (session.MESSAGE_WAIT,)
        return real_settled(*args, **kwargs)

    def lost(player: CalibrationPlayer, game: PlayedGame) -> None:
        seen.losses += 1
        real_lost(player, game)

    def won(player: CalibrationPlayer, game: PlayedGame, watch: bool = True) -> None:
        seen.wins += watch
        real_won(player, game, watch)

    monkeypatch.setattr(session, "settled", settled)
    monkeypatch.setattr(CalibrationPlayer, "_lost", lost)
    monkeypatch.setattr(CalibrationPlayer, "_won", won)
    return seen


def test_a_game_that_draws_no_message_over_its_loss_is_watched_for_one_only_twice(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen = watched_losses(monkeypatch)
    calibrated(DrawnGame(seed=2), max_games=12)
    assert seen.losses > 4
    assert seen.watches == session.MESSAGE_CHECKS


def test_a_game_that_draws_a_message_over_its_loss_is_watched_at_every_loss(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen = watched_losses(monkeypatch)
    screen = DrawnGame(seed=2, message_on_loss=MESSAGE_SHOWN)
    result = calibrated(screen, max_games=10)
    assert result.usable and seen.losses > session.MESSAGE_CHECKS + 2
    assert seen.watches == seen.losses + seen.wins
    assert_learned_truly(result, screen, result.skin.templates)


def test_a_message_that_stays_while_the_game_thinks_the_pointer_rests_on_it_is_sent_away(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """kmines' "You have lost." stays while the pointer rests on it, and the pointer it last
    saw is where the losing click was when that click opened a dialog (which takes the pointer's
    moves): once the dialog is closed, the pointer is moved again so that the game sees it off
    the board, and the message goes."""
    seen = watched_losses(monkeypatch)
    screen = DrawnGame(
        seed=2, dialog_on_loss=True, message_on_loss=MESSAGE_SHOWN, message_held_by_pointer=True
    )
    result = calibrated(screen, max_games=10)
    assert result.usable and screen.dialogs_closed > 2
    assert seen.watches == seen.losses + seen.wins
    assert "set a game aside" not in caplog.text  # no loss read with the message over it
    assert_learned_truly(result, screen, result.skin.templates)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 40))
def test_a_click_in_play_changes_one_patch_and_a_loss_that_shows_the_mines_more(
    seed: int, clicks: int
) -> None:
    """Every opening in play is joined to the cell clicked through changed cells; a loss that
    draws every mine changes cells apart from it unless the mines all touch one another."""
    game = Game(9, 9, 10, seed=seed)
    generator = np.random.default_rng(seed)
    for _ in range(clicks):
        hidden = np.argwhere(game.board.tiles == Tile.HIDDEN)
        row, column = (int(index) for index in hidden[generator.integers(len(hidden))])
        cell = (row, column)
        before = game.board.tiles.astype(np.int32)
        game.open(cell)
        if game.is_over:
            break
        assert not session._changed_apart(before, game.board.tiles.astype(np.int32), cell, set())
    if game.state is GameState.LOST:  # drawn as a game that shows every mine
        layout = game.mine_layout
        assert layout is not None
        shown = np.where(layout, np.int32(Tile.MINE), before)
        assert session._changed_apart(before, shown, cell, set()) == (not _joined(layout, cell))


def _joined(layout: np.ndarray, cell: tuple[int, int]) -> bool:
    """Whether every mine of ``layout`` is joined to ``cell`` through mines."""
    _, patches = cv2.connectedComponents(layout.astype(np.uint8), connectivity=8)
    return bool((patches[layout] == patches[cell]).all())


class ButtonsWindow:
    """A fresh board of native buttons (DangerUXB's tk buttons): white faces 30 px across, each
    edged by a dark line and a grey gap, some 34 px apart and some 33. A click on a line or a
    gap is taken by no button; one on a face opens that cell (its face turns grey)."""

    def __init__(self) -> None:
        self.faces = [int(start) for start in np.cumsum([11] + [34, 33] * 4)[:8]]
        """Where each row's (and column's) button faces start."""
        self.frame = np.full((300, 300, 3), 217, dtype=np.uint8)
        for top in self.faces:
            for left in self.faces:
                self.frame[top - 1, left - 1 : left + 30] = 153  # the line above and left
                self.frame[top - 1 : top + 30, left - 1] = 153
                self.frame[top : top + 30, left : left + 30] = 255
        self.clicks: list[tuple[int, int]] = []

    def grab(self, region: Rect | None = None) -> np.ndarray:
        region = region or Rect(0, 0, 300, 300)
        return self.frame[region.top : region.bottom, region.left : region.right].copy()

    def click(self, x: int, y: int, button: str = "left") -> None:
        self.clicks.append((x, y))
        column = next((c for c in self.faces if c <= x < c + 30), None)
        row = next((r for r in self.faces if r <= y < r + 30), None)
        if column is not None and row is not None:
            self.frame[row : row + 30, column : column + 30] = 190

    def move(self, x: int, y: int) -> None:
        """Nothing lights up under the pointer."""


def test_the_first_click_lands_on_a_tile_not_on_the_line_between_two() -> None:
    """On a fresh board the cut through the middle of DangerUXB's buttons repeats as well as
    the one along their edges, and the middle of such a block is the line between two buttons,
    which takes no click: two of calibration's three tries there changed nothing. A click goes
    where the block is plain, away from its lines."""
    window = ButtonsWindow()
    point, _, after = session._click_the_hidden_tile(window, window, Rect(0, 0, 300, 300))  # type: ignore[arg-type]
    assert len(window.clicks) == 1, window.clicks
    assert not np.array_equal(after, ButtonsWindow().frame)


def test_making_a_player_clicks_nothing_and_starting_one_plays_its_first_click() -> None:
    screen = DrawnGame(seed=4)
    grid = Grid((100 - 60, 120 - 60), (16, 16), 9, 9, screen.grab(Rect(100, 120, 16, 16)))
    evidence = Evidence(Catalogue(grid.hidden))
    view = BoardView(screen, evidence.catalogue, grid, Rect(60, 60, 240, 240), screen.grab())
    player = CalibrationPlayer(RefusingPointer(), view, evidence)
    assert evidence.games == [] and player.face is None
    assert (view.board_ids() == HIDDEN_ID).all()

    started = CalibrationPlayer.start(screen, screen, Rect(60, 60, 240, 240), seed=0)
    assert started.view.grid.origin == (40, 60) and started.view.grid.rows == 9
    [first_game] = started.evidence.games
    first = first_game.steps[0]
    assert first.click == ClickKind.OPEN and first.changed[first.cell]
    # The first click shows pictures never seen on a safe cell, so one probe click on another
    # hidden cell tells whether the game is still on; nothing else is clicked.
    assert screen.clicks == len(first_game.steps) <= 2


def test_a_window_a_dialog_veils_when_calibration_starts_is_said_to_be() -> None:
    """Started while a page's dialog dims it, calibration clicked tiles that did not change and
    said only "is it a fresh Minesweeper game?"; it names the dialog's button, and clicks none of
    its buttons."""
    page = CapturedScreen(read_picture(WINDOWS.parent / "web98" / "prompt.png"))
    window = page.screen
    with pytest.raises(CalibrationError, match=r"a dialog's 'cancel' button shows at \(424, 158\)"):
        CalibrationPlayer.start(page, page, window)  # type: ignore[arg-type]
    assert not any(Rect(384, 139, 81, 38).contains(*click) for click in page.clicks)


class PictureBehindWindow:
    """A fresh 9x9 board drawn over a picture that shows through its tiles (kmines' Graveyard
    Mayhem), so that no two hidden tiles are equal pixel for pixel; above it three toolbars,
    each repeating one detailed block a tile wide, which take no click. A click on a tile
    opens it."""

    def __init__(self) -> None:
        skin = make_skin(16, seed=3)
        hidden = np.full((9, 9), Tile.HIDDEN, dtype=np.uint8)
        scene = draw(skin, hidden, (40, 80), screen_size=(300, 260), face=None)
        self.board = scene.geometry
        self.frame = over_gradient(scene.screen, 250, 0.7, (1.0, 0.9, 0.8))
        buttons = np.random.default_rng(1).integers(0, 256, (3, 16, 16, 3), dtype=np.uint8)
        for row, button in enumerate(buttons):  # three toolbars, each of one button repeated
            for column in range(15):
                top, left = 8 + 16 * row, 20 + 16 * column
                self.frame[top : top + 16, left : left + 16] = button
        self.clicks: list[tuple[int, int]] = []

    def grab(self, region: Rect | None = None) -> npt.NDArray[np.uint8]:
        region = region or Rect(0, 0, 300, 260)
        return self.frame[region.top : region.bottom, region.left : region.right].copy()

    def click(self, x: int, y: int, button: str = "left") -> None:
        self.clicks.append((x, y))
        cell = self.board.cell_at(x, y)
        if cell is not None:
            tile = self.board.tile_rect(cell)
            self.frame[tile.top : tile.bottom, tile.left : tile.right] = 200

    def move(self, x: int, y: int) -> None:
        """Nothing lights up under the pointer."""


def test_a_board_whose_tiles_a_picture_shows_through_is_found_by_its_alike_tiles() -> None:
    """Calibration clicked the three most common blocks of kmines' Graveyard Mayhem window (its
    toolbar, its status bar, below the board) and gave up: the most common by equal pixels,
    and no two of its tiles are equal. Blocks alike within the grouping tolerance are tried
    next, and the first click that opens a tile is on the board."""
    window = PictureBehindWindow()
    point, fresh, after = session._click_the_hidden_tile(window, window, Rect(0, 0, 300, 260))  # type: ignore[arg-type]
    assert window.board.cell_at(*point) is not None, window.clicks
    assert window.board.cell_at(*window.clicks[-1]) is not None
    assert not np.array_equal(fresh, after)
