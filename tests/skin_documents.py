"""Skins and ``skin.json`` documents for the tests of skins, skin folders and archives
(tests/vision/test_skin.py, tests/vision/test_skin_folder.py, tests/calibration/test_store.py): a
good skin saved, its ``skin.json`` edited, pictures, the comparison of two skins, documents near a
good one, and a folder zipped."""

from __future__ import annotations

import json
import tempfile
import zipfile
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from calibration.store import save_skin
from solver import Tile
from vision.errors import SkinError
from vision.new_game import NEW_GAME_KEYS
from vision.skin import FACE_STATES, Image, Skin
from vision.synthetic import make_skin

GOOD = make_skin(16, name="good")


def saved(folder: Path, name: str = "good") -> Path:
    """A complete skin saved in ``folder`` under ``name``; returns its folder."""
    return save_skin(make_skin(16, name=name), folder)


def edit_json(skin_folder: Path, **fields: Any) -> None:
    meta = json.loads((skin_folder / "skin.json").read_text())
    meta.update(fields)
    (skin_folder / "skin.json").write_text(json.dumps(meta))


def png(width: int, height: int, value: int = 128) -> bytes:
    ok, encoded = cv2.imencode(".png", np.full((height, width, 3), value, dtype=np.uint8))
    assert ok
    return encoded.tobytes()


def same(a: Skin, b: Skin) -> bool:
    """Skins with equal fields and pixel-equal pictures (arrays do not compare with ``==``)."""
    fields = (
        "name",
        "pitch",
        "tile_size",
        "tile_offset",
        "threshold",
        "new_game",
        "extra",
        "level_weight",
    )
    return (
        all(getattr(a, name) == getattr(b, name) for name in fields)
        and a.templates.keys() == b.templates.keys()
        and a.faces.keys() == b.faces.keys()
        and all(np.array_equal(a.templates[tile], b.templates[tile]) for tile in a.templates)
        and all(np.array_equal(a.faces[state], b.faces[state]) for state in a.faces)
        and len(a.buttons) == len(b.buttons)
        and all(np.array_equal(x, y) for x, y in zip(a.buttons, b.buttons, strict=True))
        and (a.mask is None) == (b.mask is None)
        and (a.mask is None or b.mask is None or np.array_equal(a.mask, b.mask))
        and {c: d.keys() for c, d in a.finished.items()}
        == {c: d.keys() for c, d in b.finished.items()}
        and all(
            np.array_equal(image, b.finished[c][tile])
            for c, drawn in a.finished.items()
            for tile, image in drawn.items()
        )
    )


def one_line_naming(error: pytest.ExceptionInfo[SkinError], *parts: str) -> None:
    message = str(error.value)
    assert "\n" not in message
    for part in parts:
        assert part in message, f"{part!r} not in {message!r}"


def button_looks(count: int) -> tuple[Image, ...]:
    """``count`` pictures of a new-game button, each its own colour inside."""
    looks = []
    for number in range(count):
        look = np.zeros((17, 17, 3), dtype=np.uint8)
        look[4:13, 4:13] = (40, 200 - 40 * number, 90)
        looks.append(look)
    return tuple(looks)


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | st.text(max_size=20)
    | st.sampled_from(["HIDDEN", "ONE", "won", "f2", "ctrl+n", "key", "face", "../x", "/x"]),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=12), children, max_size=4)
    ),
    max_leaves=12,
)


NUMBERS = st.integers(-2, 300) | st.floats(allow_nan=True) | st.sampled_from([True, 10**30])


NAMES = st.sampled_from([tile.name for tile in Tile] + list(FACE_STATES) + ["../x", "/x", ""])


NEAR_VALUES: dict[str, st.SearchStrategy[Any]] = {
    "format": st.sampled_from([1, 2, "1", None]),
    "name": st.sampled_from(["ok", "../up", "a/b", "", "x" * 70, ".hidden", "C:"]),
    "pitch": st.lists(NUMBERS, max_size=3),
    "tile_size": st.lists(NUMBERS, max_size=3),
    "tile_offset": st.lists(NUMBERS, max_size=3),
    "threshold": NUMBERS,
    "level_weight": NUMBERS,
    "new_game": st.fixed_dictionaries(
        {},
        optional={
            "kind": st.sampled_from(["key", "face", "point", "click", ""]) | JSON,
            "key": st.sampled_from([*NEW_GAME_KEYS, "s", "q", "win", "alt+f4", None]) | JSON,
            "at": st.lists(NUMBERS, max_size=3) | JSON,
        },
    ),
    "tiles": st.lists(NAMES, max_size=16),
    "faces": st.lists(NAMES, max_size=4),
    "extra": st.dictionaries(
        st.sampled_from(["question_marks", "game", "first_click", "board", "other"]),
        st.sampled_from([True, False, None, "safe", "xp", "always", "8x8x10", "8x8x64"]) | JSON,
        max_size=3,
    ),
}
"""Per field of skin.json, values near the valid ones (arbitrary JSON covers the rest)."""


def good_document() -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        return dict(json.loads((GOOD.save(Path(folder)) / "skin.json").read_text()))


GOOD_DOCUMENT = good_document()


@st.composite
def skin_documents(draw: st.DrawFn) -> object:
    """A skin.json document: arbitrary JSON, or a good document with a few fields changed
    (removed, set to a value near a valid one, or set to arbitrary JSON)."""
    if draw(st.integers(0, 4)) == 0:
        return draw(JSON)
    document = dict(GOOD_DOCUMENT)
    for name in draw(st.lists(st.sampled_from(sorted(NEAR_VALUES)), max_size=2)):
        how = draw(st.sampled_from(["remove", "near", "near", "any"]))
        if how == "remove":
            document.pop(name, None)
        else:
            document[name] = draw(NEAR_VALUES[name] if how == "near" else JSON)
    return document


FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
"""How many examples each fuzz test of a skin tries."""


def zip_of(folder: Path, archive: Path) -> Path:
    """Every file under ``folder`` (a skin folder) as zip ``archive``."""
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zipped:
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                zipped.write(path, path.relative_to(folder).as_posix())
    return archive
