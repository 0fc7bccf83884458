"""Acceptance of the controller: 30 Beginner games of each real game, end to end under Xvfb.

Each game is played through the path ``autosweeper play`` takes (a calibrated skin, a located
board, :class:`ScreenTable` with the guarded mouse, :func:`play_games`, the outcome log). The
test demands no misread, cut-off or stopped game, no click off the board, every game in the
log, every loss on a guess, and a live win rate that agrees with the simulated one for the same
board and first-click rule.

First-click rules: see tests/starts.py.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import starts
from conftest import Calibrations, LaunchGame
from starts import XDEMINEUR, xdemineur_start

from controller.loop import GamePlayer, play_games
from controller.mouse import Check, Mouse
from controller.outcomes import LoggedGame, OutcomeLog, Result
from controller.screen_table import ScreenTable
from controller.setup import KNOWN_FIRST_CLICK
from solver import Board, Tile
from solver.bench.stats import binomial_test, wilson_interval
from solver.engine import neighbour_counts
from vision.capture import ScreenGrabber
from vision.geometry import Rect
from vision.locate import locate_on_screen

pytestmark = pytest.mark.realgame

GAMES = 30
SIZES = {"winemine": (9, 9, 10), "xdemineur": (9, 12, 10)}
"""Beginner, except that xdemineur is at least 12 columns wide."""
SIMULATED_GAMES = 2000
SIGNIFICANCE = 0.001
"""The live win count disagrees with the simulated rate when an exact two-sided binomial test
gives a smaller p-value. Containment in a Wilson interval was flaky near a 99% rate with 30
games (28 wins failed it one run in thirty). A bot losing games to reading or clicking errors
still fails: each such game also breaks the stricter checks above it."""


class AuditedMouse:
    """The real guarded Mouse, with every click and key press it was asked for kept for the
    test to check."""

    def __init__(self, mouse: Mouse) -> None:
        self.mouse = mouse
        self.clicks: list[tuple[int, int, list[Rect]]] = []
        self.presses: list[tuple[int, int, list[Rect]]] = []

    def allow(self, *areas: Rect) -> None:
        self.mouse.allow(*areas)

    def slow_down(self, to: float | None = None) -> float | None:
        return self.mouse.slow_down(to)

    def click(self, x: int, y: int, button: str = "left", check: Check | None = None) -> None:
        self.clicks.append((x, y, list(self.mouse.allowed)))
        self.mouse.click(x, y, button, check)

    def press(self, key: str, x: int, y: int, check: Check | None = None) -> None:
        self.presses.append((x, y, list(self.mouse.allowed)))
        self.mouse.press(key, x, y, check)

    def close_dialogs(self) -> int:
        return self.mouse.close_dialogs()

    def window_of(self, area: Rect) -> Rect:
        return self.mouse.window_of(area)

    def park(self, board: Rect) -> None:
        self.mouse.park(board)

    def leave(self, area: Rect) -> None:
        self.mouse.leave(area)


def simulated_win_rate(game: str, seed: int = 0) -> float:
    """The solver's win rate on :data:`SIMULATED_GAMES` simulated games of ``game``'s board,
    started the way ``game`` starts them."""
    start = XDEMINEUR if game == "xdemineur" else KNOWN_FIRST_CLICK[game]
    return starts.simulated_win_rate(SIZES[game], start, SIMULATED_GAMES, seed)


def test_xdemineur_starts_open_a_zero_when_there_is_one_and_protect_no_cell() -> None:
    rng = np.random.default_rng(5)
    corner_mines = 0
    for _ in range(300):
        start = xdemineur_start(9, 12, 10, rng)
        layout = start.mine_layout
        assert layout is not None and not start.board.is_lost
        has_zero = ((neighbour_counts(layout) == 0) & ~layout).any()
        assert (start.board.tiles == 0).any() == has_zero
        corner_mines += bool(layout[0, 0])
    assert 5 <= corner_mines <= 60  # 300 * 10/108 is about 28: no cell is kept free of mines


def losing_move_was_a_guess(record: LoggedGame, log: OutcomeLog) -> None:
    """Assert the click that lost ``record`` was a guess the solver gave less than certainty,
    and, where the board shows which mine exploded, that it was that click's cell."""
    moves = log.moves(record.id)
    assert moves, f"game {record.id} was lost without a click"
    last = moves[-1]
    assert last.is_guess and last.safety is not None and last.safety < 1, (
        f"game {record.id} was lost on a move the solver called certain: {last}"
    )
    assert record.final_board is not None
    exploded = np.argwhere(Board.from_text(record.final_board).tiles == Tile.EXPLODED)
    if len(exploded):
        assert [tuple(cell) for cell in exploded] == [(last.row, last.column)]


@pytest.mark.parametrize("game", ["winemine", "xdemineur"])
def test_thirty_beginner_games_read_clicked_and_logged_at_the_simulated_win_rate(
    game: str,
    calibrations: Calibrations,
    launch: LaunchGame,
    mouse: Mouse,
    tmp_path: Path,
) -> None:
    skin = calibrations.of(game).skin
    rows, columns, mines = SIZES[game]
    launch(game, SIZES[game])
    audited = AuditedMouse(mouse)
    with ScreenGrabber() as grabber, OutcomeLog(tmp_path / "outcomes.sqlite3") as log:
        geometry = locate_on_screen(grabber, skin, shape=(rows, columns))
        table = ScreenTable(
            grabber,
            skin,
            geometry,
            audited,
            mines,
            game=game,
            first_click=KNOWN_FIRST_CLICK.get(game),
        )
        reports = list(play_games(GamePlayer(table, log), GAMES, echo=print))
        records = log.games()
        for record in records:
            if record.result == Result.LOST:
                losing_move_was_a_guess(record, log)
        cells = {(move.row, move.column) for r in records for move in log.moves(r.id)}

    assert [r.reason for r in reports if r.reason] == []
    assert len(records) == GAMES
    assert {r.result for r in records} <= {Result.WON, Result.LOST}
    assert all(r.final_board and r.ended_at for r in records)
    assert all(r.bbbv is not None for r in records if r.result == Result.WON)

    board, face = geometry.rect, geometry.face
    for x, y, allowed in audited.clicks + audited.presses:
        assert board.contains(x, y) or (face is not None and face.contains(x, y)), (x, y)
        assert any(area.contains(x, y) for area in allowed)
    assert all(0 <= row < rows and 0 <= column < columns for row, column in cells)
    assert sum(r.clicks for r in records) <= len(audited.clicks)

    won = sum(r.result == Result.WON for r in records)
    low, high = wilson_interval(won, GAMES)
    simulated = simulated_win_rate(game)
    p_value = binomial_test(won, GAMES, simulated)
    print(
        f"{game}: live {won}/{GAMES} [{low:.3f}, {high:.3f}], "
        f"simulated {simulated:.3f}, p {p_value:.3g}"
    )
    assert p_value >= SIGNIFICANCE


def test_the_binomial_test_tells_agreement_from_disagreement() -> None:
    assert binomial_test(28, 30, 0.99) > SIGNIFICANCE  # two unlucky guesses
    assert binomial_test(20, 30, 0.99) < SIGNIFICANCE  # games lost to something else
    assert binomial_test(15, 30, 0.5) == pytest.approx(1.0)
    assert binomial_test(0, 30, 0.5) == pytest.approx(2 * 0.5**30)
