"""Calibration's errors, under the project's one root (the whole tree: :mod:`solver.errors`).

The family::

    CalibrationError            calibration cannot go on; says what was seen, and where
    ├── GridNotFoundError       the capture shows no repeating grid of tiles
    ├── UnknownAppearanceError  a cell shows a picture whose meaning is not learned yet
    ├── OutOfTimeError          a game played for something calibration can spare ran too long
    ├── PartialBoardError       the board found was part of the board
    └── FirstClickLostError     the first click changed every hidden cell: it may have lost
"""

from __future__ import annotations

from pathlib import Path

from solver.errors import AutosweeperError


class CalibrationError(AutosweeperError):
    """Calibration cannot go on; the message says what was seen, and where, and once they are
    saved, the folder of the screens of that moment (see :mod:`calibration.failure_screens`)."""

    screens: Path | None = None
    """The folder holding the screens the failing judgement was made on, once saved."""

    def __str__(self) -> str:
        message = super().__str__()
        if self.screens is None:
            return message
        return f"{message} (the screens of that moment: {self.screens})"


class UnknownAppearanceError(CalibrationError):
    """A cell shows a picture whose meaning has not been learned yet."""


class OutOfTimeError(CalibrationError):
    """A game played for something calibration can do without ran past its time."""


class PartialBoardError(CalibrationError):
    """A new game shows hidden tiles outside the board found at first: that was a part of the
    board (an opened edge, or a window not yet redrawn, hid the rest)."""


class GridNotFoundError(CalibrationError):
    """The capture shows no repeating tile grid; the message says what was looked for."""


class FirstClickLostError(CalibrationError):
    """The first click changed every hidden cell of the board found: it may have lost the game
    (a game that opens cells by itself on a new game protects no click after)."""
