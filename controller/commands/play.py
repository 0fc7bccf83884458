"""``autosweeper play``: play real Minesweeper games by itself and log every one.

On a desktop it plays the game window that is open, found by the named skin or by each stored
skin in turn. With no ``DISPLAY`` (a fresh Linux server) it starts a virtual display and a game,
learns the game's skin if none is stored yet, and plays there.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Iterable, Mapping, Sequence
from contextlib import ExitStack
from pathlib import Path

from calibration.evidence import CalibrationError
from calibration.store import list_skins, load_skin, save_skin, skins_dir
from controller.commands import positive_int
from controller.commands.calibrate import calibrate_game
from controller.errors import ControllerError
from controller.mouse import Mouse
from controller.outcomes import GameRecord, OutcomeLog, Result, default_db_path
from controller.play import (
    STOP_KEYS,
    NoFreshGame,
    Player,
    ScreenTable,
    StopKey,
    StopRequested,
    play_games,
    stop_on_signals,
)
from controller.sandbox import (
    GAMES,
    XDEMINEUR_MIN_COLUMNS,
    SandboxError,
    VirtualDisplay,
    launch_game,
)
from controller.windows import declare_dpi_aware
from solver import LEVELS
from solver.bench.progress import print_above_bars, progress_bar
from solver.bench.stats import format_win_rate
from vision.capture import ScreenGrabber
from vision.errors import BoardNotFoundError, VisionError
from vision.geometry import BoardGeometry, Rect
from vision.locate import locate_on_screen
from vision.skin import Skin, SkinError

KNOWN_FIRST_CLICK = {"winemine": "safe"}
"""First-click rules of the games we know (Wine's winemine moves a mine from under the first
click); other games are played assuming the first click may lose."""

DRAW_TIMEOUT = 10.0
"""Seconds a just-started game may take to draw its window."""


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "play",
        help="play real Minesweeper games and log each one",
        description=(
            "Play the Minesweeper window that is open (or, with no DISPLAY, one started on a "
            "virtual display) and log every game. Stop with Ctrl-C, by holding the stop key, or "
            "by moving the pointer into a screen corner (pyautogui's fail-safe)."
        ),
    )
    parser.add_argument("--games", type=positive_int, default=1, help="games to play (default: 1)")
    parser.add_argument(
        "--level",
        choices=list(LEVELS),
        help="the level to play: the size of the board looked for on a desktop, and of the game "
        "started when there is no DISPLAY (default: any board found; beginner)",
    )
    parser.add_argument("--skin", help="the stored skin to look for (default: each in turn)")
    parser.add_argument(
        "--mines",
        type=positive_int,
        help="the mine count, for a board that is not a standard level",
    )
    parser.add_argument("--flags", action="store_true", help="flag every mine found")
    parser.add_argument(
        "--game",
        choices=GAMES,
        default="winemine",
        help="the game started when there is no DISPLAY (default: %(default)s)",
    )
    parser.add_argument(
        "--db", type=Path, default=None, help=f"outcome log (default {default_db_path()})"
    )
    parser.add_argument(
        "--stop-key",
        choices=list(STOP_KEYS),
        default="Escape",
        help="hold this key down to stop before the next click (default: %(default)s)",
    )
    return parser


def run(args: argparse.Namespace) -> int:
    declare_dpi_aware()
    try:
        # SIGINT/SIGTERM become StopRequested, so the virtual display and game are closed too.
        with (
            stop_on_signals(),
            OutcomeLog(args.db or default_db_path()) as log,
            ExitStack() as stack,
        ):
            table = _table(args, stack)
            stop_key = stack.enter_context(StopKey(args.stop_key))
            return _play(table, log, stop_key, args)
    except StopRequested as stop:
        print(f"autosweeper play: {stop} before the first game", file=sys.stderr)
        return 130


class SetupError(ControllerError):
    """No game to play: no display, no window, no skin that matches. The message says which."""


def _play(table: ScreenTable, log: OutcomeLog, stop_key: StopKey, args: argparse.Namespace) -> int:
    player = Player(table, log, flags=args.flags, stop_key=stop_key)
    finished: list[GameRecord] = []
    size = f"{table.geometry.rows}x{table.geometry.columns}x{table.mines}"

    def progress(games: int) -> Iterable[int]:
        return progress_bar(range(games), unit="game", desc=f"{table.game} {size}")

    interrupted = False
    try:
        for report in play_games(player, args.games, echo=print_above_bars, progress=progress):
            if report.record.result.is_finished_game:
                finished.append(report.record)
    except (StopRequested, NoFreshGame) as stop:
        interrupted = isinstance(stop, StopRequested)
        print(f"stopped: {stop}", file=sys.stderr)
    won = sum(record.result == Result.WON for record in finished)
    print(
        f"{won} of {len(finished)} games won: win rate {format_win_rate(won, len(finished))} "
        f"(outcomes in {log.path})"
    )
    if interrupted:
        return 130
    return 0 if len(finished) == args.games else 1


def needs_virtual_display(
    platform: str = sys.platform, environ: Mapping[str, str] = os.environ
) -> bool:
    """True on a Linux (X11) machine with no ``DISPLAY``: there is nothing to see or click."""
    return platform.startswith("linux") and not environ.get("DISPLAY")


def _table(args: argparse.Namespace, stack: ExitStack) -> ScreenTable:
    """The game to play: started on a virtual display, or found on the desktop."""
    if needs_virtual_display():
        return sandbox_table(stack, args.game, args.level or "beginner", args.skin)
    grabber = stack.enter_context(ScreenGrabber(os.environ.get("DISPLAY")))
    check_x_authority()
    skins = _stored_skins(args.skin)
    if not skins:
        raise SetupError(
            f"no stored skin{f' named {args.skin!r}' if args.skin else ''} in {skins_dir()}; "
            "learn one with 'autosweeper calibrate' first"
        )
    level = LEVELS.get(args.level or "")
    skin, geometry = _locate_first(grabber, skins, shape=level[:2] if level else None)
    mines = args.mines or (level[2] if level else _standard_mines(geometry.rows, geometry.columns))
    game = str(skin.extra.get("game", skin.name))
    return _screen_table(grabber, skin, geometry, mines, game)


def check_x_authority(
    platform: str = sys.platform, environ: Mapping[str, str] = os.environ
) -> None:
    """On X11, refuse to go on without a readable X authority file: python-xlib, through which
    pyautogui clicks and the stop key is read, will not connect without one, even to a display
    that asks for no cookie."""
    if not platform.startswith("linux"):
        return
    display = environ.get("DISPLAY")
    if "XAUTHORITY" in environ:
        path, where = Path(environ["XAUTHORITY"]), "XAUTHORITY names"
    elif environ.get("HOME"):
        path, where = Path(environ["HOME"]) / ".Xauthority", "the default is"
    else:
        raise SetupError(
            f"display {display}: HOME and XAUTHORITY are unset, so python-xlib (which clicks) "
            "finds no X authority file: set XAUTHORITY to the display's authority file"
        )
    if not os.access(path, os.R_OK) or not path.is_file():
        raise SetupError(
            f"display {display}: no readable X authority file ({where} {path}), which python-xlib "
            f"(which clicks) needs: set XAUTHORITY to the display's authority file, or create an "
            f"empty {path} if the display asks for no cookie"
        )


def sandbox_table(
    stack: ExitStack, game: str, level: str, skin_name: str | None, click_pause: float | None = None
) -> ScreenTable:
    """Start Xvfb and ``game`` at ``level`` (closed when ``stack`` exits), learn the game's skin
    unless one is stored (or ``skin_name`` is given), and locate its board. ``click_pause``:
    seconds the mouse waits after each click (default :data:`controller.mouse.DEFAULT_PAUSE`)."""
    rows, columns, mines = LEVELS[level]
    if game == "xdemineur":
        columns = max(columns, XDEMINEUR_MIN_COLUMNS)
    try:
        stack.enter_context(VirtualDisplay())
        print(f"playing {game} on virtual display {os.environ['DISPLAY']}")
        if skin_name or game in list_skins():
            skins = _stored_skins(skin_name or game)
        else:
            skins = [_learn_skin(game)]
        window = stack.enter_context(launch_game(game, (rows, columns, mines)))
    except SandboxError as error:
        raise SetupError(f"cannot start {game} on a virtual display: {error}") from error
    grabber = stack.enter_context(ScreenGrabber(os.environ.get("DISPLAY")))
    wait_until_drawn(grabber, Rect(*window.geometry))
    skin, geometry = _locate_first(grabber, skins, shape=(rows, columns))
    return _screen_table(grabber, skin, geometry, mines, game, click_pause)


def _screen_table(
    grabber: ScreenGrabber,
    skin: Skin,
    geometry: BoardGeometry,
    mines: int,
    game: str,
    click_pause: float | None = None,
) -> ScreenTable:
    mouse = Mouse() if click_pause is None else Mouse(pause=click_pause)
    return ScreenTable(
        grabber, skin, geometry, mouse, mines, game=game, first_click=_first_click(game, skin)
    )


def _locate_first(
    grabber: ScreenGrabber, skins: Sequence[Skin], shape: tuple[int, int] | None = None
) -> tuple[Skin, BoardGeometry]:
    """The first skin whose board is on the screen, with where; else say why each failed."""
    problems = []
    for skin in skins:
        try:
            return skin, locate_on_screen(grabber, skin, shape=shape)
        except BoardNotFoundError as error:
            problems.append(str(error))
    raise SetupError("no Minesweeper board on the screen:\n  " + "\n  ".join(problems))


def _standard_mines(rows: int, columns: int) -> int:
    for level_rows, level_columns, mines in LEVELS.values():
        if (level_rows, level_columns) == (rows, columns):
            return mines
    raise SetupError(
        f"the board is {rows}x{columns}, not a standard level: give its mine count with --mines"
    )


def _first_click(game: str, skin: Skin) -> str | None:
    rule = skin.extra.get("first_click", KNOWN_FIRST_CLICK.get(game))
    return None if rule is None else str(rule)


def _stored_skins(name: str | None) -> list[Skin]:
    """The stored skin called ``name`` (which must load), or every stored skin that loads."""
    if name:
        try:
            return [load_skin(name)]
        except SkinError as error:
            raise SetupError(str(error)) from error
    skins = []
    for stored in list_skins():
        try:
            skins.append(load_skin(stored))
        except SkinError as error:
            print(f"skipped a broken skin: {error}", file=sys.stderr)
    return skins


def wait_until_drawn(grabber: ScreenGrabber, area: Rect, timeout: float = DRAW_TIMEOUT) -> None:
    """Wait until a just-opened window shows more than one colour (it is mapped before it is
    drawn); raise :class:`SetupError` naming the area after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        frame = grabber.grab(area)
        if (frame != frame[0, 0]).any():
            return
        if time.monotonic() > deadline:
            raise SetupError(f"the game window at {area} stayed blank for {timeout:.0f} s")
        time.sleep(0.05)


def _learn_skin(game: str) -> Skin:
    """Calibrate ``game`` on boards of its own (closed afterwards) and store the skin if it is
    complete; an incomplete one is used for this run only, and what it lacks is said."""
    print(f"no stored skin for {game}: learning it (this plays some throwaway games)")
    try:
        learned = calibrate_game(game)
    except (CalibrationError, VisionError) as error:
        raise SetupError(f"could not learn the skin of {game}: {error}") from error
    if learned.complete:
        print(f"learned skin {game!r} in {learned.games} games, saved in {save_skin(learned.skin)}")
    else:
        print(
            f"learned skin {game!r} in {learned.games} games but never saw "
            f"{learned.describe_missing()}: not saved, used for this run only"
        )
    return learned.skin
