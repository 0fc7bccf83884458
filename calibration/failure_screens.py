"""The screens of the moment calibration failed, saved for the user to look at.

A calibration error says in words what was seen; on a program nobody here has met, the words
may be wrong, and the pictures settle it. Every capture calibration makes goes through a
:class:`Witness`, which keeps the last capture of each screen region made between the last two
clicks (or key presses) and since the last: what the failing judgement looked at. When calibration
raises, they are saved as PNG files in a new folder, and the error names it
(:attr:`calibration.errors.CalibrationError.screens`).
"""

from __future__ import annotations

import logging
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import cv2

from calibration.errors import CalibrationError
from calibration.pointer import Pointer
from solver.errors import AutosweeperError
from vision.geometry import Rect
from vision.skin import Image
from vision.stable import Grabber

FOLDER_PREFIX = "autosweeper-calibration-"
PARENT: Path | None = None
"""Where the folders of failure screens are made (None: the system's temporary folder)."""
log = logging.getLogger(__name__)


class Witness:
    """A pointer and a grabber that pass everything on to the real ones, keeping the latest
    capture of each region made before the last click or key press (since the one before it),
    and those made since."""

    def __init__(self, pointer: Pointer, grabber: Grabber) -> None:
        self._pointer = pointer
        self._grabber = grabber
        self.before: dict[Rect | None, Image] = {}
        """The last capture of each region between the last two clicks (None: the whole
        screen)."""
        self.since: dict[Rect | None, Image] = {}
        """The last capture of each region since the last click."""
        self.last_action: str | None = None
        """The last click or key press, as the files' names say it (None: none yet)."""

    def grab(self, region: Rect | None = None) -> Image:
        frame = self._grabber.grab(region)
        self.since[region] = frame
        return frame

    def click(self, x: int, y: int, button: str = "left") -> None:
        self._acting(f"{button}-click-at-{x},{y}")
        self._pointer.click(x, y, button)

    def press(self, key: str, x: int, y: int) -> None:
        self._acting(f"{key}-pressed-at-{x},{y}")
        self._pointer.press(key, x, y)

    def move(self, x: int, y: int) -> None:
        self._pointer.move(x, y)

    def close_dialogs(self) -> int:
        """Close the game's dialogs; one that stays open (an error of the layer that closes
        them) stops calibration as its own errors do, so its screens are saved too."""
        try:
            return self._pointer.close_dialogs()
        except CalibrationError:
            raise
        except AutosweeperError as error:
            raise CalibrationError(str(error)) from error

    def _acting(self, action: str) -> None:
        """A click or key press is about to be sent: what was seen so far is "before" it."""
        self.before, self.since = self.since, {}
        self.last_action = action

    def save(self) -> Path:
        """Save the captures kept as PNG files in a new folder, and return the folder. Each
        file is named by when it was taken, the last action and the region (screen pixels)."""
        folder = Path(tempfile.mkdtemp(prefix=FOLDER_PREFIX, dir=PARENT))
        action = self.last_action or "any-click"
        groups = [("before", self.before), ("after" if self.last_action else "before", self.since)]
        for when, frames in groups:
            for region, frame in frames.items():
                where = "screen" if region is None else f"{region.width}x{region.height}"
                at = "" if region is None else f"-at-{region.left},{region.top}"
                path = folder / f"{when}-{action}-{where}{at}.png"
                if not cv2.imwrite(str(path), frame):
                    raise OSError(f"could not write {path}")
        return folder


@contextmanager
def screens_kept_on_failure(pointer: Pointer, grabber: Grabber) -> Iterator[Witness]:
    """A :class:`Witness` of ``pointer`` and ``grabber`` to calibrate through; a
    :class:`CalibrationError` raised meanwhile names the folder its screens were saved in."""
    witness = Witness(pointer, grabber)
    try:
        yield witness
    except CalibrationError as error:
        if error.screens is None and (witness.before or witness.since):
            try:
                error.screens = witness.save()
            except OSError as failed:  # the error itself matters more than its pictures
                log.warning("the screens of the failure could not be saved: %s", failed)
        raise
