"""How ``autosweeper calibrate`` is told its window: --game (Linux only), --region,
--window-class/-title."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from controller.cli import main
from controller.commands.calibrate import new_game_way
from controller.desktop import display
from controller.desktop.display import VirtualDisplay
from controller.desktop.processes import find_binary
from vision.new_game import NewGame


@pytest.mark.parametrize(
    "arguments",
    [
        ["--game", "xdemineur", "--window-title", "Minesweeper"],
        ["--region", "0,0,100,100", "--window-class", "winemine"],
    ],
)
def test_a_window_given_two_ways_is_a_usage_error(
    arguments: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["calibrate", *arguments]) == 2
    assert capsys.readouterr().err == (
        "autosweeper calibrate: give one of --game, --region, or --window-class and/or "
        "--window-title\n"
    )


def test_game_and_region_are_exclusive(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["calibrate", "--game", "winemine", "--region", "0,0,10,10"])
    assert done.value.code == 2
    assert "not allowed with argument" in capsys.readouterr().err


def test_no_display_to_search_is_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("DISPLAY", raising=False)
    assert main(["calibrate", "--window-title", "Minesweeper", "--name", "ms"]) == 1
    assert capsys.readouterr().err == (
        "autosweeper calibrate: no DISPLAY: use --game to calibrate on a virtual display\n"
    )


def test_no_x_authority_file_is_one_line_with_the_remedy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # As play says it: python-xlib, which lists the windows and clicks, needs the file.
    monkeypatch.setenv("DISPLAY", ":4243")
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("XAUTHORITY", raising=False)
    for where in (["--window-title", "Minesweeper"], ["--region", "0,0,200,200"]):
        assert main(["calibrate", *where, "--name", "ms"]) == 1
        error = capsys.readouterr().err
        assert error.startswith(
            "autosweeper calibrate: display :4243: no readable X authority file (the default is "
            f"{tmp_path / '.Xauthority'})"
        )
        assert error.count("\n") == 1


@pytest.mark.realgame
def test_a_missing_window_is_one_line_naming_the_search(
    virtual_display: VirtualDisplay, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["calibrate", "--window-class", "no-such-game", "--window-title", "Mines"]) == 1
    error = capsys.readouterr().err
    assert error.startswith(
        "autosweeper calibrate: no visible window whose class contains 'no-such-game' and title "
        f"contains 'Mines' on display {virtual_display.name} (of "
    )
    assert error.count("\n") == 1


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("--mines", "-3"),
        ("--mines", "0"),
        ("--new-game", "escape"),
        ("--new-game", "q"),
        ("--new-game", "alt+f4"),
        ("--new-game", "10,x"),
        ("--new-game", "1,2,3"),
    ],
)
def test_a_bad_mine_count_or_new_game_way_is_a_usage_error(
    option: str, value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as done:
        main(["calibrate", "--region", "0,0,10,10", option, value])
    assert done.value.code == 2
    assert option in capsys.readouterr().err


@pytest.mark.parametrize(
    ("value", "way"),
    [
        ("f2", NewGame("key", "f2")),
        ("s", NewGame("key", "s")),
        ("ctrl+r", NewGame("key", "ctrl+r")),
        ("face", NewGame("face")),
        ("310,-4", (310, -4)),
        (" 12, 40", (12, 40)),
    ],
)
def test_the_new_game_way_is_a_key_the_face_or_a_screen_point(
    value: str, way: NewGame | tuple[int, int]
) -> None:
    assert new_game_way(value) == way


@pytest.mark.skipif(
    sys.platform == "win32" or find_binary("xdemineur") is None, reason="needs POSIX signals"
)
def test_sigterm_during_calibration_stops_it_with_a_line_and_closes_its_display_and_game(
    tmp_path: Path,
) -> None:
    """SIGTERM once killed calibrate silently (exit 143), its Xvfb and game left running."""
    psutil = pytest.importorskip("psutil")
    environment = {**os.environ, "AUTOSWEEPER_SKINS": str(tmp_path)}
    command = [sys.executable, "-m", "controller.cli", "calibrate", "--game", "xdemineur"]
    run = subprocess.Popen(command, env=environment, stderr=subprocess.PIPE, text=True)
    try:
        parent = psutil.Process(run.pid)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            started = parent.children(recursive=True)
            if {"Xvfb", "xdemineur"} <= {child.name() for child in started}:
                break
            time.sleep(0.1)
        time.sleep(1.0)  # calibration under way
        run.terminate()
        _, error = run.communicate(timeout=20)
    finally:
        run.kill()
    assert run.returncode == 130, error
    assert error.splitlines()[-1].startswith("autosweeper calibrate: stopped by signal SIGTERM")
    _, alive = psutil.wait_procs(started, timeout=5)
    assert not alive, f"left running: {alive}"
    assert not list(tmp_path.iterdir())  # no skin saved


def test_calibrate_game_on_windows_is_one_line_without_linux_advice(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(display, "uses_x11", lambda: False)  # as on Windows
    assert main(["calibrate", "--game", "winemine"]) == 1
    error = capsys.readouterr().err
    assert error.startswith("autosweeper calibrate: a game is started on a virtual display")
    assert error.count("\n") == 1 and "apt-get" not in error
