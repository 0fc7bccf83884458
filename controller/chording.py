"""Chords in play: how a game takes them, learned in its first games and kept in its skin, and
the rules the play loop keeps around them.

Games chord differently: Wine's winemine opens a number's neighbours when the middle button is
released over it, or a left or right button released while the other is held (its window
procedure turns those into middle-button messages); others chord with a left click on a number.
Which way a game takes is not in its skin until play finds out: a chord is tried, alone in its
burst, and if it opens nothing the next way is tried at the next chance; a game that takes none
is never chorded again. What is learned is kept in the skin (``extra.chord``).

A chord is sent only on a number whose flags the board as read shows, every one, and a chord
opens only cells the solver knows safe (:func:`solver.chords.plan_clicks`): a flag the game did
not take means no chord, and a chord that opens nothing is a missed click, its cells then
opened one by one.
"""

from __future__ import annotations

from collections.abc import Callable, MutableMapping, Sequence
from enum import StrEnum

from solver import Board, Tile
from solver.strategy import Action, Move
from vision.skin import CHORD_WAYS

NONE = CHORD_WAYS[-1]
"""``extra.chord`` of a game that takes no chord."""
BUTTONS = {"middle": "middle", "both": "left+right", "left": "left"}
"""Each way of chording, tried in :data:`vision.skin.CHORD_WAYS`' order, and the buttons it
presses together (released in the reverse order)."""


class Chording(StrEnum):
    """Whether play chords: ``on`` (the way is known), ``trying`` (a way is being tried), or
    ``off`` (the game takes none, or the table cannot send one)."""

    ON = "on"
    TRYING = "trying"
    OFF = "off"


class ChordWays:
    """The way a game chords: the skin's ``extra.chord`` once learned, else each of
    :data:`BUTTONS`' ways in turn until one opens something."""

    def __init__(self, extra: MutableMapping[str, object], save: Callable[[], object]) -> None:
        """``save`` keeps the skin, ``extra`` its extras, once a way is learned."""
        self._extra = extra
        self._save = save
        self._untried = [way for way in CHORD_WAYS if way != NONE]

    @property
    def way(self) -> str | None:
        """The way to chord now, learned or being tried; None if the game takes none."""
        if self._extra.get("right_click_marks") is False:
            return None  # a chord needs flags, and the game takes none
        learned = self._extra.get("chord")
        if learned is not None:
            return None if learned == NONE else str(learned)
        return self._untried[0]

    @property
    def state(self) -> Chording:
        if self.way is None:
            return Chording.OFF
        return Chording.ON if "chord" in self._extra else Chording.TRYING

    def opened(self, opened: bool) -> None:
        """Whether the chord just tried opened anything; once a way is learned nothing changes
        (a chord missed then is a missed click)."""
        if self.state != Chording.TRYING:
            return
        if not opened:
            self._untried.pop(0)
            if self._untried:
                return
        self._extra["chord"] = self._untried[0] if opened else NONE
        self._save()


def flags_shown(board: Board, move: Move) -> bool:
    """Whether the board shows as many flags around ``move``'s number as it counts."""
    flags = sum(board[near] == Tile.FLAG for near in board.neighbours(move.cell))
    return board[move.cell].is_number and flags == board[move.cell]


def burst(moves: Sequence[Move], board: Board, trying: bool) -> list[Move]:
    """The moves to send from the read ``board``: up to the first chord whose flags it does not
    show (they are placed first, and seen taken in the next read); while the way is being
    tried, a chord goes alone, so that what it opens is its own."""
    for index, move in enumerate(moves):
        if move.action != Action.CHORD:
            continue
        if not flags_shown(board, move):
            return list(moves[:index])
        if trying:
            return list(moves[:index]) if index else [move]
    return list(moves)


def chord_targets(board: Board, move: Move) -> list[Move]:
    """The cells a chord on ``move`` opens on ``board`` (its closed neighbours), as opens."""
    return [
        Move(near, Action.OPEN) for near in board.neighbours(move.cell) if board[near].is_closed
    ]


def missed_chords(moves: Sequence[Move], before: Board, after: Board) -> list[Move]:
    """The cells of the chords among ``moves`` that opened nothing from ``before`` to
    ``after``, as opens to click one by one."""
    missed = []
    for move in moves:
        if move.action == Action.CHORD:
            targets = chord_targets(before, move)
            if all(after.closed[target.cell] for target in targets):
                missed += targets
    return missed
