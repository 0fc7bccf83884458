"""ms-toollib, loaded only when a figure needs it, and optional.

It computes a finished game's 3BV and writes replays. Its Windows wheel loads a system DLL
(``bcryptprimitives.dll``) that some systems lack (Wine 8, Windows before 10): where it cannot
be loaded, only those figures are lost. The 3BV is then left out of the log with one note on
standard error; a replay is refused with the reason.
"""

from __future__ import annotations

import functools
import importlib
import sys
from types import ModuleType

MODULE = "ms_toollib"


class ToollibMissing(Exception):
    """ms-toollib cannot be loaded here; the message says why (one line)."""


@functools.cache
def load() -> ModuleType:
    """The ms_toollib module; :class:`ToollibMissing` naming why it cannot be loaded."""
    try:
        return importlib.import_module(MODULE)
    except (ImportError, OSError) as error:
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise ToollibMissing(f"ms-toollib cannot be loaded here ({reason})") from error


def load_or_note(purpose: str) -> ModuleType | None:
    """The ms_toollib module, or None after one note per run on standard error saying what is
    left out (``purpose``) and why."""
    try:
        return load()
    except ToollibMissing as missing:
        _note_once(f"autosweeper: {purpose} left out: {missing}")
        return None


@functools.cache
def _note_once(note: str) -> None:
    print(note, file=sys.stderr)
