"""Which number each opened-cell picture shows, from bounds the boards prove.

Every picture seen on a cell opened without losing is a number from 0 to 8. Each board seen
bounds its value, with no guessing:

* during play a number is at most its count of neighbours not yet opened (the mines are among
  them), so a 1 that once had a single closed neighbour cannot be a 2;
* it is at least its count of neighbours known to be mines (the mine that was hit, for a game
  that shows only that one on a loss);
* where every mine is known (a loss that shows all mines) the count is exact.

Different numbers look different, so the values are distinct: a picture whose interval leaves it
only one value that no other picture must take is that number. This works for games that show
every mine on a loss (exact counts) and for those that show only the mine hit (bounds alone).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from calibration.errors import CalibrationError
from solver import Board, Cell, Tile
from solver.engine import neighbour_counts

HIGHEST = 8


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

    def values(self, appearances: Iterable[int]) -> dict[int, int]:
        """The value each of ``appearances`` must have: the same in every way of giving them
        distinct numbers inside their intervals. Raises when there is no such way."""
        ordered = sorted(set(appearances), key=lambda a: (self.interval(a), a))
        forced: dict[int, int] | None = None
        for assignment in self._assignments(ordered, 0, {}, set()):
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
        self, ordered: list[int], index: int, chosen: dict[int, int], used: set[int]
    ) -> Iterator[dict[int, int]]:
        if index == len(ordered):
            yield chosen
            return
        appearance = ordered[index]
        low, high = self.interval(appearance)
        for value in range(low, high + 1):
            if value not in used:
                chosen[appearance] = value
                used.add(value)
                yield from self._assignments(ordered, index + 1, chosen, used)
                used.discard(value)
                del chosen[appearance]


def label_from_play(
    boards: Sequence[tuple[Board, Mapping[Cell, int]]], known: Iterable[int]
) -> dict[int, Tile]:
    """The numbers the boards of one game prove for pictures first seen in it.

    ``boards`` are the game's reads in order, each with the unlabelled picture every
    :attr:`Tile.OPENED` cell shows; ``known`` the numbers the skin can already read (the new
    pictures are other numbers). The last board ends the game: won, every closed cell is a mine;
    lost with the mines shown, the counts are exact; lost with only the mine hit, it bounds.
    """
    bounds = NumberBounds()
    known_ids = {-1 - number: number for number in known}
    for appearance, number in known_ids.items():
        bounds.narrow(appearance, number, number, "a number the skin reads")
    for index, (board, pictures) in enumerate(boards):
        last = index == len(boards) - 1
        tiles = board.tiles
        closed_around = neighbour_counts(board.unopened)
        if last and board.is_lost:
            shown = np.isin(tiles, (Tile.MINE, Tile.EXPLODED))
            every_mine = (tiles == Tile.MINE).any()
            mines_around = neighbour_counts(shown | ((tiles == Tile.FLAG) & every_mine))
        for cell, picture in pictures.items():
            where = f"read {index + 1}, cell {cell}"
            if last and board.is_won:
                bounds.narrow(picture, int(closed_around[cell]), int(closed_around[cell]), where)
            elif last and board.is_lost:
                count = int(mines_around[cell])
                bounds.narrow(picture, count, count if every_mine else HIGHEST, where)
            else:
                bounds.narrow(picture, 0, int(closed_around[cell]), where)
    pictures_seen = {picture for _, pictures in boards for picture in pictures.values()}
    values = bounds.values([*known_ids, *pictures_seen])
    return {picture: Tile(values[picture]) for picture in pictures_seen if picture in values}
