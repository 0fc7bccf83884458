"""What a user does with a game's window, as the real-game tests do it: ``autosweeper calibrate``
on the window, ``autosweeper play`` with the skin it saved; and the check of the games logged."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from controller.cli import main
from controller.outcomes import OutcomeLog, Result
from solver.bench.stats import binomial_test

GAMES_PLAYED = 20
CALIBRATION_ALLOWANCE = 60.0
"""Seconds calibration may take beyond its budget of random play: games played to win, the
last game's end, the check of the skin."""
SIGNIFICANCE = 0.001
"""As in test_end_to_end: an exact two-sided binomial test of the live wins against the
simulated rate, at this level, says they disagree."""


def calibrate_window(
    name: str,
    window_class: str,
    mines: int | None,
    skins: Path,
    capsys: pytest.CaptureFixture[str],
    by_title: bool = False,
) -> float:
    """Run ``autosweeper calibrate`` on the one window of ``window_class`` (or of that title),
    told ``mines`` (None: told nothing but the window); its wall time."""
    started = time.monotonic()
    search = "--window-title" if by_title else "--window-class"
    told = [] if mines is None else ["--mines", str(mines)]
    code = main(["calibrate", search, window_class, *told, "--name", name])
    seconds = time.monotonic() - started
    output = capsys.readouterr()
    assert code == 0, output.err
    assert (skins / name / "skin.json").is_file(), output.out
    return seconds


def play(
    name: str, games: int, mines: int | None, db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``autosweeper play`` with skin ``name`` on the board it finds, of ``mines`` mines (None:
    the count the game shows, read by play)."""
    told = [] if mines is None else ["--mines", str(mines)]
    code = main(["play", "--skin", name, "--games", str(games), *told, "--db", str(db)])
    output = capsys.readouterr()
    assert code == 0, output.err + output.out


def check_games(db: Path, board: tuple[int, int], simulated: float) -> int:
    """The games logged in ``db``: :data:`GAMES_PLAYED` of them, each won or lost (none misread,
    the loop checks every read of a game against its end, nor stopped), on a board of ``board``
    rows and columns, at a win rate that agrees with ``simulated``; the games won."""
    with OutcomeLog(db) as log:
        games = log.games()
    results = [game.result for game in games]
    assert len(results) == GAMES_PLAYED
    assert all(result in (Result.WON, Result.LOST) for result in results), [
        (game.result, game.reason) for game in games
    ]
    assert all((game.rows, game.columns) == board for game in games)
    won = results.count(Result.WON)
    assert binomial_test(won, GAMES_PLAYED, simulated) > SIGNIFICANCE, (won, simulated)
    return won
