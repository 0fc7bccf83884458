"""The outcome log keeps every game, even ones whose process was killed mid-game."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
from contextlib import closing, nullcontext
from pathlib import Path

import pytest
from conftest import REPO
from outcome_logs import SETUP

from controller import outcomes
from controller.errors import OutcomeLogError
from controller.outcomes import GameSetup, OutcomeLog, Result
from controller.toollib import mine_layout, three_bv
from solver import Board


def test_a_game_round_trips_with_its_moves(tmp_path: Path) -> None:
    with OutcomeLog(tmp_path / "log.db") as log:
        game_id = log.start_game(SETUP)
        log.record_move(game_id, (4, 4), "open", None, True)
        log.record_move(game_id, (0, 1), "open", 1.0, False)
        log.record_move(game_id, (3, 7), "open", 0.75, True)
        log.record_move(game_id, (3, 8), "flag", 1.0, False)
        board = Board.from_rows(["1U1", "111", "000"], mines=1)
        log.finish_game(game_id, Result.WON, board)
    with OutcomeLog(tmp_path / "log.db") as log:
        (record,) = log.games()
        moves = log.moves(game_id)
    assert record.result == Result.WON
    assert (record.game, record.first_click) == ("winemine", "safe")
    assert record.skin == "winemine-default"
    assert (record.clicks, record.guesses) == (4, 2)
    assert record.guess_chances == (0.75,)  # the first guess came without an estimate
    assert [(m.row, m.column, m.action, m.is_guess) for m in moves] == [
        (4, 4, "open", True),
        (0, 1, "open", False),
        (3, 7, "open", True),
        (3, 8, "flag", False),
    ]
    assert [m.seconds for m in moves] == sorted(m.seconds for m in moves)
    assert Board.from_text(record.final_board or "") == board
    assert record.ended_at is not None and record.ended_at >= record.started_at
    assert record.duration is not None and record.duration >= moves[-1].seconds
    # The 0-row with its border is one click; (0,0) and (0,2) touch no 0 and take one each.
    assert record.bbbv == 3
    assert record.bbbv_per_second == pytest.approx(3 / record.duration)


def test_guesses_without_an_estimate_are_counted_but_have_no_chance(tmp_path: Path) -> None:
    with OutcomeLog(tmp_path / "log.db") as log:
        game_id = log.start_game(SETUP)
        log.record_move(game_id, (4, 4), "open", None, True)
        log.record_move(game_id, (2, 2), "open", 0.5, True)
        record = log.finish_game(game_id, Result.LOST, None)
    assert record.guesses == 2
    assert record.guess_chances == (0.5,)
    assert record.bbbv is None and record.bbbv_per_second is None


def test_lost_game_3bv_comes_from_the_revealed_mines() -> None:
    lost = Board.from_rows(["X2100", "U@100", "11100"], mines=2)
    layout = mine_layout(lost)
    assert layout is not None
    assert layout.tolist() == [
        [True, False, False, False, False],
        [False, True, False, False, False],
        [False, False, False, False, False],
    ]
    # Counted by hand: the 0-region (columns 3-4 with column 2 as its border) is one click;
    # (0,1), (1,0), (2,0) and (2,1) touch no 0 and take one click each.
    assert three_bv(lost) == 5


def test_a_board_with_mines_unaccounted_for_has_no_3bv() -> None:
    lost_with_hidden_mine = Board.from_rows(["X1U", "11U", "UUU"], mines=2)
    assert mine_layout(lost_with_hidden_mine) is None
    assert three_bv(lost_with_hidden_mine) is None
    assert three_bv(Board.empty(3, 3, 1)) is None


def test_only_finished_results_can_close_a_game(tmp_path: Path) -> None:
    with OutcomeLog(tmp_path / "log.db") as log:
        game_id = log.start_game(SETUP)
        with pytest.raises(ValueError, match="in progress"):
            log.finish_game(game_id, Result.IN_PROGRESS, None)


def test_a_killed_process_leaves_its_game_recorded_as_cut_off(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "log.db"
    with OutcomeLog(db) as log:
        earlier = log.start_game(SETUP)
        log.finish_game(earlier, Result.LOST, None)
    child = textwrap.dedent(
        f"""
        import sys, time
        from pathlib import Path
        from controller.outcomes import GameSetup, OutcomeLog
        log = OutcomeLog(Path({str(db)!r}))
        game_id = log.start_game(GameSetup("xdemineur", "xd", 9, 9, 10))
        log.record_move(game_id, (1, 2), "open", None, True)
        log.record_move(game_id, (5, 5), "open", 1.0, False)
        print(game_id, flush=True)
        time.sleep(60)
        """
    )
    process = subprocess.Popen(
        [sys.executable, "-c", child], cwd=REPO, stdout=subprocess.PIPE, text=True
    )
    try:
        assert process.stdout is not None
        killed_game = int(process.stdout.readline())
        with monkeypatch.context() as other_user:  # runs lock a log per user (controller.locks)
            other_user.setattr(outcomes, "log_alone", lambda path: nullcontext())
            watcher = OutcomeLog(db)
        with watcher:
            assert watcher.game(killed_game).result == Result.IN_PROGRESS  # its process lives
    finally:
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
    with sqlite3.connect(db) as raw:
        assert raw.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    with OutcomeLog(db) as log:
        records = {record.id: record for record in log.games()}
        moves = log.moves(killed_game)
    assert set(records) == {earlier, killed_game}
    assert records[earlier].result == Result.LOST
    cut = records[killed_game]
    assert cut.result == Result.CUT_OFF
    assert (cut.game, cut.clicks, cut.guesses) == ("xdemineur", 2, 1)
    assert [(m.row, m.column) for m in moves] == [(1, 2), (5, 5)]
    assert cut.ended_at is not None
    assert cut.reason is not None and f"process {process.pid}" in cut.reason


def test_a_reason_is_kept_for_games_neither_won_nor_lost(tmp_path: Path) -> None:
    with OutcomeLog(tmp_path / "log.db") as log:
        game_id = log.start_game(SETUP)
        log.finish_game(game_id, Result.MISREAD, None, "cell (row 2, column 3) matches no template")
    with OutcomeLog(tmp_path / "log.db") as log:
        assert log.game(game_id).reason == "cell (row 2, column 3) matches no template"


def test_level_names_the_standard_sizes(tmp_path: Path) -> None:
    with OutcomeLog(tmp_path / "log.db") as log:
        for rows, columns, mines in ((9, 9, 10), (16, 30, 99), (5, 6, 7)):
            game_id = log.start_game(GameSetup("winemine", "w", rows, columns, mines))
            log.finish_game(game_id, Result.STOPPED, None)
        levels = [record.level for record in log.games()]
    assert levels == ["beginner", "expert", "5x6x7"]


def test_a_reused_pid_is_no_alibi_for_a_dead_game(tmp_path: Path) -> None:
    """The game's process died and a later process got its pid: the game is still cut off."""
    db = tmp_path / "log.db"
    with OutcomeLog(db) as log:
        game_id = log.start_game(SETUP)
    stranger = subprocess.Popen(["sleep", "60"])  # started after the game: a pid's new owner
    try:
        with closing(sqlite3.connect(db)) as raw, raw:
            raw.execute("UPDATE games SET pid = ? WHERE id = ?", (stranger.pid, game_id))
        with OutcomeLog(db) as log:
            record = log.game(game_id)
    finally:
        stranger.kill()
        stranger.wait()
    assert record.result == Result.CUT_OFF
    assert record.reason is not None and f"process {stranger.pid}" in record.reason


def test_a_log_locked_by_another_writer_is_one_line_naming_it_and_keeps_what_was_written(
    tmp_path: Path,
) -> None:
    path = tmp_path / "log.db"
    setup = GameSetup("winemine", "winemine", 9, 9, 10, "safe")
    with OutcomeLog(path) as log:
        game = log.start_game(setup)
        log.record_move(game, (0, 0), "open", None, True)
        log._db.execute("PRAGMA busy_timeout = 50")  # the 30 s of a real run, shortened
        other = sqlite3.connect(path, isolation_level=None)
        other.execute("BEGIN EXCLUSIVE")  # another writer holds the file
        try:
            with pytest.raises(OutcomeLogError, match=r"log\.db: cannot write a click of game 1 "):
                log.record_move(game, (0, 1), "open", 1.0, False)
            with pytest.raises(OutcomeLogError, match=r"cannot write the end of game 1 \("):
                log.record_end(game, Result.LOST, Board.from_rows(["XU", "UU"], mines=1))
        finally:
            other.execute("ROLLBACK")
            other.close()
        log.record_move(game, (0, 1), "open", 1.0, False)  # the log works again
        assert [(move.row, move.column) for move in log.moves(game)] == [(0, 0), (0, 1)]
