"""TemplateBank's distance with a level weight, against a direct float64 computation, and with a
mask, against the pictures cut to what it keeps."""

from __future__ import annotations

from typing import TypeVar

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.match import (
    BACKGROUND_CANDIDATES,
    BACKGROUND_LEAST,
    BACKGROUND_NEAR,
    BACKGROUND_RANGE,
    TemplateBank,
    flatness,
)
from vision.synthetic import LAYOUTS, make_skin

Pixels = TypeVar("Pixels", npt.NDArray[np.uint8], npt.NDArray[np.float64])
"""Pictures, or their grounds (floats), cut alike."""


def direct(template: npt.NDArray[np.uint8], patch: npt.NDArray[np.uint8], weight: float) -> float:
    """The distance as the module doc says, pixel by pixel: the patch less the template, less
    the better of two per-channel offsets (over the whole picture, or over the template's flat
    background and partly its edge), plus the offset counted at ``weight``."""
    height, width, _ = template.shape
    t = template.astype(np.float64)
    difference = patch.astype(np.float64) - t
    colours = t.reshape(-1, 3)[:: max(1, height * width // BACKGROUND_CANDIDATES)]
    flat = [np.abs(t - colour).max(axis=2) for colour in colours]
    away = max(flat, key=lambda distance: int((distance <= BACKGROUND_NEAR).sum()))
    core = away <= BACKGROUND_NEAR
    share = np.ones((height, width))
    if core.mean() >= BACKGROUND_LEAST:
        for y in range(height):
            for x in range(width):
                beside = core[max(0, y - 1) : y + 2, max(0, x - 1) : x + 2].any()
                fade = (BACKGROUND_RANGE - away[y, x]) / (BACKGROUND_RANGE - BACKGROUND_NEAR)
                share[y, x] = 1.0 if core[y, x] else min(1.0, max(0.0, fade)) if beside else 0.0
    best = np.inf
    for shares in (np.ones((height, width)), share):
        offset = np.einsum("yxc,yx->c", difference, shares) / (shares**2).sum()
        rest = difference - shares[..., None] * offset
        best = min(best, (rest**2).sum() + weight**2 * (shares**2).sum() * (offset**2).sum())
    return float(np.sqrt(best / difference.size) / 255)


pictures = st.integers(0, 2**32 - 1).map(np.random.default_rng)


def picture(rng: np.random.Generator, size: int, width: int | None = None) -> npt.NDArray[np.uint8]:
    """A plain colour with a random glyph (or noise: most pixels random), lightened or darkened
    by a random offset; ``size`` high and ``width`` (default ``size``) wide."""
    width = size if width is None else width
    image = np.empty((size, width, 3), dtype=np.uint8)
    image[:] = rng.integers(40, 216, size=3)
    glyph = rng.random((size, width)) < rng.uniform(0, 0.95)
    image[glyph] = rng.integers(0, 256, size=(int(glyph.sum()), 3))
    shift = rng.integers(-30, 31, size=3)
    return np.clip(image.astype(int) + shift, 0, 255).astype(np.uint8)


@settings(max_examples=60, deadline=None)
@given(pictures, st.floats(0.05, 1.0), st.integers(3, 12))
def test_the_lenient_distance_is_the_best_offset_counted_at_its_weight(
    rng: np.random.Generator, weight: float, size: int
) -> None:
    templates = [picture(rng, size) for _ in range(3)]
    patches = np.stack([picture(rng, size) for _ in range(4)] + templates)
    bank = TemplateBank(range(3), templates, weight)
    got = bank.distances(patches)
    want = np.array([[direct(t, p, weight) for t in templates] for p in patches])
    np.testing.assert_allclose(got, want, atol=2e-3)
    plain = TemplateBank(range(3), templates).distances(patches)
    assert (got <= plain + 1e-4).all()
    assert np.allclose(np.diagonal(got[4:]), 0, atol=2e-3)


def test_a_level_offset_counts_at_the_weight_and_a_shape_change_almost_in_full() -> None:
    template = np.full((10, 10, 3), 120, dtype=np.uint8)
    template[3:7, 4:6] = 20  # a digit on a plain background
    lighter = template.copy()
    lighter[template == 120] = 140  # the background 20 levels lighter, the digit as it was
    other = template.copy()
    other[3:7, 2:4] = 20  # another digit
    bank = TemplateBank(["t"], [template], 0.25)
    light, moved = bank.distances(np.stack([lighter, other]))[:, 0]
    assert abs(light - 0.25 * 20 * np.sqrt(92 / 100) / 255) < 1e-4
    plain = TemplateBank(["t"], [template]).distances(other[None])[0, 0]
    assert 0.9 * plain < moved <= plain and moved > 5 * light


def crossed(ground: float) -> npt.NDArray[np.uint8]:
    """A red cross with a soft edge drawn over a grey ground, as kmines draws a wrong flag."""
    size = 17
    ys, xs = np.mgrid[0:size, 0:size]
    across = np.minimum(np.abs(ys - xs), np.abs(ys + xs - (size - 1))).astype(float)
    opacity = np.clip(2.5 - across, 0, 1)[..., None]
    return np.rint(opacity * np.array([0, 0, 200]) + (1 - opacity) * ground).astype(np.uint8)


def test_a_glyph_edge_moves_partly_with_the_ground_under_it() -> None:
    """The cross's soft edge is part ground: 20 levels lighter ground lightens it in proportion.
    Only the flat ground moving (not the edge) left 0.036 here, over the grouping tolerance."""
    top, lower = crossed(190.0), crossed(170.0)
    lenient = TemplateBank(["cross"], [top], 0.2).distances(lower[None])[0, 0]
    plain = TemplateBank(["cross"], [top]).distances(lower[None])[0, 0]
    assert plain > 0.05 and lenient < 0.025


@pytest.mark.parametrize("pitch", sorted(LAYOUTS))
def test_every_template_is_at_distance_zero_from_itself(pitch: int) -> None:
    """A distance is a small difference of large float32 sums: before the values were centred,
    the synthetic skins' flat tiles read up to 0.002 from themselves, and a hypothesis test of
    exact reading (``scores < 1e-3``) failed on one."""
    pictures = [image for _, image in make_skin(pitch, seed=pitch).pictures()]
    bank = TemplateBank(list(range(len(pictures))), pictures)
    assert np.diag(bank.distances(np.stack(pictures))).max() < 2e-4


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

    def cut(images: Pixels) -> Pixels:
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
