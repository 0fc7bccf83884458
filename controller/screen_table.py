"""A real game window as a :class:`controller.table.Table`: :class:`ScreenTable` reads it through
a skin and clicks it only as it was read, through the guarded mouse.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Protocol

from calibration import waits
from calibration.dialogs import DialogAnswer, DialogButton, answer_dialog_over
from calibration.labels import NoTextReader, read_end_message
from calibration.learn_in_play import Lesson, SkinLearner
from calibration.mine_count import MineCount, Shown, numbers_shown
from calibration.new_game_ways import BUTTON_POLL
from controller.chording import BUTTONS, Chording, ChordWays
from controller.click_checks import button_as_saved, cells_now, face_now
from controller.errors import NoNewGameAction, NotAsRead
from controller.mouse import Check, Grab
from controller.relocation import whole_board
from controller.stopping import failsafe_as_stop
from controller.stopwatch import Stopwatch, TimedGrabber
from solver import Cell, GameState, Tile
from solver.strategy import Action, Move
from vision.capture import Screen
from vision.errors import UnreadableCellError
from vision.geometry import BoardGeometry, Rect
from vision.locate import locate_on_screen
from vision.match import TemplateBank, picture_distance
from vision.read import Reading
from vision.skin import Image, Skin
from vision.stable import STILL_TIMEOUT, StillRule

_BUTTONS = {Action.OPEN: "left", Action.FLAG: "right"}


class GuardedPointer(Protocol):
    """A mouse that refuses clicks outside its allowed areas, and any the check refuses
    (:class:`controller.mouse.Mouse`)."""

    def allow(self, *areas: Rect) -> None: ...

    def click(self, x: int, y: int, button: str = "left", check: Check | None = None) -> None: ...

    def slow_down(self, to: float | None = None) -> float | None: ...

    def press(self, key: str, x: int, y: int, check: Check | None = None) -> None: ...

    def close_dialogs(self) -> int: ...

    def window_of(self, area: Rect) -> Rect: ...

    def park(self, board: Rect) -> None: ...

    def leave(self, area: Rect) -> None: ...


class ScreenTable:
    """A game window on the screen: read through a skin, clicked through the guarded mouse.

    The mouse may click only inside the located board and its face button, and only once the
    screen, captured at that very moment, shows the game as last read: the clicked cell as it
    was (a cell an earlier click of the burst opened is skipped), two opposite corner cells of
    the board as they were or opened since, and for a click on the face the face as it was. The
    clicked cell alone would not do: a window moved by a whole number of cells can show a
    closed cell there again, but then one of the corner cells shows what lies beyond the board.
    After the board moves it is located again (by the same skin and shape) and the allowed
    areas follow it.
    """

    def __init__(
        self,
        grabber: Screen,
        skin: Skin,
        geometry: BoardGeometry,
        mouse: GuardedPointer,
        mines: int,
        *,
        game: str,
        first_click: str | None,
        stopwatch: Stopwatch | None = None,
        save_skin: Callable[[Skin], object] | None = None,
        reads_count: bool = False,
    ) -> None:
        """``save_skin`` keeps the skin once play has taught it a tile (None: never saved);
        ``reads_count``: play was not told the mine count, and reads the one the game shows on
        each new game (``mines`` is the count to play while none is read)."""
        self.game = game
        self.skin = skin.name
        self.first_click = first_click
        self.takes_flags = skin.takes_marks
        self.board_goes_away = skin.board_gone_on_end
        self.mines = mines
        self.stopwatch = stopwatch or Stopwatch()
        self._grabber = grabber
        self._timed_grabber = TimedGrabber(grabber, self.stopwatch)
        self._still = StillRule(skin.extra.get("animation_still"))
        """How long a frame holds still to count as drawn, learned on this window (or by
        calibration, for a game that animates what a click opens)."""
        self._skin = skin
        self._mouse = mouse
        self._save_skin = save_skin
        learned_pause = skin.extra.get("click_pause")
        if learned_pause:  # the game missed clicks sent faster in an earlier run
            mouse.slow_down(to=learned_pause)
        self._chords = ChordWays(skin.extra, self._keep_skin)
        self._learner = SkinLearner(skin, mines)
        """What play teaches the skin (:mod:`calibration.learn_in_play`)."""
        self._unreadable: Image | None = None
        """The last frame that could not be read."""
        self._frame: Image | None = None
        self._reading: Reading | None = None
        self._face_as_read: TemplateBank[str] | None = None
        self._parked = False
        """Whether the pointer has been moved off the board since the last click."""
        self._window = Rect(0, 0, 0, 0)
        """The game's window (the board itself where windows are not known)."""
        self._window_as_found: Image | None = None
        """The game's window when its board was found: before any dialog veiled it."""
        self._count = MineCount() if reads_count else None
        self._use(geometry)

    def _use(self, geometry: BoardGeometry) -> None:
        self.geometry = geometry
        self._read_anew()
        rows, columns = geometry.shape
        self._corners = ((0, 0), (rows - 1, columns - 1))
        self._mouse.allow(*self._areas())
        window = self._mouse.window_of(geometry.rect).intersection(self._grabber.screen)
        self._window = window if window.width and window.height else geometry.rect
        self._window_as_found = self._timed_grabber.grab(self._window)

    def _read_anew(self) -> None:
        """Read with the skin and pictures as they are now; no click before the next read."""
        self._reader = self._learner.reader(self.geometry)
        self._frame = self._reading = self._face_as_read = None

    def _areas(self) -> list[Rect]:
        """Where clicks may go: the board, its face, the user's "New game" button."""
        geometry = self.geometry
        areas = [geometry.rect] + ([geometry.face] if geometry.face is not None else [])
        if self._skin.new_game.at is not None:
            areas.append(Rect(*self._new_game_point(), 1, 1))
        return areas

    def look(self, changed: bool = False, patience: float | None = None) -> Reading:
        """Only the board and face must hold still (the timer between them ticks every second).
        Time spent grabbing is the ``capture`` stage, inside ``wait``."""
        if not self._parked:  # a tile under the pointer may be lit up
            self._mouse.park(self.geometry.rect)
            self._parked = True
        with self.stopwatch.stage("wait"):
            frame = self._still.wait(
                self._timed_grabber,
                self._reader.region,
                watch=self._reader.watched,
                differs_from=self._frame if changed else None,
                timeout=STILL_TIMEOUT if patience is None else patience,
            )
        with self.stopwatch.stage("read"):
            try:
                reading = self._reader.read(frame, self.mines)
            except UnreadableCellError:
                self._unreadable = frame
                raise
        self._unreadable = None
        self._keep(frame, reading)
        return reading

    def still_as_read(self) -> bool:
        if self._frame is None:
            return True
        region, watched = self._reader.region, self._reader.watched
        with self.stopwatch.stage("wait"):
            return self._still.confirm(self._timed_grabber, region, self._frame, watched)

    def _keep(self, frame: Image, reading: Reading) -> None:
        """Remember ``reading`` of ``frame`` as the last read: clicks are checked against it."""
        self._frame, self._reading = frame, reading
        face = self._reader.face_image(frame)
        self._face_as_read = None if face is None else TemplateBank(["as read"], [face])

    def known_numbers(self) -> dict[int, set[Tile]]:
        return self._learner.known_numbers(self._reader)

    def picture_classes(self) -> dict[int, int]:
        return self._learner.picture_classes()

    def adopt_unknown(
        self, cells: Sequence[Cell], keep: Callable[[Reading], bool], last_read: bool = False
    ) -> Reading | None:
        return self._take(
            cells,
            lambda frame: self._learner.adopt_unknown(self._reader, frame, cells, keep),
            self._frame if last_read else self._unreadable,
        )

    def learn_flags(
        self, cells: Sequence[Cell], keep: Callable[[Reading], bool] = lambda reading: True
    ) -> Reading | None:
        return self._take(
            cells,
            lambda frame: self._learner.learn_flags(self._reader, frame, cells, keep),
            self._unreadable,
        )

    def read_lost(self, cells: Sequence[Cell], read_before: Mapping[Cell, Tile]) -> Reading | None:
        # Kept as the last read, which the next new-game action is checked with.
        return self._take(
            cells,
            lambda frame: self._learner.read_lost(self._reader, frame, cells, read_before),
            self._unreadable,
        )

    def _take(
        self,
        cells: Sequence[Cell],
        lesson_of: Callable[[Image], Lesson | None],
        frame: Image | None,
    ) -> Reading | None:
        """The read of ``frame`` (the last found unreadable, or the last read) once ``lesson_of``
        it is learned (see :mod:`calibration.learn_in_play`); None without such a frame, cells
        or lesson."""
        if frame is None or not cells:
            return None
        lesson = lesson_of(frame)
        if lesson is None:
            return None
        if lesson.taught_skin:
            self._learned()
        if lesson.reader is not None:
            self._reader = lesson.reader
        self._keep(frame, lesson.reading)
        return lesson.reading

    def label(self, tiles: Mapping[int, Tile]) -> None:
        self._learner.label(tiles)
        self._learned()

    def learn_won_face(self) -> bool:
        if self._frame is None:
            return False
        if not self._learner.learn_won_face(self._reader.face_image(self._frame)):
            return False
        self._learned()
        return True

    def _learned(self) -> None:
        """Keep the skin play has just taught a picture, and read with it from now on. The
        board is where it was found: it is not looked for again, and the window as found
        (before any dialog veiled it) is kept."""
        self._skin.check()
        if self._save_skin is not None:
            self._save_skin(self._skin)
        self._read_anew()

    def play(self, move: Move) -> bool:
        needed = False

        def cell_as_read(grab: Grab) -> bool:
            nonlocal needed
            now = self._cells_now(grab, {move.cell, *self._corners})
            needed = now[move.cell] == self._as_read().board[move.cell]
            return needed

        x, y = self.geometry.cell_centre(move.cell)
        self._click(x, y, _BUTTONS[move.action], cell_as_read)
        return needed

    def chord(self, cell: Cell) -> bool:
        """Checked as a click is, on the number and every cell around it: the number and its
        flags as read, and a closed cell left to open (else nothing is sent: False)."""
        needed = False

        def around_as_read(grab: Grab) -> bool:
            nonlocal needed
            board = self._as_read().board
            around = set(board.neighbours(cell))
            now = self._cells_now(grab, {cell, *around, *self._corners})
            needed = any(now[near].is_closed for near in around if board[near].is_closed)
            flags = all((now[near] == Tile.FLAG) == (board[near] == Tile.FLAG) for near in around)
            return needed and flags

        x, y = self.geometry.cell_centre(cell)
        self._click(x, y, BUTTONS[self._chords.way or "middle"], around_as_read)
        return needed

    def chording(self) -> Chording:
        return self._chords.state

    def chord_opened(self, opened: bool) -> None:
        self._chords.opened(opened)

    def take_clicks_slower(self) -> bool:
        """The pause reached is kept in the skin: the next run starts there."""
        pause = self._mouse.slow_down()
        if pause is None:
            return False
        self._skin.extra["click_pause"] = pause
        self._keep_skin()
        return True

    def _keep_skin(self) -> None:
        if self._save_skin is not None:
            self._save_skin(self._skin)

    def new_game(self, attempt: int = 0) -> None:
        ways = self._new_game_ways()
        if not ways:
            raise NoNewGameAction(
                f"skin {self._skin.name!r} has no usable new-game action ({self._skin.new_game})"
            )
        face, way = self.geometry.face, ways[attempt % len(ways)]
        if way == "face" and face is not None:
            self._click(*face.centre, "left", self._still_as_read(self._corners_as_read(), face))
        elif way == "point" and self.board_goes_away:
            self._await_button()
            self._click(*self._new_game_point(), "left", self._point_as_saved(board_shown=False))
        elif way == "point":
            self._click(*self._new_game_point(), "left", self._point_as_saved())
        elif self._skin.new_game.key:
            x, y = self.geometry.rect.centre
            under = self.geometry.cell_at(x, y)
            if under is not None:  # checked before the pointer gets there and lights it up
                if not self._parked:
                    self._mouse.park(self.geometry.rect)
                    self._parked = True
                self._cells_now(self._timed_grabber.grab, {under})
            corners = set(self._corners_as_read()) - {under}
            with failsafe_as_stop():
                self._parked = False  # the key is pressed with the pointer over the board
                self._mouse.press(self._skin.new_game.key, x, y, self._still_as_read(corners))

    def _corners_as_read(self) -> tuple[Cell, Cell]:
        """Two opposite corner cells whose last read a check can repeat: on a lost board a
        corner may show a picture kept for that read only (see :meth:`read_lost`), which no
        later read matches (the mine hit drawn on another ground)."""
        rows, columns = self.geometry.shape
        reading = self._as_read()

        def repeatable(cell: Cell) -> bool:
            return reading.board[cell] != Tile.OPENED or cell in reading.pictures

        other = ((0, columns - 1), (rows - 1, 0))
        return self._corners if all(map(repeatable, self._corners)) else other

    def _still_as_read(self, cells: Iterable[Cell], face: Rect | None = None) -> Check:
        """The check before a new-game action: ``cells`` (and the face) show what the last read
        did, else :class:`NotAsRead` is raised and nothing is sent."""

        def check(grab: Grab) -> bool:
            self._cells_now(grab, cells)
            if face is not None:
                face_now(self._face_as_read, self._skin.threshold, grab, face)
            return True

        return check

    def _point_as_saved(self, board_shown: bool = True) -> Check:
        """The check before a click on the new-game point: the corners as last read (unless
        ``board_shown`` is off: a game whose end took its board away has no cell left to
        check), and the point showing one of the looks of the button the skin saw there, else
        :class:`NotAsRead` is raised."""
        corners = self._still_as_read(self._corners_as_read()) if board_shown else None

        def check(grab: Grab) -> bool:
            if corners is not None:
                corners(grab)
            button_as_saved(self._skin.buttons, self._skin.threshold, grab, self._new_game_point())
            return True

        return check

    def _await_button(self) -> None:
        """Wait, up to :data:`calibration.waits.MENU_WAIT`, until the new-game point shows one
        of the looks of the button the skin saw there: a game whose end took its board away
        writes its end over the window first (the click's own check then says if it did not)."""
        point, buttons = self._new_game_point(), self._skin.buttons
        deadline = time.monotonic() + waits.MENU_WAIT
        while time.monotonic() < deadline:
            try:
                button_as_saved(buttons, self._skin.threshold, self._timed_grabber.grab, point)
                return
            except NotAsRead:
                time.sleep(BUTTON_POLL)

    def end_message(self) -> GameState | None:
        try:
            return read_end_message(self._timed_grabber.grab(self.geometry.rect))
        except NoTextReader:
            return None

    def _as_read(self) -> Reading:
        if self._reading is None:
            raise NotAsRead("no click before the board is read")
        return self._reading

    def _cells_now(self, grab: Grab, cells: Iterable[Cell]) -> dict[Cell, Tile]:
        return cells_now(self._reader, self._as_read().board, grab, cells)

    def _new_game_ways(self) -> list[str]:
        """``point``, ``key`` and/or ``face``, the skin's own way first."""
        how = self._skin.new_game
        point = ["point"] if how.at is not None else []
        key = ["key"] if how.key else []
        face = ["face"] if self.geometry.face is not None else []
        return point + key + face if how.kind != "face" else face + key

    def _new_game_point(self) -> tuple[int, int]:
        """Where the skin's new-game point is on the screen, by the board as found now."""
        at = self._skin.new_game.at
        assert at is not None
        return self.geometry.left + at[0], self.geometry.top + at[1]

    def read_mine_count(self) -> int | None:
        if self._count is None:
            return None
        cells = self.geometry.rows * self.geometry.columns
        try:
            count = self._count.read(self._window_now, self._numbers_in, cells)
        except NoTextReader:
            return None
        if count is not None:
            self.mines = self._learner.mines = count
        return count

    def _window_now(self) -> Image:
        return self._timed_grabber.grab(self._window)

    def _numbers_in(self, frame: Image) -> list[Shown]:
        """The numbers a picture of the game's window shows beside the board and face, placed
        from the board's top-left corner (the window may move)."""
        window, geometry = self._window, self.geometry
        shown = [geometry.rect] + ([geometry.face] if geometry.face is not None else [])
        blank = [replace(r, left=r.left - window.left, top=r.top - window.top) for r in shown]
        return numbers_shown(frame, blank, (window.left - geometry.left, window.top - geometry.top))

    def check_whole(self) -> bool:
        found = whole_board(self._grabber, self._skin, self.geometry)
        if found is None:
            return False
        self._use(found)
        return True

    def relocate(self) -> bool:
        shape = (self.geometry.rows, self.geometry.columns)
        found = locate_on_screen(self._grabber, self._skin, shape=shape)
        if found == self.geometry:
            return False
        self._use(found)
        return True

    def close_dialogs(self) -> int:
        return self._mouse.close_dialogs()

    def answer_dialog(self) -> DialogAnswer:
        if self._window_as_found is None:
            return DialogAnswer.NO_VEIL
        board = None
        if self._frame is not None:  # the board as last read
            region = self._reader.region
            at = replace(
                region, left=region.left - self._window.left, top=region.top - self._window.top
            )
            board = (self._frame, at)
        return answer_dialog_over(
            self._timed_grabber, self._window, self._window_as_found, board, self._click_button
        )

    def _click_button(self, button: DialogButton) -> bool:
        """Click a dialog's button, checked still shown as it was read; whether it was."""
        rect = button.rect

        def still_shown(grab: Grab) -> bool:
            distance = picture_distance(button.picture, grab(rect))
            if distance > self._skin.threshold:
                raise NotAsRead(f"the dialog's {button.label!r} button at {rect} is gone")
            return True

        self._mouse.allow(*self._areas(), rect)
        try:
            self._click(*rect.centre, "left", still_shown)
        except NotAsRead:
            return False
        finally:
            self._mouse.allow(*self._areas())
        return True

    def step_away(self) -> None:
        self._mouse.leave(self.geometry.rect)
        self._parked = True  # off the board too: no tile under the pointer is lit

    def _click(self, x: int, y: int, button: str, check: Check) -> None:
        with failsafe_as_stop(), self.stopwatch.stage("click"):
            self._parked = False
            self._mouse.click(x, y, button, check)
