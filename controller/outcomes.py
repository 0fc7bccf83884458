"""The outcome log: one SQLite row per game played, so win rates survive crashes and restarts.

A game's row is inserted as ``in progress`` before its first click and each click is appended
in its own committed transaction; the row is completed when the game ends. If the process dies
mid-game, the next :class:`OutcomeLog` opened on the file sees an ``in progress`` row whose
process is gone and marks it ``cut off``, so no game silently disappears from the statistics.

The file uses WAL journaling (a reader never blocks the bot) and ``PRAGMA user_version`` as its
schema version.
"""

from __future__ import annotations

import json
import os
import socket
import sqlite3
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path
from types import TracebackType

import ms_toollib
import numpy as np
import numpy.typing as npt
import platformdirs

from controller.errors import ControllerError
from solver import LEVELS, Board, Tile
from solver.engine import neighbour_counts

SCHEMA_VERSION = 2


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


class OutcomeLogError(ControllerError):
    """The log file cannot be used; the message names the file. The file is left as it was."""


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
class GameRecord:
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


_SCHEMA = """
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
"""Version 1 of the schema; :data:`_MIGRATIONS` bring it up to :data:`SCHEMA_VERSION`."""

_MIGRATIONS = {
    2: "ALTER TABLE games ADD COLUMN reason TEXT;",
}
"""The SQL that takes a log from the version before each key to that version."""


_COLUMNS_AS_STORED = (
    "id", "game", "skin", "rows", "columns", "mines", "first_click", "duration", "clicks",
    "guesses", "bbbv", "bbbv_per_second", "final_board", "reason",
)  # fmt: skip
"""Columns of ``games`` that are :class:`GameRecord` fields as they are."""


def default_db_path() -> Path:
    """The log's usual place: the user's data folder (e.g. ``~/.local/share/autosweeper``)."""
    return platformdirs.user_data_path("autosweeper") / "outcomes.sqlite3"


class OutcomeLog:
    """The SQLite outcome log at ``path`` (created with its folder if missing)."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self._started: dict[int, float] = {}
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self._db = sqlite3.connect(self.path, timeout=30, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._migrate()
        except sqlite3.DatabaseError as error:
            raise OutcomeLogError(
                f"{self.path}: not a usable autosweeper outcome log ({error}); "
                "the file was left untouched, choose another with --db"
            ) from error
        self.cut_off_dead_games()

    # -- lifecycle ------------------------------------------------------------------------

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> OutcomeLog:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()

    def _migrate(self) -> None:
        (version,) = self._db.execute("PRAGMA user_version").fetchone()
        if version > SCHEMA_VERSION:
            raise sqlite3.DatabaseError(
                f"schema version {version} was written by a newer autosweeper "
                f"(this one reads up to {SCHEMA_VERSION})"
            )
        if version == 0:
            tables = self._db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
            if tables:
                raise sqlite3.DatabaseError("the file holds other tables and no schema version")
            self._db.executescript(f"BEGIN;{_SCHEMA}PRAGMA user_version = 1;COMMIT;")
            version = 1
        for target in range(version + 1, SCHEMA_VERSION + 1):
            self._db.executescript(
                f"BEGIN;{_MIGRATIONS[target]}PRAGMA user_version = {target};COMMIT;"
            )

    # -- writing --------------------------------------------------------------------------

    def start_game(self, setup: GameSetup) -> int:
        """Insert the game as ``in progress`` (committed at once) and return its id."""
        cursor = self._db.execute(
            "INSERT INTO games (started_at, game, skin, rows, columns, mines, first_click, result,"
            " host, pid) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
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
            ),
        )
        game_id = int(cursor.lastrowid or 0)
        self._started[game_id] = time.monotonic()
        return game_id

    def record_move(
        self, game_id: int, cell: tuple[int, int], action: str, safety: float | None, is_guess: bool
    ) -> None:
        """Append one click to the game, committed before the function returns."""
        seconds = time.monotonic() - self._started[game_id]
        self._db.execute("BEGIN IMMEDIATE")
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
            self._db.execute("ROLLBACK")
            raise

    def finish_game(
        self,
        game_id: int,
        result: Result,
        final_board: Board | None,
        reason: str | None = None,
    ) -> GameRecord:
        """Complete the game's row with its result, final board and, for a game neither won nor
        lost, the reason; return the stored record."""
        if result == Result.IN_PROGRESS:
            raise ValueError("a finished game needs a result other than 'in progress'")
        duration = time.monotonic() - self._started.pop(game_id)
        bbbv = None if final_board is None else three_bv(final_board)
        won_with_3bv = bbbv is not None and result == Result.WON and duration > 0
        per_second = bbbv / duration if won_with_3bv and bbbv is not None else None
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

        Returns how many rows were marked. Rows of live processes are left alone.
        """
        host = socket.gethostname()
        rows = self._db.execute(
            "SELECT id, pid FROM games WHERE result = ? AND host = ?",
            (Result.IN_PROGRESS.value, host),
        ).fetchall()
        dead = [(game_id, pid) for game_id, pid in rows if not _process_is_alive(pid)]
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

    def game(self, game_id: int) -> GameRecord:
        """One game by id; raise :class:`KeyError` if there is none."""
        for record in self._select("WHERE g.id = ?", (game_id,)):
            return record
        raise KeyError(f"{self.path}: no game with id {game_id}")

    def games(self) -> list[GameRecord]:
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

    def _select(self, where: str, parameters: tuple[object, ...]) -> Iterator[GameRecord]:
        query = (
            f"SELECT {', '.join('g.' + name for name in _COLUMNS_AS_STORED)},"
            " g.started_at, g.ended_at, g.result,"
            " (SELECT json_group_array(safety) FROM (SELECT safety FROM moves m"
            "   WHERE m.game_id = g.id AND m.is_guess ORDER BY m.seq)) AS chances"
            f" FROM games g {where} ORDER BY g.id"
        )
        cursor = self._db.execute(query, parameters)
        cursor.row_factory = sqlite3.Row
        for row in cursor:
            ended = row["ended_at"]
            yield GameRecord(
                **{name: row[name] for name in _COLUMNS_AS_STORED},
                started_at=datetime.fromisoformat(row["started_at"]),
                ended_at=None if ended is None else datetime.fromisoformat(ended),
                result=Result(row["result"]),
                guess_chances=tuple(
                    float(chance) for chance in json.loads(row["chances"]) if chance is not None
                ),
            )


def mine_layout(board: Board) -> npt.NDArray[np.bool_] | None:
    """Where every mine is, read from a finished board; ``None`` while any cell is undecided.

    A won board hides mines only under unopened cells. A lost board shows its mines (exploded,
    shown, or correctly flagged); it is fully known only if those add up to the mine count.
    """
    tiles = board.tiles
    if board.is_won:
        layout = np.isin(tiles, (Tile.HIDDEN, Tile.FLAG, Tile.QUESTION))
    elif board.is_lost:
        layout = np.isin(tiles, (Tile.MINE, Tile.EXPLODED, Tile.FLAG))
    else:
        return None
    return layout if int(layout.sum()) == board.mines else None


def three_bv(board: Board) -> int | None:
    """The board's 3BV (fewest clicks that clear it) by ms-toollib, when its mines are known."""
    layout = mine_layout(board)
    if layout is None:
        return None
    return int(ms_toollib.cal_bbbv(toollib_board(layout)))


def toollib_board(layout: npt.NDArray[np.bool_]) -> list[list[int]]:
    """ms-toollib's board form: ``-1`` for a mine, else the number the cell shows."""
    numbers = neighbour_counts(layout).astype(int)
    numbers[layout] = -1
    return [[int(v) for v in row] for row in numbers]


def _now_text() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def _process_is_alive(pid: int) -> bool:
    """Whether process ``pid`` still runs on this machine (without ever signalling it)."""
    if sys.platform == "win32":
        return _windows_process_is_alive(pid)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _windows_process_is_alive(pid: int) -> bool:
    import ctypes

    query_limited_information, still_active = 0x1000, 259
    kernel32 = ctypes.windll.kernel32  # type: ignore[attr-defined]
    handle = kernel32.OpenProcess(query_limited_information, False, pid)
    if not handle:
        return False
    try:
        code = ctypes.c_ulong()
        return bool(kernel32.GetExitCodeProcess(handle, ctypes.byref(code))) and (
            code.value == still_active
        )
    finally:
        kernel32.CloseHandle(handle)
