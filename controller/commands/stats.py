"""``autosweeper stats``: win rates and the speed of won games from the outcome log, a plot, and
exports."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from controller import report
from controller.commands import STDOUT, unwritable
from controller.errors import CommandError, ReplayError
from controller.outcomes import OutcomeLog, default_db_path
from solver.bench.progress import progress_bar


def add_parser(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "stats",
        help="win rates of the games played, with 95%% intervals, and their speed",
        description="Win rate per game and level with Wilson 95% intervals, and the medians of "
        "the won games as speed players count them (time, 3BV, 3BV/s, clicks, efficiency: 3BV "
        "per click), from the outcome log.",
    )
    parser.add_argument(
        "--db", type=Path, default=None, help=f"outcome log (default {default_db_path()})"
    )
    output = parser.add_mutually_exclusive_group()
    output.add_argument(
        "--json", action="store_true", help="print the win rates (each with its speed) as JSON"
    )
    output.add_argument(
        "--csv",
        type=Path,
        metavar="FILE",
        help="write every game as a CSV row (- for standard output)",
    )
    parser.add_argument("--plot", type=Path, metavar="FILE.png", help="draw the running win rate")
    parser.add_argument(
        "--sim",
        type=Path,
        metavar="FILE",
        help="benchmark JSON from 'autosweeper bench --out' to compare with",
    )
    parser.add_argument(
        "--evf",
        type=Path,
        metavar="FOLDER",
        help="write each won or lost game as a Metasweeper .evf replay (re-enacted at game pace)",
    )
    return parser


def run(args: argparse.Namespace) -> int:
    db = args.db or default_db_path()
    if args.plot == STDOUT:
        raise CommandError("--plot draws a PNG file: give it a file name, not -")
    for path in (args.csv, args.plot):
        if path is not None and (problem := unwritable(path)):
            raise CommandError(problem)
    simulated = report.load_simulated(args.sim) if args.sim else []
    with OutcomeLog(db, read_only=True) as log:
        games = log.games()
        if args.evf:
            _export_replays(log, args.evf)
    rates = report.win_rates(games, simulated)
    # Notes go to standard error when standard output carries data.
    notes = sys.stderr if args.json or args.csv == STDOUT else sys.stdout
    if args.json:
        print(json.dumps(report.rates_to_json(rates), indent=2))
    elif args.csv == STDOUT:
        report.write_csv(games, sys.stdout)
    elif args.csv:
        with args.csv.open("w", newline="") as out:
            count = report.write_csv(games, out)
        print(f"wrote {count} games to {args.csv}")
    else:
        tables = (report.format_table(rates), report.format_speed_table(rates))
        print("\n\n".join(tables) if rates else f"{db}: no games logged")
    if args.plot:
        report.plot_running_win_rate(games, args.plot)
        print(f"wrote the running win rate plot to {args.plot}", file=notes)
    return 0


def _export_replays(log: OutcomeLog, folder: Path) -> None:
    """Write every won or lost game as a replay (each takes as long as its game did)."""
    folder.mkdir(parents=True, exist_ok=True)
    finished = [record for record in log.games() if record.result.is_finished_game]
    with progress_bar(total=len(finished), desc="replays", unit="replay") as bar:
        for record in finished:
            target = folder / f"game-{record.id}.evf"
            try:
                path = report.export_evf(record, log.moves(record.id), target)
            except ReplayError as error:
                bar.write(f"skipped: {error}", file=sys.stderr)
            else:
                bar.write(f"wrote {path}", file=sys.stderr)
            bar.update()
