"""Stopping the bot: the stop key (polled before every click), SIGINT/SIGTERM and pyautogui's
fail-safe all become one :class:`StopRequested`."""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Protocol

from controller.desktop.x11 import open_x_display
from controller.errors import ControllerError


class StopRequested(Exception):
    """The user asked the bot to stop (SIGINT/SIGTERM, the stop key, or the pyautogui
    fail-safe)."""


class KeyWatch(Protocol):
    """A key the user holds down to stop the bot (:class:`StopKey`)."""

    name: str

    def pressed(self) -> bool:
        """Whether the key is down now."""


STOP_KEYS = {"Escape": 0x1B, "Pause": 0x13, "F12": 0x7B}
"""Keys that can stop the bot, with their Windows virtual-key codes (on X11 the names are the
keysyms)."""


class StopKeyError(ControllerError):
    """The stop key cannot be watched (unknown key, no keyboard state to read); says which."""


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
        if platform == "win32":
            if user32 is None:
                import ctypes

                user32 = ctypes.windll.user32  # type: ignore[attr-defined]
            self._user32 = user32
            return
        from Xlib import XK
        from Xlib.error import DisplayError

        where = display or os.environ.get("DISPLAY")
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
        return bool(self._connection.query_keymap()[self._byte] & (1 << self._bit))

    def close(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None

    def __enter__(self) -> StopKey:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


@contextmanager
def stop_on_signals() -> Iterator[None]:
    """Turn SIGTERM (and SIGINT) into :class:`StopRequested` while playing, then restore them."""

    def request_stop(number: int, frame: object) -> None:
        raise StopRequested(f"stopped by signal {signal.Signals(number).name}")

    saved = {sig: signal.signal(sig, request_stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, handler in saved.items():
            signal.signal(sig, handler)


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
