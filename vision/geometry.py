"""Where a board sits on the screen: plain values with the arithmetic the controller needs.

All coordinates are screen pixels as mss and the mouse see them (the virtual screen spanning every
monitor, so ``left`` or ``top`` may be negative on a multi-monitor desktop).
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import numpy.typing as npt

from solver import Cell
from vision.errors import GeometryError
from vision.match import tile_gather, tile_lattice
from vision.skin import Image

Edges = tuple[tuple[int, ...], tuple[int, ...]]
"""Where each column and each row of cells starts, in pixels from the board's left or top, then
where the board ends: ``columns + 1`` and ``rows + 1`` numbers, the first 0."""


@dataclass(frozen=True)
class Spacing:
    """The cells along one axis of a board, and how each is cut into a picture of one size.

    Most games space cells evenly. Some (a grid stretched to its window) share leftover pixels
    out among the first cells, so cell sizes differ by a pixel or two and the wider cells are
    drawn a pixel wider in the middle. Every cell's picture is therefore ``cut`` pixels (the
    narrowest cell's size): its first ``half`` pixels from where it starts and the rest from where
    it ends, which gives a wide cell the same picture as a narrow one showing the same tile.
    """

    starts: tuple[int, ...]
    """Where each cell starts, then where the last ends (pixels from the first cell's start)."""
    cut: int

    def __post_init__(self) -> None:
        starts = self.starts
        if len(starts) < 2 or starts[0] != 0:
            raise GeometryError(f"cell edges {starts[:4]}... must start at 0 and hold a cell")
        narrowest = min(b - a for a, b in zip(starts, starts[1:], strict=False))
        if narrowest < self.cut or self.cut < 1:
            raise GeometryError(
                f"cell edges {starts[:4]}... hold a cell of {narrowest} px, narrower than the "
                f"{self.cut} px each cell is cut to"
            )

    @classmethod
    def even(cls, pitch: int, count: int) -> Spacing:
        """``count`` cells of ``pitch`` pixels each."""
        return cls(tuple(range(0, (count + 1) * pitch, pitch)), pitch)

    @property
    def count(self) -> int:
        return len(self.starts) - 1

    @property
    def length(self) -> int:
        """Pixels from the first cell's start to the last one's end."""
        return self.starts[-1]

    @property
    def half(self) -> int:
        """How many of a picture's pixels are taken from the cell's start."""
        return _half(self.cut)

    @cached_property
    def is_even(self) -> bool:
        return all(b - a == self.cut for a, b in zip(self.starts, self.starts[1:], strict=False))

    @cached_property
    def wide(self) -> npt.NDArray[np.bool_]:
        """Per cell, whether it is wider than :attr:`cut` (a game may draw a tile a little
        differently in a wider cell, see :func:`size_classes`)."""
        return np.diff(np.array(self.starts)) > self.cut

    def split(self, offset: int, size: int) -> int:
        """How many of the ``size`` pixels of a crop at ``offset`` in a cell's picture come from
        before the part a wide cell has in excess."""
        return min(max(self.half - offset, 0), size)

    def positions(self, offset: int, size: int) -> npt.NDArray[np.intp]:
        """(count, size): where, from the first cell's start, the ``size`` pixels of a crop at
        ``offset`` in each cell's picture are."""
        starts = np.array(self.starts)
        inside = np.arange(offset, offset + size)
        late = inside >= self.half
        excess = (starts[1:] - starts[:-1]) - self.cut
        return np.asarray(
            starts[:-1, None] + inside[None, :] + late[None, :] * excess[:, None], dtype=np.intp
        )

    def span(self, index: int, offset: int, size: int) -> tuple[int, int]:
        """The first pixel and the end of that crop in cell ``index`` (its excess included)."""
        start, end = self.starts[index], self.starts[index + 1]
        excess = end - start - self.cut
        first = start + offset + (excess if offset >= self.half else 0)
        last = start + offset + size - 1 + (excess if offset + size - 1 >= self.half else 0)
        return first, last + 1

    def cell_of(self, position: int) -> int | None:
        """The cell holding ``position`` (pixels from the first cell's start), None outside."""
        if not 0 <= position < self.length:
            return None
        return bisect_right(self.starts, position) - 1


def _half(cut: int) -> int:
    """How many of the ``cut`` pixels of a cell's picture :class:`Spacing` takes from its start."""
    return (cut + 1) // 2


def padded_sources(cut: int, excess: int) -> npt.NDArray[np.intp]:
    """(cut + 1, cut): for each place (0 to ``cut``) where a game may add a wide cell's
    ``excess`` pixels to a narrow cell's ``cut``, which pixel of the narrow cell's picture each
    pixel of the wide cell's picture shows (-1: an added one). :class:`Spacing` cuts the excess
    out of the middle, so both cells give one picture of a tile when the game adds it there (a
    toolkit widening a tile); a game that pads beside an edge instead (a toolkit's button) moves the
    pixels between the middle and the pad by ``excess``."""
    lines = np.arange(cut)
    widened = np.where(lines < _half(cut), lines, lines + excess)  # where each is in the cell
    places = np.arange(cut + 1)[:, None]
    return np.where(
        widened < places, widened, np.where(widened < places + excess, -1, widened - excess)
    )


def size_classes(along_x: Spacing, along_y: Spacing) -> npt.NDArray[np.uint8]:
    """(rows, columns): each cell's size class (see :data:`vision.skin.SIZE_CLASSES`). A game
    may draw one tile a little differently in a wider cell (its glyph falls on other pixels)."""
    return (along_x.wide[None, :].astype(np.uint8) + 2 * along_y.wide[:, None]).astype(np.uint8)


def join(image: Image, size: tuple[int, int], split: tuple[int, int]) -> Image:
    """``image`` (a capture of a wide cell's tile, see :meth:`BoardGeometry.tile_rect`) cut to
    ``size`` (width, height) by leaving out its middle: ``split`` pixels (x, y) are kept before
    the part left out, the rest from the end."""
    (width, height), (split_x, split_y) = size, split
    taken_x = np.r_[0:split_x, image.shape[1] - width + split_x : image.shape[1]]
    taken_y = np.r_[0:split_y, image.shape[0] - height + split_y : image.shape[0]]
    return image[taken_y][:, taken_x]


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

    @classmethod
    def around(cls, x: int, y: int, width: int, height: int) -> Rect:
        """The ``width`` x ``height`` rectangle whose :attr:`centre` is (``x``, ``y``)."""
        return cls(x - width // 2, y - height // 2, width, height)

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

    def overlaps(self, other: Rect) -> bool:
        """Whether the two rectangles share a pixel."""
        shared = self.intersection(other)
        return shared.width > 0 and shared.height > 0

    def as_monitor(self) -> dict[str, int]:
        """The form ``mss.MSS.grab`` takes."""
        return {"left": self.left, "top": self.top, "width": self.width, "height": self.height}


@dataclass(frozen=True)
class BoardGeometry:
    """A located board: the grid of cells and the face button, in screen pixels.

    ``left``/``top`` is the top-left corner of cell (0, 0)'s pitch box; cell (row, column) starts
    ``column * pitch[0]`` to the right and ``row * pitch[1]`` below it, and its tile image (what
    the skin's templates show) is the ``tile_size`` crop at that corner plus ``tile_offset``.

    A board whose cells are not all one size has ``edges`` (see :data:`Edges`): each cell is
    then cut to a ``pitch``-sized picture as :class:`Spacing` says, and its tile image is the
    crop of that picture.
    """

    left: int
    top: int
    pitch: tuple[int, int]
    tile_size: tuple[int, int]
    tile_offset: tuple[int, int]
    rows: int
    columns: int
    face: Rect | None = None
    edges: Edges | None = None

    def __post_init__(self) -> None:
        if self.edges is not None:
            self.spacing  # noqa: B018 (checks the edges)
            if (len(self.edges[0]) - 1, len(self.edges[1]) - 1) != (self.columns, self.rows):
                raise GeometryError(
                    f"edges for {len(self.edges[1]) - 1}x{len(self.edges[0]) - 1} cells on a "
                    f"{self.rows}x{self.columns} board"
                )

    @cached_property
    def spacing(self) -> tuple[Spacing, Spacing]:
        """The cells along x and along y."""
        if self.edges is None:
            return (
                Spacing.even(self.pitch[0], self.columns),
                Spacing.even(self.pitch[1], self.rows),
            )
        return (Spacing(self.edges[0], self.pitch[0]), Spacing(self.edges[1], self.pitch[1]))

    @cached_property
    def size_classes(self) -> npt.NDArray[np.uint8]:
        """(rows, columns): each cell's size class (see :func:`size_classes`)."""
        return size_classes(*self.spacing)

    @property
    def shape(self) -> tuple[int, int]:
        return (self.rows, self.columns)

    def tile_rect(self, cell: Cell) -> Rect:
        """The tile image of ``cell``: the pixels compared against the skin's templates (on a
        wide cell of an uneven board, with the cell's excess inside; :func:`join` cuts it)."""
        (row, column), (along_x, along_y) = cell, self.spacing
        left, right = along_x.span(column, self.tile_offset[0], self.tile_size[0])
        top, bottom = along_y.span(row, self.tile_offset[1], self.tile_size[1])
        return Rect(self.left + left, self.top + top, right - left, bottom - top)

    def tile_split(self) -> tuple[int, int]:
        """What :func:`join` needs to cut a capture of a :meth:`tile_rect` to the tile size."""
        (along_x, along_y), (dx, dy), (width, height) = (
            self.spacing,
            self.tile_offset,
            self.tile_size,
        )
        return (along_x.split(dx, width), along_y.split(dy, height))

    def tile_images(self, frame: Image, at: tuple[int, int]) -> npt.NDArray[np.uint8]:
        """(rows, columns, height, width, 3): every cell's tile image in ``frame``, a capture
        whose top-left pixel is screen point ``at``; a view when the cells are even."""
        left, top = self.left - at[0], self.top - at[1]
        return cell_images(frame, (left, top), self.spacing, self.tile_offset, self.tile_size)

    def tile_positions(
        self, at: tuple[int, int]
    ) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]:
        """Where :meth:`tile_images` takes each cell's tile image in a capture whose top-left
        pixel is screen point ``at`` (see :func:`cell_positions`)."""
        left, top = self.left - at[0], self.top - at[1]
        return cell_positions((left, top), self.spacing, self.tile_offset, self.tile_size)

    def cell_centre(self, cell: Cell) -> tuple[int, int]:
        """Where to click ``cell``: the middle of its tile image, away from grid lines and edges."""
        tile = self.tile_rect(cell)
        return tile.centre

    @property
    def rect(self) -> Rect:
        """The board on screen: every cell's pitch box and tile image (the region to capture)."""
        last = self.tile_rect((self.rows - 1, self.columns - 1))
        along_x, along_y = self.spacing
        left = self.left + min(0, self.tile_offset[0])
        top = self.top + min(0, self.tile_offset[1])
        right = max(self.left + along_x.length, last.right)
        bottom = max(self.top + along_y.length, last.bottom)
        return Rect(left, top, right - left, bottom - top)

    def cell_at(self, x: int, y: int) -> Cell | None:
        """The cell whose pitch box holds screen point (x, y), or None off the grid."""
        along_x, along_y = self.spacing
        column, row = along_x.cell_of(x - self.left), along_y.cell_of(y - self.top)
        if row is None or column is None:
            return None
        return (row, column)


def cell_images(
    image: Image,
    start: tuple[int, int],
    spacing: tuple[Spacing, Spacing],
    offset: tuple[int, int],
    size: tuple[int, int],
) -> npt.NDArray[np.uint8]:
    """(rows, columns, height, width, 3): the ``size`` crop at ``offset`` of every cell's
    picture, the first cell starting at pixel ``start`` (x, y) of ``image``. Even cells give a
    view of ``image`` (no copy); uneven ones a gathered copy. Raises ValueError unless every
    cell lies inside ``image``."""
    along_x, along_y = spacing
    if along_x.is_even and along_y.is_even:
        return tile_lattice(
            image,
            (start[0] + offset[0], start[1] + offset[1]),
            (along_x.cut, along_y.cut),
            size,
            (along_y.count, along_x.count),
        )
    return tile_gather(image, *cell_positions(start, spacing, offset, size))


def cell_positions(
    start: tuple[int, int],
    spacing: tuple[Spacing, Spacing],
    offset: tuple[int, int],
    size: tuple[int, int],
) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]:
    """Where :func:`cell_images` takes each cell's crop: (columns, width) x positions and
    (rows, height) y positions (see :func:`vision.match.tile_gather`)."""
    along_x, along_y = spacing
    return (
        start[0] + along_x.positions(offset[0], size[0]),
        start[1] + along_y.positions(offset[1], size[1]),
    )
