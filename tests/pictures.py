"""Captures kept as test data, read as the screen gives them (BGR, 8 bits a channel)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from vision.skin import Image


def read_picture(path: Path) -> Image:
    """The picture in image file ``path``; a missing or unreadable file fails the test here."""
    picture = cv2.imread(str(path))
    assert picture is not None, f"{path}: no picture there"
    return np.asarray(picture, dtype=np.uint8)
