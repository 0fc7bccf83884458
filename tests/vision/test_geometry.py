"""How a board's cells are cut into pictures of one size (vision.geometry)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.geometry import Spacing, cell_images, padded_sources


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
