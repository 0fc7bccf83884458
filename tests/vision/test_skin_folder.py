"""A skin's folder (:mod:`vision.skin_folder`): what :meth:`vision.skin.Skin.save` writes,
:meth:`vision.skin.Skin.load` reads back, and a folder edited by hand or broken is refused
naming the file and the field, never a crash later in ``play`` (issue 10, section 2)."""

from __future__ import annotations

import json
import tempfile
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import given
from skin_documents import (
    FUZZ,
    GOOD,
    button_looks,
    edit_json,
    one_line_naming,
    png,
    same,
    saved,
    skin_documents,
)

from calibration.store import save_skin
from vision.bench import ring_mask
from vision.errors import SkinError
from vision.new_game import NewGame
from vision.skin import Skin
from vision.synthetic import make_skin

# --- names in skin.json are known names, never paths ----------------------------------------------


def test_load_refuses_tile_names_that_are_not_tiles(tmp_path: Path) -> None:
    folder = saved(tmp_path)
    edit_json(folder, tiles=["HIDDEN", "../HIDDEN"])
    with pytest.raises(SkinError) as raised:
        Skin.load(folder)
    one_line_naming(raised, str(folder / "skin.json"), "tiles", "'../HIDDEN'")


# --- the new-game action is one that starts a new game --------------------------------------------


@pytest.mark.parametrize("key", ["win", "delete", "sleep", "alt+f4", "F2 ", "", 2])
def test_load_refuses_keys_that_do_not_start_a_new_game(tmp_path: Path, key: object) -> None:
    folder = saved(tmp_path)
    edit_json(folder, new_game={"kind": "key", "key": key})
    with pytest.raises(SkinError) as raised:
        Skin.load(folder)
    one_line_naming(raised, str(folder / "skin.json"), "new_game key")


@pytest.mark.parametrize("kind", ["click", "macro", None, ["key"]])
def test_load_refuses_unknown_new_game_kinds(tmp_path: Path, kind: object) -> None:
    folder = saved(tmp_path)
    edit_json(folder, new_game={"kind": kind, "key": None})
    with pytest.raises(SkinError) as raised:
        Skin.load(folder)
    one_line_naming(raised, str(folder / "skin.json"), "new_game kind")


@pytest.mark.parametrize("key", ["f2", "n", "ctrl+r", "ctrl+n"])
def test_the_keys_real_games_use_are_accepted(tmp_path: Path, key: str) -> None:
    folder = saved(tmp_path)
    edit_json(folder, new_game={"kind": "key", "key": key})
    assert Skin.load(folder).new_game == NewGame("key", key)


def test_a_new_game_point_beside_the_board_is_saved_and_loaded(tmp_path: Path) -> None:
    folder = saved(tmp_path)
    edit_json(folder, new_game={"kind": "point", "key": None, "at": [-30, 12]})
    loaded = Skin.load(folder).new_game
    assert loaded == NewGame("point", at=(-30, 12))
    assert loaded.to_json() == {"kind": "point", "key": None, "at": [-30, 12]}


@pytest.mark.parametrize("count", [1, 3])
def test_the_looks_of_a_new_game_button_are_saved_and_loaded(tmp_path: Path, count: int) -> None:
    looks = button_looks(count)
    skin = replace(make_skin(16, name="b"), new_game=NewGame("point", at=(-30, 12)), buttons=looks)
    folder = save_skin(skin, tmp_path)
    assert (folder / "button.png").exists() and (folder / "button.3.png").exists() == (count == 3)
    loaded = Skin.load(folder)
    assert len(loaded.buttons) == count
    assert all(np.array_equal(a, b) for a, b in zip(loaded.buttons, looks, strict=True))
    assert loaded.new_game == NewGame("point", at=(-30, 12))


def test_a_skin_saved_when_a_button_had_one_look_loads_it(tmp_path: Path) -> None:
    skin = replace(
        make_skin(16, name="b"), new_game=NewGame("point", at=(-30, 12)), buttons=button_looks(1)
    )
    folder = save_skin(skin, tmp_path)
    meta = json.loads((folder / "skin.json").read_text())
    del meta["buttons"]
    meta["button"] = True  # as sessions before 29 wrote it
    (folder / "skin.json").write_text(json.dumps(meta))
    assert same(Skin.load(folder), skin)


@pytest.mark.parametrize(
    ("looks", "missing"), [({"button": True}, "button.png"), ({"buttons": 2}, "button.2.png")]
)
def test_load_refuses_a_button_picture_that_is_missing(
    tmp_path: Path, looks: dict[str, object], missing: str
) -> None:
    folder = saved(tmp_path)
    meta = json.loads((folder / "skin.json").read_text())
    del meta["buttons"]
    meta.update(looks, new_game={"kind": "point", "key": None, "at": [-30, 12]})
    (folder / "skin.json").write_text(json.dumps(meta))
    if missing != "button.png":
        cv2.imwrite(str(folder / "button.png"), button_looks(1)[0])
    with pytest.raises(SkinError) as raised:
        Skin.load(folder)
    one_line_naming(raised, str(folder / missing), "missing")


@pytest.mark.parametrize(
    ("new_game", "named"),
    [
        ({"kind": "point", "key": None}, "names no point"),
        ({"kind": "face", "key": None, "at": [1, 2]}, "takes no point"),
        ({"kind": "point", "at": [1, "2"]}, "new_game point"),
        ({"kind": "point", "at": [1]}, "new_game point"),
        ({"kind": "point", "at": [1, 2, 3]}, "new_game point"),
        ({"kind": "point", "at": 5}, "new_game point"),
        ({"kind": "point", "at": [99_999, 0]}, "new_game point"),
        ({"kind": "point", "at": [1.5, 0]}, "new_game point"),
    ],
)
def test_load_refuses_a_new_game_point_that_is_missing_or_malformed(
    tmp_path: Path, new_game: dict[str, object], named: str
) -> None:
    folder = saved(tmp_path)
    edit_json(folder, new_game=new_game)
    with pytest.raises(SkinError) as raised:
        Skin.load(folder)
    one_line_naming(raised, str(folder / "skin.json"), named)


# --- broken skins are refused at load, naming the file and the field ------------------------------


def test_load_refuses_a_mask_that_is_grey_small_or_keeps_too_little(tmp_path: Path) -> None:
    skin = make_skin(16, name="m")
    folder = save_skin(replace(skin, mask=ring_mask(skin)), tmp_path)
    width, height = skin.tile_size
    for picture, problem in [
        (np.full((height, width, 3), 128, np.uint8), "only black and white"),
        (np.full((height - 1, width, 3), 255, np.uint8), "not a black and white"),
        (np.zeros((height, width, 3), np.uint8), "white on at least 50%"),
    ]:
        cv2.imwrite(str(folder / "mask.png"), picture)
        with pytest.raises(SkinError) as raised:
            Skin.load(folder)
        one_line_naming(raised, "mask", problem)


@pytest.mark.parametrize(
    ("member", "content", "said"),
    [
        ("tiles/ONE.png", png(1, 1), "tile ONE"),
        ("tiles/ONE.png", png(15, 14), "tile ONE"),
        ("tiles/ONE.png", b"GIF89a not a png", "not a PNG"),
        ("tiles/ONE.png", png(15, 15)[:60], "damaged"),
        ("tiles/ONE.png", png(30_000, 20)[:40] + b"\0" * 100, "30000x20"),
        ("faces/won.png", png(20, 24), "faces"),
        ("faces/won.png", png(2, 2), "face won"),
    ],
)
def test_broken_pictures_are_refused_naming_the_file(
    tmp_path: Path, member: str, content: bytes, said: str
) -> None:
    folder = saved(tmp_path / "made")
    (folder / member).write_bytes(content)
    with pytest.raises(SkinError) as raised:
        Skin.load(folder)
    one_line_naming(raised, str(folder), said)
    assert member in str(raised.value) or said == "faces"


def test_an_oversized_skin_json_is_refused_unread(tmp_path: Path) -> None:
    folder = saved(tmp_path)
    edit_json(folder, extra={"padding": "x" * 100_000})
    with pytest.raises(SkinError) as raised:
        Skin.load(folder)
    one_line_naming(raised, str(folder / "skin.json"), "larger than 65536 bytes")


def test_a_missing_picture_is_refused_naming_it(tmp_path: Path) -> None:
    folder = saved(tmp_path)
    (folder / "tiles" / "SEVEN.png").unlink()
    with pytest.raises(SkinError) as raised:
        Skin.load(folder)
    one_line_naming(raised, str(folder / "tiles" / "SEVEN.png"), "missing")


# --- older skins load; anything a skin.json holds ends in a skin or a SkinError -------------------


def test_a_skin_saved_before_level_weights_loads_with_the_plain_distance(tmp_path: Path) -> None:
    folder = replace(GOOD, level_weight=0.4).save(tmp_path / "skin")
    assert Skin.load(folder).level_weight == 0.4
    document = json.loads((folder / "skin.json").read_text())
    del document["level_weight"]
    (folder / "skin.json").write_text(json.dumps(document))
    assert Skin.load(folder).level_weight == 1.0


@FUZZ
@given(skin_documents())
def test_fuzz_load_gives_a_skin_or_a_skin_error(document: object) -> None:
    with tempfile.TemporaryDirectory() as work:
        folder = GOOD.save(Path(work) / "skin")
        (folder / "skin.json").write_text(json.dumps(document))
        try:
            skin = Skin.load(folder)
        except SkinError as error:
            assert "\n" not in str(error)
        else:
            skin.check()
