"""The play loop against simulated games that end in their own ways: flags a win needs, mine
counts that change, wins a face does not show, losses and pictures the skin lacks."""

from __future__ import annotations

from pathlib import Path

import pytest
from simulated_table import (
    SimulatedTable,
    play_all,
    quick_player,
    virtual_time,  # noqa: F401 (autouse: the loop's waits pass at once)
    won_games,
)

import controller.loop
import controller.reading
from controller.outcomes import OutcomeLog, Result
from solver import Board, Game, Tile
from solver.strategy import Action, Move


def test_games_that_need_every_mine_flagged_are_finished_with_flags(tmp_path: Path) -> None:
    table = SimulatedTable(seed=7, size=(9, 12, 10), flags_to_win=True)
    with OutcomeLog(tmp_path / "log.db") as log:
        won = won_games(table, log, 4)
    assert won, "seeds 7-10 include a won game"
    for record in won:
        final = Board.from_text(record.final_board or "")
        assert int((final.tiles == Tile.FLAG).sum()) == 10


def test_a_game_with_no_face_that_takes_flags_once_won_gets_every_mine_flagged(
    tmp_path: Path,
) -> None:
    table = SimulatedTable(seed=7, size=(9, 12, 10), flags_to_end=True)
    with OutcomeLog(tmp_path / "log.db") as log:
        won = won_games(table, log, 4)
        assert len(won) >= 2, "seeds 7-10 include two won games"
        for record in won:
            final = Board.from_text(record.final_board or "")
            assert int((final.tiles == Tile.FLAG).sum()) == 10
            flags = [m for m in log.moves(record.id) if m.action == Action.FLAG.value]
            assert len(flags) == 10


class LaysANewCount(SimulatedTable):
    """A game that lays a new count of mines for each new game and shows it beside the board
    (minesweeper-python: 34 to 38 on its 16x16 board); the table reads boards with the count it
    holds, as a screen's does: the level's, until it reads the one shown."""

    def __init__(self, seed: int) -> None:
        self.mines = 10
        self.counts_read = 0
        super().__init__(seed)

    def _started(self, seed: int) -> Game:
        self.size = (9, 9, 8 + seed % 5)
        return super()._started(seed)

    def _shown(self) -> Board:
        board = super()._shown()
        return Board(board.rows, board.columns, self.mines, board.tiles)

    def read_mine_count(self) -> int | None:
        self.mines = self.size[2]
        self.counts_read += 1
        return self.mines


def test_a_mine_count_the_game_shows_anew_for_each_game_is_read_for_each(
    tmp_path: Path,
) -> None:
    """Told no count, play took 40 for minesweeper-python's 16x16 board, which has 34 to 38:
    its first game was misread ("the numbers force 35 of the 40 unflagged mines"). Each new
    game is played with the count the game shows."""
    table = LaysANewCount(seed=3)
    with OutcomeLog(tmp_path / "log.db") as log:
        reports = play_all(quick_player(table, log), 6)
    assert [report.reason for report in reports if report.reason] == []
    assert {report.record.mines for report in reports} == {8, 9, 10, 11, 12}
    assert table.counts_read == 6


class WonOnceFlagged(SimulatedTable):
    """A game of toolkit buttons with no face (minesweeper-python): won as soon as as many
    flags stand as it has mines, safe cells still closed or not; it then disables every
    button, which draws each flag in a disabled button's ink (the skin's wrong flag), and
    takes no click."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed, size=(9, 9, 10), flags_to_end=True)

    def _over(self) -> bool:
        return int((super()._shown().tiles == Tile.FLAG).sum()) == self.size[2]

    def _shown(self) -> Board:
        board = super()._shown()
        if self._over():
            board.tiles[board.tiles == Tile.FLAG] = Tile.WRONG_FLAG
        return board

    def play(self, move: Move) -> bool:
        if self._over():
            return True  # a disabled button takes the click and does nothing
        return super().play(move)


@pytest.mark.parametrize("flags", [False, True])
def test_a_game_won_once_every_mine_is_flagged_that_redraws_its_flags_is_won(
    tmp_path: Path, flags: bool
) -> None:
    """minesweeper-python ends won once its flags number its mines, and draws them as the
    skin's wrong flag then: a won board (every mine flagged) failed the check of its end as
    "reads 1, but between 0 and 0 mines can be around it" (3 of 7 games), and with --flags the
    last flag ended the game before its safe cells were open, "the game did not take the
    clicks" (3 of 5). The game is won."""
    table = WonOnceFlagged(seed=7)
    with OutcomeLog(tmp_path / "log.db") as log:
        reports = play_all(quick_player(table, log, flags=flags), 6)
    assert [report.reason for report in reports if report.reason] == []
    won = [report.record for report in reports if report.record.result == Result.WON]
    assert won, "seeds 7-12 include a won game"
    for record in won:
        final = Board.from_text(record.final_board or "")
        assert int((final.tiles == Tile.FLAG).sum()) == 10


def test_a_game_that_ends_once_every_safe_cell_is_open_is_asked_for_a_flag_once(
    tmp_path: Path,
) -> None:
    table = SimulatedTable(seed=7, size=(9, 12, 10), closed_mines_when_won=True)
    with OutcomeLog(tmp_path / "log.db") as log:
        won = won_games(table, log, 4)
    assert len(won) >= 2, "seeds 7-10 include two won games"
    flags = [cell for cell, action in table.clicks if action == Action.FLAG]
    assert len(flags) == 1  # the first won board's question; the game ignored that flag
    assert all(Board.from_text(r.final_board or "").is_won for r in won)


def test_with_flags_the_solver_flags_mines_as_it_goes(tmp_path: Path) -> None:
    table = SimulatedTable(seed=8)
    with OutcomeLog(tmp_path / "log.db") as log:
        play_all(quick_player(table, log, flags=True), 3)
    assert any(action == Action.FLAG for _, action in table.clicks)


def test_a_complete_board_that_takes_no_flag_is_won_though_its_face_still_says_playing(
    tmp_path: Path,
) -> None:
    """Every safe cell is open, the face still shows its playing picture, and the flags that
    games like xdemineur need are not taken: the game is over, and won."""
    table = SimulatedTable(
        seed=7, size=(9, 12, 10), closed_mines_when_won=True, face_misses_win=True
    )
    with OutcomeLog(tmp_path / "log.db") as log:
        reports = play_all(quick_player(table, log), 6)
    results = [report.record.result for report in reports]
    assert len(results) == 6 and Result.WON in results, [r.reason for r in reports]
    assert all(result in (Result.WON, Result.LOST) for result in results)


def test_a_face_drawn_late_or_never_still_ends_a_complete_board_as_won(tmp_path: Path) -> None:
    for lag in (1, 1000):
        table = SimulatedTable(seed=14, size=(9, 12, 10), flags_to_win=True, face_lag=lag)
        with OutcomeLog(tmp_path / f"log{lag}.db") as log:
            (report,) = play_all(quick_player(table, log), 1)
        assert (report.record.result, report.reason) == (Result.WON, None), "seed 14 is won"
        final = Board.from_text(report.record.final_board or "")
        assert int((final.tiles == Tile.FLAG).sum()) == 10


def test_a_loss_that_shows_a_number_never_seen_on_unopened_cells_is_a_loss_not_a_misread(
    tmp_path: Path,
) -> None:
    # Like xbomb: a loss shows every cell, so a rare number may first show on a cell no click
    # opened. The rest of the board says lost: the game is logged lost, those cells as opened,
    # and the picture is not learned from a board where no rule tells it apart from a message.
    table = SimulatedTable(
        seed=5, size=(9, 9, 20), unknown_numbers=frozenset({3, 4, 5, 6}), reveals_on_loss=True
    )
    with OutcomeLog(tmp_path / "log.db") as log:
        reports = play_all(quick_player(table, log), 12)
    results = [report.record.result for report in reports]
    assert all(result in (Result.WON, Result.LOST) for result in results), [
        report.reason for report in reports
    ]
    assert table.lost_reads > 0


def test_a_mine_hit_drawn_in_a_picture_the_skin_lacks_ends_the_game_lost(tmp_path: Path) -> None:
    # gnome-mines with a skin whose calibration never saw a mine hit on one size class of its
    # cells: the hit there is a picture no tile matches, with the other mines shown. It was
    # taken for a number first seen ("the solver finds the board impossible ... the board
    # shows MINE") and the game logged misread. No face says lost: the mines shown do.
    table = SimulatedTable(seed=5, size=(9, 9, 20), unknown_numbers=frozenset({Tile.EXPLODED}))
    with OutcomeLog(tmp_path / "log.db") as log:
        reports = play_all(quick_player(table, log), 4)
    results = [report.record.result for report in reports]
    assert all(result in (Result.WON, Result.LOST) for result in results), [
        report.reason for report in reports
    ]
    assert Result.LOST in results


@pytest.mark.parametrize("flags", [False, True], ids=["flags-to-end", "flags-in-play"])
def test_a_flag_the_skin_cannot_read_is_learned_where_play_placed_it(
    tmp_path: Path, flags: bool
) -> None:
    # DangerUXB with a skin whose calibration never flagged a cell of one size class: the flag
    # play put on a mine it proved was a picture no tile matched, and the game was logged
    # misread. A closed cell the last burst flagged, unreadable alike after it, shows the
    # game's flag: it is learned as FLAG, never taken for a number (which would make a mine
    # an opened cell).
    table = SimulatedTable(
        seed=5, size=(9, 9, 10), unknown_numbers=frozenset({Tile.FLAG}), flags_to_end=not flags
    )
    with OutcomeLog(tmp_path / "log.db") as log:
        reports = play_all(quick_player(table, log, flags=flags), 4)
    results = [report.record.result for report in reports]
    assert all(result in (Result.WON, Result.LOST) for result in results), [
        report.reason for report in reports
    ]
    assert Result.WON in results
    assert table.labelled == {Tile.FLAG: Tile.FLAG} and Tile.FLAG not in table.adopted


def test_numbers_the_skin_lacks_are_played_as_unknown_and_learned_from_the_games(
    tmp_path: Path,
) -> None:
    # The skin reads no 2 and no 3: the loop takes their pictures as opened cells of unknown
    # number, goes on playing, and labels them from what the games prove (SimulatedTable.label
    # fails the test on a wrong label).
    table = SimulatedTable(seed=5, size=(9, 9, 10), unknown_numbers=frozenset({2, 3}))
    with OutcomeLog(tmp_path / "log.db") as log:
        reports = play_all(quick_player(table, log), 12)
    assert all(report.record.result in (Result.WON, Result.LOST) for report in reports)
    assert set(table.labelled) == {2, 3}
    # Each new picture is adopted once it has stayed for STILL_REREADS re-reads, not after every
    # ANIMATION_REREADS (8 s of play each, a flash or a message would have gone by then).
    assert table.unreadable_looks <= 2 * (controller.reading.STILL_REREADS + 1)


def test_a_number_first_seen_in_play_is_labelled_as_soon_as_the_board_proves_it(
    tmp_path: Path,
) -> None:
    # Expert with the skin reading no 4, 5 or 6 (as sgt-mines' calibration may end): each is
    # labelled in the game it first shows in, while that game is still played, once the
    # other numbers leave its picture one value, so the solver counts it from then on.
    table = SimulatedTable(seed=7, size=(16, 30, 99), unknown_numbers=frozenset({4, 5, 6}))
    with OutcomeLog(tmp_path / "log.db") as log:
        reports = play_all(quick_player(table, log), 6)
    assert all(report.record.result in (Result.WON, Result.LOST) for report in reports), [
        report.reason for report in reports
    ]
    assert table.labelled_in_play, table.labelled
    assert table.labelled_in_play <= set(table.labelled)


def test_a_number_never_seen_beside_the_start_a_new_game_opens_by_itself_is_played(
    tmp_path: Path,
) -> None:
    # Like xdemineur: each new game opens a starting area by itself, and a number the skin
    # lacks may show beside its 0s before any click of the bot (the run failed with an
    # AttributeError on its first board, xdemineur Beginner's test once). The game's flood
    # opened those cells: they are numbers not learned yet, and the games are played.

    class OpensAZero(SimulatedTable):
        def _started(self, seed: int) -> Game:
            game = Game(*self.size, rule="opening", seed=seed)
            game.open((self.size[0] // 2, self.size[1] // 2))
            return game

    table = OpensAZero(seed=2, unknown_numbers=frozenset({1, 2}))
    with OutcomeLog(tmp_path / "log.db") as log:
        reports = play_all(quick_player(table, log), 4)
    assert [report.record.result in (Result.WON, Result.LOST) for report in reports] == [
        True
    ] * 4, [report.reason for report in reports]
    assert table.labelled


def test_each_game_won_with_a_face_none_of_the_skins_offers_that_face_to_learn(
    tmp_path: Path,
) -> None:
    table = SimulatedTable(seed=1)  # its face reads as none of the skin's
    with OutcomeLog(tmp_path / "log.db") as log:
        records = [report.record for report in play_all(quick_player(table, log), 6)]
    won = sum(record.result == Result.WON for record in records)
    assert won > 0 and table.won_faces_offered == won
