"""The mine count a game shows beside its board (calibration/mine_count.py), from the numbers a
read of its window finds: minesweeper-python's side panel shows "Time: 0:23" above "Mines
caught: 0 / 36"."""

from __future__ import annotations

import time

import numpy as np
import pytest

from calibration.mine_count import MineCount, Shown, count_at, steady_count
from vision.geometry import Rect

TIMER = Rect(1172, 17, 29, 14)
CAUGHT = Rect(1201, 65, 10, 14)
COUNT = Rect(1232, 65, 22, 14)


def panel(seconds: int, count: int = 36) -> list[Shown]:
    """The numbers read in the side panel ``seconds`` into a game of ``count`` mines."""
    return [Shown(0, TIMER), Shown(seconds, TIMER), Shown(0, CAUGHT), Shown(count, COUNT)]


def test_the_count_is_the_one_number_a_board_may_hold_that_a_moment_leaves_in_place() -> None:
    """A timer 23 s in may be a count of a 16x16 board's mines; it ticks in a moment."""
    assert steady_count(panel(23), panel(24), 256) == Shown(36, COUNT)


def test_two_steady_numbers_that_may_be_the_count_give_none() -> None:
    """A timer stopped at 23 (a game over) and the count: which is which cannot be told."""
    assert steady_count(panel(23), panel(23), 256) is None


def test_a_counter_at_0_and_a_timer_s_first_seconds_are_no_count() -> None:
    assert steady_count(panel(2, count=3), panel(3, count=3), 256) is None


class Window:
    """A game's window read in turn: each picture stands for the numbers of one panel."""

    def __init__(self, panels: list[list[Shown]]) -> None:
        self.panels = panels
        self.shown = 0
        self.reads = 0

    def look(self) -> np.ndarray:
        picture = np.full((2, 2, 3), self.shown, dtype=np.uint8)
        self.shown = min(self.shown + 1, len(self.panels) - 1)
        return picture

    def numbers_in(self, picture: np.ndarray) -> list[Shown]:
        self.reads += 1
        return self.panels[int(picture[0, 0, 0])]


def test_the_count_is_read_where_it_was_found_on_each_new_game(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Once found, one read a game: where the count was (its digits may be fewer or more)."""
    waits: list[float] = []
    monkeypatch.setattr(time, "sleep", waits.append)
    window = Window([panel(40), panel(41), panel(2, count=34)])
    count = MineCount()
    assert count.read(window.look, window.numbers_in, 256) == 36
    assert count.read(window.look, window.numbers_in, 256) == 34
    assert len(waits) == 1
    assert count_at(panel(2, count=4), COUNT, 256) is None  # no count of this board


def test_a_window_that_looks_as_it_did_is_not_read_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game that shows no count readable (or the same count) on every new game costs one
    search, not one a game."""
    waits: list[float] = []
    monkeypatch.setattr(time, "sleep", waits.append)
    no_count = [Shown(0, TIMER), Shown(0, CAUGHT)]
    window = Window([no_count])
    count = MineCount()
    assert [count.read(window.look, window.numbers_in, 256) for _ in range(5)] == [None] * 5
    assert window.reads == 2 and len(waits) == 1
