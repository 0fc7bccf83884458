"""A board's geometry (vision/geometry.py): each cell found at its centre, cell edges, rectangles,
and how a board's cells are cut into pictures of one size."""

from __future__ import annotations

import numpy as np
import pytest
from drawn_scenes import SKINS
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.errors import GeometryError
from vision.geometry import BoardGeometry, Rect, Spacing, cell_images, padded_sources


@settings(max_examples=100, deadline=None)
@given(st.integers(2, 40), st.integers(1, 2), st.data())
def test_padded_sources_say_where_the_cut_of_a_padded_cell_takes_each_pixel(
    cut: int, excess: int, data: st.DataObject
) -> None:
    """A cell ``excess`` pixels wider than the narrow one beside it, showing the same tile with
    pixels added at some place, is cut as every cell is: each pixel of its picture is the
    narrow picture's pixel that padded_sources names there, and only an added pixel is -1."""
    place = data.draw(st.integers(0, cut), label="place")
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1), label="seed"))
    narrow = rng.integers(0, 256, size=(1, cut, 3), dtype=np.uint8)
    added = rng.integers(0, 256, size=(1, excess, 3), dtype=np.uint8)
    wide = np.concatenate([narrow[:, :place], added, narrow[:, place:]], axis=1)
    strip = np.concatenate([narrow, wide], axis=1)
    along_x = Spacing((0, cut, 2 * cut + excess), cut)
    pictures = cell_images(strip, (0, 0), (along_x, Spacing.even(1, 1)), (0, 0), (cut, 1))
    assert np.array_equal(pictures[0, 0], narrow)
    sources = padded_sources(cut, excess)[place]
    cut_wide = pictures[0, 1, 0]
    assert np.array_equal(cut_wide[sources >= 0], narrow[0, sources[sources >= 0]])
    assert int((sources < 0).sum()) == len(
        set(range(place, place + excess)) - set(range(along_x.half, along_x.half + excess))
    )


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(sorted(SKINS)),
    st.integers(1, 20),
    st.integers(1, 30),
    st.integers(-50, 50),
    st.integers(-50, 50),
)
def test_cell_geometry_round_trips(pitch: int, rows: int, columns: int, dx: int, dy: int) -> None:
    skin = SKINS[pitch]
    geometry = BoardGeometry(100, 80, skin.pitch, skin.tile_size, skin.tile_offset, rows, columns)
    for cell in [(0, 0), (rows - 1, columns - 1), (rows // 2, columns // 3)]:
        x, y = geometry.cell_centre(cell)
        assert geometry.cell_at(x, y) == cell
        assert geometry.rect.contains_rect(geometry.tile_rect(cell))
    x, y = geometry.left + dx, geometry.top + dy
    inside = 0 <= dx < columns * pitch and 0 <= dy < rows * pitch
    assert (geometry.cell_at(x, y) is not None) == inside


def test_cell_edges_that_hold_a_cell_narrower_than_the_pitch_are_refused() -> None:
    skin = SKINS[16]
    with pytest.raises(GeometryError, match="narrower than the 16 px"):
        BoardGeometry(
            0, 0, skin.pitch, skin.tile_size, skin.tile_offset, 1, 2, None, ((0, 16, 31), (0, 16))
        )


def test_rect_intersection_is_the_shared_part_or_empty() -> None:
    screen = Rect(0, 0, 1280, 1024)
    assert Rect(1200, 1000, 200, 100).intersection(screen) == Rect(1200, 1000, 80, 24)
    assert Rect(10, 20, 30, 40).intersection(screen) == Rect(10, 20, 30, 40)
    empty = Rect(2000, 5, 10, 10).intersection(screen)
    assert empty.width == 0
