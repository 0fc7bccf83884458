"""A board seen through a veil: a game drawn in a browser (or any toolkit that shades the window
under a modal message) dims or pales everything under a dialog it opens inside its own window,
so every cell stops matching its tile at once. Told apart from a board that changed: the new
frame is the old one through one uniform veil, ``now = gain * before + offset`` on most pixels,
the rest being the dialog itself or cells a click changed before it opened.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from vision.skin import Image

MAX_GAIN = 0.85
"""A veil takes away at least this much of the contrast (a browser's dialogs leave 0.4 of it)."""
FIT_LEVELS = 6.0
"""Colour levels within which a pixel is as the veil makes it."""
MIN_FIT = 0.6
"""Share of the pixels that must be as the veil makes them: a dialog may lie over the rest."""
MIN_SPREAD = 8.0
"""Levels the old frame's pixels must spread (standard deviation): a frame of one colour looks
veiled by any change."""
LEVEL_BINS = 32
"""Grey-level bins of the old frame whose medians fit the veil, each bin robust to the pixels
a dialog covers as long as most of its pixels are not covered."""
MIN_BIN_SHARE = 0.005
"""Share of the pixels a bin needs to vote in the fit."""


@dataclass(frozen=True)
class Veil:
    """``now = gain * before + offset`` on :attr:`share` of the pixels."""

    gain: float
    offset: float
    share: float

    def off(self, before: Image, now: Image) -> npt.NDArray[np.bool_]:
        """The pixels of ``now`` that are not ``before`` through this veil: what lies over it
        (a dialog), or changed under it."""
        expected = self.gain * before.astype(np.float32) + self.offset
        return np.asarray(np.abs(now.astype(np.float32) - expected).max(axis=2) > FIT_LEVELS)


def find_veil(before: Image, now: Image) -> Veil | None:
    """The veil through which ``now`` shows ``before`` (two captures of one area), or None if
    ``now`` is not ``before`` dimmed or paled (see :data:`MAX_GAIN`, :data:`MIN_FIT`)."""
    if before.shape != now.shape:
        raise ValueError(f"frames of different shapes: {before.shape} and {now.shape}")
    old = before.astype(np.float32).ravel()
    new = now.astype(np.float32).ravel()
    if old.std() < MIN_SPREAD:
        return None
    bins = np.minimum((old * (LEVEL_BINS / 256)).astype(np.int64), LEVEL_BINS - 1)
    xs, ys, weights = [], [], []
    for level in np.unique(bins):
        chosen = bins == level
        count = int(chosen.sum())
        if count >= MIN_BIN_SHARE * old.size:
            xs.append(float(np.median(old[chosen])))
            ys.append(float(np.median(new[chosen])))
            weights.append(count)
    if len(xs) < 2 or max(xs) - min(xs) < MIN_SPREAD:
        return None
    gain, offset = _line_most_bins_fit(np.array(xs), np.array(ys), np.array(weights))
    share = float((np.abs(new - (gain * old + offset)) <= FIT_LEVELS).mean())
    if not 0.0 < gain <= MAX_GAIN or share < MIN_FIT:
        return None
    return Veil(gain, offset, share)


def _line_most_bins_fit(xs: np.ndarray, ys: np.ndarray, weights: np.ndarray) -> tuple[float, float]:
    """The line through two of the points (xs, ys) that the most weight lies on (within
    :data:`FIT_LEVELS`), fitted again to the points on it: a bin whose pixels a dialog mostly
    covers is off the veil's line, and must not tilt it."""
    best, best_weight = (1.0, 0.0), -1.0
    for first in range(len(xs)):
        for second in range(first + 1, len(xs)):
            run = xs[second] - xs[first]
            if abs(run) < MIN_SPREAD:
                continue
            gain = (ys[second] - ys[first]) / run
            offset = ys[first] - gain * xs[first]
            on = np.abs(ys - (gain * xs + offset)) <= FIT_LEVELS
            if weights[on].sum() > best_weight:
                best, best_weight = (gain, offset), float(weights[on].sum())
    gain, offset = best
    on = np.abs(ys - (gain * xs + offset)) <= FIT_LEVELS
    if on.sum() >= 2 and np.ptp(xs[on]) >= MIN_SPREAD:
        gain, offset = np.polyfit(xs[on], ys[on], 1, w=np.sqrt(weights[on]))
    return float(gain), float(offset)
