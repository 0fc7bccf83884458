"""``autosweeper stats``: win rates printed as a table or JSON, CSV and a plot written, and logs
that are empty, broken or another program's."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from outcome_logs import another_programs_database, played_log

from controller import report
from controller.cli import main


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
