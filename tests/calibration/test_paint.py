"""What a click paints beside the cell it opened (calibration/paint.py): the lines of a cell a
neighbour's digit paints over, and a focus ring moved from cell to cell."""

from __future__ import annotations

import numpy as np
from drawn_boards import SIDES, focus_ring, tile_pictures, xbomb_small
from hypothesis import given, settings
from hypothesis import strategies as st

from calibration.catalogue import Catalogue
from calibration.grid import Grid
from calibration.paint import hit_ring, ring_pixels, unpainted_box


def test_the_band_a_real_game_s_digits_paint_below_their_cells_is_left_out() -> None:
    """xbomb draws its digits taller than its 20-px cells: the first click's opened numbers
    paint the top 5 lines of the cells below them, hidden or opened. Cut with the line between
    cells at its top and bottom, a cell is compared from line 7 on; the loss, which redraws the
    board row by row and rings the cells opened, paints no such band."""
    fresh, first, lost = (xbomb_small(name) for name in ("fresh", "first_click", "lost"))
    grid = Grid((7, 38), (20, 20), 16, 30, fresh[38:58, 7:27])
    catalogue = Catalogue(grid.hidden)
    catalogue.trim_shared_lines(grid.pictures(first))
    box = catalogue.box  # the lines every picture shows alike left out
    assert box == (0, 0, 19, 19)
    assert unpainted_box(grid.pictures(first), grid.pictures(lost), box) == box
    unpainted = unpainted_box(grid.pictures(fresh), grid.pictures(first), box)
    assert unpainted == (0, 7, 19, 12)
    # Starting over, the lines between cells that a few digits cross (the last two columns, the
    # first row and the last) are left out too: a loss rings the cells opened in green there.
    assert catalogue.lines_box == (0, 1, 18, 18)
    assert catalogue.with_box(unpainted).box == (0, 7, 18, 12)


@settings(max_examples=40, deadline=None)
@given(
    pitch=st.integers(16, 30),
    depth=st.integers(1, 4),
    side=st.sampled_from(SIDES),
    opened=st.booleans(),
)
def test_a_cell_painted_only_along_the_side_of_one_that_opened_is_left_out_there(
    pitch: int, depth: int, side: str, opened: bool
) -> None:
    """A click opens cell (2, 2); the neighbour on ``side`` changes only in a ``depth``-line
    band facing it (the opened number drawn past its cell). That band, and two lines more, are
    then left out of the box; a band with no opened cell beside it is no such paint."""
    before_picture, after_picture = tile_pictures(pitch, 2, seed=pitch)
    before = np.broadcast_to(before_picture, (5, 5, pitch, pitch, 3)).copy()
    after = before.copy()
    if opened:
        after[2, 2] = after_picture
    step = {"top": (1, 0), "bottom": (-1, 0), "left": (0, 1), "right": (0, -1)}[side]
    painted = after[2 + step[0], 2 + step[1]]  # the neighbour whose ``side`` faces (2, 2)
    band = {
        "top": np.s_[:depth, :],
        "bottom": np.s_[pitch - depth :, :],
        "left": np.s_[:, :depth],
        "right": np.s_[:, pitch - depth :],
    }[side]
    painted[band] = np.where(painted[band] > 157, 0, 255)  # a colour far from what was there
    box = (0, 0, pitch, pitch)
    cut = depth + 2
    expected = {
        "top": (0, cut, pitch, pitch - cut),
        "bottom": (0, 0, pitch, pitch - cut),
        "left": (cut, 0, pitch - cut, pitch),
        "right": (0, 0, pitch - cut, pitch),
    }[side]
    assert unpainted_box(before, after, box) == (expected if opened else box)


def test_ring_pixels_are_a_thin_frame_moved_off_an_opened_cell_not_the_one_clicked() -> None:
    rng = np.random.default_rng(3)
    before = rng.integers(0, 256, size=(2, 3, 16, 16, 3), dtype=np.uint8)
    after = before.copy()
    focus_ring(before[0, 1, :15, :15])  # the ring moves off cell (0, 1) ...
    focus_ring(after[1, 2, :15, :15])  # ... onto the cell clicked, (1, 2)
    opened = np.ones((2, 3), dtype=bool)
    box = (0, 0, 16, 16)
    ring = ring_pixels(before, after, opened, (1, 2), box)
    drawn = np.zeros((16, 16), dtype=bool)
    drawn[[1, 13], 1:14] = drawn[1:14, [1, 13]] = True
    assert ring is not None and np.array_equal(ring, drawn), "the dotted lines are filled"
    assert ring_pixels(before, after, opened & ~np.eye(2, 3, 1, dtype=bool), (1, 2), box) is None
    assert ring_pixels(before, after, opened, (1, 2), (3, 3, 10, 10)) is None  # outside the box
    redrawn = after.copy()  # a second cell's frame changed too (DangerUXB's loss redraws
    focus_ring(redrawn[1, 0, :15, :15])  # the buttons): a ring moves off one cell, so none
    assert ring_pixels(before, redrawn, opened, (1, 2), box) is None
    after[0, 1, 6:9, 6:9] = 0  # a change inside the frame too: no ring
    assert ring_pixels(before, after, opened, (1, 2), box) is None


def test_a_soft_shade_that_leaves_an_opened_cell_when_its_neighbours_open_is_no_ring() -> None:
    """A toolkit's hidden buttons may cast a soft shade (a few levels, a few pixels deep) on the
    opened cells beside them; when a flood opens every neighbour of an opened cell, the shade
    leaves all four sides of its frame. That is no focus ring (UXBgtk, live: up to 15 levels
    in a band 4 px deep): a ring taken from it left too little of each cell to compare."""
    before = np.full((3, 3, 16, 16, 3), 194, dtype=np.uint8)
    after = before.copy()
    for depth, shade in enumerate((15, 5, 2, 1)):  # the shade fades over 4 px, as measured
        frame = np.zeros((16, 16), dtype=bool)
        frame[[depth, 15 - depth], depth : 16 - depth] = True
        frame[depth : 16 - depth, [depth, 15 - depth]] = True
        before[1, 1][frame] -= np.uint8(shade)
    opened = np.zeros((3, 3), dtype=bool)
    opened[1, 1] = True
    assert ring_pixels(before, after, opened, (0, 0), (0, 0, 16, 16)) is None


def test_a_hit_ring_is_where_the_cell_clicked_differs_from_one_it_uncovered_by_a_frame() -> None:
    mine = np.random.default_rng(4).integers(0, 256, size=(16, 16, 3), dtype=np.uint8)
    after = np.broadcast_to(mine, (2, 3, 16, 16, 3)).copy()
    focus_ring(after[1, 2, :15, :15], 3)  # the cell clicked, drawn with its ring
    uncovered = np.zeros((2, 3), dtype=bool)
    uncovered[0, 0] = uncovered[1, 2] = True
    classes = np.zeros((2, 3), dtype=np.uint8)
    box = (0, 0, 16, 16)
    ring = hit_ring(after, uncovered, (1, 2), classes, box)
    drawn = np.zeros((16, 16), dtype=bool)
    drawn[[3, 11], 3:12] = drawn[3:12, [3, 11]] = True
    assert ring is not None and np.array_equal(ring, drawn), "the dotted lines are filled"
    other_class = classes.copy()
    other_class[0, 0] = 1  # the only other mine uncovered is drawn for cells of another size
    assert hit_ring(after, uncovered, (1, 2), other_class, box) is None
    assert hit_ring(after, uncovered, (1, 2), classes, (4, 4, 7, 7)) is None  # inside the ring
    after[1, 2, 6:9, 6:9] = 0  # a change inside the frame too (another picture): no ring
    assert hit_ring(after, uncovered, (1, 2), classes, box) is None
