"""Cells beside an opened 0 are read among the opened tiles (vision/opened.py): every game opens a
0's neighbours by itself, so a cell too near a closed tile to tell is opened there, and refused
anywhere else."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from drawn_scenes import SCREEN, SKINS, examples, read_scene
from hypothesis import given
from hypothesis import strategies as st

from solver import Tile
from solver.board import PICTURED_TILES
from vision.errors import UnreadableCellError
from vision.read import BoardReader, Reading
from vision.skin import Image, Skin
from vision.synthetic import draw, with_zero_near_hidden


def test_a_blend_beside_an_opened_zero_is_judged_among_opened_tiles(tmp_path: Path) -> None:
    """Once drawn by test_read.py's property test of blends, which took it for a guess: a cell
    44% a question mark and 56% a 0 is refused alone, and beside an opened 0 is a 0. Every game
    opens a 0's neighbours, so the question mark (a closed tile) is out there, and the 0 matches
    within the threshold among the opened tiles left (vision.opened)."""
    skin = SKINS[16]
    question, zero = (skin.templates[tile].astype(float) for tile in (Tile.QUESTION, Tile.ZERO))
    blend = np.round(0.44 * question + 0.56 * zero).astype(np.uint8)

    def read_with_blend(beside: Tile) -> Reading:
        tiles = np.array([[Tile.HIDDEN, beside, Tile.HIDDEN]], dtype=np.uint8)
        drawn = draw(skin, tiles, (40, 60), SCREEN)
        tile = drawn.geometry.tile_rect((0, 0))
        drawn.screen[tile.top : tile.bottom, tile.left : tile.right] = blend
        return read_scene(skin, drawn.geometry, drawn.screen, tmp_path)

    with pytest.raises(UnreadableCellError):
        read_with_blend(Tile.HIDDEN)
    assert read_with_blend(Tile.ZERO).board[0, 0] == Tile.ZERO


def _zero_near_hidden() -> Skin:
    """:data:`SKINS` [16] with a 0 twice the threshold from its hidden tile, and no face."""
    base = SKINS[16]
    templates = with_zero_near_hidden(base).templates
    return Skin("near", base.pitch, base.tile_size, templates, base.threshold, base.new_game)


@pytest.mark.parametrize(
    ("rows", "read"),
    [
        # A cell between the 0 and the hidden tile beside a 0 is opened: the game opens every
        # neighbour of a 0 by itself.
        (["00h", "0?h", "hhh"], ["00h", "00h", "hhh"]),
        # Each cell so read is a 0 in its turn for its own neighbours.
        (["0??", "1h?", "hhh"], ["000", "1h0", "hhh"]),
        # Beside no 0 (a number or a hidden cell), the cell is still refused.
        (["11h", "1?h", "hhh"], None),
        (["0hhh", "hh??", "hhhh"], None),
    ],
)
def test_a_cell_between_the_0_and_the_hidden_tile_beside_a_0_reads_as_opened(
    tmp_path: Path, rows: list[str], read: list[str] | None
) -> None:
    """``rows``: ``0``, ``1`` and ``h`` are drawn as their tiles, ``?`` as a blend of six parts
    0 to four hidden: within the threshold of the 0, yet too near the hidden tile to tell."""
    skin = _zero_near_hidden()
    symbols = {"0": Tile.ZERO, "1": Tile.ONE, "h": Tile.HIDDEN, "?": Tile.HIDDEN}
    tiles = np.array([[symbols[c] for c in row] for row in rows], dtype=np.uint8)
    drawn = draw(skin, tiles, (40, 60), SCREEN, face=None)
    zero, hidden = (skin.templates[t].astype(float) for t in (Tile.ZERO, Tile.HIDDEN))
    blend = np.round(0.6 * zero + 0.4 * hidden).astype(np.uint8)
    for row, line in enumerate(rows):
        for column, symbol in enumerate(line):
            if symbol == "?":
                tile = drawn.geometry.tile_rect((row, column))
                drawn.screen[tile.top : tile.bottom, tile.left : tile.right] = blend
    if read is None:
        with pytest.raises(UnreadableCellError, match="is ambiguous: ZERO"):
            read_scene(skin, drawn.geometry, drawn.screen, tmp_path)
        return
    expected = np.array([[symbols[c] for c in row] for row in read], dtype=np.uint8)
    board = read_scene(skin, drawn.geometry, drawn.screen, tmp_path).board
    assert board.tiles.tolist() == expected.tolist()


def test_a_cell_checked_alone_that_the_last_read_showed_opened_is_judged_among_opened_tiles(
    tmp_path: Path,
) -> None:
    """The check before a click reads a cell alone: a cell the board's read took for a 0 by the
    rule beside 0s was refused there, and the click with it (a lost classic gnome-mines board
    stopped its run so). Known opened, it is judged among the opened tiles, as the read did; a
    tile matched for sure reads as it did (a hidden tile stays hidden: the check then refuses).
    """
    skin = _zero_near_hidden()
    tiles = np.array([[Tile.ZERO] * 3, [Tile.ZERO] * 3, [Tile.HIDDEN] * 3], dtype=np.uint8)
    drawn = draw(skin, tiles, (40, 60), SCREEN, face=None)
    zero, hidden = (skin.templates[t].astype(float) for t in (Tile.ZERO, Tile.HIDDEN))
    tile = drawn.geometry.tile_rect((1, 1))
    drawn.screen[tile.top : tile.bottom, tile.left : tile.right] = np.round(
        0.6 * zero + 0.4 * hidden
    ).astype(np.uint8)
    reader = BoardReader(skin, drawn.geometry, crops_dir=tmp_path)
    assert read_scene(skin, drawn.geometry, drawn.screen, tmp_path).board[1, 1] == Tile.ZERO

    def alone(cell: tuple[int, int]) -> Image:
        rect = reader.check_rect(cell)
        return drawn.screen[rect.top : rect.bottom, rect.left : rect.right]

    assert reader.read_tile(alone((1, 1))) is None
    assert reader.read_tile(alone((1, 1)), opened=True) == Tile.ZERO
    assert reader.read_tile(alone((2, 1)), opened=True) == Tile.HIDDEN
    assert reader.read_tile(alone((0, 1)), opened=True) == Tile.ZERO


@examples
@given(st.sampled_from(PICTURED_TILES), st.sampled_from(PICTURED_TILES), st.floats(0.3, 0.7))
def test_a_blend_beside_a_0_reads_as_an_opened_tile_that_matches_it_or_not_at_all(
    tmp_path: Path, first: Tile, second: Tile, share: float
) -> None:
    """Whatever two tiles a cell beside a 0 is blended of, if it is refused alone, it reads as
    an opened tile within the skin's threshold of its pixels, or it is refused still."""
    skin = _zero_near_hidden()
    tiles = np.array([[Tile.ZERO, Tile.ZERO], [Tile.ZERO, Tile.HIDDEN]], dtype=np.uint8)
    drawn = draw(skin, tiles, (40, 60), SCREEN, face=None)
    blend = share * skin.templates[first] + (1 - share) * skin.templates[second]
    tile = drawn.geometry.tile_rect((1, 1))
    drawn.screen[tile.top : tile.bottom, tile.left : tile.right] = blend.round()
    reader = BoardReader(skin, drawn.geometry, crops_dir=tmp_path)
    region = reader.region
    frame = np.ascontiguousarray(
        drawn.screen[region.top : region.bottom, region.left : region.right]
    )
    alone = BoardReader(skin, drawn.geometry, crops_dir=tmp_path)
    alone._opened_beside_zeros = lambda frame, verdict: verdict  # type: ignore[method-assign]
    try:
        alone.read(frame, 0)
        return  # read without the rule: the rule is not asked
    except UnreadableCellError:
        pass
    try:
        read = Tile(reader.read(frame, 0).board[1, 1])
    except UnreadableCellError:
        return
    assert read.is_opened
    difference = drawn.screen[tile.top : tile.bottom, tile.left : tile.right].astype(float)
    difference -= skin.templates[read]
    assert np.sqrt(np.mean(difference**2)) / 255 <= skin.threshold
