"""``autosweeper skins``: the stored skins listed, exported and imported."""

from __future__ import annotations

from pathlib import Path

import pytest
from drawn_boards import tile_pictures

from calibration.catalogue import Catalogue
from calibration.inference import learn
from calibration.learn import build_skin
from calibration.record import Evidence
from calibration.store import list_skins, save_skin
from controller.cli import main
from solver import Tile
from vision.skin import NewGame


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
