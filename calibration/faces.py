"""Finding the face button: the picture above the board that changes when the game is lost.

Between a capture during play and one after a loss, the pixels that differ above the board are
the face and the counters (the timer ticks, the mine counter may change). The face is the
changed patch nearest the board's middle; its crop in each capture is that state's picture.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.geometry import Rect
from vision.skin import Image

MIN_FACE_SIZE = 6
"""Changes smaller than this (pixels) in both directions are not a face."""


def find_face(playing: Image, lost: Image, board: Rect) -> Rect | None:
    """The face's rectangle (in capture coordinates), or None if nothing above ``board`` changed.

    ``playing`` and ``lost`` are captures of the same window region; ``board`` is the board's
    rectangle in the same coordinates.
    """
    above = slice(0, max(0, board.top))
    changed = (playing[above] != lost[above]).any(axis=2).astype(np.uint8)
    if not changed.any():
        return None
    # Join the strokes of one picture (eyes, mouth) into one patch.
    joined = cv2.dilate(changed, np.ones((5, 5), np.uint8))
    count, _, stats, _ = cv2.connectedComponentsWithStats(joined, connectivity=8)
    middle = board.left + board.width / 2
    best: tuple[float, Rect] | None = None
    for label in range(1, count):
        x, y, width, height, _ = (int(v) for v in stats[label])
        if width < MIN_FACE_SIZE or height < MIN_FACE_SIZE:
            continue
        patch = _shrink(changed, Rect(x, y, width, height))
        distance = abs(patch.left + patch.width / 2 - middle)
        if best is None or distance < best[0]:
            best = (distance, patch)
    return None if best is None else best[1]


def _shrink(changed: np.ndarray, box: Rect) -> Rect:
    """The bounding box of the changed pixels inside a dilated patch."""
    inside = changed[box.top : box.bottom, box.left : box.right]
    ys, xs = np.nonzero(inside)
    return Rect(
        box.left + int(xs.min()), box.top + int(ys.min()), int(np.ptp(xs)) + 1, int(np.ptp(ys)) + 1
    )


def crop(frame: Image, rect: Rect) -> Image:
    """A copy of ``rect`` of ``frame``."""
    return np.array(frame[rect.top : rect.bottom, rect.left : rect.right])
