"""``autosweeper play``: its errors (no games, no skin, a display it cannot open, no X authority
file), ``--game`` where there is no virtual display, and Ctrl-C stopping all it started."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import psutil
import pytest
from conftest import REPO, Calibrations

from calibration.store import save_skin
from controller.cli import main
from controller.commands import play
from controller.desktop.processes import find_binary
from controller.errors import SetupError
from controller.outcomes import OutcomeLog, Result


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
    from controller.desktop.display import VirtualDisplay
    from controller.desktop.processes import find_binary

    if find_binary("Xvfb") is None:
        pytest.skip("Xvfb is not installed")
    monkeypatch.setenv("AUTOSWEEPER_SKINS", str(tmp_path / "skins"))
    with VirtualDisplay(first_number=170):
        assert main(["play", "--db", str(tmp_path / "log.db")]) == 1
        assert main(["play", "--skin", "nothing", "--db", str(tmp_path / "log.db")]) == 1
    no_skin, no_such_skin = capsys.readouterr().err.splitlines()
    assert "no stored skin" in no_skin and str(tmp_path / "skins") in no_skin
    assert "'nothing'" in no_such_skin


@pytest.fixture
def display_without_authority(tmp_path: Path) -> Iterator[str]:
    """An Xvfb that asks for no cookie (as a desktop started without xauth may), by pid."""
    if find_binary("Xvfb") is None:
        pytest.skip("Xvfb is not installed")
    ready_read, ready_write = os.pipe()
    xvfb = subprocess.Popen(
        ["Xvfb", "-displayfd", str(ready_write), "-nolisten", "tcp"],
        pass_fds=(ready_write,),
        stderr=subprocess.DEVNULL,
    )
    os.close(ready_write)
    with os.fdopen(ready_read) as ready:
        yield f":{ready.readline().strip()}"
    xvfb.terminate()
    xvfb.wait()


@pytest.mark.realgame
def test_play_without_an_x_authority_file_says_so_in_one_line(
    display_without_authority: str, tmp_path: Path
) -> None:
    environment = {key: value for key, value in os.environ.items() if key != "XAUTHORITY"}
    environment.update(
        DISPLAY=display_without_authority,
        HOME=str(tmp_path),
        AUTOSWEEPER_SKINS=str(tmp_path / "skins"),
    )
    run = subprocess.run(
        [sys.executable, "-m", "controller.cli", "play", "--db", str(tmp_path / "log.db")],
        cwd=REPO,
        env=environment,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 1
    assert run.stderr.count("\n") == 1 and "Traceback" not in run.stderr
    assert f"display {display_without_authority}: no readable X authority file" in run.stderr


@pytest.mark.realgame
def test_ctrl_c_in_the_terminal_stops_the_game_and_everything_the_bot_started(
    calibrations: Calibrations, tmp_path: Path
) -> None:
    """SIGINT to the whole foreground process group, as a terminal's Ctrl-C sends it: only the
    bot may act on it, and it closes its own display and game."""
    skin = calibrations.of("xdemineur").skin
    save_skin(skin, tmp_path / "skins")
    db = tmp_path / "log.db"
    environment = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "XAUTHORITY")}
    environment.update(AUTOSWEEPER_SKINS=str(tmp_path / "skins"), XDG_DATA_HOME=str(tmp_path))
    command = ["play", "--game", "xdemineur", "--level", "expert", "--skin", skin.name]
    bot = subprocess.Popen(
        [sys.executable, "-m", "controller.cli", *command, "--games", "200", "--db", str(db)],
        cwd=REPO,
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        process_group=0,  # a terminal's foreground group, of the bot alone
    )
    started: list[psutil.Process] = []
    try:
        game_id = wait_until_mid_game(bot, db)
        started = long_lived_children(bot.pid)
        (record,) = (tmp_path / "autosweeper" / "runs").iterdir()
        xauthority = Path(json.loads(record.read_text())["files"][0])
        os.killpg(bot.pid, signal.SIGINT)
        out, err = bot.communicate(timeout=60)
    finally:
        if bot.poll() is None:
            os.killpg(bot.pid, signal.SIGKILL)
            bot.communicate()
    assert bot.returncode == 130, err
    assert "Traceback" not in err, err
    assert "stopped: stopped by signal SIGINT" in err
    assert "games won: win rate" in out.splitlines()[-1]
    with OutcomeLog(db, read_only=True) as log:
        stopped = log.game(game_id)
    assert (stopped.result, stopped.reason) == (Result.STOPPED, "stopped by signal SIGINT")
    assert sorted(process.info["name"] for process in started) == ["Xvfb", "xdemineur"]
    assert [process for process in started if process.is_running()] == []
    assert not xauthority.exists() and not record.exists()


def wait_until_mid_game(bot: subprocess.Popen[str], db: Path) -> int:
    """The id of the game the bot is playing once it has clicked in it."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and bot.poll() is None:
        if db.exists():
            with closing(sqlite3.connect(db, timeout=10)) as raw:
                with_tables = raw.execute("SELECT 1 FROM sqlite_master WHERE name = 'moves'")
                playing = (
                    with_tables.fetchone()
                    and raw.execute(
                        "SELECT id FROM games WHERE result = 'in progress' AND clicks > 0"
                    ).fetchone()
                )
            if playing:
                return int(playing[0])
        time.sleep(0.005)
    raise AssertionError(f"the bot never was mid-game (exit status {bot.poll()})")


def long_lived_children(pid: int) -> list[psutil.Process]:
    """The processes ``pid`` started, but its passing xdotool and xwininfo calls; each with its
    name in ``info``."""
    children = []
    for child in psutil.Process(pid).children(recursive=True):
        try:
            child.info = {"name": child.name()}
        except psutil.NoSuchProcess:
            continue
        if child.info["name"] not in ("xdotool", "xwininfo"):
            children.append(child)
    return children


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
