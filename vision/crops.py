"""Pictures of cells and faces that could not be read, saved for a person to look at.

A read that refuses a cell or a face says so with a PNG of its pixels (see
:class:`vision.errors.UnreadableCellError`): the user sees what the screen showed, and may add
it to the skin. Apart from :mod:`vision.read` because it is the one part of reading that writes
to the disk: the files are named by their content and the folder is kept to the newest few
hundred, so a bot left running for hours in front of an unreadable board fills no disk.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt
import platformdirs

from vision.errors import VisionError

MAX_SAVED_CROPS = 500
"""Pictures of unreadable cells and faces kept in the crops folder (the newest; a few MB)."""


def default_crops_dir() -> Path:
    """Where crops of unreadable cells go unless the caller says otherwise."""
    return platformdirs.user_cache_path("autosweeper", appauthor=False) / "unreadable"


def save_crop(folder: Path, image: npt.NDArray[np.uint8], name: str) -> Path:
    """Save ``image`` in ``folder`` as a PNG named ``name`` and its content: a picture read
    again and again (the play loop re-reads an unreadable board for seconds) is one file. The
    folder keeps the newest :data:`MAX_SAVED_CROPS`, so a bot left running fills no disk."""
    folder.mkdir(parents=True, exist_ok=True)
    picture = np.ascontiguousarray(image)
    digest = hashlib.sha256(repr(picture.shape).encode() + picture.tobytes()).hexdigest()
    path = folder / f"{name}-{digest[:16]}.png"
    if path.exists():
        path.touch()  # newest again; the folder holds no more files than before
        return path
    if not cv2.imwrite(str(path), picture):
        raise VisionError(f"could not write the crop {path}")
    _keep_newest(folder, MAX_SAVED_CROPS)
    return path


def _keep_newest(folder: Path, count: int) -> None:
    """Remove all but the ``count`` newest PNG files of ``folder``."""
    ages = []
    for path in folder.glob("*.png"):
        try:
            ages.append((path.stat().st_mtime_ns, path))
        except FileNotFoundError:  # removed meanwhile by another reader
            continue
    for _, path in sorted(ages, reverse=True)[count:]:
        path.unlink(missing_ok=True)
