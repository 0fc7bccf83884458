"""TemplateBank's distance with a level weight, against a direct float64 computation."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.match import BACKGROUND_NEAR, TemplateBank


def direct(template: npt.NDArray[np.uint8], patch: npt.NDArray[np.uint8], weight: float) -> float:
    """The distance as the module doc says, pixel by pixel: the patch less the template, less
    the better of two per-channel offsets (over the whole picture, or over the template's pixels
    within BACKGROUND_NEAR of its median colour), plus the offset counted at ``weight``."""
    t = template.astype(np.float64).reshape(-1, template.shape[-1])
    p = patch.astype(np.float64).reshape(-1, patch.shape[-1])
    difference = p - t
    median = np.median(t, axis=0)
    near = np.array(
        [
            all(abs(t[i, c] - median[c]) <= BACKGROUND_NEAR for c in range(t.shape[1]))
            for i in range(len(t))
        ]
    )
    best = np.inf
    for where in (np.ones(len(t), dtype=bool), near if near.any() else np.ones(len(t), bool)):
        offset = difference[where].mean(axis=0)
        rest = difference - np.where(where[:, None], offset, 0.0)
        total = (rest**2).sum() + weight**2 * where.sum() * (offset**2).sum()
        best = min(best, total)
    return float(np.sqrt(best / difference.size) / 255)


pictures = st.integers(0, 2**32 - 1).map(np.random.default_rng)


def picture(rng: np.random.Generator, size: int) -> npt.NDArray[np.uint8]:
    """A plain colour with a random glyph, lightened or darkened by a random offset."""
    image = np.empty((size, size, 3), dtype=np.uint8)
    image[:] = rng.integers(40, 216, size=3)
    glyph = rng.random((size, size)) < rng.uniform(0, 0.5)
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
