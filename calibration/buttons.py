"""Finding a "New game" button beside the board: a place off the board that a finished game changed.

A game with neither a face nor a new-game key may show a button beside the board once a game
ends, or relabel one it shows during play (gnome-mines' "Start Over" becomes "Play Again").
Between the window captured during play and the finished one, the patches that differ off the
board and off the face are such buttons, counters and messages. Each patch's middle is a point
to try; a try counts only when a fresh board appears
(:meth:`calibration.session.CalibrationPlayer.start_new_game`), and one that turns the board
into anything else stops calibration. A button that looks the same during play and after it is
not found here: the user names it (``--new-game X,Y``).
"""

from __future__ import annotations

import numpy as np

from calibration.faces import MIN_FACE_SIZE, changed_patches
from vision.geometry import Rect
from vision.skin import MIN_SIDE, Image

LABEL_JOIN = (5, 11)
"""Changed pixels this close (height, width) belong to one label: its letters and words."""
MARGIN = MIN_SIDE // 2
"""Pixels a point to try keeps from the board, the face and the window's edges (so that the
picture of the button around it can be kept, see :data:`calibration.session.BUTTON_SIDE`)."""
MAX_TRIES = 5
"""Points tried at most: a game's counters and its end message change too, before its buttons."""


def button_points(
    playing: Image, ended: Image, board: Rect, face: Rect | None
) -> list[tuple[int, int]]:
    """Points (window coordinates) that may start a new game: the middles of the patches that
    differ between ``playing`` and ``ended`` (captures of the window) off ``board`` and
    ``face``, top to bottom, then left to right; at most :data:`MAX_TRIES`."""
    height, width = playing.shape[:2]
    where = np.zeros((height, width), dtype=bool)
    where[MARGIN : height - MARGIN, MARGIN : width - MARGIN] = True
    for taken in (board, face):
        if taken is not None:
            top, left = max(taken.top - MARGIN, 0), max(taken.left - MARGIN, 0)
            where[top : taken.bottom + MARGIN, left : taken.right + MARGIN] = False
    patches = [
        patch
        for patch in changed_patches(playing, ended, where, LABEL_JOIN)
        if patch.width >= MIN_FACE_SIZE and patch.height >= MIN_FACE_SIZE
    ]
    patches.sort(key=lambda patch: (patch.top, patch.left))
    # A patch bent round a corner of the board may have its middle on it.
    points = [(x, y) for x, y in (patch.centre for patch in patches) if where[y, x]]
    return points[:MAX_TRIES]
