"""Stopping the bot: the stop key (polled before every click), SIGINT/SIGTERM and pyautogui's
fail-safe all become one :class:`StopRequested`."""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any, Protocol

from controller.desktop.x_connections import (
    abandon_x_request,
    close_x_display,
    open_x_display,
    x_request_under_way,
    x_requests,
)
from controller.errors import StopKeyError


class StopRequested(BaseException):
    """The user asked the bot to stop (SIGINT/SIGTERM, the stop key, or the pyautogui
    fail-safe). Like :class:`KeyboardInterrupt` it is no :class:`Exception`, so that code
    turning errors into its own (a failed capture) lets it through."""


class KeyWatch(Protocol):
    """A key the user holds down to stop the bot (:class:`StopKey`)."""

    name: str

    def pressed(self) -> bool:
        """Whether the key is down now."""


STOP_KEYS = {"Escape": 0x1B, "Pause": 0x13, "F12": 0x7B}
"""Keys that can stop the bot, with their Windows virtual-key codes (on X11 the names are the
keysyms)."""


class StopKey:
    """A key the bot polls between moves: held down, it stops the run before the next click.

    On X11 the keyboard's state is read with XQueryKeymap on a connection of its own (through
    python-xlib, which pyautogui installs), so it works whichever window has the focus. On
    Windows ``GetAsyncKeyState`` is read instead; that path follows the documentation and is
    untested (no Windows machine here). Polling sees a key only while it is down: hold it until
    the bot stops, which is at most one move.
    """

    def __init__(
        self,
        name: str = "Escape",
        *,
        display: str | None = None,
        platform: str = sys.platform,
        user32: Any = None,
    ) -> None:
        """``display``: the X display (default ``DISPLAY``); ``user32`` is for tests."""
        if name not in STOP_KEYS:
            raise StopKeyError(f"unknown stop key {name!r}; choose from {', '.join(STOP_KEYS)}")
        self.name = name
        self._connection: Any = None
        self._user32: Any = None
        self._where: str | None = None
        if platform == "win32":
            if user32 is None:
                import ctypes

                user32 = ctypes.windll.user32  # type: ignore[attr-defined]
            self._user32 = user32
            return
        from Xlib import XK
        from Xlib.error import DisplayError

        where = self._where = display or os.environ.get("DISPLAY")
        try:
            self._connection = open_x_display(where)
        except DisplayError as error:
            raise StopKeyError(f"cannot watch the stop key on display {where}: {error}") from error
        keycode = self._connection.keysym_to_keycode(XK.string_to_keysym(name))
        if not keycode:
            self.close()
            raise StopKeyError(f"display {where} has no {name} key to watch")
        self._byte, self._bit = divmod(int(keycode), 8)

    def pressed(self) -> bool:
        if self._user32 is not None:
            return bool(self._user32.GetAsyncKeyState(STOP_KEYS[self.name]) & 0x8000)
        with x_requests(self._where, self._connection):
            return bool(self._connection.query_keymap()[self._byte] & (1 << self._bit))

    def close(self) -> None:
        if self._connection is not None:
            close_x_display(self._connection)
            self._connection = None

    def __enter__(self) -> StopKey:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


STOP_GRACE = 1.0
"""Seconds a stop signal waits for an X request under way to finish before the request is
abandoned (an X server that stopped answering), its connection closed."""


class _StopSignals:
    """The SIGINT/SIGTERM handler while the bot works: raises :class:`StopRequested` at once,
    but never inside python-xlib, which would leave the connection hanging (see
    :mod:`controller.desktop.x_connections`). There the stop is raised as the call into
    python-xlib returns, by a trace function on its caller's frame; if it has not returned
    after :data:`STOP_GRACE` seconds, the main thread is signalled again and the request
    abandoned."""

    def __init__(self) -> None:
        self.noted: StopRequested | None = None
        self._timer: threading.Timer | None = None
        self._tracing: tuple[FrameType, Any] | None = None

    def __call__(self, number: int, frame: FrameType | None) -> None:
        stop = self.noted or StopRequested(f"stopped by signal {signal.Signals(number).name}")
        caller = x_request_under_way(frame)
        resignal = getattr(signal, "pthread_kill", None)  # POSIX: where python-xlib is used
        if caller is None or resignal is None:
            self.stop_waiting()
            raise stop
        if self.noted is not None:  # the grace is over
            self.stop_waiting()
            abandon_x_request(frame)
            raise StopRequested(f"{stop} (the X server did not answer for {STOP_GRACE:g} s)")
        self.noted = stop
        self._raise_on_return(caller)
        main = threading.main_thread().ident
        self._timer = threading.Timer(STOP_GRACE, resignal, (main, number))
        self._timer.daemon = True
        self._timer.start()

    def _raise_on_return(self, caller: FrameType) -> None:
        """Raise the stop noted at the next event in ``caller``'s frame: python-xlib's call
        returned (or raised)."""

        def back_in_caller(frame: FrameType, event: str, argument: object) -> Any:
            stop = self.noted
            self.stop_waiting()
            if stop is not None:
                raise stop
            return None

        previous = sys.gettrace()
        self._tracing = (caller, previous)
        caller.f_trace = back_in_caller
        sys.settrace(lambda frame, event, argument: None)  # tracing on, no other frame traced

    def stop_waiting(self) -> None:
        """Forget a stop noted: it is raised now, or the handler is taken away."""
        self.noted = None
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._tracing is not None:
            caller, previous = self._tracing
            caller.f_trace = None
            sys.settrace(previous)
            self._tracing = None


@contextmanager
def stop_on_signals() -> Iterator[None]:
    """Turn SIGTERM (and SIGINT) into :class:`StopRequested` while the bot works, then restore
    them; a stop noted but not yet raised is raised on the way out."""
    handler = _StopSignals()
    saved = {sig: signal.signal(sig, handler) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        noted = handler.noted
        handler.stop_waiting()
        for sig, previous in saved.items():
            signal.signal(sig, previous)
    if noted is not None:
        raise noted


@contextmanager
def failsafe_as_stop() -> Iterator[None]:
    """pyautogui's fail-safe (pointer in a screen corner) becomes a stop request."""
    try:
        yield
    except Exception as error:
        pyautogui = sys.modules.get("pyautogui")  # loaded by Mouse; if not, this is no fail-safe
        if pyautogui is not None and isinstance(error, pyautogui.FailSafeException):
            raise StopRequested(f"pyautogui fail-safe: {error}") from error
        raise
