"""Waiting for the game to finish drawing before reading it.

Games animate or redraw slowly after a click; a frame read half-drawn is a wrong board. A frame
counts as settled when two consecutive grabs of the region, ``interval`` apart, are identical.
"""

from __future__ import annotations

import time
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
    interval: float = 0.015,
    timeout: float = 2.0,
    differs_from: Image | None = None,
) -> Image:
    """The first frame of ``region`` equal to the one grabbed ``interval`` seconds before it.

    With ``differs_from`` (the frame before a click) frames equal to it are not accepted, so a
    click the game has not drawn yet is waited for. Raises :class:`UnstableFrameError` after
    ``timeout`` seconds, naming the region.
    """
    deadline = time.monotonic() + timeout
    previous = grabber.grab(region)
    while True:
        time.sleep(interval)
        frame = grabber.grab(region)
        if np.array_equal(frame, previous) and (
            differs_from is None or not np.array_equal(frame, differs_from)
        ):
            return frame
        if time.monotonic() >= deadline:
            waited_for = (
                "to change from the frame before the click"
                if differs_from is not None and np.array_equal(frame, differs_from)
                else "to stop changing"
            )
            raise UnstableFrameError(
                f"the screen region {region} did not settle: waited {timeout:.2f} s for it "
                f"{waited_for} (frames compared every {interval * 1000:.0f} ms)"
            )
        previous = frame
