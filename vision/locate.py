"""Finding a skin's board anywhere on the screen: its grid of cells and its face button.

Fast enough for a full 1280x1024 screen in tens of milliseconds. The board is searched for on
pitch-spaced lattices of the screen (:mod:`vision.lattice`: one distinctive tile matched in grey
gives the grid's phase, each lattice's tile images are read at once, and its hits form boards),
and the board with the most distinctive cells is kept. A board whose cells are not all one size
(:attr:`vision.skin.Skin.slack`) is then walked out to its edges, a column or row of cells up to
the slack wider than the pitch at a time, from its one distinctive cell nearest a tile
(:func:`walk_edges`). Last, the face button is looked for in a band above the board.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import partial

import cv2
import numpy as np

from solver import Tile
from vision.capture import Screen
from vision.errors import BoardNotFoundError
from vision.geometry import BoardGeometry, Rect, Spacing, cell_images
from vision.lattice import (
    LABELS,
    Candidate,
    anchor_phases,
    boards,
    judge_tiles,
    read_lattice,
    strong_cell,
)
from vision.match import TemplateBank, flatness
from vision.opened import Mask
from vision.skin import Image, Skin

FACE_SEARCH_PITCHES = 8
"""How far above the board (in cell pitches) the face button is looked for."""


def locate_on_screen(
    grabber: Screen, skin: Skin, shape: tuple[int, int] | None = None
) -> BoardGeometry:
    """Capture the whole screen and :func:`locate` the board of ``skin`` on it."""
    screen = grabber.grab()
    return locate(skin, screen, origin=(grabber.screen.left, grabber.screen.top), shape=shape)


def locate(
    skin: Skin,
    screen: Image,
    origin: tuple[int, int] = (0, 0),
    shape: tuple[int, int] | None = None,
) -> BoardGeometry:
    """The board of ``skin`` in ``screen`` (a BGR capture whose top-left is screen ``origin``).

    ``shape`` (rows, columns), when known, is required of the board and lets edge lines of plain
    tiles be included. Raises :class:`BoardNotFoundError` naming the skin and the area searched.
    """
    tiles = sorted(skin.templates)
    if not tiles:
        raise BoardNotFoundError(f"skin {skin.name!r} has no tile templates to look for")
    bank, plain = _tile_bank(skin, tiles)
    area = Rect(origin[0], origin[1], screen.shape[1], screen.shape[0])
    where = f"skin {skin.name!r} in the screen area {area}"
    tile_width, tile_height = skin.tile_size
    if screen.shape[0] < tile_height or screen.shape[1] < tile_width:
        raise BoardNotFoundError(f"no board of {where}: the area is smaller than one tile")

    distinctive = [
        tile for tile in tiles if flatness(skin.templates[tile], skin.mask) > skin.threshold
    ]
    best, tried, problems, blocks = _search(skin, bank, plain, screen, distinctive, shape)
    if best is None:
        raise _not_found(skin, where, distinctive, tried, problems, _on_screen(blocks, origin))
    geometry = _lattice_board(skin, *best)
    if skin.slack != (0, 0):
        try:
            geometry = _walk_out(skin, bank, plain, screen, geometry, shape, where)
        except BoardNotFoundError as error:
            raise BoardNotFoundError(str(error), _on_screen(error.blocks, origin)) from None
    geometry = replace(geometry, left=geometry.left + origin[0], top=geometry.top + origin[1])
    if not skin.faces:
        return geometry
    return replace(geometry, face=_find_face(skin, screen, origin, geometry))


def _tile_bank(skin: Skin, tiles: list[Tile]) -> tuple[TemplateBank[Tile], Mask]:
    """The bank of every picture of ``skin`` (its ``tiles``' templates first), and by tile value
    (see :func:`vision.lattice.judge_tiles`) whether the tile is plain."""
    # A board left as a game ended may show pictures only a finished game draws.
    labels, pictures = zip(*skin.pictures(finished=True), strict=True)
    bank = TemplateBank(list(labels), list(pictures), skin.level_weight, skin.mask)
    plain = np.zeros(LABELS, dtype=bool)
    for tile in tiles:
        plain[tile] = flatness(skin.templates[tile], skin.mask) <= skin.threshold
    return bank, plain


def _search(
    skin: Skin,
    bank: TemplateBank[Tile],
    plain: Mask,
    screen: Image,
    distinctive: list[Tile],
    shape: tuple[int, int] | None,
) -> tuple[tuple[Candidate, tuple[int, int]] | None, set[tuple[int, int]], list[str], list[Rect]]:
    """The board with the most strong hits on the lattices of the first anchor tile that gives
    any, with its lattice's phase (None if none); the phases tried; and why boards were refused,
    with the blocks that are no rectangle only for cells matching nothing (see
    :func:`vision.lattice.boards`)."""
    uneven = skin.slack != (0, 0)
    best: tuple[Candidate, tuple[int, int]] | None = None
    problems: list[str] = []
    blocks: list[Rect] = []
    tried: set[tuple[int, int]] = set()
    for phases in anchor_phases(skin, screen, distinctive):
        for phase in phases:
            if phase in tried:
                continue
            tried.add(phase)
            hits, strong, distance = read_lattice(skin, bank, plain, screen, phase)
            # An uneven board is walked out to its edges from one distinctive cell.
            found = (
                strong_cell(hits, strong, distance)
                if uneven
                else boards(hits, strong, shape, problems, blocks, phase, skin.pitch)
            )
            for candidate in found:
                if best is None or candidate.strong > best[0].strong:
                    best = (candidate, phase)
        if best is not None:
            break
    return best, tried, problems, blocks


def _not_found(
    skin: Skin,
    where: str,
    distinctive: list[Tile],
    tried: set[tuple[int, int]],
    problems: list[str],
    blocks: list[Rect],
) -> BoardNotFoundError:
    """Why no board of ``skin`` was found ``where`` (see :func:`_search`)."""
    if not tried:
        return BoardNotFoundError(
            f"no board of {where}: none of its distinctive tiles "
            f"({', '.join(tile.name for tile in distinctive) or 'none'})"
            f" appears within distance {skin.threshold:.3f}"
        )
    why = "; ".join(problems) or (
        f"no cell reads for sure as a tile that is not plain, on any of the {len(tried)} "
        "grids where its distinctive tiles matched in grey"
    )
    return BoardNotFoundError(f"no board of {where}: {why}", blocks)


def _lattice_board(skin: Skin, candidate: Candidate, phase: tuple[int, int]) -> BoardGeometry:
    """The board ``candidate`` of the lattice at ``phase``, in pixels of the capture."""
    start_x, start_y = phase
    (pitch_x, pitch_y), (offset_x, offset_y) = skin.pitch, skin.tile_offset
    return BoardGeometry(
        left=start_x + candidate.left * pitch_x - offset_x,
        top=start_y + candidate.top * pitch_y - offset_y,
        pitch=skin.pitch,
        tile_size=skin.tile_size,
        tile_offset=skin.tile_offset,
        rows=candidate.rows,
        columns=candidate.columns,
    )


def _on_screen(blocks: list[Rect], origin: tuple[int, int]) -> list[Rect]:
    """``blocks`` (areas of a capture) where they are on the screen (the capture's top-left
    at ``origin``)."""
    return [
        replace(block, left=block.left + origin[0], top=block.top + origin[1]) for block in blocks
    ]


def _find_face(skin: Skin, screen: Image, origin: tuple[int, int], board: BoardGeometry) -> Rect:
    """The face button: the best match of any face image in a band above the board."""
    rect = board.rect
    pitch_x, pitch_y = skin.pitch
    left = max(0, rect.left - origin[0] - 2 * pitch_x)
    right = min(screen.shape[1], rect.right - origin[0] + 2 * pitch_x)
    top = max(0, rect.top - origin[1] - FACE_SEARCH_PITCHES * pitch_y)
    bottom = rect.top - origin[1]
    band = screen[top:bottom, left:right]
    best: tuple[float, int, int, str] | None = None
    for state, image in skin.faces.items():
        if band.shape[0] < image.shape[0] or band.shape[1] < image.shape[1]:
            continue
        squared = cv2.matchTemplate(band, image, cv2.TM_SQDIFF) / image.size
        _, _, (x, y), _ = cv2.minMaxLoc(squared)
        distance = float(np.sqrt(max(0.0, squared[y, x])) / 255)
        if best is None or distance < best[0]:
            best = (distance, x, y, state)
    band_rect = Rect(origin[0] + left, origin[1] + top, band.shape[1], band.shape[0])
    if best is None or best[0] > skin.threshold:
        nearest = "" if best is None else f" (nearest: {best[3]} at distance {best[0]:.3f})"
        raise BoardNotFoundError(
            f"skin {skin.name!r}: a board was found at {rect}, but none of the faces "
            f"{sorted(skin.faces)} in {band_rect} above it{nearest}"
        )
    _, x, y, state = best
    height, width = skin.faces[state].shape[:2]
    return Rect(band_rect.left + x, band_rect.top + y, width, height)


def walk_edges(
    fits: Callable[[int, int], float], first: Sequence[int], sizes: Sequence[int], limit: float
) -> list[int]:
    """Cell edges along one axis, grown both ways from the cells between the edges ``first``
    while a next cell fits.

    ``fits(start, size)`` is how far the cell of ``size`` pixels at ``start`` is from what a cell
    shows (infinite where there is none). The next cell is the size from ``sizes`` that fits
    within ``limit`` best, judged together with the cell beyond it: a plain cell fits several
    sizes equally, its neighbour only one.
    """
    edges = list(first)
    while (size := _next_size(fits, edges[-1], sizes, limit, 1)) is not None:
        edges.append(edges[-1] + size)
    while (size := _next_size(fits, edges[0], sizes, limit, -1)) is not None:
        edges.insert(0, edges[0] - size)
    return edges


def _next_size(
    fits: Callable[[int, int], float], edge: int, sizes: Sequence[int], limit: float, way: int
) -> int | None:
    """The size of the cell beside ``edge`` (after it for ``way`` 1, before it for -1)."""

    def fitting(at: int) -> dict[int, float]:
        found = {size: fits(at if way > 0 else at - size, size) for size in sizes}
        return {size: distance for size, distance in found.items() if distance <= limit}

    best: tuple[tuple[int, float], int] | None = None
    for size, distance in fitting(edge).items():
        beyond = fitting(edge + way * size)
        score = (0, distance + min(beyond.values())) if beyond else (1, distance)
        if best is None or score < best[0]:
            best = (score, size)
    return None if best is None else best[1]


def _walk_out(
    skin: Skin,
    bank: TemplateBank[Tile],
    plain: Mask,
    screen: Image,
    found: BoardGeometry,
    shape: tuple[int, int] | None,
    where: str,
) -> BoardGeometry:
    """The pitch-spaced board ``found`` (in ``screen`` pixels) grown a column or row at a time
    while one whose cells are up to ``skin.slack`` pixels wider reads as cells of the skin, with
    at least one distinctive tile; then, to reach ``shape``, lines of plain tiles too."""
    left, top = found.left, found.top
    edges = [
        [left + start for start in found.spacing[0].starts],
        [top + start for start in found.spacing[1].starts],
    ]
    if found.rows == found.columns == 1:
        # One cell read at the pitch's phase: on a wider cell it may be up to the slack off.
        edges = _closest_cell(skin, bank, plain, screen, edges)
    for need_distinctive in (True, False):
        if not need_distinctive and (shape is None or _shape_of(edges) == shape):
            break
        _grow(skin, bank, plain, screen, edges, shape, need_distinctive)
    rows, columns = _shape_of(edges)
    if shape is not None and (rows, columns) != shape:
        raise _not_the_shape(skin, edges, shape, where)
    return replace(
        found,
        left=edges[0][0],
        top=edges[1][0],
        rows=rows,
        columns=columns,
        edges=tuple(tuple(edge - axis[0] for edge in axis) for axis in edges),  # type: ignore[arg-type]
    )


def _grow(
    skin: Skin,
    bank: TemplateBank[Tile],
    plain: Mask,
    screen: Image,
    edges: list[list[int]],
    shape: tuple[int, int] | None,
    need_distinctive: bool,
) -> None:
    """Grow the board of cell ``edges`` (in place) a column or row at a time while the new line
    reads as cells of the skin: with ``need_distinctive``, kept only up to the last line that
    holds a distinctive tile; without, lines of plain tiles too, but never past ``shape``."""
    # Each axis in turn until neither grows: a longer line is likelier to hold a
    # distinctive cell, so growing along one axis can let the other grow again.
    grown, axis = 0, 0
    while grown < 2:
        before = list(edges[axis])

        def fits(
            start: int,
            size: int,
            axis: int = axis,
            need: bool = False,
            limited: bool = not need_distinctive,
        ) -> float:
            full = shape is not None and len(edges[axis]) - 1 >= shape[1 - axis]
            if full and limited:
                return math.inf
            return _line_distance(skin, bank, plain, screen, edges, axis, (start, size), need)

        sizes = range(skin.pitch[axis], skin.pitch[axis] + skin.slack[axis] + 1)
        walked = walk_edges(fits, before, sizes, skin.threshold)
        if need_distinctive:
            # Lines of plain tiles only (which a plain background also shows) are crossed
            # but kept only inside the board: it ends at its last distinctive line.
            walked = _trimmed(walked, before, partial(fits, need=True))
        edges[axis] = walked
        grown = 0 if len(walked) > len(before) else grown + 1
        axis = 1 - axis


def _not_the_shape(
    skin: Skin, edges: list[list[int]], shape: tuple[int, int], where: str
) -> BoardNotFoundError:
    """Why the board a walk found (its cell ``edges``) is not the ``shape`` asked for."""
    rows, columns = _shape_of(edges)
    # The walk stops at a cell that matches nothing: the block around what it found holds
    # that cell (a tile lit under the pointer stops it there).
    (pitch_x, pitch_y), (xs, ys) = skin.pitch, edges
    around = Rect(
        xs[0] - pitch_x,
        ys[0] - pitch_y,
        xs[-1] - xs[0] + 2 * pitch_x,
        ys[-1] - ys[0] + 2 * pitch_y,
    )
    return BoardNotFoundError(
        f"no board of {where}: the cells at screen x {edges[0][0]}, y {edges[1][0]} form a "
        f"{rows}x{columns} board, not {shape[0]}x{shape[1]}",
        [around],
    )


def _trimmed(
    walked: list[int], before: list[int], distinctive: Callable[[int, int], float]
) -> list[int]:
    """``walked`` (cell edges grown from ``before``) without the cells grown past the last one,
    on each side, for which ``distinctive(start, size)`` is finite."""
    first, last = walked.index(before[0]), walked.index(before[-1])
    for index in range(len(walked) - 1, last, -1):
        if math.isfinite(distinctive(walked[index - 1], walked[index] - walked[index - 1])):
            last = index
            break
    for index in range(first):
        if math.isfinite(distinctive(walked[index], walked[index + 1] - walked[index])):
            first = index
            break
    return walked[first : last + 1]


def _closest_cell(
    skin: Skin, bank: TemplateBank[Tile], plain: Mask, screen: Image, edges: list[list[int]]
) -> list[list[int]]:
    """The edges of the one cell ``edges``, moved and widened by up to ``skin.slack`` pixels to
    where its picture is nearest a tile of the skin."""
    (x, _), (y, _) = edges
    (slack_x, slack_y), (pitch_x, pitch_y) = skin.slack, skin.pitch
    best: tuple[float, list[list[int]]] = (math.inf, edges)
    for left in range(x - slack_x, x + slack_x + 1):
        for width in range(pitch_x, pitch_x + slack_x + 1):
            for top in range(y - slack_y, y + slack_y + 1):
                for height in range(pitch_y, pitch_y + slack_y + 1):
                    cell = [[left, left + width], [top, top + height]]
                    distance = _line_distance(
                        skin, bank, plain, screen, cell, 0, (left, width), False
                    )
                    if distance < best[0]:
                        best = (distance, cell)
    return best[1]


def _shape_of(edges: list[list[int]]) -> tuple[int, int]:
    return len(edges[1]) - 1, len(edges[0]) - 1


def _line_distance(
    skin: Skin,
    bank: TemplateBank[Tile],
    plain: Mask,
    screen: Image,
    edges: list[list[int]],
    axis: int,
    cell: tuple[int, int],
    need_distinctive: bool,
) -> float:
    """The mean distance of the cells of a new column (``axis`` 0) or row (1) of ``cell``'s
    start and size, beside the board of ``edges``, to the skin's tiles; infinite unless each
    shows one for sure (and, with ``need_distinctive``, one of them is not plain)."""
    start, size = cell
    line = [start, start + size]
    across = [list(line), edges[1]] if axis == 0 else [edges[0], list(line)]
    spacing = tuple(
        Spacing(tuple(edge - each[0] for edge in each), skin.pitch[index])
        for index, each in enumerate(across)
    )
    try:
        images = cell_images(
            screen,
            (across[0][0], across[1][0]),
            (spacing[0], spacing[1]),
            skin.tile_offset,
            skin.tile_size,
        )
    except ValueError:  # off the screen
        return math.inf
    verdict = judge_tiles(skin, bank, images)
    if not verdict.accepted.all() or (need_distinctive and plain[verdict.best].all()):
        return math.inf
    return float(verdict.best_distance.mean())
