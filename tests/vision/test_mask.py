"""TemplateBank with a mask: pixels left out count for nothing (a toolkit's focus ring drawn
on the cell clicked last). Cross-checked against a bank of the pictures cut down to what the
mask keeps, and against a direct computation."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.match import TemplateBank, flatness

pictures = st.integers(0, 2**32 - 1).map(np.random.default_rng)


def picture(rng: np.random.Generator, height: int, width: int) -> npt.NDArray[np.uint8]:
    """A plain colour with random pixels over part of it, lightened or darkened at random."""
    image = np.empty((height, width, 3), dtype=np.uint8)
    image[:] = rng.integers(40, 216, size=3)
    glyph = rng.random((height, width)) < rng.uniform(0, 0.95)
    image[glyph] = rng.integers(0, 256, size=(int(glyph.sum()), 3))
    shift = rng.integers(-30, 31, size=3)
    return np.clip(image.astype(int) + shift, 0, 255).astype(np.uint8)


@settings(max_examples=60, deadline=None)
@given(pictures, st.sampled_from([1.0, 0.3]), st.integers(4, 12), st.integers(4, 12))
def test_a_mask_keeping_a_box_measures_as_the_pictures_cut_to_that_box(
    rng: np.random.Generator, weight: float, height: int, width: int
) -> None:
    top, left = (int(rng.integers(0, side // 2)) for side in (height, width))
    bottom, right = (
        int(rng.integers(start + 2, side + 1)) for start, side in ((top, height), (left, width))
    )
    mask = np.zeros((height, width), dtype=bool)
    mask[top:bottom, left:right] = True
    templates = [picture(rng, height, width) for _ in range(3)]
    patches = np.stack([picture(rng, height, width) for _ in range(4)] + templates)
    patches[4:, ~mask] = rng.integers(0, 256, size=(3, int((~mask).sum()), 3))

    def cut(images: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
        return np.ascontiguousarray(images[..., top:bottom, left:right, :])

    masked = TemplateBank(range(3), templates, weight, mask)
    boxed = TemplateBank(range(3), [cut(t) for t in templates], weight)
    np.testing.assert_allclose(masked.distances(patches), boxed.distances(cut(patches)), atol=1e-4)
    assert np.allclose(np.diagonal(masked.distances(patches[4:])), 0, atol=2e-3)
    grounds = rng.random(patches.shape)
    np.testing.assert_allclose(
        masked.distances_over_ground(patches, grounds),
        boxed.distances_over_ground(cut(patches), cut(grounds)),
        atol=1e-4,
    )
    if weight == 1.0:
        np.testing.assert_allclose(masked.separations, boxed.separations, atol=1e-5)
        guesses = np.array([0, 1, 2, 0, 0, 1, 2])
        _, gaps = masked.nearest_others()
        for bank, seen in ((masked, patches), (boxed, cut(patches))):
            sure, distance = bank.certify(seen, 0.5, guesses, gaps)
            finite = np.isfinite(distance)
            want = boxed.distances(cut(patches))[np.arange(len(guesses)), guesses]
            np.testing.assert_allclose(distance[finite], want[finite], atol=1e-4)
            assert sure[4:].all()
    assert flatness(templates[0], mask) == pytest.approx(flatness(cut(templates[0])))


def test_a_mask_that_keeps_nothing_or_another_shape_is_refused() -> None:
    tile = np.zeros((5, 5, 3), dtype=np.uint8)
    for mask in (np.zeros((5, 5), dtype=bool), np.ones((4, 5), dtype=bool)):
        with pytest.raises(ValueError, match="compares nothing"):
            TemplateBank([0], [tile], mask=mask)
