"""Outcome logs for the tests of the log, its file, the stats and the exports: a game's setup, a log
with a won, a lost and an unfinished game, a log of games of chosen speeds, a log of schema version
1, and another program's database."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Sequence
from contextlib import closing
from pathlib import Path

from controller import outcome_file
from controller.outcomes import GameSetup, OutcomeLog, Result
from solver import Board

SETUP = GameSetup("winemine", "winemine-default", 9, 9, 10, "safe")


def another_programs_database(path: Path) -> bytes:
    """A small SQLite file in rollback-journal mode with a table of its own; its bytes."""
    with closing(sqlite3.connect(path)) as raw, raw:
        raw.execute("CREATE TABLE notes (body TEXT)")
        raw.execute("INSERT INTO notes VALUES ('keep me')")
    return path.read_bytes()


def played_log(path: Path) -> OutcomeLog:
    """A log with a won, a lost and an unfinished game, played on a 3x5 board with 2 mines."""
    log = OutcomeLog(path)
    setup = GameSetup("winemine", "winemine", 3, 5, 2, "safe")
    won = log.start_game(setup)
    for cell, action, safety, guess in (
        ((0, 4), "open", None, True),
        ((1, 1), "flag", 1.0, False),
        ((0, 0), "flag", 1.0, False),
        ((1, 2), "chord", 1.0, False),
        ((1, 0), "open", 1.0, False),
        ((2, 0), "open", 1.0, False),
    ):
        time.sleep(0.05)
        log.record_move(won, cell, action, safety, guess)
    log.finish_game(won, Result.WON, Board.from_rows(["F2100", "2F100", "11100"], mines=2))
    lost = log.start_game(setup)
    log.record_move(lost, (0, 4), "open", None, True)
    time.sleep(0.01)
    log.record_move(lost, (0, 0), "open", 0.5, True)
    log.finish_game(lost, Result.LOST, Board.from_rows(["X2100", "U@100", "UU100"], mines=2))
    log.start_game(setup)
    return log


SpeedRow = tuple[str, Result, int, int | None, float]
"""A game of :func:`speed_log`: (game, result, clicks, 3BV or None when unknown, seconds)."""


def speed_log(path: Path, rows: Sequence[SpeedRow]) -> None:
    """A log of Expert games with the clicks, 3BV and time given (3BV/s written for won games
    with a 3BV, as the log does), as if ms-toollib had measured them."""
    with OutcomeLog(path) as log:
        ids = []
        for game, result, *_ in rows:
            game_id = log.start_game(GameSetup(game, game, 16, 30, 99, "safe"))
            log.finish_game(game_id, result, None)
            ids.append(game_id)
    with closing(sqlite3.connect(path)) as raw, raw:
        for game_id, (_, result, clicks, bbbv, seconds) in zip(ids, rows, strict=True):
            per_second = bbbv / seconds if bbbv is not None and result == Result.WON else None
            raw.execute(
                "UPDATE games SET clicks = ?, bbbv = ?, duration = ?, bbbv_per_second = ?"
                " WHERE id = ?",
                (clicks, bbbv, seconds, per_second, game_id),
            )


def version_1_log(path: Path, **columns: object) -> None:
    """A log as schema version 1 left it (never migrated) with one game: ``columns`` over a won
    Beginner game's."""
    row = {
        **dict(started_at="2026-01-01T00:00:00+00:00", game="winemine", skin="w", rows=9),
        **dict(columns=9, mines=10, result="won", host="h", pid=1),
        **columns,
    }
    with closing(sqlite3.connect(path)) as raw, raw:
        raw.executescript(f"{outcome_file.SCHEMA}PRAGMA user_version = 1;")
        marks = ", ".join("?" * len(row))
        raw.execute(f"INSERT INTO games ({', '.join(row)}) VALUES ({marks})", tuple(row.values()))
