"""Starting a new game while calibrating: finding the way the game takes (a click on the face,
a key, a labelled button beside the board, a place a finished game changed), and using it.

A way counts only when the board then shows a fresh game; a way that turns the finished board
into anything else stops calibration rather than trying more on a game in an unknown state.
Play uses the way found (the skin's new-game action; see :mod:`controller.new_game`).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable, Iterator, Sequence

import numpy as np

from calibration import waits
from calibration.buttons import ButtonPoints, blanked, button_points
from calibration.catalogue import HIDDEN_ID, Ids
from calibration.errors import CalibrationError
from calibration.game_window import MOVED_SHARE, GameWindow, cells_that_differ
from calibration.grid import FRAME_SHARE
from calibration.label_boxes import boxed_words
from calibration.labels import NoTextReader, menu_labels, new_game_labels, read_words
from calibration.record import PlayedGame
from calibration.view import settled
from solver import GameState
from vision.geometry import Rect
from vision.new_game import KEYS_AFTER_LABELS, KEYS_BEFORE_LABELS, NewGame
from vision.skin import MIN_SIDE, Image

BUTTON_POLL = 0.1
"""Seconds between two looks at the place of a new-game button awaited."""
BUTTON_SIDE = 17
"""Pixels a side of the picture kept of a new-game button, centred on its point."""
log = logging.getLogger(__name__)


class NewGameWays:
    """The way one window starts a new game, once found, and the looks of its button."""

    def __init__(self, window: GameWindow) -> None:
        self.window = window
        self.method: NewGame | None = None
        """The way that started a new game last."""
        self.buttons: list[Image] = []
        """The screen around the new-game point before each click there that started a new
        game, each look once (see :attr:`vision.skin.Skin.buttons`)."""
        self.point_named = False
        """Whether the user named the new-game point: a button that may be anything, a face
        showing how the game ended among them (a button found by its label, or by a finished
        game bringing it up, says "new game"; a face calibration finds has faces of its own)."""
        self.button_after_win = False
        """Whether a click on the new-game point started a new game after a won one (the
        button may show how the game ended, as a face does)."""

    def start(self, latest: PlayedGame | None) -> NewGame:
        """Start a new game the way that worked before; else try the face, F2 and N, a button
        beside the board labelled so, Ctrl+R and Ctrl+N (:data:`vision.new_game.NEW_GAME_KEYS`),
        then a place the finished game changed (:func:`calibration.buttons.button_points`).
        A way counts only when a fresh board appears; one that changes the board into anything
        else stops calibration rather than trying more on a game in an unknown state. A board
        no click has touched since the last new game is one already: no way would change it.
        On a game perhaps not over (:meth:`stuck_mid_game`) only the way that worked is tried."""
        if self.window.fresh and self.method is not None:
            return self.method
        view = self.window.view
        methods = self._new_game_methods()
        if self.stuck_mid_game(latest) and self.method is not None:
            methods = iter([self.method])
        ended = self._ended_board()
        tried = []
        for method in methods:
            what = {
                "face": "a click on the face",
                "point": f"a click at {method.at} from the board's corner",
            }.get(method.kind, f"the {method.key} key")
            if self.window.gone_frame is not None and method.at is not None:
                self._await_button(method)
            button = self._button_picture(method)
            gone = self.window.gone_frame is not None  # the point may be over the board's place
            frame = self._try_new_game(method, ended)
            if self._is_new_game(frame, ended):
                log.debug("%s started a new game", what)
                self.window.board_seen = frame
                self.window.fresh = True
                self.window.gone_frame = None
                self.method = method
                if button is not None:
                    self._keep_button(button, latest)
                    in_play = None if gone else self._button_picture(method)
                    if in_play is not None and not _plain(in_play):  # a button stays there
                        self._keep_button(in_play, None)
                view.check_no_hidden_cells_outside()
                return method
            if self.window.gone_frame is not None:
                ended = self._no_board_after(what, frame)
            elif changed_inside_edge(ended, frame, view.grid.pitch):
                log.debug("%s changed the finished board into no new game", what)
                raise CalibrationError(
                    f"{what} changed the finished board in window {view.window} into something "
                    "that is not a new game (a dialog or another screen?); say how this game "
                    "starts a new one with --new-game"
                )
            log.debug("%s left the finished board as it was", what)
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

    def stuck_mid_game(self, latest: PlayedGame | None) -> bool:
        """Whether the board may show a game begun and not over (a game played to win, stopped)
        while a new game is a click on a point: a button there may show only once a game is
        over (a "Play Again" button), and what else a game changes beside its board
        mid-game is no button to try (its "Pause")."""
        return (
            self._at_point and not self.window.fresh and latest is not None and not latest.finished
        )

    @property
    def _at_point(self) -> bool:
        """Whether a new game starts with a click on a point beside the board."""
        method = self.method
        return method is not None and method.at is not None

    def _keep_button(self, button: Image, latest: PlayedGame | None) -> None:
        """Keep ``button``, the look of the new-game point before a click there started a new
        game (after ``latest``), or after it (None: no game before it), unless the same look is
        kept already: play may click the button on a game in progress, which shows the look a
        new game leaves there (a face showing the game goes on)."""
        if latest is not None and latest.state is GameState.WON:
            self.button_after_win = True
        if not any(np.array_equal(button, kept) for kept in self.buttons):
            self.buttons.append(button)

    def point_method(self, point: tuple[int, int]) -> NewGame:
        """The new-game method that clicks screen ``point`` (a "New game" button the user
        named), kept relative to the board; raises unless it is in the window. A point over the
        board is clicked only once the game's end has taken the board away (a menu's button
        where the board was), else refused when first used (:meth:`_button_picture`)."""
        view = self.window.view
        board, (x, y) = view.board_rect, point
        if not view.window.contains(x, y):
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
        window, board = self.window.view.window, self.window.view.board_rect
        x, y = board.left + method.at[0], board.top + method.at[1]
        off_board = max(
            board.left - 1 - x if x < board.left else x - board.right,
            board.top - 1 - y if y < board.top else y - board.bottom,
            BUTTON_SIDE if self.window.gone_frame is not None else -BUTTON_SIDE,
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
        return self.window.view.grabber.grab(Rect.around(x, y, 2 * half + 1, 2 * half + 1))

    def _ended_board(self) -> Image:
        """The finished board, held still: the lost board as last read when nothing changed
        since; else once it holds still for :data:`waits.FLASH_QUIET` (not mid-way in a flash).
        Where the game's end took its board away, and its way to a new game is still to be
        found or its button's look is not known yet (a point the user named), once the end's
        message there has given way (up to :data:`waits.MENU_WAIT`): a click then is lost."""
        gone = self.window.gone_frame
        if gone is not None:
            before = gone if self.method is None or not self.buttons else None
            rect = self.window.view.board_rect
            return settled(
                self.window.view.grabber, rect, before, waits.MENU_WAIT, waits.FLASH_QUIET
            )
        closed = self.window.closed_dialogs()  # a score table, a "play again?" question
        rect = self.window.view.board_rect
        known, self.window.end_frame = self.window.end_frame, None
        if not closed and known is not None:
            now = self.window.view.grabber.grab(rect)
            if np.array_equal(now, known):
                return now
        ended = settled(self.window.view.grabber, rect, None, quiet=waits.FLASH_QUIET)
        return self.window.without_dialogs(None, ended)

    def _new_game_methods(self) -> Iterator[NewGame]:
        """The ways to try, the one that worked before first; then the face, the keys, the
        labelled buttons beside the board before the keys a browser takes for its own
        (:data:`vision.new_game.KEYS_AFTER_LABELS`), and last the other places the finished game
        changed. The buttons are looked for once, in the finished window as the failed ways
        left it."""
        tried: list[NewGame] = []

        def untried(methods: Iterable[NewGame]) -> Iterator[NewGame]:
            for method in methods:
                if method not in tried:
                    tried.append(method)
                    yield method

        first = [] if self.method is None else [self.method]
        if self.window.gone_frame is not None:  # a window with no board: its buttons first
            yield from untried(first)
            yield from untried(self._point_method(point) for point in self._menu_points())
            yield from untried(
                NewGame("key", key) for key in KEYS_BEFORE_LABELS + KEYS_AFTER_LABELS
            )
            return
        if self.window.face is not None:
            first.append(NewGame("face"))
        yield from untried(first + [NewGame("key", key) for key in KEYS_BEFORE_LABELS])
        buttons = self._button_points()
        yield from untried(self._point_method(point) for point in buttons.labelled)
        yield from untried(NewGame("key", key) for key in KEYS_AFTER_LABELS)
        yield from untried(self._point_method(point) for point in buttons.changed)

    def _button_points(self) -> ButtonPoints:
        """The places beside the board that may be a new-game button, as the window shows now."""
        view = self.window.view
        board = view.board_in_window
        face = None if self.window.face is None else self.window.face.in_window
        ended_window = view.grabber.grab(view.window)
        blank = blanked(board, face)
        try:
            words = read_words(ended_window, blank)
            if not new_game_labels(words):  # small or coloured letters: read place by place
                words += boxed_words(ended_window, blank, words)
        except NoTextReader as error:
            log.warning("%s: a button's label cannot be read, only a change seen", error)
            words = []
        points = button_points(view.fresh, ended_window, board, face, words)
        log.debug(
            "the finished window read: words %s; new-game buttons to try at %s (labelled), %s "
            "(changed by the game's end), in the window",
            [word.text for word in words],
            points.labelled,
            points.changed,
        )
        return points

    def _menu_points(self) -> list[tuple[int, int]]:
        """The middles of the labels read on a window whose game took its board away
        (:func:`calibration.labels.menu_labels`), in the window, top to bottom."""
        view = self.window.view
        try:
            words = read_words(view.grabber.grab(view.window), [])
        except NoTextReader as error:
            log.warning("%s: the buttons of a window with no board cannot be read", error)
            return []
        labels = menu_labels(words)
        log.debug(
            "the window with no board read: words %s; buttons to try at %s",
            [word.text for word in words],
            [label.centre for label in labels],
        )
        return [label.centre for label in labels]

    def _await_button(self, method: NewGame) -> None:
        """Wait, up to :data:`waits.MENU_WAIT`, until ``method``'s point shows a look of the
        new-game button kept (:attr:`buttons`): a game whose end took its board away shows
        its message first, and may take a click then for one on what shows next."""
        deadline = time.monotonic() + waits.MENU_WAIT
        if not self.buttons:
            return
        while time.monotonic() < deadline:
            look = self._button_picture(method)
            if look is not None and any(np.array_equal(look, kept) for kept in self.buttons):
                return
            time.sleep(BUTTON_POLL)
        log.debug("the new-game button at %s did not show in %.0f s", method.at, waits.MENU_WAIT)

    def _no_board_after(self, what: str, frame: Image) -> Image:
        """``frame``, the board's place after ``what`` on a window with no board, if it shows
        no board still; raises if it shows a board of another size (a hidden tile on some
        cells only)."""
        ids = self.window.view.board_ids(frame)
        if (ids == HIDDEN_ID).any():
            raise CalibrationError(
                f"{what} brought back a board unlike the one calibrated in window "
                f"{self.window.view.window}: start the game at the size calibrated, or say how "
                "it starts a new one with --new-game"
            )
        log.debug("%s brought no board back", what)
        return frame

    def _point_method(self, point: tuple[int, int]) -> NewGame:
        """:meth:`point_method` for ``point`` in window coordinates."""
        window = self.window.view.window
        return self.point_method((window.left + point[0], window.top + point[1]))

    def _try_new_game(self, method: NewGame, ended: Image) -> Image:
        """Start a new game by ``method``; the board once it has changed or the time is up.
        A dialog it opened (a question, a score table) is closed, and the board read after."""
        view = self.window.view
        rect = view.board_rect
        if method.kind == "face" and self.window.face is not None:
            log.debug("left-click at %s on the face, for a new game", self.window.face.point())
            self.window.click_and_park(*self.window.face.point(), "left")
            frame = settled(view.grabber, rect, ended)
        elif method.at is not None:
            point = (rect.left + method.at[0], rect.top + method.at[1])
            log.debug("left-click at %s beside the board, for a new game", point)
            self.window.click_and_park(*point, "left")
            frame = settled(view.grabber, rect, ended, waits.KEY_TIMEOUT)
        else:
            assert method.key is not None
            # A key goes to the window under the pointer: press it there, but off the board.
            x, y = view.park_point() or rect.centre
            log.debug("the %s key pressed at %s, for a new game", method.key, (x, y))
            self.window.pointer.press(method.key, x, y)
            frame = settled(view.grabber, rect, ended, waits.KEY_TIMEOUT)
        if self.window.closed_dialogs():  # a question ("reset the game?"), declined: not this way
            frame = settled(view.grabber, rect, None, quiet=waits.FLASH_QUIET)
        if _plain(frame):  # the game's window taken down, its next one not drawn yet
            log.debug("the board went blank: waiting for the game's window to be drawn again")
            frame = settled(view.grabber, rect, frame, waits.REDRAW_TIMEOUT)
        if self.window.gone_frame is not None:
            frame = self._board_back(frame)
        moved = cells_that_differ(view, ended, frame) >= MOVED_SHARE
        if moved and view.follow_move(view.fresh_board):
            log.debug("the new game moved the board in the window to %s", view.board_rect)
            frame = settled(view.grabber, view.board_rect, None, quiet=waits.FLASH_QUIET)
        return frame

    def _board_back(self, frame: Image) -> Image:
        """The board's place after a try on a window with no board (``frame``, as it first
        held still): once it shows a whole fresh board, or has held still for
        :data:`waits.FLASH_QUIET` showing no hidden cell, up to :data:`waits.REDRAW_TIMEOUT`.
        A window drawing a board anew may hold still half drawn, or with a message over part of
        the board ("get ready") for a while."""
        view = self.window.view
        deadline = time.monotonic() + waits.REDRAW_TIMEOUT
        while time.monotonic() < deadline:
            hidden = view.board_ids(frame) == HIDDEN_ID
            if hidden.all():
                return frame
            left = deadline - time.monotonic()
            later = settled(view.grabber, view.board_rect, frame, left, waits.FLASH_QUIET)
            if np.array_equal(later, frame) and not hidden.any():
                return frame
            frame = later
        return frame

    def _is_new_game(self, frame: Image, ended: Image) -> bool:
        if np.array_equal(frame, ended):
            return False
        view = self.window.view
        ids = view.board_ids(frame)
        if self.window.gone_frame is not None:  # a board of the size calibrated, whole
            return bool((ids == HIDDEN_ID).all())
        return shows_new_game(ids, view.board_ids(ended), self.window.evidence.end_appearances())


def shows_new_game(now: Ids, ended: Ids, end_appearances: Sequence[int]) -> bool:
    """Whether a board whose cells show the appearances ``now`` is a new game where they showed
    ``ended`` (a finished game): some cell the finished game showed is hidden again (a won game
    may leave its mines hidden, and a key typed into a box drawn over it changes it too; a
    game may open a start of its own, larger than the finished game's), and none of the
    ``end_appearances`` only a finished game shows."""
    hidden_again = bool(((now == HIDDEN_ID) & (ended != HIDDEN_ID)).any())
    return hidden_again and not np.isin(now, end_appearances).any()


def changed_inside_edge(before: Image, after: Image, pitch: tuple[int, int]) -> bool:
    """Whether two captures of a board differ inside its rim as deep as a button's frame (see
    :data:`calibration.grid.FRAME_SHARE`): a button beside the board, pressed, may draw its
    shadow over the board's edge (a toolkit's smiley button) and change no cell."""
    depth = max(1, min(pitch) // FRAME_SHARE)
    differs = (before != after).any(axis=2)
    return bool(differs[depth:-depth, depth:-depth].any())


def _plain(frame: Image) -> bool:
    """Whether ``frame`` shows one colour only: no board, nor anything else, drawn there."""
    return bool((frame == frame[:1, :1]).all())
