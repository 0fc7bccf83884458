"""The live speed benchmark: its figures from timed games, and one short run on a real game."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import REPO, Calibrations

from calibration.store import save_skin
from controller.livebench import GameTiming, LiveBench, parse_arguments
from controller.outcomes import GameSetup, LoggedGame, OutcomeLog, Result


def timed_game(
    log: OutcomeLog, result: Result, duration: float, clicks: int, seconds: dict[str, float]
) -> GameTiming:
    """A logged game of ``clicks`` clicks, said to have lasted ``duration`` seconds of play, and
    its stages plus 0.5 s with its start (capturing happens while waiting: counted once)."""
    game_id = log.start_game(GameSetup("winemine", "skin", 16, 30, 99, "safe"))
    for column in range(clicks):
        log.record_move(game_id, (0, column), "open", 1.0, False)
    record: LoggedGame = replace(log.finish_game(game_id, result, None), duration=duration)
    cycle = sum(seconds.values()) - seconds.get("capture", 0.0) + 0.5
    reads = [seconds.get("read", 0.0) / clicks] * clicks if clicks else []
    return GameTiming(record, seconds, cycle, turns=clicks // 2, reads=reads)


def test_the_report_gives_the_median_won_game_speeds_and_where_the_time_went(
    tmp_path: Path,
) -> None:
    stages = {"capture": 0.25, "wait": 1.0, "read": 0.25, "solver": 0.5, "click": 1.0, "log": 0.0}
    with OutcomeLog(tmp_path / "log.db") as log:
        bench = LiveBench(
            "winemine",
            "expert",
            [
                timed_game(log, Result.WON, 3.0, 10, stages),  # reads of 25 ms
                timed_game(log, Result.LOST, 1.0, 4, stages),
                timed_game(log, Result.WON, 5.0, 20, stages),  # reads of 12.5 ms
                timed_game(log, Result.WON, 4.0, 30, stages),  # reads of 8.33 ms
                timed_game(log, Result.STOPPED, 0.5, 2, stages),
            ],
            wall_seconds=20.0,
            clicked_again=2,
        )
    lines = bench.report().splitlines()
    assert lines[0].startswith("winemine expert: 5 games in 20 s, won 3 of 4: 75.00% [")
    assert lines[1].startswith("  game 5 stopped:")
    assert lines[2] == "clicks the game did not take at first, clicked again: 2"
    assert lines[3] == "won game, start to finish: median 4.00 s (fastest 3.00 s, slowest 5.00 s)"
    # Won games: 60 clicks and 30 turns in 12 s of play; 3 x 3.25 s with their starts.
    assert lines[4] == (
        "won games: 60 clicks and 30 turns in 12.0 s of play: 5.0 clicks/s, 2.5 turns/s; "
        "9.8 s with starting each game, spent on:"
    )
    shares = {line.split("  ")[1].strip(): line.split()[-3:] for line in lines[5:13]}
    assert shares["capturing the screen"] == ["0.75", "s", "7.7%"]
    assert shares["waiting for a still frame (less capture)"] == ["2.25", "s", "23.1%"]
    assert shares["the rest (one game a second, Python)"] == ["1.50", "s", "15.4%"]
    # 60 reads in 0.75 s: 30 of 8.33 ms, 20 of 12.5 ms, 10 of 25 ms; their mean 12.5 ms.
    assert lines[7].endswith("0.75 s   7.7%, 60 reads, median 10.42 ms (mean 12.50 ms)")
    assert lines[13].startswith("all games: 66 clicks and 33 turns in 13.5 s of play:")


def with_3bv(timing: GameTiming, bbbv: int | None) -> GameTiming:
    """The game as if ms-toollib had given its 3BV (and the log its 3BV/s when won)."""
    record, seconds = timing.record, timing.record.duration or 0.0
    won = record.result == Result.WON and bbbv is not None
    per_second = bbbv / seconds if won and bbbv is not None else None
    return replace(timing, record=replace(record, bbbv=bbbv, bbbv_per_second=per_second))


def test_the_report_gives_the_median_3bv_3bv_per_second_and_efficiency_of_won_games(
    tmp_path: Path,
) -> None:
    stages = {"click": 1.0}
    with OutcomeLog(tmp_path / "log.db") as log:
        games = [
            with_3bv(timed_game(log, Result.WON, 3.0, 10, stages), 8),
            with_3bv(timed_game(log, Result.LOST, 1.0, 4, stages), 9),  # not won: left out
            with_3bv(timed_game(log, Result.WON, 5.0, 20, stages), 15),
            with_3bv(timed_game(log, Result.WON, 4.0, 30, stages), None),  # 3BV unknown
        ]
    lines = LiveBench("winemine", "expert", games, wall_seconds=20.0).report().splitlines()
    assert lines[2].startswith("won game, start to finish: median 4.00 s")
    assert lines[3] == (
        "won games with a known 3BV (2 of 3): median 3BV "
        f"{statistics.median([8, 15]):g}, 3BV/s {statistics.median([8 / 3, 15 / 5]):.2f}, "
        f"efficiency {statistics.median([8 / 10, 15 / 20]):.0%}"
    )
    assert lines[4].startswith("won games: 60 clicks")
    unknown = [with_3bv(timing, None) for timing in games]
    assert "3BV" not in LiveBench("winemine", "expert", unknown).report()


def test_a_run_without_wins_says_so_without_a_median(tmp_path: Path) -> None:
    with OutcomeLog(tmp_path / "log.db") as log:
        lost = timed_game(log, Result.LOST, 2.0, 8, {"click": 1.0})
    report = LiveBench("xdemineur", "beginner", [lost], wall_seconds=3.0).report()
    assert "won 0 of 1: 0.00%" in report
    assert "won game, start to finish" not in report and "won games:" not in report
    assert "all games: 8 clicks and 4 turns in 2.0 s of play: 4.0 clicks/s" in report


def test_the_defaults_are_ten_minutes_of_expert_winemine() -> None:
    args = parse_arguments([])
    assert (args.game, args.level, args.minutes, args.click_pause) == (
        "winemine",
        "expert",
        10.0,
        None,
    )


@pytest.mark.parametrize("minutes", ["0", "-1.5"])
def test_a_run_of_no_time_is_a_usage_error(
    minutes: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as done:
        parse_arguments(["--minutes", minutes])
    assert done.value.code == 2
    assert "--minutes: must be positive" in capsys.readouterr().err


@pytest.mark.realgame
def test_a_short_live_run_prints_its_figures(calibrations: Calibrations, tmp_path: Path) -> None:
    save_skin(calibrations.of("winemine").skin, tmp_path / "skins")
    db = tmp_path / "bench.db"
    run = subprocess.run(
        [sys.executable, "-m", "controller.livebench", "--games", "2", "--level", "beginner"]
        + ["--db", str(db)],
        cwd=REPO,
        env={**os.environ, "AUTOSWEEPER_SKINS": str(tmp_path / "skins")},
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert run.returncode == 0, run.stderr
    assert "winemine beginner: 2 games in" in run.stdout
    assert "all games: " in run.stdout and "clicks/s" in run.stdout
    with OutcomeLog(db) as log:
        assert {record.result for record in log.games()} <= {Result.WON, Result.LOST}
        assert len(log.games()) == 2
