"""Which number each opened-cell picture shows, from bounds the boards prove.

Every picture seen on a cell opened without losing is a number from 0 to 8. Each board seen
bounds its value, with no guessing:

* during play a number is at most its count of neighbours not yet opened (the mines are among
  them), so a 1 that once had a single closed neighbour cannot be a 2;
* it is at least its count of neighbours known to be mines (the mine that was hit, for a game
  that shows only that one on a loss);
* where every mine is known (a loss that shows all mines) the count is exact;
* on a board still in play, a value that leaves no mine layout for the board's other numbers
  and its mine count is none (the exact count of :func:`solver.analyze` says so).

Different numbers look different, so the values are distinct: a picture whose interval leaves it
only one value that no other picture must take is that number. This works for games that show
every mine on a loss (exact counts) and for those that show only the mine hit (bounds alone).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from calibration.errors import CalibrationError
from solver import Board, BoardError, Cell, Tile, analyze
from solver.engine import neighbour_counts

HIGHEST = 8
Counts = npt.NDArray[np.uint8]
"""A (rows, columns) grid of neighbour counts."""


@dataclass
class NumberBounds:
    """Per appearance id (of a number picture), the interval its value is known to lie in."""

    low: dict[int, int] = field(default_factory=dict)
    high: dict[int, int] = field(default_factory=dict)
    where: dict[int, str] = field(default_factory=dict)
    """Where each appearance's interval last narrowed (for error messages)."""

    def narrow(self, appearance: int, low: int, high: int, where: str) -> None:
        """Record that ``appearance`` shows a number from ``low`` to ``high``."""
        old_low, old_high = self.interval(appearance)
        new_low, new_high = max(old_low, low), min(old_high, high)
        if new_low > new_high:
            raise CalibrationError(
                f"appearance #{appearance} would be a number from {old_low} to {old_high} "
                f"({self.where.get(appearance, 'no bound before')}) and from {low} to {high} "
                f"({where}); no number is both"
            )
        if (new_low, new_high) != (old_low, old_high):
            self.where[appearance] = where
        self.low[appearance], self.high[appearance] = new_low, new_high

    def interval(self, appearance: int) -> tuple[int, int]:
        return self.low.get(appearance, 0), self.high.get(appearance, HIGHEST)

    def values(
        self,
        appearances: Iterable[int],
        share_class: Callable[[int, int], bool] = lambda first, second: True,
    ) -> dict[int, int]:
        """The value each of ``appearances`` must have: the same in every way of giving
        distinct numbers to those that ``share_class`` (seen on cells of one size class; by
        default all). Raises when there is no such way."""
        remaining = sorted(set(appearances))
        forced: dict[int, int] = {}
        while remaining:  # appearances linked by shared classes, one linked set at a time
            linked, frontier = {remaining[0]}, [remaining[0]]
            while frontier:
                first = frontier.pop()
                joined = [a for a in remaining if a not in linked and share_class(first, a)]
                linked.update(joined)
                frontier.extend(joined)
            remaining = [a for a in remaining if a not in linked]
            ordered = sorted(linked, key=lambda a: (self.interval(a), a))
            rivals = {
                a: [b for b in ordered[:index] if share_class(a, b)]
                for index, a in enumerate(ordered)
            }
            forced |= self._forced(ordered, rivals)
        return forced

    def _forced(self, ordered: list[int], rivals: dict[int, list[int]]) -> dict[int, int]:
        """The values ``ordered`` take in every assignment that gives each a value none of its
        ``rivals`` (the appearances before it that must differ from it) has."""
        forced: dict[int, int] | None = None
        for assignment in self._assignments(ordered, rivals, 0, {}):
            if forced is None:
                forced = dict(assignment)
            else:
                forced = {a: v for a, v in forced.items() if assignment[a] == v}
            if not forced:
                return {}
        if forced is None:
            described = ", ".join(
                f"#{a} in {list(self.interval(a))} ({self.where.get(a, 'never bounded')})"
                for a in ordered
            )
            raise CalibrationError(
                f"the number pictures cannot show distinct numbers: {described}; two pictures "
                "seen as different may be one tile drawn two ways"
            )
        return forced

    def _assignments(
        self,
        ordered: list[int],
        rivals: dict[int, list[int]],
        index: int,
        chosen: dict[int, int],
    ) -> Iterator[dict[int, int]]:
        if index == len(ordered):
            yield chosen
            return
        appearance = ordered[index]
        low, high = self.interval(appearance)
        taken = {chosen[rival] for rival in rivals[appearance]}
        for value in range(low, high + 1):
            if value not in taken:
                chosen[appearance] = value
                yield from self._assignments(ordered, rivals, index + 1, chosen)
                del chosen[appearance]


def count_bounds(
    board: Board, won: bool = False, flags_are_mines: bool = False
) -> tuple[Counts, Counts]:
    """Per cell, the fewest and the most mines a number there can count on ``board``.

    A lost board that shows a MINE (or more than one EXPLODED: a game that draws every mine as
    the one hit) shows every mine but perhaps those under question marks (a game may keep the
    mark) and those under flags: the count is the mines shown, and perhaps its question-marked
    and flagged neighbours. A board that shows a WRONG_FLAG is of a game that marks wrong flags,
    so its flags left standing are mines, as are those of a player who flags only proven mines
    (``flags_are_mines``: the bot in play). On a board ``won`` every closed cell is a mine.
    Otherwise a number counts at least the mines shown (the one hit) and at most those and its
    closed neighbours.
    """
    tiles = board.tiles
    shown = np.isin(tiles, (Tile.MINE, Tile.EXPLODED))
    if board.is_lost and ((tiles == Tile.MINE).any() or (tiles == Tile.EXPLODED).sum() > 1):
        flags = tiles == Tile.FLAG
        if flags_are_mines or (tiles == Tile.WRONG_FLAG).any():
            shown, flags = shown | flags, np.zeros_like(flags)
        low = neighbour_counts(shown)
        return low, low + neighbour_counts(flags | (tiles == Tile.QUESTION))
    if won:
        exact = neighbour_counts(board.unopened)
        return exact, exact
    return neighbour_counts(shown), neighbour_counts(shown | board.unopened)


def label_from_play(
    boards: Sequence[tuple[Board, Mapping[Cell, int]]],
    known: Mapping[int, Iterable[int]],
    classes: Mapping[int, int] | None = None,
    flags_are_mines: bool = False,
) -> dict[int, Tile]:
    """The numbers the boards of one game prove for pictures first seen in it.

    ``boards`` are the game's reads in order, each with the unlabelled picture every
    :attr:`Tile.OPENED` cell shows; ``classes`` the size class of each picture's cells (default:
    all 0, an even board); ``known`` per size class the numbers the skin reads on its cells (a
    new picture of that class is another number; one drawn for another class may be any). The
    last board ends the game: won, every closed cell is a mine; lost with the mines shown, the
    counts are exact; lost with only the mine hit, it bounds. The last board still in play
    bounds each picture by the values its other numbers leave it (with flags only if
    ``flags_are_mines``).
    """
    classes = classes or {}
    bounds = NumberBounds()
    class_of: dict[int, int] = {}
    for size_class, numbers in known.items():
        for number in numbers:
            appearance = -1 - number - (HIGHEST + 1) * size_class
            class_of[appearance] = size_class
            bounds.narrow(appearance, number, number, "a number the skin reads")
    for index, (board, pictures) in enumerate(boards):
        won = index == len(boards) - 1 and board.is_won
        low, high = count_bounds(board, won, flags_are_mines)
        for cell, picture in pictures.items():
            bounds.narrow(
                picture, int(low[cell]), int(high[cell]), f"read {index + 1}, cell {cell}"
            )
    in_play = [  # the solver counts flags as mines
        index
        for index, (board, _) in enumerate(boards)
        if _in_play(board) and (flags_are_mines or not (board.tiles == Tile.FLAG).any())
    ]
    if in_play:  # the last board in play knows the most: its numbers bound the rest
        board, pictures = boards[in_play[-1]]
        for picture in sorted(set(pictures.values())):
            cells = [cell for cell, each in pictures.items() if each == picture]
            least, most = _fitting(board, cells, *bounds.interval(picture))
            bounds.narrow(picture, least, most, f"read {in_play[-1] + 1}, the numbers around")
    pictures_seen = {picture for _, pictures in boards for picture in pictures.values()}
    class_of |= {picture: classes.get(picture, 0) for picture in pictures_seen}
    values = bounds.values([*class_of], lambda first, second: class_of[first] == class_of[second])
    return {picture: Tile(values[picture]) for picture in pictures_seen if picture in values}


def _in_play(board: Board) -> bool:
    """Neither lost (no mine shown) nor won: a board whose mine layouts the solver counts."""
    shown = np.isin(board.tiles, (Tile.MINE, Tile.EXPLODED)).any()
    return not shown and not board.is_won


def _fitting(board: Board, cells: Sequence[Cell], low: int, high: int) -> tuple[int, int]:
    """The least and the most of ``low`` to ``high`` that ``cells`` (opened cells of one
    picture) can all show with some mine layout fitting the rest of ``board``; the interval as
    it was if none fits (a board no layout fits is the play loop's to refuse)."""

    def fits(value: int) -> bool:
        trial = board.copy()
        for cell in cells:
            trial.tiles[cell] = value
        try:
            analyze(trial)
        except BoardError:
            return False
        return True

    least = next((value for value in range(low, high + 1) if fits(value)), None)
    if least is None:
        return low, high
    most = next(value for value in range(high, least - 1, -1) if value == least or fits(value))
    return least, most
