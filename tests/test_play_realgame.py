"""End to end on real games in Xvfb: calibrate, play Beginner, log; and a bot killed mid-game.

Every click is checked against the board (or face) the bot located, no cell may be misread, and
every game must be in the outcome log with a won or lost result.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import LaunchGame

from calibration.store import save_skin
from controller.commands.calibrate import calibrate_game
from controller.commands.play import wait_until_drawn
from controller.mouse import Mouse
from controller.outcomes import OutcomeLog, Result
from controller.play import Player, ScreenTable, play_games
from controller.sandbox import GameWindow, VirtualDisplay
from vision.capture import ScreenGrabber
from vision.geometry import Rect
from vision.locate import locate_on_screen
from vision.skin import Skin

pytestmark = pytest.mark.realgame

REPO = Path(__file__).resolve().parents[1]
SIZES = {"winemine": (9, 9, 10), "xdemineur": (9, 12, 10)}
"""Beginner, except that xdemineur is at least 12 columns wide."""
FIRST_CLICK = {"winemine": "safe", "xdemineur": None}


class AuditedMouse:
    """The real guarded Mouse, with every click it was asked for kept for the test to check."""

    def __init__(self, mouse: Mouse) -> None:
        self.mouse = mouse
        self.clicks: list[tuple[int, int, list[Rect]]] = []

    def allow(self, *areas: Rect) -> None:
        self.mouse.allow(*areas)

    def click(self, x: int, y: int, button: str = "left") -> None:
        self.clicks.append((x, y, list(self.mouse.allowed)))
        self.mouse.click(x, y, button)

    def press(self, key: str) -> None:
        self.mouse.press(key)


def window_rect(window: GameWindow) -> Rect:
    geometry = window.refresh()
    return Rect(geometry.x, geometry.y, geometry.width, geometry.height)


@pytest.fixture(scope="module")
def skins(virtual_display: VirtualDisplay) -> dict[str, Skin]:
    """Skins calibrated once per module (on the session's display), by game."""
    return {}


def skin_for(game: str, skins: dict[str, Skin]) -> Skin:
    """The module's skin of ``game``, learned the first time as ``autosweeper play`` learns it
    (on calibration boards of its own, closed afterwards)."""
    if game not in skins:
        skins[game] = calibrate_game(game).skin
    return skins[game]


@pytest.mark.slow
@pytest.mark.parametrize("game", ["winemine", "xdemineur"])
def test_beginner_games_are_played_read_exactly_and_logged(
    game: str,
    skins: dict[str, Skin],
    launch: LaunchGame,
    mouse: Mouse,
    tmp_path: Path,
) -> None:
    skin = skin_for(game, skins)
    rows, columns, mines = SIZES[game]
    window = launch(game, SIZES[game])
    audited = AuditedMouse(mouse)
    games = 5
    with ScreenGrabber() as grabber, OutcomeLog(tmp_path / "log.db") as log:
        wait_until_drawn(grabber, window_rect(window))
        geometry = locate_on_screen(grabber, skin, shape=(rows, columns))
        table = ScreenTable(
            grabber, skin, geometry, audited, mines, game=game, first_click=FIRST_CLICK[game]
        )
        reports = list(play_games(Player(table, log), games, echo=print))
        records = log.games()
    reasons = [r.reason for r in reports if r.reason]
    assert not reasons, f"games ended early: {reasons}"
    assert len(records) == games
    assert all(r.result in (Result.WON, Result.LOST) for r in records)
    assert all(r.final_board for r in records)
    board, face = geometry.rect, geometry.face
    for x, y, allowed in audited.clicks:
        assert board.contains(x, y) or (face is not None and face.contains(x, y)), (x, y)
        assert any(area.contains(x, y) for area in allowed)
    assert sum(r.clicks for r in records) <= len(audited.clicks)


def database_rows(db: Path) -> list[tuple[int, str, int]]:
    """(id, result, clicks) of every game, read with plain sqlite3 (no cut-off marking)."""
    if not db.exists():
        return []
    with sqlite3.connect(db, timeout=10) as raw:
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
    is mid-game (a game in progress with a click logged); return it, its log and that game."""
    save_skin(skin, tmp_path / "skins")
    window = launch("winemine", "beginner")
    with ScreenGrabber() as grabber:
        wait_until_drawn(grabber, window_rect(window))
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
    skins: dict[str, Skin],
    launch: LaunchGame,
    tmp_path: Path,
    bot_process: list[subprocess.Popen[bytes]],
) -> None:
    bot, db, game_id = start_bot_mid_game(
        skin_for("winemine", skins), launch, tmp_path, bot_process
    )
    os.kill(bot.pid, signal.SIGKILL)
    bot.wait()
    with sqlite3.connect(db) as raw:
        assert raw.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    with OutcomeLog(db) as log:
        records = {record.id: record for record in log.games()}
        killed_moves = log.moves(game_id)
    cut = records[game_id]
    assert cut.result == Result.CUT_OFF
    assert cut.clicks == len(killed_moves) > 0
    assert cut.ended_at is not None


def test_a_bot_told_to_stop_records_its_game_as_stopped_and_exits(
    skins: dict[str, Skin],
    launch: LaunchGame,
    tmp_path: Path,
    bot_process: list[subprocess.Popen[bytes]],
) -> None:
    bot, db, game_id = start_bot_mid_game(
        skin_for("winemine", skins), launch, tmp_path, bot_process
    )
    os.kill(bot.pid, signal.SIGTERM)
    assert bot.wait(timeout=30) == 1  # fewer games than asked for
    with OutcomeLog(db) as log:
        stopped = log.game(game_id)
        later = [record for record in log.games() if record.id > game_id]
    if stopped.result in (Result.WON, Result.LOST):
        pytest.skip("the game ended on its own before the signal arrived")
    assert stopped.result == Result.STOPPED
    assert stopped.reason == "stopped by signal SIGTERM"
    assert later == []


@pytest.mark.slow
def test_with_no_display_play_starts_its_own_game_and_prints_the_win_rate(
    skins: dict[str, Skin], tmp_path: Path
) -> None:
    skin = skin_for("winemine", skins)
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
    assert "no DISPLAY: playing winemine on virtual display" in out
    assert "games won: win rate" in out
    with OutcomeLog(db) as log:
        records = log.games()
    assert len(records) == 3
    assert all(r.result in (Result.WON, Result.LOST) for r in records)
