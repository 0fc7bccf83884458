"""The mine count a game shows beside its board ("Mines caught: 0 / 36"), read when play is not
told it: some games lay a new count of mines for each new game and say it only there.

Tesseract reads the numbers in the window with the board blanked out
(:func:`calibration.labels.read_text`). The count is a number a board of its size may hold as
mines (:data:`MINE_SHARES`), so a counter still at 0 and a timer's first seconds are none. A
timer that has run longer may be: so the first count is the one such number read in the same
place twice, :data:`STEADY_WAIT` apart (a timer ticks between), and that place is where the
count is read on each new game after.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from calibration.labels import read_text
from vision.geometry import Rect
from vision.skin import Image

MINE_SHARES = (0.04, 0.5)
"""The least and the most share of a board's cells a mine count shown beside it may be (the
levels' are 12% to 21%): a timer's or a counter's small numbers are no count."""
STEADY_WAIT = 1.1
"""Seconds between the two reads that find the count: a timer shown in seconds ticks between."""


@dataclass(frozen=True)
class Shown:
    """A number read in the window, and where (in the frame read)."""

    value: int
    rect: Rect


class MineCount:
    """The count a game shows, read on each new game: found first as the one steady number
    that may be it (:func:`steady_count`), then read where it was found, and looked for again
    where it is not read there. A window that looks as it did at the last read is not read
    again: most games show the same count on every new game, and a read costs a third of a
    second (a search, with its wait, more than a second)."""

    def __init__(self) -> None:
        self.place: Rect | None = None
        self._last: tuple[Image, int | None] | None = None

    def read(
        self, look: Callable[[], Image], numbers_in: Callable[[Image], list[Shown]], cells: int
    ) -> int | None:
        """The count the window shows for a board of ``cells`` cells; None if it is not read
        surely. ``look`` takes a picture of the window, ``numbers_in`` reads its numbers."""
        frame = look()
        if self._last is not None and np.array_equal(self._last[0], frame):
            return self._last[1]
        count = self._read(frame, look, numbers_in, cells)
        self._last = frame, count
        return count

    def _read(
        self,
        frame: Image,
        look: Callable[[], Image],
        numbers_in: Callable[[Image], list[Shown]],
        cells: int,
    ) -> int | None:
        first = numbers_in(frame)
        if self.place is not None:
            count = count_at(first, self.place, cells)
            if count is not None:
                return count
        time.sleep(STEADY_WAIT)
        shown = steady_count(first, numbers_in(look()), cells)
        if shown is None:
            return None
        self.place = shown.rect
        return shown.value


def numbers_shown(frame: Image, blank: list[Rect], at: tuple[int, int] = (0, 0)) -> list[Shown]:
    """Every whole number tesseract reads in ``frame`` outside ``blank`` ("0:12" is 0 and 12),
    placed from ``at`` (where the frame's corner is, from the point they are placed from).

    Raises :class:`calibration.labels.NoTextReader` without the tesseract program."""
    x, y = at
    return [
        Shown(int(digits), replace(rect, left=rect.left + x, top=rect.top + y))
        for text, rect, _ in read_text(frame, blank)
        for digits in re.findall(r"\d+", text)
    ]


def could_be_the_count(value: int, cells: int) -> bool:
    """Whether a board of ``cells`` cells may have ``value`` mines, by :data:`MINE_SHARES`."""
    low, high = MINE_SHARES
    return low * cells <= value <= high * cells


def steady_count(first: list[Shown], second: list[Shown], cells: int) -> Shown | None:
    """The number that may be the mine count read at the same place in both reads, if only
    one is (several: which is the count cannot be told)."""
    steady = {
        shown
        for shown in first
        if could_be_the_count(shown.value, cells)
        and any(other.value == shown.value and other.rect.overlaps(shown.rect) for other in second)
    }
    return steady.pop() if len(steady) == 1 else None


def count_at(numbers: list[Shown], place: Rect, cells: int) -> int | None:
    """The number that may be the mine count read over ``place`` (where it was found), if
    exactly one is."""
    values = {
        shown.value
        for shown in numbers
        if could_be_the_count(shown.value, cells) and shown.rect.overlaps(place)
    }
    return values.pop() if len(values) == 1 else None
