"""Finding the face button: the picture above the board that changes when the game is lost.

Between a capture during play and one after a loss, the pixels that differ above the board are
the face, the counters (the timer ticks, the mine counter may change) and whatever the end of a
game brings up (a message, a button where there was nothing). The face is the changed patch
nearest the board's middle that showed a picture during play; its crop in each capture is that
state's picture.
"""

from __future__ import annotations

from collections import Counter

import cv2
import numpy as np
import numpy.typing as npt

from vision.geometry import Rect
from vision.skin import MAX_SIDE, Image

MIN_FACE_SIZE = 3
"""Changes smaller than this (pixels) in either direction are not a face."""
FACE_JOIN = (5, 5)
"""Changed pixels this close (height, width) belong to one picture of the face."""
MAX_FACE_GROWTH = 5
"""The face may be at most this many times the changed patch's longer side across (and at most
as large as a skin keeps a face, :data:`vision.skin.MAX_SIDE`)."""
PLAIN_LEVELS = 16
"""Colour levels within which a patch was one plain colour during play: nothing was there."""


def find_face(
    playing: Image, lost: Image, board: Rect, near: tuple[int, int] | None = None
) -> Rect | None:
    """The face's rectangle (in capture coordinates), or None if nothing above ``board`` changed.

    ``playing`` and ``lost`` are captures of the same window region; ``board`` is the board's
    rectangle in the same coordinates. ``near``: the new-game point the user named, where a
    picture the loss changed is the face (a toolbar's other buttons may change nearer the
    middle: a toolkit greys some out when a game ends).
    """
    above = np.zeros(playing.shape[:2], dtype=bool)
    above[: max(0, board.top)] = True
    middle = board.left + board.width / 2
    patches = [
        patch
        for patch in changed_patches(playing, lost, above, FACE_JOIN)
        if patch.width >= MIN_FACE_SIZE
        and patch.height >= MIN_FACE_SIZE
        and not _plain(crop(playing, patch))
    ]
    if not patches:
        return None
    nearest = min(patches, key=lambda patch: abs(patch.left + patch.width / 2 - middle))
    face = _whole_face(playing, nearest)
    if near is not None:
        faces = (_whole_face(playing, patch) for patch in patches)
        face = next((named for named in faces if named.contains(*near)), face)
    return None if max(face.width, face.height) > MAX_SIDE else face


def _plain(picture: Image) -> bool:
    """Whether ``picture`` is one colour, within :data:`PLAIN_LEVELS`: nothing drawn there."""
    return bool(np.ptp(picture.reshape(-1, picture.shape[2]), axis=0).max() <= PLAIN_LEVELS)


def changed_patches(
    before: Image, after: Image, where: npt.NDArray[np.bool_], join: tuple[int, int]
) -> list[Rect]:
    """The patches of pixels that differ between two captures of one region, inside ``where``:
    each the bounding box of its changed pixels, strokes less than ``join`` (height, width)
    pixels apart taken as one picture (the eyes and mouth of a face, the words of a label)."""
    changed = ((before != after).any(axis=2) & where & ~_recoloured(before, after, where)).astype(
        np.uint8
    )
    if not changed.any():
        return []
    joined = cv2.dilate(changed, np.ones(join, np.uint8))
    count, _, stats, _ = cv2.connectedComponentsWithStats(joined, connectivity=8)
    return [
        _shrink(changed, Rect(*(int(v) for v in stats[label][:4]))) for label in range(1, count)
    ]


def _recoloured(before: Image, after: Image, where: npt.NDArray[np.bool_]) -> npt.NDArray[np.bool_]:
    """The pixels inside ``where`` that show the commonest colour there in ``before`` and the
    commonest in ``after``: a background that took another colour (PyMines paints its window
    red on a loss), not a change of what is drawn on it."""
    if not where.any():
        return np.zeros(where.shape, dtype=bool)
    return np.asarray(
        np.all(before == commonest_colour(before[where]), axis=2)
        & np.all(after == commonest_colour(after[where]), axis=2),
        dtype=np.bool_,
    )


def commonest_colour(pixels: Image) -> Image:
    """The colour most of ``pixels`` (any array whose last axis is the channels) show."""
    colours, counts = np.unique(pixels.reshape(-1, pixels.shape[-1]), axis=0, return_counts=True)
    return np.asarray(colours[int(counts.argmax())], dtype=np.uint8)


def _whole_face(frame: Image, changed: Rect) -> Rect:
    """The face picture around the changed patch (a mouth or the eyes): the area of the colour
    that surrounds the patch, flood-filled, joined with the patch.

    The states differ only in parts of the picture (a won face may keep the smile and just
    add sunglasses), so the whole face is cropped for every state. If the surrounding colour
    spreads far (it is the window's background), the patch alone is kept.
    """
    height, width = frame.shape[:2]
    ring = [
        (x, y)
        for x in range(changed.left - 1, changed.right + 1)
        for y in (changed.top - 1, changed.bottom)
    ] + [
        (x, y)
        for x in (changed.left - 1, changed.right)
        for y in range(changed.top, changed.bottom)
    ]
    ring = [(x, y) for x, y in ring if 0 <= x < width and 0 <= y < height]
    if not ring:
        return changed
    colours = Counter(tuple(int(v) for v in frame[y, x]) for x, y in ring)
    colour = colours.most_common(1)[0][0]
    seed = next((x, y) for x, y in ring if tuple(int(v) for v in frame[y, x]) == colour)
    mask = np.zeros((height + 2, width + 2), np.uint8)
    cv2.floodFill(
        frame.copy(), mask, seed, (0, 0, 0), (0, 0, 0), (0, 0, 0), cv2.FLOODFILL_MASK_ONLY | 8
    )
    ys, xs = np.nonzero(mask[1:-1, 1:-1])
    face = Rect(int(xs.min()), int(ys.min()), int(np.ptp(xs)) + 1, int(np.ptp(ys)) + 1)
    most = min(MAX_FACE_GROWTH * max(changed.width, changed.height), MAX_SIDE)
    if face.width > most or face.height > most:
        return changed
    left, top = min(face.left, changed.left), min(face.top, changed.top)
    right, bottom = max(face.right, changed.right), max(face.bottom, changed.bottom)
    return Rect(left, top, right - left, bottom - top)


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
