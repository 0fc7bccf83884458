"""Template distances (vision/match.py): the bank's distance against a direct computation, the
certificate that spares the full comparison, and the pixels gathered for each tile."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.match import TemplateBank, tile_gather, tile_lattice


def test_a_lattice_past_the_image_is_refused() -> None:
    image = np.zeros((50, 80, 3), dtype=np.uint8)
    assert tile_lattice(image, (4, 2), (16, 16), (15, 15), (3, 4)).shape == (3, 4, 15, 15, 3)
    with pytest.raises(ValueError, match=r"3x5 lattice .* from \(4, 2\) does not fit in a 80x50"):
        tile_lattice(image, (4, 2), (16, 16), (15, 15), (3, 5))
    with pytest.raises(ValueError, match="does not fit"):
        tile_lattice(image, (-1, 2), (16, 16), (15, 15), (1, 1))


@settings(max_examples=50, deadline=None)
@given(st.integers(1, 40), st.integers(1, 6), st.integers(0, 2**32 - 1))
def test_bank_distance_is_the_rms_difference(patches: int, templates: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    images = rng.integers(0, 256, size=(templates, 7, 5, 3), dtype=np.uint8)
    tested = rng.integers(0, 256, size=(patches, 7, 5, 3), dtype=np.uint8)
    tested[0] = images[-1]
    bank = TemplateBank(list(range(templates)), list(images))
    expected = (
        np.sqrt(
            ((tested[:, None].astype(float) - images[None].astype(float)) ** 2).mean(axis=(2, 3, 4))
        )
        / 255
    )
    assert np.allclose(bank.distances(tested), expected, atol=2e-3)
    verdict = bank.judge(bank.distances(tested), threshold=0.01)
    assert verdict.best[0] == templates - 1 and verdict.accepted[0]


@settings(max_examples=200, deadline=None)
@given(
    st.integers(1, 40),
    st.integers(1, 6),
    st.floats(0.02, 0.4),
    st.integers(0, 2**32 - 1),
)
def test_a_patch_certified_as_its_guess_is_what_the_full_comparison_accepts(
    patches: int, templates: int, threshold: float, seed: int
) -> None:
    """Each patch reads a random subset of the templates (as a size class reads its own); one
    certified as its guess is accepted as that template by comparing it with every template of
    its subset, at the same distance, whether the guesses are right or not; a patch drawn
    exactly as its guess is always certified."""
    rng = np.random.default_rng(seed)
    images = rng.integers(0, 256, size=(templates, 7, 5, 3), dtype=np.uint8)
    if templates > 1:  # two templates close together, so the certificate is tested near its edge
        images[1] = np.clip(images[0] + rng.integers(-30, 31, size=images[0].shape), 0, 255)
    subsets = rng.random((3, templates)) < 0.7
    subsets[:, 0] = True
    subset = rng.integers(0, 3, size=patches)
    shown = np.array([rng.choice(np.flatnonzero(subsets[s])) for s in subset])
    noise = rng.integers(-1, 2, size=(patches, 1, 1, 1)) * rng.integers(
        0, 60, size=(patches, 7, 5, 3)
    )
    tested = np.clip(images[shown].astype(int) + noise, 0, 255).astype(np.uint8)
    others = np.array([rng.choice([-1, *np.flatnonzero(subsets[s])]) for s in subset])
    guesses = np.where(rng.random(patches) < 0.7, shown, others)
    bank = TemplateBank(list(range(templates)), list(images))
    together = (subsets.T.astype(int) @ subsets.astype(int)) > 0
    sure, distance = bank.certify(tested, threshold, guesses, bank.nearest_others(together)[1])
    for index in np.flatnonzero(sure):
        allowed = np.flatnonzero(subsets[subset[index]])
        own = TemplateBank(list(allowed), list(images[allowed]))
        full = own.judge(own.distances(tested[index : index + 1]), threshold)
        assert full.accepted[0] and allowed[full.best[0]] == guesses[index]
        assert abs(float(full.best_distance[0]) - float(distance[index])) < 2e-3
    exact = (noise.reshape(patches, -1) == 0).all(axis=1) & (guesses == shown)
    assert sure[exact].all()


def test_a_template_with_no_other_beside_it_has_judges_padding_as_its_nearest() -> None:
    images = [np.full((3, 3, 3), level, np.uint8) for level in (0, 30, 200)]
    bank = TemplateBank(["a", "b", "c"], images)
    nearest, gap = bank.nearest_others()
    assert nearest.tolist() == [1, 0, 1] and np.allclose(gap, [30 / 255, 30 / 255, 170 / 255])
    alone = ~np.eye(3, dtype=bool) & np.array([[0, 0, 1], [0, 0, 1], [1, 1, 0]], bool)
    nearest, gap = bank.nearest_others(alone)
    assert nearest.tolist() == [2, 2, 1] and np.allclose(gap, [200 / 255, 170 / 255, 170 / 255])
    one = TemplateBank(["a"], images[:1])
    assert one.nearest_others()[0].tolist() == [1] and np.isinf(one.nearest_others()[1]).all()


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), runs=st.booleans())
def test_gathered_tiles_are_the_pixels_at_their_positions(seed: int, runs: bool) -> None:
    # Copied run by run of consecutive positions, as one take of each pixel would copy them.
    rng = np.random.default_rng(seed)
    image = rng.integers(0, 256, size=(40, 50, 3), dtype=np.uint8)
    columns, width, rows, height = (int(n) for n in rng.integers(1, 6, size=4))
    if runs:  # cells as a board spaces them: consecutive pixels, a skip here and there
        xs = np.sort(rng.choice(50, columns * width, replace=False)).reshape(columns, width)
        ys = np.sort(rng.choice(40, rows * height, replace=False)).reshape(rows, height)
    else:
        xs = rng.integers(0, 50, size=(columns, width))
        ys = rng.integers(0, 40, size=(rows, height))
    for row in range(rows):
        for column in range(columns):
            expected = image[ys[row]][:, xs[column]]
            assert np.array_equal(tile_gather(image, xs, ys)[row, column], expected)
