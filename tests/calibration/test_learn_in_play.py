"""What play teaches a skin (calibration/learn_in_play.py)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from calibration.learn_in_play import learn_picture
from solver import Tile
from vision.synthetic import make_skin

SKIN = make_skin(16, seed=3, name="drawn")
"""A drawn skin whose tiles the test teaches new pictures."""


def test_a_picture_learned_in_play_changes_only_how_its_size_class_reads() -> None:
    skin = replace(SKIN, templates=dict(SKIN.templates), variants={}, seen={0: {Tile.ONE}})
    del skin.templates[Tile.EIGHT]
    old_one, drawn = (
        skin.templates[Tile.ONE],
        [np.full_like(SKIN.templates[Tile.ONE], n) for n in range(3)],
    )
    learn_picture(skin, Tile.EIGHT, 2, drawn[0])  # no picture at all: the template
    assert skin.templates[Tile.EIGHT] is drawn[0] and skin.variants == {}
    learn_picture(skin, Tile.ONE, 2, drawn[1])  # the class's own picture
    assert skin.variants == {2: {Tile.ONE: drawn[1]}} and skin.templates[Tile.ONE] is old_one
    learn_picture(skin, Tile.ONE, 0, drawn[2])  # class 0's: the template, the others keep theirs
    assert skin.templates[Tile.ONE] is drawn[2]
    kept = {c: v[Tile.ONE] for c, v in skin.variants.items()}
    assert sorted(kept) == [1, 2, 3]
    assert kept[1] is old_one and kept[2] is drawn[1] and kept[3] is old_one
    assert skin.seen == {0: {Tile.ONE}, 2: {Tile.EIGHT, Tile.ONE}}
