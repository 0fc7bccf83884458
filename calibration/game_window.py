"""The game's window as calibration clicks it: a click recorded as a step once the board has
settled, the pointer parked off the board, dialogs closed or answered, a board that moved in its
window followed.

:class:`GameWindow` is the one place calibration clicks a cell; :mod:`calibration.session`
chooses the cells, :mod:`calibration.game_end` judges what a click did, and
:mod:`calibration.new_game_ways` starts new games.
"""

from __future__ import annotations

import logging
from dataclasses import replace

import numpy as np

from calibration import waits
from calibration.catalogue import HIDDEN_ID, Ids
from calibration.dialogs import (
    DIALOGS_IN_A_ROW,
    DialogAnswer,
    DialogButton,
    answer_dialog_over,
    panels_over_the_board,
    with_part,
)
from calibration.errors import CalibrationError
from calibration.grid import FRAME_SHARE
from calibration.pointer import Pointer
from calibration.record import ClickKind, Evidence, Step, changed_apart
from calibration.view import QUIET, SETTLE_TIMEOUT, BoardView, FaceButton, settled, still_after
from solver import Cell
from vision.geometry import Rect
from vision.skin import Image
from vision.stable import Grabber

MOVED_SHARE = 0.9
"""Share of the cells that must differ after a click before the board is looked for elsewhere
in the window (see :meth:`calibration.view.BoardView.follow_move`)."""
FLOODS_WATCHED = 3
"""Clicks that opened several cells watched for an animation before the game is taken to draw
them at once (see :meth:`GameWindow.after_animation`)."""
PAST_CELL = 3
"""Pixels beyond half a pitch from a cell's centre where a right-click's change shows it drew
past the cell (a cell may be a pixel wider than the pitch)."""
log = logging.getLogger(__name__)


class GameWindow:
    """One game's window during calibration: its board (``view``), its face once found, and
    what the board last showed."""

    def __init__(self, pointer: Pointer, view: BoardView, evidence: Evidence) -> None:
        self.pointer = pointer
        self.view = view
        self.evidence = evidence
        self.face: FaceButton | None = None
        """The face button, once a loss has shown where it is."""
        self.named_point: tuple[int, int] | None = None
        """The new-game point the user named, on the screen: a picture there that a loss
        changes is the face (see :func:`calibration.faces.find_face`)."""
        self.fresh = False
        """Whether the board shows a new game no click has touched yet."""
        self.board_seen: Image | None = None
        """The board as the last click the game took left it (or as a game ended, or began),
        with no dialog over it: what a dialog drawn in the window later veils."""
        self.end_frame: Image | None = None
        """The lost board as last read, held still (see :mod:`calibration.game_end`)."""
        self.gone_frame: Image | None = None
        """The board's place as the end of a game that took its board away left it
        (:mod:`calibration.vanished`), until a new game brings a board back; None while the
        board shows."""
        self.quiet = QUIET
        """Seconds the board must hold still after a click to count as drawn: longer once the
        game is seen to animate what a click opens."""
        self.floods_watched = 0
        """Clicks that opened a patch watched so far for an animation (at most
        :data:`FLOODS_WATCHED`)."""

    def click(
        self,
        click: ClickKind,
        cell: Cell,
        before_frame: Image | None = None,
        timeout: float = SETTLE_TIMEOUT,
        retry: bool = True,
    ) -> Step:
        """Click ``cell`` and record the step; ``before_frame`` is the settled board the cell
        was chosen from (captured anew if not given).

        A click that changes nothing within ``timeout`` is made once more, as the play loop does
        (under Xvfb a game now and then misses one), except with ``retry`` off: a probe's very
        question is whether the game still takes clicks.
        """
        view = self.view
        rect = view.board_rect
        if before_frame is None:
            before_frame = view.still_board()
        self.fresh = False
        x, y = view.cell_point(cell)
        button = "left" if click == ClickKind.OPEN else "right"
        self.click_and_park(x, y, button)
        after_frame = settled(view.grabber, rect, before_frame, timeout, self.quiet)
        if retry and np.array_equal(after_frame, before_frame):
            log.debug("%s-click on %s at %s changed nothing: once more", button, cell, (x, y))
            self.click_and_park(x, y, button)
            after_frame = settled(view.grabber, rect, before_frame, timeout, self.quiet)
        after_frame = self.after_animation(cell, before_frame, after_frame)
        if self.closed_dialogs():
            after_frame = settled(view.grabber, rect, None, quiet=waits.FLASH_QUIET)
        after_frame = self.without_dialogs(before_frame, after_frame)
        moved = cells_that_differ(view, before_frame, after_frame) >= MOVED_SHARE
        if moved and view.follow_move(before_frame):
            log.debug("the board moved in the window to %s", view.board_rect)
            rect = view.board_rect
            after_frame = settled(view.grabber, rect, None, quiet=waits.FLASH_QUIET)
        if not np.array_equal(after_frame, before_frame):  # the game took the click: no dialog
            self.board_seen = after_frame
        before_ids = view.board_ids(before_frame)
        after_ids = view.board_ids(after_frame)
        unpainted = view.unpainted(before_frame, after_frame) if click is ClickKind.OPEN else None
        opened_before = np.isin(before_ids, list(self.evidence.safe_appearances))
        changed = after_ids != before_ids
        if changed.all() or (opened_before & changed).any():
            # An opened cell never changes in play, nor does every cell at once: this is a flash
            # (a game may flash the whole board when it ends) or a repaint. Read the board once
            # it has long held still.
            log.debug("%s on cell %s changed opened cells: read again once still", button, cell)
            after_frame = settled(view.grabber, rect, None, quiet=waits.FLASH_QUIET)
            after_ids = view.board_ids(after_frame)
        step = Step(click, cell, before_ids, after_ids, unpainted)
        ring = view.ring(before_frame, after_frame, opened_before, step.uncovered, cell)
        step = replace(step, ring=ring)
        log.debug("%s-click on cell %s at %s: %s", button, cell, (x, y), step.describe())
        return step

    def after_animation(self, cell: Cell, before: Image, after: Image) -> Image:
        """``after`` (a board settled after a click), or the board once the game's animation
        of what the click opened has ended. Until the game has shown whether it animates, the
        first :data:`FLOODS_WATCHED` clicks that opened several cells are watched for
        :data:`~calibration.waits.ANIMATION_WATCH` more: a board that changes meanwhile is a
        game that opens a ring of cells at a time (a click judged by its first frame "changed
        nothing" on a cell the animation had yet to draw), given that long to hold still after
        every click from then on."""
        view = self.view
        if self.quiet > QUIET or self.floods_watched >= FLOODS_WATCHED:
            return after
        before_ids, after_ids = view.board_ids(before), view.board_ids(after)
        opened = self.evidence.safe_appearances
        if (before_ids != after_ids).sum() < 2 or changed_apart(
            before_ids, after_ids, cell, opened
        ):
            return after  # no flood: one cell, or a game's end (the mines drawn apart)
        self.floods_watched += 1
        ended = animation_end(view.grabber, view.board_rect, after)
        if ended is None:
            return after
        self.quiet = waits.ANIMATION_WATCH
        return ended

    def closed_dialogs(self) -> bool:
        """Close the dialogs the game opened (a "Game Over" may cover the board); whether
        there were any. The board under them is then read once it has held still."""
        closed = self.pointer.close_dialogs()
        if closed:
            log.debug("closed %d dialog(s) of the game", closed)
            self._park_again()
        return closed > 0

    def _park_again(self) -> None:
        """Move the pointer a pixel away from where it rests and back. A modal dialog takes the
        pointer's moves, so the game still has it where the click that opened the dialog was,
        and a game may keep its "You have lost." over the board while the pointer rests on it."""
        view = self.view
        park = view.park_point()
        if park is None:
            return
        x, y = park
        beside = [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)]
        for point in beside:
            if view.window.contains(*point) and not view.board_rect.contains(*point):
                self.pointer.move(*point)
                self.pointer.move(*park)
                return

    def without_dialogs(self, before: Image | None, after: Image) -> Image:
        """The board ``after`` shows (a capture of it), or, when every cell of it differs from
        ``before`` (the board before; None: as the last click left it) because a dialog drawn
        in the window veils it, or a panel lies over the board and past its edge (a page's own
        window, undimmed), the board once the dialogs are answered and it holds still."""
        before = self.board_seen if before is None else before
        if before is None:
            return after
        view = self.view
        for _ in range(DIALOGS_IN_A_ROW):
            veiled = cells_that_differ(view, before, after) == 1.0
            if not (veiled or self._panel_over(before)) or not self._answered_dialog(before):
                break
            after = settled(view.grabber, view.board_rect, None, quiet=waits.FLASH_QUIET)
        return after

    def _panel_over(self, board: Image) -> bool:
        """Whether the window now shows a panel over the board and past its edge, ``board``
        being the board before it (see :func:`calibration.dialogs.panels_over_the_board`)."""
        view = self.view
        if view.relayout is not None:  # a grid that grows past its first edge
            return False
        before = with_part(view.fresh, board, view.board_in_window)
        now = view.grabber.grab(view.window)
        return panels_over_the_board(before, now, view.board_in_window) is not None

    def _answered_dialog(self, board: Image) -> bool:
        """Whether a dialog drawn in the window over a veil (a browser's "Cancel"/"OK" over the
        page it dims) was answered by a click on its button that keeps the game (see
        :mod:`calibration.dialogs`); ``board`` is the board before the veil."""
        view = self.view
        answer = answer_dialog_over(
            view.grabber, view.window, view.fresh, (board, view.board_in_window), self._click_button
        )
        if answer is DialogAnswer.UNANSWERED:
            log.debug("a dialog veils the window; no button of it reads Cancel, No or OK")
        return answer is DialogAnswer.ANSWERED

    def _click_button(self, button: DialogButton) -> bool:
        point = button.rect.centre
        log.debug("left-click at %s: answering a dialog with its %r button", point, button.label)
        self.click_and_park(*point, "left")
        return True

    def click_and_park(self, x: int, y: int, button: str) -> None:
        """Click, then move the pointer off the board: some games light up the tile under
        the pointer, which would read as a changed cell."""
        self.pointer.click(x, y, button)
        park = self.view.park_point()
        if park is not None:
            self.pointer.move(*park)

    def mark(self, cell: Cell, before_frame: Image | None = None, menus: bool = True) -> Step:
        """Right-click ``cell``. The step shows the mark drawn, or no change where the game took
        no mark: the right-click changed nothing, or (``menus``: while no right-click has drawn
        a mark) drew past the cell (a browser's context menu opens at the pointer, over the
        board: no mark draws outside its cell), which is then closed with Escape."""
        view = self.view
        if before_frame is None:
            before_frame = view.still_board()
        window_before = view.grabber.grab(view.window)
        step = self.click(ClickKind.MARK, cell, before_frame)
        if menus and self._drew_past(step, window_before):
            return self._closed_menu(step)
        if not step.changed[cell]:
            # The cell may now show a picture within the grouping tolerance of the one before
            # (a question mark drawn as the flag with a small "?"): a right-click
            # is meant to change the mark, so a lasting pixel change is a new appearance.
            after_frame = view.still_board()
            before, after = (
                view.cell_pictures(frame)[cell] for frame in (before_frame, after_frame)
            )
            if not np.array_equal(before, after):
                self.evidence.catalogue.add_distinct(after, int(view.grid.size_classes[cell]))
                step = Step(ClickKind.MARK, cell, step.before, view.board_ids(after_frame))
                log.debug(
                    "right-click on %s drew a picture close to the one before: %s",
                    cell,
                    step.describe(),
                )
        return step

    def _drew_past(self, step: Step, window_before: Image) -> bool:
        """Whether the window changed just outside the place of the cell ``step`` right-clicked
        since ``window_before``, on a line :data:`PAST_CELL` pixels beyond its pitch around its
        centre; on a board that re-lays itself out, whose cells move as one widens, whether
        the step changed other cells."""
        view, cell = self.view, step.cell
        if view.relayout is not None:
            others = step.changed.copy()
            others[cell] = False
            return bool(others.any())
        window = view.window
        changed = np.any(window_before != view.grabber.grab(window), axis=-1)
        x, y = view.cell_point(cell)
        x, y = x - window.left, y - window.top
        # A toolkit button's frame drawn a few pixels past its cell (see FRAME_SHARE) is
        # no menu: the line lies beyond it.
        past = max(PAST_CELL, -(-min(view.grid.pitch) // FRAME_SHARE) + 1)
        half_width, half_height = (side // 2 + past for side in view.grid.pitch)
        top, bottom = max(y - half_height, 0), min(y + half_height, window.height - 1)
        left, right = max(x - half_width, 0), min(x + half_width, window.width - 1)
        ring = (
            changed[top, left : right + 1],
            changed[bottom, left : right + 1],
            changed[top : bottom + 1, left],
            changed[top : bottom + 1, right],
        )
        return any(bool(line.any()) for line in ring)

    def _closed_menu(self, step: Step) -> Step:
        """``step``, a right-click that drew past its cell, once Escape has closed what it
        drew: the board as it shows then, which must be as before the click."""
        view = self.view
        log.debug("right-click on %s drew past the cell (a menu?): Escape", step.cell)
        self.pointer.press("escape", *(view.park_point() or view.cell_point(step.cell)))
        frame = settled(view.grabber, view.board_rect, None, quiet=waits.FLASH_QUIET)
        after = view.board_ids(frame)
        if (after != step.before).any():
            raise CalibrationError(
                f"a right-click on cell {step.cell} at screen {view.cell_point(step.cell)} drew "
                "past the cell (a menu over the board?), and Escape left the board changed"
            )
        return Step(ClickKind.MARK, step.cell, step.before, after)


def animation_end(grabber: Grabber, region: Rect, settled_frame: Image) -> Image | None:
    """None when ``region`` still shows ``settled_frame`` (a capture that had held still for
    :data:`~calibration.view.QUIET` after a click) :data:`~calibration.waits.ANIMATION_WATCH`
    later; else the game animates what a click opens, and this is the region once it has held
    still that long."""
    if still_after(grabber, region, settled_frame, waits.ANIMATION_WATCH):
        return None
    log.debug("the board changed after it had settled: the game animates what a click opens")
    return settled(grabber, region, None, quiet=waits.ANIMATION_WATCH)


def cells_that_differ(view: BoardView, before: Image, after: Image) -> float:
    """The share of cells whose pictures differ between two board captures: all of them under
    a dialog drawn over the board, most when the board moved (a few plain ones look alike)."""
    return float((view.cell_differences(before, after) > 0).mean())


def hidden_cells(ids: Ids) -> list[Cell]:
    """The cells showing the hidden tile, in reading order."""
    return [(int(r), int(c)) for r, c in np.argwhere(ids == HIDDEN_ID)]
