"""What a drawn game shows as a browser or a toolkit would. For a right-click that marks nothing
(``DrawnGame(right_click=...)``): nothing, or a browser's context menu at the pointer, over the
board, until the next click or Escape (a web game that flags with Ctrl+click). On its new-game
button: small words in colour (``DrawnGame(button_label=...)``)."""

from __future__ import annotations

from dataclasses import dataclass

import cv2

from vision.geometry import Rect
from vision.skin import Image

RIGHT_CLICKS = ("marks", "nothing", "menu")
"""What a drawn game's right-click on a hidden cell does: mark it (flag, question mark), nothing,
or open a context menu."""
MENU_SIZE = (70, 90)
"""The context menu's width and height in pixels: it covers several cells."""


class ContextMenu:
    """A browser's context menu: a box drawn from the pointer down and to the right, with a
    line per item, shown until a click (which it takes, the page getting none) or Escape."""

    def __init__(self) -> None:
        self.at: tuple[int, int] | None = None
        """Where it was opened (screen x, y), while it shows."""
        self.opened = 0
        """Times it was opened."""

    def open(self, x: int, y: int) -> None:
        self.at = (x, y)
        self.opened += 1

    def close(self) -> bool:
        """Close the menu; whether it was showing."""
        showing, self.at = self.at is not None, None
        return showing

    def draw(self, screen: Image) -> None:
        """Draw the menu, while it shows, over ``screen`` (cut at its edges)."""
        if self.at is None:
            return
        x, y = self.at
        width, height = MENU_SIZE
        box = screen[y : y + height, x : x + width]
        box[:] = (90, 90, 90)
        box[1:-1, 1:-1] = (242, 242, 242)
        for line in range(8, height - 4, 14):  # the items' labels
            box[line : line + 5, 8 : width - 12] = (40, 40, 40)


@dataclass(frozen=True)
class ButtonLabel:
    """Words drawn on a button, small and in colour, as a web page or a toolkit's theme draws
    them (a browser's 13-px "Restart!"): letters no read of the whole window makes out."""

    text: str
    fill: tuple[int, int, int]
    ink: tuple[int, int, int]
    font: int = cv2.FONT_HERSHEY_SIMPLEX
    scale: float = 0.4

    def draw(self, screen: Image, area: Rect) -> None:
        """Fill the inside of the button at ``area`` (a 2-px frame left) and write the words
        on it, from its left, on a line a little below its middle."""
        screen[area.top + 2 : area.bottom - 2, area.left + 2 : area.right - 2] = self.fill
        at = (area.left + 6, area.top + area.height // 2 + 5)
        cv2.putText(screen, self.text, at, self.font, self.scale, self.ink, 1, cv2.LINE_AA)
