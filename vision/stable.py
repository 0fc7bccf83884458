"""Waiting for the game to finish drawing before reading it.

Games animate or redraw slowly after a click; a frame read half-drawn is a wrong board. A frame
counts as settled when two consecutive grabs of the region, ``interval`` apart, are identical in
the watched parts (the board and the face: not the timer between them, which ticks every second).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Protocol

import numpy as np

from vision.errors import UnstableFrameError
from vision.geometry import Rect
from vision.skin import Image

STILL_TIMEOUT = 2.0
"""Seconds a look waits at most for the frame to hold still (or change, after a click)."""

SURE_INTERVAL = 0.015
"""Seconds a frame holds still to count as drawn when a game may animate what a click opens."""


class Grabber(Protocol):
    """Anything that captures a screen region as BGR (a :class:`vision.capture.ScreenGrabber`)."""

    def grab(self, region: Rect | None = None) -> Image: ...


def wait_stable(
    grabber: Grabber,
    region: Rect,
    *,
    watch: Sequence[Rect] = (),
    interval: float = SURE_INTERVAL,
    timeout: float = STILL_TIMEOUT,
    differs_from: Image | None = None,
) -> Image:
    """The first frame of ``region`` equal to the one grabbed ``interval`` seconds before it.

    Only the ``watch`` rectangles (screen coordinates, inside ``region``; default all of it) are
    compared, for example :attr:`vision.read.BoardReader.watched`. With ``differs_from`` (the
    frame before a click) frames equal to it are not accepted, so a click the game has not drawn
    yet is waited for. Raises :class:`UnstableFrameError` after ``timeout`` seconds, naming the
    region.
    """
    same = _comparer(region, watch)
    deadline = time.monotonic() + timeout
    previous = grabber.grab(region)
    while True:
        time.sleep(interval)
        frame = grabber.grab(region)
        unchanged = differs_from is not None and same(frame, differs_from)
        if same(frame, previous) and not unchanged:
            return frame
        if time.monotonic() >= deadline:
            waited_for = (
                "to change from the frame before the click" if unchanged else "to stop changing"
            )
            raise UnstableFrameError(
                f"the screen region {region} did not settle: waited {timeout:.2f} s for it "
                f"{waited_for} (frames compared every {interval * 1000:.0f} ms)"
            )
        previous = frame


def _comparer(region: Rect, watch: Sequence[Rect]) -> Callable[[Image, Image], bool]:
    """Whether two frames of ``region`` are alike in the ``watch`` rectangles (all of it if
    none)."""
    outside = [part for part in watch if not region.contains_rect(part)]
    if outside:
        raise ValueError(f"watched {outside[0]} is not inside the captured region {region}")
    parts = [
        (
            slice(part.top - region.top, part.bottom - region.top),
            slice(part.left - region.left, part.right - region.left),
        )
        for part in (watch or [region])
    ]

    def same(a: Image, b: Image) -> bool:
        return all(np.array_equal(a[part], b[part]) for part in parts)

    return same


QUICK_INTERVAL = 0.003
"""Seconds a frame holds still to count as drawn once the game is seen to draw each click in
one go: the wait after a burst is then a few milliseconds, not a few tens."""
TRIAL_LOOKS = 30
"""Boards read quickly and found still :data:`SURE_INTERVAL` later before the quick interval is
trusted without that check."""


class StillRule:
    """How long a frame must hold still to count as drawn after a click, learned on one game
    window.

    Most games draw what a click opens at once; some animate it (cells opened one by one, a
    fade), and a frame two captures alike mid-animation is a board half drawn. A game busy with
    queued clicks may also pause between two of them; that is no animation: the reader sees
    clicks not taken yet and reads again. So a board read after clicks is taken once still for
    :data:`QUICK_INTERVAL`, and, once it shows every click taken, checked (:meth:`confirm`) to be
    still so :data:`SURE_INTERVAL` later, :data:`TRIAL_LOOKS` times. One that changed by then
    says the game animates: every look from then on waits the sure interval, as all did before.
    Other looks (a new game, a re-read of a cell not readable) always wait the sure interval.

    A game calibration saw animate a ring of cells at a time, each ring some frames apart,
    holds still between two rings far longer than the sure interval: its skin gives the
    ``animation_still`` seconds a board must hold still to count as drawn, waited from the
    first look on.
    """

    def __init__(self, animation_still: float | None = None) -> None:
        self.trials = 0
        """Boards read quickly that held still for the sure interval too."""
        self.animates = animation_still is not None
        self.sure_interval = SURE_INTERVAL if animation_still is None else animation_still
        """Seconds a frame holds still to count as drawn, but for quick looks."""

    def wait(
        self,
        grabber: Grabber,
        region: Rect,
        *,
        watch: Sequence[Rect] = (),
        differs_from: Image | None = None,
        timeout: float = STILL_TIMEOUT,
    ) -> Image:
        """The frame of ``region`` once drawn (see :func:`wait_stable`, whose error it raises):
        after a click (``differs_from``, the frame before it) still for the quick interval
        unless the game animates."""
        quick = differs_from is not None and not self.animates
        return wait_stable(
            grabber,
            region,
            watch=watch,
            interval=QUICK_INTERVAL if quick else self.sure_interval,
            differs_from=differs_from,
            timeout=timeout,
        )

    def confirm(
        self, grabber: Grabber, region: Rect, frame: Image, watch: Sequence[Rect] = ()
    ) -> bool:
        """Whether ``frame`` (read quickly after clicks, showing each taken) is the board as
        drawn: while on trial, whether it is still so the sure interval later (if not, the game
        animates); after the trial, or for a game that animates, yes."""
        if self.animates or self.trials >= TRIAL_LOOKS:
            return True
        time.sleep(SURE_INTERVAL)
        if _comparer(region, watch)(frame, grabber.grab(region)):
            self.trials += 1
            return True
        self.animates = True
        return False
