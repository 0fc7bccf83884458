"""Looking at a game window during calibration: settled captures, its cells' appearance ids and
its face button. Nothing here clicks; :mod:`calibration.game_window` does.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace

import cv2
import numpy as np
import numpy.typing as npt

from calibration.catalogue import Catalogue, Ids
from calibration.errors import CalibrationError, PartialBoardError
from calibration.faces import crop
from calibration.grid import Grid
from calibration.paint import hit_ring, ring_pixels, unpainted_box
from solver import Cell, GameState
from vision.errors import CaptureError, UnstableFrameError
from vision.geometry import Rect
from vision.relayout import GROWTH_SHARE, Relayout
from vision.skin import Image
from vision.stable import Grabber, wait_stable

SETTLE_TIMEOUT = 5.0
"""Seconds a click may take to show on the board (a game on a busy machine can take seconds)."""
PROBE_TIMEOUT = 1.0
"""Seconds a probe click is given: a game still playing draws an opened cell well within it."""
QUIET = 0.06
"""Seconds a board must stay unchanged after a click before it counts as drawn."""


def settled(
    grabber: Grabber,
    region: Rect,
    before: Image | None,
    timeout: float = SETTLE_TIMEOUT,
    quiet: float = QUIET,
) -> Image:
    """The region once it differs from ``before`` (if given) and then stays unchanged for
    ``quiet`` seconds; on timeout, the region as it is (maybe still ``before``).

    A game on a busy machine can pause a flood of opened cells for longer than the frame
    interval, and a half-drawn board read as settled would blame the rest on the next click.
    """
    deadline = time.monotonic() + timeout
    try:
        frame = wait_stable(grabber, region, timeout=timeout, differs_from=before)
    except UnstableFrameError:
        return grabber.grab(region)
    while time.monotonic() < deadline:
        time.sleep(quiet)
        again = grabber.grab(region)
        if np.array_equal(again, frame):
            return frame
        frame = again
    return frame


def still_after(grabber: Grabber, region: Rect, frame: Image, seconds: float) -> bool:
    """Whether ``region`` still shows ``frame`` ``seconds`` later."""
    time.sleep(seconds)
    return np.array_equal(grabber.grab(region), frame)


MOVED_SAME = 0.6
"""Share of a board's cells that must show as they did where it moved to."""
MOVED_LEVELS = 8
"""Mean colour levels within which a cell shows as it did."""
PARK_DISTANCE = 4
"""Pixels between the board and the point where the pointer rests."""


def rest_point(window: Rect, board: Rect) -> tuple[int, int] | None:
    """A point inside ``window``, off ``board``, near its bottom-left corner (away from a face
    above the board), or None when the board leaves no room beside it."""
    room_left, room_below = board.left - window.left, window.bottom - board.bottom
    room_right, room_above = window.right - board.right, board.top - window.top
    x = board.left - min(PARK_DISTANCE, room_left - 1)
    if room_left < 2:
        x = board.right - 1 + min(PARK_DISTANCE, room_right)
    y = board.bottom - 1 + min(PARK_DISTANCE, room_below - 1)
    if room_below < 2:
        y = board.top - min(PARK_DISTANCE, room_above)
    point = (x, y)
    if board.contains(*point) or not window.contains(*point):
        return None
    return point


@dataclass
class BoardView:
    """One window's board as calibration sees it: where its cells are on the screen, and which
    appearance (an id of ``catalogue``) each shows."""

    grabber: Grabber
    catalogue: Catalogue
    grid: Grid
    window: Rect
    fresh: Image
    """The window captured before the first click (the face as it looks during play)."""
    fresh_board: Image = field(init=False)
    """The board as :attr:`fresh` shows it (where it was then)."""
    relayout: Relayout | None = field(init=False, default=None)
    """Where the cells are now on a board that re-lays itself out (see :meth:`follow_relayout`)."""

    def __post_init__(self) -> None:
        self.fresh_board = self.board_part(self.fresh)

    def follow_relayout(self) -> bool:
        """Whether the board's cells have moved since the fresh capture, a column or row
        widened by a cell opened in it (a grid of toolkit buttons sized by their content); if
        so, from now on every capture of :attr:`board_rect` shows the cells at their places on
        the fresh board (see :class:`RelaidGrabber`), and clicks go where the cells are now."""
        if self.grid.edges is not None:
            return False  # cells of uneven sizes are cut as they are (see Grid)
        relayout = Relayout.even(
            self.grid.hidden, (self.grid.rows, self.grid.columns), self.fresh_board
        )
        grabber = RelaidGrabber(self.grabber, self, relayout)
        grabber.grab(self.board_rect)
        if relayout.size == self.grid.size:
            return False
        self.grabber, self.relayout = grabber, relayout
        return True

    @property
    def board_rect(self) -> Rect:
        """The board's cells on the screen."""
        (x, y), (width, height) = self.grid.origin, self.grid.size
        return Rect(self.window.left + x, self.window.top + y, width, height)

    @property
    def board_in_window(self) -> Rect:
        """The board's cells in window coordinates."""
        board = self.board_rect
        return Rect(
            board.left - self.window.left, board.top - self.window.top, board.width, board.height
        )

    def park_point(self) -> tuple[int, int] | None:
        """A screen point in the window just off the board's bottom-left corner, where the
        pointer rests while the board is captured (None when the board fills the window)."""
        return rest_point(self.window, self.board_rect)

    def cell_point(self, cell: Cell) -> tuple[int, int]:
        """The screen point in the middle of ``cell`` (where it was last seen, on a board that
        re-lays itself out)."""
        x, y = self.grid.cell_centre(*cell)
        if self.relayout is not None:
            (row, column), (along_x, along_y) = cell, self.relayout.starts
            x = self.grid.origin[0] + int(along_x[column] + along_x[column + 1]) // 2
            y = self.grid.origin[1] + int(along_y[row] + along_y[row + 1]) // 2
        return self.window.left + x, self.window.top + y

    def board_part(self, window_frame: Image) -> Image:
        """The board's cells cut out of a capture of the whole window."""
        board = self.board_in_window
        return window_frame[board.top : board.bottom, board.left : board.right]

    def board_ids(self, frame: Image | None = None) -> Ids:
        """Appearance ids of every cell, from ``frame`` (a board capture) or a new capture."""
        frame = self.grabber.grab(self.board_rect) if frame is None else frame
        return self.catalogue.ids(self.cell_pictures(frame), self.grid.size_classes)

    def unpainted(self, before: Image, after: Image) -> tuple[int, int, int, int]:
        """The part of the cells' pictures compared that a click left unpainted beside the cells
        it opened, between board captures ``before`` and ``after`` (see
        :func:`calibration.paint.unpainted_box`)."""
        pictures = (self.cell_pictures(before), self.cell_pictures(after))
        return unpainted_box(*pictures, self.catalogue.box)

    def ring(
        self,
        before: Image,
        after: Image,
        opened_before: npt.NDArray[np.bool_],
        uncovered: npt.NDArray[np.bool_],
        clicked: Cell,
    ) -> npt.NDArray[np.bool_] | None:
        """The pixels of a cell's picture where a focus ring moved off a cell opened before a
        click on ``clicked``, between board captures ``before`` and ``after`` (see
        :func:`calibration.paint.ring_pixels`), and where the cell clicked differs by a ring
        alone from a cell of its size class the click ``uncovered`` (see
        :func:`calibration.paint.hit_ring`); None where neither shows a ring."""
        pictures = (self.cell_pictures(before), self.cell_pictures(after))
        box = self.catalogue.box
        rings = [
            ring_pixels(*pictures, opened_before, clicked, box),
            hit_ring(pictures[1], uncovered, clicked, self.grid.size_classes, box),
        ]
        found = [ring for ring in rings if ring is not None]
        return np.logical_or.reduce(found) if found else None

    def cell_pictures(self, frame: Image) -> npt.NDArray[np.uint8]:
        """Each cell's picture in ``frame`` (a board capture), by (row, column)."""
        return self.grid.pictures(frame, (0, 0))

    def follow_move(self, board: Image) -> bool:
        """Whether the board moved in the window, and is now followed there: a page that writes
        its "Game over" above the board pushes it down, and back up on a new game. It moved
        where ``board`` (a capture of it a moment ago) matches the window best, if most of its
        cells show there as they did (:data:`MOVED_SAME`), and fewer where it was."""
        window = self.grabber.grab(self.window)
        here = self.board_in_window
        if window.shape[0] < board.shape[0] or window.shape[1] < board.shape[1]:
            return False
        scores = cv2.matchTemplate(window, board, cv2.TM_SQDIFF)
        x, y = cv2.minMaxLoc(scores)[2]
        if (x, y) == (here.left, here.top):
            return False
        there = window[y : y + here.height, x : x + here.width]
        now = window[here.top : here.bottom, here.left : here.right]
        same_there, same_here = (
            float((self.cell_differences(board, frame) <= MOVED_LEVELS).mean())
            for frame in (there, now)
        )
        if same_there < MOVED_SAME or same_there <= same_here:
            return False
        self.grid = replace(self.grid, origin=(x, y))
        return True

    def cell_differences(self, before: Image, after: Image) -> npt.NDArray[np.float64]:
        """Per cell (row, column), the mean absolute difference of its pictures in two board
        captures: 0 where they are equal."""
        pictures = (self.cell_pictures(frame).astype(np.int16) for frame in (before, after))
        difference = np.abs(np.subtract(*pictures))
        return np.asarray(
            difference.reshape(self.grid.rows, self.grid.columns, -1).mean(axis=-1),
            dtype=np.float64,
        )

    def still_board(self) -> Image:
        """A capture of the board once it holds still (the game may still be drawing a click)."""
        rect = self.board_rect
        try:
            return wait_stable(self.grabber, rect, timeout=SETTLE_TIMEOUT)
        except UnstableFrameError as error:
            raise CalibrationError(f"the board at {rect} never held still: {error}") from error

    def check_no_hidden_cells_outside(self) -> None:
        """Raise if the window shows a hidden tile just outside the grid: the first board's
        opened edge hid a row or column of it, and the games recorded so far miscount."""
        frame = self.grabber.grab(self.window)
        (x, y), (pitch_x, pitch_y) = self.grid.origin, self.grid.pitch
        rows, columns = self.grid.rows, self.grid.columns
        # Where each column (row) starts, with one more cell's place on either side.
        lefts = [-pitch_x, *self.grid.spacing[0].starts]
        tops = [-pitch_y, *self.grid.spacing[1].starts]
        ring = [(r, c) for r in (-1, rows) for c in range(-1, columns + 1)]
        ring += [(r, c) for r in range(rows) for c in (-1, columns)]
        for row, column in ring:
            top, left = y + tops[row + 1], x + lefts[column + 1]
            block = frame[top : top + pitch_y, left : left + pitch_x]
            if top >= 0 and left >= 0 and np.array_equal(block, self.grid.hidden):
                raise PartialBoardError(
                    f"a new game shows a hidden tile at row {row}, column {column}, outside the "
                    f"{rows}x{columns} board found at first: calibrate again on a fresh game"
                )


class RelaidGrabber:
    """The grabber of a board that re-lays itself out: a capture of the board's rectangle on
    the fresh board (:attr:`BoardView.board_rect`) is taken as far as the board may have grown
    and shows the cells side by side at their fresh places (see :class:`vision.relayout.Relayout`),
    so a cell's picture and place stay as the fresh board had them; any other region is
    captured as it is."""

    def __init__(self, screen: Grabber, view: BoardView, relayout: Relayout) -> None:
        self.screen = screen
        self.view = view
        self.relayout = relayout
        self.bounds = screen.grab().shape[:2]
        """The screen's height and width."""

    def grab(self, region: Rect | None = None) -> Image:
        board = self.view.board_rect
        if region != board:
            return self.screen.grab(region)
        return self.relayout.follow(self.screen.grab(grown_board(board, self.bounds)))


def grown_board(board: Rect, bounds: tuple[int, int]) -> Rect:
    """``board`` (a board's rectangle on the screen) as far as its cells may grow
    (:data:`vision.relayout.GROWTH_SHARE`), within a screen of ``bounds`` (height, width)."""
    height, width = bounds
    return Rect(
        board.left,
        board.top,
        min(width - board.left, board.width + board.width // GROWTH_SHARE + 1),
        min(height - board.top, board.height + board.height // GROWTH_SHARE + 1),
    )


def moved_by_click(grabber: Grabber, window: Rect, grid: Grid, fresh: Image) -> bool:
    """Whether a click moved the cells of ``grid`` (found in ``fresh``, the capture of
    ``window`` before it): it widened a column or row by a cell it opened, and pushed the cells
    after it along (a grid of toolkit buttons sized by their content). The board is judged once
    it holds still, and as far as it may have grown: past the window's edge too, which a window
    that grows to hold it has not reached yet, and a capture of the window cannot show."""
    if grid.edges is not None:
        return False  # cells of uneven sizes are cut as they are (see Grid)
    (x, y), (width, height) = grid.origin, grid.size
    relayout = Relayout.even(
        grid.hidden, (grid.rows, grid.columns), crop(fresh, Rect(x, y, width, height))
    )
    board = Rect(window.left + x, window.top + y, width, height)
    region = grown_board(board, grabber.grab().shape[:2])
    try:
        relayout.follow(settled(grabber, region, None))
    except CaptureError:
        return False  # grown past the screen's edge: nothing shows where its cells are
    return relayout.size != grid.size


@dataclass
class FaceButton:
    """The face button of one window and the picture it shows in each game state seen so far."""

    grabber: Grabber
    window: Rect
    in_window: Rect
    """The face's rectangle in window coordinates."""
    pictures: dict[GameState, Image] = field(default_factory=dict)
    playing_seen: bool = True
    """Whether the playing picture was seen in a game under way; False while it is only the
    launch frame's, which some games draw otherwise (one grins at launch as on a win)."""

    @property
    def screen_rect(self) -> Rect:
        """The face's rectangle on the screen."""
        face = self.in_window
        return Rect(
            self.window.left + face.left, self.window.top + face.top, face.width, face.height
        )

    def point(self) -> tuple[int, int]:
        """The screen point in the middle of the face."""
        x, y = self.in_window.centre
        return self.window.left + x, self.window.top + y

    def picture_in(self, window_frame: Image) -> Image:
        """The face cut out of a capture of the whole window."""
        return crop(window_frame, self.in_window)

    def state(
        self, timeout: float = PROBE_TIMEOUT, until_unknown: bool = False
    ) -> GameState | None:
        """Which known picture the face shows (waiting up to ``timeout`` for one), or None.

        With ``until_unknown`` it waits instead for a picture that is none of the known ones.
        """
        rect = self.screen_rect
        deadline = time.monotonic() + timeout
        while True:
            picture = self.grabber.grab(rect)
            state = next(
                (shown for shown, known in self.pictures.items() if np.array_equal(picture, known)),
                None,
            )
            if (state is None) == until_unknown or time.monotonic() >= deadline:
                return state
            time.sleep(0.02)
