"""How calibration tells a game's end (calibration/game_end.py), on drawn games: a message a
loss or a win draws over the board waited out, a loss told by the cells it changes apart from the
click."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
import pytest
from drawn_game import (
    MESSAGE_SHOWN,
    DrawnGame,
    assert_learned_truly,
    calibrated,
    quick_waits,  # noqa: F401 (autouse: calibration's quick waits on a virtual clock)
)
from hypothesis import given, settings
from hypothesis import strategies as st

from calibration import game_end, record, view, waits
from calibration.game_end import EndJudge
from calibration.record import PlayedGame
from solver import Game, GameState, Tile


@dataclass
class LossWatches:
    """How many lost and won boards calibration read, and how many it watched for a message."""

    losses: int = 0
    wins: int = 0
    watches: int = 0


def watched_losses(monkeypatch: pytest.MonkeyPatch) -> LossWatches:
    """Count the lost and won boards calibration reads and the watches it keeps for a
    message."""
    seen = LossWatches()
    real_settled, real_lost, real_won = (
        view.settled,
        EndJudge.lost,
        EndJudge.won,
    )

    def settled(*args: Any, **kwargs: Any) -> Any:
        seen.watches += args[3:4] == (waits.MESSAGE_WAIT,)
        return real_settled(*args, **kwargs)

    def lost(judge: EndJudge, game: PlayedGame) -> None:
        seen.losses += 1
        real_lost(judge, game)

    def won(judge: EndJudge, game: PlayedGame, watch: bool = True) -> None:
        seen.wins += watch
        real_won(judge, game, watch)

    monkeypatch.setattr(game_end, "settled", settled)
    monkeypatch.setattr(EndJudge, "lost", lost)
    monkeypatch.setattr(EndJudge, "won", won)
    return seen


def test_a_game_that_draws_no_message_over_its_loss_is_watched_for_one_only_twice(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen = watched_losses(monkeypatch)
    calibrated(DrawnGame(seed=2), max_games=12)
    assert seen.losses > 4
    assert seen.watches == game_end.MESSAGE_CHECKS


def test_a_game_that_draws_a_message_over_its_loss_is_watched_at_every_loss(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen = watched_losses(monkeypatch)
    screen = DrawnGame(seed=2, message_on_loss=MESSAGE_SHOWN)
    result = calibrated(screen, max_games=10)
    assert result.usable and seen.losses > game_end.MESSAGE_CHECKS + 2
    assert seen.watches == seen.losses + seen.wins
    assert_learned_truly(result, screen, result.skin.templates)


def test_a_message_that_stays_while_the_game_thinks_the_pointer_rests_on_it_is_sent_away(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """kmines' "You have lost." stays while the pointer rests on it, and the pointer it last
    saw is where the losing click was when that click opened a dialog (which takes the pointer's
    moves): once the dialog is closed, the pointer is moved again so that the game sees it off
    the board, and the message goes."""
    seen = watched_losses(monkeypatch)
    screen = DrawnGame(
        seed=2, dialog_on_loss=True, message_on_loss=MESSAGE_SHOWN, message_held_by_pointer=True
    )
    result = calibrated(screen, max_games=10)
    assert result.usable and screen.dialogs_closed > 2
    assert seen.watches == seen.losses + seen.wins
    assert "set a game aside" not in caplog.text  # no loss read with the message over it
    assert_learned_truly(result, screen, result.skin.templates)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 40))
def test_a_click_in_play_changes_one_patch_and_a_loss_that_shows_the_mines_more(
    seed: int, clicks: int
) -> None:
    """Every opening in play is joined to the cell clicked through changed cells; a loss that
    draws every mine changes cells apart from it unless the mines all touch one another."""
    game = Game(9, 9, 10, seed=seed)
    generator = np.random.default_rng(seed)
    for _ in range(clicks):
        hidden = np.argwhere(game.board.tiles == Tile.HIDDEN)
        row, column = (int(index) for index in hidden[generator.integers(len(hidden))])
        cell = (row, column)
        before = game.board.tiles.astype(np.int32)
        game.open(cell)
        if game.is_over:
            break
        assert not record.changed_apart(before, game.board.tiles.astype(np.int32), cell, set())
    if game.state is GameState.LOST:  # drawn as a game that shows every mine
        layout = game.mine_layout
        assert layout is not None
        shown = np.where(layout, np.int32(Tile.MINE), before)
        assert record.changed_apart(before, shown, cell, set()) == (not _joined(layout, cell))


def _joined(layout: np.ndarray, cell: tuple[int, int]) -> bool:
    """Whether every mine of ``layout`` is joined to ``cell`` through mines."""
    _, patches = cv2.connectedComponents(layout.astype(np.uint8), connectivity=8)
    return bool((patches[layout] == patches[cell]).all())
