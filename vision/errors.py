"""What can go wrong between the screen and a board; every message says what and where."""

from __future__ import annotations

from pathlib import Path

from solver import Cell


class VisionError(RuntimeError):
    """The screen does not show what the skin describes; nothing was guessed."""


class CaptureError(VisionError):
    """A region could not be captured (off the screen, or no display)."""


class BoardNotFoundError(VisionError):
    """No board of the skin was found where we looked."""


class UnreadableCellError(VisionError):
    """A cell matches no template well enough, or two templates about equally.

    ``crop_path`` is a PNG of the cell's tile image, saved so the user can see it (or add it to
    the skin).
    """

    def __init__(self, message: str, cell: Cell, crop_path: Path) -> None:
        super().__init__(message)
        self.cell = cell
        self.crop_path = crop_path


class UnreadableFaceError(VisionError):
    """The face button matches none of the skin's faces well enough; ``crop_path`` shows it."""

    def __init__(self, message: str, crop_path: Path) -> None:
        super().__init__(message)
        self.crop_path = crop_path


class UnstableFrameError(VisionError):
    """The board kept changing (or never changed) until the timeout."""
