"""Where a board sits on the screen: plain values with the arithmetic the controller needs.

All coordinates are screen pixels as mss and the mouse see them (the virtual screen spanning every
monitor, so ``left`` or ``top`` may be negative on a multi-monitor desktop).
"""

from __future__ import annotations

from dataclasses import dataclass

from solver import Cell


@dataclass(frozen=True)
class Rect:
    """A screen rectangle; ``right`` and ``bottom`` are exclusive."""

    left: int
    top: int
    width: int
    height: int

    @property
    def right(self) -> int:
        return self.left + self.width

    @property
    def bottom(self) -> int:
        return self.top + self.height

    @property
    def centre(self) -> tuple[int, int]:
        """The middle pixel (rounded towards the top left)."""
        return (self.left + self.width // 2, self.top + self.height // 2)

    def contains(self, x: int, y: int) -> bool:
        return self.left <= x < self.right and self.top <= y < self.bottom

    def contains_rect(self, other: Rect) -> bool:
        return (
            self.left <= other.left
            and self.top <= other.top
            and other.right <= self.right
            and other.bottom <= self.bottom
        )

    def union(self, other: Rect) -> Rect:
        """The smallest rectangle holding both."""
        left, top = min(self.left, other.left), min(self.top, other.top)
        right, bottom = max(self.right, other.right), max(self.bottom, other.bottom)
        return Rect(left, top, right - left, bottom - top)

    def intersection(self, other: Rect) -> Rect:
        """The part of this rectangle inside ``other`` (zero width or height when none is)."""
        left, top = max(self.left, other.left), max(self.top, other.top)
        right, bottom = min(self.right, other.right), min(self.bottom, other.bottom)
        return Rect(left, top, max(right - left, 0), max(bottom - top, 0))

    def as_monitor(self) -> dict[str, int]:
        """The form ``mss.MSS.grab`` takes."""
        return {"left": self.left, "top": self.top, "width": self.width, "height": self.height}


@dataclass(frozen=True)
class BoardGeometry:
    """A located board: the grid of cells and the face button, in screen pixels.

    ``left``/``top`` is the top-left corner of cell (0, 0)'s pitch box; cell (row, column) starts
    ``column * pitch[0]`` to the right and ``row * pitch[1]`` below it, and its tile image (what
    the skin's templates show) is the ``tile_size`` crop at that corner plus ``tile_offset``.
    """

    left: int
    top: int
    pitch: tuple[int, int]
    tile_size: tuple[int, int]
    tile_offset: tuple[int, int]
    rows: int
    columns: int
    face: Rect | None = None

    @property
    def shape(self) -> tuple[int, int]:
        return (self.rows, self.columns)

    def tile_rect(self, cell: Cell) -> Rect:
        """The tile image of ``cell``: the pixels compared against the skin's templates."""
        row, column = cell
        return Rect(
            self.left + column * self.pitch[0] + self.tile_offset[0],
            self.top + row * self.pitch[1] + self.tile_offset[1],
            self.tile_size[0],
            self.tile_size[1],
        )

    def cell_centre(self, cell: Cell) -> tuple[int, int]:
        """Where to click ``cell``: the middle of its tile image, away from grid lines and edges."""
        tile = self.tile_rect(cell)
        return tile.centre

    @property
    def rect(self) -> Rect:
        """The board on screen: every cell's pitch box and tile image (the region to capture)."""
        (pitch_x, pitch_y), (width, height), (dx, dy) = self.pitch, self.tile_size, self.tile_offset
        left = self.left + min(0, dx)
        top = self.top + min(0, dy)
        right = self.left + max(self.columns * pitch_x, (self.columns - 1) * pitch_x + dx + width)
        bottom = self.top + max(self.rows * pitch_y, (self.rows - 1) * pitch_y + dy + height)
        return Rect(left, top, right - left, bottom - top)

    def cell_at(self, x: int, y: int) -> Cell | None:
        """The cell whose pitch box holds screen point (x, y), or None off the grid."""
        column, row = (x - self.left) // self.pitch[0], (y - self.top) // self.pitch[1]
        if 0 <= row < self.rows and 0 <= column < self.columns:
            return (row, column)
        return None
