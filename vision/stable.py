"""Waiting for the game to finish drawing before reading it.

Games animate or redraw slowly after a click; a frame read half-drawn is a wrong board. A frame
counts as settled when two consecutive grabs of the region, ``interval`` apart, are identical in
the watched parts (the board and the face: not the timer between them, which ticks every second).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Protocol

import numpy as np

from vision.errors import UnstableFrameError
from vision.geometry import Rect
from vision.skin import Image


class Grabber(Protocol):
    """Anything that captures a screen region as BGR (a :class:`vision.capture.ScreenGrabber`)."""

    def grab(self, region: Rect | None = None) -> Image: ...


def wait_stable(
    grabber: Grabber,
    region: Rect,
    *,
    watch: Sequence[Rect] = (),
    interval: float = 0.015,
    timeout: float = 2.0,
    differs_from: Image | None = None,
) -> Image:
    """The first frame of ``region`` equal to the one grabbed ``interval`` seconds before it.

    Only the ``watch`` rectangles (screen coordinates, inside ``region``; default all of it) are
    compared, for example :attr:`vision.read.BoardReader.watched`. With ``differs_from`` (the
    frame before a click) frames equal to it are not accepted, so a click the game has not drawn
    yet is waited for. Raises :class:`UnstableFrameError` after ``timeout`` seconds, naming the
    region.
    """
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
