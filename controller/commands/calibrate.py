"""``autosweeper calibrate``: learn a game's skin by playing it, and save it.

With ``--game`` the game is started on a private virtual display (Xvfb) at several sizes: a
sparse board shows zeros, low numbers and a won game, denser ones the high numbers. Otherwise a
fresh game must be open on the current display, given by ``--region``, or found by
``--window-class`` and/or ``--window-title``.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import time
from collections.abc import Sequence

from calibration.learn import Calibration, calibrate
from calibration.store import check_name, save_skin
from controller.commands import positive_int
from controller.errors import CommandError
from controller.mouse import Mouse
from controller.sandbox import (
    GAMES,
    GameWindow,
    SandboxError,
    Size,
    VirtualDisplay,
    launch_game,
)
from controller.windows import declare_dpi_aware, desktop_windows, find_window, uses_x11
from vision.capture import ScreenGrabber
from vision.geometry import Rect

CALIBRATION_BOARDS: dict[str, tuple[Size, ...]] = {
    "winemine": ((9, 9, 10), (12, 12, 100)),
    "xdemineur": ((9, 12, 10), (16, 16, 150), (16, 16, 215)),
}
"""Per game a sparse board (zeros, low numbers, an easy win) and dense ones for the numbers up
to 8. winemine's first click is safe, so its dense board shows a high number every game;
xdemineur's first click may hit a mine, so a board of about 60% mines shows the middle numbers
often and one of 84% the 7s and 8s."""
WINDOW_GAP = 20
REDRAW_WAIT = 0.5
"""Seconds for windows uncovered by a move to redraw before the first capture."""


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
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
        "--name", help="skin name (default: the game, else the window class or title)"
    )
    parser.add_argument("--mines", type=int, help="the window's mine count (to play a game to win)")
    parser.add_argument(
        "--max-games", type=positive_int, default=150, help="games per window at most"
    )
    parser.add_argument("--seed", type=int, help="seed for the cells clicked")
    parser.add_argument("--verbose", action="store_true", help="log every click")
    return parser


def run(args: argparse.Namespace) -> int:
    searched = args.window_class or args.window_title
    if bool(args.game or args.region) == bool(searched):
        print(
            "autosweeper calibrate: give one of --game, --region, or --window-class and/or "
            "--window-title",
            file=sys.stderr,
        )
        return 2  # a usage error, as argparse gives
    if args.verbose:
        logging.basicConfig(level=logging.DEBUG, format="%(relativeCreated)8.0f ms  %(message)s")
    declare_dpi_aware()
    started = time.monotonic()
    name = args.name or args.game or args.window_class or args.window_title or "skin"
    check_name(name)
    if args.game:
        with VirtualDisplay():
            result = calibrate_game(args.game, name, max_games=args.max_games, seed=args.seed)
    else:
        window = desktop_window(args.region, args.window_class, args.window_title)
        mines = [args.mines] if args.mines else []
        result = _calibrate_windows(name, [window], mines, args.max_games, args.seed)
    print(
        f"{result.games} games in {time.monotonic() - started:.0f} s: pitch {result.skin.pitch}, "
        f"tile {result.skin.tile_size} at {result.skin.tile_offset}, "
        f"new game by {result.skin.new_game.kind}"
    )
    if not result.complete:
        raise CommandError(
            f"not saved, the games never showed {result.describe_missing()} "
            "(try more --max-games, or a board with more mines)"
        )
    print(f"saved skin {result.skin.name!r} in {save_skin(result.skin)}")
    return 0


def calibrate_game(
    game: str,
    name: str | None = None,
    *,
    origin: tuple[int, int] = (WINDOW_GAP, 2 * WINDOW_GAP),
    max_games: int = 150,
    seed: int | None = None,
) -> Calibration:
    """Start ``game`` on the current (virtual) display at its calibration sizes, side by side
    from screen point ``origin``, and learn its skin. The windows are closed afterwards."""
    with ScreenGrabber() as grabber:
        screen = grabber.screen
    windows: list[GameWindow] = []
    try:
        left, top = origin
        row_height = 0
        for size in CALIBRATION_BOARDS[game]:
            window = launch_game(game, size)
            windows.append(window)
            width, height = window.geometry.width, window.geometry.height
            if left + width > screen.right and left != origin[0]:  # next row of windows
                left, top, row_height = origin[0], top + row_height + WINDOW_GAP, 0
            if left + width > screen.right or top + height > screen.bottom:
                raise SandboxError(
                    f"a {width}x{height} {game} window does not fit on the {screen.width}x"
                    f"{screen.height} screen at ({left}, {top})"
                )
            window.move(left, top)
            left += width + WINDOW_GAP
            row_height = max(row_height, height)
        time.sleep(REDRAW_WAIT)
        rects = [Rect(*window.geometry) for window in windows]
        mines = [size[2] for size in CALIBRATION_BOARDS[game]]
        return _calibrate_windows(name or game, rects, mines, max_games, seed)
    finally:
        for window in windows:
            window.close()


def _calibrate_windows(
    name: str,
    windows: Sequence[Rect],
    mines: Sequence[int | None],
    max_games: int,
    seed: int | None,
) -> Calibration:
    mouse = Mouse(windows)
    with ScreenGrabber() as grabber:
        return calibrate(name, mouse, grabber, windows, mines=mines, max_games=max_games, seed=seed)


def desktop_window(
    region: str | None, window_class: str | None = None, window_title: str | None = None
) -> Rect:
    """The game window on the user's display: ``region`` ("X,Y,WIDTH,HEIGHT"), or the one
    visible window whose class and title contain ``window_class`` and ``window_title``."""
    if uses_x11() and not os.environ.get("DISPLAY"):
        raise SandboxError("no DISPLAY: use --game to calibrate on a virtual display")
    if region:
        try:
            x, y, width, height = (int(v) for v in region.split(","))
        except ValueError as error:
            raise SandboxError(f"--region wants X,Y,WIDTH,HEIGHT, not {region!r}") from error
        return Rect(x, y, width, height)
    return find_window(desktop_windows(), title=window_title, class_name=window_class).frame
