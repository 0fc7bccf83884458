"""Where a live game's time goes: wall time summed per stage of play."""

from __future__ import annotations

import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from contextlib import contextmanager

from vision.capture import Screen
from vision.geometry import Rect
from vision.skin import Image


class Stopwatch:
    """Wall time summed per stage of play (wait, capture, read, solver, click, log): where a live
    game's time goes. Cheap enough to run always; the live benchmark prints it."""

    def __init__(self) -> None:
        self.seconds: defaultdict[str, float] = defaultdict(float)
        self.counts: Counter[str] = Counter()
        self.times: dict[str, list[float]] = {}
        """Each timing of the stages :meth:`keep_times` named, in order (for a median)."""

    def keep_times(self, stage: str) -> None:
        """Keep each timing of ``stage`` from now on, not only their sum (a benchmark's choice:
        a bot left running would keep a growing list)."""
        self.times.setdefault(stage, [])

    @contextmanager
    def stage(self, name: str) -> Iterator[None]:
        started = time.perf_counter()
        try:
            yield
        finally:
            took = time.perf_counter() - started
            self.seconds[name] += took
            self.counts[name] += 1
            if name in self.times:
                self.times[name].append(took)


class TimedGrabber:
    """A grabber whose grabs count as the stopwatch's ``capture`` stage."""

    def __init__(self, grabber: Screen, stopwatch: Stopwatch) -> None:
        self._grabber = grabber
        self._stopwatch = stopwatch

    def grab(self, region: Rect | None = None) -> Image:
        with self._stopwatch.stage("capture"):
            return self._grabber.grab(region)
