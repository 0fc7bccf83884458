"""The game on the screen, as the play loop sees it: the :class:`Table` protocol, and
:class:`ScreenTable`, which reads a real window through a skin and clicks it only as it was read.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from enum import Enum
from typing import Protocol

import numpy as np

from calibration.dialogs import dialog_over, with_part
from controller.errors import NoNewGameAction, NotAsRead
from controller.mouse import Check, Grab
from controller.stopping import failsafe_as_stop
from controller.stopwatch import Stopwatch
from solver import Cell, GameState, Tile
from solver.strategy import Action, Move
from vision.capture import Screen
from vision.errors import BoardNotFoundError, UnreadableCellError, VisionError
from vision.geometry import BoardGeometry, Rect
from vision.locate import locate_on_screen
from vision.match import TemplateBank, picture_distance
from vision.opened import opened_beside_a_zero
from vision.read import BoardReader, Reading
from vision.skin import SIZE_CLASSES, Image, Skin
from vision.stable import wait_stable


class Table(Protocol):
    """One game on the screen, as the play loop sees it."""

    game: str
    """The program's name, as launched or as the skin records it."""
    skin: str
    first_click: str | None
    """The game's first-click rule when known (a :class:`solver.FirstClick` value)."""

    def look(self, changed: bool = False) -> Reading:
        """Wait until the board holds still (and, if ``changed``, differs from the last look);
        read it."""

    def play(self, move: Move) -> bool:
        """Click ``move``'s cell the way its action needs, if the game is still as last read.

        Returns False, clicking nothing, when the cell no longer needs the click (an earlier
        click of the burst opened it); raises :class:`NotAsRead`, clicking nothing, when the game
        is not there as last read (closed, moved, covered, or changed by itself)."""

    def new_game(self, attempt: int = 0) -> None:
        """Start a new game: the skin's way first; later attempts may use another way the game
        offers (a key press can miss, depending on which window has the keyboard). Raises
        :class:`NoNewGameAction` when it offers none."""

    def relocate(self) -> bool:
        """Find the board again after it vanished; True if it moved (and was found)."""

    def close_dialogs(self) -> int:
        """Close the dialogs the game has open (a score table, a "Game Over" over the board),
        on those dialogs only; how many there were."""

    def answer_dialog(self) -> DialogAnswer:
        """If a dialog drawn inside the game's window veils it (a browser dims the page under
        its "OK"/"Cancel" box), click the dialog's button that leaves the game as it is (see
        :mod:`calibration.dialogs`), checked on the screen just before; what was found."""

    def step_away(self) -> None:
        """Move the pointer out of the game's window: a game may keep a message over its board
        while the pointer rests on the message (some popups do not hide while hovered)."""

    def known_numbers(self) -> dict[int, set[Tile]]:
        """Per size class of the board's cells (0 only, on an evenly spaced board), the numbers
        the skin has seen drawn on that class's cells."""

    def picture_classes(self) -> dict[int, int]:
        """The size class of each unlabelled picture (numbered as in
        :attr:`vision.read.Reading.pictures`): the class of the cells it was met on."""

    def adopt_unknown(
        self, cells: Sequence[Cell], keep: Callable[[Reading], bool]
    ) -> Reading | None:
        """The board just found unreadable at ``cells``, with the pictures there taken as
        numbers not known yet (:attr:`solver.Tile.OPENED`), if ``keep`` accepts that reading;
        else None, and nothing is kept."""

    def learn_flags(self, cells: Sequence[Cell]) -> Reading | None:
        """The board just found unreadable at ``cells`` (closed cells a click just flagged),
        with the pictures there taken as the game's flag on cells of their size class, if the
        whole board then reads (each of ``cells`` as a flag): from now on they read so, and the
        skin keeps them. Else None, and nothing is kept."""

    def check_whole(self) -> bool:
        """On a new game's board, whether the board found was part of a larger one, which is
        played from now on (it must be read again). Checked at every new game: a board found
        short of an edge line that the game drew unlike the skin (a lost board), or of a line of
        0s (which locate leaves out where no shape is asked), shows whole on a later board."""

    def read_lost(self, cells: Sequence[Cell], numbers: Mapping[Cell, Tile]) -> Reading | None:
        """The board just found unreadable at ``cells`` with those cells read as opened cells of
        unknown number (:attr:`solver.Tile.OPENED`), if the rest says the game is lost (a loss
        that shows every cell shows numbers no click opened, perhaps one never seen; a burst's
        last click may lose after an earlier one opened a number never seen); else None.
        Nothing is learned from those pictures: a message over a finished board is no number.
        But a cell of ``numbers`` (read as that number during the game) keeps it: its picture
        is how a finished game draws that number on its size class, read and kept so
        (:attr:`vision.skin.Skin.finished`), if the board then reads each as its number."""

    def label(self, tiles: Mapping[int, Tile]) -> None:
        """Each unlabelled picture (numbered as in :attr:`vision.read.Reading.pictures`) shows
        its tile in ``tiles``: from now on cells of its size class read it so, and the skin keeps
        it. The pictures left unlabelled are numbered anew, in the same order."""

    def learn_won_face(self) -> bool:
        """On the board just read won, with a face none of the skin's: that face is the game's
        won face (calibration may never have won a game), which the skin keeps, so that a board
        left won is found by it. True if it was learned."""


class DialogAnswer(Enum):
    """What :meth:`Table.answer_dialog` found."""

    NO_VEIL = "no dialog veils the game"
    ANSWERED = "a dialog in the game's window was answered"
    UNANSWERED = (
        "a dialog drawn in the game's window veils it, and none of its buttons reads Cancel, No "
        "or OK"
    )


_BUTTONS = {Action.OPEN: "left", Action.FLAG: "right", Action.CHORD: "middle"}


class GuardedPointer(Protocol):
    """A mouse that refuses clicks outside its allowed areas, and any the check refuses
    (:class:`controller.mouse.Mouse`)."""

    def allow(self, *areas: Rect) -> None: ...

    def click(self, x: int, y: int, button: str = "left", check: Check | None = None) -> None: ...

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
    ) -> None:
        """``save_skin`` keeps the skin once play has taught it a tile (None: never saved)."""
        self.game = game
        self.skin = skin.name
        self.first_click = first_click
        self.mines = mines
        self.stopwatch = stopwatch or Stopwatch()
        self._grabber = grabber
        self._timed_grabber = _TimedGrabber(grabber, self.stopwatch)
        self._skin = skin
        self._mouse = mouse
        self._save_skin = save_skin
        self._unlabelled: list[tuple[int, Image]] = []
        """Pictures of opened cells first seen in play, their numbers not known yet, each with
        the size class of the cell it was met on."""
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
        self._reader = BoardReader(self._skin, self.geometry, unlabelled=self._unlabelled)
        self._frame = self._reading = self._face_as_read = None

    def _areas(self) -> list[Rect]:
        """Where clicks may go: the board, its face, the user's "New game" button."""
        geometry = self.geometry
        areas = [geometry.rect] + ([geometry.face] if geometry.face is not None else [])
        if self._skin.new_game.at is not None:
            areas.append(Rect(*self._new_game_point(), 1, 1))
        return areas

    def look(self, changed: bool = False) -> Reading:
        """Only the board and face must hold still (the timer between them ticks every second).
        Time spent grabbing is the ``capture`` stage, inside ``wait``."""
        if not self._parked:  # a tile under the pointer may be lit up
            self._mouse.park(self.geometry.rect)
            self._parked = True
        with self.stopwatch.stage("wait"):
            frame = wait_stable(
                self._timed_grabber,
                self._reader.region,
                watch=self._reader.watched,
                differs_from=self._frame if changed else None,
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

    def _keep(self, frame: Image, reading: Reading) -> None:
        """Remember ``reading`` of ``frame`` as the last read: clicks are checked against it."""
        self._frame, self._reading = frame, reading
        face = self._reader.face_image(frame)
        self._face_as_read = None if face is None else TemplateBank(["as read"], [face])

    def known_numbers(self) -> dict[int, set[Tile]]:
        classes = np.unique(self.geometry.size_classes).tolist()
        return {c: {tile for tile in self._skin.known_in(c) if tile.is_number} for c in classes}

    def picture_classes(self) -> dict[int, int]:
        return {index: size_class for index, (size_class, _) in enumerate(self._unlabelled)}

    def adopt_unknown(
        self, cells: Sequence[Cell], keep: Callable[[Reading], bool]
    ) -> Reading | None:
        met = self._met(cells)
        if met is None:
            return None
        frame, pictures = met
        trial = list(self._unlabelled)
        for size_class, image in pictures:  # one per new appearance: a twin would tie with it
            alike = [picture for c, picture in trial if c == size_class]
            if not alike or self._is_new(image, alike):
                trial.append((size_class, image))
        read = self._read_with(frame, trial)
        if read is None or not keep(read[1]):
            return None
        reader, reading = read
        self._unlabelled[:] = trial
        self._reader = reader
        self._keep(frame, reading)
        return reading

    def learn_flags(self, cells: Sequence[Cell]) -> Reading | None:
        met = self._met(cells)
        if met is None:
            return None
        frame, pictures = met
        flags = dict(pictures)  # one per size class: the others of that class must read as it

        def teach(skin: Skin) -> None:
            for size_class, picture in flags.items():
                learn_picture(skin, Tile.FLAG, size_class, picture)

        trial = copy.deepcopy(self._skin)
        teach(trial)
        read = self._read_with(frame, self._unlabelled, trial)
        if read is None or any(read[1].board[cell] != Tile.FLAG for cell in cells):
            return None
        reading = read[1]
        teach(self._skin)
        self._learned()
        self._keep(frame, reading)
        return reading

    def read_lost(self, cells: Sequence[Cell], numbers: Mapping[Cell, Tile]) -> Reading | None:
        met = self._met(cells)
        if met is None:
            return None
        frame, pictures = met
        redrawn = {  # one per number and size class: the others must read as it
            (size_class, numbers[cell]): picture
            for cell, (size_class, picture) in zip(cells, pictures, strict=True)
            if cell in numbers
        }
        others = [each for cell, each in zip(cells, pictures, strict=True) if cell not in numbers]

        def teach(skin: Skin) -> None:
            for (size_class, tile), picture in redrawn.items():
                skin.finished.setdefault(size_class, {})[tile] = picture

        trial = copy.deepcopy(self._skin) if redrawn else self._skin
        teach(trial)
        read = self._read_with(frame, [*self._unlabelled, *others], trial)
        if read is None or read[1].outcome != GameState.LOST:
            return None
        if any(read[1].board[cell] != tile for cell, tile in numbers.items()):
            return None
        if redrawn:
            teach(self._skin)
            self._learned()
        # The pictures taken for this read only already read as opened cells of unknown
        # number; they are no pictures of this table's.
        reading, known = read[1], len(self._unlabelled)
        unknown = {cell: picture for cell, picture in reading.pictures.items() if picture < known}
        lost = replace(reading, pictures=unknown)
        self._keep(frame, lost)  # the last read, which the next new-game action is checked with
        return lost

    def _met(self, cells: Sequence[Cell]) -> tuple[Image, list[tuple[int, Image]]] | None:
        """The frame last found unreadable, and the picture of each of ``cells`` in it with
        the size class of the cell; None without such a frame (or cells)."""
        frame = self._unreadable
        if frame is None or not cells:
            return None
        tiles = self._reader.tile_images(frame)
        classes = self.geometry.size_classes
        return frame, [(int(classes[cell]), np.array(tiles[cell])) for cell in cells]

    def _read_with(
        self, frame: Image, unlabelled: list[tuple[int, Image]], skin: Skin | None = None
    ) -> tuple[BoardReader, Reading] | None:
        """A reader (of ``skin``, by default the table's) that also knows the ``unlabelled``
        pictures, and its read of ``frame``; None if a cell is still unreadable (or matches two
        of those pictures)."""
        reader = BoardReader(
            self._skin if skin is None else skin, self.geometry, unlabelled=unlabelled
        )
        try:
            return reader, reader.read(frame, self.mines)
        except VisionError:
            return None

    def _is_new(self, image: Image, pictures: list[Image]) -> bool:
        """Whether ``image`` is farther than the skin's threshold from each of ``pictures``."""
        skin = self._skin
        bank = TemplateBank(list(range(len(pictures))), pictures, skin.level_weight, skin.mask)
        return bool(bank.distances(image[None]).min() > skin.threshold)

    def label(self, tiles: Mapping[int, Tile]) -> None:
        for picture, tile in tiles.items():
            learn_picture(self._skin, tile, *self._unlabelled[picture])
        self._unlabelled[:] = [p for i, p in enumerate(self._unlabelled) if i not in tiles]
        self._learned()

    def learn_won_face(self) -> bool:
        if "won" in self._skin.faces or self._frame is None:
            return False
        face = self._reader.face_image(self._frame)
        if face is None:
            return False
        self._skin.faces["won"] = face.copy()
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

    def new_game(self, attempt: int = 0) -> None:
        ways = self._new_game_ways()
        if not ways:
            raise NoNewGameAction(
                f"skin {self._skin.name!r} has no usable new-game action ({self._skin.new_game})"
            )
        face, way = self.geometry.face, ways[attempt % len(ways)]
        if way == "face" and face is not None:
            self._click(*face.centre, "left", self._still_as_read(self._corners_as_read(), face))
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
                self._face_now(grab, face)
            return True

        return check

    def _point_as_saved(self) -> Check:
        """The check before a click on the new-game point: the corners as last read, and the
        point showing one of the looks of the button the skin saw there, else
        :class:`NotAsRead` is raised."""
        corners = self._still_as_read(self._corners_as_read())
        buttons = self._skin.buttons

        def check(grab: Grab) -> bool:
            corners(grab)
            if not buttons:  # a skin saved before buttons were kept
                return True
            x, y = self._new_game_point()

            distance = min(
                picture_distance(button, grab(Rect.around(x, y, button.shape[1], button.shape[0])))
                for button in buttons
            )
            if distance > self._skin.threshold:
                raise NotAsRead(
                    f"just before a click, the new-game button at screen ({x}, {y}) differs from "
                    f"each look calibration saw there (distance {distance:.3f}): the game window "
                    "closed, moved or changed"
                )
            return True

        return check

    def _as_read(self) -> Reading:
        if self._reading is None:
            raise NotAsRead("no click before the board is read")
        return self._reading

    def _cells_now(self, grab: Grab, cells: Iterable[Cell]) -> dict[Cell, Tile]:
        """What ``cells`` show now; raises :class:`NotAsRead` unless each shows what the last
        read did or what a click since could have made of it (a closed cell opened or flagged).
        A cell read opened beside a 0 is judged among the opened tiles, as the read judged it."""
        board = self._as_read().board
        now = {}
        for cell in cells:
            opened = opened_beside_a_zero(board.tiles, cell)  # as the read judged it
            tile = self._reader.read_tile(grab(self._reader.check_rect(cell)), opened)
            if tile is None or not _could_follow(Tile(board[cell]), tile):
                shown = "matches no tile of the skin" if tile is None else f"shows {tile.name}"
                raise NotAsRead(
                    f"just before a click, cell {cell} at screen {self.geometry.cell_centre(cell)} "
                    f"{shown}, where the last read showed {Tile(board[cell]).name}: the game "
                    "window closed, moved or changed"
                )
            now[cell] = tile
        return now

    def _face_now(self, grab: Grab, face: Rect) -> None:
        """Raise :class:`NotAsRead` unless the face shows what the last read did."""
        if self._face_as_read is None:
            raise NotAsRead("no click on the face before it is read")
        distance = float(self._face_as_read.distances(grab(face)[None])[0, 0])
        if distance > self._skin.threshold:
            raise NotAsRead(
                f"just before a click, the face at screen ({face.left}, {face.top}) differs from "
                f"the last read (distance {distance:.3f}): the game window closed, moved or changed"
            )

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

    def check_whole(self) -> bool:
        try:
            found = locate_on_screen(self._grabber, self._skin)
        except BoardNotFoundError:
            return False  # nothing larger: the board found is whole
        ours = self.geometry
        if found != ours and not found.rect.contains_rect(ours.rect):
            # Short of another edge line this time: the board spans both, on one lattice.
            shape = _spanned(ours, found)
            try:
                found = (
                    ours
                    if shape is None
                    else locate_on_screen(self._grabber, self._skin, shape=shape)
                )
            except BoardNotFoundError:
                return False
        if found == ours or not found.rect.contains_rect(ours.rect):
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
        before = self._window_as_found
        if self._frame is not None:  # the board as last read
            region = self._reader.region
            at = replace(
                region, left=region.left - self._window.left, top=region.top - self._window.top
            )
            before = with_part(before, self._frame, at)
        dialog = dialog_over(self._timed_grabber, self._window, before)
        if dialog is None:
            return DialogAnswer.NO_VEIL
        if dialog.button is None:
            return DialogAnswer.UNANSWERED
        label, box, seen = dialog.button.label, dialog.button.rect, dialog.button.picture
        rect = replace(box, left=self._window.left + box.left, top=self._window.top + box.top)

        def still_shown(grab: Grab) -> bool:
            distance = picture_distance(seen, grab(rect))
            if distance > self._skin.threshold:
                raise NotAsRead(f"the dialog's {label!r} button at {rect} is gone")
            return True

        self._mouse.allow(*self._areas(), rect)
        try:
            self._click(*rect.centre, "left", still_shown)
        except NotAsRead:
            return DialogAnswer.NO_VEIL
        finally:
            self._mouse.allow(*self._areas())
        return DialogAnswer.ANSWERED

    def step_away(self) -> None:
        self._mouse.leave(self.geometry.rect)
        self._parked = True  # off the board too: no tile under the pointer is lit

    def _click(self, x: int, y: int, button: str, check: Check) -> None:
        with failsafe_as_stop(), self.stopwatch.stage("click"):
            self._parked = False
            self._mouse.click(x, y, button, check)


def _spanned(first: BoardGeometry, second: BoardGeometry) -> tuple[int, int] | None:
    """The shape of the board that holds two boards found on one lattice, overlapping by a
    cell at least (the same board found short of different edges); None if they are not."""
    lines = []
    for axis in (1, 0):  # rows (edges along y), then columns
        ours, theirs = (
            {(board.left, board.top)[axis] + edge for edge in board.spacing[axis].starts}
            for board in (first, second)
        )
        shared = ours & theirs
        low, high = max(min(ours), min(theirs)), min(max(ours), max(theirs))
        inside = {edge for edge in ours | theirs if low <= edge <= high}
        if len(shared) < 2 or inside != shared:
            return None
        lines.append(len(ours | theirs) - 1)
    return lines[0], lines[1]


def learn_picture(skin: Skin, tile: Tile, size_class: int, picture: Image) -> None:
    """Teach ``skin`` that cells of ``size_class`` show ``tile`` as ``picture``: its template
    where it has none; else that class's variant (the other classes read as before, so class 0's
    picture replaces the template only after the template is kept as the others' variant)."""
    if tile not in skin.templates:
        skin.templates[tile] = picture
    elif size_class == 0:
        for other in range(1, SIZE_CLASSES):
            skin.variants.setdefault(other, {}).setdefault(tile, skin.templates[tile])
        skin.templates[tile] = picture
    else:
        skin.variants.setdefault(size_class, {})[tile] = picture
    if skin.seen:
        skin.seen.setdefault(size_class, set()).add(tile)


def _could_follow(read: Tile, now: Tile) -> bool:
    """Whether a cell read as ``read`` may show ``now`` after some clicks of a burst."""
    return now == read or (read.is_closed and (now.is_opened or now == Tile.FLAG))


class _TimedGrabber:
    """A grabber whose grabs count as the stopwatch's ``capture`` stage."""

    def __init__(self, grabber: Screen, stopwatch: Stopwatch) -> None:
        self._grabber = grabber
        self._stopwatch = stopwatch

    def grab(self, region: Rect | None = None) -> Image:
        with self._stopwatch.stage("capture"):
            return self._grabber.grab(region)
