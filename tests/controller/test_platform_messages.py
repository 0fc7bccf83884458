"""Messages fit the platform: an option that needs Linux's virtual display says so on Windows
and macOS instead of being ignored or giving Linux advice (apt-get)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from controller.cli import main
from controller.commands import play
from controller.desktop import display
from controller.desktop.display import VirtualDisplay
from controller.errors import SandboxError, SetupError


@pytest.mark.parametrize("platform", ["win32", "darwin"])
def test_a_virtual_display_on_windows_or_macos_says_it_is_linux_only(
    platform: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "platform", platform)
    with pytest.raises(SandboxError) as refused:
        VirtualDisplay().start()
    message = str(refused.value)
    assert f"only on Linux, not on {platform}: open the game and leave out --game" in message
    assert "apt-get" not in message


def test_calibrate_game_on_windows_is_one_line_without_linux_advice(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(display, "uses_x11", lambda: False)  # as on Windows
    assert main(["calibrate", "--game", "winemine"]) == 1
    error = capsys.readouterr().err
    assert error.startswith("autosweeper calibrate: a game is started on a virtual display")
    assert error.count("\n") == 1 and "apt-get" not in error


def test_play_game_on_windows_is_refused_not_ignored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(play, "uses_x11", lambda: False)  # as on Windows
    monkeypatch.setattr(play, "needs_virtual_display", lambda: False)
    db = tmp_path / "log.db"
    assert main(["play", "--game", "xdemineur", "--db", str(db)]) == 1
    assert capsys.readouterr().err == (
        "autosweeper play: --game starts a game on a virtual display, which only Linux has: "
        f"on {sys.platform} open the game and leave out --game\n"
    )


def test_play_game_with_a_display_says_the_open_game_is_played(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DISPLAY", ":4321")
    monkeypatch.setattr(play, "needs_virtual_display", lambda: False)

    def no_window(*args: object) -> None:
        raise SetupError("no Minesweeper board on the screen")

    monkeypatch.setattr(play, "desktop_table", no_window)
    assert main(["play", "--game", "xdemineur", "--db", str(tmp_path / "log.db")]) == 1
    notes = capsys.readouterr().err.splitlines()
    assert notes == [
        "autosweeper play: --game is for a machine with no display; DISPLAY is :4321, so the "
        "game open there is played",
        "autosweeper play: no Minesweeper board on the screen",
    ]
