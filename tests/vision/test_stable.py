"""wait_stable against scripted frame sequences: what counts as settled, and the timeout."""

from __future__ import annotations

import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.errors import UnstableFrameError
from vision.geometry import Rect
from vision.skin import Image
from vision.stable import (
    QUICK_INTERVAL,
    SURE_INTERVAL,
    TRIAL_LOOKS,
    StillRule,
    wait_stable,
)

REGION = Rect(10, 20, 4, 3)


class ScriptedGrabber:
    """Returns frames numbered by ``script`` (the last one repeats); counts the grabs."""

    def __init__(self, script: list[int]) -> None:
        self.script = script
        self.grabs = 0

    def grab(self, region: Rect | None = None) -> Image:
        assert region == REGION
        value = self.script[min(self.grabs, len(self.script) - 1)]
        self.grabs += 1
        return np.full((REGION.height, REGION.width, 3), value, dtype=np.uint8)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 3), min_size=1, max_size=12))
def test_returns_the_first_frame_equal_to_the_one_before(script: list[int]) -> None:
    grabber = ScriptedGrabber(script)
    frame = wait_stable(grabber, REGION, interval=0, timeout=5)
    repeats = [i for i in range(1, len(script)) if script[i] == script[i - 1]]
    settled_at = repeats[0] if repeats else len(script)  # the last frame repeats forever
    assert grabber.grabs == settled_at + 1
    assert int(frame[0, 0, 0]) == script[min(settled_at, len(script) - 1)]


def test_waits_for_the_frame_to_change_from_before_the_click() -> None:
    before = np.zeros((REGION.height, REGION.width, 3), dtype=np.uint8)
    grabber = ScriptedGrabber([0, 0, 0, 7, 7])
    frame = wait_stable(grabber, REGION, interval=0, timeout=5, differs_from=before)
    assert int(frame[0, 0, 0]) == 7 and grabber.grabs == 5


def test_a_flickering_region_times_out_naming_it() -> None:
    grabber = ScriptedGrabber([i % 2 for i in range(10_000)])
    with pytest.raises(UnstableFrameError, match=r"Rect\(left=10, top=20.*stop changing"):
        wait_stable(grabber, REGION, interval=0.001, timeout=0.05)


def test_a_click_that_never_shows_times_out() -> None:
    before = np.zeros((REGION.height, REGION.width, 3), dtype=np.uint8)
    with pytest.raises(UnstableFrameError, match="change from the frame before the click"):
        wait_stable(ScriptedGrabber([0]), REGION, interval=0.001, timeout=0.05, differs_from=before)


class TickingTimerGrabber:
    """A board that settles after three grabs, with a timer pixel that changes on every grab."""

    def __init__(self) -> None:
        self.grabs = 0

    def grab(self, region: Rect | None = None) -> Image:
        frame = np.zeros((REGION.height, REGION.width, 3), dtype=np.uint8)
        frame[0, 0] = self.grabs % 256  # the timer, outside the watched board
        frame[1:, :] = min(self.grabs, 3)  # the board: redrawn until the third grab
        self.grabs += 1
        return frame


def test_only_watched_parts_must_hold_still() -> None:
    board = Rect(REGION.left, REGION.top + 1, REGION.width, REGION.height - 1)
    grabber = TickingTimerGrabber()
    frame = wait_stable(grabber, REGION, watch=[board], interval=0, timeout=5)
    assert grabber.grabs == 5 and int(frame[1, 0, 0]) == 3
    with pytest.raises(UnstableFrameError, match="stop changing"):
        wait_stable(TickingTimerGrabber(), REGION, interval=0.001, timeout=0.05)


def test_watched_parts_must_lie_in_the_region() -> None:
    with pytest.raises(ValueError, match="not inside the captured region"):
        wait_stable(ScriptedGrabber([0]), REGION, watch=[Rect(0, 0, 5, 5)], interval=0)


class DrawingGame:
    """A screen on a virtual clock: each click is drawn ``half_drawn`` seconds after an
    intermediate frame (0: drawn in one go), as an animating game shows a flood half open."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, half_drawn: float) -> None:
        self.now = 0.0
        self.half_drawn = half_drawn
        self.shown = 2
        self.drawn_at = 0.0
        monkeypatch.setattr(time, "monotonic", lambda: self.now)
        monkeypatch.setattr(time, "sleep", self.sleep)

    def sleep(self, seconds: float) -> None:
        self.now += seconds

    def click(self) -> Image:
        """The frame before the click, which the game starts drawing 1 ms later."""
        before = self.grab(REGION)
        self.shown += 2
        self.drawn_at = self.now + 0.001
        return before

    def grab(self, region: Rect | None = None) -> Image:
        self.now += 0.0002  # a capture takes a moment
        if self.now < self.drawn_at:
            value = self.shown - 2
        elif self.now < self.drawn_at + self.half_drawn:
            value = self.shown - 1  # half drawn
        else:
            value = self.shown
        return np.full((REGION.height, REGION.width, 3), value, dtype=np.uint8)


def read_after_click(game: DrawingGame, rule: StillRule) -> Image:
    """As play reads the board after a click: quickly, then checked drawn whole (the drawing
    game takes every click at once), and read again the sure way if not."""
    frame = rule.wait(game, REGION, differs_from=game.click())
    return frame if rule.confirm(game, REGION, frame) else rule.wait(game, REGION)


def test_a_game_that_draws_each_click_at_once_is_read_after_the_quick_interval(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game, rule = DrawingGame(monkeypatch, half_drawn=0.0), StillRule()
    for _ in range(TRIAL_LOOKS):
        started = game.now
        read_after_click(game, rule)
        assert game.now - started > SURE_INTERVAL  # on trial: checked the sure interval later
    assert rule.trials == TRIAL_LOOKS and not rule.animates
    started = game.now
    frame = read_after_click(game, rule)
    assert int(frame[0, 0, 0]) == game.shown
    assert game.now - started < 2 * QUICK_INTERVAL + 0.002


@pytest.mark.parametrize("look", [0, TRIAL_LOOKS - 1])
def test_a_game_seen_animating_once_in_the_trial_is_always_given_the_sure_interval(
    monkeypatch: pytest.MonkeyPatch, look: int
) -> None:
    """A half-drawn frame that holds still for the quick interval (but not the sure one) is
    never taken as the board, and from then on every look waits the sure interval."""
    game, rule = DrawingGame(monkeypatch, half_drawn=0.0), StillRule()
    for _ in range(look):
        read_after_click(game, rule)
    game.half_drawn = (QUICK_INTERVAL + SURE_INTERVAL) / 2
    for _ in range(TRIAL_LOOKS + 5):
        frame = read_after_click(game, rule)
        assert int(frame[0, 0, 0]) == game.shown, "a half-drawn frame was taken as the board"
        assert rule.animates


def test_looks_not_after_a_click_wait_the_sure_interval(monkeypatch: pytest.MonkeyPatch) -> None:
    """A new game's board, or one read again, is not read after a click: no quick look."""
    game, rule = DrawingGame(monkeypatch, half_drawn=0.0), StillRule()
    rule.trials = TRIAL_LOOKS
    started = game.now
    rule.wait(game, REGION)
    assert game.now - started >= SURE_INTERVAL


def test_a_game_calibration_saw_animate_is_read_once_still_for_the_skins_interval(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A game that holds a half-drawn flood still for 0.25 s (a ring of cells at a time) is
    read whole from the first click when its skin asks 0.3 s of stillness; with the sure
    interval alone the half-drawn frame would pass."""
    game = DrawingGame(monkeypatch, half_drawn=0.25)
    frame = read_after_click(game, StillRule(animation_still=0.3))
    assert int(frame[0, 0, 0]) == game.shown
    game.half_drawn = 0.25
    frame = StillRule().wait(game, REGION, differs_from=game.click())
    assert int(frame[0, 0, 0]) == game.shown - 1  # what the learned interval guards against
