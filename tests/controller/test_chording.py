"""Chords in play: the way a game takes them learned and kept, bursts cut where a chord needs
flags seen first, and chords the game does not take opened one by one."""

from __future__ import annotations

from pathlib import Path

import pytest
from simulated_table import SimulatedTable, play_all, quick_player
from virtual_clock import use_virtual_clock

import controller.loop
import controller.reading
from controller.chording import Chording, ChordWays, burst, missed_chords
from controller.outcomes import OutcomeLog, Result
from solver import Board
from solver.strategy import Action, Move


@pytest.fixture(autouse=True)
def virtual_time(monkeypatch: pytest.MonkeyPatch) -> None:
    use_virtual_clock(monkeypatch, controller.loop, controller.reading)


def test_each_way_is_tried_in_turn_and_the_one_that_opens_is_kept() -> None:
    extra: dict[str, object] = {}
    saved: list[dict[str, object]] = []
    ways = ChordWays(extra, lambda: saved.append(dict(extra)))
    assert (ways.way, ways.state) == ("middle", Chording.TRYING)
    ways.opened(False)
    assert (ways.way, ways.state, saved) == ("both", Chording.TRYING, [])
    ways.opened(True)
    assert (ways.way, ways.state, saved) == ("both", Chording.ON, [{"chord": "both"}])
    ways.opened(False)  # a missed chord once learned is a missed click, not a lesson
    assert ways.way == "both" and len(saved) == 1


def test_a_game_that_takes_no_way_is_never_chorded_again() -> None:
    extra: dict[str, object] = {}
    ways = ChordWays(extra, lambda: None)
    for _ in range(3):
        ways.opened(False)
    assert extra == {"chord": "none"}
    assert (ways.way, ways.state) == (None, Chording.OFF)
    assert ChordWays({"chord": "none"}, lambda: None).state == Chording.OFF
    assert ChordWays({"chord": "left"}, lambda: None).way == "left"


def test_a_burst_stops_before_a_chord_whose_flags_are_not_shown() -> None:
    board = Board.from_rows(["UUUU", "U1UU", "UUUU", "F1UU"], 2)
    ready, waiting = Move((3, 1), Action.CHORD), Move((1, 1), Action.CHORD)
    opens = [Move((3, 3), Action.OPEN)]
    flag = Move((0, 0), Action.FLAG)
    moves = [ready, *opens, flag, waiting]
    assert burst(moves, board, trying=False) == [ready, *opens, flag]
    assert burst(moves, board, trying=True) == [ready]
    assert burst([*opens, ready], board, trying=True) == opens


def test_a_chord_that_opened_nothing_gives_its_cells_to_open_one_by_one() -> None:
    before = Board.from_rows(["F1U", "11U", "UUU"], 1)
    chord = Move((1, 1), Action.CHORD)
    targets = {(0, 2), (1, 2), (2, 0), (2, 1), (2, 2)}
    assert {move.cell for move in missed_chords([chord], before, before)} == targets
    after = Board.from_rows(["F10", "110", "000"], 1)
    assert missed_chords([chord], before, after) == []


def results(table: SimulatedTable, log: OutcomeLog, games: int) -> list[Result]:
    return [report.record.result for report in play_all(quick_player(table, log), games)]


@pytest.mark.parametrize("way", ["middle", "both", "left", "none"])
def test_play_learns_how_the_game_chords_and_wins_the_same_games_in_fewer_clicks(
    tmp_path: Path, way: str
) -> None:
    single, chorded = (
        SimulatedTable(seed=3, size=(16, 16, 40)),
        SimulatedTable(seed=3, size=(16, 16, 40), chords=way),
    )
    with OutcomeLog(tmp_path / "single.db") as log:
        before = results(single, log, 4)
    with OutcomeLog(tmp_path / "chorded.db") as log:
        after = results(chorded, log, 4)
        moves = [move for record in log.games() for move in log.moves(record.id)]
    assert after == before
    assert chorded.extra == {"chord": way}
    chords = [cell for cell, action in chorded.clicks if action == Action.CHORD]
    if way == "none":
        assert len(chords) == 3  # one try of each way
    else:
        assert len(chorded.clicks) < len(single.clicks)
        assert sum(move.action == "chord" for move in moves) == len(chords)
    assert chorded.slowed_down == 0


def test_a_chord_the_game_misses_once_learned_is_opened_cell_by_cell(tmp_path: Path) -> None:
    table = SimulatedTable(seed=3, size=(16, 16, 40), chords="left")
    table.extra["chord"] = "middle"  # learned once, but the game takes it no longer
    single = SimulatedTable(seed=3, size=(16, 16, 40))
    with OutcomeLog(tmp_path / "log.db") as log:
        assert results(table, log, 2) == results(single, log, 2)
    assert any(action == Action.CHORD for _, action in table.clicks)
    assert table.slowed_down > 0
