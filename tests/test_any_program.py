"""Minesweeper programs the bot was not built for, from the window a user would have open.

Each test opens the game's window the way a user would (the launcher is test set-up only), then
does what a user does: ``autosweeper calibrate`` on that window, told only the mine count, and
``autosweeper play`` with the skin it saved. Nothing here tells calibration or play which
program it is.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from conftest import LaunchGame

from calibration.learn import BUDGET, ESSENTIAL
from calibration.store import load_skin
from controller.cli import main
from controller.outcomes import OutcomeLog, Result
from vision.skin import NewGame

pytestmark = pytest.mark.realgame

GAMES_PLAYED = 20
CALIBRATION_ALLOWANCE = 60.0
"""Seconds calibration may take beyond its budget of random play: games played to win, the
last game's end, the check of the skin."""


def calibrate_window(
    name: str, window_class: str, mines: int, skins: Path, capsys: pytest.CaptureFixture[str]
) -> float:
    """Run ``autosweeper calibrate`` on the one window of ``window_class``; its wall time."""
    started = time.monotonic()
    code = main(
        ["calibrate", "--window-class", window_class, "--mines", str(mines), "--name", name]
    )
    seconds = time.monotonic() - started
    output = capsys.readouterr()
    assert code == 0, output.err
    assert (skins / name / "skin.json").is_file(), output.out
    return seconds


def play(name: str, games: int, level: str, db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["play", "--skin", name, "--games", str(games), "--level", level, "--db", str(db)])
    output = capsys.readouterr()
    assert code == 0, output.err + output.out


def test_sgt_mines_learned_from_its_window_plays_every_game_to_an_end(
    launch: LaunchGame,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Simon Tatham's Mines: no face, no F2 (its new game is N), a loss shows only the mine hit,
    # the board flashes when a game ends, and its boards need no guess.
    monkeypatch.setenv("AUTOSWEEPER_SKINS", str(tmp_path / "skins"))
    launch("sgt-mines", (9, 9, 10))
    seconds = calibrate_window("sgt", "sgt-mines", 10, tmp_path / "skins", capsys)
    assert seconds < BUDGET + CALIBRATION_ALLOWANCE
    skin = load_skin("sgt")
    assert set(ESSENTIAL) <= set(skin.templates)
    assert skin.faces == {}
    assert skin.new_game == NewGame("key", "n")
    assert skin.extra["question_marks"] is False

    db = tmp_path / "outcomes.db"
    play("sgt", GAMES_PLAYED, "beginner", db, capsys)
    with OutcomeLog(db) as log:
        games = log.games()
    assert len(games) == GAMES_PLAYED
    results = [game.result for game in games]
    assert all(result in (Result.WON, Result.LOST) for result in results), results
    # Its boards are made to be solved without a guess, so the solver wins nearly all.
    assert results.count(Result.WON) >= GAMES_PLAYED - 2, results


@pytest.mark.slow
def test_an_expert_window_is_learned_in_minutes_and_its_rare_numbers_during_play(
    launch: LaunchGame,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # At Expert density a 7 shows in about 3% of boards and an 8 in 0.1%: calibration saves a
    # skin without them, and play reads a number first seen as "opened, number not known".
    monkeypatch.setenv("AUTOSWEEPER_SKINS", str(tmp_path / "skins"))
    launch("xdemineur", "expert")
    seconds = calibrate_window("xd-expert", "xdemineur", 99, tmp_path / "skins", capsys)
    assert seconds < BUDGET + CALIBRATION_ALLOWANCE
    skin = load_skin("xd-expert")
    assert set(ESSENTIAL) <= set(skin.templates)

    db = tmp_path / "outcomes.db"
    play("xd-expert", 3, "expert", db, capsys)
    with OutcomeLog(db) as log:
        results = [game.result for game in log.games()]
    assert len(results) == 3
    assert all(result in (Result.WON, Result.LOST) for result in results), results
