"""Calibration of drawn games whose ends bring up dialogs: over a dimmed window, late, or over a
lost board; each answered by its button that keeps the game, and none clicked otherwise."""

from __future__ import annotations

from drawn_game import (
    DrawnGame,
    assert_learned_truly,
    calibrated,
    quick_waits,  # noqa: F401 (autouse: calibration's quick waits on a virtual clock)
)

from solver import Tile
from vision.new_game import NewGame


def test_a_dialog_drawn_over_the_dimmed_window_at_a_game_s_end_is_answered() -> None:
    """A game drawn in a browser dims its window under a dialog when a game ends: calibration
    answers it with its "Cancel" (never "OK" first), and learns the won face and the face as
    the new-game way as if there were no dialog."""
    screen = DrawnGame(seed=2, veiled_dialog_on_end=("Cancel", "OK"))
    result = calibrated(screen, max_games=8)
    assert screen.answers and set(screen.answers) == {"Cancel"}
    assert sorted(result.skin.faces) == ["lost", "playing", "won"]
    assert result.skin.new_game == NewGame("face")
    assert_learned_truly(result, screen, result.skin.templates)


def test_a_late_ok_only_dialog_and_no_mark_before_a_game_begins_do_not_stop_calibration() -> None:
    """A game in a browser that says "Boom!" in a dialog with only an "OK" a moment after a
    loss is drawn, and takes no flag before its first click: calibration answers the dialog,
    and marks cells only once a game has begun."""
    screen = DrawnGame(
        seed=2, veiled_dialog_on_end=("OK",), veiled_dialog_after=0.3, marks_before_start=False
    )
    result = calibrated(screen, max_games=8)
    assert screen.answers and set(screen.answers) == {"OK"}
    assert result.skin.new_game == NewGame("face")
    assert {Tile.FLAG, Tile.MINE, Tile.EXPLODED} <= set(result.skin.templates)
    assert_learned_truly(result, screen, result.skin.templates)


def test_a_dialog_over_a_lost_board_is_closed_before_the_board_is_read_or_clicked() -> None:
    screen = DrawnGame(seed=2, dialog_on_loss=True)
    result = calibrated(screen, max_games=8)
    assert screen.losses > 0 and screen.dialogs_closed == screen.losses
    assert result.usable and result.skin.new_game == NewGame("face")
    assert_learned_truly(result, screen, result.skin.templates)
    assert result.skin.extra.get("first_click") in (None, "safe")
