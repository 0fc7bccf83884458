"""The play loop against simulated games that miss, lag behind or refuse clicks."""

from __future__ import annotations

from pathlib import Path

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
from controller.errors import NotAsRead
from controller.outcomes import OutcomeLog, Result
from solver.strategy import Action, Move
from vision.errors import (
    UnstableFrameError,
)
from vision.read import Reading


def test_a_click_the_game_never_takes_is_clicked_again_slower_then_stops_the_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(controller.reading, "REREAD_PAUSE", 0.0)
    table = SimulatedTable(seed=5, drops_clicks=True)
    with OutcomeLog(tmp_path / "log.db") as log:
        (report,) = play_all(quick_player(table, log), 3)
    assert report.record.result == Result.STOPPED
    assert report.reason == "the game did not take the clicks on (0, 0)"
    assert table.clicks == [((0, 0), Action.OPEN)] * (1 + controller.loop.CLICK_AGAIN_TRIES)
    assert table.slowed_down == controller.loop.CLICK_AGAIN_TRIES
    assert report.record.clicks == 1


class MissesUntilSlowEnough(SimulatedTable):
    """A game that loses every click until asked twice to slow down (winemine under Wine once
    lost a click and the click sent again)."""

    def play(self, move: Move) -> bool:
        if self.slowed_down >= 2:
            return super().play(move)
        self.clicks.append((move.cell, move.action))  # sent, and lost
        return True


class MissesQuickClicks(SimulatedTable):
    """A game that misses the third and later clicks of a burst sent at the bot's first pace;
    once asked to slow down, it takes every click."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.clicks_since_look = 0

    def look(self, changed: bool = False, patience: float | None = None) -> Reading:
        self.clicks_since_look = 0
        return super().look(changed, patience)

    def play(self, move: Move) -> bool:
        self.clicks_since_look += 1
        if self.slowed_down or self.clicks_since_look < 3:
            return super().play(move)
        self.clicks.append((move.cell, move.action))  # sent, and lost
        return True


@pytest.mark.parametrize(
    ("table_type", "slowed"), [(MissesQuickClicks, 1), (MissesUntilSlowEnough, 2)]
)
def test_a_game_that_misses_clicks_sent_fast_gets_them_further_apart_and_plays_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, table_type: type[SimulatedTable], slowed: int
) -> None:
    """Missed clicks are sent again, slower each time they are missed again (a click lost
    twice in a row: a CI run's winemine under Windows Python stopped on it)."""
    monkeypatch.setattr(controller.reading, "REREAD_PAUSE", 0.0)
    table = table_type(seed=4)
    with OutcomeLog(tmp_path / "log.db") as log:
        player = quick_player(table, log)
        reports = play_all(player, 3)
    assert [r.record.result in (Result.WON, Result.LOST) for r in reports] == [True] * 3
    assert table.slowed_down == slowed
    assert player.stopwatch.counts["clicks sent further apart"] == slowed


def test_a_click_lost_for_good_is_clicked_again_after_waiting_for_a_change_in_vain(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    class LosesTheFirstClick(SimulatedTable):
        """Like a real screen, waiting for a change that never comes times out."""

        def __init__(self, seed: int) -> None:
            super().__init__(seed)
            self.last_seen = self.current.board.tiles.copy()

        def play(self, move: Move) -> bool:
            if self.clicks:
                return super().play(move)
            self.clicks.append((move.cell, move.action))
            return True

        def look(self, changed: bool = False, patience: float | None = None) -> Reading:
            if changed and np.array_equal(self.current.board.tiles, self.last_seen):
                raise UnstableFrameError("the screen did not change")
            reading = super().look(changed, patience)
            self.last_seen = reading.board.tiles.copy()
            return reading

    monkeypatch.setattr(controller.reading, "REREAD_PAUSE", 0.0)
    table = LosesTheFirstClick(seed=5)
    with OutcomeLog(tmp_path / "log.db") as log:
        (report,) = play_all(quick_player(table, log), 1)
    assert report.record.result in (Result.WON, Result.LOST), report.reason
    assert table.clicks[0] == table.clicks[1] == ((0, 0), Action.OPEN)


def test_a_flag_the_game_does_not_take_is_not_clicked_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(controller.reading, "REREAD_PAUSE", 0.0)

    class DropsFlags(SimulatedTable):
        def play(self, move: Move) -> bool:
            if move.action != Action.FLAG:
                return super().play(move)
            self.clicks.append((move.cell, move.action))
            return True

    table = DropsFlags(seed=7, size=(9, 12, 10), flags_to_win=True)
    with OutcomeLog(tmp_path / "log.db") as log:
        reports = play_all(quick_player(table, log, flags=True), 3)
    stopped = reports[-1].record
    assert stopped.result == Result.STOPPED
    flags = [cell for cell, action in table.clicks if action == Action.FLAG]
    assert flags and len(flags) == len(set(flags))


class LaggingTable(SimulatedTable):
    """A game that shows a burst of clicks only on the ``lag``-th look after it (a game busy
    with queued clicks on a loaded machine)."""

    def __init__(self, seed: int, lag: int) -> None:
        super().__init__(seed)
        self.lag = lag
        self.pending: list[Move] = []
        self.looks_since_clicks = 0

    def play(self, move: Move) -> bool:
        self.pending.append(move)
        return True

    def look(self, changed: bool = False, patience: float | None = None) -> Reading:
        if self.pending:
            self.looks_since_clicks += 1
            if self.looks_since_clicks >= self.lag:
                for move in self.pending:
                    super().play(move)
                self.pending, self.looks_since_clicks = [], 0
        return super().look(changed, patience)


@pytest.mark.parametrize("lag", [2, controller.reading.CLICK_CONFIRM_TRIES + 1])
def test_clicks_shown_late_but_within_the_re_reads_are_taken(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lag: int
) -> None:
    monkeypatch.setattr(controller.reading, "REREAD_PAUSE", 0.0)
    table = LaggingTable(seed=3, lag=lag)
    with OutcomeLog(tmp_path / "log.db") as log:
        (report,) = play_all(quick_player(table, log), 1)
    assert report.record.result in (Result.WON, Result.LOST), report.reason


def test_clicks_shown_only_after_every_re_read_are_clicked_again_and_the_game_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(controller.reading, "REREAD_PAUSE", 0.0)
    table = LaggingTable(seed=3, lag=controller.reading.CLICK_CONFIRM_TRIES + 2)
    with OutcomeLog(tmp_path / "log.db") as log:
        player = quick_player(table, log)
        (report,) = play_all(player, 1)
    assert report.record.result in (Result.WON, Result.LOST), report.reason
    assert player.stopwatch.counts["clicked again"] >= 1


class RefusingTable(SimulatedTable):
    """Refuses the clicks numbered in ``refused`` (counted from 1 over every click asked for) as
    a window that closed or moved would, and says the cells in ``done`` need no click."""

    def __init__(self, seed: int, refused: set[int], done: frozenset[int] = frozenset()) -> None:
        super().__init__(seed)
        self.refused = refused
        self.done = done
        self.asked = 0

    def play(self, move: Move) -> bool:
        self.asked += 1
        if self.asked in self.refused:
            raise NotAsRead(f"click {self.asked}: the game is not there as read")
        if self.asked in self.done:
            return False
        return super().play(move)


def test_a_refused_click_stops_the_burst_and_play_goes_on_after_a_new_read(
    tmp_path: Path,
) -> None:
    table = RefusingTable(seed=18, refused={3})
    with OutcomeLog(tmp_path / "log.db") as log:
        player = quick_player(table, log)
        (report,) = play_all(player, 1)
        logged = [(move.row, move.column) for move in log.moves(report.record.id)]
    assert report.record.result in (Result.WON, Result.LOST), report.reason
    assert player.stopwatch.counts["bursts stopped"] == 1
    assert logged == [cell for cell, _ in table.clicks]  # only clicks sent are logged
    assert table.asked == len(table.clicks) + 1


def test_cells_that_need_no_click_any_more_are_neither_clicked_nor_logged(
    tmp_path: Path,
) -> None:
    table = RefusingTable(seed=18, refused=set(), done=frozenset({2, 3}))
    with OutcomeLog(tmp_path / "log.db") as log:
        player = quick_player(table, log)
        (report,) = play_all(player, 1)
    assert report.record.result in (Result.WON, Result.LOST), report.reason
    assert player.stopwatch.counts["skipped, already open"] == 2
    assert report.record.clicks == len(table.clicks) == table.asked - 2


def test_a_game_that_refuses_every_first_click_is_stopped_without_a_click(
    tmp_path: Path,
) -> None:
    table = RefusingTable(seed=18, refused=set(range(1, 100)))
    with OutcomeLog(tmp_path / "log.db") as log:
        (report,) = play_all(quick_player(table, log), 3)
    assert report.record.result == Result.STOPPED
    assert report.reason == (
        "3 times in a row the game was not as read just before the first click: "
        "click 3: the game is not there as read"
    )
    assert table.clicks == [] and report.record.clicks == 0
