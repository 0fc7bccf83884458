"""``autosweeper stats``: win rates printed as a table or JSON, CSV and a plot written, and logs
that are empty, broken or another program's."""

from __future__ import annotations

import json
import re
import sqlite3
import statistics
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from outcome_logs import (
    SpeedRow,
    another_programs_database,
    played_log,
    speed_log,
    version_1_log,
)

from controller import report
from controller.cli import main
from controller.outcomes import Result


@pytest.mark.parametrize("content", [None, b""])
def test_stats_on_a_missing_or_empty_log_says_no_games_and_writes_nothing(
    tmp_path: Path, content: bytes | None, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "log.db"
    if content is not None:
        db.write_bytes(content)
    assert main(["stats", "--db", str(db)]) == 0
    assert capsys.readouterr().out == f"{db}: no games logged\n"
    assert sorted(tmp_path.iterdir()) == ([] if content is None else [db])
    assert content is None or db.read_bytes() == content


def test_stats_refuses_another_programs_database_untouched(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    foreign = tmp_path / "their.sqlite3"
    content = another_programs_database(foreign)
    assert main(["stats", "--db", str(foreign)]) != 0
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and str(foreign) in error and "Traceback" not in error
    assert foreign.read_bytes() == content


def test_stats_command_prints_json_and_writes_csv_and_plot(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "log.db"
    played_log(db).close()
    assert main(["stats", "--db", str(db), "--json", "--plot", str(tmp_path / "p.png")]) == 0
    (rate,) = json.loads(capsys.readouterr().out)
    assert (rate["game"], rate["level"], rate["won"], rate["finished"], rate["unfinished"]) == (
        "winemine",
        "3x5x2",
        1,
        2,
        1,  # the game left in progress
    )
    assert (tmp_path / "p.png").read_bytes()[:4] == b"\x89PNG"
    assert main(["stats", "--db", str(db), "--csv", str(tmp_path / "g.csv")]) == 0
    assert len(report.read_csv(tmp_path / "g.csv")) == 3


def test_stats_command_names_a_broken_log(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = tmp_path / "broken.db"
    broken.write_text("not sqlite at all" * 50)
    assert main(["stats", "--db", str(broken)]) == 1
    assert str(broken) in capsys.readouterr().err


def test_the_help_of_stats_shows_a_plain_percent_sign(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["--help"], ["stats", "--help"]):
        with pytest.raises(SystemExit):
            main(argv)
        shown = capsys.readouterr().out
        assert "95% intervals" in shown
        assert "%%" not in shown


def test_stats_writes_csv_to_standard_output_and_refuses_a_png_there(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "log.db"
    played_log(db).close()
    assert main(["stats", "--db", str(db), "--csv", "-"]) == 0
    printed = capsys.readouterr().out
    (tmp_path / "copy.csv").write_text(printed)
    assert [r.id for r in report.read_csv(tmp_path / "copy.csv")] == [1, 2, 3]
    assert main(["stats", "--db", str(db), "--plot", "-"]) == 1
    assert "--plot draws a PNG file" in capsys.readouterr().err


@pytest.mark.parametrize("option", ["--csv", "--plot"])
def test_stats_names_an_unwritable_output_without_a_traceback(
    option: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "log.db"
    played_log(db).close()
    target = tmp_path / "no such folder" / "out"
    assert main(["stats", "--db", str(db), option, str(target)]) == 1
    printed = capsys.readouterr()
    assert printed.err.startswith(f"autosweeper stats: cannot write {target}")
    assert printed.out == ""


SPEEDS: list[SpeedRow] = [
    ("winemine", Result.WON, 150, 120, 40.0),
    ("winemine", Result.WON, 200, 150, 50.0),
    ("winemine", Result.LOST, 30, 110, 5.0),  # not won: in no median
    ("winemine", Result.WON, 180, None, 45.0),  # 3BV unknown: in the time and click medians only
    ("winemine", Result.WON, 161, 130, 35.5),
    ("xdemineur", Result.WON, 170, None, 30.0),  # no 3BV known at all
    ("xdemineur", Result.STOPPED, 3, None, 1.0),
]


def medians_of_won_rows(db: Path, game: str) -> dict[str, Any]:
    """The medians of the game's won games, from the rows of the file itself."""
    with closing(sqlite3.connect(db)) as raw:
        rows = raw.execute(
            "SELECT duration, bbbv, bbbv_per_second, clicks FROM games"
            " WHERE game = ? AND result = 'won'",
            (game,),
        ).fetchall()

    def median(values: list[Any]) -> Any:
        known = [value for value in values if value is not None]
        return statistics.median(known) if known else None

    seconds, bbbv, per_second, clicks = (list(column) for column in zip(*rows, strict=True))
    return {
        "games": len(rows),
        "seconds": median(seconds),
        "bbbv": median(bbbv),
        "bbbv_per_second": median(per_second),
        "clicks": median(clicks),
        "efficiency": median([b / c for _, b, _, c in rows if b is not None]),
    }


def cells(line: str) -> dict[int, str]:
    """A table line's cells (words apart by one space) by the column they start at."""
    return {found.start(): found.group() for found in re.finditer(r"\S+(?: \S+)*", line)}


def test_stats_prints_the_medians_of_the_won_games_under_the_win_rates(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "log.db"
    speed_log(db, SPEEDS)
    assert main(["stats", "--db", str(db)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[:3] == ["game", "level", "rule"] and lines[3] == ""
    caption, header, *rows = lines[4:]
    assert "median" in caption and "won games" in caption
    assert list(cells(header).values()) == [
        "game", "level", "rule", "won", "time (s)", "3BV", "3BV/s", "clicks", "efficiency"
    ]  # fmt: skip
    for row in rows:
        assert cells(row).keys() == cells(header).keys()  # aligned: every column in its place
    m = medians_of_won_rows(db, "winemine")
    assert m["games"] == 4
    assert list(cells(rows[0]).values()) == [
        "winemine",
        "expert",
        "safe",
        str(m["games"]),
        f"{m['seconds']:.2f}",
        f"{m['bbbv']:g}",
        f"{m['bbbv_per_second']:.2f}",
        f"{m['clicks']:g}",
        f"{m['efficiency']:.0%}",
    ]
    assert m["efficiency"] == pytest.approx(statistics.median([120 / 150, 150 / 200, 130 / 161]))
    x = medians_of_won_rows(db, "xdemineur")
    assert list(cells(rows[1]).values()) == [
        "xdemineur", "expert", "safe", "1", f"{x['seconds']:.2f}", "-", "-", "170", "-"
    ]  # fmt: skip


def test_stats_json_gives_each_win_rate_the_medians_of_its_won_games(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "log.db"
    speed_log(db, SPEEDS)
    assert main(["stats", "--db", str(db), "--json"]) == 0
    entries = json.loads(capsys.readouterr().out)
    assert [(e["game"], e["won"], e["finished"]) for e in entries] == [
        ("winemine", 4, 5),
        ("xdemineur", 1, 1),
    ]
    for entry in entries:
        assert entry["speed"] == pytest.approx(medians_of_won_rows(db, entry["game"]))
    assert entries[1]["speed"]["efficiency"] is None and entries[1]["speed"]["bbbv"] is None


def test_stats_gives_the_efficiency_of_a_version_1_log_without_changing_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "old.db"
    version_1_log(db, rows=16, columns=30, mines=99, duration=50.0, clicks=150, bbbv=120)
    content = db.read_bytes()
    assert main(["stats", "--db", str(db)]) == 0
    *_, header, row = capsys.readouterr().out.splitlines()
    assert list(cells(row).values()) == [
        "winemine", "expert", "?", "1", "50.00", "120", "-", "150", "80%"
    ]  # fmt: skip
    assert db.read_bytes() == content  # no migration for a figure worked out on reading
