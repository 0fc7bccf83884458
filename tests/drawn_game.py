"""A Minesweeper game drawn in memory with a synthetic skin (:class:`DrawnGame`), calibrated and
played as a real one is: the screen and its pointer, the waits calibration gives it, and the
mouse play clicks it with."""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest
from drawn_boards import focus_ring
from drawn_menus import RIGHT_CLICKS, ButtonLabel, ContextMenu
from starts import xdemineur_start
from virtual_clock import use_virtual_clock

from calibration import failure_screens, game_end, new_game_ways, session, waits
from calibration import learn as learn_module
from calibration import view as view_module
from calibration.learn import Calibration, calibrate
from controller import loop as loop_module
from controller import mouse as mouse_module
from controller import reading as reading_module
from controller import screen_table as screen_table_module
from controller.errors import ClickOutsideError
from controller.loop import GamePlayer, play_games
from controller.mouse import Check
from controller.outcomes import LoggedGame, OutcomeLog
from controller.screen_table import ScreenTable
from solver import Game, GameState, Tile
from solver.engine import neighbour_counts
from vision import stable as stable_module
from vision import synthetic
from vision.geometry import Rect
from vision.skin import Image
from vision.synthetic import make_skin, veil_with_dialog

DRAWN_SCREEN = (400, 320)
DRAWN_BOARD_AT = (100, 120)


DRAWN_DIALOG = Rect(120, 150, 110, 50)
"""Where a drawn game's "Game Over" dialog covers its board."""
DRAWN_VEILED_DIALOG = Rect(70, 170, 220, 80)
"""Where a dialog drawn over the dimmed window is: in the window, over the board's middle."""


QUICK_WAITS = {"FLASH_QUIET": 0.12, "LOST_QUIET": 0.25, "MESSAGE_WAIT": 1.1}
"""Calibration's waits for a drawn game, which draws every change at once: a quarter or so of
those a real game needs (a lost board watched for a message 1.1 s, a timeout no other wait
uses, which tells the watches apart)."""
QUICK_PROBE = 0.3
"""Seconds a probe click is given on a drawn game."""
REPAINT_PAUSE = 0.6
"""Seconds a drawn game's slow repaint of a lost board pauses: longer than LOST_QUIET."""
MESSAGE_SHOWN = 0.8
"""Seconds a drawn game's message stays over a lost board: longer than a probe click after a
FLASH_QUIET, shorter than LOST_QUIET and the watch for the message after it."""
WIN_MESSAGE_SHOWN = 1.0
"""Seconds a drawn game's message stays over a won board: longer than the waits for a still
board after the winning click, shorter than those and the watch for a message together."""
STUCK_REPAINT = 4.0
"""Seconds a stuck repaint pauses: longer than every wait calibration gives a lost board."""


@pytest.fixture(autouse=True)
def quick_waits(
    monkeypatch: pytest.MonkeyPatch,
    request: pytest.FixtureRequest,
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """Calibration waits on drawn games as :data:`QUICK_WAITS` says, on a clock the drawn
    games share with the code that plays them (and with the test file, where it reads the time
    itself), so no test waits real time. Autouse in every test file that imports it. The
    screens of a calibration that fails go to the tests' temporary folder."""
    for name, seconds in QUICK_WAITS.items():
        monkeypatch.setattr(waits, name, seconds)
    monkeypatch.setattr(failure_screens, "PARENT", tmp_path_factory.getbasetemp())
    monkeypatch.setattr(game_end, "PROBE_TIMEOUT", QUICK_PROBE)
    own = [request.module] if hasattr(request.module, "time") else []
    use_virtual_clock(
        monkeypatch,
        sys.modules[__name__],
        *own,
        session,
        new_game_ways,
        view_module,
        learn_module,
        stable_module,
        loop_module,
        reading_module,
        mouse_module,
        screen_table_module,
    )


def uneven_starts(pitch: int, count: int, wide: int) -> tuple[int, ...]:
    """Cell starts (and the last end) of ``count`` cells, the first ``wide`` a pixel wider."""
    return tuple(pitch * index + min(index, wide) for index in range(count + 1))


def dimmed_number(cell: Image) -> Image:
    """An opened cell as a loss redraws it (see :class:`DrawnGame`): its ink paler."""
    return 255 - (255 - cell) * 3 // 4


def right_flag_look(cell: Image) -> Image:
    """A flag on a mine as a lost game with ``right_flags_on_loss`` draws it: green, crossed."""
    look = cell // 2 + np.array((0, 120, 0), dtype=np.uint8)
    for step in range(3, 12):  # inside the 15 pixels a skin keeps of a cell
        look[step, step] = look[step, 14 - step] = 255
    return look


def wrong_flag_look(cell: Image) -> Image:
    """A flag on a safe cell as a lost game with ``wrong_flag_ink`` draws it: its ink blue."""
    look = cell.copy()
    inside = look[1:-1, 1:-1]
    inside[inside.sum(axis=2) < 300] = (0, 0, 255)
    return look


class DrawnGame:
    """A screen showing a simulated 9x9 game drawn with a synthetic skin, and the pointer that
    plays into it: a click on the face starts a new game, keys reach no game, and a click
    anywhere else than the board or the face (or a move off the screen) fails the test.

    With ``dialog_on_loss`` a loss opens a modal dialog over the board, as kmines does; a click
    while it is open fails the test, and only :meth:`close_dialogs` closes it. With
    ``question_like_flag`` a right-click turns a flag into a question mark drawn as the flag
    with three pixels changed (a picture within calibration's grouping tolerance of it, as
    gnome-mines draws it), and a question mark back into a hidden cell. With
    ``numbers_per_size`` the first columns and rows are a pixel wider and each number is drawn
    a little differently in cells wide along x, along y or both
    (:func:`vision.synthetic.per_size_numbers`). With ``reveal_on_loss`` a loss shows every
    cell, the mine hit drawn as every other mine, and redraws the cells the player opened with
    a green grid line (outside the tile), as xbomb does. With ``faceless`` no face is drawn (nor
    clicked); with ``relabel_button`` the button looks different once a game is over, and
    ``end_label`` is a message shown then, on which a click does nothing. With ``paint_below``
    each number paints that many lines at the top of a hidden cell below it (from game
    ``paint_from_game`` on, counted from 1). With ``focus_ring`` the cell clicked last shows a
    dotted ring just inside its edges, as a toolkit draws on the button that has the keyboard
    focus (DangerUXB's tk buttons). With
    ``veiled_dialog_on_end`` a dialog is drawn over the dimmed window when a game ends (with
    ``unveiled_dialog``, in that box over the window as it is: a page's own window). With
    ``presses_after_loss`` a left click on a hidden cell of a lost game leaves it drawn pressed,
    as an opened cell with no number (a web page whose mouse-down handler ignores the game's
    end). With ``darkens_on_loss`` a loss draws every closed cell without a mine darker (as
    gnome-mines' classic theme does). With ``opens_at_start`` a new game opens one of its 0s
    by itself before any click, as xdemineur does (its numbers show on an untouched board).
    With ``darkens_numbers_on_loss`` a loss redraws the opened cells paler. With
    ``frame_spill`` every opened cell draws a frame that many pixels wide past its edges, over
    its neighbours, as a toolkit draws a pressed button's frame past its place (UXBgtk's GTK
    buttons: 3 to 4 pixels past cells of 38). With ``won_face_at_launch`` the face shows its won
    picture until the first click. With ``right_flags_on_loss`` a loss draws a flag on a mine
    as a green cross and leaves a flag on a safe cell standing, the opposite of most games
    (minesweeper-python's Tk buttons); with ``wrong_flag_ink`` too, the flag left standing is
    drawn in another ink (its disabled button's). ``right_click`` is what a right-click on the
    board does (:data:`drawn_menus.RIGHT_CLICKS`): mark the cell, nothing, or open a context
    menu over the board (:class:`drawn_menus.ContextMenu`). With ``button_label`` the button
    bears words (:class:`drawn_menus.ButtonLabel`). With ``menu_on_end`` a game's end paints the
    window over with a message, then a menu whose first button brings a board back (a click
    elsewhere then fails the test). With ``widen_opened_columns`` a column
    grows by that many pixels once a cell in it is no longer hidden, pushing the columns right
    of it along (a toolkit's grid of buttons sized by their content)."""

    def __init__(
        self,
        seed: int,
        dialog_on_loss: bool = False,
        message_on_loss: float = 0.0,
        message_on_finished_click: bool = False,
        message_held_by_pointer: bool = False,
        message_on_win: float = 0.0,
        mines: int = 10,
        question_like_flag: bool = False,
        numbers_per_size: bool = False,
        slow_repaints: frozenset[int] = frozenset(),
        odd_losses: frozenset[int] = frozenset(),
        repaint_pause: float = REPAINT_PAUSE,
        rest_of_loss_after: float = 0.0,
        rule: str = "safe",
        button: Rect | None = None,
        reveal_on_loss: bool = False,
        numbers_on_wrong_flags: bool = False,
        faceless: bool = False,
        relabel_button: bool = False,
        button_shows_state: bool = False,
        button_only_when_over: bool = False,
        end_label: Rect | None = None,
        paint_below: int = 0,
        paint_from_game: int = 1,
        focus_ring: bool = False,
        veiled_dialog_on_end: tuple[str, ...] = (),
        veiled_dialog_after: float = 0.0,
        unveiled_dialog: Rect | None = None,
        marks_before_start: bool = True,
        board_drop: int = 0,
        presses_after_loss: bool = False,
        new_game_keys: tuple[str, ...] = (),
        won_leaves_mines_hidden: bool = False,
        won_face: bool = True,
        widened_at: int | None = None,
        rows_covered_at_first: int = 0,
        mines_drawn_as_hit: bool = False,
        hit_ring_inset: int = 1,
        unfocused_games: frozenset[int] = frozenset(),
        darkens_on_loss: bool = False,
        opens_at_start: bool = False,
        darkens_numbers_on_loss: bool = False,
        frame_spill: int = 0,
        blank_new_game: float = 0.0,
        won_face_at_launch: bool = False,
        right_flags_on_loss: bool = False,
        wrong_flag_ink: bool = False,
        right_click: str = "marks",
        button_label: ButtonLabel | None = None,
        flood_step: float = 0.0,
        menu_on_end: float | None = None,
        widen_opened_columns: int = 0,
        opens_around_flags: bool = False,
    ) -> None:
        assert right_click in RIGHT_CLICKS, right_click
        self.right_click = right_click
        self.menu = ContextMenu()
        self.buttons: list[str] = []
        """The button of each click, in order."""
        self.skin = make_skin(16, seed=5, name="truth")
        self.darkens_on_loss = darkens_on_loss
        self.opens_at_start = opens_at_start
        self.darkens_numbers_on_loss = darkens_numbers_on_loss
        self.frame_spill = frame_spill
        self.blank_new_game = blank_new_game
        """Seconds a new game shows the window's background where the board was (a game that
        opens a new window for each new game takes the old one's board down first)."""
        self.new_game_at = -math.inf
        self.won_face_at_launch = won_face_at_launch
        self.right_flags_on_loss = right_flags_on_loss
        self.wrong_flag_ink = wrong_flag_ink
        """The face shows its won picture until the first click on the board or the first new
        game (minesweeper 0.1.4 from PyPI: its launch window grins as a win does)."""
        self.screen = Rect(0, 0, *DRAWN_SCREEN)
        """The whole screen, as a screen grabber names it."""
        self.veiled_dialog_on_end = veiled_dialog_on_end
        """The labels of the buttons of a dialog drawn over the dimmed window once a game
        ends, as a game in a browser draws one; a click on its first button closes it, a click
        anywhere else while it shows fails the test."""
        self.answers: list[str] = []
        """The label of each dialog button clicked."""
        self.veiled_dialog_answered = False
        self.veiled_dialog_after = veiled_dialog_after
        self.dialog_look = (
            (DRAWN_VEILED_DIALOG, 0.4) if unveiled_dialog is None else (unveiled_dialog, 1.0)
        )
        """Where the dialog on a game's end is drawn, and how it dims the window under it."""
        """Seconds after a game's end before its dialog shows (a browser game's "Boom!" alert
        waits for the board to be drawn)."""
        self.ended_at = -math.inf
        self.board_drop = board_drop
        """Pixels the board moves down while a game is over (a page that writes "Game over"
        above it), the face staying put; a new game moves it back."""
        self.marks_before_start = marks_before_start
        """Whether a right-click marks a cell before a game's first left-click (else it does
        nothing: some games take no flag before that)."""
        self.paint_below = paint_below
        """Lines of a hidden cell that the number above it paints over (a digit drawn taller
        than its cell, as xbomb's in 20-px cells), in a colour of its own per number."""
        self.paint_from_game = paint_from_game
        self.focus_ring = focus_ring
        self.focused: tuple[int, int] | None = None
        """The cell clicked last."""
        self.abandoned = 0
        """New games started on a game begun and not over."""
        self.games = 1
        """Games begun, this one counted."""
        self.edges = None
        self.widened_at = widened_at
        """Where a wider cell repeats a line of its picture (see :func:`synthetic.draw`)."""
        if numbers_per_size:
            self.skin.variants = synthetic.per_size_numbers(self.skin)
            self.edges = (uneven_starts(16, 9, 3), uneven_starts(16, 9, 2))
        if question_like_flag:
            question = self.skin.templates[Tile.FLAG].copy()
            question[6:9, 7] = question[6:9, 7] // 2 + 64
            self.skin.templates[Tile.QUESTION] = question
        self.questions: set[tuple[int, int]] | None = set() if question_like_flag else None
        self.seed = seed
        self.rule = rule
        """Its first-click rule (see :class:`solver.engine.FirstClick`)."""
        self.button = button
        """A "New game" button beside the board, drawn and clicked as the face is."""
        self.button_grey = 210
        """The grey inside the button (another value: another button has taken its place)."""
        self.button_label = button_label
        """The words on the button, drawn over its grey (see :class:`drawn_menus.ButtonLabel`)."""
        self.relabel_button = relabel_button
        """The button looks different once a game is over (gnome-mines' "Start Over" becomes
        "Play Again")."""
        self.button_shows_state = button_shows_state
        """The button's inside shows how the game stands, as DangerUXB's Start button (a face)
        does: its own grey while playing, another after a loss, a third after a win."""
        self.button_only_when_over = button_only_when_over
        """A click on the button starts a new game only once a game is over (gnome-mines'
        "Play Again"); before, it does nothing but count in :attr:`button_clicks_ignored`."""
        self.button_clicks_ignored = 0
        self.faceless = faceless
        self.end_label = end_label
        """Where a message shows once a game is over; a click on it does nothing."""
        self.label_clicks = 0
        self.new_games = {"face": 0, "button": 0}
        self.mines = mines
        self.game = self.new_board()
        self.clicks = 0
        self.dialog_on_loss = dialog_on_loss
        self.dialog_open = False
        self.dialogs_closed = 0
        self.losses = 0
        self.endings: list[GameState] = []
        """How each game ended, as the game knows it (won or lost), in order."""
        self.message_on_loss = message_on_loss
        """Seconds a message drawn over the board stays after a loss (no window: kmines)."""
        self.lost_at = -math.inf
        self.message_on_finished_click = message_on_finished_click
        """The message is drawn not on the loss but on a click on the board of the lost game
        (for ``message_on_loss`` seconds), which changes no cell."""
        self.message_held_by_pointer = message_held_by_pointer
        """The message stays past its time while the pointer the game last saw rests on it, and
        goes once the game sees it elsewhere (kmines' popups); the game sees no pointer move
        while its dialog is open (a modal dialog takes the pointer's events)."""
        self.pointer_seen: tuple[int, int] | None = None
        self.message_on_win = message_on_win
        """Seconds the message shows over the board after a win (kmines' "Congratulations!")."""
        self.won_at = -math.inf
        self.message_gone = False
        self.slow_repaints = slow_repaints
        """The losses (counted from 1) whose repaint pauses for ``repaint_pause`` seconds with
        every cell but the mine hit blank (Wine on a busy machine), or until the next game."""
        self.repaint_pause = repaint_pause
        self.rest_of_loss_after = rest_of_loss_after
        self.opens_around_flags = opens_around_flags
        """A number a click opens with as many flags around it as it counts opens its other
        neighbours at once (UXBgtk): a wrong flag among them loses the game on a neighbour."""
        """Seconds a loss shows only its mine hit (the face still playing) before the rest:
        the other mines and the lost face (UXBgtk pauses 200 ms)."""
        self.odd_losses = odd_losses
        """The losses (counted from 1) that draw the mine hit with a dark bar across it, a look
        no other game shows (a board caught as a toolkit drew it pressed)."""
        self.reveal_on_loss = reveal_on_loss
        self.numbers_on_wrong_flags = numbers_on_wrong_flags
        """With ``reveal_on_loss``, whether a loss shows a flag on a safe cell as its number
        (mfranceschi-minesweeper's Tk buttons), not as a WRONG_FLAG."""
        self.opened_by_player = np.zeros((9, 9), dtype=bool)
        """In a game lost with ``reveal_on_loss``, the cells opened before the loss."""
        self.presses_after_loss = presses_after_loss
        self.pressed: set[tuple[int, int]] = set()
        """Hidden cells of the lost game left drawn pressed by a click on them."""
        self.new_game_keys = new_game_keys
        """Keys that start a new game (none: keys reach no game)."""
        self.keys: list[str] = []
        """Each key pressed, in order."""
        self.won_leaves_mines_hidden = won_leaves_mines_hidden
        """A won game shows the mines the player did not flag still hidden (only its face
        says it is over), and takes no click after."""
        self.hidden_when_won = np.zeros((9, 9), dtype=bool)
        self.won_face = won_face
        """Whether a won game shows a face of its own (PyMines keeps its playing face)."""
        self.rows_covered_at_first = rows_covered_at_first
        self.mines_drawn_as_hit = mines_drawn_as_hit
        """A loss draws every mine as the one hit (DangerUXB)."""
        self.hit_ring_inset = hit_ring_inset
        """How far inside its edges the focus ring runs on the mine hit (DangerUXB's sunken tk
        button: 3 pixels; on every other tile, 1)."""
        self.unfocused_games = unfocused_games
        self.flood_step = flood_step
        """Seconds between the rings of cells a click opens, drawn one ring at a time out from
        the cell clicked (a game that animates its flood); 0: all at once."""
        self.shown_at: dict[tuple[int, int], float] = {}
        self.menu_on_end = menu_on_end
        """Seconds a game's end paints its window over with a message (no board, no mine
        shown), after which the window shows a menu (:data:`MENU_BUTTONS`) and no board until
        its first button is clicked; None: the board stays."""
        self.menu_clicks: list[str] = []
        """The label of each menu button clicked."""
        """When each cell an animated flood opened is first drawn opened."""
        self.widen_opened_columns = widen_opened_columns
        """Pixels a column grows by once a cell in it shows anything but a hidden tile (a
        toolkit's buttons sized by their content: a column with an opened cell widens); the
        columns right of it move right."""
        """The games (counted from 1) whose mine hit shows no focus ring (the focus elsewhere)."""
        """The board's last rows are covered by a plain colour until the first click (a window
        not yet redrawn where another one lay over it)."""

    def new_board(self) -> Game:
        if self.opens_at_start:
            return xdemineur_start(9, 9, self.mines, np.random.default_rng(self.seed))
        return Game(9, 9, self.mines, rule=self.rule, seed=self.seed)

    def scene(self) -> synthetic.Scene:
        face = self.game.state.value
        if self.game.state is GameState.WON and not self.won_face:
            face = GameState.PLAYING.value
        if self.won_face_at_launch:
            face = GameState.WON.value
        tiles = self.game.board.tiles.copy()
        now = time.monotonic()
        for cell, shown_at in self.shown_at.items():
            if now < shown_at and self.game.state is GameState.PLAYING:
                tiles[cell] = Tile.HIDDEN
        if self.game.state is GameState.LOST and now < self.lost_at + self.rest_of_loss_after:
            tiles[tiles == Tile.MINE] = Tile.HIDDEN
            tiles[tiles == Tile.WRONG_FLAG] = Tile.FLAG
            face = GameState.PLAYING.value
        revealed = self.reveal_on_loss and self.game.state is GameState.LOST
        if revealed:
            tiles = self.revealed_tiles()
        if self.mines_drawn_as_hit and self.game.state is GameState.LOST:
            tiles[tiles == Tile.MINE] = Tile.EXPLODED
        for cell in self.questions or ():
            if tiles[cell] == Tile.HIDDEN:
                tiles[cell] = Tile.QUESTION
        for cell in self.pressed:
            tiles[cell] = Tile.ZERO
        if self.game.state is GameState.WON:
            tiles[self.hidden_when_won] = Tile.HIDDEN
        repainting = time.monotonic() < self.lost_at + self.repaint_pause
        if self.losses in self.slow_repaints and repainting:
            tiles[tiles != Tile.EXPLODED] = Tile.HIDDEN
        over = self.game.state is not GameState.PLAYING
        right_flags = wrong_flags = np.zeros_like(tiles, dtype=bool)
        if self.right_flags_on_loss and self.game.state is GameState.LOST:
            right_flags, wrong_flags = tiles == Tile.FLAG, tiles == Tile.WRONG_FLAG
            tiles[wrong_flags] = Tile.FLAG
        scene = synthetic.draw(
            self.skin,
            tiles,
            DRAWN_BOARD_AT,
            DRAWN_SCREEN,
            face=None if self.faceless else face,
            edges=None if self.widen_opened_columns else self.edges,
            widened_at=self.widened_at,
        )
        if self.widen_opened_columns:
            scene = self.relaid(scene)
        if over and self.board_drop:  # the board moves down; the face stays where it was
            dropped = (DRAWN_BOARD_AT[0], DRAWN_BOARD_AT[1] + self.board_drop)
            moved = synthetic.draw(self.skin, tiles, dropped, DRAWN_SCREEN, face=None)
            face_rect = scene.geometry.face
            if face_rect is not None:
                box = (
                    slice(face_rect.top, face_rect.bottom),
                    slice(face_rect.left, face_rect.right),
                )
                moved.screen[box] = scene.screen[box]
            scene = replace(moved, geometry=replace(moved.geometry, face=face_rect))
        left, top = DRAWN_BOARD_AT
        painted = self.paint_below * (self.games >= self.paint_from_game)
        for row, column in np.argwhere((tiles[:-1] <= Tile.EIGHT) & (tiles[1:] == Tile.HIDDEN)):
            number = int(tiles[row, column])
            if number:
                y, x = top + 16 * (row + 1), left + 16 * column
                scene.screen[y : y + painted, x + 4 : x + 12] = (30 * number, 0, 200)
        if self.losses in self.odd_losses and self.game.state is GameState.LOST:
            for hit in np.argwhere(tiles == Tile.EXPLODED):
                (y, x), _ = self.cell_at(*hit)
                scene.screen[y + 6 : y + 9, x + 2 : x + 14] = 20
        self.redraw_flags(scene.screen, right_flags, wrong_flags & self.wrong_flag_ink)
        if self.darkens_on_loss and self.game.state is GameState.LOST:
            for row, column in np.argwhere(tiles == Tile.HIDDEN):
                (y, x), (height, width) = self.cell_at(row, column)
                pixels = scene.screen[y : y + height, x : x + width]
                pixels[:] = pixels * 3 // 4
            for row, column in np.argwhere(self.darkens_numbers_on_loss & (tiles <= Tile.EIGHT)):
                (y, x), (height, width) = self.cell_at(row, column)
                pixels = scene.screen[y : y + height, x : x + width]
                pixels[:] = dimmed_number(pixels)
        for row, column in np.argwhere((tiles <= Tile.EIGHT) & (self.frame_spill > 0)):
            (y, x), (height, width) = self.cell_at(row, column)
            spill = self.frame_spill
            frame = scene.screen[y - spill : y + height + spill, x - spill : x + width + spill]
            inside = frame[spill:-spill, spill:-spill].copy()
            frame[:] = FRAME_GREY
            frame[spill:-spill, spill:-spill] = inside
        if self.focus_ring and self.focused is not None:
            (y, x), _ = self.cell_at(*self.focused)
            on_hit = self.game.state is GameState.LOST and tiles[self.focused] == Tile.EXPLODED
            if not (on_hit and self.games in self.unfocused_games):
                inset = self.hit_ring_inset if on_hit else 1
                focus_ring(scene.screen[y : y + 15, x : x + 15], inset)
        if revealed:
            for row, column in np.argwhere(self.opened_by_player):
                (y, x), (height, width) = self.cell_at(row, column)
                bottom, right = y + height - 1, x + width - 1  # the cell's own grid lines
                scene.screen[bottom, x : right + 1] = scene.screen[y : bottom + 1, right] = GREEN
        if self.rows_covered_at_first and self.clicks == 0:
            top = DRAWN_BOARD_AT[1] + 16 * (9 - self.rows_covered_at_first)
            scene.screen[top : DRAWN_BOARD_AT[1] + 16 * 9, left : left + 16 * 9] = (40, 90, 140)
        if self.button is not None:
            area = self.button
            scene.screen[area.top : area.bottom, area.left : area.right] = (60, 60, 60)
            grey = self.button_grey - 60 * (over and self.relabel_button)
            if self.button_shows_state:
                grey = {GameState.LOST: 170, GameState.WON: 130}.get(self.game.state, grey)
            scene.screen[area.top + 2 : area.bottom - 2, area.left + 2 : area.right - 2] = grey
            if self.button_label is not None:
                self.button_label.draw(scene.screen, area)
        if self.end_label is not None and over:
            area = self.end_label
            scene.screen[area.top : area.bottom, area.left : area.right] = (30, 30, 200)
        if self.dialog_open or self.message_shown():
            area = DRAWN_DIALOG
            scene.screen[area.top : area.bottom, area.left : area.right] = (200, 190, 180)
            scene.screen[area.top + 20 : area.top + 30, area.left + 10 : area.right - 10] = 40
        if self.veiled_dialog_open():
            dialog_box, dim = self.dialog_look
            veil_with_dialog(scene.screen, dialog_box, self.veiled_dialog_on_end, dim)
        if time.monotonic() < self.new_game_at + self.blank_new_game:
            scene.screen[top : top + 16 * 9, left : left + 16 * 9] = scene.screen[0, 0]
        self.menu.draw(scene.screen)
        if self.board_gone():
            self.draw_menu(scene.screen)
        return scene

    def board_gone(self) -> bool:
        """Whether the window shows no board: a game over with ``menu_on_end``."""
        return self.menu_on_end is not None and self.game.state is not GameState.PLAYING

    def draw_menu(self, screen: Image) -> None:
        """Paint the window over: the end's message for ``menu_on_end`` seconds, then the
        menu's buttons (:data:`MENU_BUTTONS`)."""
        window = DRAWN_WINDOW
        screen[window.top : window.bottom, window.left : window.right] = MENU_GROUND
        if time.monotonic() < self.ended_at + (self.menu_on_end or 0.0):
            words = "YOU WIN!" if self.game.state is GameState.WON else "YOU LOSE!"
            cv2.putText(screen, words, (110, 190), cv2.FONT_HERSHEY_SIMPLEX, 0.7, (40, 40, 200), 2)
            return
        for label, area in MENU_BUTTONS.items():
            screen[area.top : area.bottom, area.left : area.right] = (90, 90, 90)
            ButtonLabel(label, fill=(250, 250, 250), ink=(0, 0, 0), scale=0.6).draw(screen, area)

    def relaid(self, scene: synthetic.Scene) -> synthetic.Scene:
        """``scene`` drawn with every column that shows anything but a hidden tile
        ``widen_opened_columns`` pixels wider, as a toolkit widens a button for its content:
        the tile's middle half stays centred, the column of pixels beside it on each side
        repeated, and the columns and frame right of it moved along."""
        shown = (scene.tiles != Tile.HIDDEN).any(axis=0)
        left, top = DRAWN_BOARD_AT
        taken = list(range(left))
        for column, wide in enumerate(shown):
            extra = self.widen_opened_columns * int(wide)
            x = left + 16 * column
            taken += [*range(x, x + 4), *[x + 4] * (extra // 2), *range(x + 4, x + 12)]
            taken += [*[x + 11] * (extra - extra // 2), *range(x + 12, x + 16)]
        taken += range(left + 16 * 9, DRAWN_SCREEN[0])
        band = slice(top - 3, top + 16 * 9 + 3)
        scene.screen[band] = scene.screen[band][:, taken[: DRAWN_SCREEN[0]]]
        widths = 16 + self.widen_opened_columns * shown.astype(int)
        self.edges = (tuple(int(x) for x in np.r_[0, np.cumsum(widths)]), uneven_starts(16, 9, 0))
        return replace(scene, geometry=replace(scene.geometry, edges=self.edges))

    def redraw_flags(self, screen: Image, right: np.ndarray, wrong: np.ndarray) -> None:
        """Draw the ``right`` flags of a lost game as :func:`right_flag_look` and the ``wrong``
        ones as :func:`wrong_flag_look` (see ``right_flags_on_loss``)."""
        for cells, look in ((right, right_flag_look), (wrong, wrong_flag_look)):
            for row, column in np.argwhere(cells):
                (y, x), (height, width) = self.cell_at(row, column)
                pixels = screen[y : y + height, x : x + width]
                pixels[:] = look(pixels)

    def message_shown(self) -> bool:
        """Whether the message over the board shows now (see :attr:`message_on_loss`)."""
        if time.monotonic() < self.lost_at + self.message_on_loss:
            return True
        if time.monotonic() < self.won_at + self.message_on_win:
            return True
        if not self.message_held_by_pointer or self.message_gone or self.lost_at == -math.inf:
            return False
        self.message_gone = self.pointer_seen is None or not DRAWN_DIALOG.contains(
            *self.pointer_seen
        )
        return not self.message_gone

    def cell_at(self, row: int, column: int) -> tuple[tuple[int, int], tuple[int, int]]:
        """The screen (y, x) of a cell's top-left corner and its (height, width)."""
        xs, ys = self.edges or (uneven_starts(16, 9, 0), uneven_starts(16, 9, 0))
        y, x = DRAWN_BOARD_AT[1] + ys[row], DRAWN_BOARD_AT[0] + xs[column]
        return (y, x), (ys[row + 1] - ys[row], xs[column + 1] - xs[column])

    def veiled_dialog_open(self) -> bool:
        over = self.game.state is not GameState.PLAYING
        shown = time.monotonic() >= self.ended_at + self.veiled_dialog_after
        return (
            bool(self.veiled_dialog_on_end) and over and shown and not self.veiled_dialog_answered
        )

    def revealed_tiles(self) -> np.ndarray:
        """What a game lost with ``reveal_on_loss`` shows: every safe cell's number, every mine
        but a flagged one as a MINE (the one hit too), a flag on a safe cell as a WRONG_FLAG (as
        its number with ``numbers_on_wrong_flags``)."""
        layout = self.game.mine_layout
        assert layout is not None
        tiles = np.where(layout, Tile.MINE, neighbour_counts(layout)).astype(np.uint8)
        shown = (Tile.FLAG,) if self.numbers_on_wrong_flags else (Tile.FLAG, Tile.WRONG_FLAG)
        marks = np.isin(self.game.board.tiles, shown)
        tiles[marks] = self.game.board.tiles[marks]
        return tiles

    def grab(self, region: Rect | None = None) -> np.ndarray:
        region = region or Rect(0, 0, *DRAWN_SCREEN)
        frame = self.scene().screen
        return frame[region.top : region.bottom, region.left : region.right].copy()

    def click(self, x: int, y: int, button: str = "left") -> None:
        assert not self.dialog_open, f"clicked ({x}, {y}) while the game's dialog was open"
        self.clicks += 1
        self.buttons.append(button)
        self.pointer_seen = (x, y)
        if self.menu.close():
            return  # the menu takes the click
        if self.veiled_dialog_open():
            label = self.veiled_dialog_on_end[0]
            labels = self.veiled_dialog_on_end
            box, dim = self.dialog_look
            buttons = veil_with_dialog(self.scene().screen, box, labels, dim)
            assert buttons[label].contains(x, y), f"clicked ({x}, {y}), not the dialog's {label}"
            self.answers.append(label)
            self.veiled_dialog_answered = True
            return
        if self.board_gone():
            self.click_menu(x, y)
            return
        geometry = self.scene().geometry
        cell = geometry.cell_at(x, y)
        self.won_face_at_launch = False  # any click on the board or the face ends the launch
        if cell is None and self.end_label is not None and self.end_label.contains(x, y):
            self.label_clicks += 1
        elif cell is None:
            on_button = self.button is not None and self.button.contains(x, y)
            on_face = geometry.face is not None and geometry.face.contains(x, y)
            assert on_button or on_face, (x, y)
            if on_button and self.button_only_when_over and self.game.state is GameState.PLAYING:
                self.button_clicks_ignored += 1
                return
            self.new_games["button" if on_button else "face"] += 1
            self.focused = None
            self.start_new_game()
        elif self.message_on_finished_click and self.game.state is GameState.LOST:
            self.lost_at = time.monotonic()
        elif self.presses_after_loss and self.game.state is GameState.LOST:
            if button == "left" and self.game.board.tiles[cell] == Tile.HIDDEN:
                self.pressed.add(cell)
        elif button == "right" and self.right_click != "marks":
            if self.right_click == "menu":
                self.menu.open(x, y)
        elif button == "left":
            self.focused = cell
            playing = self.game.state is GameState.PLAYING
            opened = self.game.board.tiles <= Tile.EIGHT
            flagged = self.game.board.tiles == Tile.FLAG
            self.game.open(cell)
            if self.opens_around_flags and self.game.state is GameState.PLAYING:
                self.game.chord(cell)
            self.animate_flood(cell, opened)
            if self.won_leaves_mines_hidden and playing and self.game.state is GameState.WON:
                self.hidden_when_won = ~opened & ~flagged & (self.game.board.tiles == Tile.FLAG)
            if playing and self.game.state is not GameState.PLAYING:
                self.ended_at = time.monotonic()
                self.endings.append(self.game.state)
            if playing and self.game.state is GameState.WON:
                self.won_at = time.monotonic()
            lost = self.game.state is GameState.LOST
            if lost and playing:
                self.opened_by_player = opened
            self.losses += lost
            if lost and not self.message_on_finished_click:
                self.lost_at = time.monotonic()
            self.dialog_open = self.dialog_on_loss and lost
        elif not self.marks_before_start and (self.game.board.tiles <= Tile.EIGHT).sum() == 0:
            pass  # no flag before the game's first click
        elif self.questions is None:
            self.game.flag(cell)
        elif cell in self.questions:
            self.questions.remove(cell)
        elif self.game.board.tiles[cell] == Tile.FLAG:
            self.game.flag(cell)
            self.questions.add(cell)
        else:
            self.game.flag(cell)

    def click_menu(self, x: int, y: int) -> None:
        """A click while the board is gone: on the menu's first button, a new game; a click
        on another button, or before the menu shows, fails the test."""
        assert time.monotonic() >= self.ended_at + (self.menu_on_end or 0.0), (x, y)
        label = next((label for label, area in MENU_BUTTONS.items() if area.contains(x, y)), None)
        assert label == next(iter(MENU_BUTTONS)), f"clicked ({x}, {y}) on {label} in the menu"
        self.menu_clicks.append(label)
        self.new_games["button"] += 1
        self.start_new_game()

    def animate_flood(self, clicked: tuple[int, int], opened_before: np.ndarray) -> None:
        """With ``flood_step``, draw what the click on ``clicked`` opened a ring at a time."""
        if not self.flood_step:
            return
        now = time.monotonic()
        newly = (self.game.board.tiles <= Tile.EIGHT) & ~opened_before
        for row, column in zip(*np.nonzero(newly), strict=True):
            ring = max(abs(int(row) - clicked[0]), abs(int(column) - clicked[1]))
            self.shown_at[(int(row), int(column))] = now + ring * self.flood_step

    def start_new_game(self) -> None:
        begun = (self.game.board.tiles != Tile.HIDDEN).any()
        self.abandoned += begun and self.game.state is GameState.PLAYING
        self.hidden_when_won = np.zeros((9, 9), dtype=bool)
        self.seed += 1
        self.games += 1
        self.game = self.new_board()
        self.new_game_at = time.monotonic()
        self.veiled_dialog_answered = False
        self.lost_at = self.won_at = -math.inf
        self.message_gone = False
        self.questions = None if self.questions is None else set()
        self.pressed = set()
        self.shown_at = {}

    def press(self, key: str, x: int, y: int) -> None:
        assert Rect(0, 0, *DRAWN_SCREEN).contains(x, y), (key, x, y)
        self.keys.append(key)
        if key == "escape":
            self.menu.close()
        elif key in self.new_game_keys:
            self.start_new_game()

    def move(self, x: int, y: int) -> None:
        assert Rect(0, 0, *DRAWN_SCREEN).contains(x, y), (x, y)
        if not self.dialog_open:
            self.pointer_seen = (x, y)

    def close_dialogs(self) -> int:
        was_open, self.dialog_open = self.dialog_open, False
        self.dialogs_closed += was_open
        return int(was_open)


MENU_GROUND = (236, 240, 226)
"""The plain colour a drawn game with ``menu_on_end`` paints its window with once a game ends."""
MENU_BUTTONS = {"Easy": Rect(130, 170, 90, 30), "Quit": Rect(130, 220, 90, 30)}
"""The buttons of a drawn game's menu (``menu_on_end``), the first over the board's place: it
brings back a board of the same size."""
FRAME_GREY = (236, 232, 230)
"""The frame an opened cell of a drawn game draws past its edges (see ``frame_spill``)."""
GREEN = (0, 255, 0)
"""The colour a drawn game that reveals every cell on a loss redraws its opened cells' lines in."""
DRAWN_WINDOW = Rect(60, 60, 240, 240)
"""The drawn game's window, as calibration is given it."""


def calibrated(
    screen: DrawnGame,
    max_games: int,
    new_game_at: tuple[int, int] | None = None,
    window: Rect = DRAWN_WINDOW,
    mines: int | None = 10,
) -> Calibration:
    """Calibrate the drawn game from its window, as the user would (telling it the board's
    ``mines``, or not)."""
    return calibrate(
        "drawn",
        screen,
        screen,
        [window],
        mines=[mines],
        max_games=max_games,
        seed=1,
        progress=False,
        new_game_at=new_game_at,
    )


def played_to_the_end(
    table: ScreenTable, games: int, folder: Path, flags: bool = False
) -> list[LoggedGame]:
    """``games`` games played on ``table`` as ``autosweeper play`` plays them (with ``flags``:
    as ``--flags`` does), their outcomes logged in ``folder``; each must end won or lost, none
    cut short."""
    with OutcomeLog(folder / "outcomes.sqlite3") as log:
        player = GamePlayer(table, log, one_game_a_second=False, flags=flags)
        reports = list(play_games(player, games, echo=lambda line: None))
        records = log.games()
    reasons = [report.reason for report in reports if report.reason]
    assert reasons == [], reasons  # a helper module: pytest shows no list by itself
    return records


def assert_learned_truly(result: Calibration, screen: DrawnGame, tiles: Iterable[Tile]) -> None:
    """Each of ``tiles`` was learned as the picture the drawn game shows."""
    width, height = result.skin.tile_size
    for tile in tiles:
        expected = screen.skin.templates[tile][:height, :width]
        assert np.array_equal(result.skin.templates[tile], expected), tile


class GuardedMouse:
    """The play loop's mouse on a drawn game: refuses a click outside the areas allowed (as
    :class:`controller.mouse.Mouse` does) or one its check refuses."""

    def __init__(self, screen: DrawnGame) -> None:
        self.screen = screen
        self.allowed: list[Rect] = []

    def allow(self, *areas: Rect) -> None:
        self.allowed = list(areas)

    def slow_down(self, to: float | None = None) -> float | None:
        return None  # a drawn screen takes every click, however fast

    def click(self, x: int, y: int, button: str = "left", check: Check | None = None) -> None:
        if not any(area.contains(x, y) for area in self.allowed):
            raise ClickOutsideError(f"refused a click at ({x}, {y})")
        if check is None or check(self.screen.grab):
            self.screen.click(x, y, button)

    def press(self, key: str, x: int, y: int, check: Check | None = None) -> None:
        raise AssertionError(f"pressed {key} at ({x}, {y}): a drawn game takes no keys")

    def close_dialogs(self) -> int:
        return self.screen.close_dialogs()

    def window_of(self, area: Rect) -> Rect:
        """No windows are known on a drawn screen."""
        return area

    def park(self, board: Rect) -> None:
        """Nowhere to rest: a drawn game lights no tile."""

    def leave(self, area: Rect) -> None:
        """Nothing is drawn under the pointer on a drawn game."""


DRAWN_BUTTON = Rect(250, 270, 30, 20)
"""A drawn game's "New game" button: in its window, right of and below the board."""


class RefusingPointer:
    """A pointer that fails the test on any click or key press."""

    def click(self, x: int, y: int, button: str = "left") -> None:
        raise AssertionError(f"clicked ({x}, {y}) with the {button} button")

    def press(self, key: str, x: int, y: int) -> None:
        raise AssertionError(f"pressed {key} at ({x}, {y})")

    def move(self, x: int, y: int) -> None:
        raise AssertionError(f"moved to ({x}, {y})")

    def close_dialogs(self) -> int:
        return 0  # looking for dialogs touches no window
