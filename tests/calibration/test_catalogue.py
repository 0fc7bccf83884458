"""Tile pictures grouped into appearances (calibration/catalogue.py): pictures a few levels apart
are one appearance, different tiles are not."""

from __future__ import annotations

import numpy as np
import pytest
from drawn_boards import tile_pictures

from calibration.catalogue import GROUPING_TOLERANCE, HIDDEN_ID, Catalogue
from calibration.errors import CalibrationError


def test_a_picture_within_reach_of_the_hidden_tile_takes_a_nearer_appearance_met_beside_it() -> (
    None
):
    """A first click's flood shows opened 0s, some over an edge of the game's background
    (kmines Medium): one such 0 is within the tolerance of the hidden tile, yet nearer the 0
    met in the same frame. It is that 0, whichever cell came first; a picture nearer the hidden
    tile stays hidden."""
    rng = np.random.default_rng(3)
    hidden = np.full((16, 16, 3), 128, dtype=np.uint8)
    pattern = rng.choice([-1, 1], size=(16, 16, 1)) * np.ones((1, 1, 3))
    step = 255 * 4 / 3 * GROUPING_TOLERANCE  # the 0 is 4/3 of the tolerance from hidden
    zero, near_zero, near_hidden = (
        (128 + share * step * pattern).astype(np.uint8) for share in (1.0, 0.7, 0.3)
    )
    for order in ((zero, near_zero), (near_zero, zero)):
        catalogue = Catalogue(hidden)
        ids = catalogue.ids(np.array([[*order, near_hidden]]))
        assert len(catalogue.images) == 2
        assert ids.tolist() == [[1, 1, HIDDEN_ID]]


def test_pictures_a_few_levels_apart_are_one_appearance_and_a_tile_is_another() -> None:
    hidden, flag = tile_pictures(16, 2, seed=3)
    rng = np.random.default_rng(4)
    variants = [
        np.clip(hidden.astype(int) + rng.integers(-5, 6, size=hidden.shape), 0, 255).astype(
            np.uint8
        )
        for _ in range(6)
    ]
    catalogue = Catalogue(hidden)
    fresh = np.stack(variants)[None]  # a 1x6 board of hidden tiles drawn with small differences
    catalogue.learn_spread(fresh)
    assert (catalogue.ids(fresh) == HIDDEN_ID).all()
    assert catalogue.add(flag) == 1 and catalogue.add(variants[0]) == HIDDEN_ID


def test_a_fresh_board_whose_hidden_tiles_vary_like_tiles_is_refused() -> None:
    hidden = tile_pictures(16, 1, seed=3)[0]
    shifted = np.clip(hidden.astype(int) + 40, 0, 255).astype(np.uint8)
    catalogue = Catalogue(hidden)
    assert catalogue.add(shifted) != HIDDEN_ID
    # Not a level offset (a gradient under the board, which the catalogue allows for): pixels
    # that differ from one another, as different tiles do.
    noise = np.random.default_rng(5).integers(-25, 26, size=hidden.shape)
    near = np.clip(hidden.astype(int) + noise, 0, 255).astype(np.uint8)
    with pytest.raises(CalibrationError, match="too much to tell tiles apart"):
        Catalogue(hidden).learn_spread(np.stack([hidden, near])[None])


def test_flat_cells_a_new_game_opened_by_itself_are_no_variants_of_a_flat_hidden_tile() -> None:
    """UXBgtk's buttons are flat grey, dark when hidden and light when opened, and every new
    game opens a 0 and its flood by itself: near the hidden tile once levels count little (a
    gradient under the board), the opened cells were taken for its variants and calibration
    stopped ("the fresh board's hidden tiles differ by up to 0.074"). Pictures that stand apart
    in level from the hidden tile's run of levels are not its variants."""
    hidden = np.full((38, 38, 3), 136, dtype=np.uint8)
    hidden[:2], hidden[:, :2] = 199, 199  # a frame round the flat face
    opened = np.clip(hidden.astype(int) + 58, 0, 255).astype(np.uint8)
    one = opened.copy()
    one[12:26, 17:21] = (60, 120, 200)  # a 1
    fresh = np.stack([hidden] * 10 + [opened] * 4 + [one] * 2).reshape(4, 4, 38, 38, 3)
    catalogue = Catalogue(hidden)
    assert catalogue.learn_spread(fresh) == GROUPING_TOLERANCE
    assert catalogue.add(opened) != HIDDEN_ID
