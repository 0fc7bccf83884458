"""Calibration's error family, under the project's one root."""

from __future__ import annotations

from solver.errors import AutosweeperError


class CalibrationError(AutosweeperError):
    """Calibration cannot go on; the message says what was seen, and where."""


class UnknownAppearanceError(CalibrationError):
    """A cell shows a picture whose meaning has not been learned yet."""


class OutOfTimeError(CalibrationError):
    """A game played for something calibration can do without ran past its time."""


class PartialBoardError(CalibrationError):
    """A new game shows hidden tiles outside the board found at first: that was a part of the
    board (an opened edge, or a window not yet redrawn, hid the rest)."""
