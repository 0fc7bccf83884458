"""Stop signals and a lost display, against a real X server: a SIGTERM never leaves an X
connection hanging, an X server that stopped answering delays a stop by at most a second, and a
display that goes away is one error naming it."""

from __future__ import annotations

import os
import random
import signal
import sys
import threading
import time
from collections.abc import Iterator

import pytest

from controller.desktop.display import VirtualDisplay
from controller.desktop.processes import find_binary
from controller.desktop.x_connections import is_open, open_x_display
from controller.errors import DisplayLostError
from controller.stopping import STOP_GRACE, StopKey, StopRequested, stop_on_signals
from vision.capture import ScreenGrabber
from vision.errors import CaptureError
from vision.geometry import Rect

pytestmark = pytest.mark.skipif(
    sys.platform == "win32" or find_binary("Xvfb") is None, reason="needs Xvfb and POSIX signals"
)


@pytest.fixture
def own_display() -> Iterator[VirtualDisplay]:
    """An Xvfb of this test's own, to stop or kill."""
    with VirtualDisplay(first_number=150) as display:
        yield display


def _signal_later(seconds: float) -> threading.Timer:
    timer = threading.Timer(seconds, os.kill, (os.getpid(), signal.SIGTERM))
    timer.start()
    return timer


def _answers(connection: object, within: float = 3.0) -> bool:
    """Whether a round trip on ``connection`` comes back (python-xlib's sync, in a thread)."""
    done = threading.Event()

    def round_trip() -> None:
        connection.sync()  # type: ignore[attr-defined]
        done.set()

    threading.Thread(target=round_trip, daemon=True).start()
    return done.wait(within)


def test_a_stop_signal_in_the_middle_of_x_requests_leaves_the_connection_working(
    own_display: VirtualDisplay,
) -> None:
    """A SIGTERM raised inside python-xlib once left the connection waiting for ever (a bot
    spinning for 14 minutes): the stop now waits for the request under way."""
    connection = open_x_display(own_display.name)
    chance = random.Random(5)
    stops = 0
    with stop_on_signals():
        for _ in range(60):
            timer = _signal_later(chance.uniform(0.0001, 0.003))
            try:
                for _ in range(5000):
                    connection.sync()
            except StopRequested as stop:
                assert "SIGTERM" in str(stop)
                stops += 1
            timer.join()
            assert _answers(connection), f"the connection hangs after {stops} stops"
    assert stops == 60
    connection.close()


def test_a_stop_waits_at_most_the_grace_for_an_x_server_that_stopped_answering(
    own_display: VirtualDisplay,
) -> None:
    connection = open_x_display(own_display.name)
    assert own_display.pid is not None
    os.kill(own_display.pid, signal.SIGSTOP)
    try:
        with stop_on_signals(), pytest.raises(StopRequested, match="did not answer") as stopped:
            timer = _signal_later(0.2)
            started = time.monotonic()
            connection.sync()
        waited = time.monotonic() - started
    finally:
        os.kill(own_display.pid, signal.SIGCONT)
    timer.join()
    assert "SIGTERM" in str(stopped.value)
    assert 0.2 + STOP_GRACE - 0.1 < waited < 0.2 + STOP_GRACE + 1.0
    assert not is_open(connection)  # nothing waits on it again


def test_a_display_that_goes_away_is_one_error_naming_it(own_display: VirtualDisplay) -> None:
    name = own_display.name
    key = StopKey("Escape", display=name)
    assert key.pressed() is False
    own_display.stop()
    with pytest.raises(DisplayLostError, match=f"lost the X display {name}:"):
        key.pressed()
    key.close()  # closing what the server closed raises nothing


def test_a_capture_after_the_display_went_away_is_one_error(own_display: VirtualDisplay) -> None:
    """mss fails with a bare AssertionError on a closed connection, and again as it closes."""
    grabber = ScreenGrabber(own_display.name)
    assert grabber.grab(Rect(0, 0, 4, 4)).shape == (4, 4, 3)
    name = own_display.name
    own_display.stop()
    with pytest.raises(CaptureError, match=f"cannot capture .* on display {name}: "):
        grabber.grab(Rect(0, 0, 4, 4))
    grabber.close()  # closing a capture of a display that is gone raises nothing
