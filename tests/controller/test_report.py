"""Win rates, the running plot, and CSV / EVF exports of the outcome log."""

from __future__ import annotations

import csv
import io
import math
import struct
from dataclasses import fields, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import ms_toollib
import pytest
from outcome_logs import played_log

from controller import report
from controller.errors import CommandError, ReplayError
from controller.outcomes import LoggedGame, Result
from controller.toollib import mine_layout, three_bv
from solver import Board
from solver.bench.results import BenchResult, write_json

Z95 = 1.959963984540054  # the two-sided 95% point of the standard normal


def record(
    game_id: int, result: Result, game: str = "winemine", size: tuple[int, int, int] = (9, 9, 10)
) -> LoggedGame:
    rows, columns, mines = size
    return LoggedGame(
        id=game_id,
        started_at=datetime(2026, 1, 1, tzinfo=UTC),
        ended_at=None,
        game=game,
        skin=game,
        rows=rows,
        columns=columns,
        mines=mines,
        first_click="safe",
        result=result,
        duration=None,
        clicks=0,
        guesses=0,
        guess_chances=(),
        bbbv=None,
        bbbv_per_second=None,
        final_board=None,
        reason=None,
    )


def score_statistic(p: float, won: int, n: int) -> float:
    """The Wilson score statistic at p: the interval's ends are where it equals z."""
    return abs(won / n - p) / math.sqrt(p * (1 - p) / n)


def test_win_rates_group_by_game_and_level_and_leave_unfinished_games_out() -> None:
    results = (
        [Result.WON] * 7 + [Result.LOST] * 3 + [Result.CUT_OFF, Result.MISREAD, Result.STOPPED]
    )
    games = [record(i, r) for i, r in enumerate(results)]
    games += [record(100, Result.LOST, "xdemineur"), record(101, Result.IN_PROGRESS, "xdemineur")]
    games += [record(200, Result.WON, size=(16, 30, 99))]
    simulated = [
        report.SimulatedRate(9, 9, 10, "safe", 0.92),
        report.SimulatedRate(9, 9, 10, "xp", 0.5),
    ]
    rates = {(r.game, r.level): r for r in report.win_rates(games, simulated)}
    assert set(rates) == {
        ("winemine", "beginner"),
        ("xdemineur", "beginner"),
        ("winemine", "expert"),
    }
    beginner = rates["winemine", "beginner"]
    assert (beginner.won, beginner.finished, beginner.unfinished) == (7, 10, 3)
    assert beginner.rate == pytest.approx(0.7)
    assert beginner.simulated == 0.92
    assert score_statistic(beginner.low, 7, 10) == pytest.approx(Z95, rel=1e-6)
    assert score_statistic(beginner.high, 7, 10) == pytest.approx(Z95, rel=1e-6)
    assert beginner.low < 0.7 < beginner.high
    xdemineur = rates["xdemineur", "beginner"]
    # a game in progress is unfinished too: stats counts every row neither won nor lost
    assert (xdemineur.won, xdemineur.finished, xdemineur.unfinished) == (0, 1, 1)
    assert xdemineur.simulated == 0.92  # same size and rule
    assert rates["winemine", "expert"].simulated is None


def bench_result(level: str, rule: str, size: tuple[int, int, int], rate: float) -> BenchResult:
    """A benchmark row with the figures stats reads; the timings it ignores are zero."""
    figures: dict[str, Any] = {f.name: 0 for f in fields(BenchResult)}
    rows, columns, mines = size
    figures.update(level=level, rule=rule, rows=rows, columns=columns, mines=mines, win_rate=rate)
    return BenchResult(**figures)


def test_simulated_rates_are_read_from_the_benchmark_json(tmp_path: Path) -> None:
    results = [
        bench_result("beginner", "safe", (9, 9, 10), 0.913),
        bench_result("expert", "xp", (16, 30, 99), 0.38),
    ]
    write_json(results, tmp_path / "bench.json", {"games": 1000})
    assert report.load_simulated(tmp_path / "bench.json") == [
        report.SimulatedRate(9, 9, 10, "safe", 0.913),
        report.SimulatedRate(16, 30, 99, "xp", 0.38),
    ]
    (tmp_path / "other.json").write_text('{"rows": 3}')
    with pytest.raises(CommandError, match="other.json"):
        report.load_simulated(tmp_path / "other.json")


def test_running_win_rate_follows_the_won_and_lost_games_in_order() -> None:
    results = [Result.WON, Result.CUT_OFF, Result.LOST, Result.WON, Result.WON, Result.MISREAD]
    points = report.running_win_rate(record(i, r) for i, r in enumerate(results))
    assert [(n, rate) for n, rate, _, _ in points] == [(1, 1.0), (2, 0.5), (3, 2 / 3), (4, 0.75)]
    for _, rate, low, high in points:
        assert 0.0 <= low <= rate <= high <= 1.0


def test_the_plot_is_a_png_of_the_promised_size(tmp_path: Path) -> None:
    games = [record(i, Result.WON if i % 3 else Result.LOST) for i in range(30)]
    games += [record(50 + i, Result.LOST, "xdemineur") for i in range(5)]
    for chosen in (games, []):
        path = report.plot_running_win_rate(chosen, tmp_path / f"plot{len(chosen)}.png")
        data = path.read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n"
        assert data[12:16] == b"IHDR"
        assert struct.unpack(">II", data[16:24]) == report.PLOT_SIZE_PIXELS


def test_csv_export_round_trips(tmp_path: Path) -> None:
    with played_log(tmp_path / "log.db") as log:
        games = log.games()
    with (tmp_path / "games.csv").open("w", newline="") as out:
        assert report.write_csv(games, out) == 3
    assert report.read_csv(tmp_path / "games.csv") == games


def test_efficiency_is_the_3bv_per_click_of_a_won_game() -> None:
    won = replace(record(1, Result.WON), bbbv=120, clicks=150)
    assert won.efficiency == 0.8  # quoted as 80%
    assert replace(won, bbbv=None).efficiency is None  # ms-toollib missing
    assert replace(won, clicks=0).efficiency is None
    # A lost game's 3BV is its whole board's, of which it cleared only part.
    assert replace(won, result=Result.LOST).efficiency is None


def test_the_csv_export_has_each_games_efficiency_and_older_exports_still_read(
    tmp_path: Path,
) -> None:
    games = [replace(record(1, Result.WON), bbbv=120, clicks=150), record(2, Result.WON)]
    out = io.StringIO(newline="")
    report.write_csv(games, out)
    rows = list(csv.DictReader(io.StringIO(out.getvalue(), newline="")))
    assert [row["efficiency"] for row in rows] == [repr(120 / 150), ""]
    assert list(rows[0])[-1] == "efficiency"  # after the stored columns
    older = tmp_path / "older.csv"  # an export written before the column was added
    with older.open("w", newline="") as written:
        writer = csv.DictWriter(written, fieldnames=[n for n in rows[0] if n != "efficiency"])
        writer.writeheader()
        writer.writerows({k: v for k, v in row.items() if k != "efficiency"} for row in rows)
    assert report.read_csv(older) == games


def test_evf_export_round_trips_won_and_lost_games(tmp_path: Path) -> None:
    with played_log(tmp_path / "log.db") as log:
        won, lost, unfinished = log.games()
        won_path = report.export_evf(won, log.moves(won.id), tmp_path / "won.evf")
        lost_path = report.export_evf(lost, log.moves(lost.id), tmp_path / "lost.evf")
        moves = log.moves(won.id)
        with pytest.raises(ReplayError, match=f"game {unfinished.id} was in progress"):
            report.export_evf(unfinished, log.moves(unfinished.id), tmp_path / "unfinished.evf")
        with pytest.raises(ReplayError, match="do not replay"):
            report.export_evf(won, moves[:-1], tmp_path / "short.evf")
    for record_, path, completed in ((won, won_path, True), (lost, lost_path, False)):
        video = ms_toollib.EvfVideo(str(path))
        video.parse()
        video.analyse()
        layout = mine_layout(Board.from_text(record_.final_board or ""))
        assert layout is not None
        assert [[cell == -1 for cell in row] for row in video.board] == layout.tolist()
        assert (video.row, video.column, video.mine_num) == (3, 5, 2)
        assert video.is_completed == completed
        assert video.software == "autosweeper"
    replay = ms_toollib.EvfVideo(str(won_path))
    replay.parse()
    replay.analyse()
    assert replay.bbbv == won.bbbv == three_bv(Board.from_text(won.final_board or ""))
    assert replay.rtime == pytest.approx(moves[-1].seconds - moves[0].seconds, abs=0.05)


def test_the_table_has_a_line_per_group_with_rate_and_interval() -> None:
    games = [record(i, Result.WON if i < 7 else Result.LOST) for i in range(10)]
    games.append(record(10, Result.MISREAD, "xdemineur"))
    rates = report.win_rates(games)
    header, winemine, xdemineur = report.format_table(rates).splitlines()
    assert header.split()[:3] == ["game", "level", "rule"]
    low, high = rates[0].low, rates[0].high
    assert winemine.split()[:5] == ["winemine", "beginner", "safe", "7", "10"]
    assert f"70.0%     {100 * low:.1f}% - {100 * high:.1f}%" in winemine
    assert xdemineur.split()[3:] == ["0", "0", "-", "-", "-", "1"]


def test_a_replay_says_it_is_a_bot_game(tmp_path: Path) -> None:
    with played_log(tmp_path / "log.db") as log:
        won = log.games()[0]
        path = report.export_evf(won, log.moves(won.id), tmp_path / "won.evf")
    replay = ms_toollib.EvfVideo(str(path))
    replay.parse()  # the flags as written (analyse() recomputes them from the result)
    assert (replay.is_official, replay.is_fair) == (False, False)
    replay.analyse()
    assert replay.mode == report.EVF_CHEAT_MODE == 2  # the format's "cheat" game mode
    assert replay.player_identifier == "autosweeper (a bot)"
    assert replay.software == "autosweeper"
