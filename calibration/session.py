"""Playing a live game to collect evidence: clicks through a Pointer, captures through a Grabber.

Each game opens random hidden cells until it is lost, with a few right-clicks on the way (flags
that may turn out wrong, a question mark). Whether a click lost is told by the game itself.
Until a loss has shown the face, a lost game is known by ignoring clicks: when a click changed
several cells into an appearance not yet seen on a safe cell, a *probe* click on another hidden
cell settles it (nothing happens: lost; something opens: still playing, and the probe is one
more step). From then on the face says it.
"""

from __future__ import annotations

import logging
import random
import time
from dataclasses import dataclass, field

import cv2
import numpy as np

from calibration.evidence import (
    HIDDEN_ID,
    Action,
    CalibrationError,
    Catalogue,
    GameRecord,
    Ids,
    Meanings,
    Step,
    board_of,
)
from calibration.faces import crop, find_face
from calibration.grid import Grid, find_lattice
from calibration.pointer import Pointer
from solver import Cell, Tile
from solver.strategy import next_moves
from vision.errors import UnstableFrameError
from vision.geometry import Rect
from vision.match import tile_lattice
from vision.skin import Image, NewGame
from vision.stable import Grabber, wait_stable

SETTLE_TIMEOUT = 5.0
"""Seconds a click may take to show on the board (Wine on a busy machine can take seconds)."""
PROBE_TIMEOUT = 1.0
"""Seconds a probe click is given: a game still playing draws an opened cell well within it."""
DOUBLE_CLICK_GAP = 0.6
"""Seconds between two clicks on one cell so they are not taken as a double-click."""
QUIET = 0.06
"""Seconds a board must stay unchanged after a click before it counts as drawn."""
LOST_QUIET = 0.4
"""Seconds a lost board must stay unchanged before its final read: a game repaints every cell
on a loss, and Wine on a busy machine can pause in the middle of that for longer than QUIET."""
HIDDEN_CANDIDATES = 3
"""How many of a fresh board's most common tiles are clicked to find the hidden one."""
KEY_TIMEOUT = 1.5
"""Seconds a new-game key (or a click on a tile that may be no hidden one) is given to act."""
MAX_STEPS = 400
log = logging.getLogger(__name__)
FLAGS_PER_GAME = 2


@dataclass
class Evidence:
    """What the games showed, shared by every window of one game program calibrated together."""

    catalogue: Catalogue
    games: list[GameRecord] = field(default_factory=list)
    safe_appearances: set[int] = field(default_factory=set)
    """Appearances seen on cells opened without losing."""


@dataclass
class Observation:
    """One window: where it is, its grid, and its fresh capture (the face during play)."""

    grid: Grid
    window: Rect
    fresh: Image

    @property
    def board_rect(self) -> Rect:
        """The board's cells on the screen."""
        (x, y), (pitch_x, pitch_y) = self.grid.origin, self.grid.pitch
        return Rect(
            self.window.left + x,
            self.window.top + y,
            self.grid.columns * pitch_x,
            self.grid.rows * pitch_y,
        )

    @property
    def board_in_window(self) -> Rect:
        """The board's cells in window coordinates."""
        board = self.board_rect
        return Rect(
            board.left - self.window.left, board.top - self.window.top, board.width, board.height
        )

    def cell_point(self, cell: Cell) -> tuple[int, int]:
        """The screen point in the middle of ``cell``."""
        x, y = self.grid.cell_centre(*cell)
        return self.window.left + x, self.window.top + y


class Player:
    """Plays games on one window, recording them into the shared :class:`Evidence`."""

    def __init__(
        self,
        pointer: Pointer,
        grabber: Grabber,
        window: Rect,
        evidence: Evidence | None = None,
        seed: int | None = None,
    ) -> None:
        self.pointer = pointer
        self.grabber = grabber
        self.random = random.Random(seed)
        self.face: Rect | None = None
        """The face button in window coordinates, once a loss has shown where it is."""
        self.face_pictures: dict[str, Image] = {}
        self.new_game_method: NewGame | None = None
        self._question_tested = False
        point, fresh, after = self._find_hidden_tile(window)
        # The hidden tile is the block under the click in the fresh frame; with the opened cells
        # of the second frame the cut is certain (see calibration.grid).
        lattice = find_lattice(fresh, _only_changes_around(fresh, after, point))
        grid = lattice.grid(lattice.hash_at(0, *point))
        if evidence is None:
            evidence = Evidence(Catalogue(grid.hidden))
        elif evidence.catalogue.add(grid.hidden) != HIDDEN_ID:
            raise CalibrationError(
                f"the hidden tile in window {window} differs from the one calibrated before"
            )
        self.evidence = evidence
        self.observation = Observation(grid, window, fresh)
        cell = (
            (point[1] - grid.origin[1]) // grid.pitch[1],
            (point[0] - grid.origin[0]) // grid.pitch[0],
        )
        first = Step(
            Action.OPEN,
            cell,
            self.board_ids(self._board_part(fresh)),
            self.board_ids(self._board_part(after)),
        )
        self._game: GameRecord | None = GameRecord([first])
        self.evidence.games.append(self._game)
        self._finish_if_over(self._game)

    def _find_hidden_tile(self, window: Rect) -> tuple[tuple[int, int], Image, Image]:
        """Click the most common tiles of the fresh board until one changes: that is the hidden
        tile (xdemineur's starting area may show more opened cells than hidden ones).

        Returns the clicked point (window coordinates) and the window before and after.
        """
        fresh = self._settled(window, None)  # a window just moved may still be redrawing
        lattice = find_lattice(fresh)
        for key in lattice.ranked[:HIDDEN_CANDIDATES]:
            cells = np.argwhere(lattice.hashes[0] == key)
            middle = np.array(lattice.hashes[0].shape) / 2
            row, column = cells[np.argmin(((cells - middle) ** 2).sum(axis=1))]
            x = lattice.phase[0] + int(column) * lattice.pitch[0] + lattice.pitch[0] // 2
            y = lattice.phase[1] + int(row) * lattice.pitch[1] + lattice.pitch[1] // 2
            block = Rect(
                window.left + x - lattice.pitch[0] // 2,
                window.top + y - lattice.pitch[1] // 2,
                lattice.pitch[0],
                lattice.pitch[1],
            )
            unclicked = self.grabber.grab(block)
            self.pointer.click(window.left + x, window.top + y, "left")
            if not np.array_equal(self._settled(block, unclicked, KEY_TIMEOUT), unclicked):
                return (x, y), fresh, self._settled(window, fresh)
            log.debug("tile at %s did not change when clicked: not the hidden tile", (x, y))
            fresh = self.grabber.grab(window)  # a click on a number may have opened cells
        raise CalibrationError(
            f"none of the {HIDDEN_CANDIDATES} most common tiles in window {window} changed when "
            "clicked: is it a fresh Minesweeper game?"
        )

    def _board_part(self, window_frame: Image) -> Image:
        """The board's cells cut out of a capture of the whole window."""
        board = self.observation.board_in_window
        return window_frame[board.top : board.bottom, board.left : board.right]

    # -- looking ----------------------------------------------------------------------------

    def _settled(
        self,
        region: Rect,
        before: Image | None,
        timeout: float = SETTLE_TIMEOUT,
        quiet: float = QUIET,
    ) -> Image:
        """The region once it differs from ``before`` (if given) and then stays unchanged for
        ``quiet`` seconds; on timeout, the region as it is (maybe still ``before``).

        Wine on a busy machine can pause a flood of opened cells for longer than the frame
        interval, and a half-drawn board read as settled would blame the rest on the next click.
        """
        deadline = time.monotonic() + timeout
        try:
            frame = wait_stable(self.grabber, region, timeout=timeout, differs_from=before)
        except UnstableFrameError:
            return self.grabber.grab(region)
        while time.monotonic() < deadline:
            time.sleep(quiet)
            again = self.grabber.grab(region)
            if np.array_equal(again, frame):
                return frame
            frame = again
        return frame

    def board_ids(self, frame: Image | None = None) -> Ids:
        """Appearance ids of every cell, from ``frame`` (a board capture) or a new capture."""
        seen = self.observation
        frame = self.grabber.grab(seen.board_rect) if frame is None else frame
        grid = seen.grid
        blocks = tile_lattice(frame, (0, 0), grid.pitch, grid.pitch, (grid.rows, grid.columns))
        return self.evidence.catalogue.ids(blocks)

    def face_state(self, timeout: float = PROBE_TIMEOUT, until_unknown: bool = False) -> str | None:
        """Which known face picture the face shows (waiting up to ``timeout`` for one), or None.

        With ``until_unknown`` it waits instead for a picture that is none of the known ones.
        """
        if self.face is None:
            return None
        window = self.observation.window
        rect = Rect(
            window.left + self.face.left,
            window.top + self.face.top,
            self.face.width,
            self.face.height,
        )
        deadline = time.monotonic() + timeout
        while True:
            picture = self.grabber.grab(rect)
            state = next(
                (
                    name
                    for name, known in self.face_pictures.items()
                    if np.array_equal(picture, known)
                ),
                None,
            )
            if (state is None) == until_unknown or time.monotonic() >= deadline:
                return state
            time.sleep(0.02)

    def face_point(self) -> tuple[int, int] | None:
        """The screen point in the middle of the face, if known."""
        if self.face is None:
            return None
        window = self.observation.window
        x, y = self.face.centre
        return window.left + x, window.top + y

    # -- playing ----------------------------------------------------------------------------

    def _board_frame(self) -> Image:
        """A capture of the board once it holds still (the game may still be drawing a click)."""
        rect = self.observation.board_rect
        try:
            return wait_stable(self.grabber, rect, timeout=SETTLE_TIMEOUT)
        except UnstableFrameError as error:
            raise CalibrationError(f"the board at {rect} never held still: {error}") from error

    def _click(
        self,
        action: Action,
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
        rect = self.observation.board_rect
        if before_frame is None:
            before_frame = self._board_frame()
        x, y = self.observation.cell_point(cell)
        button = "left" if action == Action.OPEN else "right"
        self.pointer.click(x, y, button)
        after_frame = self._settled(rect, before_frame, timeout)
        if retry and np.array_equal(after_frame, before_frame):
            log.debug("%s %s at %s changed nothing: clicked once more", action, cell, (x, y))
            self.pointer.click(x, y, button)
            after_frame = self._settled(rect, before_frame, timeout)
        step = Step(action, cell, self.board_ids(before_frame), self.board_ids(after_frame))
        log.debug("%s %s at %s: %d cells changed", action, cell, (x, y), int(step.changed.sum()))
        return step

    def _hidden_cells(self, ids: Ids) -> list[Cell]:
        return [(int(r), int(c)) for r, c in np.argwhere(ids == HIDDEN_ID)]

    def play_game(self) -> GameRecord:
        """Play the game on the screen at random until it is lost (or won, or nothing is left
        to open), with a few flags and a question mark on the way."""
        if self._game is None:
            self._game = GameRecord()
            self.evidence.games.append(self._game)
        game = self._game
        flags_left = FLAGS_PER_GAME
        for _ in range(MAX_STEPS):
            if game.finished:
                self._game = None
                return game
            frame = self._board_frame()
            hidden = self._hidden_cells(self.board_ids(frame))
            if not hidden:
                self._won(game)
                continue
            cell = self.random.choice(hidden)
            if flags_left and self.random.random() < 0.3:
                flags_left -= 1
                flag = self._mark(cell, frame)
                if int(flag.changed.sum()) > 1:
                    # Other cells changed too: the game was still drawing an earlier click, so
                    # this step says nothing sure about the right-click.
                    log.debug("right-click on %s came with other changes: not recorded", cell)
                    continue
                game.steps.append(flag)
                if not self._question_tested:
                    # A second click at the same spot within the double-click time is a
                    # double-click, which the game may not take as a right-click.
                    time.sleep(DOUBLE_CLICK_GAP)
                    game.steps.append(self._mark(cell))
                    self._question_tested = True
                continue
            game.steps.append(self._click(Action.OPEN, cell, frame))
            self._finish_if_over(game)
        raise CalibrationError(f"a game lasted {MAX_STEPS} clicks without ending")

    def play_to_win(self, meanings: Meanings, mines: int) -> GameRecord:
        """Play one game with the solver, reading the board with ``meanings``, to see the face a
        won game shows. Once every safe cell is open the mines left hidden are flagged
        (xdemineur declares the win only when the last mine is flagged).

        Returns the record, won or lost; raises if the board shows an appearance not learned.
        """
        if self._game is not None and self._game.steps:
            raise CalibrationError("play_to_win needs a new game, not one in progress")
        game = self._game or GameRecord()
        self._game = None
        if game not in self.evidence.games:
            self.evidence.games.append(game)
        for _ in range(MAX_STEPS):
            frame = self._board_frame()
            board = board_of(self.board_ids(frame), meanings, mines)
            if board.is_won:
                for cell in map(tuple, np.argwhere(board.tiles == Tile.HIDDEN)):
                    game.steps.append(self._mark((int(cell[0]), int(cell[1]))))
                self._won(game)
                return game
            move = next_moves(board)[0]
            game.steps.append(self._click(Action.OPEN, move.cell, frame))
            self._finish_if_over(game)
            if game.finished:
                return game
        raise CalibrationError(f"a game lasted {MAX_STEPS} clicks without ending")

    def _mark(self, cell: Cell, before_frame: Image | None = None) -> Step:
        step = self._click(Action.MARK, cell, before_frame)
        if not step.changed[cell]:
            raise CalibrationError(
                f"a right-click on cell {cell} at screen {self.observation.cell_point(cell)} "
                "changed nothing"
            )
        return step

    def _outcome(self, game: GameRecord) -> str:
        """ "lost", "won" or "playing" after the last step, probing with more clicks when unsure.

        The face tells once it is known; before that a click that changed several cells into an
        appearance never seen on a safe cell is followed by a probe click elsewhere.
        """
        while True:
            step = game.steps[-1]
            if not step.changed[step.cell]:
                raise CalibrationError(
                    f"a click on hidden cell {step.cell} at screen "
                    f"{self.observation.cell_point(step.cell)} changed nothing: is the game "
                    "over, or the window covered?"
                )
            face = self.face_state()
            if face is not None:
                if face == "playing":
                    self._opened_safely(step)
                return face
            shown = int(step.after[step.cell])
            hidden = self._hidden_cells(step.after)
            if (
                int(step.changed.sum()) == 1
                or shown in self.evidence.safe_appearances
                or not hidden
            ):
                self._opened_safely(step)
                return "playing"
            probe = self._click(
                Action.OPEN, self.random.choice(hidden), timeout=PROBE_TIMEOUT, retry=False
            )
            if not probe.changed.any():
                return "lost"
            self._opened_safely(step)
            game.steps.append(probe)

    def _opened_safely(self, step: Step) -> None:
        opened = step.changed & (step.before == HIDDEN_ID)
        self.evidence.safe_appearances.update(int(i) for i in np.unique(step.after[opened]))

    def _finish_if_over(self, game: GameRecord) -> None:
        """Mark ``game`` lost or won if its last step ended it."""
        outcome = self._outcome(game)
        if outcome == "lost":
            self._lost(game)
        elif outcome == "won":
            self._won(game)

    def _lost(self, game: GameRecord) -> None:
        """Record a lost game; the first loss shows where the face is.

        The losing step's board is read again once it has held still for :data:`LOST_QUIET`:
        read in the middle of the repaint a loss brings, a cell would seem to change from an
        opened one, which no rule allows (a CI run stopped on that, in two tests).
        """
        game.lost = True
        seen = self.observation
        last = game.steps[-1]
        final = self._settled(seen.board_rect, None, quiet=LOST_QUIET)
        game.steps[-1] = Step(last.action, last.cell, last.before, self.board_ids(final))
        frame = self.grabber.grab(seen.window)
        if self.face is None:
            self.face = find_face(seen.fresh, frame, seen.board_in_window)
            if self.face is not None:
                self.face_pictures["playing"] = crop(seen.fresh, self.face)
        if self.face is not None:
            self.face_pictures.setdefault("lost", crop(frame, self.face))

    def _won(self, game: GameRecord) -> None:
        """Record a won game and, once the face shows something new, the won face."""
        game.won = True
        seen = self.observation
        if self.face is not None and "won" not in self.face_pictures:
            self.face_state(SETTLE_TIMEOUT, until_unknown=True)
        frame = self.grabber.grab(seen.window)
        if self.face is not None and "won" not in self.face_pictures:
            picture = crop(frame, self.face)
            if not any(np.array_equal(picture, known) for known in self.face_pictures.values()):
                self.face_pictures["won"] = picture

    # -- new games --------------------------------------------------------------------------

    def start_new_game(self, key: str = "f2") -> NewGame:
        """Start a new game the way that worked before, else by ``key``, else with the face."""
        rect = self.observation.board_rect
        ended = self.grabber.grab(rect)
        method = self.new_game_method
        if method is None or method.kind == "key":
            self.pointer.press(key, *rect.centre)
            log.debug("pressed %s over the board for a new game", key)
            if self._is_new_game(self._settled(rect, ended, KEY_TIMEOUT), ended):
                self.new_game_method = NewGame("key", key)
                self._check_no_hidden_cells_outside()
                return self.new_game_method
        face = self.face_point()
        if face is not None:
            self.pointer.click(face[0], face[1], "left")
            log.debug("clicked the face at %s for a new game", face)
            if self._is_new_game(self._settled(rect, ended), ended):
                self.new_game_method = NewGame("face")
                self._check_no_hidden_cells_outside()
                return self.new_game_method
        raise CalibrationError(
            f"cannot start a new game in window {self.observation.window}: neither the {key} "
            "key"
            + ("" if face is None else f" nor a click on the face at {face}")
            + " changed the finished board into a new one (did the window move?)"
        )

    def _check_no_hidden_cells_outside(self) -> None:
        """Raise if a new game shows a hidden tile just outside the grid: the first board's
        opened edge hid a row or column of it, and the games recorded so far miscount."""
        seen = self.observation
        frame = self.grabber.grab(seen.window)
        (x, y), (pitch_x, pitch_y) = seen.grid.origin, seen.grid.pitch
        rows, columns = seen.grid.rows, seen.grid.columns
        ring = [(r, c) for r in (-1, rows) for c in range(-1, columns + 1)]
        ring += [(r, c) for r in range(rows) for c in (-1, columns)]
        for row, column in ring:
            top, left = y + row * pitch_y, x + column * pitch_x
            block = frame[top : top + pitch_y, left : left + pitch_x]
            if top >= 0 and left >= 0 and np.array_equal(block, seen.grid.hidden):
                raise CalibrationError(
                    f"a new game shows a hidden tile at row {row}, column {column}, outside the "
                    f"{rows}x{columns} board found at first: calibrate again on a fresh game"
                )

    def _is_new_game(self, frame: Image, ended: Image) -> bool:
        if np.array_equal(frame, ended):
            return False
        ids = self.board_ids(frame)
        return bool((ids == HIDDEN_ID).any()) and not np.isin(ids, self._end_appearances()).any()

    def _end_appearances(self) -> list[int]:
        """Appearances only a finished game shows: on the last step of lost games, not safe ones."""
        ends: set[int] = set()
        for game in self.evidence.games:
            if game.lost:
                last = game.steps[-1]
                ends.update(int(i) for i in np.unique(last.after[last.changed]))
        return sorted(ends - self.evidence.safe_appearances - {HIDDEN_ID})


def _only_changes_around(before: Image, after: Image, point: tuple[int, int]) -> Image:
    """``before`` with just the changes connected to ``point`` taken from ``after``.

    A click changes a connected patch of cells around it; a counter ticking meanwhile elsewhere
    in the window must not count as a changed block when the cut is chosen.
    """
    changed = (before != after).any(axis=2).astype(np.uint8)
    if not changed.any():
        return before
    _, labels = cv2.connectedComponents(cv2.dilate(changed, np.ones((3, 3), np.uint8)))
    ys, xs = np.nonzero(changed)
    nearest = np.argmin((xs - point[0]) ** 2 + (ys - point[1]) ** 2)
    patch = (labels == labels[ys[nearest], xs[nearest]]) & changed.astype(bool)
    result = before.copy()
    result[patch] = after[patch]
    return result
