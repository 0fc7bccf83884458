"""``autosweeper calibrate``: learn a game's skin by playing it, and save it.

With ``--game`` the game is started on a private virtual display (Xvfb) at several sizes: a
sparse board shows zeros, low numbers and a won game, denser ones the high numbers. Otherwise a
fresh game must be open on the current display: the one window showing a fresh board, or the
window given by ``--region``, or found by ``--window-class`` and/or ``--window-title``.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager

from calibration.learn import Calibration
from calibration.store import check_name, name_from, save_skin
from controller.commands import positive_int
from controller.desktop.boards import the_board_window
from controller.desktop.display import VirtualDisplay
from controller.desktop.launchers import GAMES
from controller.desktop.windows import declare_dpi_aware, desktop_windows, find_window, uses_x11
from controller.errors import CommandError, SandboxError
from controller.learning import calibrate_game, calibrate_windows
from controller.locks import desktop_alone
from controller.setup import check_x_authority
from solver.bench.progress import print_above_bars
from vision.capture import ScreenGrabber
from vision.geometry import Rect
from vision.new_game import (
    KEYS_AFTER_LABELS,
    KEYS_BEFORE_LABELS,
    NEW_GAME_KEY_RULE,
    NewGame,
    is_new_game_key,
)


def add_parser(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "calibrate",
        help="learn a game's skin by playing it",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--game", choices=GAMES, help="start this game on a virtual display")
    where.add_argument("--region", help="X,Y,WIDTH,HEIGHT of a fresh game window on this display")
    window = parser.add_argument_group(
        "a fresh game window on this display, found by either or both of"
    )
    window.add_argument(
        "--window-class",
        help="text in its class (ignoring case): WM_CLASS on X11, the application's name on "
        "Windows and macOS",
    )
    window.add_argument("--window-title", help="text in its title (ignoring case)")
    parser.add_argument(
        "--name",
        help="skin name (default: the game, else letters and digits of the window class or title)",
    )
    parser.add_argument(
        "--mines", type=positive_int, help="the window's mine count (to play a game to win)"
    )
    parser.add_argument(
        "--new-game",
        type=new_game_way,
        metavar="{KEY,face,X,Y}",
        help=f"how the game starts a new one: a key ({NEW_GAME_KEY_RULE}), a click on its face, "
        "or a click at screen point X,Y beside the board (a 'New game' button); default: found "
        f"by trying the face, then {', '.join(KEYS_BEFORE_LABELS)}, a button labelled so "
        f"beside the board, {', '.join(KEYS_AFTER_LABELS)}, then a place beside the board a "
        "finished game changed, until a fresh board appears",
    )
    parser.add_argument(
        "--max-games", type=positive_int, default=150, help="games per window at most"
    )
    parser.add_argument("--seed", type=int, help="seed for the cells clicked")
    parser.add_argument("--verbose", action="store_true", help="log every click")
    return parser


def run(args: argparse.Namespace) -> int:
    searched = args.window_class or args.window_title
    if (args.game or args.region) and searched:
        print(
            "autosweeper calibrate: give one of --game, --region, or --window-class and/or "
            "--window-title",
            file=sys.stderr,
        )
        return 2  # a usage error, as argparse gives
    declare_dpi_aware()
    started = time.monotonic()
    if args.name:
        check_name(args.name)
    with logged_as_it_happens(args.verbose):
        if args.game:
            name = args.name or args.game
            with VirtualDisplay():
                result = calibrate_game(args.game, name, max_games=args.max_games, seed=args.seed)
        else:
            with desktop_alone(os.environ.get("DISPLAY")):
                result = _calibrate_on_desktop(args, searched)
    print(
        f"{result.games} games in {time.monotonic() - started:.0f} s: pitch {result.skin.pitch}, "
        f"tile {result.skin.tile_size} at {result.skin.tile_offset}, "
        f"new game by {result.skin.new_game.kind}, "
        f"first click {result.skin.extra.get('first_click', 'not told apart (taken as may lose)')}"
    )
    if not result.usable:
        raise CommandError(
            f"not saved, the games never showed {result.describe_missing()} ({result.advice()})"
        )
    if not result.complete:
        print(f"not seen yet: {result.describe_missing()} (learned during play when they show)")
    print(f"saved skin {result.skin.name!r} in {save_skin(result.skin)}")
    return 0


VERBOSE_LOGGERS = ("calibration", "controller")
"""The packages whose every logged line ``--verbose`` shows: each click, read and decision."""


class _AboveBars(logging.Handler):
    """Writes each record on standard error as it is logged, above a progress bar being drawn."""

    def emit(self, record: logging.LogRecord) -> None:
        try:
            print_above_bars(self.format(record), sys.stderr)
        except Exception:
            self.handleError(record)


@contextmanager
def logged_as_it_happens(verbose: bool) -> Iterator[None]:
    """With ``verbose``, every line calibration and the controller log shows on standard error
    as it is logged. A handler of their own: :func:`logging.basicConfig` does nothing once the
    root logger has any handler, and then ``--verbose`` printed nothing."""
    if not verbose:
        yield
        return
    handler = _AboveBars(logging.DEBUG)
    handler.setFormatter(logging.Formatter("%(relativeCreated)8.0f ms  %(message)s"))
    loggers = [logging.getLogger(name) for name in VERBOSE_LOGGERS]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.DEBUG)
        logger.addHandler(handler)
    try:
        yield
    finally:
        for logger, level in zip(loggers, levels, strict=True):
            logger.removeHandler(handler)
            logger.setLevel(level)


def _calibrate_on_desktop(args: argparse.Namespace, searched: str | None) -> Calibration:
    """Calibrate the window the user named, or the one showing a fresh board."""
    window, title = desktop_window(args.region, args.window_class, args.window_title)
    name = args.name or name_from(searched or title or "skin")
    check_name(name)
    new_game = args.new_game if isinstance(args.new_game, NewGame) else None
    new_game_at = args.new_game if isinstance(args.new_game, tuple) else None
    return calibrate_windows(
        name,
        [window],
        [args.mines] if args.mines else [],
        args.max_games,
        args.seed,
        new_game=new_game,
        new_game_at=new_game_at,
    )


def new_game_way(text: str) -> NewGame | tuple[int, int]:
    """``--new-game``: a new-game key, ``face``, or ``X,Y``, a screen point."""
    if text == "face":
        return NewGame("face")
    if is_new_game_key(text):
        return NewGame("key", text)
    parts = text.split(",")
    if len(parts) == 2 and all(part.strip().lstrip("-").isdigit() for part in parts):
        x, y = (int(part) for part in parts)
        return (x, y)
    raise argparse.ArgumentTypeError(
        f"{text!r} is no new-game key ({NEW_GAME_KEY_RULE}), face, or a screen point X,Y"
    )


def desktop_window(
    region: str | None, window_class: str | None = None, window_title: str | None = None
) -> tuple[Rect, str | None]:
    """The game window on the user's display, and its title if known: ``region``
    ("X,Y,WIDTH,HEIGHT"), or the one visible window whose class and title contain
    ``window_class`` and ``window_title``, or with neither, the one showing a fresh board."""
    if uses_x11() and not os.environ.get("DISPLAY"):
        raise SandboxError("no DISPLAY: use --game to calibrate on a virtual display")
    check_x_authority()
    if region:
        try:
            x, y, width, height = (int(v) for v in region.split(","))
        except ValueError as error:
            raise SandboxError(f"--region wants X,Y,WIDTH,HEIGHT, not {region!r}") from error
        return Rect(x, y, width, height), None
    if window_class or window_title:
        found = find_window(desktop_windows(), title=window_title, class_name=window_class)
    else:
        with ScreenGrabber(os.environ.get("DISPLAY")) as screen:
            found = the_board_window(desktop_windows(), screen)
        print(f"calibrating {found.describe()}: the one window showing a fresh board")
    return found.frame, found.title
