"""Capture errors that need no display: a display that is not there is named."""

from __future__ import annotations

import pytest

from vision.capture import ScreenGrabber
from vision.errors import CaptureError


def test_a_missing_display_is_named() -> None:
    with pytest.raises(CaptureError, match="cannot open :4321 for capture"):
        ScreenGrabber(display=":4321")


def test_no_display_at_all_is_a_capture_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DISPLAY", raising=False)
    with pytest.raises(CaptureError, match="the current DISPLAY"):
        ScreenGrabber()
