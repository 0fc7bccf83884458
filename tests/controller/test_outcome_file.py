"""The outcome log's file (controller/outcome_file.py): its schema and migrations, WAL, its mark,
read-only reading, and another program's database or a file that is no database refused
untouched."""

from __future__ import annotations

import os
import socket
import sqlite3
import subprocess
import tempfile
from contextlib import closing
from pathlib import Path

import psutil
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from outcome_logs import SETUP, another_programs_database

from controller import outcome_file
from controller.errors import OutcomeLogError
from controller.outcome_file import SCHEMA_VERSION
from controller.outcomes import OutcomeLog, Result


def test_a_file_that_is_not_a_database_is_refused_and_left_alone(tmp_path: Path) -> None:
    broken = tmp_path / "outcomes.sqlite3"
    content = b"these are notes, not a database" * 100
    broken.write_bytes(content)
    with pytest.raises(OutcomeLogError, match=str(broken)):
        OutcomeLog(broken)
    assert broken.read_bytes() == content


def test_a_version_1_log_is_migrated_keeping_its_games(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    with sqlite3.connect(db) as raw:
        raw.executescript(f"{outcome_file.SCHEMA}PRAGMA user_version = 1;")
        raw.execute(
            "INSERT INTO games (started_at, game, skin, rows, columns, mines, result, host, pid)"
            " VALUES ('2026-01-01T00:00:00+00:00', 'winemine', 'w', 9, 9, 10, 'won', 'h', 1)"
        )
    with OutcomeLog(db) as log:
        (record,) = log.games()
    assert (record.game, record.result, record.reason) == ("winemine", Result.WON, None)
    with sqlite3.connect(db) as raw:
        assert raw.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)


def test_a_newer_schema_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "log.db"
    OutcomeLog(db).close()
    with sqlite3.connect(db) as raw:
        raw.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(OutcomeLogError, match="newer autosweeper"):
        OutcomeLog(db)


def test_the_log_uses_wal_and_records_its_schema_version(tmp_path: Path) -> None:
    db = tmp_path / "log.db"
    OutcomeLog(db).close()
    with sqlite3.connect(db) as raw:
        assert raw.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        assert raw.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)


def test_a_game_logged_before_start_times_is_judged_by_its_pid(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    with closing(sqlite3.connect(db)) as raw, raw:
        raw.executescript(
            f"{outcome_file.SCHEMA}{outcome_file.MIGRATIONS[2]}PRAGMA user_version = 2;"
        )
        for pid in (os.getpid(), dead_pid()):
            raw.execute(
                "INSERT INTO games (started_at, game, skin, rows, columns, mines, result, host,"
                " pid) VALUES ('2026-01-01T00:00:00+00:00', 'winemine', 'w', 9, 9, 10,"
                " 'in progress', ?, ?)",
                (socket.gethostname(), pid),
            )
    with OutcomeLog(db) as log:
        results = [record.result for record in log.games()]
        game_id = log.start_game(SETUP)
        log.finish_game(game_id, Result.WON, None)
    assert results == [Result.IN_PROGRESS, Result.CUT_OFF]  # ours lives; the other is gone
    with closing(sqlite3.connect(db)) as raw:
        assert raw.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
        assert raw.execute("PRAGMA application_id").fetchone() == (outcome_file.APPLICATION_ID,)
        (started,) = raw.execute("SELECT process_started FROM games WHERE id = ?", (game_id,))
    assert started[0] == pytest.approx(psutil.Process().create_time())


def dead_pid() -> int:
    """The pid of a process that has ended (and been reaped)."""
    process = subprocess.Popen(["true"])
    process.wait()
    return process.pid


@pytest.mark.parametrize("read_only", [False, True])
def test_another_programs_database_is_refused_before_anything_changes(
    tmp_path: Path, read_only: bool
) -> None:
    foreign = tmp_path / "their.sqlite3"
    content = another_programs_database(foreign)
    with pytest.raises(OutcomeLogError) as refused:
        OutcomeLog(foreign, read_only=read_only)
    message = str(refused.value)
    assert "\n" not in message
    assert str(foreign) in message and "another program's database, with tables notes" in message
    assert foreign.read_bytes() == content
    assert sorted(tmp_path.iterdir()) == [foreign]  # no -wal or -shm file either
    with closing(sqlite3.connect(foreign)) as raw:
        assert raw.execute("PRAGMA journal_mode").fetchone() == ("delete",)


@settings(max_examples=40, deadline=None)
@given(
    tables=st.lists(
        st.from_regex(r"[a-z][a-z0-9_]{0,8}", fullmatch=True).filter(
            lambda name: not name.startswith("sqlite")
        ),
        min_size=1,
        max_size=4,
        unique=True,
    ),
    version=st.integers(0, 2 * SCHEMA_VERSION),
    wal=st.booleans(),
)
def test_any_other_database_is_refused_untouched(
    tables: list[str], version: int, wal: bool
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        foreign = Path(folder) / "their.db"
        with closing(sqlite3.connect(foreign)) as raw:
            if wal:
                raw.execute("PRAGMA journal_mode=WAL")
            for name in tables:
                raw.execute(f'CREATE TABLE "{name}" (value)')
            raw.execute(f"PRAGMA user_version = {version}")
            raw.commit()
        content = foreign.read_bytes()
        for read_only in (False, True):
            with pytest.raises(OutcomeLogError, match="another program's database"):
                OutcomeLog(foreign, read_only=read_only)
        assert foreign.read_bytes() == content


def test_tables_named_like_ours_without_our_columns_are_not_our_log(tmp_path: Path) -> None:
    foreign = tmp_path / "their.sqlite3"
    with closing(sqlite3.connect(foreign)) as raw, raw:
        raw.executescript("CREATE TABLE games (name TEXT); CREATE TABLE moves (x);")
        raw.execute("PRAGMA user_version = 1")
    content = foreign.read_bytes()
    with pytest.raises(OutcomeLogError, match="another program's database"):
        OutcomeLog(foreign)
    assert foreign.read_bytes() == content


def test_a_new_log_carries_the_autosweeper_mark(tmp_path: Path) -> None:
    for db in (tmp_path / "new.db", tmp_path / "empty.db"):
        if db.name == "empty.db":
            db.touch()
        OutcomeLog(db).close()
        with closing(sqlite3.connect(db)) as raw:
            assert raw.execute("PRAGMA application_id").fetchone() == (outcome_file.APPLICATION_ID,)


def test_reading_only_changes_nothing_and_reads_an_old_log(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    with closing(sqlite3.connect(db)) as raw, raw:
        raw.executescript(f"{outcome_file.SCHEMA}PRAGMA user_version = 1;")
        raw.execute(
            "INSERT INTO games (started_at, game, skin, rows, columns, mines, result, host, pid)"
            " VALUES ('2026-01-01T00:00:00+00:00', 'winemine', 'w', 9, 9, 10, 'in progress',"
            " ?, ?)",
            (socket.gethostname(), dead_pid()),
        )
    content = db.read_bytes()
    with OutcomeLog(db, read_only=True) as log:
        (record,) = log.games()
    assert (record.result, record.reason) == (Result.IN_PROGRESS, None)
    assert db.read_bytes() == content  # not migrated, not marked cut off


@pytest.mark.parametrize("content", [None, b""])
def test_reading_a_missing_or_empty_file_finds_no_games_and_writes_nothing(
    tmp_path: Path, content: bytes | None
) -> None:
    db = tmp_path / "log.db"
    if content is not None:
        db.write_bytes(content)
    with OutcomeLog(db, read_only=True) as log:
        assert log.games() == []
    assert sorted(tmp_path.iterdir()) == ([] if content is None else [db])
    assert content is None or db.read_bytes() == content
