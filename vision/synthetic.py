"""Synthetic skins and screens: known pixels, so tests and the benchmark can check reads exactly.

A skin's tiles look like a real game's: a raised HIDDEN tile with light and dark edges, a plain
one-colour ZERO (which, like real opened cells, also matches plain backgrounds), and glyph tiles
drawn on the opened colour. Boards are drawn with grid lines between tiles and a sunken frame.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import cv2
import numpy as np
import numpy.typing as npt

from solver import Tile
from solver.board import PICTURED_TILES
from vision.geometry import BoardGeometry, Edges, Rect
from vision.new_game import NewGame
from vision.skin import FACE_STATES, Image, Skin

GRID = (0, 0, 0)
OPENED = (180, 180, 180)
FACE_SIZE = 24

LAYOUTS: dict[int, tuple[int, int]] = {16: (15, 0), 21: (20, 0), 24: (22, 1)}
"""pitch -> (tile size, tile offset): 1 or 2 px of grid line between tiles, on one or both sides.
Another pitch has a 1 px line on both sides."""


def make_skin(pitch: int, seed: int = 0, name: str = "synthetic") -> Skin:
    """A skin with distinct tiles for every :class:`Tile` and three faces."""
    rng = np.random.default_rng(seed)
    size, offset = LAYOUTS.get(pitch, (pitch - 2, 1))
    templates: dict[Tile, Image] = {}
    for tile in PICTURED_TILES:
        image = np.empty((size, size, 3), dtype=np.uint8)
        image[:] = OPENED
        if tile == Tile.HIDDEN:
            image[:] = (200, 200, 200)
            image[:2, :] = image[:, :2] = (255, 255, 255)
            image[-2:, :] = image[:, -2:] = (120, 120, 120)
        elif tile != Tile.ZERO:
            glyph = rng.integers(0, 2, size=(5, 4), dtype=np.uint8).astype(bool)
            glyph[int(tile) % 5, int(tile) % 4] = True
            colour = rng.integers(0, 160, size=3)
            scale = max(1, size // 7)
            block = np.kron(glyph, np.ones((scale, scale), dtype=bool))
            top, left = (size - block.shape[0]) // 2, (size - block.shape[1]) // 2
            image[top : top + block.shape[0], left : left + block.shape[1]][block] = colour
        templates[tile] = image
    faces = {}
    for index, state in enumerate(FACE_STATES):
        face = np.full((FACE_SIZE, FACE_SIZE, 3), (0, 220, 230), dtype=np.uint8)
        face[6 + 4 * index : 10 + 4 * index, 4:20] = (0, 0, 0)
        faces[state] = face
    return Skin(
        name=name,
        pitch=(pitch, pitch),
        tile_size=(size, size),
        templates=templates,
        threshold=0.1,
        new_game=NewGame("face"),
        tile_offset=(offset, offset),
        faces=faces,
    )


def with_zero_near_hidden(skin: Skin) -> Skin:
    """``skin`` with a 0 that differs from its hidden tile in a few pixels only, twice the
    threshold away (a game whose 16-px opened 0 is its hidden tile drawn flat)."""
    hidden = skin.templates[Tile.HIDDEN].astype(float)
    step = np.random.default_rng(5).choice([-1.0, 1.0], size=hidden.shape)
    step *= 2 * skin.threshold * 255 / np.sqrt(np.mean(step**2))
    zero = np.clip(hidden + step, 0, 255).astype(np.uint8)
    return replace(skin, templates=skin.templates | {Tile.ZERO: zero})


@dataclass
class Scene:
    """A drawn screen and what is truly on it (the arrays are left out of reprs: too long)."""

    skin: Skin = field(repr=False)
    tiles: npt.NDArray[np.uint8] = field(repr=False)
    screen: Image = field(repr=False)
    geometry: BoardGeometry
    face: str | None
    """The face state drawn, if any."""


def per_size_numbers(skin: Skin) -> dict[int, dict[Tile, Image]]:
    """Per size class 1 to 3 (see :data:`vision.skin.SIZE_CLASSES`), each number of ``skin``
    drawn half a pixel moved along x, y or both, as a glyph antialiased onto other pixels in a
    wider cell: 0.03-0.13 from its narrow picture, further from any other tile."""
    moves = {1: (0, 1), 2: (1, 0), 3: (1, 1)}
    return {
        size_class: {
            tile: ((image.astype(np.uint16) + np.roll(image, move, axis=(0, 1))) // 2).astype(
                np.uint8
            )
            for tile, image in skin.templates.items()
            if tile.is_number
        }
        for size_class, move in moves.items()
    }


def draw(
    skin: Skin,
    tiles: npt.NDArray[np.uint8],
    at: tuple[int, int],
    screen_size: tuple[int, int] = (800, 600),
    background: tuple[int, int, int] = (90, 40, 20),
    face: str | None = "playing",
    edges: Edges | None = None,
    widened_at: int | None = None,
) -> Scene:
    """Draw the board ``tiles`` with its top-left pitch corner at ``at`` on a plain screen.

    A 3 px sunken frame surrounds the grid and the face sits centred 10 px above the frame.
    With ``edges`` (see :data:`vision.geometry.Edges`) cells wider than the pitch repeat their
    middle line, as a toolkit widens a flat tile, so each reads as its pitch-sized picture;
    a tile the skin has a variant of for the cell's size class is drawn as that variant. With
    ``widened_at`` they repeat the line before that one instead (a game that pads a button's
    picture on one side, as a toolkit's buttons may), so only tiles plain from the middle
    to there read as their pitch-sized pictures.
    """
    width, height = screen_size
    screen = np.empty((height, width, 3), dtype=np.uint8)
    screen[:] = background
    rows, columns = tiles.shape
    pitch = skin.pitch[0]
    size, offset = skin.tile_size[0], skin.tile_offset[0]
    starts = edges or (
        tuple(range(0, (columns + 1) * pitch, pitch)),
        tuple(range(0, (rows + 1) * pitch, pitch)),
    )
    left, top = at
    right, bottom = left + starts[0][-1], top + starts[1][-1]
    screen[top - 3 : bottom + 3, left - 3 : right + 3] = (128, 128, 128)
    widened = (pitch + 1) // 2 if widened_at is None else widened_at
    cell = np.empty((pitch, pitch, 3), dtype=np.uint8)
    for row in range(rows):
        y0, y1 = top + starts[1][row], top + starts[1][row + 1]
        taken_y = np.r_[0:widened, np.full(y1 - y0 - pitch, widened - 1), widened:pitch]
        for column in range(columns):
            x0, x1 = left + starts[0][column], left + starts[0][column + 1]
            taken_x = np.r_[0:widened, np.full(x1 - x0 - pitch, widened - 1), widened:pitch]
            cell[:] = GRID
            tile = Tile(int(tiles[row, column]))
            size_class = (x1 - x0 > pitch) + 2 * (y1 - y0 > pitch)
            drawn = skin.variants.get(size_class, {}).get(tile, skin.templates[tile])
            cell[offset : offset + size, offset : offset + size] = drawn
            screen[y0:y1, x0:x1] = cell[taken_y.astype(int)][:, taken_x.astype(int)]
    face_rect = None
    if face is not None:
        face_left, face_top = (left + right - FACE_SIZE) // 2, top - 13 - FACE_SIZE
        face_rect = Rect(face_left, face_top, FACE_SIZE, FACE_SIZE)
        screen[face_top : face_top + FACE_SIZE, face_left : face_left + FACE_SIZE] = skin.faces[
            face
        ]
    geometry = BoardGeometry(
        left, top, skin.pitch, skin.tile_size, skin.tile_offset, rows, columns, face_rect, edges
    )
    return Scene(skin, tiles, screen, geometry, face)


def veil_with_dialog(
    screen: Image, box: Rect, labels: tuple[str, ...], dim: float = 0.4
) -> dict[str, Rect]:
    """Dim ``screen`` (in place) to ``dim`` of itself and draw over it, in ``box``, a dialog
    with a message and buttons labelled ``labels`` left to right (the last one white on blue, as
    a browser draws its default button), as a game drawn in a browser shows one (with ``dim``
    1, as a page draws a window of its own over the others); where each button is."""
    font = cv2.FONT_HERSHEY_SIMPLEX
    screen[:] = (screen * dim).astype(np.uint8)
    screen[box.top : box.bottom, box.left : box.right] = 240
    cv2.putText(screen, "Game over!", (box.left + 10, box.top + 24), font, 0.5, (0, 0, 0), 1)
    buttons, right = {}, box.right - 8
    for label in reversed(labels):
        width = 20 + 12 * len(label)
        button = Rect(right - width, box.bottom - 38, width, 30)
        default = label == labels[-1]
        face, ink = ((160, 80, 10), (255, 255, 255)) if default else ((200, 200, 200), (0, 0, 0))
        screen[button.top : button.bottom, button.left : button.right] = face
        at = (button.left + 10, button.bottom - 10)
        cv2.putText(screen, label, at, font, 0.5, ink, 1, cv2.LINE_AA)
        buttons[label] = button
        right -= width + 10
    return buttons
