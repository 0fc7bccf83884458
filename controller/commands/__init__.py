"""One module per ``autosweeper`` subcommand, each with ``add_parser`` and ``run``, and the
conventions they share: counts, and ``-`` for standard output wherever a file is written."""

import argparse
from pathlib import Path

MAX_COUNT = 1_000_000_000
"""The largest count (games, workers, layouts...) a command accepts: more than any run could
finish, and small enough for every library the count reaches."""

STDOUT = Path("-")
"""The file name that means standard output."""


def positive_int(text: str) -> int:
    """An argparse type for counts (games, workers...): a clear usage error, not a traceback."""
    return _whole_number(text, least=1)


def seed_int(text: str) -> int:
    """An argparse type for seeds: numpy's generators take none below 0."""
    return _whole_number(text, least=0)


def _whole_number(text: str, least: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if value < least:
        raise argparse.ArgumentTypeError(f"must be at least {least}, not {value}")
    if value > MAX_COUNT:
        raise argparse.ArgumentTypeError(f"must be at most {MAX_COUNT:,}, not {value:,}")
    return value


def unwritable(path: Path) -> str | None:
    """Why ``path`` cannot be written, or None if it can (``-``, standard output, always can).

    Checked before a long run, so that its results are not lost to a typing mistake at the end:
    the file is opened for appending (which changes nothing in an existing file) and removed
    again if it was not there before.
    """
    if path == STDOUT:
        return None
    existed = path.exists()
    try:
        with path.open("a"):
            pass
    except OSError as error:
        return f"cannot write {path}: {error.strerror or error}"
    if not existed:
        path.unlink()
    return None
