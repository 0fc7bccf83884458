"""Learning the skin of a game the bot starts itself (controller/learning.py), from one window of
the size to play."""

from __future__ import annotations

import pytest

from controller.desktop import games
from controller.errors import SandboxError
from vision.geometry import Rect
from vision.new_game import NewGame


def test_a_game_with_no_calibration_boards_is_named_not_a_traceback() -> None:
    from controller.learning import calibrate_game

    with pytest.raises(SandboxError, match="no calibration boards for sgt-mines yet"):
        calibrate_game("sgt-mines")


def test_a_game_with_no_calibration_boards_is_learned_from_one_window_of_the_size_to_play(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With no display the bot learns a game it has no boards for as a user's window is: one
    window of the board it is about to play, for the usual budget (livebench and ``play
    --game`` could start only winemine and xdemineur before)."""
    from calibration.learn import BUDGET
    from controller import learning

    opened: list[tuple[int, int, int]] = []
    closed: list[int] = []

    width = 300

    class Window:
        def __init__(self) -> None:
            self.geometry = games.Geometry(0, 0, width, 200)

        def move(self, left: int, top: int) -> None:
            self.geometry = games.Geometry(left, top, width, 200)

        def close(self) -> None:
            closed.append(1)

    class Screen:
        screen = Rect(0, 0, 1280, 1024)

        def __enter__(self) -> Screen:
            return self

        def __exit__(self, *_: object) -> None:
            return None

    def launch(game: str, size: tuple[int, int, int]) -> Window:
        opened.append(size)
        return Window()

    calibrated: dict[str, object] = {}

    def calibrate_windows(name, rects, mines, max_games, seed, budget, new_game):
        calibrated.update(name=name, rects=rects, mines=mines, budget=budget, new_game=new_game)
        return "learned"

    monkeypatch.setattr(learning, "ScreenGrabber", Screen)
    monkeypatch.setattr(learning, "launch_game", launch)
    monkeypatch.setattr(learning, "calibrate_windows", calibrate_windows)
    monkeypatch.setattr(learning, "REDRAW_WAIT", 0.0)
    assert learning.calibrate_game("sgt-mines", size=(16, 30, 99)) == "learned"
    assert opened == [(16, 30, 99)] and closed == [1]
    assert calibrated == {
        "name": "sgt-mines",
        "rects": [Rect(learning.WINDOW_GAP, 2 * learning.WINDOW_GAP, 300, 200)],
        "mines": [99],
        "budget": BUDGET,
        "new_game": None,
    }
    # A game whose new-game key calibration would not find is told it, as its user would.
    assert learning.calibrate_game("xbomb", size=(8, 8, 10)) == "learned"
    assert calibrated["new_game"] == NewGame("key", "s")
    # A window too wide to stand at the usual margin is moved left until it fits (xbomb's
    # Expert window, 1275 px wide, stopped `play --game xbomb --level expert` before).
    width = 1275
    assert learning.calibrate_game("xbomb", size=(16, 30, 99)) == "learned"
    assert calibrated["rects"] == [Rect(5, 2 * learning.WINDOW_GAP, 1275, 200)]
