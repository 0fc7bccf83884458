"""What can go wrong between the screen and a board; every message says what and where.

The family (the whole tree: :mod:`solver.errors`)::

    VisionError                 the screen does not show what the skin describes
    ├── CaptureError            a region that cannot be captured (off the screen, no display)
    ├── BoardNotFoundError      no board of the skin where it was looked for
    ├── UnreadableCellError     cells that match no template, or two about equally
    ├── UnreadableFaceError     a face that matches none of the skin's
    ├── UnstableFrameError      the board kept changing, or never changed
    ├── GeometryError           cell edges that describe no board
    └── SkinError               a skin folder missing, incomplete or malformed
"""

from __future__ import annotations

import reprlib
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from solver import Cell
from solver.errors import AutosweeperError

if TYPE_CHECKING:  # vision.geometry raises these errors itself
    from vision.geometry import Rect


_short = reprlib.Repr()
_short.maxstring = _short.maxother = 40


def shown(value: object) -> str:
    """``repr(value)`` cut short, for quoting untrusted data (a skin's fields) in a one-line
    message."""
    return _short.repr(value)


class VisionError(AutosweeperError):
    """The screen does not show what the skin describes; nothing was guessed."""


class CaptureError(VisionError):
    """A region could not be captured (off the screen, or no display)."""


class BoardNotFoundError(VisionError):
    """No board of the skin was found where we looked.

    ``blocks`` are the screen rectangles of blocks of tiles that would have been a board but for
    a few cells that match no tile: a tile lit under the pointer, or something over the board.
    """

    def __init__(self, message: str, blocks: Sequence[Rect] = ()) -> None:
        super().__init__(message)
        self.blocks = list(blocks)


class UnreadableCellError(VisionError):
    """Cells that match no template well enough, or two templates about equally.

    ``cell`` is the first of them (row by row) and ``crop_path`` a PNG of its tile image, saved
    so the user can see it (or add it to the skin). ``cells`` lists every unreadable cell: one
    tells of a tile the skin lacks, many of a window that moved, closed or was covered; ``of``
    is how many cells the board has (0: not told).
    """

    def __init__(
        self, message: str, cell: Cell, crop_path: Path, cells: tuple[Cell, ...] = (), of: int = 0
    ) -> None:
        super().__init__(message)
        self.cell = cell
        self.crop_path = crop_path
        self.cells = cells or (cell,)
        self.of = of

    @property
    def everywhere(self) -> bool:
        """Whether no cell of the board could be read."""
        return len(self.cells) == self.of


class UnreadableFaceError(VisionError):
    """The face button matches none of the skin's faces well enough; ``crop_path`` shows it."""

    def __init__(self, message: str, crop_path: Path) -> None:
        super().__init__(message)
        self.crop_path = crop_path


class UnstableFrameError(VisionError):
    """The board kept changing (or never changed) until the timeout."""


class GeometryError(VisionError, ValueError):
    """Cell edges that describe no board: the message says which axis and why."""


class SkinError(VisionError, ValueError):
    """A skin folder that is missing, incomplete or malformed. The message names the file."""
