"""The bot's hand: pyautogui clicks and key presses, each click checked against allowed areas.

A click outside every allowed rectangle (the board, the new-game button) raises
:class:`ClickOutsideError` instead of clicking, so a misread board can never click some other
window. pyautogui connects to X when it is imported, so it is imported only when a
:class:`Mouse` is made (after ``DISPLAY`` is set, for example by a virtual display).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from controller.errors import ControllerError
from vision.geometry import Rect

BUTTONS = ("left", "right", "middle")
DEFAULT_PAUSE = 0.01
"""Seconds pyautogui waits after each call: enough for a game to take the event, far below its
0.1 s default, which would cost a second per ten clicks."""


class ClickOutsideError(ControllerError):
    """A click that would land outside every allowed rectangle; nothing was clicked."""


class Mouse:
    """Clicks and key presses through pyautogui, guarded by allowed rectangles.

    The fail-safe stays on (moving the pointer to a screen corner stops the bot), and the
    guard refuses any point in a corner, so the bot never trips it itself.
    """

    def __init__(self, allowed: Iterable[Rect] = (), pause: float = DEFAULT_PAUSE) -> None:
        import pyautogui  # here, not at the top: it opens the X display named by DISPLAY

        pyautogui.FAILSAFE = True
        pyautogui.PAUSE = pause
        self._gui: Any = pyautogui
        self.allowed: list[Rect] = list(allowed)

    def allow(self, *areas: Rect) -> None:
        """Replace the allowed rectangles (for example once the board has been located)."""
        self.allowed = list(areas)

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

    def click(self, x: int, y: int, button: str = "left") -> None:
        """Click ``button`` at screen point (x, y), after checking it is allowed."""
        if button not in BUTTONS:
            raise ValueError(f"unknown mouse button {button!r}; known: {', '.join(BUTTONS)}")
        self.check(x, y)
        self._gui.click(x, y, button=button)

    def press(self, key: str, x: int, y: int) -> None:
        """Point at screen point (x, y), after checking it is allowed, and press and release
        ``key`` (a pyautogui key name such as ``"f2"``) there.

        With no window manager a key goes to the window under the pointer (Wine's windows only
        sometimes keep the focus once the pointer leaves them), so the key is pressed over the
        game itself, never wherever the last click left the pointer.
        """
        if key not in self._gui.KEYBOARD_KEYS:
            raise ValueError(f"unknown key {key!r}")
        self.check(x, y)
        self._gui.moveTo(x, y)
        self._gui.press(key)

    def position(self) -> tuple[int, int]:
        """Where the pointer is now."""
        point = self._gui.position()
        return int(point[0]), int(point[1])

    def _corners(self) -> set[tuple[int, int]]:
        width, height = self._gui.size()
        return {(0, 0), (width - 1, 0), (0, height - 1), (width - 1, height - 1)}
