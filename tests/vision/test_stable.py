"""wait_stable against scripted frame sequences: what counts as settled, and the timeout."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.errors import UnstableFrameError
from vision.geometry import Rect
from vision.skin import Image
from vision.stable import wait_stable

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
