"""A number the skin lacks that matches its 0: learned in play as other numbers first seen are,
while a number the game has not drawn yet (the 0's own picture) is never taken for one."""

from __future__ import annotations

from pathlib import Path

import pytest
from drawn_game import (
    MESSAGE_SHOWN,
    DrawnGame,
    GuardedMouse,
    assert_learned_truly,
    calibrated,
    played_to_the_end,
    quick_waits,  # noqa: F401 (autouse: calibration's quick waits on a virtual clock)
)

from calibration.learn import Calibration
from controller.loop import GamePlayer, play_games
from controller.outcomes import OutcomeLog, Result
from controller.screen_table import ScreenTable
from solver import Tile
from vision.locate import locate


def _table(screen: DrawnGame, mines: int) -> tuple[ScreenTable, Calibration]:
    """The table of ``screen`` on a skin four calibration games taught (play teaches it more).
    A game whose end takes its board away shows no mine at its end, so such games teach few
    numbers (ZERO, ONE, TWO on these boards)."""
    result = calibrated(screen, max_games=4, mines=mines)
    assert Tile.FOUR not in result.skin.templates
    geometry = locate(result.skin, screen.grab(), shape=(9, 9))
    table = ScreenTable(
        screen, result.skin, geometry, GuardedMouse(screen), mines, game="drawn", first_click="safe"
    )
    return table, result


@pytest.mark.parametrize(("seed", "mines"), [(7, 10), (2, 16)])
def test_a_number_the_skin_lacks_drawn_like_its_zero_is_learned_in_play(
    tmp_path: Path, seed: int, mines: int
) -> None:
    """This game's 4 is faint enough to match the skin's 0: it read as a 0 beside hidden cells
    (no game leaves a 0's neighbours hidden), and play stopped the game as misread."""
    screen = DrawnGame(seed=seed, faceless=True, menu_on_end=MESSAGE_SHOWN, mines=mines)
    table, result = _table(screen, mines)
    played_to_the_end(table, 8, tmp_path)
    assert_learned_truly(result, screen, [Tile.FOUR])


def test_a_number_drawn_as_the_zero_itself_is_misread_not_learned(tmp_path: Path) -> None:
    """A game that draws a number as its 0 (a number not drawn yet, for good) gives no picture
    to learn: the game is misread at that 0, with no click beside it, and no 4 is learned."""
    screen = DrawnGame(seed=7, faceless=True, menu_on_end=MESSAGE_SHOWN)
    screen.skin.templates[Tile.FOUR] = screen.skin.templates[Tile.ZERO].copy()
    table, result = _table(screen, 10)
    with OutcomeLog(tmp_path / "outcomes.sqlite3") as log:
        player = GamePlayer(table, log, one_game_a_second=False)
        reports = list(play_games(player, 8, echo=lambda line: None))
    misread = [report for report in reports if report.record.result == Result.MISREAD]
    assert misread, [report.record.result for report in reports]
    assert "reads 0 beside a hidden cell" in (misread[0].reason or "")
    assert Tile.FOUR not in result.skin.templates
