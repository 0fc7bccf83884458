"""The record of the games calibration plays: every click, with the board before and after it.

Calibration learns nothing while it plays; it records each click (:class:`Step`) of each game
(:class:`PlayedGame`) as grids of appearance ids (:mod:`calibration.catalogue`), pooled for
every window of one game program (:class:`Evidence`), so that the meanings can be inferred
from all the games together and inferred again when a game is set aside
(:mod:`calibration.meanings`). The record also keeps which appearances showed on cells opened
safely and lasted: the numbers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum

import cv2
import numpy as np
import numpy.typing as npt

from calibration.catalogue import HIDDEN_ID, Catalogue, Ids
from solver import Cell, GameState
from solver.engine import neighbour_counts


class ClickKind(StrEnum):
    """Which button a calibration click pressed. Not :class:`solver.strategy.Action`: a right-click
    here puts a flag, a question mark or nothing, whatever the game does next."""

    OPEN = "open"
    """A left-click."""
    MARK = "mark"
    """A right-click."""


@dataclass(frozen=True)
class Step:
    """One click and the board before and after it."""

    click: ClickKind
    cell: Cell
    before: Ids
    after: Ids
    unpainted: tuple[int, int, int, int] | None = None
    """For a click that opened cells, the part of the cells' pictures it left unpainted beside
    them (see :func:`calibration.paint.unpainted_box`); None: not looked at."""
    ring: npt.NDArray[np.bool_] | None = None
    """The pixels of a cell's picture where a focus ring moved off a cell opened before (see
    :func:`calibration.paint.ring_pixels`); None: none did."""

    @property
    def changed(self) -> npt.NDArray[np.bool_]:
        return np.asarray(self.before != self.after, dtype=np.bool_)

    def painted_past(self, box: tuple[int, int, int, int]) -> bool:
        """Whether the click painted over part of ``box`` (the part of the cells compared) in
        cells beside those it opened (see :func:`calibration.paint.unpainted_box`)."""
        return self.unpainted not in (None, box)

    def describe(self) -> str:
        """What the click changed, in a few words (for the log)."""
        changed = int(self.changed.sum())
        if not changed:
            return "nothing changed"
        was, now = (appearance_name(int(ids[self.cell])) for ids in (self.before, self.after))
        clicked = f"the cell from {was} to {now}" if was != now else f"not the cell ({now})"
        return f"{changed} cell{'s' if changed > 1 else ''} changed, {clicked}"

    @property
    def uncovered(self) -> npt.NDArray[np.bool_]:
        """The cells hidden before the click that it changed."""
        return np.asarray(self.changed & (self.before == HIDDEN_ID), dtype=np.bool_)


def appearance_name(appearance: int) -> str:
    """An appearance id as the log and the errors name it."""
    return "hidden" if appearance == HIDDEN_ID else f"#{appearance}"


@dataclass
class PlayedGame:
    """The steps of one calibration game; its ``state`` is LOST once its last step is known to
    have lost it (WON likewise)."""

    steps: list[Step] = field(default_factory=list)
    state: GameState = GameState.PLAYING
    mines: int | None = None
    """The board's mine count, where the user gave it."""
    gone: GameState | None = None
    """How the game ended where its end took its board away (:mod:`calibration.vanished`):
    LOST (it hit a mine), PLAYING (over; the board before did not tell how); None: the board
    stayed. Its steps are then clicks it survived, the ending one left out, and ``state``
    stays PLAYING: no board showed the end."""

    @property
    def finished(self) -> bool:
        return self.gone is not None or self.state is not GameState.PLAYING


@dataclass
class Evidence:
    """What the games showed, shared by every window of one game program calibrated together."""

    catalogue: Catalogue
    games: list[PlayedGame] = field(default_factory=list)
    opened: set[int] = field(default_factory=set)
    """Appearances seen on hidden cells that changed on a click that did not lose."""
    loss_messages: list[bool] = field(default_factory=list)
    """Per lost board watched for a message drawn over it, whether the board changed again."""
    set_aside: list[PlayedGame] = field(default_factory=list)
    """Games whose boards contradicted the others (see :meth:`set_game_aside`), in order."""
    probes: int = 0
    """Clicks made only to tell whether a game went on (see :mod:`calibration.game_end`)."""
    _lasting: set[int] = field(default_factory=set, init=False, repr=False)
    _marks: set[int] = field(default_factory=set, init=False, repr=False)
    _scanned: list[int] = field(default_factory=list, init=False, repr=False)
    """Per game, how many of its steps :meth:`_scan` has looked at."""

    def opened_safely(self, step: Step) -> None:
        """Record the appearances of the cells ``step`` opened as safe ones.

        Cells next to a flag are left out: some games draw a number with more flags around it
        than it counts in another way, and calibration's flags are often wrong.
        """
        self._scan()
        flagged = np.isin(step.after, list(self._marks - {HIDDEN_ID}))
        opened = step.uncovered & (neighbour_counts(flagged) == 0)
        self.opened.update(int(i) for i in np.unique(step.after[opened]))

    @property
    def safe_appearances(self) -> set[int]:
        """Appearances of opened cells: the numbers.

        Only pictures that lasted count: a cell showing one after a click shows it again when the
        board is captured for the next click, so a frame caught in a flash or a repaint teaches
        nothing. And the flags a game puts on the mines left when a click wins it change hidden
        cells too, so what a right-click shows is left out.
        """
        self._scan()
        return (self.opened & self._lasting) - self._marks

    def _scan(self) -> None:
        """Look at the steps recorded since the last scan, for lasting pictures and marks."""
        self._scanned += [0] * (len(self.games) - len(self._scanned))
        for index, game in enumerate(self.games):
            start = self._scanned[index]
            for later in range(max(start, 1), len(game.steps)):
                earlier = game.steps[later - 1].after
                kept = (earlier == game.steps[later].before) & (earlier != HIDDEN_ID)
                self._lasting.update(int(i) for i in np.unique(earlier[kept]))
            for step in game.steps[start:]:
                if step.click is ClickKind.MARK:
                    self._marks.add(int(step.after[step.cell]))
            self._scanned[index] = len(game.steps)

    def set_game_aside(self, game: PlayedGame) -> None:
        """Learn nothing more from ``game``'s boards (they contradict the others), but keep
        them to be weighed again (:meth:`take_back_instead_of`); the pictures it showed that
        lasted stay known, as a later capture confirmed each."""
        index = next(index for index, kept in enumerate(self.games) if kept is game)
        del self.games[index]
        del self._scanned[index : index + 1]
        self.set_aside.append(game)

    def forget(self, games: Sequence[PlayedGame]) -> None:
        """Learn nothing from ``games``, kept or set aside (played on a part of the board taken
        for the whole: their numbers count mines outside it). The pictures they showed that
        lasted stay known, as a game set aside's do."""
        gone = {id(game) for game in games}
        kept = [index for index, game in enumerate(self.games) if id(game) not in gone]
        self._scanned = [self._scanned[index] for index in kept if index < len(self._scanned)]
        self.games = [self.games[index] for index in kept]
        self.set_aside = [game for game in self.set_aside if id(game) not in gone]

    def take_back_instead_of(self, odd: PlayedGame) -> None:
        """Set ``odd`` aside and learn from the games set aside before again: together with
        the others they outvote it."""
        back, self.set_aside = self.set_aside, []
        self.set_game_aside(odd)
        self.games += back

    def rebase(self, catalogue: Catalogue) -> None:
        """Read every game recorded so far, and the ones to come, with ``catalogue`` (one that
        compares another part of the cells' pictures): each appearance becomes the one its
        picture is in the new catalogue, so pictures that differed only outside the part
        compared now are one."""
        old = self.catalogue
        new_ids = np.array(
            [catalogue.add(image, old.classes.get(i, 0)) for i, image in enumerate(old.images)],
            dtype=np.int32,
        )
        for game in self.games + self.set_aside:
            game.steps[:] = [
                replace(step, before=new_ids[step.before], after=new_ids[step.after])
                for step in game.steps
            ]
        self.opened = {int(new_ids[i]) for i in self.opened}
        self._lasting = {int(new_ids[i]) for i in self._lasting}
        self._marks = {int(new_ids[i]) for i in self._marks}
        self.catalogue = catalogue

    def end_appearances(self) -> list[int]:
        """Appearances only a lost game shows: those the losing click showed on its cell, not
        safe ones. Not the other cells a loss changed: a game that shows every cell on a loss
        shows numbers there that no safe click opened yet."""
        ends = {
            int(game.steps[-1].after[game.steps[-1].cell])
            for game in self.games
            if game.state is GameState.LOST
        }
        return sorted(ends - self.safe_appearances - {HIDDEN_ID})


def changed_apart(before: Ids, after: Ids, cell: Cell, opened: set[int]) -> bool:
    """Whether a click on ``cell`` changed a cell not joined to it through changed cells: an
    opening in play is one patch around the click (each cell opened beside an opened 0), so
    such a cell is the game showing what only its end shows (the mines). Cells showing an
    ``opened`` appearance before do not count: no mine is there, and a toolkit moves its focus
    ring off the button clicked before."""
    changed = ((before != after) & ~np.isin(before, list(opened))).astype(np.uint8)
    _, patches = cv2.connectedComponents(changed, connectivity=8)
    return bool((patches[changed.astype(bool)] != patches[cell]).any())
