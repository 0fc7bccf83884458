"""``autosweeper play``: play real Minesweeper games by itself and log every one.

On a desktop it plays the game window that is open, found by the named skin or by each stored
skin in turn. With no ``DISPLAY`` (a fresh Linux server) it starts a virtual display and a game,
learns the game's skin if none is stored yet, and plays there.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterable
from contextlib import ExitStack
from pathlib import Path

from controller.commands import positive_int
from controller.desktop.launchers import GAMES
from controller.desktop.windows import declare_dpi_aware, uses_x11
from controller.errors import CommandError
from controller.loop import GamePlayer, NoFreshGame, play_games
from controller.outcomes import LoggedGame, OutcomeLog, Result, default_db_path
from controller.screen_table import ScreenTable
from controller.setup import desktop_table, needs_virtual_display, sandbox_table
from controller.stopping import STOP_KEYS, StopKey, StopRequested
from solver import LEVELS
from solver.bench.progress import print_above_bars, progress_bar
from solver.bench.stats import format_win_rate

DEFAULT_GAME = "winemine"


def add_parser(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
) -> argparse.ArgumentParser:
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
        help="the game started on a virtual display where there is no DISPLAY, on Linux "
        f"(default: {DEFAULT_GAME})",
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
        # SIGINT/SIGTERM arrive as StopRequested (controller.cli), so the virtual display and
        # game are closed too.
        with OutcomeLog(args.db or default_db_path()) as log, ExitStack() as stack:
            table = _table(args, stack)
            stop_key = stack.enter_context(StopKey(args.stop_key))
            return _play(table, log, stop_key, args)
    except StopRequested as stop:
        print(f"autosweeper play: {stop} before the first game", file=sys.stderr)
        return 130


def _play(table: ScreenTable, log: OutcomeLog, stop_key: StopKey, args: argparse.Namespace) -> int:
    player = GamePlayer(table, log, flags=args.flags, stop_key=stop_key)
    finished: list[LoggedGame] = []
    size = f"{table.geometry.rows}x{table.geometry.columns}x{table.mines}"

    def progress(games: int) -> Iterable[int]:
        bar: Iterable[int] = progress_bar(range(games), unit="game", desc=f"{table.game} {size}")
        return bar

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


def _table(args: argparse.Namespace, stack: ExitStack) -> ScreenTable:
    """The game to play: started on a virtual display, or found on the desktop."""
    if needs_virtual_display():
        return sandbox_table(stack, args.game or DEFAULT_GAME, args.level or "beginner", args.skin)
    if args.game and not uses_x11():
        raise CommandError(
            f"--game starts a game on a virtual display, which only Linux has: on {sys.platform} "
            "open the game and leave out --game"
        )
    if args.game:
        print(
            f"autosweeper play: --game is for a machine with no display; DISPLAY is "
            f"{os.environ.get('DISPLAY')}, so the game open there is played",
            file=sys.stderr,
        )
    return desktop_table(stack, args.skin, args.level, args.mines)
