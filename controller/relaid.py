"""Playing a board that re-lays itself out: a grid of toolkit buttons sized by their content
widens a column once a cell in it opens, and moves the columns after it (and grows its window).

The play loop is given a screen on which the board keeps the layout it had fresh
(:class:`RelaidScreen`: each capture shows the cells where the fresh board had them, followed
by :class:`vision.relayout.Relayout`), and a mouse that sends a click on a cell's fresh place to
where that cell is now (:class:`RelaidMouse`). Calibration says which games do this (the skin's
``extra.relayout``).
"""

from __future__ import annotations

from controller.mouse import Check, Grab
from controller.screen_table import GuardedPointer
from vision.capture import Screen
from vision.geometry import BoardGeometry, Rect
from vision.relayout import GROWTH_SHARE, Relayout
from vision.skin import Image, Skin


class RelaidScreen:
    """``screen`` with the board whose fresh rectangle is ``board`` shown at its fresh layout:
    a capture of a region that overlaps the board has the board's part replaced by its cells at
    their fresh places; the rest as it is."""

    def __init__(self, screen: Screen, board: Rect, relayout: Relayout) -> None:
        self._screen = screen
        self.board = board
        self.relayout = relayout

    @property
    def screen(self) -> Rect:
        return self._screen.screen

    def grab(self, region: Rect | None = None) -> Image:
        return self.shown(self._screen.grab, region or self.screen)

    def grown(self) -> Rect:
        """As far as the board may reach once its cells have grown."""
        board, screen = self.board, self.screen
        width = min(screen.right - board.left, board.width + board.width // GROWTH_SHARE + 1)
        height = min(screen.bottom - board.top, board.height + board.height // GROWTH_SHARE + 1)
        return Rect(board.left, board.top, width, height)

    def shown(self, grab: Grab, region: Rect) -> Image:
        """``region`` as ``grab`` captures it, the board in it at its fresh layout."""
        frame = grab(region).copy()  # a check's capture may be read-only
        common = region.intersection(self.board)
        if common.width <= 0 or common.height <= 0:
            return frame
        board = self.relayout.follow(grab(self.grown()))
        rows = slice(common.top - region.top, common.bottom - region.top)
        columns = slice(common.left - region.left, common.right - region.left)
        frame[rows, columns] = board[
            common.top - self.board.top : common.bottom - self.board.top,
            common.left - self.board.left : common.right - self.board.left,
        ]
        return frame

    def real_point(self, x: int, y: int) -> tuple[int, int]:
        """Where the point (x, y) of the board at its fresh layout is now: the same place in the
        same cell, scaled to the cell's size now; a point off the board stays."""
        if not self.board.contains(x, y):
            return x, y
        point = []
        for position, start, cut, starts in zip(
            (x, y),
            (self.board.left, self.board.top),
            self.relayout.cut,
            self.relayout.starts,
            strict=True,
        ):
            cell, offset = divmod(position - start, cut)
            size = int(starts[cell + 1] - starts[cell])
            point.append(start + int(starts[cell]) + offset * size // cut)
        return point[0], point[1]


class RelaidMouse:
    """``mouse`` for the play loop on a :class:`RelaidScreen`: points on the board go where its
    cells are now, the board may be clicked as far as it may grow, and a click's check sees the
    screen as the play loop does."""

    def __init__(self, mouse: GuardedPointer, screen: RelaidScreen) -> None:
        self._mouse = mouse
        self._screen = screen

    def allow(self, *areas: Rect) -> None:
        board = self._screen.board
        grown = [self._screen.grown() for area in areas if area == board]
        self._mouse.allow(*areas, *grown)

    def click(self, x: int, y: int, button: str = "left", check: Check | None = None) -> None:
        self._mouse.click(*self._screen.real_point(x, y), button, self._seen(check))

    def press(self, key: str, x: int, y: int, check: Check | None = None) -> None:
        self._mouse.press(key, *self._screen.real_point(x, y), self._seen(check))

    def _seen(self, check: Check | None) -> Check | None:
        if check is None:
            return None
        screen = self._screen
        return lambda grab: check(lambda region: screen.shown(grab, region))

    def slow_down(self, to: float | None = None) -> float | None:
        return self._mouse.slow_down(to)

    def close_dialogs(self) -> int:
        return self._mouse.close_dialogs()

    def window_of(self, area: Rect) -> Rect:
        return self._mouse.window_of(area)

    def park(self, board: Rect) -> None:
        self._mouse.park(board)

    def leave(self, area: Rect) -> None:
        self._mouse.leave(area)


def followed(
    screen: Screen, mouse: GuardedPointer, skin: Skin, geometry: BoardGeometry
) -> tuple[Screen, GuardedPointer]:
    """The screen and mouse to play the board ``geometry`` (located on a fresh game) with:
    ``screen`` and ``mouse`` themselves, or for a game whose skin says it re-lays its board out,
    the ones that follow it (its first cell, hidden, seeds what a hidden cell looks like)."""
    if not skin.extra.get("relayout"):
        return screen, mouse
    board = screen.grab(geometry.rect)
    width, height = skin.pitch
    relayout = Relayout.even(board[:height, :width].copy(), geometry.shape, board)
    relaid = RelaidScreen(screen, geometry.rect, relayout)
    return relaid, RelaidMouse(mouse, relaid)
