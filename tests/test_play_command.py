"""``autosweeper play`` without a game: when a virtual display is needed, errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.cli import main
from controller.commands.play import needs_virtual_display


def test_a_virtual_display_is_needed_only_on_linux_without_display() -> None:
    assert needs_virtual_display("linux", {})
    assert needs_virtual_display("linux", {"DISPLAY": ""})
    assert not needs_virtual_display("linux", {"DISPLAY": ":0"})
    assert not needs_virtual_display("win32", {})
    assert not needs_virtual_display("darwin", {})


def test_play_refuses_zero_games(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["play", "--games", "0", "--db", str(tmp_path / "log.db")])
    assert done.value.code == 2
    assert "--games" in capsys.readouterr().err


def test_play_names_a_display_it_cannot_open(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DISPLAY", ":4242")
    monkeypatch.setenv("AUTOSWEEPER_SKINS", str(tmp_path / "skins"))
    assert main(["play", "--db", str(tmp_path / "log.db")]) == 1
    assert ":4242" in capsys.readouterr().err


def test_play_says_when_no_skin_is_stored(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pytest.importorskip("Xlib")
    from controller.sandbox import VirtualDisplay, find_binary

    if find_binary("Xvfb") is None:
        pytest.skip("Xvfb is not installed")
    monkeypatch.setenv("AUTOSWEEPER_SKINS", str(tmp_path / "skins"))
    with VirtualDisplay(first_number=170):
        assert main(["play", "--db", str(tmp_path / "log.db")]) == 1
        assert main(["play", "--skin", "nothing", "--db", str(tmp_path / "log.db")]) == 1
    no_skin, no_such_skin = capsys.readouterr().err.splitlines()
    assert "no stored skin" in no_skin and str(tmp_path / "skins") in no_skin
    assert "'nothing'" in no_such_skin
