"""One module per ``autosweeper`` subcommand, each with ``add_parser`` and ``run``."""

import argparse


def positive_int(text: str) -> int:
    """An argparse type for counts (games, workers...): a clear usage error, not a traceback."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value
