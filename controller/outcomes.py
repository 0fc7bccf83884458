"""The outcome log: one SQLite row per game played, so win rates survive crashes and restarts.

A game's row is inserted as ``in progress`` before its first click and each click is appended
in its own committed transaction; the row is completed when the game ends. If the process dies
mid-game, the next :class:`OutcomeLog` opened on the file sees an ``in progress`` row whose
process is gone and marks it ``cut off``, so no game silently disappears from the statistics.
A process is known by its pid and start time, so a pid reused by a later process is no alibi.

The file itself (its schema, migrations and mark; any other non-empty database is refused
before anything in it is changed, journal mode included) is :mod:`controller.outcome_file`'s.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path
from types import TracebackType

import platformdirs

from controller.desktop.processes import is_running, start_time
from controller.errors import OutcomeLogError
from controller.locks import log_alone
from controller.outcome_file import bring_up_to_date, connect_read_only, recognise, write_ahead
from controller.toollib import three_bv
from solver import LEVELS, Board


class Result(StrEnum):
    """How a game ended, as stored in the ``result`` column."""

    IN_PROGRESS = "in progress"
    WON = "won"
    LOST = "lost"
    CUT_OFF = "cut off"
    """The process died (killed, crashed, power lost) before the game ended."""
    MISREAD = "misread"
    """A cell could not be read with confidence; the bot stopped rather than guess."""
    STOPPED = "stopped"
    """The user stopped the bot (stop key, pyautogui fail-safe) or the window went away."""

    @property
    def is_finished_game(self) -> bool:
        """Won or lost: the games that count towards a win rate."""
        return self in (Result.WON, Result.LOST)


@dataclass(frozen=True)
class GameSetup:
    """What is known about a game before its first click."""

    game: str
    skin: str
    rows: int
    columns: int
    mines: int
    first_click: str | None = None
    """The game's first-click rule (a :class:`solver.engine.FirstClick` value) when known."""


@dataclass(frozen=True)
class MoveRecord:
    """One click of a game."""

    seconds: float
    """Time since the game's row was started."""
    row: int
    column: int
    action: str
    """``open``, ``flag`` or ``chord``."""
    safety: float | None
    """The solver's estimated chance that the move was safe, when it gave one."""
    is_guess: bool


@dataclass(frozen=True)
class LoggedGame:
    """One row of the log, as read back."""

    id: int
    started_at: datetime
    ended_at: datetime | None
    game: str
    skin: str
    rows: int
    columns: int
    mines: int
    first_click: str | None
    result: Result
    duration: float | None
    clicks: int
    guesses: int
    guess_chances: tuple[float, ...]
    bbbv: int | None
    bbbv_per_second: float | None
    final_board: str | None
    reason: str | None
    """Why a game ended neither won nor lost, when it did."""

    @property
    def level(self) -> str:
        """``beginner``/``intermediate``/``expert`` for the standard sizes, else ``RxCxM``."""
        for name, size in LEVELS.items():
            if size == (self.rows, self.columns, self.mines):
                return name
        return f"{self.rows}x{self.columns}x{self.mines}"

    @property
    def efficiency(self) -> float | None:
        """3BV per click, as speed players rate a game (3BV 120 in 150 clicks: 0.8, quoted as
        80%); derived, so older logs have it without a migration. Only for a won game with a 3BV
        and a click: a lost game's 3BV is its whole board's, of which it cleared only part."""
        if self.result != Result.WON or self.bbbv is None or not self.clicks:
            return None
        return self.bbbv / self.clicks


_COLUMNS_AS_STORED = (
    "id", "game", "skin", "rows", "columns", "mines", "first_click", "duration", "clicks",
    "guesses", "bbbv", "bbbv_per_second", "final_board", "reason",
)  # fmt: skip
"""Columns of ``games`` that are :class:`LoggedGame` fields as they are."""


def default_db_path() -> Path:
    """The log's usual place: the user's data folder (e.g. ``~/.local/share/autosweeper``)."""
    return platformdirs.user_data_path("autosweeper", appauthor=False) / "outcomes.sqlite3"


class OutcomeLog:
    """The SQLite outcome log at ``path`` (created with its folder if missing).

    ``read_only``: only read, never write (no schema, no migration, no cut-off marking); a
    missing or empty file reads as a log with no games and is not created.
    """

    def __init__(self, path: Path, *, read_only: bool = False) -> None:
        self.path = Path(path)
        self._started: dict[int, float] = {}
        self._held = contextlib.ExitStack()
        if not read_only:
            self._held.enter_context(log_alone(self.path))
        try:
            self._open(read_only)
        except BaseException:
            self._held.close()
            raise

    def _open(self, read_only: bool) -> None:
        try:
            exists = recognise(self.path)
            if read_only:
                self._db = connect_read_only(self.path if exists else None)
            else:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self._db = sqlite3.connect(self.path, timeout=30, isolation_level=None)
                write_ahead(self._db)
                self._db.execute("PRAGMA synchronous=NORMAL")
                bring_up_to_date(self._db)
            self._columns = {row[1] for row in self._db.execute("PRAGMA table_info(games)")}
        except sqlite3.DatabaseError as error:
            raise OutcomeLogError(
                f"{self.path}: not a usable autosweeper outcome log ({error}); "
                "the file was left untouched, choose another with --db"
            ) from error
        if not read_only:
            self.cut_off_dead_games()

    # -- lifecycle ------------------------------------------------------------------------

    def close(self) -> None:
        self._db.close()
        self._held.close()

    def __enter__(self) -> OutcomeLog:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()

    # -- writing --------------------------------------------------------------------------

    @contextlib.contextmanager
    def _writing(self, what: str) -> Iterator[None]:
        """A write that fails (the file locked by another writer past the busy timeout, the disk
        full) as an :class:`OutcomeLogError` naming the file and what was being written; the
        rows committed before it are kept."""
        try:
            yield
        except sqlite3.OperationalError as error:
            raise OutcomeLogError(
                f"{self.path}: cannot write {what} ({error}); the games written before are kept"
            ) from error

    def start_game(self, setup: GameSetup) -> int:
        """Insert the game as ``in progress`` (committed at once) and return its id."""
        with self._writing("a new game"):
            return self._insert_game(setup)

    def _insert_game(self, setup: GameSetup) -> int:
        cursor = self._db.execute(
            "INSERT INTO games (started_at, game, skin, rows, columns, mines, first_click, result,"
            " host, pid, process_started) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                _now_text(),
                setup.game,
                setup.skin,
                setup.rows,
                setup.columns,
                setup.mines,
                setup.first_click,
                Result.IN_PROGRESS.value,
                socket.gethostname(),
                os.getpid(),
                start_time(os.getpid()),
            ),
        )
        game_id = int(cursor.lastrowid or 0)
        self._started[game_id] = time.monotonic()
        return game_id

    def _seconds(self, game_id: int) -> float:
        """Seconds since the game (of this log object) started."""
        return time.monotonic() - self._started[game_id]

    def record_move(
        self, game_id: int, cell: tuple[int, int], action: str, safety: float | None, is_guess: bool
    ) -> None:
        """Append one click to the game, committed before the function returns."""
        seconds = self._seconds(game_id)
        with self._writing(f"a click of game {game_id}"):
            self._db.execute("BEGIN IMMEDIATE")
            self._append_move(game_id, seconds, cell, action, safety, is_guess)

    def _append_move(
        self,
        game_id: int,
        seconds: float,
        cell: tuple[int, int],
        action: str,
        safety: float | None,
        is_guess: bool,
    ) -> None:
        """The writes of one click inside the transaction begun; rolled back if one fails (a
        full disk may have ended the transaction already)."""
        try:
            (seq,) = self._db.execute(
                "SELECT count(*) FROM moves WHERE game_id = ?", (game_id,)
            ).fetchone()
            self._db.execute(
                "INSERT INTO moves VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (game_id, seq, seconds, cell[0], cell[1], action, safety, int(is_guess)),
            )
            self._db.execute(
                "UPDATE games SET clicks = clicks + 1, guesses = guesses + ? WHERE id = ?",
                (int(is_guess), game_id),
            )
            self._db.execute("COMMIT")
        except BaseException:
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
            raise

    def record_end(self, game_id: int, result: Result, board: Board) -> None:
        """Write how the game ended the moment its end is read (committed at once), before
        anything that might fail after it (a dialog to answer, a board to read again):
        whatever happens next, a game that ended is not lost from the record.
        :meth:`finish_game` completes the row."""
        if not result.is_finished_game:
            raise ValueError(f"a game's end is won or lost, not {result.value!r}")
        with self._writing(f"the end of game {game_id}"):
            self._db.execute(
                "UPDATE games SET ended_at = ?, result = ?, duration = ?, final_board = ?"
                " WHERE id = ?",
                (_now_text(), result.value, self._seconds(game_id), board.to_text(), game_id),
            )

    def finish_game(
        self,
        game_id: int,
        result: Result,
        final_board: Board | None,
        reason: str | None = None,
    ) -> LoggedGame:
        """Complete the game's row with its result, final board and, for a game neither won nor
        lost, the reason; return the stored record."""
        if result == Result.IN_PROGRESS:
            raise ValueError("a finished game needs a result other than 'in progress'")
        duration = self._seconds(game_id)
        self._started.pop(game_id)
        bbbv = None if final_board is None else three_bv(final_board)
        won_with_3bv = bbbv is not None and result == Result.WON and duration > 0
        per_second = bbbv / duration if won_with_3bv and bbbv is not None else None
        with self._writing(f"the end of game {game_id}"):
            self._db.execute(
                "UPDATE games SET ended_at = ?, result = ?, duration = ?, bbbv = ?,"
                " bbbv_per_second = ?, final_board = ?, reason = ? WHERE id = ?",
                (
                    _now_text(),
                    result.value,
                    duration,
                    bbbv,
                    per_second,
                    None if final_board is None else final_board.to_text(),
                    reason,
                    game_id,
                ),
            )
        return self.game(game_id)

    def cut_off_dead_games(self) -> int:
        """Mark ``in progress`` games of processes no longer running (on this host) as cut off.

        A process is the same only if its pid and its start time match (rows written before start
        times were kept have the pid alone). Returns how many rows were marked. Rows of live
        processes are left alone.
        """
        host = socket.gethostname()
        rows = self._db.execute(
            "SELECT id, pid, process_started FROM games WHERE result = ? AND host = ?",
            (Result.IN_PROGRESS.value, host),
        ).fetchall()
        dead = [(game_id, pid) for game_id, pid, started in rows if not is_running(pid, started)]
        for game_id, pid in dead:
            self._db.execute(
                "UPDATE games SET result = ?, ended_at = ?, reason = ?, duration = (SELECT"
                " max(seconds) FROM moves WHERE game_id = ?) WHERE id = ? AND result = ?",
                (
                    Result.CUT_OFF.value,
                    _now_text(),
                    f"process {pid} on {host} ended mid-game (found by process {os.getpid()})",
                    game_id,
                    game_id,
                    Result.IN_PROGRESS.value,
                ),
            )
        return len(dead)

    # -- reading --------------------------------------------------------------------------

    def game(self, game_id: int) -> LoggedGame:
        """One game by id; raise :class:`KeyError` if there is none."""
        for record in self._select("WHERE g.id = ?", (game_id,)):
            return record
        raise KeyError(f"{self.path}: no game with id {game_id}")

    def games(self) -> list[LoggedGame]:
        """Every game, oldest first."""
        return list(self._select("", ()))

    def moves(self, game_id: int) -> list[MoveRecord]:
        """The clicks of one game, in order."""
        return [
            MoveRecord(seconds, row, col, action, safety, bool(is_guess))
            for seconds, row, col, action, safety, is_guess in self._db.execute(
                "SELECT seconds, row, col, action, safety, is_guess FROM moves"
                " WHERE game_id = ? ORDER BY seq",
                (game_id,),
            )
        ]

    def _select(self, where: str, parameters: tuple[object, ...]) -> Iterator[LoggedGame]:
        # A log read without migrating it may lack the columns added since its version.
        columns = (
            f"g.{name}" if name in self._columns else f"NULL AS {name}"
            for name in _COLUMNS_AS_STORED
        )
        query = (
            f"SELECT {', '.join(columns)},"
            " g.started_at, g.ended_at, g.result,"
            " (SELECT json_group_array(safety) FROM (SELECT safety FROM moves m"
            "   WHERE m.game_id = g.id AND m.is_guess ORDER BY m.seq)) AS chances"
            f" FROM games g {where} ORDER BY g.id"
        )
        cursor = self._db.execute(query, parameters)
        cursor.row_factory = sqlite3.Row
        for row in cursor:
            ended = row["ended_at"]
            yield LoggedGame(
                **{name: row[name] for name in _COLUMNS_AS_STORED},
                started_at=datetime.fromisoformat(row["started_at"]),
                ended_at=None if ended is None else datetime.fromisoformat(ended),
                result=Result(row["result"]),
                guess_chances=tuple(
                    float(chance) for chance in json.loads(row["chances"]) if chance is not None
                ),
            )


def _now_text() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")
