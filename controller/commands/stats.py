"""``autosweeper stats``: win rates from the outcome log, a plot, and exports."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from controller import report
from controller.outcomes import OutcomeLog, OutcomeLogError, default_db_path


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "stats",
        help="win rates of the games played, with 95%% intervals",
        description="Win rate per game and level with Wilson 95% intervals, from the outcome log.",
    )
    parser.add_argument(
        "--db", type=Path, default=None, help=f"outcome log (default {default_db_path()})"
    )
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="print the win rates as JSON")
    output.add_argument("--csv", type=Path, metavar="FILE", help="write every game as a CSV row")
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
    try:
        simulated = report.load_simulated(args.sim) if args.sim else []
        with OutcomeLog(db, read_only=True) as log:
            games = log.games()
            if args.evf:
                _export_replays(log, args.evf)
    except (OutcomeLogError, ValueError, OSError) as error:
        print(f"autosweeper stats: {error}", file=sys.stderr)
        return 2
    rates = report.win_rates(games, simulated)
    if args.json:
        print(json.dumps(report.rates_to_json(rates), indent=2))
    elif args.csv:
        count = report.write_csv(games, args.csv)
        print(f"wrote {count} games to {args.csv}")
    else:
        print(report.format_table(rates) if rates else f"{db}: no games logged")
    if args.plot:
        report.plot_running_win_rate(games, args.plot)
        print(
            f"wrote the running win rate plot to {args.plot}",
            file=sys.stderr if args.json else sys.stdout,
        )
    return 0


def _export_replays(log: OutcomeLog, folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for record in log.games():
        if not record.result.is_finished_game:
            continue
        try:
            path = report.export_evf(record, log.moves(record.id), folder / f"game-{record.id}.evf")
        except report.ReplayError as error:
            print(f"skipped: {error}", file=sys.stderr)
        else:
            print(f"wrote {path}", file=sys.stderr)
