"""Capture errors: a display that is not there is named, and a capture after the display went
away is one error."""

from __future__ import annotations

import pytest
from conftest import needs_xvfb_and_signals

from controller.desktop.display import VirtualDisplay
from vision.capture import ScreenGrabber
from vision.errors import CaptureError
from vision.geometry import Rect


def test_a_missing_display_is_named() -> None:
    with pytest.raises(CaptureError, match="cannot open :4321 for capture"):
        ScreenGrabber(display=":4321")


def test_no_display_at_all_is_a_capture_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DISPLAY", raising=False)
    with pytest.raises(CaptureError, match="the current DISPLAY"):
        ScreenGrabber()


@needs_xvfb_and_signals
def test_a_capture_after_the_display_went_away_is_one_error(own_display: VirtualDisplay) -> None:
    """mss fails with a bare AssertionError on a closed connection, and again as it closes."""
    grabber = ScreenGrabber(own_display.name)
    assert grabber.grab(Rect(0, 0, 4, 4)).shape == (4, 4, 3)
    name = own_display.name
    own_display.stop()
    with pytest.raises(CaptureError, match=f"cannot capture .* on display {name}: "):
        grabber.grab(Rect(0, 0, 4, 4))
    grabber.close()  # closing a capture of a display that is gone raises nothing
