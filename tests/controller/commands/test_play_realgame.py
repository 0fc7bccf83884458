"""The ``autosweeper play`` process on real games in Xvfb: killed mid-game, told to stop (signal
or stop key), and started with no display. (Thirty games of each real game, read and clicked
exactly: test_end_to_end.py.)"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import closing
from pathlib import Path

import pytest
from conftest import REPO, Calibrations, LaunchGame

from calibration.store import save_skin
from controller.desktop.display import VirtualDisplay
from controller.outcomes import OutcomeLog, Result
from controller.stopping import StopKey
from vision.skin import Skin

pytestmark = pytest.mark.realgame


def database_rows(db: Path) -> list[tuple[int, str, int]]:
    """(id, result, clicks) of every game, read with plain sqlite3 (no cut-off marking)."""
    if not db.exists():
        return []
    with closing(sqlite3.connect(db, timeout=10)) as raw:
        if not raw.execute("SELECT 1 FROM sqlite_master WHERE name = 'games'").fetchone():
            return []  # the bot has made the file but not its tables yet
        return raw.execute("SELECT id, result, clicks FROM games ORDER BY id").fetchall()


@pytest.fixture
def bot_process() -> Iterator[list[subprocess.Popen[bytes]]]:
    """Processes a test starts; any still running afterwards are killed by pid."""
    started: list[subprocess.Popen[bytes]] = []
    yield started
    for process in started:
        if process.poll() is None:
            process.kill()
            process.wait()


def start_bot_mid_game(
    skin: Skin, launch: LaunchGame, tmp_path: Path, started: list[subprocess.Popen[bytes]]
) -> tuple[subprocess.Popen[bytes], Path, int]:
    """Start ``autosweeper play`` on a winemine window of the session display and wait until it
    is mid-game (a game in progress with a click logged); return it, its log and that game.

    The board is Expert: its games last seconds, where a Beginner game can end within
    milliseconds of its first click, before the test acts on it."""
    save_skin(skin, tmp_path / "skins")
    launch("winemine", "expert")
    db = tmp_path / "log.db"
    bot = subprocess.Popen(
        [sys.executable, "-m", "controller.cli", "play", "--games", "200", "--db", str(db)],
        cwd=REPO,
        env={**os.environ, "AUTOSWEEPER_SKINS": str(tmp_path / "skins")},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    started.append(bot)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and bot.poll() is None:
        playing = [row for row in database_rows(db) if row[1] == "in progress" and row[2] > 0]
        if playing:
            return bot, db, playing[-1][0]
        time.sleep(0.005)
    raise AssertionError(f"the bot never was mid-game (exit status {bot.poll()})")


def test_a_bot_killed_mid_game_leaves_the_log_intact_with_the_game_cut_off(
    calibrations: Calibrations,
    launch: LaunchGame,
    tmp_path: Path,
    bot_process: list[subprocess.Popen[bytes]],
) -> None:
    bot, db, game_id = start_bot_mid_game(
        calibrations.of("winemine").skin, launch, tmp_path, bot_process
    )
    os.kill(bot.pid, signal.SIGKILL)
    bot.wait()
    with closing(sqlite3.connect(db)) as raw:
        assert raw.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    with OutcomeLog(db) as log:
        records = {record.id: record for record in log.games()}
        killed_moves = log.moves(game_id)
    cut = records[game_id]
    assert cut.result == Result.CUT_OFF
    assert cut.clicks == len(killed_moves) > 0
    assert cut.ended_at is not None


@pytest.fixture
def escape_held(virtual_display: VirtualDisplay) -> Iterator[Callable[[], None]]:
    """``hold()`` presses Escape on the session display and keeps it down until the test ends."""

    def hold() -> None:
        subprocess.run(["xdotool", "keydown", "Escape"], check=True, timeout=10)

    yield hold
    subprocess.run(["xdotool", "keyup", "Escape"], check=True, timeout=10)


def test_the_stop_key_is_seen_while_held_down(escape_held: Callable[[], None]) -> None:
    with StopKey("Escape") as key:
        assert not key.pressed()
        escape_held()
        assert key.pressed()
        subprocess.run(["xdotool", "keyup", "Escape"], check=True, timeout=10)
        assert not key.pressed()


@pytest.mark.parametrize(
    ("stop", "reason"),
    [("SIGTERM", "stopped by signal SIGTERM"), ("the stop key", "stop key Escape pressed")],
)
def test_a_bot_told_to_stop_records_its_game_as_stopped_and_exits(
    stop: str,
    reason: str,
    calibrations: Calibrations,
    launch: LaunchGame,
    tmp_path: Path,
    bot_process: list[subprocess.Popen[bytes]],
    escape_held: Callable[[], None],
) -> None:
    bot, db, game_id = start_bot_mid_game(
        calibrations.of("winemine").skin, launch, tmp_path, bot_process
    )
    if stop == "SIGTERM":
        os.kill(bot.pid, signal.SIGTERM)
    else:
        escape_held()
    assert bot.wait(timeout=30) == 130  # interrupted by the user
    with OutcomeLog(db) as log:
        stopped = log.game(game_id)
        later = [record for record in log.games() if record.id > game_id]
    if stopped.result in (Result.WON, Result.LOST):
        pytest.skip(f"the game ended on its own before {stop} reached the bot")
    assert stopped.result == Result.STOPPED
    assert stopped.reason == reason
    assert later == []


@pytest.mark.slow
def test_with_no_display_play_starts_its_own_game_and_prints_the_win_rate(
    calibrations: Calibrations, tmp_path: Path
) -> None:
    skin = calibrations.of("winemine").skin
    data = tmp_path / "data"
    save_skin(skin, data)
    db = tmp_path / "log.db"
    environment = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "XAUTHORITY")}
    bot = subprocess.Popen(
        [sys.executable, "-m", "controller.cli", "play", "--games", "3", "--db", str(db)],
        cwd=REPO,
        env={**environment, "AUTOSWEEPER_SKINS": str(data)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its Xvfb and game share its process group, killed on timeout
    )
    try:
        out, err = bot.communicate(timeout=300)
    except subprocess.TimeoutExpired:
        os.killpg(bot.pid, signal.SIGKILL)
        bot.communicate()
        raise
    assert bot.returncode == 0, err
    assert "playing winemine on virtual display :" in out
    assert "games won: win rate" in out
    assert "\r" not in out + err  # no progress-bar frames when the output is not a terminal
    with OutcomeLog(db) as log:
        records = log.games()
    assert len(records) == 3
    assert all(r.result in (Result.WON, Result.LOST) for r in records)
