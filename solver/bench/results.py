"""A benchmark's results: the figures of one level and rule (:class:`BenchResult`), printed as a
table, saved as JSON with the machine they were measured on, and read back.
"""

from __future__ import annotations

import json
import os
import platform
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from solver.bench.stats import wilson_interval
from solver.board import LEVELS
from solver.errors import BenchError


@dataclass(frozen=True)
class BenchResult:
    """The figures for one level under one first-click rule."""

    level: str
    rule: str
    rows: int
    columns: int
    mines: int
    games: int
    wins: int
    win_rate: float
    wilson_low: float
    wilson_high: float
    games_per_second: float
    decision_ms_median: float
    decision_ms_p99: float
    decision_ms_max: float
    """The slowest single decision: the budget is 2 s."""
    cpu_ms_per_game: float
    guesses_per_game: float
    certain_move_losses: int
    """Games lost on a move the strategy called certain: should be 0."""
    first_seed: int
    outcomes: str = ""
    """Game by game from ``first_seed`` on: "1" won, "0" lost. Two runs on the same seeds can
    then be compared game for game (:func:`solver.bench.stats.paired_comparison`)."""
    overrides: dict[str, Any] = field(default_factory=dict)
    """Solver settings changed for this run, by name (:func:`solver.bench.run.settings_with`)."""


def win_fields(level: str, rule: str, wins: int, games: int) -> dict[str, Any]:
    """The fields of a :class:`BenchResult` that say what was played and how often it was won
    (a level's size, the win rate and its Wilson interval), for every way of making one."""
    rows, columns, mines = LEVELS[level]
    low, high = wilson_interval(wins, games)
    return {
        "level": level,
        "rule": rule,
        "rows": rows,
        "columns": columns,
        "mines": mines,
        "games": games,
        "wins": wins,
        "win_rate": wins / games,
        "wilson_low": low,
        "wilson_high": high,
    }


def machine_description() -> dict[str, Any]:
    """Where a figure was measured: core count, CPU model, Python."""
    model = platform.processor() or "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {"cpus": os.cpu_count(), "cpu_model": model, "python": platform.python_version()}


def format_table(results: Sequence[BenchResult]) -> str:
    """The results as an aligned text table, one line per level and rule."""
    header = (
        f"{'level':<13}{'rule':<8}{'games':>7}{'wins':>7}  {'win rate [Wilson 95%]':<24}"
        f"{'games/s':>9}{'dec ms p50':>11}{'dec ms p99':>11}{'dec ms max':>11}"
        f"{'CPU ms/game':>12}{'guesses':>9}"
    )
    lines = [header]
    for r in results:
        rate = f"{100 * r.win_rate:.2f}% [{100 * r.wilson_low:.2f}, {100 * r.wilson_high:.2f}]"
        lines.append(
            f"{r.level:<13}{r.rule:<8}{r.games:>7}{r.wins:>7}  {rate:<24}{r.games_per_second:>9.1f}"
            f"{r.decision_ms_median:>11.3f}{r.decision_ms_p99:>11.3f}{r.decision_ms_max:>11.1f}"
            f"{r.cpu_ms_per_game:>12.2f}"
            f"{r.guesses_per_game:>9.2f}"
        )
    for r in results:
        if r.certain_move_losses:
            lines.append(
                f"WARNING: {r.level} {r.rule}: {r.certain_move_losses} games lost on a move the "
                "strategy called certain"
            )
    return "\n".join(lines)


def results_json(results: Sequence[Any], settings: dict[str, Any], key: str = "results") -> str:
    """The results (dataclasses: :class:`BenchResult`, or another measure's under its own
    ``key``) as a JSON document, with the settings and machine they were measured with."""
    document = {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": machine_description(),
        "settings": settings,
        key: [asdict(r) for r in results],
    }
    return json.dumps(document, indent=2) + "\n"


def write_json(
    results: Sequence[Any], path: Path, settings: dict[str, Any], key: str = "results"
) -> None:
    """Save :func:`results_json` at ``path``; :func:`read_json` reads it back."""
    Path(path).write_text(results_json(results, settings, key))


MAX_RESULTS_BYTES = 256 << 20
"""The largest saved benchmark read: a game takes one byte of its outcomes, so a million games
of each of a hundred levels and rules fit; anything larger is refused before it is read whole."""


def read_json(path: Path) -> list[BenchResult]:
    """The results saved by :func:`write_json`; ``ValueError`` naming the file if it is not."""
    try:
        with open(path, "rb") as file:
            text = file.read(MAX_RESULTS_BYTES + 1)
    except OSError as error:
        raise BenchError(f"cannot read {path}: {error.strerror or error}") from None
    if len(text) > MAX_RESULTS_BYTES:
        raise BenchError(
            f"{path} is larger than {MAX_RESULTS_BYTES >> 20} MiB: no saved benchmark is"
        )
    try:
        document = json.loads(text)
        return [BenchResult(**fields) for fields in document["results"]]
    except (ValueError, KeyError, TypeError) as error:
        raise BenchError(f"{path} is not a saved benchmark ({error})") from None
