"""Finding a skin's board anywhere on the screen: its grid of cells and its face button.

Three steps, fast enough for a full 1280x1024 screen in tens of milliseconds:

1. *Anchor*: grey-level template matching of one distinctive tile (HIDDEN first, the tile a new
   game is full of) gives candidate positions, hence the grid's phase modulo the pitch. When no
   board lies on those phases (a won board has no hidden tile left, and the hidden tile's picture
   may nearly match opened cells a pixel off), the next distinctive tile is matched in turn.
2. *Lattice*: at each candidate phase the whole screen is cut into pitch-spaced tile images and
   read at once (:class:`vision.match.TemplateBank`): a cell is a *hit* when it shows a template
   for sure, a *strong* hit when that template is not plain (see :func:`vision.match.flatness`).
3. *Board*: the bounding box of the largest group of strong hits, which must be all hits. Plain
   tiles (an opened ZERO is often one colour) also match window backgrounds and a black desktop,
   so they never extend a board by themselves; an edge line of plain tiles is found only when the
   caller gives the board's ``shape``, and then only if exactly one placement fits.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from functools import partial

import cv2
import numpy as np
import numpy.typing as npt

from solver import Tile
from vision.capture import Screen
from vision.errors import BoardNotFoundError
from vision.geometry import BoardGeometry, Rect, Spacing, cell_images
from vision.match import TemplateBank, Verdict, flatness, nearest_per_label, tile_lattice
from vision.opened import OPENED_TILES, Cells, Mask, opened_beside_zeros
from vision.skin import Image, Skin

GREY_SLACK = 1.5
"""Grey distance is at most about 1.33 times the colour distance (BGR2GRAY's largest weight
0.587, times 3 channels, square-rooted); candidates use this bound so none is missed."""

PHASES_TRIED = 4
"""How many of the most frequent grid phases of the anchor's matches are examined."""

FACE_SEARCH_PITCHES = 8
"""How far above the board (in cell pitches) the face button is looked for."""


@dataclass(frozen=True)
class _Candidate:
    """A board found on one lattice: its cells in lattice units and its count of strong hits."""

    top: int
    left: int
    rows: int
    columns: int
    strong: int


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
    # A board left as a game ended may show pictures only a finished game draws.
    labels, pictures = zip(*skin.pictures(finished=True), strict=True)
    bank = TemplateBank(list(labels), list(pictures), skin.level_weight, skin.mask)
    plain = np.zeros(LABELS, dtype=bool)  # by tile value (see _judge)
    for tile in tiles:
        plain[tile] = flatness(skin.templates[tile], skin.mask) <= skin.threshold
    area = Rect(origin[0], origin[1], screen.shape[1], screen.shape[0])
    where = f"skin {skin.name!r} in the screen area {area}"
    tile_width, tile_height = skin.tile_size
    if screen.shape[0] < tile_height or screen.shape[1] < tile_width:
        raise BoardNotFoundError(f"no board of {where}: the area is smaller than one tile")

    distinctive = [
        tile for tile in tiles if flatness(skin.templates[tile], skin.mask) > skin.threshold
    ]
    uneven = skin.slack != (0, 0)
    best: tuple[_Candidate, tuple[int, int]] | None = None
    problems: list[str] = []
    blocks: list[Rect] = []
    tried: set[tuple[int, int]] = set()
    for phases in _anchor_phases(skin, screen, distinctive):
        for phase in phases:
            if phase in tried:
                continue
            tried.add(phase)
            hits, strong, distance = _read_lattice(skin, bank, plain, screen, phase)
            # An uneven board is walked out to its edges from one distinctive cell.
            found = (
                _strong_cell(hits, strong, distance)
                if uneven
                else _boards(hits, strong, shape, problems, blocks, phase, skin.pitch)
            )
            for candidate in found:
                if best is None or candidate.strong > best[0].strong:
                    best = (candidate, phase)
        if best is not None:
            break
    if not tried:
        raise BoardNotFoundError(
            f"no board of {where}: none of its distinctive tiles "
            f"({', '.join(tile.name for tile in distinctive) or 'none'})"
            f" appears within distance {skin.threshold:.3f}"
        )
    if best is None:
        why = "; ".join(problems) or (
            f"no cell reads for sure as a tile that is not plain, on any of the {len(tried)} "
            "grids where its distinctive tiles matched in grey"
        )
        raise BoardNotFoundError(f"no board of {where}: {why}", _on_screen(blocks, origin))

    candidate, (start_x, start_y) = best
    (pitch_x, pitch_y), (offset_x, offset_y) = skin.pitch, skin.tile_offset
    geometry = BoardGeometry(
        left=start_x + candidate.left * pitch_x - offset_x,
        top=start_y + candidate.top * pitch_y - offset_y,
        pitch=skin.pitch,
        tile_size=skin.tile_size,
        tile_offset=skin.tile_offset,
        rows=candidate.rows,
        columns=candidate.columns,
    )
    if uneven:
        try:
            geometry = _walk_out(skin, bank, plain, screen, geometry, shape, where)
        except BoardNotFoundError as error:
            raise BoardNotFoundError(str(error), _on_screen(error.blocks, origin)) from None
    geometry = replace(geometry, left=geometry.left + origin[0], top=geometry.top + origin[1])
    if not skin.faces:
        return geometry
    return replace(geometry, face=_find_face(skin, screen, origin, geometry))


def _on_screen(blocks: list[Rect], origin: tuple[int, int]) -> list[Rect]:
    """``blocks`` (areas of a capture) where they are on the screen (the capture's top-left
    at ``origin``)."""
    return [
        replace(block, left=block.left + origin[0], top=block.top + origin[1]) for block in blocks
    ]


def _anchor_phases(
    skin: Skin, screen: Image, distinctive: list[Tile]
) -> Iterator[list[tuple[int, int]]]:
    """Grid phases (tile x mod pitch, tile y mod pitch) where each anchor tile that is found
    sits, the best first, one tile at a time (HIDDEN first, then the least plain)."""
    grey = cv2.cvtColor(screen, cv2.COLOR_BGR2GRAY)
    order = sorted(
        distinctive, key=lambda tile: (tile != Tile.HIDDEN, -flatness(skin.templates[tile]))
    )
    neighbourhood = np.ones((skin.pitch[1], skin.pitch[0]), dtype=np.uint8)
    for tile in order:
        template = cv2.cvtColor(skin.templates[tile], cv2.COLOR_BGR2GRAY)
        limit = (GREY_SLACK * skin.threshold * 255 + 1) ** 2 * template.size
        squared = cv2.matchTemplate(grey, template, cv2.TM_SQDIFF)
        # Only the best position within a pitch counts: a near-miss shifted by a pixel or two
        # from a real tile would otherwise vote for a wrong phase.
        best_nearby = squared == cv2.erode(squared, neighbourhood)
        ys, xs = np.nonzero(best_nearby & (squared <= limit))
        if len(xs):
            # The phases of the closest matches first: on a plain background of a colour near
            # the tile's grey, near-misses can outnumber a small board's real tiles.
            closest: dict[tuple[int, int], float] = {}
            distances = squared[ys, xs].tolist()
            for x, y, distance in zip(xs.tolist(), ys.tolist(), distances, strict=True):
                phase = (x % skin.pitch[0], y % skin.pitch[1])
                closest[phase] = min(distance, closest.get(phase, math.inf))
            yield sorted(closest, key=closest.__getitem__)[:PHASES_TRIED]


def _read_lattice(
    skin: Skin, bank: TemplateBank[Tile], plain: Mask, screen: Image, phase: tuple[int, int]
) -> tuple[Mask, Mask, npt.NDArray[np.float32]]:
    """Read every pitch-spaced tile image from ``phase`` (the first tile's x, y): hits, strong,
    and each image's distance to the tile it reads as."""
    (pitch_x, pitch_y), (width, height) = skin.pitch, skin.tile_size
    start_x, start_y = phase
    columns = (screen.shape[1] - start_x - width) // pitch_x + 1
    rows = (screen.shape[0] - start_y - height) // pitch_y + 1
    if rows < 1 or columns < 1:
        empty = np.zeros((0, 0), dtype=bool)
        return empty, empty, np.zeros((0, 0), dtype=np.float32)
    lattice = tile_lattice(screen, phase, skin.pitch, skin.tile_size, (rows, columns))
    verdict = _judge(skin, bank, lattice)
    best, distance = verdict.best.copy(), verdict.best_distance.copy()

    def judge(cells: Cells) -> tuple[Mask, Mask]:
        rows, columns = cells.T
        again = _judge(skin, bank, lattice[rows, columns], only=OPENED_TILES)
        sure = again.accepted
        best[rows[sure], columns[sure]] = again.best[sure]
        distance[rows[sure], columns[sure]] = again.best_distance[sure]
        return sure, again.best == Tile.ZERO

    zeros = verdict.accepted & (verdict.best == Tile.ZERO)
    hits = opened_beside_zeros(verdict.accepted, zeros, judge)
    return hits, hits & ~plain[best], distance


LABELS = max(Tile) + 1


def _judge(
    skin: Skin,
    bank: TemplateBank[Tile],
    images: npt.NDArray[np.uint8],
    only: Mask | None = None,
) -> Verdict:
    """The skin's verdict on ``images``, its best pick a tile value: a tile's pictures for
    every size class (see :meth:`vision.skin.Skin.pictures`) count as one. ``only``: by tile
    value, the tiles the images may show (default: all)."""
    tiles = [tile for tile, _ in skin.pictures(finished=True)]
    distances = nearest_per_label(bank.distances(images), tiles, LABELS)
    if only is not None:
        distances[..., ~only] = np.inf
    return bank.judge(distances, skin.threshold)


def _boards(
    hits: Mask,
    strong: Mask,
    shape: tuple[int, int] | None,
    problems: list[str],
    blocks: list[Rect],
    start: tuple[int, int],
    pitch: tuple[int, int],
) -> list[_Candidate]:
    """Board rectangles on one lattice; why others were rejected is appended to ``problems``,
    and blocks that are no rectangle only for cells matching nothing to ``blocks`` (as areas of
    ``screen``)."""
    count, labels = cv2.connectedComponents(hits.astype(np.uint8), connectivity=4)
    found = []
    for label in range(1, count):
        group = (labels == label) & strong
        if not group.any():
            continue
        rows, columns = np.nonzero(group)
        top, left = int(rows.min()), int(columns.min())
        bottom, right = int(rows.max()) + 1, int(columns.max()) + 1
        at = f"the tiles at screen x {start[0] + left * pitch[0]}, y {start[1] + top * pitch[1]}"
        missing = np.argwhere(~hits[top:bottom, left:right])
        if len(missing):
            row, column = missing[0]
            blocks.append(
                Rect(
                    start[0] + left * pitch[0],
                    start[1] + top * pitch[1],
                    (right - left) * pitch[0],
                    (bottom - top) * pitch[1],
                )
            )
            problems.append(
                f"{at} form no rectangle: lattice cell (row {row}, column {column}) of the "
                f"{bottom - top}x{right - left} block matches no template for sure"
            )
            continue
        box = _Candidate(top, left, bottom - top, right - left, int(group.sum()))
        fitted = box if shape is None else _fit(hits, box, shape, problems, at)
        if fitted is not None:
            found.append(fitted)
    if not found and not problems:
        problems.append("only plain tiles matched, which cannot show where a board is")
    return found


def _fit(
    hits: Mask, box: _Candidate, shape: tuple[int, int], problems: list[str], at: str
) -> _Candidate | None:
    """The one all-hit ``shape`` rectangle holding ``box``, or None (and why) if not exactly one."""
    rows, columns = shape
    if box.rows > rows or box.columns > columns:
        problems.append(f"{at} form a {box.rows}x{box.columns} board, larger than {rows}x{columns}")
        return None
    sums = np.pad(hits.astype(np.int32).cumsum(0).cumsum(1), ((1, 0), (1, 0)))
    fits = [
        (top, left)
        for top in range(max(0, box.top + box.rows - rows), box.top + 1)
        for left in range(max(0, box.left + box.columns - columns), box.left + 1)
        if top + rows <= hits.shape[0]
        and left + columns <= hits.shape[1]
        and sums[top + rows, left + columns]
        - sums[top, left + columns]
        - sums[top + rows, left]
        + sums[top, left]
        == rows * columns
    ]
    if len(fits) == 1:
        top, left = fits[0]
        return _Candidate(top, left, rows, columns, box.strong)
    problems.append(
        f"{at} ({box.rows}x{box.columns} distinctive cells) "
        + ("fit no" if not fits else f"fit {len(fits)} different")
        + f" {rows}x{columns} boards of readable cells"
    )
    return None


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
    rows, columns = _shape_of(edges)
    if shape is not None and (rows, columns) != shape:
        # The walk stops at a cell that matches nothing: the block around what it found holds
        # that cell (a tile lit under the pointer stops it there).
        (pitch_x, pitch_y), (xs, ys) = skin.pitch, edges
        around = Rect(
            xs[0] - pitch_x,
            ys[0] - pitch_y,
            xs[-1] - xs[0] + 2 * pitch_x,
            ys[-1] - ys[0] + 2 * pitch_y,
        )
        raise BoardNotFoundError(
            f"no board of {where}: the cells at screen x {edges[0][0]}, y {edges[1][0]} form a "
            f"{rows}x{columns} board, not {shape[0]}x{shape[1]}",
            [around],
        )
    return replace(
        found,
        left=edges[0][0],
        top=edges[1][0],
        rows=rows,
        columns=columns,
        edges=tuple(tuple(edge - axis[0] for edge in axis) for axis in edges),  # type: ignore[arg-type]
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


def _strong_cell(hits: Mask, strong: Mask, distance: npt.NDArray[np.float32]) -> list[_Candidate]:
    """The distinctive cell nearest its tile (``distance``) of the largest group of cells read
    for sure, as a one-cell board whose ``strong`` counts that group (none when no cell is
    distinctive). Nearest, because a tile with little detail still reads for sure a few pixels
    off its cell (gnome-mines' opened 0, its rounded square on the window's ground), and a walk
    started there sets the cells around it off by as much."""
    count, labels = cv2.connectedComponents(hits.astype(np.uint8), connectivity=4)
    sizes = [
        int((labels == label).sum()) if (strong & (labels == label)).any() else 0
        for label in range(1, count)
    ]
    if not sizes or max(sizes) == 0:
        return []
    label = 1 + sizes.index(max(sizes))
    group = strong & (labels == label)
    row, column = np.unravel_index(np.argmin(np.where(group, distance, np.inf)), group.shape)
    return [_Candidate(int(row), int(column), 1, 1, max(sizes))]


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
    verdict = _judge(skin, bank, images)
    if not verdict.accepted.all() or (need_distinctive and plain[verdict.best].all()):
        return math.inf
    return float(verdict.best_distance.mean())
