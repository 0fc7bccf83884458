"""The dialogs a game draws in its own window (calibration/dialogs.py): the button that keeps the
game, read on real captures."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from pictures import read_picture

from calibration.dialogs import dismissing_button
from vision.skin import Image
from vision.veil import find_veil


def web_capture(game: str, name: str) -> Image:
    """A capture of a game in a browser's window (web98: a Windows-98 look drawn in HTML;
    webcanvas: a game drawn on a canvas)."""
    picture = read_picture(Path(__file__).parent.parent / "data" / game / f"{name}.png")
    return np.asarray(picture)


@pytest.mark.parametrize(
    ("game", "dialog", "label"),
    [("web98", "prompt", "cancel"), ("web98", "scores", "ok"), ("webcanvas", "boom", "ok")],
)
def test_the_button_that_keeps_the_game_is_read_in_a_dialog_over_a_veil(
    game: str, dialog: str, label: str
) -> None:
    """Real captures of two browser games: one's name prompt for a best time ("Cancel" chosen
    over "OK", white on blue) and its score table ("OK", never "Reset Scores"), the other's
    "Boom!" after a loss (an "OK" in a focus ring), each over the page the browser or the game
    dims."""
    before, now = web_capture(game, "window"), web_capture(game, dialog)
    veil = find_veil(before, now)
    assert veil is not None
    button = dismissing_button(now, veil.off(before, now))
    assert button is not None and button.label == label
