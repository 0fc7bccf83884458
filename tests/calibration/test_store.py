"""The skin store (calibration/store.py): skins saved, listed, exported and imported, and their
names."""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np
import pytest
from drawn_boards import tile_pictures
from hypothesis import given
from hypothesis import strategies as st

from calibration.catalogue import Catalogue
from calibration.inference import learn
from calibration.learn import build_skin
from calibration.record import Evidence
from calibration.store import (
    check_name,
    export_skin,
    import_skin,
    list_skins,
    load_skin,
    name_from,
    save_skin,
)
from solver import Tile
from vision.errors import SkinError
from vision.skin import NewGame


def test_skins_are_saved_listed_exported_and_imported(tmp_path: Path) -> None:
    pictures = tile_pictures(16, 2)
    catalogue = Catalogue(pictures[0])
    catalogue.add(pictures[1])
    meanings = learn([], set())
    meanings.give(1, Tile.ZERO, "drawn")
    skin = build_skin("my-game", Evidence(catalogue), meanings, {}, NewGame("face"))
    home, other = tmp_path / "home", tmp_path / "other"
    save_skin(skin, home)
    assert list_skins(home) == ["my-game"]
    archive = export_skin("my-game", tmp_path / "my-game.zip", home)
    imported = import_skin(archive, other)
    assert list_skins(other) == ["my-game"]
    assert imported.new_game == NewGame("face")
    assert np.array_equal(
        load_skin("my-game", other).templates[Tile.ZERO], skin.templates[Tile.ZERO]
    )
    with pytest.raises(SkinError, match="no skin 'nothing'"):
        load_skin("nothing", home)
    with pytest.raises(SkinError, match="not a skin name"):
        load_skin("../escape", home)
    (tmp_path / "junk.zip").write_text("not a zip")
    with pytest.raises(SkinError, match="not a zip"):
        import_skin(tmp_path / "junk.zip", other)
    with zipfile.ZipFile(tmp_path / "sly.zip", "w") as sly:
        sly.writestr("../../outside.json", "{}")
    with pytest.raises(SkinError, match="is not a file of a skin"):
        import_skin(tmp_path / "sly.zip", other)


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Minesweeper | Game", "Minesweeper-Game"),
        ("xdemineur", "xdemineur"),
        ("Démineur (niveau 2)", "D-mineur-niveau-2"),
        ("|||", "skin"),
        ("x" * 80, "x" * 64),
    ],
)
def test_a_window_s_title_gives_a_skin_name(text: str, name: str) -> None:
    """A title with spaces or signs ("Minesweeper | Game", a browser game's) names the skin
    with its letters and digits, rather than being refused."""
    assert name_from(text) == name


@given(st.text(max_size=100))
def test_any_title_gives_a_valid_skin_name(text: str) -> None:
    assert check_name(name_from(text)) == name_from(text)
