"""The game's own windows on Windows: found and answered through the Windows API (user32).

A game's dialog (a best-time name prompt, the best-times table, "Game over") is a visible
top-level window of the game's process, or one owned by its main window. It is answered by a
``WM_CLOSE`` posted to that window alone, which a dialog box takes as its Cancel button (the
name prompt then keeps no name), and it is checked closed; no key or click goes anywhere else.
Hidden windows, and windows too small or off the screen to show anything, are no dialogs.

:class:`User32` holds the few calls used, through ctypes; :class:`WindowsDesktop` is what the
logic reads, so that tests on Linux run it against a stand-in and CI runs it for real under Wine.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Sequence
from typing import Any, Protocol

from controller.desktop.dpi import monitor_scaling
from controller.desktop.windows import (
    DIALOG_CLOSE_TIMEOUT,
    Dialog,
    close_game_dialogs,
    declare_dpi_aware,
    frame_in_pixels,
    shows_anything,
    successors,
)
from controller.errors import DialogError
from vision.geometry import Rect

WM_CLOSE = 0x0010
GW_OWNER = 4
GA_ROOT = 2
SM_XVIRTUALSCREEN, SM_YVIRTUALSCREEN, SM_CXVIRTUALSCREEN, SM_CYVIRTUALSCREEN = 76, 77, 78, 79


class WindowsDesktop(Protocol):
    """What the logic reads of the Windows desktop; window handles are ints (0: none)."""

    def top_level(self) -> list[int]:
        """Every top-level window, topmost first (EnumWindows)."""
        ...

    def process_of(self, window: int) -> int: ...

    def owner_of(self, window: int) -> int: ...

    def is_shown(self, window: int) -> bool:
        """Whether the window exists and is visible."""
        ...

    def title(self, window: int) -> str: ...

    def frame(self, window: int) -> Rect: ...

    def screen(self) -> Rect:
        """The virtual screen: every monitor."""
        ...

    def window_at(self, x: int, y: int) -> int:
        """The top-level window under a screen point."""
        ...

    def post_close(self, window: int) -> None: ...


class User32:
    """:class:`WindowsDesktop` through user32 (ctypes): only on Windows."""

    def __init__(self) -> None:
        import ctypes
        from ctypes import wintypes

        declare_dpi_aware()  # frames in the pixels capture and clicks use
        self._ctypes = ctypes
        self._wintypes = wintypes
        self._user32: Any = ctypes.WinDLL("user32", use_last_error=True)  # type: ignore[attr-defined]
        self._user32.GetWindow.restype = wintypes.HWND
        self._user32.GetAncestor.restype = wintypes.HWND
        self._user32.WindowFromPoint.restype = wintypes.HWND
        self._user32.WindowFromPoint.argtypes = [wintypes.POINT]
        self._user32.PostMessageW.argtypes = [
            wintypes.HWND, wintypes.UINT, wintypes.WPARAM, wintypes.LPARAM
        ]  # fmt: skip
        self._enum_proc = ctypes.WINFUNCTYPE(  # type: ignore[attr-defined]
            wintypes.BOOL, wintypes.HWND, wintypes.LPARAM
        )

    def top_level(self) -> list[int]:
        found: list[int] = []

        def each(window: int | None, _: int) -> bool:
            found.append(window or 0)
            return True

        self._user32.EnumWindows(self._enum_proc(each), 0)
        return found

    def process_of(self, window: int) -> int:
        pid = self._wintypes.DWORD()
        self._user32.GetWindowThreadProcessId(window, self._ctypes.byref(pid))
        return int(pid.value)

    def owner_of(self, window: int) -> int:
        return int(self._user32.GetWindow(window, GW_OWNER) or 0)

    def is_shown(self, window: int) -> bool:
        return bool(self._user32.IsWindow(window)) and bool(self._user32.IsWindowVisible(window))

    def title(self, window: int) -> str:
        length = int(self._user32.GetWindowTextLengthW(window))
        text = self._ctypes.create_unicode_buffer(length + 1)
        self._user32.GetWindowTextW(window, text, length + 1)
        return str(text.value)

    def frame(self, window: int) -> Rect:
        rect = self._wintypes.RECT()
        self._user32.GetWindowRect(window, self._ctypes.byref(rect))
        frame = Rect(rect.left, rect.top, rect.right - rect.left, rect.bottom - rect.top)
        return frame_in_pixels(frame, declare_dpi_aware())

    def screen(self) -> Rect:
        metric = self._user32.GetSystemMetrics
        return Rect(
            metric(SM_XVIRTUALSCREEN),
            metric(SM_YVIRTUALSCREEN),
            metric(SM_CXVIRTUALSCREEN),
            metric(SM_CYVIRTUALSCREEN),
        )

    def window_at(self, x: int, y: int) -> int:
        point = monitor_scaling(declare_dpi_aware(), x, y).to_units(x, y)
        under = self._user32.WindowFromPoint(self._wintypes.POINT(*point))
        return int(self._user32.GetAncestor(under, GA_ROOT) or 0) if under else 0

    def post_close(self, window: int) -> None:
        self._user32.PostMessageW(window, WM_CLOSE, 0, 0)


def dialogs(desktop: WindowsDesktop, main: int) -> list[Dialog]:
    """The game's other windows that show something: top-level, visible, on the screen and of
    a useful size, and of the main window's process or owned by it."""
    if not desktop.is_shown(main):
        return []
    process = desktop.process_of(main)
    screen = desktop.screen()
    found = []
    for window in desktop.top_level():
        if window == main or not desktop.is_shown(window):
            continue
        if desktop.process_of(window) != process and desktop.owner_of(window) != main:
            continue
        frame = desktop.frame(window)
        if shows_anything(frame, screen):
            found.append(Dialog(window, desktop.title(window), frame))
    return found


def close_dialog(
    desktop: WindowsDesktop, dialog: Dialog, timeout: float = DIALOG_CLOSE_TIMEOUT
) -> None:
    """Post ``WM_CLOSE`` to the dialog (its Cancel, for a dialog box) and wait until it is gone;
    one still shown after ``timeout`` is a :class:`DialogError` naming it."""
    desktop.post_close(dialog.window_id)
    deadline = time.monotonic() + timeout
    while desktop.is_shown(dialog.window_id):
        if time.monotonic() >= deadline:
            raise DialogError(f"the {dialog.describe()} did not close when asked to (WM_CLOSE)")
        time.sleep(0.02)


class Win32GameWindows:
    """The game's own top-level windows on Windows, told by the areas the bot may click (as
    :class:`controller.desktop.x11.GameWindows` on X11): their dialogs are closed; keys go
    to the window in front, which a click on the game makes it."""

    def __init__(self, desktop: WindowsDesktop | None = None) -> None:
        self.desktop = desktop or User32()
        self.found: list[tuple[int, Rect]] = []
        """Each game window's handle and frame."""
        self.retired: set[int] = set()
        """Game windows another took the place of (see :func:`successors`)."""

    def find(self, areas: Sequence[Rect]) -> None:
        """Take the top-level window under the middle of each area as the game's."""
        found: dict[int, Rect] = {}
        for area in areas:
            window = self.desktop.window_at(*area.centre)
            if window:
                found.setdefault(window, self.desktop.frame(window))
        self.found = list(found.items())

    def focus_at(self, x: int, y: int) -> None:
        """The foreground window takes the keys: a click on the game made it the game."""

    def close_dialogs(self) -> list[Dialog]:
        """Close every dialog of the game's windows, and those closing one opens (see
        :func:`controller.desktop.windows.close_in_turn`); the dialogs closed."""
        return close_game_dialogs(self._listing, functools.partial(close_dialog, self.desktop))

    def _listing(self) -> list[Dialog]:
        """The dialogs of the game's windows; a window of the game over one of them takes its
        place (see :func:`controller.desktop.windows.successors`)."""
        shown = [dialog for window, _ in self.found for dialog in dialogs(self.desktop, window)]
        return successors(self.found, self.retired, shown)
