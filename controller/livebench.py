"""The live speed benchmark: real games under Xvfb, timed start to finish and stage by stage.

    python -m controller.livebench --games 50 --minutes 10     # Expert on winemine

It starts its own virtual display and game (as ``autosweeper play`` does with no DISPLAY),
plays until ``--games`` are done or ``--minutes`` have passed, and prints the median time of a
won game and its median 3BV, 3BV/s and efficiency, clicks and turns per second, and where the
time of the games went: capturing the screen, waiting for a still frame, reading it, the solver,
the clicks, the outcome log.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from controller.commands import positive_int
from controller.desktop.launchers import GAMES
from controller.errors import SetupError
from controller.loop import GamePlayer, NoFreshGame, play_games
from controller.outcomes import LoggedGame, OutcomeLog, Result
from controller.report import won_speed
from controller.setup import sandbox_table
from controller.stopping import StopRequested, stop_on_signals
from solver import LEVELS
from solver.bench.stats import format_win_rate
from vision.errors import VisionError
from vision.heap import keep_freed_memory

STAGES = {
    "capture": "capturing the screen",
    "wait": "waiting for a still frame (less capture)",
    "read": "reading the board",
    "solver": "the solver",
    "click": "clicking",
    "reread": "pausing before a re-read",
    "log": "the outcome log",
}
"""Stopwatch stages in the order printed, with what they mean."""


@dataclass
class GameTiming:
    """One game and the stopwatch seconds spent on it, per stage."""

    record: LoggedGame
    seconds: dict[str, float]
    """Per stage, from the end of the game before: starting this one is included."""
    cycle: float
    """Wall seconds from the end of the game before to the end of this one."""
    turns: int
    """Look-solve-click rounds (solver calls)."""
    reads: list[float]
    """Seconds each read of the board took (a turn reads it once or more: after a click, to
    check it took)."""


@dataclass
class LiveBench:
    """The games of one run, with the figures printed from them."""

    game: str
    level: str
    timings: list[GameTiming] = field(default_factory=list)
    wall_seconds: float = 0.0
    clicked_again: int = 0
    """Clicks the game did not show taken, made once more (see :meth:`GamePlayer._confirmed`)."""

    @property
    def finished(self) -> list[GameTiming]:
        return [t for t in self.timings if t.record.result.is_finished_game]

    @property
    def won(self) -> list[GameTiming]:
        return [t for t in self.timings if t.record.result == Result.WON]

    def report(self) -> str:
        """The figures, one per line."""
        finished, won = self.finished, self.won
        lines = [
            f"{self.game} {self.level}: {len(self.timings)} games in {self.wall_seconds:.0f} s, "
            f"won {len(won)} of {len(finished)}: {format_win_rate(len(won), len(finished))}"
        ]
        unfinished = [t.record for t in self.timings if not t.record.result.is_finished_game]
        lines += [f"  game {r.id} {r.result.value}: {r.reason}" for r in unfinished]
        lines.append(f"clicks the game did not take at first, clicked again: {self.clicked_again}")
        if won:
            times = [t.record.duration or 0.0 for t in won]
            lines.append(
                f"won game, start to finish: median {statistics.median(times):.2f} s "
                f"(fastest {min(times):.2f} s, slowest {max(times):.2f} s)"
            )
        lines += _three_bv_line([t.record for t in won])
        lines += _speed_lines("won games", won) + _speed_lines("all games", self.timings)
        return "\n".join(lines)


def _three_bv_line(won: Sequence[LoggedGame]) -> list[str]:
    """The won games' speed as speed players count it, over those with a 3BV (ms-toollib gives
    it, where it loads); none without one."""
    speed = won_speed(record for record in won if record.bbbv is not None)
    if speed.bbbv is None or speed.bbbv_per_second is None or speed.efficiency is None:
        return []
    return [
        f"won games with a known 3BV ({speed.games} of {len(won)}): median 3BV {speed.bbbv:g}, "
        f"3BV/s {speed.bbbv_per_second:.2f}, efficiency {speed.efficiency:.0%}"
    ]


def _speed_lines(name: str, timings: Sequence[GameTiming]) -> list[str]:
    """Clicks and turns per second of ``timings``, and the share of their time per stage."""
    in_games = sum(t.record.duration or 0.0 for t in timings)
    if not timings or in_games <= 0:
        return []
    clicks = sum(t.record.clicks for t in timings)
    turns = sum(t.turns for t in timings)
    cycles = sum(t.cycle for t in timings)
    lines = [
        f"{name}: {clicks} clicks and {turns} turns in {in_games:.1f} s of play: "
        f"{clicks / in_games:.1f} clicks/s, {turns / in_games:.1f} turns/s; "
        f"{cycles:.1f} s with starting each game, spent on:"
    ]
    totals = {stage: sum(t.seconds.get(stage, 0.0) for t in timings) for stage in STAGES}
    totals["wait"] -= totals["capture"]  # every capture happens while waiting for a still frame
    totals["rest"] = cycles - sum(totals.values())
    reads = [took for t in timings for took in t.reads]
    for stage, meaning in {**STAGES, "rest": "the rest (one game a second, Python)"}.items():
        line = f"  {meaning:<42} {totals[stage]:7.2f} s {totals[stage] / cycles:6.1%}"
        if stage == "read" and reads:
            line += (
                f", {len(reads)} reads, median {statistics.median(reads) * 1000:.2f} ms "
                f"(mean {statistics.mean(reads) * 1000:.2f} ms)"
            )
        lines.append(line)
    return lines


def run(
    game: str,
    level: str,
    games: int,
    minutes: float,
    db: Path,
    skin: str | None = None,
    click_pause: float | None = None,
) -> LiveBench:
    """Play up to ``games`` games (no new one after ``minutes``) on a virtual display."""
    bench = LiveBench(game, level)
    started = time.monotonic()
    deadline = started + minutes * 60

    def until_deadline(count: int) -> Iterable[int]:
        return (number for number in range(count) if time.monotonic() < deadline)

    with stop_on_signals(), ExitStack() as stack, OutcomeLog(db) as log:
        table = sandbox_table(stack, game, level, skin, click_pause)
        player = GamePlayer(table, log, stopwatch=table.stopwatch)
        table.stopwatch.keep_times("read")
        reads = table.stopwatch.times["read"]
        before, cycle_start = dict(table.stopwatch.seconds), time.monotonic()
        turns_before = reads_before = 0
        try:
            for report in play_games(player, games, progress=until_deadline):
                after, turns = dict(table.stopwatch.seconds), table.stopwatch.counts["solver"]
                seconds = {stage: after[stage] - before.get(stage, 0.0) for stage in after}
                cycle = time.monotonic() - cycle_start
                bench.timings.append(
                    GameTiming(
                        report.record,
                        seconds,
                        cycle,
                        turns - turns_before,
                        reads[reads_before:],
                    )
                )
                before, cycle_start = after, time.monotonic()
                turns_before, reads_before = turns, len(reads)
        except (StopRequested, NoFreshGame) as stop:
            print(f"stopped: {stop}", file=sys.stderr)
        bench.clicked_again = table.stopwatch.counts["clicked again"]
    bench.wall_seconds = time.monotonic() - started
    return bench


def parse_arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m controller.livebench",
        description="Play real games on a virtual display and time them: the median time of a "
        "won game, clicks and turns per second, and where the time goes.",
    )
    parser.add_argument("--games", type=positive_int, default=50, help="games to play (default 50)")
    parser.add_argument(
        "--minutes", type=float, default=10.0, help="start no game after this (default 10)"
    )
    parser.add_argument(
        "--level", choices=list(LEVELS), default="expert", help="(default: %(default)s)"
    )
    parser.add_argument("--game", choices=GAMES, default="winemine", help="(default: %(default)s)")
    parser.add_argument("--skin", help="the stored skin to use (default: the game's, or learn it)")
    parser.add_argument("--db", type=Path, help="outcome log (default: a temporary file)")
    parser.add_argument(
        "--click-pause",
        type=float,
        help="seconds the mouse waits after each click (default: the mouse's own)",
    )
    args = parser.parse_args(argv)
    if args.minutes <= 0:
        parser.error(f"argument --minutes: must be positive, not {args.minutes:g}")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_arguments(argv)
    keep_freed_memory()
    with _log_path(args.db) as db:
        try:
            bench = run(
                args.game, args.level, args.games, args.minutes, db, args.skin, args.click_pause
            )
        except (SetupError, VisionError) as error:
            print(f"livebench: {error}", file=sys.stderr)
            return 1
    print(bench.report())
    return 0


@contextmanager
def _log_path(db: Path | None) -> Iterator[Path]:
    """``db``, or a file in a temporary folder removed afterwards."""
    if db is not None:
        yield db
        return
    with tempfile.TemporaryDirectory(prefix="autosweeper-livebench-") as folder:
        yield Path(folder) / "outcomes.sqlite3"


if __name__ == "__main__":
    sys.exit(main())
