"""The play loop against simulated games: games played and logged, stopped, faulted, timed,
and new games started."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from simulated_table import (
    SimulatedTable,
    play_all,
    quick_player,
    virtual_time,  # noqa: F401 (autouse: the loop's waits pass at once)
)

import controller.loop
import controller.reading
from controller.errors import DialogError, NotAsRead
from controller.loop import (
    GamePlayer,
    GameReport,
    NoFreshGame,
    live_line,
    play_games,
)
from controller.outcomes import GameSetup, LoggedGame, OutcomeLog, Result
from controller.stopping import StopRequested
from solver import Board
from solver.strategy import Move, next_moves
from vision.errors import (
    CaptureError,
)


def test_games_are_played_to_the_end_and_logged(tmp_path: Path) -> None:
    table = SimulatedTable(seed=1)
    lines: list[str] = []
    with OutcomeLog(tmp_path / "log.db") as log:
        reports = list(play_games(quick_player(table, log), 6, echo=lines.append))
        records = log.games()
        moves = [log.moves(r.id) for r in records]
    assert len(reports) == len(records) == 6
    assert table.new_games == 5  # the first game was already fresh
    assert all(r.result in (Result.WON, Result.LOST) for r in records)
    assert sum(len(m) for m in moves) == len(table.clicks)
    for record, game_moves in zip(records, moves, strict=True):
        assert record.clicks == len(game_moves)
        assert record.guesses == sum(m.is_guess for m in game_moves)
        final = Board.from_text(record.final_board or "")
        assert final.is_won == (record.result == Result.WON)
        assert final.is_lost == (record.result == Result.LOST)
        assert record.bbbv is not None and record.bbbv > 0
    last = table.current.board
    assert np.array_equal(Board.from_text(records[-1].final_board or "").tiles, last.tiles)
    won = sum(r.result == Result.WON for r in records)
    assert f"of {6}" in lines[-1] and f"{100 * won / 6:.2f}%" in lines[-1]


def test_a_dialog_a_loss_opens_over_the_board_is_closed_and_the_games_go_on(
    tmp_path: Path,
) -> None:
    table = SimulatedTable(seed=3, size=(9, 9, 25), dialog_on_loss=True)
    with OutcomeLog(tmp_path / "log.db") as log:
        player = quick_player(table, log)
        list(play_games(player, 6))
        records = log.games()
    lost = sum(r.result == Result.LOST for r in records)
    assert len(records) == 6 and all(r.result in (Result.WON, Result.LOST) for r in records)
    assert lost > 0 and table.dialogs_closed == lost
    assert player.stopwatch.counts["dialogs closed"] == lost


def test_a_stop_request_records_the_game_as_stopped_and_propagates(tmp_path: Path) -> None:
    class FailSafeTable(SimulatedTable):
        def play(self, move: Move) -> bool:
            if len(self.clicks) == 2:
                raise StopRequested("pyautogui fail-safe: pointer in a screen corner")
            return super().play(move)

    table = FailSafeTable(seed=6)
    with OutcomeLog(tmp_path / "log.db") as log:
        with pytest.raises(StopRequested, match="fail-safe"):
            play_all(quick_player(table, log), 3)
        (record,) = log.games()
    assert record.result == Result.STOPPED
    assert record.clicks == 2


class LogThatFailsAtTheEnd(OutcomeLog):
    """A log whose disk fills just as a game is to be completed."""

    def finish_game(self, *args: Any, **kwargs: Any) -> LoggedGame:
        raise sqlite3.OperationalError("database or disk is full")


def test_a_fault_after_the_end_is_read_leaves_the_game_logged_as_it_ended(
    tmp_path: Path,
) -> None:
    """The result is written the moment the end is read: what fails after it (the disk, a
    dialog to answer) cannot turn a won or lost game into one lost from the record."""
    table = SimulatedTable(seed=1)
    with LogThatFailsAtTheEnd(tmp_path / "log.db") as log:
        with pytest.raises(sqlite3.OperationalError, match="disk is full"):
            play_all(quick_player(table, log), 1)
        (record,) = log.games()
    ended = table.current.board
    assert record.result == (Result.WON if ended.is_won else Result.LOST)
    assert Board.from_text(record.final_board or "").to_text() == ended.to_text()


def test_a_fault_in_the_middle_of_a_game_ends_its_row_stopped_with_the_reason(
    tmp_path: Path,
) -> None:
    """A dialog that stays open mid-game propagates (the run stops), and the game's row says
    why instead of staying ``in progress``."""
    stays = DialogError("the dialog 'Congratulations!' (window 0xa00003) did not close")
    table = SimulatedTable(seed=6, faults={3: stays})
    with OutcomeLog(tmp_path / "log.db") as log:
        with pytest.raises(DialogError, match="Congratulations"):
            play_all(quick_player(table, log), 2)
        (record,) = log.games()
    assert record.result == Result.STOPPED
    assert record.reason == str(stays)


class KeyDownAfter:
    """A stop key that goes down once the table has taken ``clicks`` clicks."""

    name = "Pause"

    def __init__(self, table: SimulatedTable, clicks: int) -> None:
        self.table = table
        self.clicks = clicks

    def pressed(self) -> bool:
        return len(self.table.clicks) >= self.clicks


@pytest.mark.parametrize("clicks", [1, 3])
def test_the_stop_key_stops_before_the_next_click_and_logs_the_game(
    tmp_path: Path, clicks: int
) -> None:
    table = SimulatedTable(seed=6)
    with OutcomeLog(tmp_path / "log.db") as log:
        player = quick_player(table, log)
        player.stop_key = KeyDownAfter(table, clicks)
        with pytest.raises(StopRequested, match="stop key Pause pressed"):
            play_all(player, 3)
        (record,) = log.games()
    assert len(table.clicks) == clicks
    assert record.result == Result.STOPPED
    assert record.reason == "stop key Pause pressed"
    assert record.clicks == clicks


def test_a_stop_key_held_before_a_game_starts_logs_no_game(tmp_path: Path) -> None:
    table = SimulatedTable(seed=6)
    with OutcomeLog(tmp_path / "log.db") as log:
        player = quick_player(table, log)
        play_all(player, 1)
        player.stop_key = KeyDownAfter(table, 0)
        with pytest.raises(StopRequested, match="stop key"):
            play_all(player, 1)
        assert len(log.games()) == 1
    assert table.new_games == 0


def test_the_stopwatch_times_each_stage_of_play(tmp_path: Path) -> None:
    table = SimulatedTable(seed=4)
    with OutcomeLog(tmp_path / "log.db") as log:
        player = quick_player(table, log)
        (report,) = play_all(player, 1)
    counts = player.stopwatch.counts
    assert counts["log"] == report.record.clicks == len(table.clicks)
    assert counts["solver"] >= 1
    assert all(player.stopwatch.seconds[stage] > 0 for stage in ("log", "solver"))


def test_the_live_line_says_result_time_moves_guesses_and_rate(tmp_path: Path) -> None:
    with OutcomeLog(tmp_path / "log.db") as log:
        game_id = log.start_game(GameSetup("g", "s", 9, 9, 10))
        log.record_move(game_id, (0, 0), "open", 0.8, True)
        log.record_move(game_id, (1, 1), "open", 1.0, False)
        record = log.finish_game(game_id, Result.WON, None)
    line = live_line(4, GameReport(record, None), won=3, finished=4)
    assert line.startswith("game 4: won in ")
    assert "2 clicks, 1 guess (80%)" in line
    assert "75.00% [" in line and "of 4" in line


def test_no_two_games_start_in_the_same_clock_second(tmp_path: Path) -> None:
    table = SimulatedTable(seed=10)
    first_click_seconds: list[int] = []
    play = table.play

    def timed_play(move: Move) -> bool:
        if table.current.board.is_fresh:
            first_click_seconds.append(int(time.time()))
        return play(move)

    table.play = timed_play  # type: ignore[method-assign]
    with OutcomeLog(tmp_path / "log.db") as log:
        play_all(GamePlayer(table, log), 3)
    assert len(first_click_seconds) == 3
    assert len(set(first_click_seconds)) == 3


def test_a_new_game_key_refused_because_the_board_changed_is_sent_after_a_new_read(
    tmp_path: Path,
) -> None:
    class FlashesAfterTheEnd(SimulatedTable):
        """Like sgt-mines, whose board flashes after a game: the first new-game action of each
        game finds the board changed since it was read, and nothing is sent."""

        refusals = 0

        def new_game(self, attempt: int = 0) -> None:
            if self.refusals < self.new_games + 1:
                self.refusals += 1
                raise NotAsRead("simulated: the board changed since it was read")
            super().new_game(attempt)

    table = FlashesAfterTheEnd(seed=5)
    with OutcomeLog(tmp_path / "log.db") as log:
        reports = play_all(quick_player(table, log), 3)
    assert [r.record.result in (Result.WON, Result.LOST) for r in reports] == [True] * 3
    assert table.refusals == 2 and table.new_games == 2


def test_a_missed_new_game_action_is_tried_again(tmp_path: Path) -> None:
    table = SimulatedTable(seed=11, ignored_new_games=1)
    with OutcomeLog(tmp_path / "log.db") as log:
        reports = play_all(quick_player(table, log), 2)
    assert len(reports) == 2 and table.new_games == 1
    assert table.new_game_attempts == [0, 1]  # the second attempt may use another way


def test_a_game_that_will_not_restart_ends_the_run_without_a_phantom_game(tmp_path: Path) -> None:
    table = SimulatedTable(seed=12, ignored_new_games=5)
    with OutcomeLog(tmp_path / "log.db") as log:
        with pytest.raises(NoFreshGame, match="did not show a new game"):
            play_all(quick_player(table, log), 3)
        (only,) = log.games()
    assert only.result in (Result.WON, Result.LOST)


def test_games_that_open_a_starting_area_are_recognised_as_new(tmp_path: Path) -> None:
    table = SimulatedTable(seed=13, size=(9, 12, 10), opens_a_start=True)
    with OutcomeLog(tmp_path / "log.db") as log:
        reports = play_all(quick_player(table, log), 3)
    assert [r.reason for r in reports] == [None, None, None]
    assert table.new_games == 3  # the board shown at first was not known to be a new game


def test_no_move_on_a_game_that_goes_on_stops_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = SimulatedTable(seed=15)
    solver_moves = next_moves
    calls = 0

    def gives_up_after_the_first_move(board: Board, rule: str, *, flags: bool) -> list[Move]:
        nonlocal calls
        calls += 1
        return solver_moves(board, rule, flags=flags) if calls == 1 else []

    monkeypatch.setattr(controller.loop, "next_moves", gives_up_after_the_first_move)
    with OutcomeLog(tmp_path / "log.db") as log:
        (report,) = play_all(quick_player(table, log), 1)
    if table.current.is_over:
        pytest.skip("seed 15's first click ended the game")
    assert report.record.result == Result.STOPPED
    assert "no move and the game goes on" in (report.reason or "")


def test_a_screen_that_cannot_be_captured_stops_the_game(tmp_path: Path) -> None:
    off_screen = CaptureError("cannot capture Rect(left=2000, ...): not inside the screen")
    table = SimulatedTable(seed=16, faults={2: off_screen})
    with OutcomeLog(tmp_path / "log.db") as log:
        (report,) = play_all(quick_player(table, log), 3)
    assert report.record.result == Result.STOPPED
    assert "gone" in (report.reason or "") and "not inside the screen" in (report.reason or "")
    assert len(table.clicks) == 1
