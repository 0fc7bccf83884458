"""The bot's hand: clicks and key presses, each checked against allowed areas and, when asked,
against the screen itself at the very moment it is sent.

A click outside every allowed rectangle (the board, the new-game button) raises
:class:`ClickOutsideError` instead of clicking, so a misread board can never click some other
window. That alone does not keep a click on the game: the window can close or move after the
board was read. So a click or key press can carry a ``check`` that looks at the screen just
before the button or key goes down and refuses it if the game is not there as read. On X11 the
check and the press happen inside one server grab (on a connection of the mouse's own), so no
other program can move, map or raise a window between them. The grab does not stop one thing: a
program that dies during it is closed down by the server at once (its windows destroyed), since
the server's poll reports a hung-up connection even while it reads only the grabbing client
(xserver ``os/ospoll.c`` ``ospoll_wait``, ``os/connection.c`` ``ClientReady`` calling
``CloseDownClient``). So each press also has a guard under it: an input-only window of the
mouse's own, stacked directly below the top-level window at the point before the check looks.
Should that window be destroyed after the check, the press falls on the guard, which swallows it,
and :class:`WindowClosedError` says so. Elsewhere the check and the press follow each other with
nothing in between (a window closing in that fraction of a millisecond is not caught there).

pyautogui connects to X when it is imported, so it is imported only when a :class:`Mouse` is
made (after ``DISPLAY`` is set, for example by a virtual display).
"""

from __future__ import annotations

import os
import re
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

from calibration.view import PARK_DISTANCE, rest_point
from controller.desktop.dpi import monitor_scaling
from controller.desktop.win32 import Win32GameWindows
from controller.desktop.windows import NoGameWindows, declare_dpi_aware
from controller.desktop.x11 import GameWindows
from controller.desktop.x_connections import is_open, open_x_display, quiet_xlib, x_requests
from controller.errors import ClickOutsideError, WindowClosedError
from vision.errors import CaptureError
from vision.geometry import Rect
from vision.skin import Image

BUTTONS = ("left", "right", "middle")
CLICK_PAUSES = (0.0, 0.002, 0.005, 0.01, 0.02, 0.05)
"""Seconds waited after each click, fastest first. Clicks go as fast as the game takes them: a
game seen missing one gets the next pause (:meth:`Mouse.slow_down`). A game that draws each
click at once takes several hundred a second, and a fixed pause was most of a game's time."""
KEY_PAUSE = 0.01
"""Seconds to wait after a key press, and between the pointer reaching a point and the key: a
window given the focus by the pointer may lose a key sent at once."""

Grab = Callable[[Rect], Image]
"""Captures a screen rectangle as BGR, as the press about to be sent will find the screen."""
Check = Callable[[Grab], bool]
"""Looks at the screen just before a press: True to send it, False to skip it (nothing to do),
or raises to refuse it. It must capture only through the ``Grab`` it is given."""

_X_BUTTONS = {"left": 1, "middle": 2, "right": 3}
_X_KEYSYMS = {
    **{"ctrl": "Control_L", "shift": "Shift_L", "alt": "Alt_L"},
    **{"escape": "Escape", "esc": "Escape", "enter": "Return", "return": "Return"},
    **{"tab": "Tab", "backspace": "BackSpace"},
}
"""pyautogui's names of modifier and other keys that X spells otherwise, as X keysyms (other
names are keysyms already, but for function keys, which X spells in upper case): calibration
closes a browser's context menu with "escape"."""


def _game_windows(platform: str) -> GameWindows | Win32GameWindows | NoGameWindows:
    """The game's windows as this platform reads them."""
    if platform.startswith("linux"):
        return GameWindows()
    if platform == "win32":
        return Win32GameWindows()
    return NoGameWindows()


class Mouse:
    """Clicks and key presses, guarded by allowed rectangles and an optional screen check.

    The fail-safe stays on (moving the pointer to a screen corner stops the bot), and the
    guard refuses any point in a corner, so the bot never trips it itself. ``platform`` is for
    tests: any other than Linux sends through pyautogui and captures with mss.
    """

    def __init__(
        self,
        allowed: Iterable[Rect] = (),
        pause: float = CLICK_PAUSES[0],
        *,
        platform: str = sys.platform,
        windows: GameWindows | Win32GameWindows | NoGameWindows | None = None,
    ) -> None:
        """``windows``: the game's windows, to focus and to close dialogs of (default: read from
        X on Linux, through user32 on Windows, none on macOS)."""
        with quiet_xlib():  # here, not at the top: it opens the X display named by DISPLAY
            import pyautogui

        pyautogui.FAILSAFE = True
        pyautogui.PAUSE = KEY_PAUSE
        self._gui: Any = pyautogui
        self.pause = pause
        """Seconds waited after each click (see :data:`CLICK_PAUSES`)."""
        self.allowed: list[Rect] = list(allowed)
        linux = platform.startswith("linux")
        self.windows = windows or _game_windows(platform)
        if self.allowed:
            self.windows.find(self.allowed)
        self._sender: _X11Sender | _GuiSender = _X11Sender() if linux else _GuiSender(pyautogui)

    def allow(self, *areas: Rect) -> None:
        """Replace the allowed rectangles (for example once the board has been located); the
        windows under them are the game's."""
        self.allowed = list(areas)
        self.windows.find(self.allowed)

    def close_dialogs(self) -> int:
        """Close the dialogs the game has open (see :class:`GameWindows`); how many there were."""
        return len(self.windows.close_dialogs())

    def check(self, x: int, y: int) -> None:
        """Raise :class:`ClickOutsideError` unless (x, y) lies in an allowed rectangle."""
        if not any(area.contains(x, y) for area in self.allowed):
            areas = ", ".join(
                f"{area.width}x{area.height} at ({area.left}, {area.top})" for area in self.allowed
            )
            raise ClickOutsideError(
                f"refused a click at ({x}, {y}): outside the allowed areas ({areas or 'none'})"
            )
        if (x, y) in self._corners():
            raise ClickOutsideError(
                f"refused a click at ({x}, {y}): a screen corner trips the fail-safe"
            )

    def click(self, x: int, y: int, button: str = "left", check: Check | None = None) -> None:
        """Click ``button`` at screen point (x, y), after checking it is allowed and, with
        ``check``, that the screen still shows what the click is meant for (see the module
        docstring; a check that returns False sends nothing). Buttons joined by ``+``
        (``left+right``, a chord) go down in that order and up in the reverse one."""
        if not button or any(name not in BUTTONS for name in button.split("+")):
            raise ValueError(f"unknown mouse button {button!r}; known: {', '.join(BUTTONS)}")
        self.check(x, y)
        self._gui.failSafeCheck()
        if self._sender.click(x, y, button, check) and self.pause:
            time.sleep(self.pause)

    def slow_down(self, to: float | None = None) -> float | None:
        """Wait longer after each click from now on: the next of :data:`CLICK_PAUSES` (the game
        missed a click), or with ``to`` (a pause learned before) the first at least that long.
        The pause now; None if it was the longest already."""
        longer = [pause for pause in CLICK_PAUSES if pause > self.pause and pause >= (to or 0)]
        if not longer:
            return None
        self.pause = longer[0]
        return self.pause

    def press(self, key: str, x: int, y: int, check: Check | None = None) -> None:
        """Point at screen point (x, y), after checking it is allowed, and press and release
        ``key`` there: a pyautogui key name such as ``"f2"``, or a combination such as
        ``"ctrl+n"`` (held in order, released in reverse). ``check`` as for :meth:`click`.

        The game window there is given the focus first. With no window manager a key also goes
        to the window under the pointer (Wine's windows only sometimes keep the focus once the
        pointer leaves them), so the key is pressed over the game itself, never wherever the
        last click left the pointer; and the pointer gets there a pause before the key, or Wine,
        still giving the focus to that window, loses the key.
        """
        keys = key.split("+")
        unknown = [name for name in keys if name not in self._gui.KEYBOARD_KEYS]
        if unknown:
            raise ValueError(f"unknown key {key!r}")
        self.check(x, y)
        self.windows.focus_at(x, y)
        self._gui.moveTo(x, y)  # fail-safe checked, then paused
        if self._sender.press(keys, x, y, check):
            time.sleep(KEY_PAUSE)

    def move(self, x: int, y: int) -> None:
        """Move the pointer to the allowed point (x, y) without clicking: off the board before
        a capture, since some games light up the tile under the pointer."""
        self.check(x, y)
        self._gui.moveTo(x, y, _pause=False)

    def park(self, board: Rect) -> None:
        """Move the pointer off ``board``, into the game window around it (see
        :func:`calibration.view.rest_point`): some games light up the tile under the pointer,
        which would read as another tile. Nowhere when no game window around the board is known
        or the board fills it."""
        frame = self._found_window(board)
        if frame is None:
            return
        point = rest_point(frame, board)
        if point is not None and point not in self._corners():
            self._gui.moveTo(*point, _pause=False)

    def hovers(self, area: Rect) -> bool:
        """Whether the pointer is over the game window holding ``area`` (over ``area`` itself
        where windows are not read): a game may light the tile under it."""
        return self.window_of(area).contains(*self.position())

    def leave(self, area: Rect) -> None:
        """Move the pointer, without clicking, out of the game window holding ``area`` and off
        ``area`` (which may reach past the window: a block of tiles found around a lit one),
        before its board is found: no window to rest in is known yet, and the part of a board
        found may not be all of it.

        The window is given the focus first: with no window manager the focus follows the
        pointer unless a window holds it, and a game may pause when it loses the focus
        (gnome-mines covered its board with "Paused")."""
        window = self.window_of(area)
        self.windows.focus_at(*area.centre)
        self.step_off(window.union(area))

    def window_of(self, area: Rect) -> Rect:
        """The frame of the game window under the middle of ``area``, looked up now (``area``
        if none)."""
        self.windows.find([area])
        under = (frame for _, frame in self.windows.found if frame.contains(*area.centre))
        return next(under, area)

    def _found_window(self, area: Rect) -> Rect | None:
        """The frame of the game window found (:meth:`allow`) that holds ``area``, if any."""
        return next((frame for _, frame in self.windows.found if frame.contains_rect(area)), None)

    def step_off(self, area: Rect) -> None:
        """Move the pointer, without clicking, just outside ``area`` across its nearest side
        (never onto a screen corner, nor off the screen)."""
        x, y = self.position()
        width, height = self._gui.size()
        ways = [
            (x - area.left, (area.left - PARK_DISTANCE, y)),
            (area.right - x, (area.right - 1 + PARK_DISTANCE, y)),
            (y - area.top, (x, area.top - PARK_DISTANCE)),
            (area.bottom - y, (x, area.bottom - 1 + PARK_DISTANCE)),
        ]
        for _, (to_x, to_y) in sorted(ways):
            on_screen = 0 <= to_x < width and 0 <= to_y < height
            if on_screen and (to_x, to_y) not in self._corners():
                self._gui.moveTo(to_x, to_y, _pause=False)
                return

    def position(self) -> tuple[int, int]:
        """Where the pointer is now."""
        point = self._gui.position()
        return int(point[0]), int(point[1])

    def _corners(self) -> set[tuple[int, int]]:
        width, height = self._gui.size()
        return {(0, 0), (width - 1, 0), (0, height - 1), (width - 1, height - 1)}


class _X11Sender:
    """Sends XTest input on a connection of its own, holding the server still (a server grab)
    from the check to the press, with the guard window under the window at the point (see the
    module docstring): the press reaches that window, or, if its program died meanwhile, the
    guard, and never whatever lay beneath."""

    def __init__(self, display: str | None = None) -> None:
        from Xlib import X
        from Xlib.error import DisplayError

        where = self._where = display or os.environ.get("DISPLAY")
        try:
            self._display: Any = open_x_display(where)
        except DisplayError as error:
            raise CaptureError(f"cannot open display {where} to click: {error}") from error
        screen = self._display.screen()
        self._root = screen.root
        self._screen = Rect(0, 0, screen.width_in_pixels, screen.height_in_pixels)
        formats = {f.depth: f.bits_per_pixel for f in self._display.display.info.pixmap_formats}
        depth = self._display.screen().root_depth
        if formats.get(depth) != 32 or self._display.display.info.image_byte_order != 0:
            raise CaptureError(
                f"display {where} has {depth}-bit pixels stored in {formats.get(depth)} bits; "
                "only 32-bit little-endian screens (the usual 24-bit colour) can be checked"
            )
        # the guard selects presses, so that one it catches goes no further (X passes an event
        # nobody selects on to the window's parent) and is seen here
        mask = X.ButtonPressMask | X.ButtonReleaseMask | X.KeyPressMask | X.KeyReleaseMask
        self._guard = self._root.create_window(
            0, 0, 1, 1, 0, 0, X.InputOnly, X.CopyFromParent, override_redirect=True, event_mask=mask
        )

    def click(self, x: int, y: int, button: str, check: Check | None) -> bool:
        from Xlib import X
        from Xlib.ext import xtest

        with x_requests(self._where, self._display):
            with self._held(x, y, check) as go:
                if not go:
                    return False
                xtest.fake_input(self._display, X.MotionNotify, x=x, y=y)
                codes = [_X_BUTTONS[name] for name in button.split("+")]
                for code in codes:
                    xtest.fake_input(self._display, X.ButtonPress, code)
                for code in reversed(codes):
                    xtest.fake_input(self._display, X.ButtonRelease, code)
            self._raise_if_caught(x, y)
        return True

    def press(self, keys: list[str], x: int, y: int, check: Check | None) -> bool:
        from Xlib import X
        from Xlib.ext import xtest

        codes = [self._keycode(key) for key in keys]
        with x_requests(self._where, self._display):
            with self._held(x, y, check) as go:
                if not go:
                    return False
                xtest.fake_input(self._display, X.MotionNotify, x=x, y=y)
                for code in codes:
                    xtest.fake_input(self._display, X.KeyPress, code)
                for code in reversed(codes):
                    xtest.fake_input(self._display, X.KeyRelease, code)
            self._raise_if_caught(x, y)
        return True

    def _keycode(self, key: str) -> int:
        from Xlib import XK

        name = _X_KEYSYMS.get(key, key.upper() if re.fullmatch(r"f\d+", key) else key)
        code = int(self._display.keysym_to_keycode(XK.string_to_keysym(name)))
        if not code:
            raise ValueError(f"the display has no key {key!r} to press")
        return code

    @contextmanager
    def _held(self, x: int, y: int, check: Check | None) -> Iterator[bool]:
        """Grab the server, put the guard under the top-level window at (x, y) and run the
        check; yield whether to press. The guard is taken away and the grab let go after the
        body (the press), which the server has then handled: XTest delivers an input event
        while it serves the request that fakes it (xserver ``Xext/xtest.c``)."""
        from Xlib import X
        from Xlib.error import CatchError

        replied = False

        def grab(region: Rect) -> Image:
            nonlocal replied
            if region.width <= 0 or region.height <= 0 or not self._screen.contains_rect(region):
                raise CaptureError(f"cannot capture {region}: not inside the screen {self._screen}")
            image = self._root.get_image(
                region.left, region.top, region.width, region.height, X.ZPixmap, 0xFFFFFFFF
            )
            replied = True
            data = image.data  # text when the bytes happen to be valid UTF-8 (a dark picture)
            pixels = np.frombuffer(data.encode() if isinstance(data, str) else data, np.uint8)
            return pixels.reshape(region.height, region.width, 4)[:, :, :3]

        self._display.grab_server()
        try:
            top = self._root.translate_coords(self._root, x, y).child
            if not getattr(top, "id", top):
                raise WindowClosedError(f"refused a press at ({x}, {y}): no window is there")
            failed = CatchError()
            self._guard.configure(x=x, y=y, sibling=top, stack_mode=X.Below, onerror=failed)
            self._guard.map()
            try:
                go = check is None or check(grab)
                if go and not replied:
                    self._display.sync()  # the guard's placement must be known to have worked
                if go and failed.get_error() is not None:
                    raise WindowClosedError(
                        f"refused a press at ({x}, {y}): the window there closed or moved away "
                        "as the press was checked"
                    )
                yield go
            finally:
                if is_open(self._display):
                    self._guard.unmap()
        finally:
            if is_open(self._display):  # a stop that abandoned a request closed it: no grab
                self._display.ungrab_server()
                self._display.sync()

    def _raise_if_caught(self, x: int, y: int) -> None:
        """Raise :class:`WindowClosedError` if the guard caught the press just sent (all the
        guard's events have come in: the press is followed by a round trip)."""
        from Xlib import X

        caught = False
        while self._display.pending_events():
            event = self._display.next_event()
            caught = caught or event.type in (X.ButtonPress, X.KeyPress)
        if caught:
            raise WindowClosedError(
                f"the window at ({x}, {y}) closed as the press was sent: the press fell on the "
                "mouse's guard window, and nothing was clicked"
            )


class _GuiSender:
    """Sends through pyautogui, right after the check (captured with mss): where the screen
    cannot be held still, this is as close as the two can be."""

    def __init__(self, gui: Any) -> None:
        from vision.capture import ScreenGrabber

        self._gui = gui
        self._grabber = ScreenGrabber()

    def click(self, x: int, y: int, button: str, check: Check | None) -> bool:
        x, y = self._units(x, y)
        self._gui.moveTo(x, y, _pause=False)
        if check is not None and not check(self._grabber.grab):
            return False
        buttons = button.split("+")
        if len(buttons) == 1:
            self._gui.click(x, y, button=button, _pause=False)
            return True
        for name in buttons:
            self._gui.mouseDown(x, y, button=name, _pause=False)
        for name in reversed(buttons):
            self._gui.mouseUp(x, y, button=name, _pause=False)
        return True

    @staticmethod
    def _units(x: int, y: int) -> tuple[int, int]:
        """Screen pixel (x, y) in the coordinates pyautogui is given: on Windows, those of a
        process that may see a scaled display (see :mod:`controller.desktop.dpi`)."""
        if sys.platform != "win32":
            return x, y
        return monitor_scaling(declare_dpi_aware(), x, y).to_units(x, y)

    def press(self, keys: list[str], x: int, y: int, check: Check | None) -> bool:
        if check is not None and not check(self._grabber.grab):
            return False
        self._gui.hotkey(*keys, _pause=False)
        return True
