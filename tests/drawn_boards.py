"""Tiles and games drawn in memory for calibration's tests: pictures of tiles, captures of real
games' windows, tiles drawn over a gradient, and lost games as calibration records them (the
appearance ids it gives each picture)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import numpy.typing as npt
from pictures import read_picture

from calibration.catalogue import HIDDEN_ID
from calibration.record import ClickKind, PlayedGame, Step
from solver import GameState, Tile
from solver.board import PICTURED_TILES
from solver.engine import neighbour_counts

BACKGROUND = (40, 40, 40)
WINDOWS = Path(__file__).parent / "data" / "windows"
"""Captures of real games' windows."""


def tile_pictures(pitch: int, count: int, seed: int = 0) -> list[np.ndarray]:
    """``count`` different detailed pictures of one pitch, each with a plain one-pixel line on
    its left and top, as xdemineur draws its grid."""
    rng = np.random.default_rng(seed)
    pictures = []
    for _ in range(count):
        picture = rng.integers(60, 255, size=(pitch, pitch, 3), dtype=np.uint8)
        picture[0, :] = picture[:, 0] = (90, 90, 90)
        pictures.append(picture)
    return pictures


SIDES = ("left", "right", "top", "bottom")


def xbomb_small(name: str) -> np.ndarray:
    """xbomb's Expert window at its own size (30 columns of 20-px cells from (5, 37), 2-px lines
    between them): ``fresh``, after the ``first_click``, or ``lost`` on the next click."""
    frame = read_picture(WINDOWS / f"xbomb_small_{name}.png")
    return frame


def ids_of(tiles: np.ndarray, ids: dict[Tile, int]) -> np.ndarray:
    result = np.empty(tiles.shape, dtype=np.int32)
    for (row, column), tile in np.ndenumerate(tiles):
        result[row, column] = ids[Tile(tile)]
    return result


def simulated_loss(seed: int, marks_wrong_flags: bool = True) -> tuple[PlayedGame, dict[Tile, int]]:
    """A game with marks and a loss on a random 10x12 board, every tile drawn with a shuffled id.

    The player flags a mine and a safe cell, question-marks a safe cell, opens every safe cell
    of the left half (and what its zeros open), then opens a mine. Unless ``marks_wrong_flags``,
    the loss leaves the wrong flag as it was, and that flag is next to an opened cell.
    """
    rng = np.random.default_rng(seed)
    rows, columns = 10, 12
    mines = rng.random((rows, columns)) < 0.2
    numbers = neighbour_counts(mines)
    others = [tile for tile in PICTURED_TILES if tile != Tile.HIDDEN]
    order = rng.permutation(len(others)) + 1
    ids: dict[Tile, int] = {Tile.HIDDEN: HIDDEN_ID}
    ids.update((tile, int(i)) for tile, i in zip(others, order, strict=True))
    view = np.full((rows, columns), Tile.HIDDEN, dtype=np.uint8)
    steps: list[Step] = []

    def act(click: ClickKind, cell: tuple[int, int], tile: Tile) -> None:
        before = ids_of(view, ids)
        view[cell] = tile
        steps.append(Step(click, cell, before, ids_of(view, ids)))

    mine_cells = [tuple(int(v) for v in c) for c in np.argwhere(mines[:, 6:])]
    safe_right = [tuple(int(v) for v in c) for c in np.argwhere(~mines[:, 6:])]
    flagged_mine = (mine_cells[0][0], mine_cells[0][1] + 6)
    wrong_flag = (safe_right[0][0], safe_right[0][1] + 6)
    if not marks_wrong_flags:  # beside a safe cell of the left half, which is opened
        wrong_flag = (int(np.argwhere(~mines[:, 6] & ~mines[:, 5])[0][0]), 6)
    question = next((r, c + 6) for r, c in safe_right[1:] if (r, c + 6) != wrong_flag)
    act(ClickKind.MARK, flagged_mine, Tile.FLAG)
    act(ClickKind.MARK, wrong_flag, Tile.FLAG)
    act(ClickKind.MARK, question, Tile.FLAG)
    act(ClickKind.MARK, question, Tile.QUESTION)
    opened = ~mines
    opened[:, 6:] = False
    while True:  # a 0 opens its neighbours, as the game's flood does
        flooded = opened | (neighbour_counts(opened & (numbers == 0)) > 0)
        if (flooded == opened).all():
            break
        opened = flooded
    marked = np.zeros_like(mines)
    for cell in (flagged_mine, wrong_flag, question):
        marked[cell] = True
    opened &= ~marked
    view[opened] = numbers[opened]
    boom = (mine_cells[1][0], mine_cells[1][1] + 6)
    before = ids_of(view, ids)
    view[mines & (view == Tile.HIDDEN)] = Tile.MINE
    view[boom] = Tile.EXPLODED
    if marks_wrong_flags:
        view[wrong_flag] = Tile.WRONG_FLAG
    steps.append(Step(ClickKind.OPEN, boom, before, ids_of(view, ids)))
    return PlayedGame(steps, GameState.LOST), ids


def numbers_of(ids: dict[Tile, int]) -> set[int]:
    """The appearance ids of the numbers: what a game shows on cells opened safely."""
    return {ids[tile] for tile in Tile if tile.is_number}


def focus_ring(picture: np.ndarray, inset: int = 1) -> None:
    """Draw a dotted black ring ``inset`` pixels inside the edges of ``picture`` (a view)."""
    height, width = picture.shape[:2]
    ring = np.zeros((height, width), dtype=bool)
    near, far = inset, height - 1 - inset
    ring[[near, far], near : width - inset] = ring[near : far + 1, [near, width - 1 - inset]] = True
    dotted = np.add.outer(np.arange(height), np.arange(width)) % 2 == 0
    picture[ring & dotted] = 0


OPACITY = 0.8
"""How opaque the synthetic board is drawn over the gradient."""


def over_gradient(
    screen: npt.NDArray[np.uint8], amplitude: float, angle: float, tint: tuple[float, float, float]
) -> npt.NDArray[np.uint8]:
    """``screen`` drawn :data:`OPACITY` opaque over a grey ramp of up to ``amplitude`` levels
    either side of mid-grey, along direction ``angle``, per channel scaled by ``tint``."""
    height, width = screen.shape[:2]
    ys, xs = np.mgrid[0:height, 0:width]
    ramp = (np.cos(angle) * (xs / width - 0.5) + np.sin(angle) * (ys / height - 0.5)) * amplitude
    background = 128 + ramp[..., None] * np.array(tint)[None, None, :]
    return np.rint(OPACITY * screen + (1 - OPACITY) * background).astype(np.uint8)


HIDDEN, FLAG, QUESTION, EXPLODED, MINE, NUMBER, REDRAWN = 0, 1, 2, 3, 4, 5, 6
"""Appearance ids of a lost game with a question mark at (0, 0), a number at (1, 1) and the mine
hit at (2, 2), another mine shown at (2, 0)."""
