"""Stop signals and a lost display, against a real X server: a SIGTERM never leaves an X
connection hanging, an X server that stopped answering delays a stop by at most a second, and a
display that goes away is one error naming it; and the stop key's names and state."""

from __future__ import annotations

import os
import random
import signal
import threading
import time

import pytest
from conftest import needs_xvfb_and_signals

from controller.desktop.display import VirtualDisplay
from controller.desktop.x_connections import is_open, open_x_display
from controller.errors import DisplayLostError, StopKeyError
from controller.stopping import STOP_GRACE, StopKey, StopRequested, stop_on_signals


def _signal_later(seconds: float) -> threading.Timer:
    timer = _signal_timer(seconds)
    timer.start()
    return timer


def _signal_timer(seconds: float) -> threading.Timer:
    """A timer that sends this process SIGTERM ``seconds`` after it is started."""
    return threading.Timer(seconds, os.kill, (os.getpid(), signal.SIGTERM))


def _answers(connection: object, within: float = 3.0) -> bool:
    """Whether a round trip on ``connection`` comes back (python-xlib's sync, in a thread)."""
    done = threading.Event()

    def round_trip() -> None:
        connection.sync()  # type: ignore[attr-defined]
        done.set()

    threading.Thread(target=round_trip, daemon=True).start()
    return done.wait(within)


@needs_xvfb_and_signals
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
            timer = _signal_timer(chance.uniform(0.0001, 0.003))
            try:
                timer.start()  # the signal may come while the timer's thread starts
                for _ in range(5000):
                    connection.sync()
            except StopRequested as stop:
                assert "SIGTERM" in str(stop)
                stops += 1
            timer.join()
            assert _answers(connection), f"the connection hangs after {stops} stops"
    assert stops == 60
    connection.close()


@needs_xvfb_and_signals
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


@needs_xvfb_and_signals
def test_a_display_that_goes_away_is_one_error_naming_it(own_display: VirtualDisplay) -> None:
    name = own_display.name
    key = StopKey("Escape", display=name)
    assert key.pressed() is False
    own_display.stop()
    with pytest.raises(DisplayLostError, match=f"lost the X display {name}:"):
        key.pressed()
    key.close()  # closing what the server closed raises nothing


def test_an_unknown_stop_key_is_refused_by_name() -> None:
    with pytest.raises(StopKeyError, match="unknown stop key 'Tab'; choose from Escape, Pause"):
        StopKey("Tab")


def test_on_windows_the_stop_key_is_down_when_its_state_has_the_high_bit() -> None:
    class User32:
        """GetAsyncKeyState as documented: the high bit set while the key is down."""

        def __init__(self) -> None:
            self.down: set[int] = set()

        def GetAsyncKeyState(self, virtual_key: int) -> int:  # noqa: N802 (the Windows name)
            return -32768 if virtual_key in self.down else 1  # bit 0: pressed since last call

    user32 = User32()
    key = StopKey("Pause", platform="win32", user32=user32)
    assert not key.pressed()
    user32.down.add(0x13)  # VK_PAUSE
    assert key.pressed()
