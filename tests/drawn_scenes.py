"""Boards drawn with synthetic skins on a plain screen, for vision's tests: the skins, random
scenes, a board read from its scene, and a lost board drawn darker."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from solver import Tile
from solver.board import PICTURED_TILES
from vision.geometry import BoardGeometry
from vision.read import BoardReader, Reading
from vision.skin import FACE_STATES, MAX_SLACK, Image, Skin
from vision.synthetic import LAYOUTS, OPENED, Scene, draw, make_skin

SKINS = {pitch: make_skin(pitch, seed=pitch) for pitch in LAYOUTS}
SCREEN = (640, 480)
examples = settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@st.composite
def scenes(draw_from: st.DrawFn, face: bool = True) -> Scene:
    """A random board of a random skin drawn at a random place on a random plain screen."""
    skin = SKINS[draw_from(st.sampled_from(sorted(SKINS)))]
    pitch = skin.pitch[0]
    rows = draw_from(st.integers(1, min(12, (SCREEN[1] - 60) // pitch)))
    columns = draw_from(st.integers(1, min(16, (SCREEN[0] - 10) // pitch)))
    seed = draw_from(st.integers(0, 2**32 - 1))
    tiles = np.random.default_rng(seed).integers(
        0, len(PICTURED_TILES), size=(rows, columns), dtype=np.uint8
    )
    tiles[0, 0] = tiles[-1, -1] = Tile.HIDDEN  # every edge line shows a distinctive tile
    left = draw_from(st.integers(5, SCREEN[0] - columns * pitch - 5))
    top = draw_from(st.integers(45, SCREEN[1] - rows * pitch - 5))
    background = draw_from(st.sampled_from([OPENED, (0, 0, 0), (90, 40, 20)]))
    state = draw_from(st.sampled_from(FACE_STATES)) if face else None
    return draw(skin, tiles, (left, top), SCREEN, background, state)


def read_scene(
    skin: Skin, geometry: BoardGeometry, screen: np.ndarray, crops: Path, mines: int = 0
) -> Reading:
    reader = BoardReader(skin, geometry, crops_dir=crops)
    region = reader.region
    frame = np.ascontiguousarray(screen[region.top : region.bottom, region.left : region.right])
    return reader.read(frame, mines)


def darkened_loss(
    uneven: bool,
) -> tuple[Skin, dict[Tile, Image], np.ndarray, Scene, Scene]:
    """A skin, its pictures of a lost game that draws the field darker, the tiles of a 9x9
    lost board, and scenes of that board drawn so and of a fresh one (``uneven``: cells of
    the first columns a pixel wider)."""
    skin = make_skin(16, seed=5)
    if uneven:
        skin = replace(skin, slack=(MAX_SLACK, MAX_SLACK))
    rng = np.random.default_rng(7)
    shown = [Tile.HIDDEN, Tile.ZERO, Tile.ONE, Tile.TWO, Tile.MINE]
    tiles = rng.choice(np.array(shown, dtype=np.uint8), size=(9, 9))
    tiles[4, 4] = Tile.EXPLODED
    darkened = (Tile.HIDDEN, Tile.ZERO, Tile.ONE)
    darker = {tile: (skin.templates[tile] * 3 // 4).astype(np.uint8) for tile in darkened}
    edges = (tuple(16 * i + min(i, 3) for i in range(10)), tuple(range(0, 160, 16)))
    spacing = edges if uneven else None
    lost = draw(replace(skin, templates=skin.templates | darker), tiles, (50, 60), edges=spacing)
    fresh = draw(skin, np.full_like(tiles, Tile.HIDDEN), (50, 60), edges=spacing)
    return skin, darker, tiles, lost, fresh
