"""Finding a "New game" button beside the board, for a game with no face.

Two signs mark one: its label (such as "Restart", read by :mod:`calibration.labels`), and a
change a finished game makes beside the board (a "Start Over" that reads "Play Again" once a
game ends). Between the window captured during play and the finished one, the patches that
differ off the board and off the face are such buttons, counters and messages. The labels are
tried before the keys a browser takes for its own, each patch's middle after them; a try counts
only when a fresh board appears
(:meth:`calibration.new_game_ways.NewGameWays.start`), and one that turns the board
into anything else stops calibration. No place whose words say the game closes, or say
anything but a new game (a "Send to ..." link a finished page shows), is tried. A
button with no label read and the same look during play and after is not found here: the user
names it (``--new-game X,Y``).
"""

from __future__ import annotations

import logging
from typing import NamedTuple

import numpy as np

from calibration.faces import MIN_FACE_SIZE, changed_patches
from calibration.labels import Word, new_game_labels, quitting_places, says_something_else
from vision.geometry import Rect
from vision.match import picture_distance
from vision.skin import MAX_BUTTONS, MIN_SIDE, Image

log = logging.getLogger(__name__)

LABEL_JOIN = (5, 11)
"""Changed pixels this close (height, width) belong to one label: its letters and words."""
MARGIN = MIN_SIDE // 2
"""Pixels a point to try keeps from the board, the face and the window's edges (so that the
picture of the button around it can be kept, see :data:`calibration.new_game_ways.BUTTON_SIDE`)."""
MAX_TRIES = 5
"""Points tried at most: a game's counters and its end message change too, before its buttons."""


class ButtonPoints(NamedTuple):
    """Points (window coordinates) that may start a new game, each list in the order to try."""

    labelled: list[tuple[int, int]]
    """The middles of the labels that say so: the game's own word for its new game."""
    changed: list[tuple[int, int]]
    """The middles of other places a finished game changed: a button, or a counter or a
    message (a click on those does nothing)."""


def button_points(
    playing: Image, ended: Image, board: Rect, face: Rect | None, words: list[Word]
) -> ButtonPoints:
    """Points that may start a new game: the labels that ``words`` (read in ``ended``) make
    and that say so (:func:`calibration.labels.new_game_labels`); and the middles of the other
    patches that differ between ``playing`` and ``ended`` (captures of the window) off
    ``board`` and ``face``, top to bottom, then left to right, at most :data:`MAX_TRIES` of
    them. No point is on a place whose words say the game closes, or say something else than
    a new game.
    """
    height, width = playing.shape[:2]
    where = np.zeros((height, width), dtype=bool)
    where[MARGIN : height - MARGIN, MARGIN : width - MARGIN] = True
    for taken in blanked(board, face):
        where[taken.top : taken.bottom, taken.left : taken.right] = False
    labels = new_game_labels(words)
    known = labels + quitting_places(words)
    patches = [
        patch
        for patch in changed_patches(playing, ended, where, LABEL_JOIN)
        if patch.width >= MIN_FACE_SIZE
        and patch.height >= MIN_FACE_SIZE
        and not any(patch.overlaps(place) for place in known)
        and not says_something_else(patch, words)
    ]
    patches.sort(key=lambda patch: (patch.top, patch.left))
    # A patch bent round a corner of the board may have its middle on it.
    return ButtonPoints(
        [(x, y) for x, y in (label.centre for label in labels) if where[y, x]],
        [(x, y) for x, y in (p.centre for p in patches[:MAX_TRIES]) if where[y, x]],
    )


def blanked(board: Rect, face: Rect | None) -> list[Rect]:
    """The board and the face, each with :data:`MARGIN` pixels around it: no point is there,
    and no word is read there."""
    grown = []
    for rect in (board, face):
        if rect is not None:
            left, top = max(rect.left - MARGIN, 0), max(rect.top - MARGIN, 0)
            grown.append(Rect(left, top, rect.right + MARGIN - left, rect.bottom + MARGIN - top))
    return grown


def distinct_looks(looks: list[Image], threshold: float) -> tuple[Image, ...]:
    """The looks of a new-game button to keep, in the order seen: each one further than half
    the match ``threshold`` from those kept before (play takes a look within the threshold of
    one kept), at most :data:`vision.skin.MAX_BUTTONS`."""

    def near(look: Image, kept_look: Image) -> bool:
        return look.shape == kept_look.shape and picture_distance(kept_look, look) <= threshold / 2

    kept: list[Image] = []
    for look in looks:
        if not any(near(look, kept_look) for kept_look in kept):
            kept.append(look)
    if len(kept) > MAX_BUTTONS:
        log.warning(
            "the new-game button showed %d looks; play clicks it only while it shows one of "
            "the first %d",
            len(kept),
            MAX_BUTTONS,
        )
    return tuple(kept[:MAX_BUTTONS])
