"""The ``autosweeper`` command: a thin dispatcher over one module per subcommand.

Errors are caught once, here: any :class:`solver.errors.AutosweeperError` a command lets through,
and any operating-system error (a file that cannot be read or written), is printed as one line,
``autosweeper COMMAND: message``. Exit codes: 0 success, 1 runtime error
(bad data included), 2 usage error (from argparse), 130 interrupted.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from importlib.metadata import PackageNotFoundError, version

from controller.desktop.x_connections import display_lost
from controller.stopping import StopRequested, stop_on_signals
from solver.errors import AutosweeperError
from vision.heap import keep_freed_memory

SUBCOMMANDS = ("analyze", "bench", "play", "stats", "calibrate", "skins")
"""Modules of :mod:`controller.commands`; each defines ``add_parser`` and ``run``."""

RUNTIME_ERROR = 1
INTERRUPTED = 130


def package_version() -> str:
    """The installed distribution's version (or a note saying it is not installed)."""
    try:
        return version("autosweeper")
    except PackageNotFoundError:
        return "unknown (not installed)"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="autosweeper", description="Plays real desktop Minesweeper by itself."
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {package_version()}")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in SUBCOMMANDS:
        module = importlib.import_module(f"controller.commands.{name}")
        sub = module.add_parser(subparsers)
        sub.set_defaults(run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the process exit code."""
    args = build_parser().parse_args(argv)
    keep_freed_memory()
    try:
        with stop_on_signals():  # so that every command's displays and games are closed
            code = int(args.run(args) or 0)
        sys.stdout.flush()
    except AutosweeperError as error:
        print(f"autosweeper {args.command}: {error}", file=sys.stderr)
        return RUNTIME_ERROR
    except StopRequested as stop:
        print(f"autosweeper {args.command}: {stop}", file=sys.stderr)
        return INTERRUPTED
    except KeyboardInterrupt:
        print(f"autosweeper {args.command}: interrupted", file=sys.stderr)
        return INTERRUPTED
    except Exception as error:
        lost = display_lost(error)  # before OSError: the X socket's broken pipe is no stdout's
        if lost is not None:
            print(f"autosweeper {args.command}: {lost}", file=sys.stderr)
        elif isinstance(error, BrokenPipeError):
            _silence_stdout()
        elif isinstance(error, OSError):
            print(f"autosweeper {args.command}: {describe_os_error(error)}", file=sys.stderr)
        else:
            raise
        return RUNTIME_ERROR
    return code


def describe_os_error(error: OSError) -> str:
    """An operating-system error as one line naming its file (``cannot use F: No such file``)."""
    reason = error.strerror or str(error)
    return f"cannot use {error.filename}: {reason}" if error.filename else reason


def _silence_stdout() -> None:
    """The reader of our output went away (``autosweeper analyze F | head``): point standard
    output at the null device so that Python's final flush does not fail a second time."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)


if __name__ == "__main__":
    sys.exit(main())
