"""``autosweeper skins``: the stored skins listed, exported and imported."""

from __future__ import annotations

from pathlib import Path

import pytest
from drawn_boards import tile_pictures
from skin_documents import edit_json, saved

from calibration.catalogue import Catalogue
from calibration.inference import learn
from calibration.record import Evidence
from calibration.skin_build import build_skin
from calibration.store import list_skins, save_skin
from controller.cli import main
from solver import Tile
from vision.new_game import NewGame
from vision.synthetic import make_skin


def test_skins_command_lists_exports_and_imports(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    pictures = tile_pictures(16, 2)
    catalogue = Catalogue(pictures[0])
    catalogue.add(pictures[1])
    meanings = learn([], set())
    meanings.give(1, Tile.ZERO, "drawn")
    monkeypatch.setenv("AUTOSWEEPER_SKINS", str(tmp_path / "skins"))
    assert main(["skins", "list"]) == 0
    assert "no skins" in capsys.readouterr().out
    save_skin(build_skin("drawn", Evidence(catalogue), meanings, {}, NewGame("key", "f2")))
    assert main(["skins", "list"]) == 0
    listed = capsys.readouterr().out
    assert "drawn: pitch 16x16, 2 tiles" in listed and "new game by f2" in listed
    assert main(["skins", "export", "drawn", str(tmp_path / "drawn.zip")]) == 0
    monkeypatch.setenv("AUTOSWEEPER_SKINS", str(tmp_path / "elsewhere"))
    assert main(["skins", "import", str(tmp_path / "drawn.zip")]) == 0
    assert list_skins() == ["drawn"]
    assert main(["skins", "export", "missing", str(tmp_path / "m.zip")]) == 1
    assert "no skin 'missing'" in capsys.readouterr().err


def test_skins_list_shows_the_good_skins_and_a_line_per_broken_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    home = tmp_path / "skins"
    monkeypatch.setenv("AUTOSWEEPER_SKINS", str(home))
    edit_json(saved(home, "a-broken"), pitch=[16])
    saved(home, "b-good")
    edit_json(saved(home, "c-broken"), new_game={"kind": "key", "key": "win"})
    assert main(["skins", "list"]) == 1
    out, err = capsys.readouterr()
    assert out.startswith("b-good: pitch 16x16")
    lines = err.splitlines()
    assert len(lines) == 2
    assert "'a-broken'" in lines[0] and "pitch" in lines[0]
    assert "'c-broken'" in lines[1] and "new_game key 'win'" in lines[1]
    save_skin(make_skin(16, name="a-broken"), home)
    save_skin(make_skin(16, name="c-broken"), home)
    assert main(["skins", "list"]) == 0
