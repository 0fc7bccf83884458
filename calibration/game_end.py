"""Telling how a game ended while calibrating, before the skin knows any tile.

The face tells once a loss has shown where it is (:class:`calibration.view.FaceButton`). Before
that, a click that changed cells into an appearance never seen on a safe cell lost if it changed
cells apart from its own patch (the mines drawn), or if the game then ignores a *probe* click on
another hidden cell; a probe that opens something is one more step of a game still going. A
lost or won board is read once it has held still, after any message drawn over it has gone.
"""

from __future__ import annotations

import logging
import random
from dataclasses import replace
from itertools import combinations

import numpy as np

from calibration import waits
from calibration.catalogue import Catalogue, Ids
from calibration.errors import CalibrationError
from calibration.faces import find_face
from calibration.game_window import GameWindow, hidden_cells
from calibration.inference import redrawn_numbers
from calibration.record import ClickKind, PlayedGame, Step, appearance_name, changed_apart
from calibration.vanished import board_vanished, gone_outcome
from calibration.view import PROBE_TIMEOUT, SETTLE_TIMEOUT, FaceButton, settled
from solver import Cell, GameState
from vision.skin import Image

MESSAGE_CHECKS = 2
"""Losses watched for a message before a game that never showed one is taken to draw none."""
log = logging.getLogger(__name__)


class EndJudge:
    """Judges each click of a game in one window: playing on, lost or won; records the end."""

    def __init__(self, window: GameWindow, rng: random.Random) -> None:
        self.window = window
        self.random = rng
        """Chooses the cell a probe clicks."""
        self.wins_without_face = 0
        """Won games whose face showed no picture of its own (see :meth:`won`)."""

    def outcome(self, game: PlayedGame) -> GameState:
        """The game's state after its last step, probing with more clicks when unsure.

        The face tells once it is known; before that a click that changed cells into an
        appearance never seen on a safe cell lost if it changed cells apart from its own patch
        (:func:`changed_apart`), else it is followed by a probe click elsewhere: the game goes
        on if the cell probed changes. A click that left no hidden cell to probe lost if
        the game showed every cell (:func:`_shows_everything`). A known face showing neither
        its playing nor its lost picture is probed too: a game that then takes no click has
        been won, its mines left hidden; one that takes it shows its playing face, where only
        the launch frame's was known (:meth:`_playing_face_in_play`). A click that took the
        board away ended the game (:meth:`board_gone`), which stays PLAYING: no board shows
        its end, and :attr:`calibration.record.PlayedGame.gone` says how it ended.
        """
        while True:
            if self.board_gone(game):
                return GameState.PLAYING
            step = game.steps[-1]
            if not step.changed[step.cell]:
                raise CalibrationError(
                    f"a click on hidden cell {step.cell} at screen "
                    f"{self.window.view.cell_point(step.cell)} changed nothing: is the game "
                    "over, or the window covered?"
                )
            button = self.window.face
            face = None if button is None else button.state()
            hit = self._hit(step)
            if hit is not None:  # the mine hit is the cell clicked, or one it opened
                step = game.steps[-1] = replace(step, cell=hit)
            shown = int(step.after[step.cell])
            if face is GameState.PLAYING and hit is not None:
                face = self._face_after_a_hit(step)
            if button is not None and face is not None:
                if face is GameState.PLAYING:
                    self.window.evidence.opened_safely(step)
                    button.playing_seen = True
                log.debug("the face read: %s", face.value)
                return face
            if hit is not None:
                log.debug("cell %s shows %s: a loss", step.cell, appearance_name(shown))
                return GameState.LOST
            hidden = hidden_cells(step.after)
            safe = self.window.evidence.safe_appearances
            shown_all = None if hidden else self._every_cell_shown(step, shown)
            if shown_all is not None:
                return shown_all
            # A face showing neither its playing nor its lost picture: won, if the game now
            # ignores clicks (its mines left hidden), else a picture of its own during play.
            may_have_won = button is not None
            if not hidden or (shown in safe and not may_have_won):
                self.window.evidence.opened_safely(step)
                return GameState.PLAYING
            if button is not None:
                known = ", ".join(state.value for state in button.pictures)
                log.debug("the face shows none of its pictures (%s): probing the game", known)
            probe = self._probe(step, hidden, may_have_won)
            if isinstance(probe, GameState):
                return probe
            self.window.evidence.opened_safely(step)
            game.steps.append(probe)
            self._playing_face_in_play()

    def _hit(self, step: Step) -> Cell | None:
        """The cell ``step`` changed into a picture only a loss's click has shown (the cell
        clicked first), or None: a game may open the neighbours of a number opened with as many
        flags around it as it counts, and a wrong flag among them hits a mine beside it."""
        ends = self.window.evidence.end_appearances()
        if int(step.after[step.cell]) in ends:
            return step.cell
        hits = np.argwhere(step.changed & np.isin(step.after, ends))
        return (int(hits[0][0]), int(hits[0][1])) if len(hits) == 1 else None

    def _face_after_a_hit(self, step: Step) -> GameState | None:
        """The face once the board has held still a while, after a click that showed a picture
        only a loss's click has shown, under a playing face: a game may draw its mine hit,
        then a pause on (200 ms in one game) every other mine and its lost face."""
        view = self.window.view
        log.debug("cell %s shows a loss's picture under a playing face: read again", step.cell)
        settled(view.grabber, view.board_rect, None, quiet=waits.LOST_QUIET)
        button = self.window.face
        return None if button is None else button.state()

    def _every_cell_shown(self, step: Step, shown: int) -> GameState | None:
        """How a click that left no hidden cell ended the game, where the board shows it: lost
        where the cell shows no safe picture and the board every cell; won where a safe cell
        opened the last hidden ones and cells apart from its patch changed with it (a game
        that shows its mines on a win, as some do on a loss). None: not told so."""
        safe = self.window.evidence.safe_appearances
        catalogue = self.window.evidence.catalogue
        if shown not in safe and _shows_everything(step, safe, catalogue):
            log.debug("the click left no hidden cell and the board shows every cell")
            return GameState.LOST
        if shown in safe and changed_apart(step.before, step.after, step.cell, safe):
            log.debug("the click left no hidden cell and the board showed its mines: a win")
            return GameState.WON
        return None

    def _probe(self, step: Step, hidden: list[Cell], may_have_won: bool) -> Step | GameState:
        """A probe click on one of the ``hidden`` cells after ``step``, or the state that says
        the game is over: lost if ``step`` changed cells apart from its patch (the mines drawn
        across the board; a probe could be fooled by a game that still draws a clicked cell
        pressed once it is over), lost or won (``may_have_won``) if the probe changed nothing.
        The probe is judged against a board that has long held still: one caught in the middle
        of an end-of-game flash would change under the probe, game over or not."""
        window = self.window
        window.closed_dialogs()  # never probe under a dialog that opened late
        still = settled(window.view.grabber, window.view.board_rect, None, quiet=waits.FLASH_QUIET)
        safe = window.evidence.safe_appearances
        if not may_have_won and changed_apart(
            step.before, window.view.board_ids(still), step.cell, safe
        ):
            log.debug("the click on %s changed cells apart from its patch: mines drawn", step.cell)
            return GameState.LOST
        log.debug("the click on %s showed a new picture: probing another hidden cell", step.cell)
        window.evidence.probes += 1
        probe = window.click(
            ClickKind.OPEN, self.random.choice(hidden), still, timeout=PROBE_TIMEOUT, retry=False
        )
        if not probe.changed[probe.cell]:  # other cells may change: a message drawn
            log.debug("the probe's cell did not change: the game is over")
            return GameState.WON if may_have_won else GameState.LOST
        return probe

    def _playing_face_in_play(self) -> None:
        """Take the face a game shows once a probe found it under way as its playing face,
        while the one known is only the launch frame's: a game may grin at launch as on a win
        (minesweeper 0.1.4 from PyPI), and then no face read in play matched, every click was
        probed and no cell marked. The launch picture, dropped, is learned as the won face if
        a win shows it."""
        face = self.window.face
        if face is None or face.playing_seen:
            return
        picture = face.picture_in(self.window.view.grabber.grab(self.window.view.window))
        if any(np.array_equal(picture, known) for known in face.pictures.values()):
            return
        log.debug("the game goes on under a face not seen at launch: its playing face")
        face.pictures[GameState.PLAYING] = picture
        face.playing_seen = True

    def finish_if_over(self, game: PlayedGame) -> None:
        """Mark ``game`` lost or won if its last step ended it."""
        outcome = self.outcome(game)
        if outcome is GameState.LOST:
            log.debug("game lost on its click on %s", game.steps[-1].cell)
            self.lost(game)
        elif outcome is GameState.WON:
            self.won(game)

    def board_gone(self, game: PlayedGame) -> bool:
        """Whether the last step of ``game``, a click that opened, took the board away
        (:func:`calibration.vanished.board_vanished`); the game is then over, that step left
        out of its record (its board shows no cell) and how it ended told where the board
        before tells (:func:`calibration.vanished.gone_outcome`)."""
        step = game.steps[-1]
        safe = self.window.evidence.safe_appearances
        catalogue = self.window.evidence.catalogue
        if step.click is not ClickKind.OPEN or not board_vanished(step, catalogue, safe):
            return False
        game.steps.pop()
        game.gone = gone_outcome(step, safe, game.mines)
        self.window.gone_frame = self.window.view.grabber.grab(self.window.view.board_rect)
        told = "a loss" if game.gone is GameState.LOST else "maybe on the last safe cell"
        log.debug("the click on %s took the board away: the game is over, %s", step.cell, told)
        return True

    def lost(self, game: PlayedGame) -> None:
        """Record a lost game; the first loss shows where the face is.

        The losing step's board is read again once it has held still for
        :data:`calibration.waits.LOST_QUIET`:
        read in the middle of the repaint a loss brings, a cell would seem to change from an
        opened one, which no rule allows (a CI run stopped on that, in two tests). A board that
        still seems to, or one that may carry a message, is watched for one more change.
        """
        game.state = GameState.LOST
        view = self.window.view
        last = game.steps[-1]
        self.window.closed_dialogs()  # one that opened late
        final = settled(view.grabber, view.board_rect, None, quiet=waits.LOST_QUIET)
        final = self.window.board_seen = self.window.without_dialogs(
            None, final
        )  # one drawn in the window
        game.steps[-1] = replace(last, after=view.board_ids(final))
        watch = self._watches_for_message()
        if watch or self._mid_repaint(game.steps[-1].after, last):
            later = self.after_message(game, final)
            if watch:
                self.window.evidence.loss_messages.append(not np.array_equal(later, final))
            final = later
        self.window.end_frame = final
        frame = view.grabber.grab(view.window)
        if self.window.face is None:
            named = self.window.named_point
            near = (
                None if named is None else (named[0] - view.window.left, named[1] - view.window.top)
            )
            found = find_face(view.fresh, frame, view.board_in_window, near)
            if found is not None:
                log.debug("the face found at %s in the window: the loss changed it", found)
                self.window.face = FaceButton(view.grabber, view.window, found, playing_seen=False)
                self.window.face.pictures[GameState.PLAYING] = self.window.face.picture_in(
                    view.fresh
                )
        if self.window.face is not None:
            self.window.face.pictures.setdefault(GameState.LOST, self.window.face.picture_in(frame))

    def _watches_for_message(self) -> bool:
        """Whether this loss is watched for a message drawn over the board that goes by itself:
        the first :data:`MESSAGE_CHECKS` losses are, later ones while at least half of those
        watched showed one (a repaint paused on a busy machine looks like a message once)."""
        shown = self.window.evidence.loss_messages
        return len(shown) < MESSAGE_CHECKS or 2 * sum(shown) >= len(shown)

    def _mid_repaint(self, ids: Ids, last: Step) -> bool:
        """Whether a cell that showed a number before the losing click shows something else
        but a number, and not as a game that redraws every opened cell on its end does
        (:func:`calibration.inference.redrawn_numbers`): a board caught in the middle of its
        repaint."""
        return redrawn_numbers(last.before, ids, self.window.evidence.safe_appearances) is None

    def won(self, game: PlayedGame, watch: bool = True) -> None:
        """Record a won game, its board once a message over it has gone (as for a loss, see
        :meth:`_watches_for_message`; not ``watch``: a message was waited out already), and,
        once the face shows something new, the won face."""
        game.state = GameState.WON
        log.debug("game won after %d clicks", len(game.steps))
        if watch and self._watches_for_message():
            self.after_message(game, self.window.view.grabber.grab(self.window.view.board_rect))
        face = self.window.face
        if face is None or GameState.WON in face.pictures:
            return
        face.state(SETTLE_TIMEOUT, until_unknown=True)
        picture = face.picture_in(self.window.view.grabber.grab(self.window.view.window))
        if not any(np.array_equal(picture, known) for known in face.pictures.values()):
            face.pictures[GameState.WON] = picture
        else:
            self.wins_without_face += 1

    def after_message(self, game: PlayedGame, frame: Image) -> Image:
        """The board once a message drawn over it (``frame``) has gone by itself (a "You have
        lost." or "Congratulations! You have won!" written over it for four seconds), or
        ``frame`` after :data:`calibration.waits.MESSAGE_WAIT` without a change; the last step of
        ``game`` records it."""
        view = self.window.view
        later = settled(
            view.grabber, view.board_rect, frame, waits.MESSAGE_WAIT, quiet=waits.LOST_QUIET
        )
        if not np.array_equal(later, frame):
            log.debug("the board changed again after %.1f s of stillness", waits.LOST_QUIET)
            game.steps[-1] = replace(game.steps[-1], after=view.board_ids(later))
        return later


def _shows_everything(step: Step, safe: set[int], catalogue: Catalogue) -> bool:
    """Whether ``step``, a click that left no hidden cell and shows a picture never seen on a
    safe cell, is a loss on which the game showed every cell: it redrew cells opened
    before, or the picture clicked shows on other cells the click uncovered too (every mine
    drawn alike), or those cells show two tiles never seen opened safely (the mines, and the
    other closed cells drawn anew, as a theme that darkens them does). A win that flags
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
