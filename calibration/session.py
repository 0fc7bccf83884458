"""Playing a live game to collect evidence: clicks through a Pointer, captures through a Grabber.

Each game opens random hidden cells until it is lost, with a few right-clicks on the way (flags
that may turn out wrong, a question mark). Whether a click lost is told by the game itself
(:mod:`calibration.game_end`). A board is found by clicking its hidden tile
(:mod:`calibration.hidden_tile`), clicked through its window (:mod:`calibration.game_window`),
and new games are started the way the game takes (:mod:`calibration.new_game_ways`).
"""

from __future__ import annotations

import logging
import math
import random
import time
from collections.abc import Callable

import numpy as np

from calibration import waits
from calibration.catalogue import HIDDEN_ID, Catalogue
from calibration.errors import (
    CalibrationError,
    FirstClickLostError,
    GridNotFoundError,
    OutOfTimeError,
    UnknownAppearanceError,
)
from calibration.game_end import EndJudge
from calibration.game_window import GameWindow, animation_end, hidden_cells
from calibration.grid import Grid, find_lattice
from calibration.hidden_tile import LOST_FIRST, click_the_hidden_tile, only_changes_around
from calibration.meanings import NO_MARK_CELLS, Meanings, beside_zeros, board_of
from calibration.new_game_ways import NewGameWays
from calibration.pointer import Pointer
from calibration.record import ClickKind, Evidence, PlayedGame, Step
from calibration.view import BoardView, moved_by_click
from solver import Board, Cell, GameState, Tile
from solver.strategy import next_moves
from vision.geometry import Rect
from vision.new_game import NewGame
from vision.skin import Image
from vision.stable import Grabber

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
        self.window = GameWindow(pointer, view, evidence)
        """Where the clicks go, the face once found, and what the board last showed."""
        self.judge = EndJudge(self.window, self.random)
        """Tells how each click left the game."""
        self.new_games = NewGameWays(self.window)
        """The way this window starts a new game, once found."""
        self._question_tested = False
        self._marks = 0
        """Cells marked so far (see :meth:`_cell_to_mark`)."""
        self._unmarked: set[Cell] = set()
        """Cells a right-click left unmarked."""
        self._marked = False
        """Whether a right-click ever drew a mark."""
        self._game: PlayedGame | None = None
        self.games: list[PlayedGame] = []
        """Every game begun on this window's board."""
        self._latest: PlayedGame | None = None
        """The game begun last, played on or not (a game set aside is gone from the evidence)."""
        self.mines: int | None = None
        """The board's mine count, where the user gave it: each game begun records it."""

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
        point, fresh, after = click_the_hidden_tile(pointer, grabber, window)
        grid = _board_grid(grabber, window, point, fresh, after)
        if evidence is None:
            evidence = Evidence(Catalogue(grid.hidden))
            evidence.catalogue.learn_spread(grid.pictures(fresh))
            evidence.catalogue.trim_shared_lines(grid.pictures(after))
        elif evidence.catalogue.add(grid.hidden) != HIDDEN_ID:
            raise CalibrationError(
                f"the hidden tile in window {window} differs from the one calibrated before"
            )
        view = BoardView(grabber, evidence.catalogue, grid, window, fresh)
        if view.follow_relayout():
            log.debug("the first click moved the board's cells: followed by place from now on")
            after_board = view.grabber.grab(view.board_rect)
        else:
            after_board = view.board_part(after)
        player = cls(pointer, view, evidence, seed)
        # The board alone is watched for an animation of the first opening: a window's timer,
        # started by that click, ticks beside it.
        animated = animation_end(view.grabber, view.board_rect, after_board)
        if animated is not None:
            player.window.quiet = waits.ANIMATION_WATCH
        board = (view.board_part(fresh), after_board if animated is None else animated)
        first = Step(
            ClickKind.OPEN,
            grid.cell_at(*point),
            view.board_ids(board[0]),
            view.board_ids(board[1]),
            view.unpainted(*board),
        )
        if not (first.after == HIDDEN_ID).any():
            raise FirstClickLostError(
                f"the first click, at {(window.left + point[0], window.top + point[1])}, "
                f"changed every hidden cell in window {window}{LOST_FIRST}"
            )
        player._game = player._new_game([first])
        player.judge.finish_if_over(player._game)
        return player

    def read_with(self, catalogue: Catalogue) -> None:
        """Read the games recorded so far, and the ones to come, with ``catalogue`` (one that
        compares another part of the cells); a game left in progress is not played on."""
        self.evidence.rebase(catalogue)
        self.view.catalogue, self._game = catalogue, None

    @property
    def face_pictures(self) -> dict[GameState, Image]:
        """The face's picture in each game state seen so far (none before the face is found)."""
        face = self.window.face
        return {} if face is None else face.pictures

    def _new_game(self, steps: list[Step] | None = None) -> PlayedGame:
        game = PlayedGame(steps or [], mines=self.mines)
        self.evidence.games.append(game)
        self.games.append(game)
        self._latest = game
        return game

    def on_the_whole_board(self) -> CalibrationPlayer:
        """The player of this window once a new game has shown hidden tiles outside the board
        found at first (:class:`calibration.errors.PartialBoardError`): the board is found
        anew on the fresh game showing, as :meth:`start` finds it, and the games played on the
        part are forgotten (they counted mines they could not see), and so is the catalogue of
        pictures, unless other windows' games hold to it. What is known of the window stays:
        its face, its new-game way and that way's looks."""
        self.evidence.forget(self.games)
        view, seed = self.view, self.random.getrandbits(32)
        # With no other window's games left, nothing holds the catalogue to the part's cut: the
        # part found may have been cut off its cells (a start's opened frames reaching into them).
        others = self.evidence.games or self.evidence.set_aside
        evidence = self.evidence if others else None
        player = self.start(self.pointer, view.grabber, view.window, evidence, seed)
        player.window.face, player.window.named_point = self.window.face, self.window.named_point
        player.new_games.method = self.new_games.method
        player.new_games.buttons = self.new_games.buttons
        player.new_games.point_named = self.new_games.point_named
        player.new_games.button_after_win = self.new_games.button_after_win
        player.judge.wins_without_face = self.judge.wins_without_face
        return player

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
            hidden = hidden_cells(self.view.board_ids(frame))
            if not hidden:
                self.judge.won(game)
                continue
            cell = self.random.choice(hidden)
            log.debug("the board read: %d hidden cells; %s chosen at random", len(hidden), cell)
            opened = any(step.click is ClickKind.OPEN for step in game.steps)
            # Some games take no mark before a game's first click has begun it.
            marks = opened and flags_left and not self.takes_no_marks
            if marks and (not self._question_tested or self.random.random() < 0.3):
                flags_left -= 1
                self._mark_at_random(game, self._cell_to_mark(cell, hidden), frame)
                continue
            game.steps.append(self.window.click(ClickKind.OPEN, cell, frame))
            self.judge.finish_if_over(game)
        raise self._endless()

    def _cell_to_mark(self, cell: Cell, hidden: list[Cell]) -> Cell:
        """The hidden cell to mark instead of ``cell`` (chosen at random from ``hidden``): on a
        board whose cells differ in size, one of each size class in turn, since a game may draw
        its flag apart in each (a toolkit button may pad its picture on one side), and play marks
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

    @property
    def takes_no_marks(self) -> bool:
        """Whether right-clicks on :data:`NO_MARK_CELLS` cells took no mark and none took one:
        no more are made (in a browser each opens a menu)."""
        return not self._marked and len(self._unmarked) >= NO_MARK_CELLS

    def _mark_at_random(self, game: PlayedGame, cell: Cell, frame: Image) -> None:
        """Right-click ``cell`` (chosen from the settled board ``frame``), and right-click it
        once more the first time, to see a question mark."""
        flag = self.window.mark(cell, frame, menus=not self._marked)
        if not flag.changed.any():
            log.debug("right-click on %s took no mark", cell)
            self._unmarked.add(cell)
            game.steps.append(flag)
            return
        self._marked = True
        if int(flag.changed.sum()) > 1:
            # Other cells changed too: the game was still drawing an earlier click, so this step
            # says nothing sure about the right-click.
            log.debug("right-click on %s came with other changes: not recorded", cell)
            return
        game.steps.append(flag)
        if not self._question_tested:
            # A second click at the same spot within the double-click time is a double-click,
            # which the game may not take as a right-click.
            time.sleep(waits.DOUBLE_CLICK_GAP)
            game.steps.append(self.window.mark(cell, menus=False))
            self._question_tested = True

    def play_to_win(self, meanings: Meanings, mines: int, deadline: float = math.inf) -> PlayedGame:
        """Play one game with the solver, reading the board with ``meanings``, to see the face a
        won game shows. Once every safe cell is open the mines left hidden are flagged
        (a game may declare the win only when the last mine is flagged).

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
                frame, waited = self.judge.after_message(game, frame), True
                board = self._board_in_play(frame, meanings, mines, opened)
            if board.is_won and meanings.takes_marks is not False:
                log.debug("the board read as won: flagging the mines left hidden")
                for cell in map(tuple, np.argwhere(board.tiles == Tile.HIDDEN)):
                    mark = self.window.mark((int(cell[0]), int(cell[1])), menus=not self._marked)
                    game.steps.append(mark)
                self.judge.won(game, watch=not waited)
                return game
            move = next_moves(board)[0]
            log.debug("the board read for the solver: it opens %s", move.cell)
            clicked = len(game.steps)
            opening = self.window.click(ClickKind.OPEN, move.cell, frame)
            game.steps.append(opening)
            self.judge.finish_if_over(game)  # may add a probe click
            if game.finished:
                return game
            if opening.painted_past(self.evidence.catalogue.box):
                # The click painted over a part of other cells that is compared: they may read
                # as opened ones. Calibration goes on comparing less (see _Learner._learn).
                return game
            if (
                self.window.face is not None and self.window.face.state() is GameState.PLAYING
            ):  # not won
                for step in game.steps[clicked:]:
                    opened.update(step.after[step.uncovered].tolist())
        raise self._endless()

    def _board_in_play(
        self, frame: Image, meanings: Meanings, mines: int, opened: set[int]
    ) -> Board:
        """The board ``frame`` shows, its appearances not learned yet read as numbers of
        unknown value where a cell showing one was opened without losing (``opened``, under a
        playing face; or a game with no face went on after it: a safe appearance) or lies
        beside a 0."""
        ids = self.view.board_ids(frame)
        safe = opened | self.evidence.safe_appearances | beside_zeros(ids, meanings)
        playing = meanings.copy()
        playing.opened_after_all(safe)  # a finished game's look never shows in play
        return board_of(ids, playing, mines, safe)

    # -- new games --------------------------------------------------------------------------

    def start_new_game(self) -> NewGame:
        """Start a new game (see :meth:`calibration.new_game_ways.NewGameWays.start`)."""
        return self.new_games.start(self._latest)

    @property
    def wants_button_after_win(self) -> bool:
        """Whether a new game starts with a click on a point the user named, not yet clicked
        after a won game."""
        return self.new_games.wants_button_after_win

    @property
    def stuck_mid_game(self) -> bool:
        """Whether the board may show a game begun and not over while a new game is a click on
        a point (see :meth:`calibration.new_game_ways.NewGameWays.stuck_mid_game`)."""
        return self.new_games.stuck_mid_game(self._latest)


def _board_grid(
    grabber: Grabber, window: Rect, point: tuple[int, int], fresh: Image, after: Image
) -> Grid:
    """The board's grid in ``window``, from its captures before and after the click on its
    hidden tile at ``point`` (window coordinates); raises unless the window shows all of it.

    The hidden tile is the block under the click in the fresh frame; with the opened cells of
    the second frame the cut is certain (see :mod:`calibration.grid`), unless the click moved
    the cells: the cut the fresh frame shows alone is then taken."""
    try:
        lattice = find_lattice(fresh, only_changes_around(fresh, after, point))
    except GridNotFoundError as error:
        raise GridNotFoundError(f"{error}, after the first click{LOST_FIRST}") from error
    grid = lattice.grid(lattice.hash_at(0, *point))
    alone = find_lattice(fresh)
    whole = alone.grid(alone.hash_at(0, *point))
    if whole.rows * whole.columns > grid.rows * grid.columns or (
        (whole.origin, whole.rows, whole.columns) != (grid.origin, grid.rows, grid.columns)
        and moved_by_click(grabber, window, whole, fresh)
    ):
        # The cut the click's changes chose shows fewer cells than the fresh board does alone,
        # or another cut, and the click moved the fresh board's cells (a board that re-lays
        # itself out): its changes cannot say where the cells are. Such a board may have grown
        # past the window's edge, and a cut a few pixels off would seem cut by it.
        grid = whole
    log.debug(
        "the board found: %dx%d cells of %dx%d px at %s in window %s",
        grid.rows,
        grid.columns,
        *grid.pitch,
        grid.origin,
        window,
    )
    cut = grid.cut_sides(fresh)
    if cut:
        raise CalibrationError(
            f"the board in window {window} runs past its {' and '.join(cut)} edge (part of "
            "a cell shows there): enlarge the window, or the region, to show the whole board"
        )
    return grid


FIRST_CLICK_TRIES = 3
"""Games started on the user's new-game point to find the board on, when first clicks lose."""


def started_anew_on_loss(
    start: Callable[[], CalibrationPlayer], pointer: Pointer, new_game_at: tuple[int, int] | None
) -> CalibrationPlayer:
    """``start()``, the player of a window found by its first click; where that click changed
    every hidden cell (it may have lost: a game that opened cells by itself protects no click
    after) and the user named the new-game point, that point is clicked and the board found
    again on the new game, up to :data:`FIRST_CLICK_TRIES` games."""
    for tried in range(1, FIRST_CLICK_TRIES + 1):
        try:
            return start()
        except FirstClickLostError as error:
            if new_game_at is None or tried == FIRST_CLICK_TRIES:
                raise
            log.warning("%s; a new game started at the point named, to look again", error)
            pointer.click(*new_game_at, "left")
    raise AssertionError("unreachable")
