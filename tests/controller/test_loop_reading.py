"""The play loop against simulated games whose screens mislead: misreads, messages over the
board, unreadable cells and faces, frames drawn wrong or late; never guessed past."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import numpy as np
import pytest
from simulated_table import (
    NO_CROP,
    SimulatedTable,
    play_all,
    quick_player,
    virtual_time,  # noqa: F401 (autouse: the loop's waits pass at once)
)

from controller.loop import (
    IMPOSSIBLE_REREADS,
    GameReport,
)
from controller.outcomes import OutcomeLog, Result
from controller.reading import ANIMATION_REREADS
from solver import Board, BoardError, Tile
from solver.engine import neighbour_counts
from solver.strategy import Move, next_moves
from vision.errors import (
    UnreadableCellError,
    UnreadableFaceError,
)
from vision.read import Reading


class MisreadsANumberOnce(SimulatedTable):
    """Once, reads a number as another that the solver finds possible: a misread no rule of
    play catches."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.misread: tuple[int, int] | None = None

    def look(self, changed: bool = False, patience: float | None = None) -> Reading:
        reading = super().look(changed, patience)
        if self.misread is None:
            self.misread = _possible_misread(reading.board)
        return reading


def _possible_misread(board: Board) -> tuple[int, int] | None:
    """Change one number of ``board`` (in place) so that the board stays possible; the cell."""
    for row, column in np.argwhere(board.tiles <= Tile.EIGHT):
        cell = (int(row), int(column))
        shown = int(board.tiles[cell])
        for other in (shown - 1, shown + 1):
            if not 0 <= other <= 8:
                continue
            board.tiles[cell] = other
            try:
                next_moves(board)
                return cell
            except BoardError:
                board.tiles[cell] = shown
    return None


def test_a_read_the_end_of_the_game_contradicts_makes_the_game_misread(tmp_path: Path) -> None:
    table = MisreadsANumberOnce(seed=4)
    with OutcomeLog(tmp_path / "log.db") as log:
        (report,) = play_all(quick_player(table, log), 1)
    assert table.misread is not None
    assert report.record.result == Result.MISREAD
    assert f"cell {table.misread} as" in (report.reason or ""), report.reason


class MessageOverTheEnd(SimulatedTable):
    """Once a game is lost, a message covers the middle of the board for ``reads`` looks, its
    plain inside read as opened 0s (kmines' "You have lost." fading in, then gone)."""

    def __init__(self, seed: int, reads: int) -> None:
        super().__init__(seed, size=(9, 9, 25))
        self.reads = reads
        self.covered_reads = 0

    def look(self, changed: bool = False, patience: float | None = None) -> Reading:
        reading = super().look(changed, patience)
        board = reading.board
        if board.is_lost and self.covered_reads < self.reads:
            self.covered_reads += 1
            board.tiles[2:7, 2:7] = Tile.ZERO
        return reading

    def new_game(self, attempt: int = 0) -> None:
        super().new_game(attempt)
        self.covered_reads = 0


def test_a_message_over_an_ended_board_read_as_opened_cells_is_waited_out(
    tmp_path: Path,
) -> None:
    table = MessageOverTheEnd(seed=5, reads=6)
    with OutcomeLog(tmp_path / "log.db") as log:
        reports = play_all(quick_player(table, log), 4)
    results = [report.record.result for report in reports]
    assert results.count(Result.LOST) >= 1, results
    assert all(result in (Result.WON, Result.LOST) for result in results), [
        report.reason for report in reports
    ]
    assert table.covered_reads == table.reads


def lasting(fault: Exception, first_look: int) -> dict[int, Exception]:
    """``fault`` on look ``first_look`` and on every re-read the loop makes after it."""
    return {first_look + n: fault for n in range(ANIMATION_REREADS + 1)}


def test_a_cell_unreadable_for_a_moment_is_read_again(tmp_path: Path) -> None:
    # An end-of-game flash or a fade makes cells unreadable for a few tenths of a second.
    unreadable = UnreadableCellError(
        "cell (row 2, column 3) matches no template", (2, 3), tmp_path / "c.png"
    )
    table = SimulatedTable(seed=2, faults={3: unreadable, 4: unreadable}, relocation="gone")
    with OutcomeLog(tmp_path / "log.db") as log:
        (report,) = play_all(quick_player(table, log), 1)
    assert report.record.result in (Result.WON, Result.LOST)


def test_a_message_over_the_board_for_six_seconds_is_waited_out(tmp_path: Path) -> None:
    # kmines draws "Congratulations! You have won!" over the board for 4 s, then fades it.
    covered = UnreadableCellError("cell (row 4, column 4) matches no template", (4, 4), NO_CROP)
    table = SimulatedTable(seed=2, faults={3 + n: covered for n in range(60)}, relocation="gone")
    with OutcomeLog(tmp_path / "log.db") as log:
        (report,) = play_all(quick_player(table, log), 1)
    assert report.record.result in (Result.WON, Result.LOST), report.reason


class HoveredMessage(SimulatedTable):
    """Once the game is won, a message covers the board for as long as the pointer rests on
    it: kmines' popups do not hide while hovered."""

    def look(self, changed: bool = False, patience: float | None = None) -> Reading:
        reading = super().look(changed, patience)
        if reading.board.is_won and not self.stepped_away:
            raise UnreadableCellError("a message over the board", (4, 4), NO_CROP)
        return reading


def test_a_message_kept_while_the_pointer_rests_on_it_goes_once_the_pointer_steps_away(
    tmp_path: Path,
) -> None:
    table = HoveredMessage(seed=2)
    with OutcomeLog(tmp_path / "log.db") as log:
        reports = play_all(quick_player(table, log), 4)
    assert any(report.record.result == Result.WON for report in reports)
    assert all(report.record.result in (Result.WON, Result.LOST) for report in reports)
    assert table.stepped_away >= 1


def test_an_unreadable_cell_ends_the_game_as_misread_and_the_run(tmp_path: Path) -> None:
    unreadable = UnreadableCellError(
        "cell (row 2, column 3) matches no template", (2, 3), tmp_path / "c.png"
    )
    table = SimulatedTable(seed=2, faults=lasting(unreadable, first_look=3))
    with OutcomeLog(tmp_path / "log.db") as log:
        reports = play_all(quick_player(table, log), 5)
        (record,) = log.games()
    assert len(reports) == 1
    assert record.result == Result.MISREAD
    assert "matches no template" in (reports[0].reason or "")
    assert record.reason == reports[0].reason  # kept in the log
    clicks_before_fault = len(table.clicks)
    assert record.clicks == clicks_before_fault
    assert record.final_board is not None  # the last board read before the fault


def test_a_moved_board_is_found_again_and_play_goes_on(tmp_path: Path) -> None:
    unreadable = UnreadableCellError(
        "cell (row 0, column 0) matches no template", (0, 0), tmp_path / "c.png"
    )
    table = SimulatedTable(seed=3, faults=lasting(unreadable, first_look=2), relocation="moved")
    with OutcomeLog(tmp_path / "log.db") as log:
        (report,) = play_all(quick_player(table, log), 1)
    assert report.record.result in (Result.WON, Result.LOST)


def test_a_vanished_board_ends_the_game_without_another_click(tmp_path: Path) -> None:
    unreadable = UnreadableCellError(
        "cell (row 0, column 0) matches no template", (0, 0), tmp_path / "c.png"
    )
    table = SimulatedTable(seed=4, faults=lasting(unreadable, first_look=2), relocation="gone")
    with OutcomeLog(tmp_path / "log.db") as log:
        (report,) = play_all(quick_player(table, log), 3)
    assert report.record.result == Result.MISREAD
    assert "not found elsewhere" in (report.reason or "")
    assert len(table.clicks) == 1  # only the first click, made before the board vanished


def test_a_face_unreadable_for_a_moment_is_read_again_then_a_misread(tmp_path: Path) -> None:
    def pressed() -> UnreadableFaceError:
        return UnreadableFaceError("the face matches no face of the skin", tmp_path / "f.png")

    briefly = SimulatedTable(seed=9, faults={2: pressed(), 3: pressed()}, relocation="gone")
    for_good = SimulatedTable(seed=9, faults={n: pressed() for n in range(2, 6)}, relocation="gone")
    with OutcomeLog(tmp_path / "log.db") as log:
        (brief,) = play_all(quick_player(briefly, log), 1)
        (lasting,) = play_all(quick_player(for_good, log), 1)
    assert brief.record.result in (Result.WON, Result.LOST)
    assert lasting.record.result == Result.MISREAD
    assert "face" in (lasting.reason or "")


def test_a_board_the_solver_finds_impossible_ends_the_game_as_misread(tmp_path: Path) -> None:
    class WrongMineCount(SimulatedTable):
        """Reads the board with too few mines, as a wrong ``--mines`` would."""

        def look(self, changed: bool = False, patience: float | None = None) -> Reading:
            reading = super().look(changed, patience)
            board = reading.board
            return Reading(Board(board.rows, board.columns, 1, board.tiles), reading.scores, None)

    table = WrongMineCount(seed=17)
    with OutcomeLog(tmp_path / "log.db") as log:
        reports = play_all(quick_player(table, log), 3)
        (record,) = log.games()
    assert len(reports) == 1  # a misread ends the run
    assert record.result == Result.MISREAD
    assert record.ended_at is not None
    assert "the solver finds the board impossible" in (record.reason or "")
    assert "unflagged mines" in (record.reason or "")  # the solver's own reason is kept
    assert record.clicks == len(table.clicks) >= 1


def one_game(table: SimulatedTable, tmp_path: Path) -> GameReport:
    """The report of one game played on ``table``, logged in a new log."""
    with OutcomeLog(tmp_path / "log.db") as log:
        (report,) = play_all(quick_player(table, log), 1)
    return report


class DrawsWrongFrames(SimulatedTable):
    """Mid-game, ``frames`` looks in a row show one cell as a tile a game never draws there, as
    a frame caught while the game still draws a click; records the clicks on the closed cells
    beside that cell while it shows so."""

    def __init__(self, seed: int, frames: int) -> None:
        super().__init__(seed, size=(16, 16, 40))
        self.frames_left = frames
        self.shown = 0
        self.beside_wrong: list[tuple[int, int]] = []
        self._beside: set[tuple[int, int]] = set()

    def wrong(self, board: Board) -> tuple[tuple[int, int], Tile] | None:
        """The cell to show wrong on ``board``, and as what (None: none)."""
        raise NotImplementedError

    def look(self, changed: bool = False, patience: float | None = None) -> Reading:
        reading = super().look(changed, patience)
        board = reading.board
        self._beside = set()
        shown = None if not self.frames_left or board.is_lost else self.wrong(board)
        if shown is None:
            return reading  # once shown, on every look until none is left: the board only grows
        (row, column), tile = shown
        self.frames_left -= 1
        self.shown += 1
        self._beside = {
            (r, c)
            for r in range(row - 1, row + 2)
            for c in range(column - 1, column + 2)
            if 0 <= r < board.rows and 0 <= c < board.columns and board.closed[r, c]
        }
        tiles = board.tiles.copy()
        tiles[row, column] = tile
        wrong = Board(board.rows, board.columns, board.mines, tiles)
        return Reading(wrong, reading.scores, reading.face, reading.pictures)

    def play(self, move: Move) -> bool:
        if move.cell in self._beside:
            self.beside_wrong.append(move.cell)
        return super().play(move)


class DrawsImpossibleFrames(DrawsWrongFrames):
    """An opened 0 with no closed neighbour read as a 1: a board no mine layout fits."""

    def wrong(self, board: Board) -> tuple[tuple[int, int], Tile] | None:
        inner_zeros = np.argwhere(
            (board.tiles == Tile.ZERO) & (neighbour_counts(board.closed) == 0)
        )
        return (
            None
            if not len(inner_zeros)
            else ((int(inner_zeros[0][0]), int(inner_zeros[0][1])), Tile.ONE)
        )


class DrawsNumbersLate(DrawsWrongFrames):
    """A number beside closed cells shown blank, as a 0, where the solver alone would take the
    blank at its word and open the cells beside it (kmines once showed an opened cell without
    its number; a 0 beside a hidden cell is no board a game draws)."""

    def wrong(self, board: Board) -> tuple[tuple[int, int], Tile] | None:
        numbers = (board.tiles >= Tile.ONE) & (board.tiles <= Tile.EIGHT)
        for row, column in np.argwhere(numbers).tolist():
            tiles = board.tiles.copy()
            tiles[row, column] = Tile.ZERO
            try:
                next_moves(Board(board.rows, board.columns, board.mines, tiles), "safe")
            except BoardError:
                continue
            return (row, column), Tile.ZERO
        return None


class LabelsBesideLateNumbers(DrawsNumbersLate):
    """Numbers drawn late, on a skin that reads no 2 or 3 yet; records each number labelled
    while a frame drawn wrong is the last look."""

    def __init__(self, seed: int, frames: int) -> None:
        super().__init__(seed, frames)
        self.unknown_numbers = {2, 3}
        self.labelled_on_wrong_frames: list[Tile] = []

    def label(self, tiles: Mapping[int, Tile]) -> None:
        if self._beside:
            self.labelled_on_wrong_frames.extend(tiles.values())
        super().label(tiles)


def test_no_number_is_labelled_in_play_from_a_frame_with_a_number_not_drawn_yet(
    tmp_path: Path,
) -> None:
    # A 0 beside a hidden cell is a number the game has not drawn yet: the other numbers of
    # such a frame may leave a picture a value that is not its own.
    shown = []
    for seed in range(3, 9):
        table = LabelsBesideLateNumbers(seed=seed, frames=3)
        one_game(table, tmp_path / str(seed))
        shown.append(table.shown)
        assert table.labelled_on_wrong_frames == [], seed
    assert any(shown)


@pytest.mark.parametrize("drawn", [DrawsImpossibleFrames, DrawsNumbersLate])
def test_a_board_drawn_wrong_for_a_moment_is_read_again_and_play_goes_on(
    tmp_path: Path, drawn: type[DrawsWrongFrames]
) -> None:
    table = drawn(seed=3, frames=3)
    report = one_game(table, tmp_path)
    assert table.shown == 3
    assert table.beside_wrong == []
    assert report.record.result in (Result.WON, Result.LOST), report.reason


@pytest.mark.parametrize(
    ("drawn", "reason"),
    [
        (DrawsImpossibleFrames, "the solver finds the board impossible"),
        (DrawsNumbersLate, "reads 0 beside a hidden cell"),
    ],
)
def test_a_board_drawn_wrong_on_every_re_read_is_misread_with_no_click_for_it(
    tmp_path: Path, drawn: type[DrawsWrongFrames], reason: str
) -> None:
    table = drawn(seed=3, frames=IMPOSSIBLE_REREADS + 1)
    report = one_game(table, tmp_path)
    assert report.record.result == Result.MISREAD
    assert reason in (report.reason or "")
    assert table.beside_wrong == []


def test_a_board_read_half_drawn_after_a_burst_is_read_again_before_the_solver_sees_it(
    tmp_path: Path,
) -> None:
    """A game that animates what a click opens: the first board read after a burst, with every
    click taken, is found not drawn whole once, and read again."""

    class AnimatesOnce(SimulatedTable):
        def __init__(self, seed: int) -> None:
            super().__init__(seed)
            self.checks: list[int] = []

        def still_as_read(self) -> bool:
            self.checks.append(self.looks)
            return len(self.checks) > 1

    table = AnimatesOnce(seed=4)
    with OutcomeLog(tmp_path / "log.db") as log:
        player = quick_player(table, log)
        (report,) = play_all(player, 1)
    assert report.record.result in (Result.WON, Result.LOST), report.reason
    assert player.stopwatch.counts["boards read again: the game animates"] == 1
    assert len(table.checks) >= 2 and table.checks[1] > table.checks[0] + 1  # read again between
