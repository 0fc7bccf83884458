"""The outcome log's file: its schema and the migrations from older versions, telling an
autosweeper log from any other database (before anything in it changes), and opening it for
writing (WAL journaling, so a reader never blocks the bot) or read-only.

The file carries ``PRAGMA user_version`` as its schema version and ``PRAGMA application_id`` as
its mark; :mod:`controller.outcomes` reads and writes the games in it.
"""

from __future__ import annotations

import contextlib
import sqlite3
import time
from pathlib import Path

SCHEMA_VERSION = 3
APPLICATION_ID = 0x41535750
"""``PRAGMA application_id`` of an autosweeper log ("ASWP"), set since schema version 3."""


SCHEMA = """
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    started_at TEXT NOT NULL,
    ended_at TEXT,
    game TEXT NOT NULL,
    skin TEXT NOT NULL,
    rows INTEGER NOT NULL,
    columns INTEGER NOT NULL,
    mines INTEGER NOT NULL,
    first_click TEXT,
    result TEXT NOT NULL,
    duration REAL,
    clicks INTEGER NOT NULL DEFAULT 0,
    guesses INTEGER NOT NULL DEFAULT 0,
    bbbv INTEGER,
    bbbv_per_second REAL,
    final_board TEXT,
    host TEXT NOT NULL,
    pid INTEGER NOT NULL
);
CREATE TABLE moves (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    seconds REAL NOT NULL,
    row INTEGER NOT NULL,
    col INTEGER NOT NULL,
    action TEXT NOT NULL,
    safety REAL,
    is_guess INTEGER NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE INDEX games_by_result ON games(result);
"""
"""Version 1 of the schema; :data:`MIGRATIONS` bring it up to :data:`SCHEMA_VERSION`."""

MIGRATIONS = {
    2: "ALTER TABLE games ADD COLUMN reason TEXT;",
    3: "ALTER TABLE games ADD COLUMN process_started REAL;"
    f"PRAGMA application_id = {APPLICATION_ID};",
}
"""The SQL that takes a log from the version before each key to that version."""


VERSION_1_COLUMNS = {"result", "host", "pid", "rows", "columns", "mines"}
"""Columns by which a log made before :data:`APPLICATION_ID` is recognised, with its tables."""


def bring_up_to_date(db: sqlite3.Connection) -> None:
    """Create the schema in an empty file, or bring a recognised log up to date."""
    db.execute("BEGIN IMMEDIATE")  # one writer at a time: the version read is changed
    try:
        (version,) = db.execute("PRAGMA user_version").fetchone()
        scripts = [SCHEMA] if version == 0 else []
        scripts += [MIGRATIONS[step] for step in range(max(version, 1) + 1, SCHEMA_VERSION + 1)]
        for statement in (part.strip() for script in scripts for part in script.split(";")):
            if statement:
                db.execute(statement)
        db.execute(f"PRAGMA user_version = {max(version, SCHEMA_VERSION)}")
    except BaseException:
        db.rollback()
        raise
    db.commit()


def write_ahead(db: sqlite3.Connection, patience: float = 30.0) -> None:
    """Turn WAL journaling on. SQLite answers "database is locked" at once, without waiting,
    while another connection holds the file as this one asks (two runs opening a new log at
    once), so the request is repeated for up to ``patience`` seconds."""
    deadline = time.monotonic() + patience
    while True:
        try:
            db.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or time.monotonic() > deadline:
                raise
            time.sleep(0.01)


def recognise(path: Path) -> bool:
    """Whether ``path`` holds an autosweeper log (False: missing, empty, or a database with no
    tables, where a new log may be made); raise :class:`sqlite3.DatabaseError` for anything else,
    having only read it."""
    if not path.exists() or (path.is_file() and path.stat().st_size == 0):
        return False
    with contextlib.closing(connect_read_only(path)) as db:
        (application_id,) = db.execute("PRAGMA application_id").fetchone()
        (version,) = db.execute("PRAGMA user_version").fetchone()
        tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master")}
        games_columns = {row[1] for row in db.execute("PRAGMA table_info(games)")}
    made_before_the_mark = (
        application_id == 0
        and version >= 1
        and {"games", "moves"} <= tables
        and games_columns >= VERSION_1_COLUMNS
    )
    if application_id == APPLICATION_ID or made_before_the_mark:
        if version > SCHEMA_VERSION:
            raise sqlite3.DatabaseError(
                f"schema version {version} was written by a newer autosweeper "
                f"(this one reads up to {SCHEMA_VERSION})"
            )
        return True
    if application_id == 0 and version == 0 and not tables:
        return False
    listed = f", with tables {', '.join(sorted(tables))}" if tables else ""
    raise sqlite3.DatabaseError(f"another program's database{listed}")


def connect_read_only(path: Path | None) -> sqlite3.Connection:
    """A connection that cannot write to ``path``; with None, an empty log in memory."""
    if path is None:
        db = sqlite3.connect(":memory:")
        db.executescript(SCHEMA + "".join(MIGRATIONS.values()))
        return db
    return sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=30)
