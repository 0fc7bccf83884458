"""Progress bars that show only on a terminal.

A bar redraws itself with carriage returns; written into a log file or a pipe those frames are
noise, so every command's bar is drawn on standard error only when that is a terminal. tqdm is
imported on first use: ``autosweeper --help`` should not pay for it.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from tqdm import tqdm


def on_terminal(stream: TextIO | None = None) -> bool:
    """Whether ``stream`` (standard error by default) is a terminal."""
    stream = sys.stderr if stream is None else stream
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def progress_bar(
    iterable: Iterable[Any] | None = None, *, show: bool | None = None, **options: Any
) -> tqdm:
    """A tqdm bar on standard error, drawn only if that is a terminal (``show`` decides
    instead when given); ``options`` are tqdm's (``total``, ``desc``, ``unit``...)."""
    from tqdm import tqdm

    shown = on_terminal() if show is None else show
    return tqdm(iterable, file=sys.stderr, disable=not shown, **options)


def print_above_bars(text: str, stream: TextIO | None = None) -> None:
    """Print a line on ``stream`` (standard output by default) without breaking a bar being
    drawn on the terminal."""
    from tqdm import tqdm

    tqdm.write(text, file=sys.stdout if stream is None else stream)
