"""One capture standing for the whole screen, the pointer that clicks it recording its clicks: a
game window that shows the same picture whatever is done (a page under its own modal dialog)."""

from __future__ import annotations

import numpy as np

from vision.geometry import Rect


class CapturedScreen:
    """``picture`` as the screen (a grabber), and a pointer over no game window whose clicks
    change nothing and are kept in :attr:`clicks`."""

    def __init__(self, picture: np.ndarray) -> None:
        self.picture = picture
        self.screen = Rect(0, 0, picture.shape[1], picture.shape[0])
        self.clicks: list[tuple[int, int]] = []

    def grab(self, region: Rect | None = None) -> np.ndarray:
        region = region or self.screen
        return self.picture[region.top : region.bottom, region.left : region.right].copy()

    def click(self, x: int, y: int, button: str = "left") -> None:
        self.clicks.append((x, y))

    def move(self, x: int, y: int) -> None:
        pass

    def hovers(self, area: Rect) -> bool:
        return False

    def leave(self, area: Rect) -> None:
        raise AssertionError("the pointer is over no window")
