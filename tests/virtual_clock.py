"""A clock for games drawn in memory, so their tests wait no real time.

A drawn game changes only when it is clicked or when its own clock says a pause is over, so
the waits of the code that plays it can pass at once: every ``sleep`` moves the clock on by
its length, and the game reads the same clock. What happens, and in which order, is what
real waits would give, without the minutes they cost.
"""

from __future__ import annotations

from types import ModuleType

import pytest

READING_STEP = 0.001
"""Seconds each reading of the clock moves it on, so that a loop that polls a deadline
without sleeping still reaches it."""


class VirtualClock:
    """Stands in for the :mod:`time` module where code waits (``sleep``, ``monotonic``,
    ``time``)."""

    def __init__(self, start: float = 1_000_000.0) -> None:
        self.now = start

    def sleep(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError("sleep length must be non-negative")
        self.now += seconds

    def monotonic(self) -> float:
        self.now += READING_STEP
        return self.now

    time = monotonic


def use_virtual_clock(monkeypatch: pytest.MonkeyPatch, *modules: ModuleType) -> VirtualClock:
    """One clock for ``modules`` (each one's ``time``) for the rest of the test."""
    clock = VirtualClock()
    for module in modules:
        monkeypatch.setattr(module, "time", clock)
    return clock
