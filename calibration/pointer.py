"""What calibration needs from a mouse: clicking cells and pressing keys in the game window.

Declared here so calibration does not import the controller; ``controller.mouse.Mouse``
satisfies it.
"""

from __future__ import annotations

from typing import Protocol


class Pointer(Protocol):
    """Clicks screen points and presses keys at them (a key goes to the window under the
    pointer)."""

    def click(self, x: int, y: int, button: str = "left") -> None: ...

    def press(self, key: str, x: int, y: int) -> None: ...

    def move(self, x: int, y: int) -> None:
        """Move the pointer to (x, y) without clicking (off the board, before a capture)."""
        ...

    def close_dialogs(self) -> int:
        """Close any dialog the game has open (a question, a score table, a "Game Over" over
        the board), on that dialog only; how many there were."""
        ...
