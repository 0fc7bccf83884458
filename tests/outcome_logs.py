"""Outcome logs for the tests of the log, its file, the stats and the exports: a game's setup, a log
with a won, a lost and an unfinished game, and another program's database."""

from __future__ import annotations

import sqlite3
import time
from contextlib import closing
from pathlib import Path

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
