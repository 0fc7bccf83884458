"""Cells over a sharp edge of a game's background, read with the ground their ring shows.

The fixture is a kmines Expert board (Debian's kmines 22.12 in a 1280x1024 Xvfb screen,
2026-11-26) with the skin calibration learned from that window. Cells (4, 24) and (4, 25),
opened 0s, show an edge of kmines' background across their lower part (12 levels; the pixel
ring around each tile shows the same edge), and read 0.019-0.022 from ZERO and 0.033-0.035 from
HIDDEN: refused as ambiguous, play stopped on a misread.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pictures import read_picture

import vision.ground as ground_module
from solver import Tile
from vision.errors import UnreadableCellError
from vision.geometry import BoardGeometry
from vision.ground import flattened, ground_shapes
from vision.locate import locate
from vision.match import TemplateBank, tile_lattice
from vision.read import BoardReader
from vision.skin import Skin

DATA = Path(__file__).parent.parent / "data" / "kmines"
SKIN = Skin.load(DATA / "expert16-skin")
EDGE_CELLS = ((4, 24), (4, 25))


def edge_board() -> np.ndarray:
    board = read_picture(DATA / "expert16-edge-board.png")
    return np.asarray(board)


def reader(crops: Path) -> BoardReader:
    geometry = BoardGeometry(0, 0, SKIN.pitch, SKIN.tile_size, SKIN.tile_offset, 16, 30)
    return BoardReader(SKIN, geometry, crops_dir=crops)


def test_cells_over_an_edge_of_the_background_are_ambiguous_without_their_ground(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Judged alone, without the 0s beside them (see the next test)."""
    monkeypatch.setattr(ground_module, "MAX_GROUND_LOOKS", 0)
    monkeypatch.setattr(BoardReader, "_opened_beside_zeros", lambda _, __, verdict: verdict)
    with pytest.raises(
        UnreadableCellError, match="ZERO at distance 0.019 and HIDDEN at 0.033"
    ) as refused:
        reader(tmp_path).read(edge_board(), 99)
    assert refused.value.cells == EDGE_CELLS


def test_cells_over_an_edge_of_the_background_beside_a_0_read_as_0_without_their_ground(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each has an opened 0 beside it, read for sure: the game opened it, so it is no hidden
    tile, and among the opened tiles only the 0 is near."""
    monkeypatch.setattr(ground_module, "MAX_GROUND_LOOKS", 0)
    board = reader(tmp_path).read(edge_board(), 99).board
    assert all(board.tiles[cell] == Tile.ZERO for cell in EDGE_CELLS)


def test_cells_over_an_edge_of_the_background_read_by_the_ground_their_ring_shows(
    tmp_path: Path,
) -> None:
    read = reader(tmp_path)
    board = read.read(edge_board(), 99).board
    assert all(board.tiles[cell] == Tile.ZERO for cell in EDGE_CELLS)
    # Every other cell reads as it does with those two drawn as the template itself.
    frame = edge_board()
    for cell in EDGE_CELLS:
        rect = read.geometry.tile_rect(cell)
        frame[rect.top : rect.bottom, rect.left : rect.right] = SKIN.templates[Tile.ZERO]
    assert np.array_equal(read.read(frame, 99).board.tiles, board.tiles)


def test_a_board_with_cells_over_an_edge_of_the_background_is_found(tmp_path: Path) -> None:
    """Calibration's last check finds the board its last game ended on; kmines Expert's once
    showed these cells as opened 0s ("lattice cell (row 4, column 24) of the 16x30 block matches
    no template for sure"). Beside other 0s they are opened, and the board is found whole."""
    for shape in ((16, 30), None):
        geometry = locate(SKIN, edge_board(), shape=shape)
        assert (geometry.left, geometry.top, geometry.rows, geometry.columns) == (0, 0, 16, 30)


def test_the_check_before_a_click_reads_a_cell_over_the_edge_too(tmp_path: Path) -> None:
    """Just before a click, play checks single cells (the clicked one and two corners) from a
    capture of :meth:`BoardReader.check_rect`: the tile and its ring."""
    read, frame = reader(tmp_path), edge_board()
    for cell in EDGE_CELLS:
        rect = read.check_rect(cell)
        assert rect == read.geometry.tile_rect(cell).union(rect)  # the tile and a pixel around
        ringed = frame[rect.top : rect.bottom, rect.left : rect.right]
        assert read.read_tile(ringed) == Tile.ZERO
    board = read.read(frame, 99).board
    for cell in [(0, 0), (15, 29), (2, 9)]:  # clear cells read by themselves as on the board
        rect = read.check_rect(cell)
        shown = read.read_tile(frame[rect.top : rect.bottom, rect.left : rect.right])
        assert shown == Tile(int(board.tiles[cell]))


TILES = sorted(SKIN.templates)


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(TILES),
    st.sampled_from(TILES),
    st.floats(0.36, 0.64),
    st.integers(0, 2**32 - 1),
)
def test_a_cell_between_two_tiles_stays_refused_whatever_ring_surrounds_it(
    tmp_path_factory: pytest.TempPathFactory, first: Tile, second: Tile, share: float, seed: int
) -> None:
    """A cell blended of two tiles, too near both to read as either (a frame caught mid-redraw),
    is not read as either whatever the ring around it shows: a ground may break a near tie only
    where it explains most of what sets the cell apart. (The cell has 0s beside it, whose rule,
    tested apart, is left out here: it reads a blend of the 0 and the hidden tile as the 0.)"""
    if first == second:
        return
    frame = edge_board()
    rng = np.random.default_rng(seed)
    read = reader(tmp_path_factory.mktemp("crops"))
    read._opened_beside_zeros = lambda frame, verdict: verdict  # type: ignore[method-assign]
    rect = read.geometry.tile_rect(EDGE_CELLS[0])
    ring = frame[rect.top - 1 : rect.bottom + 1, rect.left - 1 : rect.right + 1]
    ring[:] = np.clip(ring.astype(int) + rng.integers(-20, 21), 0, 255)  # any level...
    ring[: rng.integers(2, 15)] = rng.integers(150, 230)  # ...and an edge anywhere across it
    blend = share * SKIN.templates[first] + (1 - share) * SKIN.templates[second]
    frame[rect.top : rect.bottom, rect.left : rect.right] = blend.round().astype(np.uint8)
    with pytest.raises(UnreadableCellError, match=r"\(row 4, column 24\)"):
        read.read(frame, 99)


def test_the_ground_inside_a_flat_ring_is_flat_and_an_edge_goes_across() -> None:
    flat = np.full((1, 16, 16, 3), 90, dtype=np.uint8)
    assert np.abs(ground_shapes(flat)).max() < 1e-9
    edged = flat.copy()
    edged[:, 10:] = 60  # the ring's sides step down at row 10, as a level edge across does
    shape = ground_shapes(edged)[0, :, :, 0]
    assert np.allclose(shape[:8], shape[0, 0]) and shape[-1].max() < shape[0].min() - 20


def ringed_block(cell: tuple[int, int]) -> np.ndarray:
    """Cell ``cell`` of the fixture board, its tile with the pixel ring around it."""
    row, column = cell
    return edge_board()[row * 16 : row * 16 + 16, column * 16 : column * 16 + 16]


def test_a_template_cut_over_an_edge_is_flattened_and_an_opaque_tile_is_kept() -> None:
    """Calibration cuts a template from whichever cell first showed the tile: one over the
    background's edge is flattened by the ground its ring shows, so that it reads cells over
    either side of the edge alike; the opaque hidden tile, whose ring shows the lines between
    tiles, is kept as it is."""
    over_edge = ringed_block(EDGE_CELLS[0])

    def flat_share(tile: np.ndarray) -> float:
        levels = tile[..., 1].astype(int)
        return float(np.mean(np.abs(levels - np.median(levels)) <= 3))

    assert flat_share(over_edge[1:-1, 1:-1]) < 0.8 < 0.9 < flat_share(flattened(over_edge))
    for hidden in [(0, 2), (0, 24)]:  # hidden tiles (read off the board)
        block = ringed_block(hidden)
        assert np.array_equal(flattened(block), block[1:-1, 1:-1])


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_over_a_flat_ground_the_distances_are_the_plain_ones(seed: int) -> None:
    """With no ground to take away, the second look measures what the first did: every cell
    of the fixture board (digits too, whose channels differ) against every template."""
    rng = np.random.default_rng(seed)
    pictures = SKIN.pictures()
    bank = TemplateBank([tile for tile, _ in pictures], [p for _, p in pictures], SKIN.level_weight)
    width, height = SKIN.tile_size
    tiles = tile_lattice(edge_board(), SKIN.tile_offset, SKIN.pitch, SKIN.tile_size, (16, 30))
    patches = tiles.reshape(-1, height, width, 3)[rng.choice(16 * 30, 8, replace=False)]
    flat = np.zeros(patches.shape, dtype=np.float64)
    plain = bank.distances(patches)
    assert np.allclose(bank.distances_over_ground(patches, flat), plain, atol=2e-4)
