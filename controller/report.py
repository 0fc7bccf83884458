"""What the outcome log says: win rates with confidence intervals, the speed of won games, a plot,
and exports.

Only won and lost games count towards a win rate; games cut off, misread or stopped are shown
beside it so that a bot which often gives up cannot look better than it is. Speed is told as
speed players tell it (3BV, 3BV/s, clicks, efficiency), over won games only.
"""

from __future__ import annotations

import csv
import statistics
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, fields
from datetime import datetime
from pathlib import Path
from typing import Any, TextIO

from controller import toollib
from controller.errors import CommandError, ReplayError
from controller.outcomes import LoggedGame, MoveRecord, Result
from controller.toollib import mine_layout, toollib_board
from solver import Board
from solver.bench.results import read_json
from solver.bench.stats import wilson_interval
from solver.errors import BenchError

PLOT_SIZE_PIXELS = (960, 540)
_PLOT_DPI = 100
_EVF_CELL_PIXELS = 16
EVF_CHEAT_MODE = 2
"""The EVF game mode "cheat": the one mark of a game not played by a person that ms-toollib's
analysis keeps (it recomputes the official and fair flags from whether the game was won)."""
EVF_PLAYER = "autosweeper (a bot)"
"""The player identifier of a replay, the name a replay viewer shows most prominently."""


@dataclass(frozen=True)
class Speed:
    """Medians over the won games of a group, each over the games where it is known (the 3BV
    needs ms-toollib) and None where it is known for none."""

    games: int
    """Won games."""
    seconds: float | None
    bbbv: float | None
    bbbv_per_second: float | None
    clicks: float | None
    efficiency: float | None
    """3BV per click as a fraction: 0.8 is the 80% speed players quote."""


NO_WINS = Speed(0, None, None, None, None, None)


def _median(values: Iterable[float | None]) -> float | None:
    known = [value for value in values if value is not None]
    return statistics.median(known) if known else None


def won_speed(games: Iterable[LoggedGame]) -> Speed:
    """The medians of the won games among ``games``."""
    won = [record for record in games if record.result == Result.WON]
    return Speed(
        games=len(won),
        seconds=_median(record.duration for record in won),
        bbbv=_median(record.bbbv for record in won),
        bbbv_per_second=_median(record.bbbv_per_second for record in won),
        clicks=_median(record.clicks for record in won),
        efficiency=_median(record.efficiency for record in won),
    )


@dataclass(frozen=True)
class WinRate:
    """The observed win rate of one game at one level and first-click rule."""

    game: str
    level: str
    first_click: str | None
    won: int
    finished: int
    """Won plus lost games."""
    unfinished: int
    """Games neither won nor lost (in progress, cut off, misread, stopped): not in the rate."""
    low: float
    high: float
    """The Wilson 95% interval of the rate."""
    simulated: float | None = None
    """The solver's win rate on simulated games of the same level and rule, when known."""
    speed: Speed = NO_WINS
    """The medians of the won games (the ``won`` counted here)."""

    @property
    def rate(self) -> float | None:
        return self.won / self.finished if self.finished else None


@dataclass(frozen=True)
class SimulatedRate:
    """A win rate measured by ``autosweeper bench`` on simulated games of one size and rule."""

    rows: int
    columns: int
    mines: int
    first_click: str
    rate: float


def win_rates(
    games: Iterable[LoggedGame], simulated: Sequence[SimulatedRate] = ()
) -> list[WinRate]:
    """Win rates per (game, level, first-click rule), in order of first appearance."""
    groups: dict[tuple[str, str, str | None], list[LoggedGame]] = {}
    for record in games:
        groups.setdefault((record.game, record.level, record.first_click), []).append(record)
    sim = {(s.rows, s.columns, s.mines, s.first_click): s.rate for s in simulated}
    rates = []
    for (game, level, rule), records in groups.items():
        size = (records[0].rows, records[0].columns, records[0].mines)
        won = sum(r.result == Result.WON for r in records)
        finished = sum(r.result.is_finished_game for r in records)
        low, high = wilson_interval(won, finished)
        rates.append(
            WinRate(
                game=game,
                level=level,
                first_click=rule,
                won=won,
                finished=finished,
                unfinished=len(records) - finished,  # in progress, cut off, stopped, misread
                low=low,
                high=high,
                simulated=None if rule is None else sim.get((*size, rule)),
                speed=won_speed(records),
            )
        )
    return rates


def format_table(rates: Sequence[WinRate]) -> str:
    """The win rates as an aligned text table for the terminal."""
    header = (
        "game",
        "level",
        "rule",
        "won",
        "games",
        "win rate",
        "95% interval",
        "simulated",
        "unfinished",
    )
    lines = [header]
    for r in rates:
        lines.append(
            (
                r.game,
                r.level,
                r.first_click or "?",
                str(r.won),
                str(r.finished),
                "-" if r.rate is None else f"{r.rate:.1%}",
                "-" if not r.finished else f"{r.low:.1%} - {r.high:.1%}",
                "-" if r.simulated is None else f"{r.simulated:.1%}",
                str(r.unfinished),
            )
        )
    return _aligned(lines)


SPEED_CAPTION = "won games, medians (3BV from ms-toollib; - where not known):"


def format_speed_table(rates: Sequence[WinRate]) -> str:
    """The speed of each win-rate row's won games as a caption and an aligned text table, for
    under the win-rate table: its rows are the same groups, so "won" is the same count."""
    header = ("game", "level", "rule", "won", "time (s)", "3BV", "3BV/s", "clicks", "efficiency")
    lines = [header]
    for r in rates:
        speed = r.speed
        lines.append(
            (
                r.game,
                r.level,
                r.first_click or "?",
                str(speed.games),
                _shown(speed.seconds, ".2f"),
                _shown(speed.bbbv, "g"),
                _shown(speed.bbbv_per_second, ".2f"),
                _shown(speed.clicks, "g"),
                _shown(speed.efficiency, ".0%"),
            )
        )
    return f"{SPEED_CAPTION}\n{_aligned(lines)}"


def _shown(value: float | None, spec: str) -> str:
    return "-" if value is None else format(value, spec)


def _aligned(lines: Sequence[Sequence[str]]) -> str:
    """Rows of cells as text, each column padded to its widest cell."""
    widths = [max(len(line[i]) for line in lines) for i in range(len(lines[0]))]
    return "\n".join(
        "  ".join(cell.ljust(w) for cell, w in zip(line, widths, strict=True)).rstrip()
        for line in lines
    )


def rates_to_json(rates: Sequence[WinRate]) -> list[dict[str, Any]]:
    """The win rates as JSON-ready dictionaries (with the rate itself included).

    Each keeps the keys it always had; the speed of its won games is one more key, ``speed``
    (a :class:`Speed` as an object, efficiency a fraction), rather than a new top-level shape:
    a consumer reading the list of rates reads it as before.
    """
    return [{**asdict(r), "rate": r.rate} for r in rates]


def load_simulated(path: Path) -> list[SimulatedRate]:
    """Read the simulated win rates from a benchmark JSON written by ``autosweeper bench --out``."""
    try:
        results = read_json(path)
    except BenchError as error:
        raise CommandError(str(error)) from None
    return [SimulatedRate(r.rows, r.columns, r.mines, r.rule, r.win_rate) for r in results]


# -- the running win rate -------------------------------------------------------------------


def running_win_rate(games: Iterable[LoggedGame]) -> list[tuple[int, float, float, float]]:
    """After each won or lost game: (games so far, win rate, Wilson low, Wilson high)."""
    points = []
    won = finished = 0
    for record in games:
        if not record.result.is_finished_game:
            continue
        finished += 1
        won += record.result == Result.WON
        low, high = wilson_interval(won, finished)
        points.append((finished, won / finished, low, high))
    return points


def plot_running_win_rate(games: Sequence[LoggedGame], path: Path) -> Path:
    """Draw each game and level's running win rate with its 95% band into a PNG at ``path``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    width, height = PLOT_SIZE_PIXELS
    figure, axes = plt.subplots(figsize=(width / _PLOT_DPI, height / _PLOT_DPI), dpi=_PLOT_DPI)
    try:
        groups: dict[str, list[LoggedGame]] = {}
        for record in games:
            groups.setdefault(f"{record.game} {record.level}", []).append(record)
        for label, records in groups.items():
            points = running_win_rate(records)
            if not points:
                continue
            n, rate, low, high = zip(*points, strict=True)
            (line,) = axes.plot(n, rate, label=f"{label} ({rate[-1]:.1%} of {n[-1]})")
            axes.fill_between(n, low, high, color=line.get_color(), alpha=0.2)
        axes.set_xlabel("won or lost games")
        axes.set_ylabel("running win rate (95% Wilson band)")
        axes.set_ylim(0, 1)
        axes.grid(alpha=0.3)
        if axes.lines:
            axes.legend(loc="lower right")
        else:
            axes.text(0.5, 0.5, "no won or lost games yet", ha="center", transform=axes.transAxes)
        figure.savefig(path, format="png", dpi=_PLOT_DPI)
    finally:
        plt.close(figure)
    return Path(path)


# -- CSV ------------------------------------------------------------------------------------

_CSV_FIELDS = [f.name for f in fields(LoggedGame)] + ["efficiency"]
"""The stored fields, then the figures derived from them (which :func:`read_csv` needs not)."""


def write_csv(games: Iterable[LoggedGame], out: TextIO) -> int:
    """Write one CSV row per game (guess chances space-separated, efficiency a fraction) to
    ``out``, a text stream opened with ``newline=""``; return the number of rows."""
    count = 0
    writer = csv.DictWriter(out, fieldnames=_CSV_FIELDS)
    writer.writeheader()
    for record in games:
        row = asdict(record)
        row["started_at"] = record.started_at.isoformat()
        row["ended_at"] = "" if record.ended_at is None else record.ended_at.isoformat()
        row["result"] = record.result.value
        row["guess_chances"] = " ".join(repr(c) for c in record.guess_chances)
        row["efficiency"] = record.efficiency
        writer.writerow({k: "" if v is None else v for k, v in row.items()})
        count += 1
    return count


def read_csv(path: Path) -> list[LoggedGame]:
    """Read a CSV written by :func:`write_csv` back into records."""

    def optional(text: str, kind: Callable[[str], Any]) -> Any:
        return None if text == "" else kind(text)

    with Path(path).open(newline="") as source:
        return [
            LoggedGame(
                id=int(row["id"]),
                started_at=datetime.fromisoformat(row["started_at"]),
                ended_at=optional(row["ended_at"], datetime.fromisoformat),
                game=row["game"],
                skin=row["skin"],
                rows=int(row["rows"]),
                columns=int(row["columns"]),
                mines=int(row["mines"]),
                first_click=optional(row["first_click"], str),
                result=Result(row["result"]),
                duration=optional(row["duration"], float),
                clicks=int(row["clicks"]),
                guesses=int(row["guesses"]),
                guess_chances=tuple(float(c) for c in row["guess_chances"].split()),
                bbbv=optional(row["bbbv"], int),
                bbbv_per_second=optional(row["bbbv_per_second"], float),
                final_board=optional(row["final_board"], str),
                reason=optional(row["reason"], str),
            )
            for row in csv.DictReader(source)
        ]


# -- Metasweeper EVF replays ------------------------------------------------------------------

_EVF_EVENTS = {
    "open": ("lc", "lr"),
    "flag": ("rc", "rr"),
    "chord": ("lc", "rc", "lr", "rr"),
}


def export_evf(record: LoggedGame, moves: Sequence[MoveRecord], path: Path) -> Path:
    """Write a won or lost game as a Metasweeper ``.evf`` replay at ``path``; return it.

    The replay says it is a bot's: neither official nor fair (the format's flags for a game
    played without aids), game mode "cheat", and autosweeper as both software and player.
    ms-toollib's recorder stamps each event with the wall clock and offers no way to set the
    time while recording, so the clicks are re-enacted at their recorded pace: exporting takes
    as long as the game did.
    """
    name = f"game {record.id}"
    if not record.result.is_finished_game or record.final_board is None:
        raise ReplayError(f"{name} was {record.result.value}; only won or lost games have replays")
    layout = mine_layout(Board.from_text(record.final_board))
    if layout is None:
        raise ReplayError(f"{name}: its final board does not show where every mine is")
    try:
        ms_toollib = toollib.load()
    except toollib.ToollibMissing as missing:
        raise ReplayError(f"{name}: no replay written: {missing}") from missing
    video = ms_toollib.BaseVideo(toollib_board(layout), _EVF_CELL_PIXELS)
    start = time.monotonic() - (moves[0].seconds if moves else 0.0)
    for move in moves:
        events = _EVF_EVENTS.get(move.action)
        if events is None:
            raise ReplayError(f"{name}: unknown action {move.action!r} at {move.seconds:.3f} s")
        time.sleep(max(0.0, start + move.seconds - time.monotonic()))
        pixel = (
            move.row * _EVF_CELL_PIXELS + _EVF_CELL_PIXELS // 2,
            move.column * _EVF_CELL_PIXELS + _EVF_CELL_PIXELS // 2,
        )
        for event in events:
            video.step(event, pixel)
    expected_state = {Result.WON: 3, Result.LOST: 4}[record.result]
    if video.game_board_state != expected_state:
        raise ReplayError(
            f"{name}: its recorded clicks do not replay to a {record.result.value} game on its "
            "final board (was a click lost?)"
        )
    video.software = "autosweeper"
    video.player_identifier = EVF_PLAYER
    video.is_official = False
    video.is_fair = False
    video.mode = EVF_CHEAT_MODE
    video.generate_evf_v4_raw_data()
    # Written from raw_data: save_to_evf_file picks its own suffix and returns before the file
    # is on disk.
    Path(path).write_bytes(bytes(video.raw_data))
    return Path(path)
