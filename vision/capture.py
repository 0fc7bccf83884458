"""Screen capture with one long-lived mss handle (opening one per frame costs milliseconds).

Frames come back as BGR ``uint8`` arrays, the layout OpenCV and the skin's templates use.
"""

from __future__ import annotations

import contextlib
from types import TracebackType
from typing import Protocol

import cv2
import mss
import numpy as np

from vision.errors import CaptureError
from vision.geometry import Rect
from vision.skin import Image
from vision.stable import Grabber


class Screen(Grabber, Protocol):
    """What play captures through: a grabber that knows the screen's bounds (a
    :class:`ScreenGrabber`; a game drawn in memory stands in for one in tests)."""

    @property
    def screen(self) -> Rect: ...


class ScreenGrabber:
    """Grabs regions of the screen; use it as a context manager or call :meth:`close`."""

    def __init__(self, display: str | None = None) -> None:
        self._where = f"display {display}" if display else "the screen"
        try:
            self._mss = mss.MSS(display=display) if display else mss.MSS()
        except Exception as error:  # mss raises its own ScreenShotError or Xlib errors
            where = display or "the current DISPLAY"
            raise CaptureError(f"cannot open {where} for capture: {error}") from error
        virtual = self._mss.monitors[0]
        self.screen = Rect(virtual["left"], virtual["top"], virtual["width"], virtual["height"])
        """The whole virtual screen (every monitor)."""

    def grab(self, region: Rect | None = None) -> Image:
        """A BGR copy of ``region`` (default: the whole screen); it must lie on the screen."""
        region = region or self.screen
        if region.width <= 0 or region.height <= 0 or not self.screen.contains_rect(region):
            raise CaptureError(f"cannot capture {region}: not inside the screen {self.screen}")
        try:
            shot = self._mss.grab(region.as_monitor())
        except Exception as error:  # mss's own, Xlib's, or a bare AssertionError (display gone)
            raise CaptureError(
                f"cannot capture {region} on {self._where}: {_described(error)}"
            ) from error
        bgra = np.frombuffer(shot.raw, dtype=np.uint8).reshape(shot.height, shot.width, 4)
        return np.asarray(cv2.cvtColor(bgra, cv2.COLOR_BGRA2BGR), dtype=np.uint8)

    def close(self) -> None:
        """Let the capture go; one whose display went away raises nothing (its grab did)."""
        with contextlib.suppress(Exception):
            self._mss.close()

    def __enter__(self) -> ScreenGrabber:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()


def _described(error: Exception) -> str:
    """An error as one line, its type when it says nothing (mss's assertions)."""
    return str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
