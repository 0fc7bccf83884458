"""Pictures of a game window for the real-game tests: its pixels, and where its fresh board's
hidden tiles are, found without a skin (so a board cut off by the window's edge shows)."""

from __future__ import annotations

import contextlib
import os
import subprocess
import threading
import time

import cv2
import mss
import numpy as np
from Xlib.error import XError

from controller.desktop.games import GameWindow
from controller.desktop.windows import shows_anything
from controller.desktop.x11 import X11Windows
from controller.desktop.x_connections import open_x_display
from controller.errors import WindowError
from vision.geometry import Rect

TILE_TOLERANCE = 12
"""Colour levels by which one game's hidden tiles may differ (kmines draws them semi-transparent
over a gradient)."""


def grab(window: GameWindow) -> np.ndarray:
    """The window's pixels as RGB."""
    x, y, width, height = window.geometry
    with mss.MSS() as screen:
        frame = np.asarray(screen.grab({"left": x, "top": y, "width": width, "height": height}))
    return frame[:, :, 2::-1]


def hidden_tiles(frame: np.ndarray) -> list[Rect]:
    """The squares of one colour and one size that a fresh board is made of: of the frame's six
    most common colours, the one whose near-square patches of about one area are the most."""
    pixels = frame.astype(np.int16)
    colours, counts = np.unique(pixels.reshape(-1, 3), axis=0, return_counts=True)
    best: list[Rect] = []
    for colour in colours[np.argsort(counts)[::-1][:6]]:
        mask = (np.abs(pixels - colour).max(axis=2) <= TILE_TOLERANCE).astype(np.uint8)
        stats = cv2.connectedComponentsWithStats(mask, connectivity=4)[2][1:]
        squares = [s for s in stats if min(s[2], s[3]) >= 8 and 0.7 <= s[2] / s[3] <= 1.4]
        if not squares:
            continue
        area = np.median([s[4] for s in squares])
        tiles = [Rect(*map(int, s[:4])) for s in squares if 0.7 <= s[4] / area <= 1.3]
        if len(tiles) > len(best):
            best = tiles
    return best


def bounding(rects: list[Rect]) -> Rect:
    left, top = min(r.left for r in rects), min(r.top for r in rects)
    right, bottom = max(r.right for r in rects), max(r.bottom for r in rects)
    return Rect(left, top, right - left, bottom - top)


def pointer_over(window: GameWindow) -> None:
    """Rest the pointer on the middle of the window, over its board, as a user may leave it."""
    x, y, width, height = window.geometry
    subprocess.run(["xdotool", "mousemove", str(x + width // 2), str(y + height // 2)], check=True)
    time.sleep(0.3)


def pointer_off(window: GameWindow) -> None:
    """Park the pointer beside the window (gnome-mines lights the tile under it), away from
    the screen's corners."""
    x, y, width, height = window.geometry
    subprocess.run(["xdotool", "mousemove", str(x + width + 20), str(y + height + 20)], check=True)
    time.sleep(0.3)


class WindowsSeen:
    """Every visible top-level window of one class that shows up while it watches (a thread
    listing the display's windows every 0.1 s): a game's dialogs, which come and go.

    Its X connection is opened here, in the test's thread: opening one swaps standard output
    for a moment (python-xlib's note), which would swallow what the code under test prints."""

    def __init__(self, window_class: str) -> None:
        self.window_class = window_class
        self.seen: set[tuple[str, Rect]] = set()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)
        self._source = X11Windows(os.environ["DISPLAY"])
        self._connection = open_x_display(self._source.display)

    def __enter__(self) -> WindowsSeen:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self._connection.close()

    def _watch(self) -> None:
        while not self._stop.wait(0.1):
            with contextlib.suppress(WindowError, XError):
                for window in self._source.listed(self._connection):
                    if any(self.window_class in name for name in window.classes):
                        self.seen.add((window.title, window.frame))

    def titles(self) -> set[str]:
        """The titles of the windows seen that showed anything (not a 1x1 owner window)."""
        return {title for title, frame in self.seen if shows_anything(frame)}
