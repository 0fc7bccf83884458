"""A board seen through a veil (a dialog a game draws inside its own window dims the rest) is
told from a board that changed, on real captures of games."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import TESTS
from hypothesis import given, settings
from hypothesis import strategies as st
from pictures import read_picture

from vision.skin import Image
from vision.veil import MAX_GAIN, find_veil

CAPTURES = {
    "winemine": TESTS / "data" / "windows" / "winemine_fresh.png",
    "xdemineur": TESTS / "data" / "vision_real" / "xdemineur-playing.png",
    "web98": TESTS / "data" / "web98" / "won.png",
}


def capture(name: str) -> Image:
    return read_picture(CAPTURES[name])


def veiled(frame: Image, gain: float, paleness: float) -> Image:
    """``frame`` under a veil that keeps ``gain`` of it, dark (``paleness`` 0) to white (1)."""
    seen = frame.astype(np.float32) * gain + (1 - gain) * 255 * paleness
    return np.clip(np.rint(seen), 0, 255).astype(np.uint8)


@settings(max_examples=60, deadline=None)
@given(
    name=st.sampled_from(sorted(CAPTURES)),
    gain=st.floats(0.2, 0.8),
    paleness=st.floats(0.0, 1.0),
    covered=st.floats(0.0, 0.3),
    grey=st.integers(0, 255),
)
def test_a_frame_under_a_veil_and_a_dialog_is_found_veiled(
    name: str, gain: float, paleness: float, covered: float, grey: int
) -> None:
    """Dimmed or paled by any veil, with a dialog of any colour over up to 30% of it."""
    before = capture(name)
    now = veiled(before, gain, paleness)
    height, width = now.shape[:2]
    now[: int(height * covered), : int(width * 0.9)] = grey
    veil = find_veil(before, now)
    assert veil is not None
    # Roughly: a capture of few colours (winemine's three greys) under a dialog of a grey near
    # one of them veiled may fit a line a little off.
    assert veil.gain == pytest.approx(gain, abs=0.06)


def test_a_frame_as_it_was_or_slightly_darker_is_not_veiled() -> None:
    before = capture("xdemineur")
    assert find_veil(before, before) is None
    assert find_veil(before, veiled(before, MAX_GAIN + 0.05, 0.0)) is None


def test_a_board_that_changed_is_not_veiled() -> None:
    """The same game later (cells opened, mines shown) is no veiled frame of it."""
    before = capture("xdemineur")
    after = read_picture(TESTS / "data" / "vision_real" / "xdemineur-lost.png")
    assert find_veil(before, after) is None


def test_a_frame_of_one_colour_is_never_called_veiled() -> None:
    """Any change of a flat frame fits some veil: no answer is given from one."""
    flat = np.full((40, 40, 3), 192, dtype=np.uint8)
    assert find_veil(flat, veiled(flat, 0.4, 0.0)) is None
