"""Where a live game's time goes: wall time summed per stage of play."""

from __future__ import annotations

import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from contextlib import contextmanager


class Stopwatch:
    """Wall time summed per stage of play (wait, capture, read, solver, click, log): where a live
    game's time goes. Cheap enough to run always; the live benchmark prints it."""

    def __init__(self) -> None:
        self.seconds: defaultdict[str, float] = defaultdict(float)
        self.counts: Counter[str] = Counter()

    @contextmanager
    def stage(self, name: str) -> Iterator[None]:
        started = time.perf_counter()
        try:
            yield
        finally:
            self.seconds[name] += time.perf_counter() - started
            self.counts[name] += 1
