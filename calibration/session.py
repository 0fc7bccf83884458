"""Playing a live game to collect evidence: clicks through a Pointer, captures through a Grabber.

Each game opens random hidden cells until it is lost, with a few right-clicks on the way (flags
that may turn out wrong, a question mark). Whether a click lost is told by the game itself.
Until a loss has shown the face, a lost game is known by the cells it changes apart from the
click (the mines it draws) or by ignoring clicks: when a click changed cells into an appearance
not yet seen on a safe cell, a *probe* click on another hidden cell settles it (nothing happens:
lost; something opens: still playing, and the probe is one more step). From then on the face
says it.
"""

from __future__ import annotations

import logging
import math
import random
import time
from collections.abc import Iterable, Iterator
from dataclasses import replace
from itertools import combinations

import cv2
import numpy as np
import numpy.typing as npt

from calibration.buttons import ButtonPoints, blanked, button_points
from calibration.catalogue import HIDDEN_ID, Catalogue, Ids
from calibration.dialogs import DIALOGS_IN_A_ROW, dialog_over, dialog_seen, with_part
from calibration.errors import (
    CalibrationError,
    GridNotFoundError,
    OutOfTimeError,
    UnknownAppearanceError,
)
from calibration.faces import find_face
from calibration.grid import find_lattice
from calibration.inference import redrawn_numbers
from calibration.labels import NoTextReader, read_words
from calibration.meanings import Meanings, beside_zeros, board_of
from calibration.pointer import Pointer
from calibration.record import ClickKind, Evidence, PlayedGame, Step
from calibration.view import PROBE_TIMEOUT, SETTLE_TIMEOUT, BoardView, FaceButton, settled
from solver import Board, Cell, GameState, Tile
from solver.strategy import next_moves
from vision.geometry import Rect
from vision.skin import KEYS_AFTER_LABELS, KEYS_BEFORE_LABELS, MIN_SIDE, Image, NewGame
from vision.stable import Grabber

DOUBLE_CLICK_GAP = 0.6
"""Seconds between two clicks on one cell so they are not taken as a double-click."""
FLASH_QUIET = 0.5
"""Seconds a board that changed in every cell at once must then hold still before it is read:
sgt-mines' flashes change frames every 0.13 s for about 0.4 s."""
LOST_QUIET = 1.0
"""Seconds a lost board must stay unchanged before its final read: a game repaints every cell
on a loss, and Wine on a busy machine can pause in the middle of that for longer than QUIET.
0.4 s still let a fresh-clone CI run read a half-repainted loss (2026-11-23: "MINE has two
appearances" at cells (0, 0) and (0, 1); "cell (0, 3) changed ... on losing") in 1 of 6 full
runs that session."""
MESSAGE_WAIT = 5.0
"""Seconds a lost board is watched for a message over it to go (kmines' "You have lost.")."""
MESSAGE_CHECKS = 2
"""Losses watched for a message before a game that never showed one is taken to draw none."""
HIDDEN_CANDIDATES = 3
"""How many of a fresh board's most common tiles are clicked to find the hidden one, counted by
equal pixels and then again by likeness (:meth:`calibration.grid.Lattice.alike`)."""
BUTTON_SIDE = 17
"""Pixels a side of the picture kept of a new-game button, centred on its point."""
EDGE_LEVELS = 24
"""Colour levels by which the pixels around one differ across a line or an edge (less: shading)."""
KEY_TIMEOUT = 1.5
"""Seconds a new-game key (or a click on a tile that may be no hidden one) is given to act."""
MOVED_SHARE = 0.9
"""Share of the cells that must differ after a click before the board is looked for elsewhere
in the window (see :meth:`calibration.view.BoardView.follow_move`)."""
log = logging.getLogger(__name__)
FLAGS_PER_GAME = 2


class CalibrationPlayer:
    """Plays games on one window, recording them into the shared :class:`Evidence`.

    :meth:`start` finds the board by clicking it; the constructor only takes a board found.
    """

    def __init__(
        self, pointer: Pointer, view: BoardView, evidence: Evidence, seed: int | None = None
    ) -> None:
        self.pointer = pointer
        self.view = view
        self.evidence = evidence
        self.random = random.Random(seed)
        self.face: FaceButton | None = None
        """The face button, once a loss has shown where it is."""
        self.new_game_method: NewGame | None = None
        self.new_game_buttons: list[Image] = []
        """The screen around the new-game point before each click there that started a new
        game, each look once (see :attr:`vision.skin.Skin.buttons`)."""
        self.point_named = False
        """Whether the user named the new-game point: a button that may be anything, a face
        showing how the game ended among them (a button found by its label, or by a finished
        game bringing it up, says "new game"; a face calibration finds has faces of its own)."""
        self.button_after_win = False
        """Whether a click on the new-game point started a new game after a won one (the
        button may show how the game ended, as DangerUXB's face does)."""
        self._question_tested = False
        self._marks = 0
        """Cells marked so far (see :meth:`_cell_to_mark`)."""
        self.wins_without_face = 0
        """Won games whose face showed no picture of its own (see :meth:`_won`)."""
        self._fresh = False
        """Whether the board shows a new game no click has touched yet."""
        self._game: PlayedGame | None = None
        self.games: list[PlayedGame] = []
        """Every game begun on this window's board."""
        self._latest: PlayedGame | None = None
        """The game begun last, played on or not (a game set aside is gone from the evidence)."""
        self._end_frame: Image | None = None
        """The lost board as :meth:`_lost` last read it, held still."""
        self._board_seen: Image | None = None
        """The board as the last click the game took left it (or as a game ended, or began),
        with no dialog over it: what a dialog drawn in the window later veils."""

    @classmethod
    def start(
        cls,
        pointer: Pointer,
        grabber: Grabber,
        window: Rect,
        evidence: Evidence | None = None,
        seed: int | None = None,
    ) -> CalibrationPlayer:
        """Find the board in ``window`` (a fresh game) by clicking its hidden tile, and return
        its player with that click recorded as the first step of its first game.

        ``evidence`` is what other windows of the same program showed (None: a new one).
        """
        point, fresh, after = _click_the_hidden_tile(pointer, grabber, window)
        # The hidden tile is the block under the click in the fresh frame; with the opened cells
        # of the second frame the cut is certain (see calibration.grid).
        try:
            lattice = find_lattice(fresh, _only_changes_around(fresh, after, point))
        except GridNotFoundError as error:
            raise GridNotFoundError(f"{error}, after the first click{_LOST_FIRST}") from error
        grid = lattice.grid(lattice.hash_at(0, *point))
        cut = grid.cut_sides(fresh)
        if cut:
            raise CalibrationError(
                f"the board in window {window} runs past its {' and '.join(cut)} edge (part of "
                "a cell shows there): enlarge the window, or the region, to show the whole board"
            )
        if evidence is None:
            evidence = Evidence(Catalogue(grid.hidden))
            evidence.catalogue.learn_spread(grid.pictures(fresh))
            evidence.catalogue.trim_shared_lines(grid.pictures(after))
        elif evidence.catalogue.add(grid.hidden) != HIDDEN_ID:
            raise CalibrationError(
                f"the hidden tile in window {window} differs from the one calibrated before"
            )
        view = BoardView(grabber, evidence.catalogue, grid, window, fresh)
        player = cls(pointer, view, evidence, seed)
        board = (view.board_part(fresh), view.board_part(after))
        first = Step(
            ClickKind.OPEN,
            grid.cell_at(*point),
            view.board_ids(board[0]),
            view.board_ids(board[1]),
            view.unpainted(*board),
        )
        if not (first.after == HIDDEN_ID).any():
            raise CalibrationError(
                f"the first click, at {(window.left + point[0], window.top + point[1])}, "
                f"changed every hidden cell in window {window}{_LOST_FIRST}"
            )
        player._game = player._new_game([first])
        player._finish_if_over(player._game)
        return player

    def read_with(self, catalogue: Catalogue) -> None:
        """Read the games recorded so far, and the ones to come, with ``catalogue`` (one that
        compares another part of the cells); a game left in progress is not played on."""
        self.evidence.rebase(catalogue)
        self.view.catalogue, self._game = catalogue, None

    @property
    def face_pictures(self) -> dict[GameState, Image]:
        """The face's picture in each game state seen so far (none before the face is found)."""
        return {} if self.face is None else self.face.pictures

    def _new_game(self, steps: list[Step] | None = None) -> PlayedGame:
        game = PlayedGame(steps or [])
        self.evidence.games.append(game)
        self.games.append(game)
        self._latest = game
        return game

    def on_the_whole_board(self) -> CalibrationPlayer:
        """The player of this window once a new game has shown hidden tiles outside the board
        found at first (:class:`calibration.errors.PartialBoardError`): the board is found
        anew on the fresh game showing, as :meth:`start` finds it, and the games played on the
        part are forgotten (they counted mines they could not see). What is known of the window
        stays: its face, its new-game way and that way's looks."""
        self.evidence.forget(self.games)
        view, seed = self.view, self.random.getrandbits(32)
        player = self.start(self.pointer, view.grabber, view.window, self.evidence, seed)
        player.face = self.face
        player.new_game_method = self.new_game_method
        player.new_game_buttons = self.new_game_buttons
        player.point_named = self.point_named
        player.button_after_win = self.button_after_win
        player.wins_without_face = self.wins_without_face
        return player

    # -- playing ----------------------------------------------------------------------------

    def _click(
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
        self._fresh = False
        x, y = view.cell_point(cell)
        button = "left" if click == ClickKind.OPEN else "right"
        self._click_and_park(x, y, button)
        after_frame = settled(view.grabber, rect, before_frame, timeout)
        if retry and np.array_equal(after_frame, before_frame):
            log.debug("%s %s at %s changed nothing: clicked once more", click, cell, (x, y))
            self._click_and_park(x, y, button)
            after_frame = settled(view.grabber, rect, before_frame, timeout)
        if self._closed_dialogs():
            after_frame = settled(view.grabber, rect, None, quiet=FLASH_QUIET)
        after_frame = self._without_dialogs(before_frame, after_frame)
        moved = _cells_that_differ(view, before_frame, after_frame) >= MOVED_SHARE
        if moved and view.follow_move(before_frame):
            log.debug("the board moved in the window to %s", view.board_rect)
            rect = view.board_rect
            after_frame = settled(view.grabber, rect, None, quiet=FLASH_QUIET)
        if not np.array_equal(after_frame, before_frame):  # the game took the click: no dialog
            self._board_seen = after_frame
        before_ids = view.board_ids(before_frame)
        after_ids = view.board_ids(after_frame)
        unpainted = view.unpainted(before_frame, after_frame) if click is ClickKind.OPEN else None
        opened_before = np.isin(before_ids, list(self.evidence.safe_appearances))
        changed = after_ids != before_ids
        if changed.all() or (opened_before & changed).any():
            # An opened cell never changes in play, nor does every cell at once: this is a flash
            # (sgt-mines flashes the whole board when a game ends) or a repaint. Read the board
            # once it has long held still.
            log.debug("%s %s changed opened cells: waiting for the board to settle", click, cell)
            after_frame = settled(view.grabber, rect, None, quiet=FLASH_QUIET)
            after_ids = view.board_ids(after_frame)
        step = Step(click, cell, before_ids, after_ids, unpainted)
        ring = view.ring(before_frame, after_frame, opened_before, step.uncovered, cell)
        step = replace(step, ring=ring)
        log.debug("%s %s at %s: %d cells changed", click, cell, (x, y), int(step.changed.sum()))
        return step

    def _closed_dialogs(self) -> bool:
        """Close the dialogs the game opened (kmines' "Game Over" covers the board); whether
        there were any. The board under them is then read once it has held still."""
        closed = self.pointer.close_dialogs()
        if closed:
            log.debug("closed %d dialog(s) of the game", closed)
            self._park_again()
        return closed > 0

    def _park_again(self) -> None:
        """Move the pointer a pixel away from where it rests and back. A modal dialog takes the
        pointer's moves, so the game still has it where the click that opened the dialog was;
        kmines keeps its "You have lost." over the board while the pointer rests on it."""
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

    def _without_dialogs(self, before: Image | None, after: Image) -> Image:
        """The board ``after`` shows (a capture of it), or, when every cell of it differs from
        ``before`` (the board before; None: as the last click left it) because a dialog drawn
        in the window veils it, the board once the dialogs are answered and it holds still."""
        before = self._board_seen if before is None else before
        if before is None:
            return after
        view = self.view
        for _ in range(DIALOGS_IN_A_ROW):
            veiled = _cells_that_differ(view, before, after) == 1.0
            if not veiled or not self._answered_dialog(before):
                break
            after = settled(view.grabber, view.board_rect, None, quiet=FLASH_QUIET)
        return after

    def _answered_dialog(self, board: Image) -> bool:
        """Whether a dialog drawn in the window over a veil (a browser's "Cancel"/"OK" over the
        page it dims) was answered by a click on its button that keeps the game (see
        :mod:`calibration.dialogs`); ``board`` is the board before the veil."""
        view = self.view
        dialog = dialog_over(
            view.grabber, view.window, with_part(view.fresh, board, view.board_in_window)
        )
        if dialog is None:
            return False
        if dialog.button is None:
            log.debug("a dialog veils the window; no button of it reads Cancel, No or OK")
            return False
        x, y = dialog.button.rect.centre
        log.debug("answered a dialog drawn in the window with its %r button", dialog.button.label)
        self._click_and_park(view.window.left + x, view.window.top + y, "left")
        return True

    def _click_and_park(self, x: int, y: int, button: str) -> None:
        """Click, then move the pointer off the board: some games light up the tile under
        the pointer (gnome-mines), which would read as a changed cell."""
        self.pointer.click(x, y, button)
        park = self.view.park_point()
        if park is not None:
            self.pointer.move(*park)

    def play_game(self) -> PlayedGame:
        """Play the game on the screen at random until it is lost (or won, or nothing is left
        to open), with a few flags and a question mark on the way."""
        if self._game is None:
            self._game = self._new_game()
        game = self._game
        flags_left = FLAGS_PER_GAME
        for _ in range(self._step_limit()):
            if game.finished:
                self._game = None
                return game
            frame = self.view.still_board()
            hidden = _hidden_cells(self.view.board_ids(frame))
            if not hidden:
                self._won(game)
                continue
            cell = self.random.choice(hidden)
            opened = any(step.click is ClickKind.OPEN for step in game.steps)
            # Some games take no mark before a game's first click has begun it.
            if opened and flags_left and (not self._question_tested or self.random.random() < 0.3):
                flags_left -= 1
                self._mark_at_random(game, self._cell_to_mark(cell, hidden), frame)
                continue
            game.steps.append(self._click(ClickKind.OPEN, cell, frame))
            self._finish_if_over(game)
        raise self._endless()

    def _cell_to_mark(self, cell: Cell, hidden: list[Cell]) -> Cell:
        """The hidden cell to mark instead of ``cell`` (chosen at random from ``hidden``): on a
        board whose cells differ in size, one of each size class in turn, since a game may draw
        its flag apart in each (a tk button pads its picture on one side), and play marks
        cells of every class."""
        classes = self.view.grid.size_classes
        present = np.unique(classes).tolist()
        if len(present) == 1:
            return cell
        wanted = present[self._marks % len(present)]
        self._marks += 1
        if classes[cell] == wanted:
            return cell
        candidates = [each for each in hidden if classes[each] == wanted]
        return self.random.choice(candidates) if candidates else cell

    def _step_limit(self) -> int:
        """Clicks a game may take: each opening click opens a cell or ends the game, so one that
        goes on past as many clicks as the board has cells (and the marks) does not take them."""
        grid = self.view.grid
        return grid.rows * grid.columns + 2 * FLAGS_PER_GAME + 1

    def _endless(self) -> CalibrationError:
        grid = self.view.grid
        return CalibrationError(
            f"a game lasted {self._step_limit()} clicks without ending on a "
            f"{grid.rows}x{grid.columns} board"
        )

    def _mark_at_random(self, game: PlayedGame, cell: Cell, frame: Image) -> None:
        """Right-click ``cell`` (chosen from the settled board ``frame``), and right-click it
        once more the first time, to see a question mark."""
        flag = self._mark(cell, frame)
        if int(flag.changed.sum()) > 1:
            # Other cells changed too: the game was still drawing an earlier click, so this step
            # says nothing sure about the right-click.
            log.debug("right-click on %s came with other changes: not recorded", cell)
            return
        game.steps.append(flag)
        if not self._question_tested:
            # A second click at the same spot within the double-click time is a double-click,
            # which the game may not take as a right-click.
            time.sleep(DOUBLE_CLICK_GAP)
            game.steps.append(self._mark(cell))
            self._question_tested = True

    def play_to_win(self, meanings: Meanings, mines: int, deadline: float = math.inf) -> PlayedGame:
        """Play one game with the solver, reading the board with ``meanings``, to see the face a
        won game shows. Once every safe cell is open the mines left hidden are flagged
        (xdemineur declares the win only when the last mine is flagged).

        Returns the record, won or lost; raises if the board shows an appearance not learned,
        but on a cell opened by a click the game survived or beside a 0: a number, whose value
        the solver is not told (:attr:`Tile.OPENED`). Raises :class:`OutOfTimeError`, the game
        left as it is, once ``time.monotonic()`` passes ``deadline``.
        """
        if self._game is not None and self._game.steps:
            raise CalibrationError("play_to_win needs a new game, not one in progress")
        game = self._game or self._new_game()
        self._game = None
        opened: set[int] = set()  # appearances of cells opened while the face says "playing"
        for _ in range(self._step_limit()):
            if time.monotonic() > deadline:
                raise OutOfTimeError(
                    f"a game played to win was left after {len(game.steps)} clicks"
                )
            frame = self.view.still_board()
            waited = False
            try:
                board = self._board_in_play(frame, meanings, mines, opened)
            except UnknownAppearanceError:
                if not game.steps:
                    raise
                frame, waited = self._after_message(game, frame), True
                board = self._board_in_play(frame, meanings, mines, opened)
            if board.is_won:
                for cell in map(tuple, np.argwhere(board.tiles == Tile.HIDDEN)):
                    game.steps.append(self._mark((int(cell[0]), int(cell[1]))))
                self._won(game, watch=not waited)
                return game
            move = next_moves(board)[0]
            clicked = len(game.steps)
            opening = self._click(ClickKind.OPEN, move.cell, frame)
            game.steps.append(opening)
            self._finish_if_over(game)  # may add a probe click
            if game.finished:
                return game
            if opening.painted_past(self.evidence.catalogue.box):
                # The click painted over a part of other cells that is compared: they may read
                # as opened ones. Calibration goes on comparing less (see _Learner._learn).
                return game
            if self.face is not None and self.face.state() is GameState.PLAYING:  # not won
                for step in game.steps[clicked:]:
                    opened.update(step.after[step.uncovered].tolist())
        raise self._endless()

    def _board_in_play(
        self, frame: Image, meanings: Meanings, mines: int, opened: set[int]
    ) -> Board:
        """The board ``frame`` shows, its appearances not learned yet read as numbers of
        unknown value where a cell showing one was opened without losing (``opened``) or lies
        beside a 0."""
        ids = self.view.board_ids(frame)
        return board_of(ids, meanings, mines, opened | beside_zeros(ids, meanings))

    def _after_message(self, game: PlayedGame, frame: Image) -> Image:
        """The board once a message drawn over it (``frame``) has gone by itself (kmines writes
        "You have lost." or "Congratulations! You have won!" over it for four seconds), or
        ``frame`` after :data:`MESSAGE_WAIT` without a change; the last step of ``game`` records
        it."""
        view = self.view
        later = settled(view.grabber, view.board_rect, frame, MESSAGE_WAIT, quiet=LOST_QUIET)
        if not np.array_equal(later, frame):
            log.debug("the board changed again after %.1f s of stillness", LOST_QUIET)
            game.steps[-1] = replace(game.steps[-1], after=view.board_ids(later))
        return later

    def _mark(self, cell: Cell, before_frame: Image | None = None) -> Step:
        """Right-click ``cell``; raise unless its picture changed."""
        view = self.view
        if before_frame is None:
            before_frame = view.still_board()
        step = self._click(ClickKind.MARK, cell, before_frame)
        if not step.changed[cell]:
            # The cell may now show a picture within the grouping tolerance of the one before
            # (gnome-mines draws its question mark as its flag with a small "?"): a right-click
            # is meant to change the mark, so a lasting pixel change is a new appearance.
            after_frame = view.still_board()
            before, after = (
                view.cell_pictures(frame)[cell] for frame in (before_frame, after_frame)
            )
            if not np.array_equal(before, after):
                self.evidence.catalogue.add_distinct(after, int(view.grid.size_classes[cell]))
                step = Step(ClickKind.MARK, cell, step.before, view.board_ids(after_frame))
                log.debug("mark %s drew a picture close to the one before: a new appearance", cell)
        if not step.changed[cell]:
            raise CalibrationError(
                f"a right-click on cell {cell} at screen {self.view.cell_point(cell)} "
                "changed nothing"
            )
        return step

    # -- judging ----------------------------------------------------------------------------

    def _outcome(self, game: PlayedGame) -> GameState:
        """The game's state after its last step, probing with more clicks when unsure.

        The face tells once it is known; before that a click that changed cells into an
        appearance never seen on a safe cell lost if it changed cells apart from its own patch
        (:func:`_changed_apart`), else it is followed by a probe click elsewhere: the game goes
        on if the cell probed changes. A click that left no hidden cell to probe lost if
        the game showed every cell (:func:`_shows_everything`). A known face showing neither
        its playing nor its lost picture is probed too: a game that then takes no click has
        been won, its mines left hidden.
        """
        while True:
            step = game.steps[-1]
            if not step.changed[step.cell]:
                raise CalibrationError(
                    f"a click on hidden cell {step.cell} at screen "
                    f"{self.view.cell_point(step.cell)} changed nothing: is the game "
                    "over, or the window covered?"
                )
            face = None if self.face is None else self.face.state()
            if face is not None:
                if face is GameState.PLAYING:
                    self.evidence.opened_safely(step)
                return face
            shown = int(step.after[step.cell])
            if shown in self.evidence.end_appearances():
                return GameState.LOST
            hidden = _hidden_cells(step.after)
            safe = self.evidence.safe_appearances
            catalogue = self.evidence.catalogue
            if not hidden and shown not in safe and _shows_everything(step, safe, catalogue):
                return GameState.LOST
            # A face showing neither its playing nor its lost picture: won, if the game now
            # ignores clicks (its mines left hidden), else a picture of its own during play.
            may_have_won = self.face is not None
            if not hidden or (shown in safe and not may_have_won):
                self.evidence.opened_safely(step)
                return GameState.PLAYING
            # The probe is judged against a board that has long held still: one caught in the
            # middle of an end-of-game flash would change under the probe, game over or not.
            self._closed_dialogs()  # never probe under a dialog that opened late
            still = settled(self.view.grabber, self.view.board_rect, None, quiet=FLASH_QUIET)
            if not may_have_won and _changed_apart(
                step.before, self.view.board_ids(still), step.cell, safe
            ):
                # The mines drawn across the board; a probe could be fooled by a game that
                # still draws a clicked cell pressed once it is over.
                return GameState.LOST
            probe = self._click(
                ClickKind.OPEN,
                self.random.choice(hidden),
                still,
                timeout=PROBE_TIMEOUT,
                retry=False,
            )
            if not probe.changed[probe.cell]:  # other cells may change: a message drawn
                return GameState.WON if may_have_won else GameState.LOST
            self.evidence.opened_safely(step)
            game.steps.append(probe)

    def _finish_if_over(self, game: PlayedGame) -> None:
        """Mark ``game`` lost or won if its last step ended it."""
        outcome = self._outcome(game)
        if outcome is GameState.LOST:
            self._lost(game)
        elif outcome is GameState.WON:
            self._won(game)

    def _lost(self, game: PlayedGame) -> None:
        """Record a lost game; the first loss shows where the face is.

        The losing step's board is read again once it has held still for :data:`LOST_QUIET`:
        read in the middle of the repaint a loss brings, a cell would seem to change from an
        opened one, which no rule allows (a CI run stopped on that, in two tests). A board that
        still seems to, or one that may carry a message, is watched for one more change.
        """
        game.state = GameState.LOST
        view = self.view
        last = game.steps[-1]
        self._closed_dialogs()  # one that opened late
        final = settled(view.grabber, view.board_rect, None, quiet=LOST_QUIET)
        final = self._board_seen = self._without_dialogs(None, final)  # one drawn in the window
        game.steps[-1] = replace(last, after=view.board_ids(final))
        watch = self._watches_for_message()
        if watch or self._mid_repaint(game.steps[-1].after, last):
            later = self._after_message(game, final)
            if watch:
                self.evidence.loss_messages.append(not np.array_equal(later, final))
            final = later
        self._end_frame = final
        frame = view.grabber.grab(view.window)
        if self.face is None:
            found = find_face(view.fresh, frame, view.board_in_window)
            if found is not None:
                self.face = FaceButton(view.grabber, view.window, found)
                self.face.pictures[GameState.PLAYING] = self.face.picture_in(view.fresh)
        if self.face is not None:
            self.face.pictures.setdefault(GameState.LOST, self.face.picture_in(frame))

    def _watches_for_message(self) -> bool:
        """Whether this loss is watched for a message drawn over the board that goes by itself:
        the first :data:`MESSAGE_CHECKS` losses are, later ones while at least half of those
        watched showed one (a repaint paused on a busy machine looks like a message once)."""
        shown = self.evidence.loss_messages
        return len(shown) < MESSAGE_CHECKS or 2 * sum(shown) >= len(shown)

    def _mid_repaint(self, ids: Ids, last: Step) -> bool:
        """Whether a cell that showed a number before the losing click shows something else
        but a number, and not as a game that redraws every opened cell on its end does
        (:func:`calibration.inference.redrawn_numbers`): a board caught in the middle of its
        repaint."""
        return redrawn_numbers(last.before, ids, self.evidence.safe_appearances) is None

    def _won(self, game: PlayedGame, watch: bool = True) -> None:
        """Record a won game, its board once a message over it has gone (as for a loss, see
        :meth:`_watches_for_message`; not ``watch``: a message was waited out already), and,
        once the face shows something new, the won face."""
        game.state = GameState.WON
        if watch and self._watches_for_message():
            self._after_message(game, self.view.grabber.grab(self.view.board_rect))
        face = self.face
        if face is None or GameState.WON in face.pictures:
            return
        face.state(SETTLE_TIMEOUT, until_unknown=True)
        picture = face.picture_in(self.view.grabber.grab(self.view.window))
        if not any(np.array_equal(picture, known) for known in face.pictures.values()):
            face.pictures[GameState.WON] = picture
        else:
            self.wins_without_face += 1

    # -- new games --------------------------------------------------------------------------

    def start_new_game(self) -> NewGame:
        """Start a new game the way that worked before; else try the face, F2 and N, a button
        beside the board labelled so, Ctrl+R and Ctrl+N (:data:`vision.skin.NEW_GAME_KEYS`),
        then a place the finished game changed (:func:`calibration.buttons.button_points`).
        A way counts only when a fresh board appears; one that changes the board into anything
        else stops calibration rather than trying more on a game in an unknown state. A board
        no click has touched since the last new game is one already: no way would change it.
        On a game perhaps not over (:attr:`stuck_mid_game`) only the way that worked is tried."""
        if self._fresh and self.new_game_method is not None:
            return self.new_game_method
        view = self.view
        methods = self._new_game_methods()
        if self.stuck_mid_game and self.new_game_method is not None:
            methods = iter([self.new_game_method])
        ended = self._ended_board()
        tried = []
        for method in methods:
            what = {
                "face": "a click on the face",
                "point": f"a click at {method.at} from the board's corner",
            }.get(method.kind, f"the {method.key} key")
            button = self._button_picture(method)
            frame = self._try_new_game(method, ended)
            if self._is_new_game(frame, ended):
                log.debug("%s started a new game", what)
                self._board_seen = frame
                self._fresh = True
                self.new_game_method = method
                if button is not None:
                    self._keep_button(button)
                view.check_no_hidden_cells_outside()
                return method
            if not np.array_equal(frame, ended):
                raise CalibrationError(
                    f"{what} changed the finished board in window {view.window} into something "
                    "that is not a new game (a dialog or another screen?); say how this game "
                    "starts a new one with --new-game"
                )
            tried.append(what)
        raise CalibrationError(
            f"cannot start a new game in window {view.window}: {', '.join(tried)} did not "
            "change the finished board into a new one (did the window move? else say how with "
            "--new-game)"
        )

    @property
    def wants_button_after_win(self) -> bool:
        """Whether a new game starts with a click on a point the user named, not yet clicked
        after a won game."""
        return self._at_point and self.point_named and not self.button_after_win

    @property
    def stuck_mid_game(self) -> bool:
        """Whether the board may show a game begun and not over (a game played to win, stopped)
        while a new game is a click on a point: a button there may show only once a game is
        over (gnome-mines' "Play Again"), and what else a game changes beside its board
        mid-game is no button to try (its "Pause")."""
        latest = self._latest
        return self._at_point and not self._fresh and latest is not None and not latest.finished

    @property
    def _at_point(self) -> bool:
        """Whether a new game starts with a click on a point beside the board."""
        method = self.new_game_method
        return method is not None and method.at is not None

    def _keep_button(self, button: Image) -> None:
        """Keep ``button``, the look of the new-game point before a click there started a new
        game, unless the same look is kept already."""
        if self._latest is not None and self._latest.state is GameState.WON:
            self.button_after_win = True
        if not any(np.array_equal(button, kept) for kept in self.new_game_buttons):
            self.new_game_buttons.append(button)

    def point_method(self, point: tuple[int, int]) -> NewGame:
        """The new-game method that clicks screen ``point`` (a "New game" button the user
        named), kept relative to the board; raises unless it is in the window, off the board."""
        view = self.view
        board, (x, y) = view.board_rect, point
        if not view.window.contains(x, y) or board.contains(x, y):
            raise CalibrationError(
                f"the new-game point ({x}, {y}) is not in window {view.window} beside the board "
                f"at {board}"
            )
        return NewGame("point", at=(x - board.left, y - board.top))

    def _button_picture(self, method: NewGame) -> Image | None:
        """What the screen shows around ``method``'s point (None: it clicks no point): a square
        of up to :data:`BUTTON_SIDE` pixels centred on it, inside the window, off the board."""
        if method.at is None:
            return None
        window, board = self.view.window, self.view.board_rect
        x, y = board.left + method.at[0], board.top + method.at[1]
        off_board = max(
            board.left - 1 - x if x < board.left else x - board.right,
            board.top - 1 - y if y < board.top else y - board.bottom,
        )
        in_window = min(
            x - window.left, window.right - 1 - x, y - window.top, window.bottom - 1 - y
        )
        half = min(BUTTON_SIDE // 2, off_board, in_window)
        if half < MIN_SIDE // 2:
            raise CalibrationError(
                f"the new-game point ({x}, {y}) is too near the edge of window {window} or the "
                f"board at {board} to see the button there"
            )
        return self.view.grabber.grab(Rect.around(x, y, 2 * half + 1, 2 * half + 1))

    def _ended_board(self) -> Image:
        """The finished board, held still: the lost board as last read when nothing changed
        since; else once it holds still for :data:`FLASH_QUIET` (not mid-way in a flash)."""
        closed = self._closed_dialogs()  # a score table, a "play again?" question
        rect = self.view.board_rect
        known, self._end_frame = self._end_frame, None
        if not closed and known is not None:
            now = self.view.grabber.grab(rect)
            if np.array_equal(now, known):
                return now
        ended = settled(self.view.grabber, rect, None, quiet=FLASH_QUIET)
        return self._without_dialogs(None, ended)

    def _new_game_methods(self) -> Iterator[NewGame]:
        """The ways to try, the one that worked before first; then the face, the keys, the
        labelled buttons beside the board before the keys a browser takes for its own
        (:data:`vision.skin.KEYS_AFTER_LABELS`), and last the other places the finished game
        changed. The buttons are looked for once, in the finished window as the failed ways
        left it."""
        tried: list[NewGame] = []

        def untried(methods: Iterable[NewGame]) -> Iterator[NewGame]:
            for method in methods:
                if method not in tried:
                    tried.append(method)
                    yield method

        first = [] if self.new_game_method is None else [self.new_game_method]
        if self.face is not None:
            first.append(NewGame("face"))
        yield from untried(first + [NewGame("key", key) for key in KEYS_BEFORE_LABELS])
        buttons = self._button_points()
        yield from untried(self._point_method(point) for point in buttons.labelled)
        yield from untried(NewGame("key", key) for key in KEYS_AFTER_LABELS)
        yield from untried(self._point_method(point) for point in buttons.changed)

    def _button_points(self) -> ButtonPoints:
        """The places beside the board that may be a new-game button, as the window shows now."""
        view = self.view
        board = view.board_in_window
        face = None if self.face is None else self.face.in_window
        ended_window = view.grabber.grab(view.window)
        try:
            words = read_words(ended_window, blanked(board, face))
        except NoTextReader as error:
            log.warning("%s: a button's label cannot be read, only a change seen", error)
            words = []
        return button_points(view.fresh, ended_window, board, face, words)

    def _point_method(self, point: tuple[int, int]) -> NewGame:
        """:meth:`point_method` for ``point`` in window coordinates."""
        window = self.view.window
        return self.point_method((window.left + point[0], window.top + point[1]))

    def _try_new_game(self, method: NewGame, ended: Image) -> Image:
        """Start a new game by ``method``; the board once it has changed or the time is up.
        A dialog it opened (a question, a score table) is closed, and the board read after."""
        view = self.view
        rect = view.board_rect
        if method.kind == "face" and self.face is not None:
            self._click_and_park(*self.face.point(), "left")
            frame = settled(view.grabber, rect, ended)
        elif method.at is not None:
            self._click_and_park(rect.left + method.at[0], rect.top + method.at[1], "left")
            frame = settled(view.grabber, rect, ended, KEY_TIMEOUT)
        else:
            assert method.key is not None
            # A key goes to the window under the pointer: press it there, but off the board.
            x, y = view.park_point() or rect.centre
            self.pointer.press(method.key, x, y)
            frame = settled(view.grabber, rect, ended, KEY_TIMEOUT)
        if self._closed_dialogs():  # a question ("reset the game?"), declined: not this way
            frame = settled(view.grabber, rect, None, quiet=FLASH_QUIET)
        moved = _cells_that_differ(view, ended, frame) >= MOVED_SHARE
        if moved and view.follow_move(view.fresh_board):
            log.debug("the new game moved the board in the window to %s", view.board_rect)
            frame = settled(view.grabber, view.board_rect, None, quiet=FLASH_QUIET)
        return frame

    def _is_new_game(self, frame: Image, ended: Image) -> bool:
        if np.array_equal(frame, ended):
            return False
        ids = self.view.board_ids(frame)
        return (
            bool((ids == HIDDEN_ID).any())
            and not np.isin(ids, self.evidence.end_appearances()).any()
        )


def _shows_everything(step: Step, safe: set[int], catalogue: Catalogue) -> bool:
    """Whether ``step``, a click that left no hidden cell and shows a picture never seen on a
    safe cell, is a loss on which the game showed every cell (xbomb): it redrew cells opened
    before, or the picture clicked shows on other cells the click uncovered too (every mine
    drawn alike), or those cells show two tiles never seen opened safely (the mines, and the
    other closed cells drawn anew: gnome-mines' classic theme darkens them). A win that flags
    the mines left does none of these: it draws one tile on them, in a picture per size class
    perhaps."""
    opened_before = np.isin(step.before, list(safe))
    if (opened_before & step.changed).any():
        return True
    uncovered = step.uncovered
    uncovered[step.cell] = False
    if (step.after[uncovered] == step.after[step.cell]).any():
        return True
    pictures = np.unique(step.after[uncovered & ~np.isin(step.after, list(safe))]).tolist()
    return any(not catalogue.alike(one, other) for one, other in combinations(pictures, 2))


def _changed_apart(before: Ids, after: Ids, cell: Cell, opened: set[int]) -> bool:
    """Whether a click on ``cell`` changed a cell not joined to it through changed cells: an
    opening in play is one patch around the click (each cell opened beside an opened 0), so
    such a cell is the game showing what only its end shows (the mines). Cells showing an
    ``opened`` appearance before do not count: no mine is there, and a toolkit moves its focus
    ring off the button clicked before (DangerUXB)."""
    changed = ((before != after) & ~np.isin(before, list(opened))).astype(np.uint8)
    _, patches = cv2.connectedComponents(changed, connectivity=8)
    return bool((patches[changed.astype(bool)] != patches[cell]).any())


def _cells_that_differ(view: BoardView, before: Image, after: Image) -> float:
    """The share of cells whose pictures differ between two board captures: all of them under
    a dialog drawn over the board, most when the board moved (a few plain ones look alike)."""
    return float((view.cell_differences(before, after) > 0).mean())


def _hidden_cells(ids: Ids) -> list[Cell]:
    return [(int(r), int(c)) for r, c in np.argwhere(ids == HIDDEN_ID)]


def _click_the_hidden_tile(
    pointer: Pointer, grabber: Grabber, window: Rect
) -> tuple[tuple[int, int], Image, Image]:
    """Click the most common tiles of the fresh board until one changes: that is the hidden
    tile (xdemineur's starting area may show more opened cells than hidden ones). The most
    common by equal pixels are tried first, then by likeness.

    Returns the clicked point (window coordinates) and the window before and after.
    """
    # The pointer rests on the window's edge, off any board: a tile under it may be lit up.
    rest = (window.left + 1, window.top + window.height // 2)
    pointer.move(*rest)
    fresh = settled(grabber, window, None)  # a window just moved may still be redrawing
    lattice = find_lattice(fresh)
    middle = np.array(lattice.hashes[0].shape) / 2

    def nearest_middle(cells: npt.NDArray[np.intp]) -> tuple[int, int]:
        row, column = cells[np.argmin(((cells - middle) ** 2).sum(axis=1))]
        return int(row), int(column)

    def groups() -> Iterator[npt.NDArray[np.intp]]:
        for key in lattice.ranked[:HIDDEN_CANDIDATES]:
            yield np.argwhere(lattice.hashes[0] == key)
        # Then (found only if those fail) blocks alike within the grouping tolerance: a game
        # that draws its tiles over a picture showing through them has no two equal.
        yield from lattice.alike()[:HIDDEN_CANDIDATES]

    tried: list[tuple[int, int]] = []
    for cells in groups():
        row, column = nearest_middle(cells)
        if (row, column) in tried:
            continue
        tried.append((row, column))
        left = lattice.phase[0] + int(column) * lattice.pitch[0]
        top = lattice.phase[1] + int(row) * lattice.pitch[1]
        block = Rect(window.left + left, window.top + top, *lattice.pitch)
        unclicked = grabber.grab(block)
        inside_x, inside_y = _plainest_point(unclicked)
        x, y = left + inside_x, top + inside_y
        pointer.click(window.left + x, window.top + y, "left")
        pointer.move(*rest)
        if not np.array_equal(settled(grabber, block, unclicked, KEY_TIMEOUT), unclicked):
            return (x, y), fresh, settled(grabber, window, fresh)
        log.debug("tile at %s did not change when clicked: not the hidden tile", (x, y))
        fresh = grabber.grab(window)  # a click on a number may have opened cells
    dialog = dialog_seen(fresh, (window.left, window.top))
    raise CalibrationError(
        f"none of the {len(tried)} most common tiles in window {window} changed when "
        "clicked: is it a fresh Minesweeper game?" + ("" if dialog is None else f" ({dialog})")
    )


def _plainest_point(block: Image) -> tuple[int, int]:
    """The point of ``block`` farthest from its edges and from any change of colour in it
    (nearest its middle among equals): a click there lands on a tile, not on the line between
    two. A fresh board of plain buttons repeats as well when cut through their middles (tk's
    buttons in DangerUXB), and the middle of such a block is a line that takes no click."""
    height, width = block.shape[:2]
    spread = cv2.morphologyEx(
        np.ascontiguousarray(block), cv2.MORPH_GRADIENT, np.ones((3, 3), np.uint8)
    )
    steady = (spread.max(axis=2) <= EDGE_LEVELS).astype(np.uint8)
    steady[[0, -1]] = steady[:, [0, -1]] = 0
    room = cv2.distanceTransform(steady, cv2.DIST_L2, 3)
    ys, xs = np.mgrid[0:height, 0:width]
    off_middle = np.hypot(xs - width // 2, ys - height // 2)
    y, x = np.unravel_index(np.argmax(room - off_middle / (height + width)), room.shape)
    return int(x), int(y)


_LOST_FIRST = (
    ": if it lost the game (a game with no safe first click may, and show every cell), start "
    "a new game there and calibrate again"
)


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
